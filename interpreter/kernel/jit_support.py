"""Small pieces the JIT kernels call: bit counts, the lead's SplitMix64 stream, list folds.

Each mirrors one Python operation of the match loop exactly (``int.bit_count``,
``engine.leaders.HashStream``, the formula runtime's ``min``/``max`` of an empty
list being 0, ``x // 0 == x % 0 == 0``), in numba's nopython subset. Hand masks are
int64 (sets of at most 62 tiles: double-nine and below; a larger set's are words of
62 tiles each, ``jit_bits``).
"""

from __future__ import annotations

import numpy as np

from ..engine.mechanisms.position import seat_after_piece
from .jit import njit

_M1 = np.int64(0x5555555555555555)
_M2 = np.int64(0x3333333333333333)
_M4 = np.int64(0x0F0F0F0F0F0F0F0F)
_H01 = np.int64(0x0101010101010101)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_SEED_MUL = np.uint64(0xD1342543DE82EF95)
_LEAD_KEY = np.uint64(0x2545F4914F6CDD1D)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_TWO53 = 9007199254740992.0


@njit
def popcount(x: int) -> int:
    """Set bits of a non-negative int64 (``int.bit_count``)."""
    x = x - ((x >> 1) & _M1)
    x = (x & _M2) + ((x >> 2) & _M2)
    x = (x + (x >> 4)) & _M4
    return (x * _H01) >> 56


@njit
def low_index(b: int) -> int:
    """The index of the lowest set bit of ``b != 0`` (``(b & -b).bit_length() - 1``)."""
    return popcount((b & -b) - 1)


# the seat that plays after p (play.direction), a kernel piece beside Position.next_seat;
# compiled here for the kernel modules that call it (the mechanisms' pieces call the piece)
seat_after = njit(seat_after_piece)


@njit
def lead_stream(seed: int, state) -> None:
    """``HashStream(seed, "lead")``'s starting state into uint64 ``state[0]``."""
    state[0] = np.uint64(seed) * _SEED_MUL + _LEAD_KEY


@njit
def lead_random(state) -> float:
    """``HashStream.random()``: the next float in [0, 1) of the SplitMix64 stream."""
    z = state[0] + _GOLDEN
    state[0] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return float((z ^ (z >> _S31)) >> _S11) / _TWO53


@njit
def _floordiv(a: int, b: int) -> int:
    return a // b if b else 0


@njit
def _mod(a: int, b: int) -> int:
    return a % b if b else 0


@njit
def _sum(a) -> int:
    total = 0
    for x in a:
        total += x
    return total


@njit
def _count(a) -> int:
    return a.shape[0]


@njit
def _min(a) -> int:
    if a.shape[0] == 0:
        return 0
    return a.min()


@njit
def _max(a) -> int:
    if a.shape[0] == 0:
        return 0
    return a.max()


@njit(inline="always")
def _sum_at(values, at) -> int:
    """``sum(values[at])`` without making the array."""
    total = 0
    for i in at:
        total += values[i]
    return total


@njit(inline="always")
def _min_at(values, at) -> int:
    if at.shape[0] == 0:
        return 0
    best = values[at[0]]
    for i in at:
        best = min(best, values[i])
    return best


@njit(inline="always")
def _max_at(values, at) -> int:
    if at.shape[0] == 0:
        return 0
    best = values[at[0]]
    for i in at:
        best = max(best, values[i])
    return best
