"""The strategist on a shaped board in numba: ``bots.strategist``'s ``_shaped`` for the GEN lines.

On a ``board.layout`` board the strategist weighs each placement by the board it leaves
(``_weigh_shaped``): the value it sheds, ``W_PLAYABLE`` for each tile left in hand that
then has an end open to the seat, ``W_CLOSES`` when it closes the seat's marked train,
``W_UNANSWERED`` when it leaves a double the rest of the hand cannot cover; ties go to
the seat's word. Every weight is a multiple of a half, so the kernel counts in halves,
exactly. The board after the move is ``jit_layout``'s, laid on a copy (``AFTER``), as
``_weigh_shaped`` lays a copy of its ``Layout``; ``tests/test_kernel_jit_layout.py``
plays both engines and compares the matches.
"""

from __future__ import annotations

from .jit import njit
from .jit_layout import ANS, ANS_N, BOARD_SIZE, MARKED, VAL, place, place_open, playable
from .jit_masks import after, clear, copy, count_and, join, nonempty, shares, take
from .jit_strategist import tied

# the weights in halves (bots.strategist: W_PLAYABLE 0.5, W_CLOSES 10, W_UNANSWERED -10)
H_SHED, H_PLAYABLE, H_CLOSES, H_UNANSWERED = 2, 1, 20, -20


@njit
def _left(SH, AFTER, marked, p, R, ri, PM, PE2, t, VALUES, S, si):
    """``_weigh_shaped``'s score, in halves, of the board ``AFTER`` that laying ``t``
    left (``marked``: the seats whose marker was down before), ``R[ri]`` the hand after
    (sets as ``jit_masks`` names them; ``S[si]`` scratch)."""
    n = playable(SH, AFTER, p, PE2)
    clear(S, si)
    for k in range(n):
        join(S, si, PM, AFTER[VAL + PE2[k]])
    playable_n = count_and(R, ri, S, si)
    closes = 1 if (marked >> p) & 1 and not (AFTER[MARKED] >> p) & 1 else 0
    bare = 0
    if AFTER[ANS_N] and nonempty(R, ri) and not shares(R, ri, PM, AFTER[VAL + AFTER[ANS]]):
        bare = 1
    return (H_SHED * VALUES[t] + H_PLAYABLE * playable_n + H_CLOSES * closes
            + H_UNANSWERED * bare)


@njit
def _copy(LB, AFTER):
    for i in range(BOARD_SIZE):
        AFTER[i] = LB[i]


@njit
def choose_layout(p, FM, PE, ne, H, hi, SH, LB, AFTER, PE2, PM, TL, TH, VALUES, ties, seed,
                  N, WS, S):
    """The strategist's placement on a shaped board, coded ``t << 8 | k`` as
    ``jit_layout.pick`` codes it: the best weighed, ties (in the legal order: end by end,
    tile by tile) broken by the seat's word. ``H[hi]``: the hand; ``S``: two scratch
    sets (``jit_masks``)."""
    best = -(1 << 62)
    count = 0
    for k in range(ne):
        t = after(FM, k, -1)
        while t >= 0:
            _copy(LB, AFTER)
            place(SH, AFTER, t, TL[t], TH[t], PE[k], p)
            copy(S, 0, H, hi)
            take(S, 0, t)
            score = _left(SH, AFTER, LB[MARKED], p, S, 0, PM, PE2, t, VALUES, S, 1)
            if score > best:
                best = score
                count = 0
            if score == best:
                ties[count] = t << 8 | k
                count += 1
            t = after(FM, k, t)
    return tied(ties, count, seed, p, N, WS)


@njit
def open_layout(p, M, mi, H, hi, SH, AFTER, PE2, PM, TL, TH, VALUES, ties, seed, N, WS, S):
    """The strategist's opening tile on a shaped board (among ``M[mi]``, the hand
    ``H[hi]``), weighed as its placements are, on the board the tile opens: ``t << 2``,
    as the line's opening."""
    best = -(1 << 62)
    count = 0
    t = after(M, mi, -1)
    while t >= 0:
        for i in range(BOARD_SIZE):   # the round's empty board
            AFTER[i] = 0
        place_open(SH, AFTER, t, TL[t], TH[t], N)
        copy(S, 0, H, hi)
        take(S, 0, t)
        score = _left(SH, AFTER, 0, p, S, 0, PM, PE2, t, VALUES, S, 1)
        if score > best:
            best = score
            count = 0
        if score == best:
            ties[count] = t << 2
            count += 1
        t = after(M, mi, t)
    return tied(ties, count, seed, p, N, WS)
