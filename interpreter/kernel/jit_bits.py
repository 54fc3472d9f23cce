"""Tile sets of any size for the JIT kernel: a set of tiles as ``W`` int64 words, in numba.

The kernel keeps a hand, the tiles fitting an end and the like as one int64 mask while a
set has at most 62 tiles (``jit_kernel.MAX_TILES``). A double-twelve set (91 tiles) and
up needs more than one word, so the kernel made for it (``jit_template``'s ``WIDE``
lines) holds each such set as an array of ``W`` words instead, ``W`` fixed when the
kernel is written (``words``). Tile ``t`` is bit ``t % BITS`` of word ``t // BITS``: the
words read in order list the tiles in index order, the order the Python engine counts
its picks in (``kth_placement``, ``greedy``'s ties), so a pick here is the same tile.
``tests/test_kernel_jit_bits.py`` holds every piece to plain Python sets.
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
def has(a, t: int) -> int:
    """1 when tile ``t`` is in ``a``, else 0."""
    return (a[t // BITS] >> (t % BITS)) & 1


@njit
def put(a, t: int) -> None:
    """Add tile ``t`` to ``a``."""
    a[t // BITS] |= 1 << (t % BITS)


@njit
def take(a, t: int) -> None:
    """Take tile ``t`` out of ``a``."""
    a[t // BITS] &= ~(1 << (t % BITS))


@njit
def clear(a) -> None:
    """Empty ``a``."""
    for w in range(a.shape[0]):
        a[w] = 0


@njit
def meet(out, a, b) -> int:
    """``out = a & b``; 1 when it holds a tile, else 0."""
    any_ = 0
    for w in range(out.shape[0]):
        x = a[w] & b[w]
        out[w] = x
        any_ |= x
    return 1 if any_ else 0


@njit
def copy(out, a) -> None:
    """``out = a``."""
    for w in range(out.shape[0]):
        out[w] = a[w]


@njit
def count(a) -> int:
    """The tiles in ``a`` (``int.bit_count`` of the whole mask)."""
    n = 0
    for w in range(a.shape[0]):
        n += popcount(a[w])
    return n


@njit
def count_and(a, b) -> int:
    """The tiles in both ``a`` and ``b`` (``popcount(a & b)``)."""
    n = 0
    for w in range(a.shape[0]):
        n += popcount(a[w] & b[w])
    return n


@njit
def count_and_or(a, b, c) -> int:
    """The tiles of ``a`` in ``b`` or ``c`` (``popcount(a & (b | c))``)."""
    n = 0
    for w in range(a.shape[0]):
        n += popcount(a[w] & (b[w] | c[w]))
    return n


@njit
def meets(a, b) -> int:
    """1 when ``a`` and ``b`` share a tile, else 0."""
    for w in range(a.shape[0]):
        if a[w] & b[w]:
            return 1
    return 0


@njit
def nonempty(a) -> int:
    """1 when ``a`` holds a tile, else 0."""
    for w in range(a.shape[0]):
        if a[w]:
            return 1
    return 0


@njit
def several(a) -> int:
    """1 when ``a`` holds two tiles or more, else 0 (the narrow ``m & (m - 1)``)."""
    seen = 0
    for w in range(a.shape[0]):
        x = a[w]
        if x:
            if seen or x & (x - 1):
                return 1
            seen = 1
    return 0


@njit
def kth(a, k: int) -> int:
    """The ``k``-th tile of ``a`` (0: its lowest) in index order; -1 when it has fewer."""
    for w in range(a.shape[0]):
        x = a[w]
        c = popcount(x)
        if k < c:
            while k:
                x &= x - 1
                k -= 1
            return w * BITS + low_index(x)
        k -= c
    return -1


@njit
def value_sum(a, VALUES) -> int:
    """The sum of ``VALUES`` over the tiles of ``a`` (a hand's pips)."""
    v = 0
    for w in range(a.shape[0]):
        x = a[w]
        while x:
            b = x & -x
            x ^= b
            v += VALUES[w * BITS + low_index(b)]
    return v


@njit
def holder(hands, N: int, tile: int) -> int:
    """The seat whose hand (a row of ``hands``) holds ``tile``, or -1."""
    for s in range(N):
        if has(hands[s], tile):
            return s
    return -1


@njit
def highest_double(hands, N: int, DOUBLES_DESC) -> tuple[int, int]:
    """(seat, tile) of the highest double dealt, or (-1, -1)."""
    for d in DOUBLES_DESC:
        s = holder(hands, N, d)
        if s >= 0:
            return s, d
    return -1, -1


@njit
def uniform(m_left, m_right, word: int) -> int:
    """The uniform pick among the placements (``engine.general_loop``'s ``kth_placement``)
    as ``tile << 2 | end``: the seat's ``word`` picks one of the left end's tiles, then
    the right's, each in index order."""
    n_left = count(m_left)
    k = (word * (n_left + count(m_right))) >> 32
    if k < n_left:
        return kth(m_left, k) << 2
    return kth(m_right, k - n_left) << 2 | 1


@njit
def greedy(m_left, m_right, word: int, VALUES, ties) -> int:
    """The ``greedy`` bot's placement as ``tile << 2 | end`` (``jit_template.greedy`` over
    words): the most valuable tile, ties broken by the seat's word in the canonical order
    (the left end's tiles, then the right's, each in index order)."""
    count_ = 0
    best = -(1 << 62)
    for end in range(2):
        m = m_left if end == 0 else m_right
        for w in range(m.shape[0]):
            x = m[w]
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
