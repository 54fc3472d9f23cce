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
from .jit_bits import (
    BITS,
    count,
    count_and,
    count_and_or,
    has,
    kth,
    meets,
    nonempty,
    put,
    several,
)
from .jit_matching import FLIP
from .jit_strategist import BOARD, LACKS, LED, OPENED, TWICE, _tie, seat_word
from .jit_support import low_index, popcount


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
    o_suit, o_double, o_other = WO[0], WO[1], WO[2]
    top = floor = -1e300
    best = -1
    n = 0
    for w in range(M.shape[1]):
        x = M[mi, w]
        while x:
            b = x & -x
            x ^= b
            t = w * BITS + low_index(b)
            lo, hi = LOW[t], HIGH[t]
            c_lo, c_hi = count_and(H, p, VM, lo), count_and(H, p, VM, hi)
            if lo == hi:
                score = o_suit * c_hi + o_double + VALUE[t]
            elif c_hi >= c_lo:
                score = o_suit * c_hi + o_other * c_lo + VALUE[t]
            else:
                score = o_suit * c_lo + o_other * c_hi + VALUE[t]
            if score >= floor:
                if score > top + 1e-9:   # a clear best so far
                    n = 0
                else:
                    if n == 0:
                        TS[0], TC[0], n = top, best, 1
                    TS[n], TC[n] = score, t << 2
                    n += 1
                if score > top:
                    top, floor, best = score, score - 1e-9, t << 2
    if n:
        picked = _tie(n, floor, TS, TC, seed, p, N, WS)
        if picked >= 0:
            return picked
    return best


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
    VM, PIPS, DBL, SHED = S[0], S[1], S[2], S[3]
    OPPS, OPPW, PARTS, NEXT, NEXT_OPP, W = S[7], S[8], S[9], S[10], S[11], S[12]
    options2, control2, lock2, shutout2 = W[0], W[1], W[2], W[3]
    partner2, partner_lacks2, opp_suit2 = W[4], W[5], W[6]
    next_suits = 0
    if can_draw and not drawn and left >= 2 * N and NEXT_OPP[p] and held <= 5:
        q = NEXT[p]
        lk = K[LACKS, q]
        next_suits = (K[LED, q] | K[TWICE, q] | lk) ^ lk
    if lone >= 0 and not next_suits:
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
    opp = lks = 0
    for j in range(N):
        o = OPPS[p, j]
        if o < 0:
            break
        lk = K[LACKS, o]
        opp = (opp | K[LED, o] | K[TWICE, o] | lk) ^ lk
        lks |= lk
    suits = partner_lacks = 0
    partners = PARTS[p, 0] >= 0
    for j in range(N):
        q = PARTS[p, j]
        if q < 0:
            break
        lk = K[LACKS, q]
        suits = (suits | K[LED, q] | K[OPENED, q] | lk) ^ lk
        partner_lacks |= lk
    T = PIPS.shape[0]
    for w in range(U.shape[1]):   # others may hold these: neither held nor placed
        bits = min(BITS, T - w * BITS)
        U[0, w] = ((1 << bits) - 1) ^ (H[h, w] | K[BOARD, w])
    top = floor = ceil = -1e300
    best = -1
    n = 0
    for at in range(2):   # the left end's placements, then the right's; the other end stays
        if at == 0:
            m, end, keep = m0, e0, e1
        else:
            m, end, keep = m1, e1, e0
        ck = count_and(H, h, VM, keep)
        kbit = 1 << keep
        klock = not meets(VM, keep, U, 0)   # a kept value nobody else can hold
        mine = ck - 1 if end == keep else ck
        kept_half = control2 * (mine - 1) - options2 + (lock2 if mine and klock else 0)
        for wd in range(M.shape[1]):
            x = M[m, wd]
            while x:
                b = x & -x
                x ^= b
                t = wd * BITS + low_index(b)
                v = PIPS[t] - end
                both = count_and_or(H, h, VM, keep, VM, v)   # popcount(hand & (mk | vm))
                if v == keep:   # both ends will show it: the tile (end, keep)
                    half = (control2 * 2 + options2) * (ck - 1) + (
                        lock2 if ck > 1 and klock else 0)
                    values = kbit
                else:
                    c = count_and(H, h, VM, v)
                    half = kept_half + control2 * c + options2 * both
                    values = kbit | 1 << v
                    if c > 1 and not meets(VM, v, U, 0):
                        half += lock2
                for j in range(N):   # blocking each opponent known to lack a value shown
                    o = OPPS[p, j]
                    if o < 0:
                        break
                    lacked = values & K[LACKS, o]
                    if lacked:
                        half += OPPW[p, j] * popcount(lacked) + (
                            shutout2 if lacked == values else 0)
                half -= opp_suit2 * popcount(values & opp)
                if partners:
                    half += (partner2 * popcount(values & suits)
                             - partner_lacks2 * popcount(values & partner_lacks))
                if next_suits and (not next_suits >> v & 1 or values & lks or both > 1):
                    next_suits = 0   # a placement a draw cannot beat
                score = (half + DBL[t]) * 0.5 + SHED[risk, t]
                code = t << 2 | at
                if score > ceil:   # a clear best so far
                    top, floor, ceil, best = score, score - 1e-9, score + 1e-9, code
                    n = 0
                elif score >= floor:   # a tie (within 1e-9) with the best so far
                    if n == 0:
                        TS[0], TC[0], n = top, best, 1
                    TS[n], TC[n] = score, code
                    n += 1
                    if score > top:
                        top, floor, ceil, best = score, score - 1e-9, score + 1e-9, code
    if n:
        picked = _tie(n, floor, TS, TC, seed, p, N, WS)
        if picked >= 0:
            best = picked
    return -1 if next_suits else best


