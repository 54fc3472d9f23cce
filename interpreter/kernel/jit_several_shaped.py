"""Moves of several tiles (``play.several``) on a shaped board (``board.layout``) in numba.

``GeneralLoop._several_shaped`` is the rule's loop side: ``several.moves`` over a copy of
the ``Layout`` with the tiles before each laid. This module mirrors it on ``jit_layout``'s
board array, for ``move: chain`` (a run of tiles on one end, each on the one before: a
run on one's own train on a first turn), so the GEN lines offer the moves the general loop
offers, in its order, and each builtin bot picks among them as in the Python engine:

- ``chain``: every run of two to ``most`` tiles on one of the ends open to the seat when
  the move starts (``PE``, in ``Layout.playable``'s order), each tile fitting the end as
  the board then stands (a double to answer keeps the run on its end), allowed there by
  the placement restrictions on that board and the hand left (``jit_layout.allowed``, as
  ``_several_shaped.judged`` asks ``allowed_at``) and meeting ``tiles`` (its names:
  ``several.placement_env``, ``own_train`` the end's owner), in
  ``several.moves``' order (end by end, depth first); each move a row of ``MV`` of codes
  ``tile << 8 | k`` (``k`` the end's place in ``PE``), its tile count in ``MN``;
- ``alone``: ``_several_shaped``'s single placements that ``alone`` lets go down;
- ``pick``: the seat's choice among the single placements (``FM``, end by end) and the
  moves: ``RandomBot.choose`` (uniform, a pass at will last), ``GreedyBot.choose`` (the
  most shed) and ``StrategistBot._shaped`` (``strategist._weigh_shaped`` on the board the
  whole move leaves, in halves as ``jit_strategist_layout`` weighs a tile).

``jit_house.reason`` refuses the other kinds of move on a shaped board and a condition
reading ``ends`` there; ``tests/test_kernel_jit_chain.py`` holds each piece to the loop's.
"""

from __future__ import annotations

from .jit import njit
from .jit_formula import FACT
from .jit_layout import BOARD_SIZE, MARKED, OWN, VAL, allowed, place, playable
from .jit_masks import after, clear, copy, count, join, kth, meet, nonempty, put_fact, take
from .jit_several import _OWN_TRAIN, ALONE_AT, MOST, MOVE, TILES_AT, holds
from .jit_strategist import seat_word
from .jit_strategist_layout import H_SHED, _left

_CAND, _HAND, _PLAY = range(3)   # chain's scratch sets (SD): a block of rows each, a row a depth
# a condition's facts of the hand and the playable tiles (jit_masks.put_fact: over words,
# where in F their words are)
_HAND_FACT, _PLAYABLE = FACT["hand"], FACT["playable"]


@njit
def _copy(A, B):
    for i in range(BOARD_SIZE):
        B[i] = A[i]


@njit
def _steps(SH, B, p, i, HD, hdi, PM, SPE, C, ci, P, pi, R, CODE, F, TAB, TEAMS, sides, N,
           deck, stack, RM, RK):
    """Into ``C[ci]`` the tiles of the hand ``HD[hdi]`` that may go on end ``i`` of board
    ``B`` now (none when it is not open to seat ``p`` there), into ``P[pi]`` those that fit
    an end open to it (``playable``); sets as ``jit_masks`` names them. ``R``: the
    placement restrictions' program, the tiles they allow whatever else holds and
    ``if_none_allowed: waive`` (``R[0]`` -1: none), judged over every end open to the seat
    as ``jit_layout.allowed`` judges a turn's; ``RM``, ``RK``: its scratch (a set an end)."""
    n = playable(SH, B, p, SPE)
    clear(P, pi)
    here = -1
    for k in range(n):
        join(P, pi, PM, B[VAL + SPE[k]])
        if SPE[k] == i:
            here = k
    meet(P, pi, HD, hdi, P, pi)
    if here < 0:
        clear(C, ci)
    elif R[0] < 0:
        meet(C, ci, HD, hdi, PM, B[VAL + i])
    else:   # the restrictions read the hand left and what of it fits, on the board B
        for k in range(n):
            meet(RM, k, HD, hdi, PM, B[VAL + SPE[k]])
        put_fact(F, _HAND_FACT, 0, HD, hdi)
        put_fact(F, _PLAYABLE, 1, P, pi)
        allowed(RM, RK, SPE, n, B, R[2], CODE, R[0], R[1], F, TAB, TEAMS, sides, N, deck,
                stack, C, ci)
        copy(C, ci, RM, here)


