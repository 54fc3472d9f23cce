"""The general opening in numba: ``GeneralLoop._open`` for the JIT kernel.

A round's opening rule arrives as numbers (``jit_house.opening_params``): the required
tile (an index, ``ANY`` or ``HIGHEST_DOUBLE``), whether its holder opens, what happens
when it is unheld or the leader lacks an allowed tile, and ``allow`` as the mask of the
tiles it accepts (``kernel.opening.mask_of``; -1: no ``allow``). The loop's method stays
the truth; ``tests/test_kernel_jit_house.py`` plays both and compares.
"""

from __future__ import annotations

from .jit import njit
from .jit_masks import has
from .jit_support import seat_after
from .jit_template import LEAD_CODES

ANY, HIGHEST_DOUBLE = -1, -2                          # the required tile, as a code
UNHELD_REDEAL, UNHELD_DRAW_IN_TURN, UNHELD_HEAVIEST = 0, 1, 2
LACKING_REDEAL, LACKING_DRAW, LACKING_PASS_ON = 0, 1, 2
# a seek: nobody draws, players draw in turn, the leader draws alone, the leader draws
# the boneyard out in vain (the deal is thrown in)
SEEK_NONE, SEEK_TURNS, SEEK_LEADER, SEEK_OUT = 0, 1, 2, 3


@njit(refcounts=False)   # (every round: jit.njit)
def holder(hands, N, tile):
    """The first seat whose hand holds ``tile``, or -1; the hands int64 masks or rows of
    words (``jit_masks``), so every kernel's lead and opening ask this one piece."""
    for s in range(N):
        if has(hands, s, tile):
            return s
    return -1


@njit(refcounts=False)   # (every round: jit.njit)
def heaviest(hands, N, HEAVY):
    """(seat, tile) of the heaviest tile dealt (``general_loop.heaviest_dealt``): ``HEAVY``
    lists the tiles heaviest first, the first seat holding one opens with it; the hands
    int64 masks or rows of words (``jit_masks``: a narrow kernel and a wide one alike)."""
    for t in HEAVY:
        for s in range(N):
            if has(hands, s, t):
                return s, t
    return -1, -1


@njit(refcounts=False)   # (every round: jit.njit)
def in_boneyard(deck, DEALT, DRAW_END, mask):
    for i in range(DEALT, DRAW_END):
        if (mask >> deck[i]) & 1:
            return True
    return False


@njit(refcounts=False)   # (every round: jit.njit)
def highest_double(hands, N, DOUBLES_DESC):
    """(seat, tile) of the highest double dealt, or (-1, -1) (any width, as ``holder``)."""
    for d in DOUBLES_DESC:
        s = holder(hands, N, d)
        if s >= 0:
            return s, d
    return -1, -1


LEAD_HIGHEST_DOUBLE = LEAD_CODES["highest_double"]   # a lead chooser, as its code


@njit(refcounts=False)   # (every round: jit.njit)
def lead_holder(choice, tile, hands, N, DOUBLES_DESC):
    """The leader a deal names when no rule chose one before it (``GeneralLoop.run``): the
    holder of the highest double dealt (``choice`` highest_double), else of the opening
    ``tile`` (below 0: the highest double dealt, or the set's highest when none is); -1
    when nobody holds it."""
    if choice == LEAD_HIGHEST_DOUBLE:
        return highest_double(hands, N, DOUBLES_DESC)[0]
    if tile < 0:
        tile = highest_double(hands, N, DOUBLES_DESC)[1]
        if tile < 0:
            tile = DOUBLES_DESC[0]
    return holder(hands, N, tile)


@njit(refcounts=False)   # (every round: jit.njit)
def tile_opening(tile, by_holder, draw_in_turn, hands, leader, deck, DEALT, DRAW_END, N,
                 DOUBLES_DESC, TL, TH):
    """(opener or -1 for a redeal, opening tile (-1: any), seek) of the plain game's opening
    (``engine.general_loop.tile_opening``), any width: ``tile`` an index, ``ANY`` or
    ``HIGHEST_DOUBLE``; seek 1 when the players draw in turn from the leader to that tile
    (-1: any double)."""
    if tile == ANY:
        return leader, -1, 0
    if tile == HIGHEST_DOUBLE:
        seat, tile = highest_double(hands, N, DOUBLES_DESC)
    else:
        seat = holder(hands, N, tile)
    if seat >= 0 and (by_holder or seat == leader):
        return seat, tile, 0
    if draw_in_turn and seat < 0:
        for i in range(DEALT, DRAW_END):
            d = deck[i]
            if d == tile if tile >= 0 else TL[d] == TH[d]:
                return leader, tile, 1
    return -1, -1, 0


@njit(refcounts=False)   # (every round: jit.njit)
def open_round(tile, by_holder, unheld, lacking, amask, hands, leader, deck, DEALT,
               DRAW_END, N, DOUBLES_DESC, DOUBLES_MASK, HEAVY, right):
    """(opener or -1 for a redeal, opening mask (-1: any tile), free, seek, seek mask) of a
    round under ``leader``: ``free`` when the opener chooses among its allowed tiles (and
    may draw first); ``right``: a lacking leader passes the opening on to the right."""
    if tile == ANY:
        if amask == -1:
            return leader, -1, 1, SEEK_NONE, 0
        allowed = hands[leader] & amask
        if allowed:
            return leader, allowed, 1, SEEK_NONE, 0
        if lacking == LACKING_PASS_ON:
            s = seat_after(leader, N, right)
            while s != leader:
                allowed = hands[s] & amask
                if allowed:
                    return s, allowed, 1, SEEK_NONE, 0
                s = seat_after(s, N, right)
        elif lacking == LACKING_DRAW:
            if DEALT < DRAW_END:
                if unheld == UNHELD_HEAVIEST or in_boneyard(deck, DEALT, DRAW_END, amask):
                    return leader, 0, 0, SEEK_LEADER, amask
                return -1, 0, 0, SEEK_OUT, 0
        else:
            return -1, 0, 0, SEEK_NONE, 0
        # nobody holds, or can draw, an allowed tile
        if unheld == UNHELD_HEAVIEST:
            seat, t = heaviest(hands, N, HEAVY)
            return seat, 1 << t, 0, SEEK_NONE, 0
        if unheld == UNHELD_DRAW_IN_TURN and in_boneyard(deck, DEALT, DRAW_END, amask):
            return leader, 0, 0, SEEK_TURNS, amask
        return -1, 0, 0, SEEK_NONE, 0
    if tile == HIGHEST_DOUBLE:
        seat, t = highest_double(hands, N, DOUBLES_DESC)
    else:
        t = tile
        seat = holder(hands, N, t)
    if seat >= 0 and (by_holder or seat == leader):
        return seat, 1 << t, 0, SEEK_NONE, 0
    if unheld == UNHELD_HEAVIEST and seat < 0:
        seat, t = heaviest(hands, N, HEAVY)
        return seat, 1 << t, 0, SEEK_NONE, 0
    if unheld == UNHELD_DRAW_IN_TURN and seat < 0:
        seek = (1 << t) if t >= 0 else DOUBLES_MASK
        if in_boneyard(deck, DEALT, DRAW_END, seek):
            return leader, 0, 0, SEEK_TURNS, seek
    return -1, 0, 0, SEEK_NONE, 0
