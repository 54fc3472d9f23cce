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
from .jit_strategist import seat_word

# the weights in halves (bots.strategist: W_PLAYABLE 0.5, W_CLOSES 10, W_UNANSWERED -10)
H_SHED, H_PLAYABLE, H_CLOSES, H_UNANSWERED = 2, 1, 20, -20


@njit
def _left(SH, AFTER, marked, p, rest, PM, PE2, t, VALUES):
    """``_weigh_shaped``'s score, in halves, of the board ``AFTER`` that laying ``t``
    left (``marked``: the seats whose marker was down before), ``rest`` the hand after."""
    n = playable(SH, AFTER, p, PE2)
    fit = 0
    for k in range(n):
        fit |= PM[AFTER[VAL + PE2[k]]]
    kept = rest & fit
    playable_n = 0
    while kept:
        kept &= kept - 1
        playable_n += 1
    closes = 1 if (marked >> p) & 1 and not (AFTER[MARKED] >> p) & 1 else 0
    bare = 0
    if AFTER[ANS_N] and rest and not rest & PM[AFTER[VAL + AFTER[ANS]]]:
        bare = 1
    return (H_SHED * VALUES[t] + H_PLAYABLE * playable_n + H_CLOSES * closes
            + H_UNANSWERED * bare)


@njit
def _copy(LB, AFTER):
    for i in range(BOARD_SIZE):
        AFTER[i] = LB[i]


@njit
def choose_layout(p, FM, PE, ne, h, SH, LB, AFTER, PE2, PM, TL, TH, VALUES, ties, seed, N,
                  WS):
    """The strategist's placement on a shaped board, coded ``t << 8 | k`` as
    ``jit_layout.pick`` codes it: the best weighed, ties (in the legal order: end by end,
    tile by tile) broken by the seat's word."""
    best = -(1 << 62)
    count = 0
    for k in range(ne):
        m = FM[k]
        while m:
            b = m & -m
            m ^= b
            t = 0
            while (b >> t) != 1:
                t += 1
            _copy(LB, AFTER)
            place(SH, AFTER, t, TL[t], TH[t], PE[k], p)
            score = _left(SH, AFTER, LB[MARKED], p, h & ~b, PM, PE2, t, VALUES)
            if score > best:
                best = score
                count = 0
            if score == best:
                ties[count] = t << 8 | k
                count += 1
    if count == 1:
        return ties[0]
    return ties[(seat_word(seed, p, N, WS) * count) >> 32]


@njit
def open_layout(p, m, h, SH, AFTER, PE2, PM, TL, TH, VALUES, ties, seed, N, WS):
    """The strategist's opening tile on a shaped board (among ``m``), weighed as its
    placements are, on the board the tile opens: ``t << 2``, as the line's opening."""
    best = -(1 << 62)
    count = 0
    mm = m
    while mm:
        b = mm & -mm
        mm ^= b
        t = 0
        while (b >> t) != 1:
            t += 1
        for i in range(BOARD_SIZE):   # the round's empty board
            AFTER[i] = 0
        place_open(SH, AFTER, t, TL[t], TH[t], N)
        score = _left(SH, AFTER, 0, p, h & ~b, PM, PE2, t, VALUES)
        if score > best:
            best = score
            count = 0
        if score == best:
            ties[count] = t << 2
            count += 1
    if count == 1:
        return ties[0]
    return ties[(seat_word(seed, p, N, WS) * count) >> 32]