@njit
def chain(p, H, hi, ne, PE, SH, LB, PM, TL, TH, CODE, SEV, R, F, TAB, TEAMS, sides, N, deck,
          stack, MV, MN, SLB, SPE, SD, TT, RM, RK):
    """``several.moves`` for ``move: chain`` on a shaped board (``_several_shaped``) for the
    hand ``H[hi]``: into ``MV`` and ``MN``; how many moves. ``R``: the placement
    restrictions (``_steps``); ``SLB``: a board a depth, ``SPE``, ``SD``, ``TT``, ``RM`` and
    ``RK`` scratch (the ends open; candidates, hands and playable tiles, ``most + 1`` sets
    each: ``jit_masks``; tiles laid; the restrictions' sets, an end each)."""
    most = CODE[SEV + MOST]
    at = CODE[SEV + TILES_AT]
    D = most + 1
    c0, h0, p0 = _CAND * D, _HAND * D, _PLAY * D
    n = 0
    for k in range(ne):
        i = PE[k]
        _copy(LB, SLB[0])
        F[_OWN_TRAIN] = 1 if LB[OWN + i] == p else 0   # (an end keeps its owner)
        d = 0
        copy(SD, h0, H, hi)
        _steps(SH, SLB[0], p, i, SD, h0, PM, SPE, SD, c0, SD, p0, R, CODE, F, TAB, TEAMS,
               sides, N, deck, stack, RM, RK)
        while d >= 0:
            t = after(SD, c0 + d, -1)
            if t < 0:
                d -= 1
                continue
            take(SD, c0 + d, t)
            v = SLB[d, VAL + i]
            if at >= 0 and not holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, t, v,
                                     put_fact(F, _HAND_FACT, 0, SD, h0 + d),
                                     put_fact(F, _PLAYABLE, 1, SD, p0 + d), 0, 0):
                continue
            TT[d] = t
            if d >= 1:   # a run of two or more: a move
                for j in range(d + 1):
                    MV[n, j] = TT[j] << 8 | k
                MN[n] = d + 1
                n += 1
            if d + 1 < most:   # the run goes on, on the board t leaves
                _copy(SLB[d], SLB[d + 1])
                place(SH, SLB[d + 1], t, TL[t], TH[t], i, p)
                d += 1
                copy(SD, h0 + d, SD, h0 + d - 1)
                take(SD, h0 + d, t)
                _steps(SH, SLB[d], p, i, SD, h0 + d, PM, SPE, SD, c0 + d, SD, p0 + d, R, CODE,
                       F, TAB, TEAMS, sides, N, deck, stack, RM, RK)
    return n


