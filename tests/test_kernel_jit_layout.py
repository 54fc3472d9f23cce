"""The JIT's board shapes (``kernel/jit_layout.py``) held to the rule they port: random rounds
laid through ``engine.mechanisms.layout.Layout`` and through the numba functions, the open
ends (names, values, in order) compared after every placement and pass, the bots' pick
compared with the loop's ``kth_placement``; as plain Python and compiled by numba (when
installed). Whole matches of the layout builtins: ``api.simulate`` on the JIT equals the
Python engine's, at their fewest and most players, with random, greedy and strategist
bots (``jit_strategist_layout``)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from dominorules import api
from dominorules.engine.general_loop import kth_placement
from dominorules.engine.mechanisms.layout import Layout, Shape
from dominorules.kernel import engines, jit, jit_kernel, jit_layout, jit_trace

TOP = 9   # a double-nine set: 55 tiles
TILES = [(a, b) for b in range(TOP + 1) for a in range(b + 1)]
INDEX = {t: i for i, t in enumerate(TILES)}
TL = [a for a, _ in TILES]
TH = [b for _, b in TILES]
SHAPES = [
    Shape(spins="every_double", sides=3, opening_sides=6, through=False, arms_open="at_once",
          answer_first=True),                                           # chicken foot's
    Shape(ends=1),                                                      # one train's
    Shape(spins=(6, 6), through=False, opening_sides=4, arms_open="at_once",
          answer_first=True),                                           # sebastopol's
    Shape(spins="every_double", sides=2),                               # every double spins
    Shape(trains=True, shared_train="shared", markers=True, answer_doubles=True),
    Shape(trains=True, markers=True),
    Shape(spins="first_double", sides=2, answer_first=True),
    Shape(spins="every_double", sides=2, through=False, dead_arms=True),
    Shape(spins="every_double", sides=3, answer_first=True, answer_doubles=True),
]


@pytest.fixture(params=["plain", "jit"])
def kl(request):
    if request.param == "plain":
        return jit.plain(jit_layout)
    pytest.importorskip("numba")
    if not jit.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    return jit_layout


def _ends(kl, SH, LB, seat, PE):
    n = kl.playable(SH, LB, seat, PE)
    return [(jit_layout.name_of(int(LB[jit_layout.NAME + i]), TL, TH, "shared"),
             int(LB[jit_layout.VAL + i])) for i in PE[:n]]


@pytest.mark.parametrize("k", range(len(SHAPES)))
def test_the_board_opens_and_closes_its_ends_as_the_layout_does(kl, k):
    """Random rounds of placements and passes: the ends each seat may play on (by name,
    value and order), the end total and spinners_complete after every step are Layout's."""
    shape = SHAPES[k]
    rng = random.Random(k)
    SH = np.zeros(jit_layout.SHAPE_N, np.int64)
    kl.unpack(jit_layout.code(shape, INDEX), SH)
    LB = np.zeros(jit_layout.BOARD_SIZE, np.int64)
    PE = np.zeros(jit_layout.MAXID, np.int64)
    steps = 0
    for _ in range(60):
        seats = rng.randrange(2, 9)
        board = Layout(shape, seats=seats)
        kl.clear(LB)
        pool = list(TILES)
        rng.shuffle(pool)
        first = pool.pop() if rng.random() < 0.5 else pool.pop(pool.index((TOP, TOP)))
        board.place(first, None)
        kl.place_open(SH, LB, INDEX[first], first[0], first[1], seats)
        idle = 0
        while pool and idle < 3 * seats:
            seat = rng.randrange(seats)
            assert _ends(kl, SH, LB, seat, PE) == board.playable(seat)
            assert _ends(kl, SH, LB, -1, PE) == board.playable(None)
            assert kl.end_total(LB) == board.end_total()
            assert kl.spinners_complete(LB) == board.spinners_complete()
            fitting = [(t, name) for t in pool for name in board.ends_fitting(t, seat)]
            if not fitting or rng.random() < 0.1:
                assert kl.passed(SH, LB, seat) == board.passed(seat)
                idle += 1
                continue
            idle = 0
            t, name = rng.choice(fitting)
            pool.remove(t)
            at = next(i for i in PE[:kl.playable(SH, LB, seat, PE)]
                      if jit_layout.name_of(int(LB[jit_layout.NAME + i]), TL, TH,
                                            "shared") == name)
            board.place(t, name, seat=seat)
            kl.place(SH, LB, INDEX[t], t[0], t[1], at, seat)
            steps += 1
    assert steps > 300


