"""A set of tiles as words (``kernel/jit_bits.py``) held to Python's sets and ints.

Random sets of a double-twelve, double-fifteen and double-eighteen set and beyond: every
piece (membership, and, counts, the k-th tile, a hand's value, the uniform pick as the
loop's ``kth_placement``, greedy as ``GreedyBot.policy``; ``jit_opening``'s holder over these
words and over masks) gives what the same question asked of a Python set or int mask gives.
Run as plain Python (``jit.plain``): the compiled pieces play whole matches against the
Python engine in ``tests/test_kernel_jit_wide.py``, where one kernel compiles them all.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from dominorules import api
from dominorules.bots.greedy import GreedyBot
from dominorules.engine.general_loop import kth_placement
from dominorules.kernel import jit, jit_bits, jit_opening

B = jit.plain(jit_bits)
OP = jit.plain(jit_opening)   # the holder and the highest double, over either width


def _mask(tiles) -> int:
    return sum(1 << t for t in tiles)


def _rows(*sets, W: int) -> np.ndarray:
    """The sets as the rows of one array (``jit_bits``: a set is ``A, i``)."""
    return jit_bits.wide([_mask(s) for s in sets], W)


def _back(row) -> set[int]:
    return {w * jit_bits.BITS + i for w, x in enumerate(row.tolist())
            for i in range(jit_bits.BITS) if x >> i & 1}


class _Word:
    """An rng whose next ``random()`` is a given 32-bit word over 2**32 (a seat's word)."""

    def __init__(self, word: int):
        self.word = word

    def random(self) -> float:
        return self.word / 2 ** 32


def test_words_are_tiles_in_index_order():
    assert [jit_bits.words(t) for t in (1, 62, 63, 91, 124, 136, 190)] == [1, 1, 2, 2, 2, 3, 4]
    rng = random.Random(1)
    for T in (63, 91, 136, 190, 300):
        W = jit_bits.words(T)
        for _ in range(40):
            s = set(rng.sample(range(T), rng.randrange(T + 1)))
            A = _rows(set(), s, W=W)   # (row 1: the set, row 0 another)
            assert A.dtype == np.int64 and A.min() >= 0 and _back(A[1]) == s
            assert B.count(A, 1) == len(s) and B.nonempty(A, 1) == (len(s) > 0)
            assert B.several(A, 1) == (len(s) > 1)
            ordered = sorted(s)
            assert [B.kth(A, 1, k) for k in range(len(s) + 1)] == [*ordered, -1]
            t = rng.randrange(T)
            assert B.has(A, 1, t) == (t in s)
            B.put(A, 1, t)
            assert _back(A[1]) == s | {t}
            B.take(A, 1, t)
            assert _back(A[1]) == s - {t} and not B.nonempty(A, 0)
            B.clear(A, 1)
            assert not B.nonempty(A, 1)


def test_and_counts_and_values_are_the_sets():
    rng = random.Random(2)
    for T in (91, 136, 190):
        W = jit_bits.words(T)
        values = np.array([rng.randrange(-5, 40) for _ in range(T)], np.int64)
        for _ in range(60):
            a, b, c = (set(rng.sample(range(T), rng.randrange(T // 2))) for _ in range(3))
            A = _rows(a, b, c, W=W)
            out = np.zeros((2, W), np.int64)
            assert B.meet(out, 1, A, 0, A, 1) == (len(a & b) > 0) and _back(out[1]) == a & b
            B.copy(out, 0, A, 2)
            assert _back(out[0]) == c
            assert B.count_and(A, 0, A, 1) == len(a & b)
            assert B.count_and_or(A, 0, A, 1, A, 2) == len(a & (b | c))
            assert B.meets(A, 0, A, 1) == (len(a & b) > 0)
            assert B.value_sum(A, 0, values) == sum(int(values[t]) for t in a)


@pytest.mark.parametrize("name, hand", [("pagat", 7), ("house/double-fifteen", 15)])
def test_the_holder_and_the_highest_double_are_the_deals(name, hand):
    """``jit_opening``'s one pair for both widths: a narrow deal's int64 masks, a wide one's
    rows of words."""
    game = api.load_game(name)
    ts, T = game.tileset, game.tileset.tile_count
    rng = random.Random(3)
    desc = np.array(ts.doubles_desc, np.int64)
    for _ in range(30):
        deck = rng.sample(range(T), T)
        hands = [set(deck[i * hand:(i + 1) * hand]) for i in range(4)]
        rows = _rows(*hands, W=jit_bits.words(T)) if T > jit_bits.BITS \
            else np.array([_mask(h) for h in hands], np.int64)
        for t in range(T):
            assert OP.holder(rows, 4, t) == next((s for s, h in enumerate(hands) if t in h), -1)
        dealt = [d for d in ts.doubles_desc if any(d in h for h in hands)]
        want = (next(s for s, h in enumerate(hands) if dealt[0] in h), dealt[0]) if dealt \
            else (-1, -1)
        assert OP.highest_double(rows, 4, desc) == want


def test_the_uniform_pick_and_greedy_are_the_engines():
    game = api.load_game("house/double-eighteen")
    T = game.tileset.tile_count
    W = jit_bits.words(T)
    values = np.array(game.values, np.int64)
    ties = np.zeros(4 * T, np.int64)
    rng = random.Random(4)
    for _ in range(300):
        left, right = (set(rng.sample(range(T), rng.randrange(4))) for _ in range(2))
        if not left | right:
            continue
        word = rng.randrange(1 << 32)
        M = _rows(right, left, W=W)   # (the left end's tiles in row 1)
        fit = [_mask(left), _mask(right)]
        k = (word * (len(left) + len(right))) >> 32
        assert B.uniform(M, 1, 0, word) == kth_placement(fit, [0, 0], k)
        greedy = GreedyBot(0, _Word(word)).policy(game)
        assert B.greedy(M, 1, 0, word, values, ties) == greedy(fit[0], fit[1], False)
