"""The GEN lines' pieces that read tile sets, over words: house rules on sets of any size.

A set over 62 tiles keeps each hand and each set of tiles as a row of ``W`` words
(``jit_bits``), so the house-rule kernel (``jit_loop``'s ``GEN`` lines with ``WIDE``) calls
these where a narrow one reads int64 masks: the opening (``jit_opening.open_round``: the
same rule, its tiles as indexes), the settlement's tallies (``jit_settle.tallies``, whose
masks the narrow kernel keeps: one walk of both widths through ``jit_masks`` measured 5-13%
fewer rounds a second on house/all-fives), the uniform and greedy picks over four ends and
a fit rule's second ways (``jit_matching.uniform_pick``, ``jit_loop.greedy_ends``), the
placement restrictions (``jit_loop.allowed``; their sure tiles per end value as words).
Each is its narrow piece line for line, only each mask walked word by word in index
order, so a pick is the same tile. A fit rule's two-way masks (``jit_matching.tables``)
sit in ``CODE`` as ``W`` words per end value (``code_has``).
``tests/test_kernel_jit_gen_wide.py`` plays both engines and compares records and results.
"""

from __future__ import annotations

from .jit import njit
from .jit_bits import BITS, count, has, nonempty
from .jit_formula import FACT, run
from .jit_matching import FLIP
from .jit_support import low_index, popcount