@njit
def alone(p, FM, PE, ne, H, hi, LB, PM, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack, FT,
          ft, S):
    """``_several_shaped``'s single placements that ``alone`` lets go down on their own,
    ``FM`` narrowed in place, the hand ``H[hi]``; the fitting tiles left into ``FT[ft]``;
    (whether any is left, whether more than one end takes some), as ``jit_layout.fits``
    returns them. ``S``: two scratch sets (``jit_masks``)."""
    at = CODE[SEV + ALONE_AT]
    clear(S, 0)
    for k in range(ne):
        join(S, 0, PM, LB[VAL + PE[k]])
    meet(S, 1, H, hi, S, 0)   # the hand's tiles that fit an end open to it
    ends = 0
    clear(FT, ft)
    for k in range(ne):
        if at >= 0:
            F[_OWN_TRAIN] = 1 if LB[OWN + PE[k]] == p else 0
            t = after(FM, k, -1)
            while t >= 0:
                if not holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, t,
                             LB[VAL + PE[k]], put_fact(F, _HAND_FACT, 0, H, hi),
                             put_fact(F, _PLAYABLE, 1, S, 1), 0, 0):
                    take(FM, k, t)
                t = after(FM, k, t)
        if nonempty(FM, k):
            join(FT, ft, FM, k)
            ends += 1
    return ends > 0, ends > 1


@njit
def _kth(FM, ne, k):
    """The k-th single placement (``kth_placement``, shift 8): end by end, tile by tile."""
    for e in range(ne):
        c = count(FM, e)
        if k < c:
            return kth(FM, e, k) << 8 | e
        k -= c
    return -1


@njit
def _weigh(code, MV, MN, p, H, hi, PE, SH, LB, AFTER, PE2, PM, TL, TH, VALUES, S):
    """``strategist._weigh_shaped`` in halves: the board the option leaves (a tile, or a
    move's tiles one after another), weighed as ``jit_strategist_layout`` weighs a tile,
    the shed term the move's tiles' sum."""
    _copy(LB, AFTER)
    copy(S, 0, H, hi)
    shed = 0
    count_ = MN[code - MOVE] if code >= MOVE else 1
    t = 0
    for j in range(count_):
        c = MV[code - MOVE, j] if code >= MOVE else code
        t = c >> 8
        place(SH, AFTER, t, TL[t], TH[t], PE[c & 255], p)
        take(S, 0, t)
        shed += VALUES[t]
    return (_left(SH, AFTER, LB[MARKED], p, S, 0, PM, PE2, t, VALUES, S, 1)
            + H_SHED * (shed - VALUES[t]))


@njit
def pick(kind, p, seed, N, WS, FM, PE, ne, nm, at_will, MV, MN, H, hi, SH, LB, AFTER, PE2,
         PM, TL, TH, VALUES, TIE, S):
    """Seat ``p``'s option (``kind``: 0 random, 1 greedy, 2 strategist) among the single
    placements of ``FM`` and the ``nm`` moves of ``MV``, listed in that order: a
    placement's code ``t << 8 | k``, ``MOVE + j`` for the j-th move, or -2 for a pass at
    will (random's last option). Random and greedy read one word of the seat's; the
    strategist one on a tie only (``StrategistBot._shaped``). ``H[hi]``: the hand; ``S``:
    two scratch sets (``jit_masks``)."""
    nfit = 0
    for e in range(ne):
        nfit += count(FM, e)
    total = nfit + nm
    if kind == 0:
        j = (seat_word(seed, p, N, WS) * (total + at_will)) >> 32
        if j == total:
            return -2
        return _kth(FM, ne, j) if j < nfit else MOVE + j - nfit
    count_ = 0
    best = -(1 << 62)
    for j in range(total):
        code = _kth(FM, ne, j) if j < nfit else MOVE + j - nfit
        if kind == 1:
            if code >= MOVE:
                v = 0
                for i in range(MN[code - MOVE]):
                    v += VALUES[MV[code - MOVE, i] >> 8]
            else:
                v = VALUES[code >> 8]
        else:
            v = _weigh(code, MV, MN, p, H, hi, PE, SH, LB, AFTER, PE2, PM, TL, TH, VALUES, S)
        if v > best:
            best = v
            count_ = 0
        if v == best:
            TIE[count_] = code
            count_ += 1
    if kind == 1 or count_ > 1:   # greedy reads a word always, the strategist on a tie
        return TIE[(seat_word(seed, p, N, WS) * count_) >> 32]
    return TIE[0]
