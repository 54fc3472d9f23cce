"""Tile sets of any size for the JIT kernel: a set of tiles as ``W`` int64 words, in numba.

The kernel keeps a hand, the tiles fitting an end and the like as one int64 mask while a
set has at most 62 tiles (``jit_kernel.MAX_TILES``). A double-twelve set (91 tiles) and
up needs more than one word, so the kernel made for it (``jit_loop``'s ``WIDE``
lines) holds each such set as an array of ``W`` words instead, ``W`` fixed when the
kernel is written (``words``). Tile ``t`` is bit ``t % BITS`` of word ``t // BITS``: the
words read in order list the tiles in index order, the order the Python engine counts
its picks in (``kth_placement``, ``greedy``'s ties), so a pick here is the same tile.
``tests/test_kernel_jit_bits.py`` holds every piece to plain Python sets.

Every set is a row of a 2-D array, named by the array and the row's index (``H, s``: seat
``s``'s hand): a row taken as a view of its own costs numba a reference count each time
(some 30 ns a turn for the hand and the ends' tables, against 3 ns for the words read in
place), so nothing here makes one.
"""

from __future__ import annotations

import numpy as np

from .jit import njit
from .jit_support import low_index, popcount

BITS = 62   # tiles a word: a word stays a non-negative int64, as a narrow kernel's mask


def words(tiles: int) -> int:
    """The words a set of ``tiles`` tiles needs (at least one)."""
    return max(1, -(-tiles // BITS))


def wide(masks: list[int], W: int) -> np.ndarray:
    """Python int masks (bit t: tile t) as a ``(len(masks), W)`` int64 array of words."""
    out = np.zeros((len(masks), W), np.int64)
    low = (1 << BITS) - 1
    for i, m in enumerate(masks):
        for w in range(W):
            out[i, w] = (m >> (w * BITS)) & low
    return out


@njit
def has(A, i: int, t: int) -> int:
    """1 when tile ``t`` is in set ``A[i]``, else 0."""
    return (A[i, t // BITS] >> (t % BITS)) & 1


@njit
def put(A, i: int, t: int) -> None:
    """Add tile ``t`` to ``A[i]``."""
    A[i, t // BITS] |= 1 << (t % BITS)


@njit
def take(A, i: int, t: int) -> None:
    """Take tile ``t`` out of ``A[i]``."""
    A[i, t // BITS] &= ~(1 << (t % BITS))


@njit
def clear(A, i: int) -> None:
    """Empty ``A[i]``."""
    for w in range(A.shape[1]):
        A[i, w] = 0


@njit
def copy(A, i: int, B, j: int) -> None:
    """``A[i] = B[j]``."""
    for w in range(A.shape[1]):
        A[i, w] = B[j, w]


@njit
def meet(A, i: int, B, j: int, C, k: int) -> int:
    """``A[i] = B[j] & C[k]``; 1 when it holds a tile, else 0."""
    any_ = 0
    for w in range(A.shape[1]):
        x = B[j, w] & C[k, w]
        A[i, w] = x
        any_ |= x
    return 1 if any_ else 0


@njit
def count(A, i: int) -> int:
    """The tiles in ``A[i]`` (``int.bit_count`` of the whole mask)."""
    n = 0
    for w in range(A.shape[1]):
        n += popcount(A[i, w])
    return n


@njit
def count_and(A, i: int, B, j: int) -> int:
    """The tiles in both ``A[i]`` and ``B[j]`` (``popcount(a & b)``)."""
    n = 0
    for w in range(A.shape[1]):
        n += popcount(A[i, w] & B[j, w])
    return n


@njit
def count_and_or(A, i: int, B, j: int, C, k: int) -> int:
    """The tiles of ``A[i]`` in ``B[j]`` or ``C[k]`` (``popcount(a & (b | c))``)."""
    n = 0
    for w in range(A.shape[1]):
        n += popcount(A[i, w] & (B[j, w] | C[k, w]))
    return n


@njit
def meets(A, i: int, B, j: int) -> int:
    """1 when ``A[i]`` and ``B[j]`` share a tile, else 0."""
    for w in range(A.shape[1]):
        if A[i, w] & B[j, w]:
            return 1
    return 0


@njit
def nonempty(A, i: int) -> int:
    """1 when ``A[i]`` holds a tile, else 0."""
    for w in range(A.shape[1]):
        if A[i, w]:
            return 1
    return 0


@njit
def several(A, i: int) -> int:
    """1 when ``A[i]`` holds two tiles or more, else 0 (the narrow ``m & (m - 1)``)."""
    seen = 0
    for w in range(A.shape[1]):
        x = A[i, w]
        if x:
            if seen or x & (x - 1):
                return 1
            seen = 1
    return 0


@njit
def kth(A, i: int, k: int) -> int:
    """The ``k``-th tile of ``A[i]`` (0: its lowest) in index order; -1 when it has fewer."""
    for w in range(A.shape[1]):
        x = A[i, w]
        c = popcount(x)
        if k < c:
            while k:
                x &= x - 1
                k -= 1
            return w * BITS + low_index(x)
        k -= c
    return -1


@njit
def value_sum(A, i: int, VALUES) -> int:
    """The sum of ``VALUES`` over the tiles of ``A[i]`` (a hand's pips)."""
    v = 0
    for w in range(A.shape[1]):
        x = A[i, w]
        while x:
            b = x & -x
            x ^= b
            v += VALUES[w * BITS + low_index(b)]
    return v


@njit
def uniform(M, left: int, right: int, word: int) -> int:
    """The uniform pick among the placements (``engine.general_loop``'s ``kth_placement``)
    as ``tile << 2 | end``, the tiles fitting each end being ``M[left]`` and ``M[right]``:
    the seat's ``word`` picks one of the left end's tiles, then the right's, each in
    index order."""
    n_left = count(M, left)
    k = (word * (n_left + count(M, right))) >> 32
    if k < n_left:
        return kth(M, left, k) << 2
    return kth(M, right, k - n_left) << 2 | 1


@njit
def greedy(M, left: int, right: int, word: int, VALUES, ties) -> int:
    """The ``greedy`` bot's placement as ``tile << 2 | end`` (``jit_loop.greedy`` over
    words): the most valuable tile, ties broken by the seat's word in the canonical order
    (the left end's tiles, then the right's, each in index order)."""
    count_ = 0
    best = -(1 << 62)
    for end in range(2):
        row = left if end == 0 else right
        for w in range(M.shape[1]):
            x = M[row, w]
            while x:
                b = x & -x
                x ^= b
                t = w * BITS + low_index(b)
                v = VALUES[t]
                if v > best:
                    best = v
                    count_ = 0
                if v == best:
                    ties[count_] = t << 2 | end
                    count_ += 1
    return ties[(word * count_) >> 32]
