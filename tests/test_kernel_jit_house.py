"""The JIT engine on the house rules of a round's end, the match's end, the deal, the lead
and the opening, play to the right, placement restrictions, play-time events, turn
options, the spinner and fit rules (``kernel/jit_house.py``, ``kernel/jit_events.py``):
the same matches as the Python engine.

Every builtin ruleset it plays this way, at its fewest and most players (and 4 between),
with the random, greedy and mixed bots: the JIT's ``MatchResult`` equals the Python
engine's field for field.
They all share one compiled kernel (their formulas are programs, not source), so a cold
cache compiles it once. What it does not play, it refuses with a sentence naming why.
"""

from __future__ import annotations

import pytest
from jit_record_checks import same_results
from player_counts import played_counts

from dominorules import api
from dominorules.kernel import engines
from dominorules.rules import builtin_rulesets

pytest.importorskip("numba")

from dominorules.kernel import jit_house, jit_kernel  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

# the builtin rulesets whose house rules act at a round's end, the match's end, the deal,
# the lead or the opening (the list): the JIT must play every one of them
EXPECTED = {
    "house/block-charges-own", "house/blocker-leads", "house/boneyard-to-dominoer",
    "house/double-blank-bonus", "house/double-domino-bonus", "house/double-opening",
    "house/exact-target", "house/first-round-highest-double", "house/first-to-three",
    "house/fixed-rounds", "house/four-doubles-redeal", "house/heaviest-opens",
    "house/last-two-block", "house/low-score-wins", "house/lowest-side-takes-round",
    "house/minimum-to-start", "house/no-blanks", "house/shutout-pays-double",
    "house/four-in-a-row", "house/tied-stake-grows",   # (these two keep variables)
    "house/play-to-the-right",   # what acts during play: the direction of play,
    "house/double-blank-last",   # placement restrictions,
    "house/all-fives", "house/equal-ends-bonus", "house/doubles-play-again",   # events,
    "house/double-blank-skips", "house/pay-per-forced-draw", "house/pass-pass",
    "house/draw-ends-turn", "house/passing",   # turn options, the spinner, a fit rule
    "house/spinner", "house/matador", "house/matador-nine",
    "house/muggins",   # events on a spinner: end_total over its four arms
    "house/muggins-wins-in-play",   # a match won mid-round (match.ends_in_play),
    "house/headers-raise-stake", "house/bergen-headers",   # events reading the table,
    "house/bergen-near-game", "house/answer-the-double",   # setting variables and
    "house/cover-the-double",   # laying duties
    "house/turned-up-starter", "house/leftover-to-leader",   # the deal's (leftover, turn_up)
    "house/side-out",   # and the round's end (side_out)
    "house/two-sets",   # every tile twice (jit_copies)
    "house/blind-hughie",   # hidden rows (blind.py)
    "house/double-draw", "house/doubles-together"}   # several tiles a move (jit_several)


def _cases():
    for b in builtin_rulesets():
        game = api.load_game(b.name)
        if not jit_house.plays(game.rules):
            continue
        for players in played_counts(game):   # (tests/player_counts.py)
            if jit_kernel.jit_reason(game, players, "random") is None \
                    and game.tileset.tile_count <= jit_kernel.MAX_TILES:
                # (a set over MAX_TILES, its own kernel: tests/test_kernel_jit_gen_wide.py)
                yield b.name, players


CASES = list(_cases())


def test_the_jit_plays_every_house_ruleset_of_the_rounds_end_deal_lead_and_opening():
    assert {name for name, _ in CASES} >= EXPECTED


def test_they_share_one_kernel_source_with_no_ruleset_text_in_it():
    sources = {jit_kernel.kernel_source(api.load_game(name)) for name in EXPECTED}
    assert len(sources) == 1
    (source,) = sources
    assert "run(CODE, F_DOMINO" in source and "$" not in source
    plain = jit_kernel.kernel_source(api.load_game("pagat"))
    assert "jit_settle" not in plain and "run(" not in plain   # the plain game pays nothing


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_jit_gives_the_python_engines_matches(name, players):
    game = api.load_game(name)
    seeds = [api.match_seed(4, i) for i in range(5)]
    same_results(game, players, seeds,
                 ("random", "greedy", (["greedy", "random"] * players)[:players]))


