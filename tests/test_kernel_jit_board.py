"""The JIT's spinner and fit rule (``kernel/jit_board.py``, ``kernel/jit_matching.py``) held
to the rules they port: ``engine.board.Board`` placement by placement, the loop's
``kth_placement`` pick for pick, ``matching.fit_tables`` entry by entry; as plain Python
and compiled by numba (when installed). The whole matches are compared in
``tests/test_kernel_jit_house.py``."""

from __future__ import annotations

import random

import numpy as np
import pytest

from dominorules import api
from dominorules.engine import actions
from dominorules.engine.board import Board
from dominorules.engine.general_loop import kth_placement
from dominorules.kernel import jit, jit_board, jit_house, jit_matching


@pytest.fixture(params=["plain", "jit"])
def kernels(request):
    if request.param == "plain":
        return jit.plain(jit_board), jit.plain(jit_matching)
    pytest.importorskip("numba")
    if not jit.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    return jit_board, jit_matching


def test_the_spinner_opens_its_arms_as_the_board_does(kernels):
    """Random rounds of placements: the kernel's (need, value) and its arms opening follow
    ``Board.open_with`` and ``Board.place`` (spin_need, spin_value, count)."""
    board_k = kernels[0]
    rng = random.Random(5)
    opened_seen = set()
    for _ in range(400):
        low = rng.randrange(7)
        high = low if rng.random() < 0.4 else rng.randrange(low, 7)
        board = Board(spinner=True)
        board.open_with(low, high, low == high)
        need, value = board_k.spin_open(low, high, True)
        count = 2   # the kernel's NE
        assert (need, value) == ((board.spin_need, board.spin_value) if board.spin_need >= 0
                                 else (jit_board.NO_SPINNER, 0))
        for _ in range(rng.randrange(1, 12)):
            end = rng.randrange(board.count)
            a = rng.randrange(7)
            b = a if rng.random() < 0.3 else rng.randrange(7)
            board.place(end, min(a, b), max(a, b), a == b)
            opened = False
            if need > 0 or (need < 0 and a == b):   # the kernel asks only then
                need, value, opened = board_k.spin_place(need, value, end, min(a, b), a == b)
            assert need == board.spin_need and (need < 0 or value == board.spin_value)
            count = 4 if opened else count
            assert count == board.count
            if opened:
                assert board.values[2] == board.values[3] == value
                opened_seen.add(end)
    assert opened_seen == {0, 1}   # arms opened by a last bare side on either line end
    assert board_k.spin_open(3, 3, False) == (jit_board.NO_SPINNER, 0)


def test_the_uniform_pick_is_the_loops_kth_placement(kernels):
    """The loop's uniform pick (``GeneralLoop.run``): the ``(word * options) >> 32``-th
    of the placements in ``kth_placement``'s order, then a pass at will when allowed."""
    pick = kernels[1].uniform_pick
    rng = random.Random(8)
    passed = 0
    for _ in range(1000):
        fit = [rng.getrandbits(28) & rng.getrandbits(28) for _ in range(4)]
        if rng.random() < 0.5:
            fit[2] = fit[3] = 0
        if rng.random() < 0.2:   # a single placement: a pass at will is half the options
            fit = [1 << rng.randrange(28), 0, 0, 0]
        flips = [m & rng.getrandbits(28) if rng.random() < 0.5 else 0 for m in fit]
        n = sum(m.bit_count() for m in fit + flips)
        if not n:
            continue
        word = rng.getrandbits(32)
        at_will = rng.randrange(2)
        k = (word * (n + at_will)) >> 32
        want = actions.PASS if k == n else kth_placement(fit, flips, k)
        with np.errstate(over="ignore"):   # popcount's multiply wraps, as numba's does
            got = pick(word, *fit, *flips, at_will)
        if got == jit_matching.PASS:
            passed += 1
            assert want == actions.PASS
            continue
        assert (got & (jit_matching.FLIP - 1) | (actions.FLIP if got & jit_matching.FLIP
                                                 else 0)) == want
    assert passed > 50


@pytest.mark.parametrize("name", ["house/matador", "house/matador-nine"])
def test_the_kernels_fit_tables_are_game_fits(kernels, name):
    """What the kernel reads at FIT_AT in CODE is ``Game.fit`` (``matching.fit_tables``)."""
    game = api.load_game(name)
    listed, at = jit_house.programs(game)
    code = np.array(listed, np.int64)
    T, values = game.tileset.tile_count, game.rules.max_pip + 1
    _, two, first, second = game.fit
    start = at["FIT_AT"]
    assert listed[start:start + values] == list(two)
    for v in range(values):
        for t in range(T):
            assert kernels[1].left_open(code, start, values, T, v, t, 0) == first[v][t]
            assert kernels[1].left_open(code, start, values, T, v, t, 1) == second[v][t]
    assert jit_house.programs(api.load_game("house/spinner"))[1]["FIT_AT"] == -1
