"""The JIT on events that read the table, set variables or lay duties, and on a match won
mid-round (``engine.mechanisms.match``'s piece, ``kernel/jit_duties.py``, the table readings
compiled by ``kernel/jit_formula.py``): each numba piece against its mechanism
(``engine.mechanisms.match``, ``duties``, the formula evaluator over ``table``), then whole
matches against the Python engine, counters included (compare's rows).

The whole-match comparisons of every builtin ruleset, at every player count and bot, are
``tests/test_kernel_jit_house.py``'s and ``tests/test_kernel_jit_strategist.py``'s (these
rulesets are in their cases); this file adds what they do not look at. All share the one
compiled GEN kernel.
"""

from __future__ import annotations

import itertools
import random

import pytest

from dominorules import api
from dominorules.engine.mechanisms import duties, match
from dominorules.expr import compile_expression
from dominorules.kernel import engines

pytest.importorskip("numba")

import numpy as np  # noqa: E402 - with numba
from piece_checks import compiled_caller  # noqa: E402

from dominorules.kernel import jit_duties, jit_formula, jit_kernel  # noqa: E402

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

TABLE = ("house/muggins-wins-in-play", "house/headers-raise-stake", "house/bergen-headers",
         "house/bergen-near-game", "house/answer-the-double", "house/cover-the-double")


def test_the_jit_plays_them_all_and_writes_their_records():
    """(their records against the Python engine's: tests/test_kernel_jit_rec_events.py)"""
    from dominorules.kernel import jit_trace

    for name in TABLE:
        game = api.load_game(name)
        assert jit_kernel.jit_reason(game, 2, "random") is None, name
        assert jit_trace.reason(game) is None, name


@pytest.mark.parametrize("way", ["plain", "compiled"])
def test_a_match_won_during_play_is_the_mechanisms(way):
    """The piece (as plain Python, and compiled into a caller as the kernel compiles it)
    against the reference, on random scores: ties at the top, the target reached or not."""
    fn = match.reached_in_play_piece
    call = fn if way == "plain" else compiled_caller(fn)
    rng = random.Random(7)
    seen = set()
    for _ in range(2000):
        sides = rng.randint(2, 4)
        scores = [rng.randint(0, 12) for _ in range(sides)]
        target = rng.randint(0, 14)
        want = match.reached_in_play(True, scores, target)
        got = call(np.array(scores + [99], np.int64), sides, target)   # (a column past sides)
        assert (None if got < 0 else got) == want, (scores, target)
        seen.add(want if want is None else "won")
    assert seen == {None, "won"}


def test_a_duty_falls_on_the_mechanisms_seats():
    out = np.zeros(4, np.int64)
    for players, partners, right in itertools.product((2, 3, 4), (False, True), (0, 1)):
        if partners and players != 4:
            continue
        side_of = [s % 2 if partners else s for s in range(players)]
        step = -1 if right else 1
        after = [(s + step) % players for s in range(players)]
        for on, code in jit_duties.ON_CODES.items():
            for actor in range(players):
                want = duties.bearers(on, actor, after.__getitem__, side_of.__getitem__)
                k = jit_duties.bearers(code, actor, players, right,
                                       np.array(side_of, np.int64), out)
                assert out[:k].tolist() == want, (players, partners, right, on, actor)


@pytest.mark.parametrize("text", [
    "2 if ends[0] == ends[-1] else 5", "ends[1] - ends[-2] + ends[2]",
    "3 if any(end_tiles, t -> t.is_double) else 2",
    "1 if all(end_tiles, t -> t.high > 3) else 0",
    "count(end_tiles, t -> t.pips > 6) + sum(end_tiles, t -> t.low)",
    "max(end_tiles, t -> t.pips) - min(end_tiles, t -> t.high)",
    "0 if any(end_tiles, t -> t == [5|5]) else 1"])
def test_a_table_reading_compiles_to_what_the_formula_says(text):
    """Every pair of line ends and every pair of tiles lying there (double-six): the
    program's value is the Python evaluator's."""
    game = api.load_game("pagat")
    ts = game.tileset
    tiles = {(t.low, t.high): i for i, t in enumerate(ts.tiles)}
    compiled = compile_expression(text, "event_place")
    code = np.array(jit_formula.program(
        compiled.ast, {}, {"ends": jit_formula.ENDS, "end_tiles": ("end_lt", "end_rt")},
        tiles), np.int64)
    TAB = jit_formula.tables(ts.tile_count)
    for row, name in (("TL", "low"), ("TH", "high"), ("PIPS", "pips")):
        TAB[jit_formula.TAB[row]] = getattr(ts, name)
    F = np.zeros(len(jit_formula.FACT), np.int64)
    stack = np.zeros(jit_formula.STACK, np.int64)
    deck, teams = np.zeros(1, np.int64), np.zeros((1, 1), np.int64)
    fact = jit_formula.FACT
    pairs = list(itertools.product(range(ts.tile_count), repeat=2))[::7]
    for left, right in itertools.product(range(7), repeat=2):
        for lt, rt in pairs:
            F[fact["end_l"]], F[fact["end_r"]] = left, right
            F[fact["end_lt"]], F[fact["end_rt"]] = lt, rt
            env = {"ends": (left, right),
                   "end_tiles": ((ts.low[lt], ts.high[lt]), (ts.low[rt], ts.high[rt]))}
            want = int(compiled.fn(env))
            got = jit_formula.run(code, 0, F, TAB, teams, 2, 2, deck, stack)
            assert got == want, (text, left, right, env["end_tiles"])