@pytest.mark.parametrize("name", ["house/exact-target", "house/shutout-pays-double",
                                  "house/first-to-three"])
def test_start_scores_and_the_round_cap_agree(name):
    game = api.load_game(name)
    for kw in ({"start_scores": [85, 40]}, {"max_rounds": 2}, {"max_rounds": 1}):
        for seed in range(1, 12):
            assert (api.play_match(game, 2, seed, engine="jit", **kw)
                    == api.play_match(game, 2, seed, **kw)), (kw, seed)


def test_final_scores_are_the_match_rows_not_the_last_rounds():
    game = api.load_game("house/shutout-pays-double")
    seeds = [api.match_seed(9, i) for i in range(300)]
    got = engines.jit_results(game, 2, seeds, "random")
    doubled = [m for m in got if m.scores != m.rounds[-1].scores]
    assert doubled   # some shutouts in 300 matches: their final scores are doubled
    for m in doubled:
        assert m == api.play_match(game, 2, m.seed)
        assert m.scores[m.winner] == 2 * m.rounds[-1].scores[m.winner]


def test_auto_takes_the_jit_for_long_house_runs_and_compare_folds_the_same_features():
    from dominorules.explore.metrics import features

    for name in ("house/low-score-wins", "house/double-opening", "house/blocker-leads",
                 "house/four-in-a-row", "house/tied-stake-grows",   # variables_final too
                 "house/play-to-the-right", "house/double-blank-last",   # during play
                 "house/all-fives", "house/doubles-play-again",   # play_points, extra_turns,
                 "house/pass-pass",   # skips (compare's rows of the play-time events)
                 "house/spinner", "house/matador"):
        game = api.load_game(name)
        players = game.rules.min_players
        assert engines.choose(game, players, "random", "auto", matches=50_000) == "jit"
        seeds = [api.match_seed(8, i) for i in range(30)]
        rows, round_points, _ = engines.JitBatch(game, players, seeds, "random").features()
        points: list[int] = []
        assert rows.tolist() == [features(api.play_match(game, players, s), None, points)
                                 for s in seeds]
        assert round_points.tolist() == points


def _ruleset(tmp_path, text: str):
    path = tmp_path / "r.yaml"
    path.write_text("title: Test\nextends: pagat\n" + text)
    return api.load_game(str(path))


