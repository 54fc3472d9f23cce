"""House-rule keys: schema errors and load-time checks, each with file:line:col, caret
and hint, exactly as `dominorules validate` prints them."""

from __future__ import annotations

from pathlib import Path

from dominorules.rules import check_ruleset


def _errors(path) -> list:
    """check_ruleset's errors (its note that more checks run later left out)."""
    return [d for d in check_ruleset(str(path)) if d.severity == "error"]

INVALID = Path(__file__).parent / "rulesets" / "invalid"


def rendered(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    return [d.render(source) for d in check_ruleset(str(path))]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text("extends: pagat\ntitle: A house rule\n" + text, encoding="utf-8")
    return path


# --- schema errors of the new keys ------------------------------------------------------


def test_lead_formula_or_word_gets_a_did_you_mean():
    path = INVALID / "house-keys.yaml"
    assert rendered(path)[0] == (
        f"{path}:4:10: error: lead.later must be one of: lot, seat_zero, highest_double, "
        "opening_tile_holder, draw_highest_tile, exposed_tiles, rotate, same, winner, or a "
        "formula (not the string 'rotat') [lead.later]\n"
        "    4 |   later: rotat\n"
        "      |          ^\n"
        "  hint: did you mean 'rotate'?")


def test_a_word_that_is_no_choice_and_no_formula_shows_a_formula(tmp_path: Path):
    path = write(tmp_path, "lead:\n  later: blocker\n")
    (diagnostic,) = check_ruleset(str(path))
    assert diagnostic.hint == 'expected a formula, e.g. "winner if winner >= 0 else leader + 1"'


def test_errors_inside_list_items_name_the_item():
    path = INVALID / "house-keys.yaml"
    out = rendered(path)
    assert out[3] == (
        f"{path}:11:7: error: missing required key 'explain' in play.restrictions[0] "
        "[play.restrictions[0].explain]\n"
        '   11 |     - allow: "tile.is_double or not any(playable.is_double)"\n'
        "      |       ^\n"
        "  hint: add explain: to play.restrictions[0]. Why a placement breaking it is illegal, "
        "in the rule's own words (\"you hold a "
        'playable double, so you must play one").')
    assert out[4] == (
        f"{path}:13:12: error: events[0].after must be one of: place, draw, pass (not the "
        "string 'plac') [events[0].after]\n"
        "   13 |   - after: plac\n"
        "      |            ^\n"
        "  hint: did you mean 'place'?")
    assert out[5] == (
        f"{path}:16:5: error: unknown key 'pionts' in events[1] [events[1].pionts]\n"
        '   16 |     pionts: "end_total"\n'
        "      |     ^\n"
        "  hint: did you mean 'points'?")


def test_yaml_yes_is_one_error_with_a_hint():
    path = INVALID / "house-keys.yaml"
    assert rendered(path)[6] == (
        f"{path}:18:12: error: board.spinner must be one of: none, first_double (not "
        "true/false) [board.spinner]\n"
        "   18 |   spinner: yes\n"
        "      |            ^\n"
        "  hint: YAML reads yes, no, on and off as true or false: write one of none, "
        "first_double")


def test_an_unknown_fact_in_an_event_lists_what_the_event_offers(tmp_path: Path):
    path = write(tmp_path, 'events:\n  - after: pass\n    points: "tile.pips"\n')
    assert rendered(path) == [
        f"{path}:5:14: error: unknown name 'tile'; event_pass offers: board, boneyard, "
        "drawn_this_turn, end_doubles, end_tiles, end_total, ends, hand, line, opponents, "
        "passes_in_row, player, players, round, side, sides, target [events[0].points]\n"
        '    5 |     points: "tile.pips"\n'
        "      |              ^^^^\n"
        "  hint: only claim, duty_met, event_draw, event_place, fit, opening, placement, "
        "set_keep, several, tile_value and wild formulas offer 'tile'; did you mean 'end_tiles'?"]


# --- load-time checks -------------------------------------------------------------------


def test_another_turn_after_a_pass_is_refused(tmp_path: Path):
    path = write(tmp_path, "events:\n  - after: pass\n    again: true\n")
    assert rendered(path) == [
        f"{path}:5:12: error: another turn after a pass can loop forever: the player passed "
        "because they could not play, and nothing has changed [events[0].again]\n"
        "    5 |     again: true\n"
        "      |            ^\n"
        "  hint: give 'again' to an event after place (a tile leaves the hand) or after draw "
        "(the boneyard shrinks), or remove it"]


def test_another_turn_after_a_placement_or_a_draw_is_fine(tmp_path: Path):
    path = write(tmp_path, "events:\n  - after: place\n    again: \"tile.is_double\"\n"
                           "  - after: draw\n    again: true\n  - after: pass\n    again: false\n")
    assert check_ruleset(str(path)) == []


def test_rank_without_a_ranked_winner_has_no_effect(tmp_path: Path):
    path = write(tmp_path, "scoring:\n  blocked:\n    rank: \"side.doubles\"\n")
    assert rendered(path) == [
        f"{path}:5:11: error: scoring.blocked.rank has no effect: blocked.winner is "
        "lowest_hand, which compares hand values [scoring.blocked.rank]\n"
        '    5 |     rank: "side.doubles"\n'
        "      |           ^\n"
        "  hint: set scoring.blocked.winner to lowest or highest to compare the rank, or "
        "remove rank"]
    path = write(tmp_path, "scoring:\n  blocked:\n    winner: highest\n    rank: side.doubles\n")
    assert check_ruleset(str(path)) == []


def test_match_keys_that_mean_nothing_with_the_match_end(tmp_path: Path):
    path = write(tmp_path, "match:\n  end: rounds_won\n  target: 3\n  exact: true\n"
                           "  minimum_to_start: 10\n  winner: lowest\n")
    assert [d.headline() for d in check_ruleset(str(path))] == [
        f"{path}:6:10: error: match.exact has no effect: the match ends on rounds won, not "
        "when a side reaches a points target [match.exact]",
        f"{path}:7:21: error: match.minimum_to_start has no effect: the match is won by rounds "
        "won, not by points [match.minimum_to_start]",
        f"{path}:8:11: error: match.winner lowest means nothing when the match is won by "
        "rounds won: the first side to win match.target rounds wins [match.winner]"]
    path = write(tmp_path, "match:\n  end: rounds\n  target: 5\n  minimum_to_start: 10\n"
                           "  winner: lowest\n")
    assert check_ruleset(str(path)) == []


def test_example_ends_follow_the_spinner(tmp_path: Path):
    example = ("examples:\n  - title: three ends\n    kind: legal\n    players: 2\n"
               '    hands: ["5-5", "1-2"]\n    ends: [5, 5, 5]\n    boneyard: 0\n'
               '    expect_legal: ["pass"]\n')
    path = write(tmp_path, example)
    assert rendered(path) == [
        f"{path}:8:11: error: ends gives 3 values, but without a spinner the line has exactly "
        "2 open ends [examples[0].ends]\n"
        "    8 |     ends: [5, 5, 5]\n"
        "      |           ^\n"
        "  hint: give [left, right], or set board.spinner to first_double"]
    path = write(tmp_path, "board:\n  spinner: first_double\n" + example)
    assert [d.headline() for d in check_ruleset(str(path))] == [
        f"{path}:10:11: error: ends gives 3 values; with a spinner the line has 2 open ends, "
        "or 4 once the spinner's up and down ends are open [examples[0].ends]"]


def test_a_restriction_no_placement_can_meet(tmp_path: Path):
    path = write(tmp_path, "play:\n  restrictions:\n"
                           '    - allow: "tile.is_double and tile.pips > 12"\n'
                           '      explain: "only big doubles"\n')
    assert rendered(path) == [
        f"{path}:5:14: error: this rule forbids every placement: play.restrictions[0].allow "
        "is false for every tile of the set [play.restrictions[0].allow]\n"
        '    5 |     - allow: "tile.is_double and tile.pips > 12"\n'
        "      |              ^\n"
        "  hint: a restriction must leave some tile playable; check the condition's "
        "'and'/'or' and its comparisons"]


def test_restrictions_real_tables_use_load(tmp_path: Path):
    path = write(tmp_path, "play:\n  restrictions:\n"
                           '    - allow: "tile.is_double or not any(playable.is_double)"\n'
                           '      explain: "you hold a playable double, so you must play one"\n'
                           '    - allow: "tile != [0|0] or count(playable) == 1"\n'
                           '      explain: "the [0|0] goes last"\n'
                           '    - allow: "count(hand) > 1 or not tile.is_double"\n'
                           '      explain: "you may not go out on a double"\n')
    assert check_ruleset(str(path)) == []


def test_an_opening_rule_no_tile_meets(tmp_path: Path):
    path = write(tmp_path, 'opening:\n  allow: "tile.pips > 12"\n  explain: "too big"\n')
    assert [d.headline() for d in check_ruleset(str(path))] == [
        f"{path}:4:10: error: this rule forbids every opening: opening.allow is false for "
        "every tile of the set [opening.allow]"]


def test_first_round_opening_keys(tmp_path: Path):
    path = write(tmp_path, "lead:\n  first: opening_tile_holder\n"
                           "opening:\n  first_round:\n    tile: \"[6|6]\"\n    opener: holder\n"
                           "    explain: \"must be the [6|6]\"\n")
    assert [d.headline() for d in check_ruleset(str(path))] == [
        f"{path}:9:14: error: opening.first_round.explain is given, but there is no allow "
        "rule for it to explain [opening.first_round.explain]"]
    path = write(tmp_path, "opening:\n  first_round:\n    tile: \"[9|9]\"\n"
                           "    opener: holder\n  opener: holder\n")
    assert [d.headline() for d in check_ruleset(str(path))] == [
        f"{path}:5:11: error: opening.first_round.tile [9|9] is not in a double-6 set "
        "[opening.first_round.tile]",
        f"{path}:7:11: error: opening.opener is holder, but opening.tile is any: nobody "
        "holds 'any' [opening.opener]"]
    path = write(tmp_path, "opening:\n  first_round: {}\n")
    assert [d.headline() for d in check_ruleset(str(path))] == [
        f"{path}:4:16: error: opening.first_round is empty: it changes nothing "
        "[opening.first_round]"]


# --- examples for the house-rule mechanisms (the schema; the engine runs them) ----------

EVENTS_EXAMPLE = """\
events:
  - after: place
    if: "end_total % 5 == 0"
    points: end_total
examples:
  - title: "[5|5] on a 5 makes 15: fives score 15"
    kind: events
    players: 2
    hands: ["5-5 1-2", "3-4"]
    ends: [5, 0]
    boneyard: "6-6 2-3"
    turn: 0
    scores: [10, 0]
    action: "5-5 left"
    expect_points: [15, 0]
  - title: "A blocked round's facts"
    kind: points
    players: 2
    result: blocked
    hands: ["1-2", "3-4"]
    ends: [6, 6, 5, 5]
    last_tile: "6-5"
    last_player: 1
    both_ends: false
    boneyard: "0-0"
    scores: [30, 12]
    round: 4
    passes: 2
    expect_points: [4, 0]
"""


SPINNER = "board:\n  spinner: first_double\n"


def test_an_events_example_and_round_facts_are_valid_and_told(tmp_path: Path):
    from dominorules.rules import load_ruleset
    from dominorules.rules.describe import rule_sheet
    path = write(tmp_path, SPINNER + EVENTS_EXAMPLE)
    sheet = rule_sheet(load_ruleset(str(path)))
    assert sheet.rule("examples[0]").text == (
        "2 players, seat 0 to act, the open ends show 5 and 0; hands: seat 0 5-5 2-1 "
        "and seat 1 4-3; boneyard 6-6 3-2. Action 5-5 left: points per player 15 "
        "and 0.")
    assert sheet.rule("examples[1]").text == (
        "2 players, the round ends blocked; hands: seat 0 2-1 and seat 1 4-3; last tile "
        "6-5 by seat 1; the open ends show 6, 6, 5 and 5; boneyard 0-0; 2 passes in the "
        "round; scores before the round 30 and 12. Points per player: 4 and 0.")


def test_events_example_mistakes(tmp_path: Path):
    text = (EVENTS_EXAMPLE.replace('boneyard: "6-6 2-3"', 'boneyard: "6-6 1-2"')
            .replace("scores: [10, 0]", "scores: [10, 0, 0]")
            .replace("last_player: 1", "last_player: 2"))
    path = write(tmp_path, SPINNER + text)
    assert [d.headline() for d in check_ruleset(str(path))] == [
        f"{path}:15:15: error: tile 1-2 is both in seat 0's hand and in the boneyard "
        "[examples[0].boneyard]",
        f"{path}:17:13: error: scores has 3 values; there are 2 sides [examples[0].scores]",
        f"{path}:27:18: error: last_player is seat 2, but the seats are 0 to 1 "
        "[examples[1].last_player]"]
    path = write(tmp_path, SPINNER + EVENTS_EXAMPLE.replace('"5-5 left"', '"5-5 sideways"'))
    (d,) = _errors(path)
    assert d.headline() == (f"{path}:18:13: error: examples[0].action: the string "
                            "'5-5 sideways' is not in the expected form [examples[0].action]")


def test_an_events_example_needs_its_action(tmp_path: Path):
    path = write(tmp_path, EVENTS_EXAMPLE.replace('    action: "5-5 left"\n', ""))
    (d,) = _errors(path)
    assert d.headline() == (f"{path}:8:5: error: missing required key 'action' in examples[0] "
                            "[examples[0].action]")
    assert d.hint.startswith("add action: to examples[0]. events only: the one action taken, "
                             "in its text form")