@njit
def choose_arms(p: int, M, rows, ne: int, can_draw: bool, H, h: int, ends, left: int,
                drawn: int, K, S, TS, TC, seed: int, N: int, WS, U) -> int:
    """``jit_strategist_arms.choose_arms`` over words (the GEN lines on a set over 62
    tiles): seat ``p``'s placement on a spinner's ends or under a fit rule, as
    ``tile << 2 | end`` (``FLIP``: a tile's second way), or -1 for a draw. ``M[rows[e]]``
    the tiles fitting end ``e`` (the first ``ne`` open), ``M[rows[4 + e]]`` filled here
    with those fitting it two ways, ``ends`` the ends' values, ``H[h]`` the hand, ``U``
    two scratch rows (the tiles others may hold; the values shown's tiles)."""
    TWO, LEAVE = S[14], S[15]
    fit = LEAVE.shape[0] > 0
    n = 0
    for e in range(ne):
        f = rows[4 + e]
        for w in range(M.shape[1]):
            M[f, w] = M[rows[e], w] & TWO[ends[e], w] if fit else 0
        n += count(M, rows[e]) + count(M, f)
    held = count(H, h)
    if n == 1 and (not can_draw or held > 5 or drawn or left < 2 * N):
        return _kth_arms(M, rows, ne, 0)   # one, and no draw it would want
    if not several(H, h):   # the last tile: every placement wins alike, no draw
        if n == 1:
            return _kth_arms(M, rows, ne, 0)
        return _kth_arms(M, rows, ne, (seat_word(seed, p, N, WS) * n) >> 32)
    VM, PIPS, DBL, SHED = S[0], S[1], S[2], S[3]
    OPPS, OPPW, PARTS, NEXT, NEXT_OPP, W = S[7], S[8], S[9], S[10], S[11], S[12]
    options2, control2, lock2, shutout2 = W[0], W[1], W[2], W[3]
    partner2, partner_lacks2, opp_suit2 = W[4], W[5], W[6]
    risk = 2 if left <= 0 else (1 if left <= N else 0)
    next_suits = 0
    if can_draw and not drawn and left >= 2 * N and NEXT_OPP[p] and held <= 5:
        q = NEXT[p]
        lk = K[LACKS, q]
        next_suits = (K[LED, q] | K[TWICE, q] | lk) ^ lk
    wants_draw = next_suits != 0
    opp = 0
    for j in range(N):
        o = OPPS[p, j]
        if o < 0:
            break
        lk = K[LACKS, o]
        opp = (opp | K[LED, o] | K[TWICE, o] | lk) ^ lk
    suits = partner_lacks = 0
    partners = PARTS[p, 0] >= 0
    for j in range(N):
        q = PARTS[p, j]
        if q < 0:
            break
        lk = K[LACKS, q]
        suits = (suits | K[LED, q] | K[OPENED, q] | lk) ^ lk
        partner_lacks |= lk
    T = PIPS.shape[0]
    for w in range(U.shape[1]):   # others may hold these: neither mine nor placed
        bits = min(BITS, T - w * BITS)
        U[0, w] = ((1 << bits) - 1) ^ (H[h, w] | K[BOARD, w])
    top = floor = ceil = -1e300
    best = -1
    k = 0
    for at in range(ne):
        m, two, e_at = rows[at], rows[4 + at], ends[at]
        for wd in range(M.shape[1]):
            x = M[m, wd]
            while x:
                b = x & -x
                x ^= b
                t = wd * BITS + low_index(b)
                for way in range(2 if M[two, wd] & b else 1):   # a second way: FLIP
                    v = LEAVE[way, e_at, t] if fit else PIPS[t] - e_at
                    values = locked = kept = 0
                    for w in range(U.shape[1]):
                        U[1, w] = 0
                    for i in range(ne):
                        e = v if i == at else ends[i]
                        c = count_and(H, h, VM, e)
                        mine = c - has(VM, e, t)
                        kept += mine
                        bit = 1 << e
                        if not values & bit:
                            values |= bit
                            for w in range(U.shape[1]):
                                U[1, w] |= VM[e, w]
                            if mine and not meets(VM, e, U, 0):
                                locked += 1
                    # my other tiles meeting an end
                    options = count_and(H, h, U, 1) - has(U, 1, t)
                    half = options2 * options + control2 * kept + lock2 * locked + DBL[t]
                    block = 0
                    for j in range(N):   # blocking each opponent known to lack a value shown
                        o = OPPS[p, j]
                        if o < 0:
                            break
                        lacked = values & K[LACKS, o]
                        if lacked:
                            block += OPPW[p, j] * popcount(lacked)
                            if lacked == values:
                                block += shutout2
                    if wants_draw and (options or block or not next_suits >> v & 1):
                        wants_draw = False   # a placement a draw cannot beat
                    half += block - opp_suit2 * popcount(values & opp)
                    if partners:
                        half += (partner2 * popcount(values & suits)
                                 - partner_lacks2 * popcount(values & partner_lacks))
                    score = half * 0.5 + SHED[risk, t]
                    code = t << 2 | at | (FLIP if way else 0)
                    if score > ceil:   # a clear best so far
                        top, floor, ceil, best = score, score - 1e-9, score + 1e-9, code
                        k = 0
                    elif score >= floor:   # a tie (within 1e-9) with the best so far
                        if k == 0:
                            TS[0], TC[0], k = top, best, 1
                        TS[k], TC[k] = score, code
                        k += 1
                        if score > top:
                            top, floor, ceil, best = score, score - 1e-9, score + 1e-9, code
    if k:
        picked = _tie(k, floor, TS, TC, seed, p, N, WS)
        if picked >= 0:
            best = picked
    return -1 if wants_draw else best


@njit
def _kth_arms(M, rows, ne: int, k: int) -> int:
    """``jit_strategist_arms._kth`` over words: the ``k``-th placement in legal order (end
    by end, lowest tile first, a tile's second way, ``FLIP``, next)."""
    for end in range(ne):
        m, f = rows[end], rows[4 + end]
        for w in range(M.shape[1]):
            x = M[m, w]
            while x:
                b = x & -x
                x ^= b
                if not k:
                    return (w * BITS + low_index(b)) << 2 | end
                k -= 1
                if M[f, w] & b:
                    if not k:
                        return (w * BITS + low_index(b)) << 2 | end | FLIP
                    k -= 1
    return -1