@pytest.mark.parametrize(("text", "reason"), [
    # a settlement reading the board as the round left it is played, its points bounded
    # as the board's: a spinner's four arms of doubles make 48 (24 * 3 * 10**10 would fit)
    ("board:\n  spinner: first_double\nscoring:\n  domino: \"end_total * 30000000000\"\n",
     "points may outgrow the JIT kernel's 64-bit numbers"),
    ("opening:\n  allow: \"sum(hand, t -> t.pips) > 20\"\n",   # (count of the hand: played)
     "house-rule formulas read what the JIT kernel does not keep (x -> ...)"),
    ("scoring:\n  domino: \"sum(opponents.value) + count(seats, s -> s.tiles > 1)\"\n",
     "do not keep (x -> ...)"),
    ("play:\n  direction: right\n  passing: at_will\n"   # only what it does not play
     "  several:\n    most: 2\n    tiles: \"tile.is_double or max(ends) > 4\"\n"
     "board:\n  spinner: first_double\nevents:\n  - after: place\n    next_draws: 1\n",
     "does not keep (play.several.tiles reading ends, a spinner's four)"),
    ("events:\n  - after: place\n    points: \"player.pips\"\n",   # the tallies
     "house-rule formulas read what the JIT kernel does not keep (Name player)"),
    ("board:\n  spinner: first_double\nevents:\n  - after: place\n"   # (four ends or two:
     "    points: \"ends[round]\"\n",   # an index written in the formula only)
     "house-rule formulas read what the JIT kernel does not keep (the list ends indexed by"),
    ("play:\n  restrictions:\n    - allow: \"tile.is_double or ends[0] > 2\"\n      explain: x\n",
     "house-rule formulas read what the JIT kernel does not keep (the list ends indexed)"),
    ("play:\n  restrictions:\n    - allow: \"sum(hand, t -> t.pips) < 30\"\n"
     "      explain: x\n",
     "house-rule formulas read what the JIT kernel does not keep (x -> ...)"),
    ("events:\n  - after: pass\n    skip: \"1000000 * boneyard\"\n",
     "cannot be bounded for the JIT's 64-bit numbers (an event's skip may outgrow"),
    ("variables:\n  pot:\n    initial: 1\n    after_round: \"2 * pot\"\n"
     "scoring:\n  domino: \"pot\"\n",
     "a variable that may grow faster than by a constant a round"),
    ("scoring:\n  every_side: \"side.score\"\n",   # the scores would feed themselves
     "points may outgrow the JIT kernel's 64-bit numbers"),
    # an event's points reading the score: each placement could multiply it (a score of
    # 20 makes 8,000,000, then 5 * 10**20, past 64 bits), so the score is bounded as any
    ("events:\n  - after: place\n    points: \"side.score * side.score * side.score\"\n",
     "points may outgrow the JIT kernel's 64-bit numbers"),
    ("events:\n  - after: place\n    points: \"side.score // 10\"\n",
     "points may outgrow the JIT kernel's 64-bit numbers"),
])
def test_what_the_jit_does_not_play_it_refuses_in_a_sentence(tmp_path, text, reason):
    game = _ruleset(tmp_path, text)
    got = jit_kernel.jit_reason(game, 2, "random")
    assert got is not None and reason.replace("do not keep", "does not keep") in got
    assert engines.choose(game, 2, "random", "auto", matches=50_000) == "python"


def test_a_house_formula_the_jit_plays_gives_the_same_matches(tmp_path):
    game = _ruleset(tmp_path, (
        "scoring:\n  blocked:\n    winner: highest\n    rank: \"side.tiles * 3 - passes\"\n"
        "    tie: next_player\n    points: \"max(sides.tiles) + abs(-2) + boneyard_pips\"\n"
        "  every_side: \"(side.doubles if not side.won else -1) + min(side.players.pips)\"\n"
        "match:\n  draw_if: \"round >= 4 and max(sides.score) < 40\"\n"
        "  final: \"side.score // 2 if side.won else side.score % 7\"\n"))
    assert jit_kernel.jit_reason(game, 3, "random") is None
    seeds = [api.match_seed(5, i) for i in range(40)]
    for bots in ("random", "greedy"):
        for seed, match in zip(seeds, engines.jit_results(game, 3, seeds, bots), strict=True):
            assert match == api.play_match(game, 3, seed, bots), (bots, seed)


def _rules_scored_on_both_engines(game) -> set[int]:
    """Two and four players, each builtin bot, four matches: the JIT plays ``game`` (no
    refusal) with the Python engine's records and results; the event rules that scored."""
    from jit_record_checks import same_on_both_engines

    fired = set()
    for players in (2, 4):
        for bots in ("random", "greedy", "strategist"):
            assert jit_kernel.jit_reason(game, players, bots) is None
            events = same_on_both_engines(game, players, [api.match_seed(9, i) for i in range(4)],
                                          bots)
            fired |= {e["rule"] for e in events if e["event"] == "score" and "rule" in e}
    return fired


