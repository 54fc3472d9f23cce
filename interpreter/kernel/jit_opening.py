"""The general opening in numba: ``GeneralLoop._open`` for the JIT kernel.

A round's opening rule arrives as numbers (``jit_house.opening_params``): the required
tile (an index, ``ANY`` or ``HIGHEST_DOUBLE``), whether its holder opens, what happens
when it is unheld or the leader lacks an allowed tile, and ``allow`` as the mask of the
tiles it accepts (``kernel.opening.mask_of``; -1: no ``allow``). A set over 62 tiles keeps
the hands as rows of words, read through ``jit_masks``, and ``allow``'s tiles as words in
``CODE`` (``jit_gen_wide``): the same pieces play both widths. The loop's method stays the
truth; ``tests/test_kernel_jit_house.py`` and ``_gen_wide.py`` play both and compare.
"""

from __future__ import annotations

from .jit import njit
from .jit_gen_wide import OPEN_ANY, OPEN_SET, SEEK_ALLOWED, SEEK_DOUBLE, code_meet, wanted
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
def _allowed(hands, s, amask, CODE, M, row):
    """The opening's tiles when seat ``s`` holds some that ``allow`` accepts, else 0: a
    narrow kernel's mask; over words ``OPEN_SET``, the tiles written to ``M[row]``."""
    if hands.ndim == 1:
        return hands[s] & amask
    return OPEN_SET if code_meet(M, row, hands, s, CODE, amask) else 0


@njit(refcounts=False)   # (every round: jit.njit)
def tile_alone(hands, t):
    """The opening's tile ``t`` alone: a narrow kernel's mask, a wide one's index."""
    if hands.ndim == 1:
        return 1 << t
    return t


@njit(refcounts=False)   # (every round: jit.njit)
def _seek_to(hands, t, amask, DOUBLES_MASK):
    """What a seek draws to: tile ``t``, any double (``t`` -1) or, ``t`` -2, a tile ``allow``
    accepts; a narrow kernel's as a mask, a wide one's as ``jit_gen_wide.wanted`` reads."""
    if hands.ndim == 1:
        return (1 << t) if t >= 0 else DOUBLES_MASK if t == -1 else amask
    return t if t >= 0 else SEEK_DOUBLE if t == -1 else SEEK_ALLOWED


@njit(refcounts=False)   # (every round: jit.njit)
def in_boneyard(hands, deck, DEALT, DRAW_END, want, CODE, amask, TL, TH):
    """Whether the boneyard holds what a seek would draw to (``_seek_to``'s ``want``)."""
    for i in range(DEALT, DRAW_END):
        if hands.ndim == 1:
            if (want >> deck[i]) & 1:
                return True
        elif wanted(deck[i], want, CODE, amask, TL, TH):
            return True
    return False


@njit(refcounts=False)   # (every round: jit.njit)
def open_round(tile, by_holder, unheld, lacking, amask, hands, leader, deck, DEALT,
               DRAW_END, N, DOUBLES_DESC, DOUBLES_MASK, HEAVY, TL, TH, right, CODE, M, row):
    """(opener or -1 for a redeal, the opening, free, seek, what a seek draws to) of a
    round under ``leader``: ``free`` when the opener chooses among its allowed tiles (and
    may draw first); ``right``: a lacking leader passes the opening on to the right. The
    hands int64 masks (the opening a mask, -1: any tile; ``amask`` the tiles ``allow``
    accepts, -1: no ``allow``; a seek's target a mask) or rows of words (``jit_masks``: the
    opening a tile, ``OPEN_ANY`` or ``OPEN_SET``, the tiles allowed in ``M[row]``;
    ``amask`` where ``allow``'s ``W`` words start in ``CODE``; a seek's target a tile,
    ``SEEK_DOUBLE`` or ``SEEK_ALLOWED``)."""
    if tile == ANY:
        if amask == -1:
            return leader, OPEN_ANY, 1, SEEK_NONE, 0
        got = _allowed(hands, leader, amask, CODE, M, row)
        if got:
            return leader, got, 1, SEEK_NONE, 0
        if lacking == LACKING_PASS_ON:
            s = seat_after(leader, N, right)
            while s != leader:
                got = _allowed(hands, s, amask, CODE, M, row)
                if got:
                    return s, got, 1, SEEK_NONE, 0
                s = seat_after(s, N, right)
        elif lacking == LACKING_DRAW:
            if DEALT < DRAW_END:
                want = _seek_to(hands, -2, amask, DOUBLES_MASK)
                if unheld == UNHELD_HEAVIEST or in_boneyard(hands, deck, DEALT, DRAW_END, want,
                                                            CODE, amask, TL, TH):
                    return leader, 0, 0, SEEK_LEADER, want
                return -1, 0, 0, SEEK_OUT, 0
        else:
            return -1, 0, 0, SEEK_NONE, 0
        # nobody holds, or can draw, an allowed tile
        if unheld == UNHELD_HEAVIEST:
            seat, t = heaviest(hands, N, HEAVY)
            return seat, tile_alone(hands, t), 0, SEEK_NONE, 0
        want = _seek_to(hands, -2, amask, DOUBLES_MASK)
        if unheld == UNHELD_DRAW_IN_TURN and in_boneyard(hands, deck, DEALT, DRAW_END, want,
                                                         CODE, amask, TL, TH):
            return leader, 0, 0, SEEK_TURNS, want
        return -1, 0, 0, SEEK_NONE, 0
    if tile == HIGHEST_DOUBLE:
        seat, t = highest_double(hands, N, DOUBLES_DESC)
    else:
        t = tile
        seat = holder(hands, N, t)
    if seat >= 0 and (by_holder or seat == leader):
        return seat, tile_alone(hands, t), 0, SEEK_NONE, 0
    if unheld == UNHELD_HEAVIEST and seat < 0:
        seat, t = heaviest(hands, N, HEAVY)
        return seat, tile_alone(hands, t), 0, SEEK_NONE, 0
    if unheld == UNHELD_DRAW_IN_TURN and seat < 0:
        want = _seek_to(hands, t, amask, DOUBLES_MASK)
        if in_boneyard(hands, deck, DEALT, DRAW_END, want, CODE, amask, TL, TH):
            return leader, 0, 0, SEEK_TURNS, want
    return -1, 0, 0, SEEK_NONE, 0