def test_the_pick_is_the_loops_kth_placement_and_greedys_order(kl):
    """The uniform pick is ``kth_placement`` over the ends in playable order (a pass at
    will the last option); greedy's is the most valuable tile, ties in that order."""
    rng = random.Random(3)
    values = np.array([rng.randrange(12) for _ in range(55)], np.int64)
    ties = np.zeros(4 * 55 * 8, np.int64)
    for _ in range(500):
        n = rng.randrange(1, 8)
        fit = [rng.getrandbits(55) & rng.getrandbits(55) & rng.getrandbits(55)
               for _ in range(n)]
        count = sum(m.bit_count() for m in fit)
        if not count:
            continue
        FM = np.array(fit, np.int64)
        word = rng.getrandbits(32)
        at_will = rng.randrange(2)
        k = (word * (count + at_will)) >> 32
        want = -2 if k == count else kth_placement(fit, [0] * n, k, 8)
        assert kl.pick(word, 0, at_will, FM, n, values, ties) == want
        best = max(values[t] for m in fit for t in range(55) if m >> t & 1)
        order = [t << 8 | e for e, m in enumerate(fit) for t in range(55)
                 if m >> t & 1 and values[t] == best]
        assert kl.pick(word, 1, 0, FM, n, values, ties) == order[(word * len(order)) >> 32]


# (chicken-foot-tap: a shaped board and a declaration, jit_layout and jit_declare together)
PLAYED = ("house/one-train", "house/sebastopol", "house/every-double-spins",
          "house/chicken-foot", "house/chicken-foot-tap")


def _jit():
    pytest.importorskip("numba")
    if not jit.available():
        pytest.skip("DOMINORULES_NO_JIT is set")


def _fewest_and_most():
    for name in PLAYED:
        rules = api.load_game(name).rules
        for players in sorted({rules.min_players, rules.max_players}):
            yield name, players


@pytest.mark.parametrize(("name", "players"), list(_fewest_and_most()))
def test_the_layout_builtins_play_the_python_engines_matches_on_the_jit(name, players):
    """Match for match (every MatchResult field), and the summary of a run, minus the
    engine's name: random, greedy and strategist bots, alone and mixed (the strategist's
    matches are not greedy's: its own weights play)."""
    _jit()
    game = api.load_game(name)
    seeds = [api.match_seed(9, i) for i in range(4)]
    played = {}
    for bots in ("random", "greedy", "strategist",
                 (["strategist", "random", "greedy"] * players)[:players]):
        assert jit_kernel.jit_reason(game, players, bots) is None
        got = played[str(bots)] = engines.jit_results(game, players, seeds, bots)
        assert got == [api.play_match(game, players, s, bots) for s in seeds], bots
    assert played["strategist"] != played["greedy"]
    fast, slow = (api.simulate(game, players, 12, 5, "random", engine=e)
                  for e in ("jit", "python"))
    assert (fast.pop("engine"), slow.pop("engine")) == ("jit", "python")
    fast.pop("seconds", None), slow.pop("seconds", None)
    assert fast == slow


def test_what_the_jit_does_not_play_on_a_shaped_board_it_refuses_in_a_sentence():
    """Mexican Train on its 91 tiles it plays (``tests/test_kernel_jit_wide_layout.py``);
    chicken foot's opening double by the round (a table of the match's ten rounds,
    O_ROUNDS) it plays, and records it writes (``tests/test_kernel_jit_records_layout.py``)."""
    several = api.load_game("house/mexican-train")
    assert jit_kernel.jit_reason(several, 2, "random", need_numba=False) is None
    foot = api.load_game("house/chicken-foot")
    assert jit_kernel.jit_reason(foot, 8, "strategist", need_numba=False) is None
    _jit()
    game = api.load_game("house/one-train")
    assert engines.choose(game, 2, "random", "auto", matches=50_000) == "jit"
    assert engines.choose(game, 2, "random", "auto", trace=True, matches=50_000) == "jit"
    assert jit_trace.reason(game) is None


def test_a_shaped_board_with_events_reading_its_ends_as_a_list_is_the_jits():
    """Events reading a shaped board's ends as a list (``max(ends)`` over every open end:
    ``jit_formula.Shaped``, ``tests/test_kernel_jit_layout_lists.py`` plays them): no
    refusal, and no ruleset of the JIT's reads the line's two in their place."""
    path = Path(__file__).resolve().parent / "rulesets" / "house" / "chicken-foot-ends.yaml"
    game = api.load_game(str(path))
    assert jit_kernel.jit_reason(game, 2, "random", need_numba=False) is None
