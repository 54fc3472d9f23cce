"""The ``strategist`` bot in a wide JIT kernel: ``jit_strategist`` over sets of words.

A set over 62 tiles keeps each hand and tile mask as a row of words (``jit_bits``), so
the strategist's pieces that read tile masks are written again here over those rows:
``opening``, ``choose`` and the knowledge updates that record a placed tile. They are
``jit_strategist``'s term for term (the same sums in the same order, the same ties
broken by the same word), only each ``popcount(a & b)`` is ``jit_bits.count_and`` and
each tile loop walks the words in order. ``know_deal`` and ``know_lack`` read no tile
mask and are ``jit_strategist``'s own. Each set is a row of an array (``jit_bits``:
``M, i`` is ``M[i]``); the board's placed tiles are the words of the knowledge array's
``BOARD`` row (its first ``W`` columns) where a narrow kernel keeps one mask in its first
column. ``tests/test_kernel_jit_wide.py`` plays both engines and
compares.
"""

from __future__ import annotations

from .jit import njit
from .jit_bits import BITS, count, count_and, count_and_or, kth, meets, nonempty, put, several
from .jit_strategist import (
    BOARD,
    LED,
    OPENED,
    TWICE,
    blocking,
    keep,
    next_suits,
    open_score,
    seat_word,
    settle,
    shown,
    table,
)
from .jit_support import low_index


@njit
def know_open(K, p: int, t: int, lo: int, hi: int) -> None:
    """Seat ``p`` opened the line with tile ``t`` (``lo``-``hi``): it leads those values."""
    K[LED, p] = 1 << lo | 1 << hi
    put(K, BOARD, t)


@njit
def know_place(K, p: int, t: int, v: int) -> None:
    """Seat ``p`` placed tile ``t``, leaving ``v`` at the end it played on."""
    put(K, BOARD, t)
    bit = 1 << v
    if K[OPENED, p] & bit:
        K[TWICE, p] |= bit
    else:
        K[OPENED, p] |= bit


@njit
def opening(p: int, M, mi: int, H, S, TS, TC, seed: int, N: int, WS) -> int:
    """``jit_strategist.opening`` over words: seat ``p``'s opening tile among ``M[mi]``,
    its hand ``H[p]``."""
    if not several(M, mi):
        return kth(M, mi, 0) << 2
    VM, LOW, HIGH, VALUE, WO = S[0], S[5], S[6], S[4], S[13]
    top = floor = ceil = -1e300
    best = -1
    n = 0
    for w in range(M.shape[1]):
        x = M[mi, w]
        while x:
            b = x & -x
            x ^= b
            t = w * BITS + low_index(b)
            lo, hi = LOW[t], HIGH[t]
            score = open_score(count_and(H, p, VM, lo), count_and(H, p, VM, hi), lo, hi,
                               VALUE[t], WO)
            top, floor, ceil, best, n = keep(score, t << 2, top, floor, ceil, best, n, TS, TC)
    return settle(n, floor, best, TS, TC, seed, p, N, WS)


@njit
def choose(p: int, M, m0: int, m1: int, can_draw: bool, H, h: int, e0: int, e1: int,
           left: int, drawn: int, K, S, TS, TC, seed: int, N: int, WS, U) -> int:
    """``jit_strategist.choose`` over words: seat ``p``'s placement as ``tile << 2 | end``,
    or -1 for a draw, ``M[m0]`` and ``M[m1]`` the tiles fitting each end, ``H[h]`` its
    hand; ``U[0]`` a scratch row (the tiles others may hold)."""
    any0, any1 = nonempty(M, m0), nonempty(M, m1)
    if any0 and any1:
        lone = -1
    elif any0:
        lone = -1 if several(M, m0) else kth(M, m0, 0) << 2
    else:
        lone = -1 if several(M, m1) else kth(M, m1, 0) << 2 | 1
    if lone >= 0 and not can_draw:
        return lone
    held = count(H, h)
    if lone >= 0 and held > 5:
        return lone
    VM, PIPS, DBL, SHED, PARTS, W = S[0], S[1], S[2], S[3], S[9], S[12]
    options2, control2, lock2 = W[0], W[1], W[2]
    suits_next = next_suits(p, can_draw, drawn, left, held, K, S, N)
    if lone >= 0 and not suits_next:
        return lone
    if not several(H, h):   # the last tile: every placement wins alike, no draw
        c0 = count(M, m0)
        n = c0 + count(M, m1)
        if n == 1:
            return kth(M, m0, 0) << 2 if any0 else kth(M, m1, 0) << 2 | 1
        k = (seat_word(seed, p, N, WS) * n) >> 32
        if k < c0:
            return kth(M, m0, k) << 2
        return kth(M, m1, k - c0) << 2 | 1
    risk = 2 if left <= 0 else (1 if left <= N else 0)
    opp, lks, suits, partner_lacks = table(p, K, S, N)
    partners = PARTS[p, 0] >= 0
    T = PIPS.shape[0]
    for w in range(U.shape[1]):   # others may hold these: neither held nor placed
        bits = min(BITS, T - w * BITS)
        U[0, w] = ((1 << bits) - 1) ^ (H[h, w] | K[BOARD, w])
    top = floor = ceil = -1e300
    best = -1
    n = 0
    for at in range(2):   # the left end's placements, then the right's; the other end stays
        if at == 0:
            m, end, stay = m0, e0, e1
        else:
            m, end, stay = m1, e1, e0
        ck = count_and(H, h, VM, stay)
        kbit = 1 << stay
        klock = not meets(VM, stay, U, 0)   # a kept value nobody else can hold
        mine = ck - 1 if end == stay else ck
        kept_half = control2 * (mine - 1) - options2 + (lock2 if mine and klock else 0)
        for wd in range(M.shape[1]):
            x = M[m, wd]
            while x:
                b = x & -x
                x ^= b
                t = wd * BITS + low_index(b)
                v = PIPS[t] - end
                both = count_and_or(H, h, VM, stay, VM, v)   # popcount(hand & (mk | vm))
                if v == stay:   # both ends will show it: the tile (end, stay)
                    half = (control2 * 2 + options2) * (ck - 1) + (
                        lock2 if ck > 1 and klock else 0)
                    values = kbit
                else:
                    c = count_and(H, h, VM, v)
                    half = kept_half + control2 * c + options2 * both
                    values = kbit | 1 << v
                    if c > 1 and not meets(VM, v, U, 0):
                        half += lock2
                half += (blocking(p, values, K, S, N)
                         + shown(values, opp, suits, partner_lacks, partners, W))
                if suits_next and (not suits_next >> v & 1 or values & lks or both > 1):
                    suits_next = 0   # a placement a draw cannot beat
                score = (half + DBL[t]) * 0.5 + SHED[risk, t]
                top, floor, ceil, best, n = keep(score, t << 2 | at, top, floor, ceil, best, n,
                                                 TS, TC)
    best = settle(n, floor, best, TS, TC, seed, p, N, WS)
    return -1 if suits_next else best