@njit
def code_has(CODE, at: int, t: int) -> int:
    """1 when tile ``t`` is in the set of ``W`` words at ``CODE[at]``, else 0."""
    return (CODE[at + t // BITS] >> (t % BITS)) & 1


@njit
def code_meet(A, i: int, B, j: int, CODE, at: int) -> int:
    """``A[i] = B[j] & CODE[at:at + W]``; 1 when it holds a tile, else 0."""
    any_ = 0
    for w in range(A.shape[1]):
        x = B[j, w] & CODE[at + w]
        A[i, w] = x
        any_ |= x
    return 1 if any_ else 0


# what the opening's tiles and a seek's target are, past a tile's index: any tile (-1), the
# tiles ``allow`` accepts held (a row of ``M``), any double, those ``allow`` accepts
OPEN_ANY, OPEN_SET = -1, -3
SEEK_DOUBLE, SEEK_ALLOWED = -1, -2


@njit
def wanted(t: int, want: int, CODE, amask: int, TL, TH) -> int:
    """1 when tile ``t`` is what a seek draws to: the tile ``want``, any double
    (``SEEK_DOUBLE``) or a tile the opening condition accepts (``SEEK_ALLOWED``)."""
    if want >= 0:
        return 1 if t == want else 0
    if want == SEEK_ALLOWED:
        return code_has(CODE, amask, t)
    return 1 if TL[t] == TH[t] else 0


@njit
def side_goes_on(side: int, H, TEAMS) -> bool:
    """``jit_side_out.goes_on`` over words: whether the round goes on after a seat of
    ``side`` emptied its hand, some seat of that side still holding tiles."""
    for j in range(TEAMS.shape[1]):
        if nonempty(H, TEAMS[side, j]):
            return True
    return False


@njit
def tallies(H, N: int, VALUES, PIPS, TL, TH, drawn_by, TEAMS, individual: int,
            P, V, C, DB, Q, SP, SV, ST, SD, SQ) -> None:
    """``jit_settle.tallies`` over words: every seat's pips, value, tiles, drawn and
    doubles, and every side's sums."""
    for s in range(N):
        p = v = q = 0
        for w in range(H.shape[1]):
            x = H[s, w]
            while x:
                b = x & -x
                x ^= b
                t = w * BITS + low_index(b)
                p += PIPS[t]
                v += VALUES[t]
                if TL[t] == TH[t]:
                    q += 1
        P[s] = p
        V[s] = v
        C[s] = count(H, s)
        DB[s] = drawn_by[s]
        Q[s] = q
    if individual:
        for s in range(N):
            SP[s], SV[s], ST[s], SD[s], SQ[s] = P[s], V[s], C[s], DB[s], Q[s]
        return
    for i in range(TEAMS.shape[0]):
        SP[i] = SV[i] = ST[i] = SD[i] = SQ[i] = 0
        for s in TEAMS[i]:
            SP[i] += P[s]
            SV[i] += V[s]
            ST[i] += C[s]
            SD[i] += DB[s]
            SQ[i] += Q[s]


@njit
def options(M, rows, ne: int, FL) -> int:
    """How many placements the rows ``rows[:ne]`` of ``M`` offer (a tile an end, and its
    second way where ``FL`` is given: its rows ``rows[4:]``)."""
    n = 0
    for e in range(ne):
        n += count(M, rows[e])
        if FL:
            n += count(M, rows[4 + e])
    return n


@njit
def several_options(M, rows, ne: int, FL) -> int:
    """1 when the ends offer two placements or more (the choice points' count)."""
    n = 0
    for e in range(ne):
        for w in range(M.shape[1]):
            n += popcount(M[rows[e], w])
            if FL:
                n += popcount(M[rows[4 + e], w])
            if n > 1:
                return 1
    return 0


@njit
def kth_placement(M, rows, ne: int, FL, k: int) -> int:
    """The ``k``-th placement in the loop's canonical order (``kth_placement``: end by end,
    tile by tile in index order, a tile's first way before its second, ``FLIP``); -1 past
    the last (``jit_matching.uniform_pick``'s walk)."""
    for e in range(ne):
        m, f = rows[e], rows[4 + e]
        for w in range(M.shape[1]):
            x = M[m, w]
            while x:
                b = x & -x
                x ^= b
                if not k:
                    return (w * BITS + low_index(b)) << 2 | e
                k -= 1
                if FL and M[f, w] & b:
                    if not k:
                        return (w * BITS + low_index(b)) << 2 | e | FLIP
                    k -= 1
    return -1


@njit
def greedy_ends(M, rows, ne: int, word: int, VALUES, ties) -> int:
    """``jit_loop.greedy_ends`` over words: the most valuable tile over the open ends, ties
    broken by the seat's word in the canonical order; a tile fitting two ways goes its
    first way."""
    n = 0
    best = -(1 << 62)
    for end in range(ne):
        for w in range(M.shape[1]):
            x = M[rows[end], w]
            while x:
                b = x & -x
                x ^= b
                t = w * BITS + low_index(b)
                v = VALUES[t]
                if v > best:
                    best = v
                    n = 0
                if v == best:
                    ties[n] = t << 2 | end
                    n += 1
    return ties[(word * n) >> 32]


@njit
def any_fits(M, rows, ne: int) -> int:
    """1 when some open end takes a tile."""
    for e in range(ne):
        if nonempty(M, rows[e]):
            return 1
    return 0


@njit
def fits_both(PM, ends, ne: int, t: int) -> int:
    """1 when tile ``t`` fits two open ends or more (the loop's ``last_both``)."""
    n = 0
    for e in range(ne):
        n += has(PM, ends[e], t)
    return 1 if n > 1 else 0


_TILE, _END = FACT["tile"], FACT["end"]


@njit
def restrict(M, rows, ne: int, ends, CODE, at: int, sure: int, waive: int, F, TAB, TEAMS,
             sides: int, N: int, deck, stack) -> int:
    """The placement restrictions over words (``jit_loop``'s ``allowed_at`` lines): each open
    end's tiles ``M[rows[e]]`` kept when every restriction allows them there, the sure ones
    (``CODE[sure]``: ``W`` words per end value) without running the program at ``at``;
    with ``waive`` (if_none_allowed: waive) all kept when none is allowed. The rows
    ``rows[4:]`` are its scratch. Returns 1 when some end still takes a tile."""
    W = M.shape[1]
    kept = 0
    for e in range(ne):
        m, k, v = rows[e], rows[4 + e], ends[e]
        rest = 0
        for w in range(W):
            x = M[m, w] & CODE[sure + v * W + w]
            M[k, w] = x
            rest |= M[m, w] ^ x
        if rest:
            F[_END] = v
            for w in range(W):
                x = M[m, w] ^ M[k, w]
                while x:
                    b = x & -x
                    x ^= b
                    F[_TILE] = w * BITS + low_index(b)
                    if run(CODE, at, F, TAB, TEAMS, sides, N, deck, stack):
                        M[k, w] |= b
        kept |= nonempty(M, k)
    if kept or not waive:
        for e in range(ne):
            for w in range(W):
                M[rows[e], w] = M[rows[4 + e], w]
    return any_fits(M, rows, ne)
