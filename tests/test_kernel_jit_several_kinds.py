"""The other kinds of move of several tiles on the JIT's line (``jit_several``:
``after_double``, a double then another tile, going on after each double; ``whole_hand``,
the whole hand shown and laid down at once).

Each search answers as the general loop's (``GeneralLoop._several`` over
``engine.mechanisms.several``) on random positions: the same moves in the same order
(the whole hand: the first order found). Then the GEN kernel plays both kinds at every
player count with every builtin bot: the same results and the same record text as the
Python engine (each tile of a move a ``place`` line with its ``part``). The kernel is the
one GEN kernel every house ruleset shares.
"""

from __future__ import annotations

import random

import pytest
from jit_record_checks import same_on_both_engines

from dominorules import api

pytest.importorskip("numba")

from dominorules.kernel import jit_kernel  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

RULESETS = {
    "after-double": "  several:\n    move: after_double\n    most: 3\n"
                    "    tiles: \"first_turn or tile.pips + end != 7\"\n",
    "whole-hand": "  several:\n    move: whole_hand\n"
                  "    tiles: \"tile.pips >= 2 or boneyard < 8\"\n",
}


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kinds")
    out = {}
    for name, several in RULESETS.items():
        path = folder / f"{name}.yaml"
        path.write_text(f"title: {name}\ndescription: a test\nsource: a test\nextends: pagat\n"
                        f"play:\n{several}", encoding="utf-8")
        out[name] = api.load_game(str(path))
    return out


@pytest.mark.parametrize("name", list(RULESETS))
def test_the_moves_are_the_general_loops(games, name):
    import numpy as np

    from dominorules.engine.board import Board
    from dominorules.engine.general_loop import GeneralLoop
    from dominorules.kernel import jit_formula, jit_house, jit_several, jit_template

    game = games[name]
    ts = game.tileset
    T = ts.tile_count
    rng = random.Random(name)
    PM = np.array(game.setup(2).value_mask, np.int64)
    PIPS = np.array(ts.pips, np.int64)
    code, starts = jit_house.programs(game)
    CODE, SEV = np.array(code, np.int64), starts["SEVERAL"]
    most = int(CODE[SEV + jit_several.MOST])
    rows = jit_several.move_rows(game, 4) + 1
    MV, MN = np.zeros((rows, most), np.int64), np.zeros(rows, np.int64)
    SD = np.zeros((jit_several.SCRATCH, most + 1), np.int64)
    DT = np.zeros((3, jit_several.DEAD + 1), np.int64)
    stack = np.zeros(64, np.int64)
    tab, fact = jit_formula.TAB, jit_formula.FACT
    found = depth = 0
    for _ in range(400):
        players = rng.choice((2, 4))
        hand = sum(1 << t for t in rng.sample(range(T), rng.randint(1, 7)))
        L, R, boneyard, rnd, turns = (rng.randrange(7), rng.randrange(7), rng.randrange(T - 2),
                                      rng.randint(1, 5), rng.randint(1, 2))
        loop = GeneralLoop(game, players, 1, [None] * players)
        loop.board = Board()
        loop.board.open_with(L, R, L == R)
        loop.deck = list(range(T))
        loop.seat_turns = [turns] * players
        fit = [hand & int(PM[L]), hand & int(PM[R])]
        _, _, want = loop._several([], list(fit), fit[0] | fit[1], hand, T - boneyard, rnd, 0)
        F = np.zeros(len(jit_template.FACTS) + len(jit_template.PLAY_FACTS) + code[0], np.int64)
        F[fact["round"]], F[fact["players"]], F[fact["boneyard"]] = rnd, players, boneyard
        F[fact["first_turn"]] = int(turns == 1)
        TAB = np.zeros((len(jit_template.TABLES), max(T, players)), np.int64)
        for t in range(T):
            TAB[tab["TL"], t], TAB[tab["TH"], t] = ts.low[t], ts.high[t]
            TAB[tab["PIPS"], t], TAB[tab["VALUES"], t] = ts.pips[t], game.values[t]
        n = jit_several.moves(hand, L, R, PM, PIPS, CODE, SEV, F, TAB,
                              np.array(game.teams(players), np.int64), 2, players,
                              np.arange(T, dtype=np.int64), stack, MV, MN, SD, DT,
                              ts.doubles_mask)
        assert [tuple(int(c) for c in MV[k, :MN[k]]) for k in range(n)] == list(want)
        found += n
        depth = max([depth, *(len(m) for m in want)])
    assert found > 20 and depth >= 3   # moves found, of three tiles and more


CASES = [(name, n) for name in RULESETS for n in (2, 3, 4)]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_kernel_plays_and_records_them_as_the_python_engine(games, name, players):
    from dominorules.kernel import engines, jit_trace

    game = games[name]
    assert jit_trace.reason(game) is None
    seeds = [api.match_seed(41, i) for i in range(2)]
    parts = set()
    for bots in ("random", "greedy", "strategist",
                 ["strategist", "greedy", "random", "strategist"][:players]):
        assert engines.jit_reason(game, players, bots, trace=True) is None
        events = same_on_both_engines(game, players, seeds, bots)
        parts |= {e["part"][1] for e in events if "part" in e}
    assert parts and min(parts) >= 2   # moves of several tiles were played and written