def test_the_lines_end_doubles_play_as_the_python_engine(tmp_path):
    """``end_doubles`` on a line: whether the tile at each end is a double (``Board.doubles``:
    a double lies across), read as ``end_tiles``' facts through ``IS_DOUBLE``, element by
    element, indexed, folded and counted (docs/house-rules.md's "Doubles at both ends"):
    the same records as the Python engine, each rule scoring."""
    game = _ruleset(tmp_path, (
        "events:\n"
        "  - {after: place, if: \"count(end_doubles, d -> d) == 2\", points: 10}\n"
        "  - {after: draw, if: \"end_doubles[0] and not end_doubles[-1]\","
        " points: \"count(end_doubles) + 1\"}\n"
        "  - {after: pass, if: \"any(end_doubles) or all(end_doubles, d -> not d)\","
        " points: 1}\n"))
    assert _rules_scored_on_both_engines(game) == {0, 1, 2}


def test_x_over_the_lines_two_ends_plays_as_the_python_engine(tmp_path):
    """``x -> ...`` over a line's ``ends`` (``count``, ``sum``, ``any``, ``max``, ``all``,
    ``min``), written out over the two ends' facts (``jit_formula``), after a placement, a
    draw and a pass: the same records as the Python engine, each rule scoring."""
    game = _ruleset(tmp_path, (
        "events:\n"
        "  - {after: place, if: \"count(ends, e -> e == tile.high) == 2\","
        " points: \"sum(ends, e -> e * 2)\"}\n"
        "  - {after: draw, if: \"any(ends, e -> e == tile.low)\","
        " points: \"max(ends, e -> e - 1)\"}\n"
        "  - {after: pass, if: \"all(ends, e -> e > 2)\","
        " each_opponent: \"min(ends, e -> e + 1)\"}\n"))
    assert _rules_scored_on_both_engines(game) == {0, 1, 2}


def test_variables_and_a_lead_formula_give_the_same_matches(tmp_path):
    game = _ruleset(tmp_path, (
        "variables:\n  streak:\n    initial: 0\n"
        "    after_round: \"streak + 1 if blocked or not won else 0\"\n"
        "  last:\n    initial: -1\n    after_round: \"winner_side\"\n"
        "lead:\n  later: \"leader + 1 + streak if last >= 0 else winner\"\n"
        "scoring:\n  domino: \"sum(opponents.value) + 3 * streak\"\n"
        "match:\n  draw_if: \"round >= 6 and streak > 1\"\n"
        "  final: \"side.score + (10 if side.index == last else 0)\"\n"))
    assert jit_kernel.jit_reason(game, 3, "random") is None
    seeds = [api.match_seed(6, i) for i in range(40)]
    for players in (2, 3):
        for seed, match in zip(seeds, engines.jit_results(game, players, seeds, "random"),
                               strict=True):
            assert match == api.play_match(game, players, seed), (players, seed)


def test_the_variables_as_a_match_ended_reach_compare_from_the_jit_as_from_the_loop():
    """``MatchResult.counters`` is left out of equality, so it is compared here: compare's
    "variables at the end" row must not depend on the engine."""
    for name in ("house/four-in-a-row", "house/tied-stake-grows"):
        game = api.load_game(name)
        players = game.rules.min_players
        seeds = [api.match_seed(6, i) for i in range(12)]
        got = engines.jit_results(game, players, seeds, "random")
        want = [api.play_match(game, players, s) for s in seeds]
        assert all(m.counters is not None for m in want)
        assert [m.counters for m in got] == [m.counters for m in want]


@pytest.mark.parametrize("text", [
    # a lacking leader passes the opening on, and the lead rotates, to the right
    "lead:\n  later: rotate\nopening:\n  allow: \"tile.is_double\"\n  if_lacking: pass_on\n",
    # a blocked round compares the blocker with the seat to its right, who wins a tie
    "scoring:\n  blocked:\n    among: last_two\n    tie: next_player\n",
    # nobody holds 6-6: players draw for it in turn, to the right
    "opening:\n  tile: \"[6|6]\"\n  opener: holder\n  if_unheld: draw_in_turn\n"
    "drawing:\n  reserve: 0\n",
])
def test_play_to_the_right_turns_every_seat_order_of_the_gen_lines(tmp_path, text):
    """Each rule that names "the next player" goes the other way with play.direction:
    right; the JIT's must go the Python engine's way."""
    game = _ruleset(tmp_path, "play:\n  direction: right\n" + text)
    seeds = [api.match_seed(7, i) for i in range(25)]
    for players in (3, 4):
        assert jit_kernel.jit_reason(game, players, "strategist") is None
        same_results(game, players, seeds, ("random", "strategist"))


