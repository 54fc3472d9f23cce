"""``kernel/jit_masks.py`` held to plain Python sets: every helper on a set kept as one int64
mask (a narrow kernel's) and as a row of words (``jit_bits``: a wide kernel's), on the
same random sets, so a piece written over them walks the same tiles in the same order
either way. Compiled with numba when it is on, as plain Python otherwise."""

from __future__ import annotations

import random

import numpy as np
import pytest

from dominorules.kernel import jit_masks as ms
from dominorules.kernel.jit_bits import wide


def _sets(T: int, seed: int) -> list[set[int]]:
    rng = random.Random(seed)
    return [set(), {0}, {T - 1}, set(range(T)),
            *({t for t in range(T) if rng.random() < p} for p in (0.05, 0.3, 0.7) * 4)]


def _arrays(sets: list[set[int]], T: int) -> np.ndarray:
    masks = [sum(1 << t for t in s) for s in sets]
    if T <= 62:
        return np.array(masks, np.int64)
    return wide(masks, 2)


def _tiles(A: np.ndarray, i: int) -> list[int]:
    out, t = [], ms.after(A, i, -1)
    while t >= 0:
        out.append(t)
        t = ms.after(A, i, t)
    return out


@pytest.mark.parametrize("T", [28, 62, 91])
def test_each_helper_is_the_set_operation_it_names(T):
    sets = _sets(T, T)
    n = len(sets)
    for i, a in enumerate(sets):
        A = _arrays(sets, T)
        assert _tiles(A, i) == sorted(a)   # after: index order
        assert ms.count(A, i) == len(a) and ms.nonempty(A, i) == (1 if a else 0)
        assert [ms.kth(A, i, k) for k in range(len(a) + 1)] == [*sorted(a), -1]
        assert [t for t in range(T) if ms.has(A, i, t)] == sorted(a)
        # a program's fact: a narrow set's mask, a set of words in F's second row from its
        # end (two rows of 2 words after 10 facts), the fact its place
        F = np.zeros(14, np.int64)
        x = ms.put_fact(F, 3, 1, A, i)
        assert x == F[3] == (sum(1 << t for t in a) if T <= 62 else 10)
        if T > 62:
            assert sum(int(F[x + w]) << (62 * w) for w in range(2)) == sum(1 << t for t in a)
        assert ms.several(A, i) == (1 if len(a) > 1 else 0)
        j = (i * 7 + 3) % n
        b = sets[j]
        assert ms.count_and(A, i, A, j) == len(a & b)
        assert ms.shares(A, i, A, j) == (1 if a & b else 0)
        c = sets[(i * 5 + 1) % n]
        assert ms.count_and_or(A, i, A, j, A, (i * 5 + 1) % n) == len(a & (b | c))
        out = _arrays([set()] * 2, T)
        assert ms.meet(out, 0, A, i, A, j) == (1 if a & b else 0)
        assert _tiles(out, 0) == sorted(a & b)
        ms.join(out, 0, A, j)
        assert _tiles(out, 0) == sorted(b)
        ms.copy(out, 1, A, i)
        for t in sorted(a)[::2]:
            ms.take(out, 1, t)
        assert _tiles(out, 1) == sorted(a)[1::2]
        ms.clear(out, 1)
        assert _tiles(out, 1) == [] and _tiles(A, i) == sorted(a)   # A untouched
        deck = sorted(b, reverse=True)   # a deal's tiles: those after the hands' into a hand
        ms.copy(out, 1, A, i)
        ms.put_each(out, 1, np.array(deck, np.int64), len(deck) // 2, len(deck))
        assert _tiles(out, 1) == sorted(a | set(deck[len(deck) // 2:]))