def test_their_counters_reach_compare_from_the_jit_as_from_the_loop():
    """``MatchResult.counters`` (variables set, duties laid, failed and met) is left out
    of equality: compared here, and compare's rows folded from the JIT's match rows."""
    from dominorules.explore.metrics import features

    for name, players in (("house/headers-raise-stake", 2), ("house/answer-the-double", 3),
                          ("house/cover-the-double", 4), ("house/muggins-wins-in-play", 3)):
        game = api.load_game(name)
        seeds = [api.match_seed(11, i) for i in range(8)]
        want = [api.play_match(game, players, s) for s in seeds]
        got = engines.jit_results(game, players, seeds, "random")
        assert got == want
        assert [m.counters for m in got] == [m.counters for m in want]
        rows, round_points, _ = engines.JitBatch(game, players, seeds, "random").features()
        points: list[int] = []
        assert rows.tolist() == [features(m, None, points) for m in want]
        assert round_points.tolist() == points


def test_a_match_won_mid_round_stops_that_round_unsettled_on_the_jit_too():
    game = api.load_game("house/muggins-wins-in-play")
    seeds = [api.match_seed(12, i) for i in range(12)]
    got = engines.jit_results(game, 2, seeds, "greedy")
    assert got == [api.play_match(game, 2, s, "greedy") for s in seeds]
    last = [m.rounds[-1] for m in got]
    assert any(r.result == "target" for r in last)   # some won during play
    for m, r in zip(got, last, strict=True):
        if r.result == "target":
            assert r.points == (0,) * len(r.points) and r.winner is None
            assert max(m.scores) >= m.target and m.winner == m.scores.index(max(m.scores))


@pytest.mark.parametrize(("text", "reason"), [
    ("board:\n  spinner: first_double\nevents:\n  - after: place\n"
     "    points: \"count(board, t -> t.is_double)\"\n",
     "read what the JIT kernel does not keep"),
    ("events:\n  - after: place\n    points: \"side.pips\"\n",
     "read what the JIT kernel does not keep (side.pips during play)"),
    ("events:\n  - after: place\n    points: \"count(board, t -> t.is_double)\"\n",
     "read what the JIT kernel does not keep"),
    ("events:\n  - after: place\n    points: \"ends[round]\"\n",
     "the list ends indexed by a formula"),
])
def test_what_it_does_not_keep_of_the_table_it_refuses_in_a_sentence(tmp_path, text, reason):
    path = tmp_path / "r.yaml"
    path.write_text("title: Test\nextends: pagat\n" + text)
    game = api.load_game(str(path))
    got = jit_kernel.jit_reason(game, 2, "random")
    assert got is not None and reason in got, got


def test_set_variables_and_duties_of_every_kind_give_the_same_matches(tmp_path):
    """What the builtin rulesets leave out: two variables set at once (each from the
    values before), a duty on the opponents costing points and two tiles, a duty on the
    others met by any placement, duties laid by the opening tile, play to the right."""
    path = tmp_path / "r.yaml"
    path.write_text(
        "title: Test\nextends: pagat\nplay:\n  direction: right\n"
        "variables:\n  a:\n    initial: 1\n    after_round: \"1\"\n"
        "  b:\n    initial: 0\n    after_round: \"b\"\n"
        "events:\n  - after: place\n    if: \"tile.is_double\"\n"
        "    set: {a: \"b + 1\", b: \"a + 2\"}\n"
        "    duty:\n      on: opponents\n      met: \"tile.pips >= duty_tile.pips\"\n"
        "      fail_points: -2\n      fail_draws: 2\n      lasts: one_turn\n"
        "  - after: place\n    if: \"ends[0] == ends[-1]\"\n    points: \"a\"\n"
        "    duty:\n      on: others\n      met: true\n"
        "scoring:\n  domino: \"a * sum(opponents.value) + b\"\n")
    game = api.load_game(str(path))
    for players in (2, 3, 4):
        assert jit_kernel.jit_reason(game, players, "random") is None
        seeds = [api.match_seed(13, i) for i in range(10)]
        for bots in ("random", "greedy"):
            got = engines.jit_results(game, players, seeds, bots)
            want = [api.play_match(game, players, s, bots) for s in seeds]
            assert got == want, (players, bots)
            assert [m.counters for m in got] == [m.counters for m in want]


def test_a_match_won_by_a_draws_or_a_passs_points_or_amid_extra_turns_is_the_loops(tmp_path):
    """What muggins-wins-in-play leaves out: the target reached by a draw's or a pass's
    points (the rest of the turn lapses) and between turns granted (``again``)."""
    path = tmp_path / "r.yaml"
    path.write_text(
        "title: Test\nextends: pagat\nmatch:\n  target: 40\n  ends_in_play: true\n"
        "events:\n  - after: draw\n    points: \"2\"\n  - after: pass\n"
        "    each_opponent: \"3\"\n  - after: place\n    if: \"tile.is_double\"\n"
        "    points: \"5\"\n    again: \"true\"\n")
    game = api.load_game(str(path))
    seeds = [api.match_seed(14, i) for i in range(10)]
    for players, bots in ((2, "random"), (3, "greedy")):
        got = engines.jit_results(game, players, seeds, bots)
        assert got == [api.play_match(game, players, s, bots) for s in seeds], players
        assert any(m.rounds[-1].result == "target" for m in got)