# restrictions that forbid often, over every name the JIT keeps, with each if_none_allowed
_RESTRICTED = (
    "play:\n  restrictions:\n"
    "    - allow: \"not tile.is_double or count(playable) == 1 or round % 2 == 0\"\n"
    "      explain: x\n"
    "    - allow: \"tile.pips + end < 9 + boneyard // 3 or sum(hand.pips) < 4 * players\"\n"
    "      explain: x\n"
    "    - allow: \"max(playable.high) > tile.low or min(hand.low) == 0\"\n"
    "      explain: x\n")


@pytest.mark.parametrize("none", ["stuck", "pass", "waive"])
def test_placement_restrictions_give_the_same_matches(tmp_path, none):
    game = _ruleset(tmp_path, _RESTRICTED + f"  if_none_allowed: {none}\n")
    seeds = [api.match_seed(8, i) for i in range(25)]
    for players in (2, 4):
        assert jit_kernel.jit_reason(game, players, "strategist") is None
        same_results(game, players, seeds, ("random", "greedy", "strategist"))


def test_the_tiles_a_restriction_allows_whatever_else_holds_skip_its_program(tmp_path):
    """Per end number, the tiles allowed by the tile and end alone (``jit_house._sure``):
    the kernel runs the program only for the rest, so a wrong mask would allow too much."""
    game = _ruleset(tmp_path, (
        "play:\n  restrictions:\n    - allow: \"tile.is_double or end > 3 or count(hand) > 4\"\n"
        "      explain: x\n    - allow: \"tile != [5|6] or boneyard > 0\"\n      explain: x\n"))
    ts = game.tileset
    code, at = jit_house.programs(game)
    masks = code[at["R_SURE"]:at["R_SURE"] + 7]
    doubles = {t for t in range(ts.tile_count) if ts.low[t] == ts.high[t]}
    high = {t for t in range(ts.tile_count) if (ts.low[t], ts.high[t]) != (5, 6)}
    assert masks == [sum(1 << t for t in (high if e > 3 else doubles)) for e in range(7)]
    assert jit_house._sure(game.rules.restrictions[0].tree, (1, 2), 0) is jit_house._UNKNOWN


# events over every name the JIT keeps for them, with the turn options: an exact draw of
# two, passing at will, a draw ending the turn
_EVENTS = (
    "events:\n"
    "  - after: place\n    if: \"end_total % 4 == 1 or both_ends\"\n"
    "    points: \"end_total + sum(ends) - count(ends)\"\n    each_opponent: \"-1\"\n"
    "  - after: place\n    if: \"not opening and (tile.is_double or tile == [1|2])\"\n"
    "    again: \"boneyard > 2 or drawn_this_turn > 0\"\n"
    "    skip: \"1 if min(ends) == max(ends) and round % 2 == 1 else 0\"\n"
    "  - after: draw\n    if: \"forced and tile.pips > 8 - passes_in_row\"\n"
    "    points: \"tile.high\"\n    again: \"drawn_this_turn == 3\"\n"
    "  - after: pass\n    each_opponent: \"passes_in_row + players // 2\"\n"
    "    skip: \"passes_in_row % 2\"\n")


@pytest.mark.parametrize("turn", [
    "", "drawing:\n  exactly: 2\n  ends_turn: true\n",
    "drawing:\n  exactly: 2\n  voluntary: forbidden\nplay:\n  passing: at_will\n",
    "play:\n  passing: at_will\n  direction: right\n"])
def test_play_time_events_and_turn_options_give_the_same_matches(tmp_path, turn):
    game = _ruleset(tmp_path, _EVENTS + turn)
    seeds = [api.match_seed(9, i) for i in range(20)]
    for players in (2, 3):
        assert jit_kernel.jit_reason(game, players, "strategist") is None
        same_results(game, players, seeds, ("random", "greedy", "strategist"))


