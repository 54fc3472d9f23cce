"""House-rule keys: schema errors and load-time checks, each with file:line:col, caret
and hint, exactly as `dominorules validate` prints them."""

from __future__ import annotations

from pathlib import Path

from interpreter.rules import check_ruleset

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
        "  hint: Why a placement breaking it is illegal, in the rule's own words (\"you hold a "
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
        f"{path}:5:14: error: unknown name 'tile'; event_pass offers: boneyard, "
        "drawn_this_turn, end_total, ends, opponents, passes_in_row, player, players, round, "
        "side, sides, target [events[0].points]\n"
        '    5 |     points: "tile.pips"\n'
        "      |              ^^^^\n"
        "  hint: only event_draw, event_place, opening, placement and tile_value formulas "
        "offer 'tile'"]