def test_a_spinner_on_a_fit_rule_with_restrictions_on_its_arms_gives_the_same_matches(tmp_path):
    """The spinner's four ends, tiles fitting two ways (matador's sevens) and restrictions
    asked on the arms too, played to the right: every piece of the board at once."""
    path = tmp_path / "r.yaml"
    path.write_text("title: Test\nextends: house/matador\nboard:\n  spinner: first_double\n"
                    "play:\n  direction: right\n  restrictions:\n"
                    "    - allow: \"not tile.is_double or end > 2 or count(playable) == 1\"\n"
                    "      explain: x\n")
    game = api.load_game(str(path))
    seeds = [api.match_seed(3, i) for i in range(30)]
    for players in (2, 4):
        assert jit_kernel.jit_reason(game, players, "random") is None
        same_results(game, players, seeds, ("random", "greedy"))


def test_events_on_a_spinner_count_its_four_arms_as_the_python_engine(tmp_path):
    """Muggins' end total over the spinner's arms (an arm only once played on, a double
    at its end by both halves: Board.end_total), both_ends over four ends (the loop's
    last_both), totals past the line's 4 * top, and turns granted and skipped on it,
    with a turn option and play to the right; pagat opens with any tile, so the spinner
    is often a later double."""
    text = ("board:\n  spinner: first_double\nevents:\n"
            "  - after: place\n    if: \"end_total > 0 and end_total % 5 == 0\"\n"
            "    points: \"end_total\"\n"
            "  - after: place\n    if: \"end_total > 24 or both_ends\"\n"
            "    points: \"end_total + 1\"\n    each_opponent: \"-1\"\n"
            "  - after: place\n    if: \"not opening and tile.is_double\"\n"
            "    again: \"boneyard > 2\"\n    skip: \"1 if end_total % 3 == 0 else 0\"\n"
            "  - after: draw\n    if: \"forced\"\n    points: \"end_total % 4\"\n")
    for extra in ("", "drawing:\n  ends_turn: true\n", "play:\n  direction: right\n"):
        game = _ruleset(tmp_path, text + extra)
        seeds = [api.match_seed(17, i) for i in range(25)]
        for players in (2, 3, 4):
            assert jit_kernel.jit_reason(game, players, "random") is None
            same_results(game, players, seeds,
                         ("random", "greedy", ["greedy", "random", "greedy", "random"][:players]))


def test_an_action_no_event_rule_can_fire_on_is_filtered_by_its_masks():
    """The head of an action's events (``jit_house._may_fire``): the kernel calls nothing
    for a tile, a total or a pair of ends on which every rule's ``if`` is false; a mask
    too narrow would drop points (the differential tests), one too wide costs a call."""
    from dominorules.kernel import jit_events

    def head(name):
        game = api.load_game(name)
        code, at = jit_house.programs(game)
        return game.tileset, code[at["EV_PLACE"]:code[at["EV_PLACE"] + jit_events.RULES]]
    ts, fives = head("house/all-fives")
    assert fives[jit_events.TOTALS] == sum(1 << e for e in (5, 10, 15, 20))
    assert fives[jit_events.TILES] == (1 << ts.tile_count) - 1
    ts, blank = head("house/double-blank-skips")
    assert blank[jit_events.TILES] == 1 << next(
        i for i in range(ts.tile_count) if ts.low[i] == ts.high[i] == 0)
    _, equal = head("house/equal-ends-bonus")
    assert equal[jit_events.ENDS:] == [1 << a for a in range(7)]   # both ends alike only


def test_an_event_condition_on_the_total_or_the_tile_alone_is_a_table_of_its_truth(tmp_path):
    """An ``if`` reading only the ends' total or only the tile (``jit_house._tabled``) is
    a table (``jit_formula.MASK``): a bit per total or tile, each the condition's truth as
    the Python engine evaluates it, read without running a program; one reading more
    keeps its program; the matches stay the Python engine's."""
    from dominorules.kernel import jit_events, jit_formula

    game = _ruleset(tmp_path, (
        "events:\n"
        "  - after: place\n    if: \"end_total > 0 and end_total % 5 == 0\"\n"
        "    points: \"end_total\"\n"
        "  - after: place\n    if: \"tile.pips > 9 or tile == [1|2]\"\n    points: \"1\"\n"
        "  - after: place\n    if: \"end_total % 3 == 0 and both_ends\"\n    points: \"2\"\n"
        "  - after: draw\n    if: \"not tile.is_double and tile.high == 6\"\n"
        "    each_opponent: \"1\"\n"))
    code, at = jit_house.programs(game)
    ts, events = game.tileset, game.rules.events
    run = getattr(jit_formula.run, "py_func", jit_formula.run)   # (the plain evaluator too)
    F = [0] * len(jit_formula.FACT)
    stack = [0] * jit_formula.STACK
    ifs = []
    for name in ("EV_PLACE", "EV_DRAW"):
        head = code[at[name] + jit_events.RULES]
        ifs += [code[head + 1 + jit_events.WIDTH * k + jit_events.IF] for k in range(code[head])]
    facts = {"end_total": {e: e for e in range(25)},
             "tile": {i: (ts.low[i], ts.high[i]) for i in range(ts.tile_count)}}
    for event, c, fact in zip(events, ifs, ("end_total", "tile", None, "tile"), strict=True):
        if fact is None:   # both_ends too: its program
            assert code[c] != jit_formula.MASK
            continue
        assert code[c:c + 2] == [jit_formula.MASK, jit_formula.FACT[fact]]
        truth = {i: int(bool(event.condition({fact: v}))) for i, v in facts[fact].items()}
        assert code[c + 2] == sum(1 << i for i, v in truth.items() if v)
        for i, want in truth.items():
            F[jit_formula.FACT[fact]] = i
            assert run(code, c, F, None, None, 2, 2, None, stack) == want, (fact, i)
    assert code[ifs[0] + 2] == sum(1 << e for e in (5, 10, 15, 20))   # (24 at the most)
    seeds = [api.match_seed(6, i) for i in range(20)]
    for seed, match in zip(seeds, engines.jit_results(game, 2, seeds, "random"), strict=True):
        assert match == api.play_match(game, 2, seed, "random"), seed


def test_auto_plays_the_strategist_on_the_jit_on_a_spinner_and_under_a_fit_rule():
    """On a spinner the strategist's JIT port scores every open end
    (``jit_strategist_arms``, held to strategist_fast by
    ``test_kernel_jit_strategist_arms``); under a fit rule it weighs what the rule lets a
    tile meet the same way (``test_kernel_jit_strategist_rules``): auto takes the JIT for
    both, as for greedy."""
    game = api.load_game("house/spinner")
    assert jit_kernel.jit_reason(game, 2, ["random", "strategist"]) is None
    assert engines.choose(game, 2, "strategist", "auto", matches=50_000) == "jit"
    assert engines.choose(game, 2, "greedy", "auto", matches=50_000) == "jit"
    matador = api.load_game("house/matador")
    assert engines.choose(matador, 2, "strategist", "auto", matches=50_000) == "jit"
    assert engines.choose(matador, 2, "greedy", "auto", matches=50_000) == "jit"


def test_reading_results_leaves_the_collector_as_it_found_it():
    # (JitKernel.results pauses Python's cyclic collector while it makes MatchResults)
    import gc

    game = api.load_game("house/all-fives")
    seeds = [api.match_seed(6, i) for i in range(3)]
    was = gc.isenabled()
    try:
        gc.enable()
        engines.jit_results(game, 2, seeds, "random")
        assert gc.isenabled()
        gc.disable()
        got = engines.jit_results(game, 2, seeds, "random")
        assert not gc.isenabled()
        assert got == [api.play_match(game, 2, s) for s in seeds]
    finally:
        if was:
            gc.enable()
