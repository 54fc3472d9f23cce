"""Moves of several tiles (``play.several``) beyond a plain line, in numba, for the JIT's
GEN lines: on a spinner (up to four ends, its arms opening mid-move), under a fit rule
(``matching``: a tile fitting an end either way round is two placements), with placement
restrictions (each part judged in the position the tiles before it leave) and with two
sets (``set.copies``: a move by the same tiles' other copies listed once).

``engine.mechanisms.several`` is the rule and ``GeneralLoop._several`` its reading on
the loop's board; this module mirrors them on the kernel's numbers (the ends ``L, R, U,
D``, ``NE`` of them open, the spinner's ``need`` and value: ``jit_board``), as
``jit_several`` does on a line's two ends:

- ``moves``: ``several.line_moves`` for every kind of move (one tile on each end, in end
  order; ``chain``; ``after_double``; ``whole_hand``), a depth-first search over the
  ends open when the move starts, each part's tiles those the fit and the restrictions
  allow where it goes (``general_loop.allowed_at``, ``if_none_allowed: waive`` too) that
  meet ``tiles``; a tile fitting two ways there gives its first way, then its second
  (``FLIP``), as ``line_moves``' ``two`` does. With two sets, each part's tiles are the
  first copies of those it may take (``jit_copies.canonical``): the first of the moves
  ``several.distinct`` keeps is the one taking the lowest copy left at each part, so the
  moves are the loop's, in its order;
- ``alone``: ``several.alone_masks`` on every open end;
- ``pick``: the seat's choice among the single placements (end by end, a tile's second
  way after its first) and the moves, as ``RandomBot.choose`` (uniform, a pass at will
  last), ``GreedyBot.choose`` (the most shed; a single placement its first way only)
  and ``StrategistBot._several`` (``strategist._weigh_line``: the ends the move leaves,
  a spinner's arms it would open left out) take it.

A ruleset on a plain line keeps ``jit_several``'s searches (the GEN lines ask this
module only under a spinner, a fit rule, restrictions or two sets);
``tests/test_kernel_jit_several_arms.py`` holds each piece to the loop's.
"""

from __future__ import annotations

from .jit import njit
from .jit_board import spin_place
from .jit_copies import canonical
from .jit_formula import FACT, run
from .jit_matching import FLIP, kth_placement, left_open
from .jit_several import (
    AFTER_DOUBLE,
    ALONE_AT,
    CHAIN,
    EACH_END,
    KIND,
    MOST,
    MOVE,
    TILES_AT,
    W_DOMINO2,
    W_PLAYABLE2,
    WHOLE_HAND,
    dead_at,
    holds,
    search,
)
from .jit_strategist import seat_word
from .jit_support import low_index, popcount

# the search's scratch rows (SD), a column a depth: the hand, the four end values, how
# many are open, the spinner's need and value, the end being tried and the ends the
# depth may take (k0..k1), a mask the tiles must be in (the first part of after_double:
# a double), the tiles still to try at the end, those of them fitting two ways, a tile
# whose second way is next (its index + 1), the placement chosen, the tiles fitting an
# open end, and per end the tiles allowed (_A) and, with restrictions, those kept (_B)
_HAND, _V, _CNT, _NEED, _SVAL, _K, _KEND, _ONLY, _CAND, _TWO, _PEND, _CODE, _PLAY = (
    0, 1, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
_A, _B = 16, 20
ROWS = 24   # (jit_several.SCRATCH is at least this)
_TILE, _END, _HAND_F, _PLAYABLE = FACT["tile"], FACT["end"], FACT["hand"], FACT["playable"]


@njit
def _restricted(m, v, CODE, RES, RSURE, F, TAB, TEAMS, sides, N, deck, stack):
    """The tiles of ``m`` the placement restrictions allow on an end showing ``v``
    (``general_loop.allowed_at``): those allowed whatever else holds (``R_SURE``), and
    the others by their program; F's hand and playable tiles already set."""
    keep = m & CODE[RSURE + v]
    m ^= keep
    F[_END] = v
    while m:
        b = m & -m
        m ^= b
        F[_TILE] = low_index(b)
        if run(CODE, RES, F, TAB, TEAMS, sides, N, deck, stack):
            keep |= b
    return keep


@njit
def _open(SD, d, k0, k1, only, PM, CODE, RES, RSURE, WAIVE, F, TAB, TEAMS, sides, N, deck,
          stack):
    """Depth ``d`` opens on the position its hand, ends, count and spinner rows hold: the
    tiles each end allows (the fit, the restrictions as ``allowed_at`` narrows them, all
    again under ``waive`` when none is), to be tried on the ends ``k0`` to ``k1 - 1``."""
    hd = SD[_HAND, d]
    cnt = SD[_CNT, d]
    play = 0
    for e in range(cnt):
        f = hd & PM[SD[_V + e, d]]
        SD[_A + e, d] = f
        play |= f
    SD[_PLAY, d] = play
    if RES >= 0 and play:
        F[_HAND_F], F[_PLAYABLE] = hd, play
        got = 0
        for e in range(cnt):
            k = _restricted(SD[_A + e, d], SD[_V + e, d], CODE, RES, RSURE, F, TAB, TEAMS,
                            sides, N, deck, stack)
            SD[_B + e, d] = k
            got |= k
        if got or not WAIVE:
            for e in range(cnt):
                SD[_A + e, d] = SD[_B + e, d]
    SD[_K, d], SD[_KEND, d], SD[_ONLY, d] = k0 - 1, k1, only
    SD[_CAND, d] = SD[_TWO, d] = SD[_PEND, d] = 0


@njit
def _next(SD, d, at, FIT, FIT_AT, SECONDS, CODE, F, TAB, TEAMS, sides, N, deck, stack):
    """The next placement of depth ``d`` (``tile << 2 | end``, ``FLIP`` for a tile's second
    way), -1 when none is left: end by end, tile by tile, those meeting ``tiles`` (its
    program at ``at``; -1: none), a tile's second way right after its first."""
    while True:
        pend = SD[_PEND, d]
        if pend:
            SD[_PEND, d] = 0
            return (pend - 1) << 2 | SD[_K, d] | FLIP
        m = SD[_CAND, d]
        if not m:
            k = SD[_K, d] + 1
            if k >= SD[_KEND, d]:
                return -1
            SD[_K, d] = k
            m = SD[_A + k, d] & SD[_ONLY, d]
            if SECONDS:   # one copy of a tile held twice, the first left
                m = canonical(m, SECONDS)
            SD[_CAND, d] = m
            SD[_TWO, d] = m & CODE[FIT_AT + SD[_V + k, d]] if FIT else 0
            continue
        b = m & -m
        SD[_CAND, d] = m ^ b
        t = low_index(b)
        k = SD[_K, d]
        if at >= 0 and not holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, t,
                                 SD[_V + k, d], SD[_HAND, d], SD[_PLAY, d], SD[_V, d],
                                 SD[_V + 1, d]):
            continue
        if SD[_TWO, d] & b:
            SD[_PEND, d] = t + 1
        return t << 2 | k


@njit
def _lay(SD, d, c, PIPS, TL, TH, CODE, FIT, FIT_AT, VN, T, SPIN):
    """Depth ``d + 1``'s position: depth ``d``'s once placement ``c`` lies (``Board.place``:
    the number it leaves open, by the fit rule's tables if any; a spinner's side played
    on, its arms opening once both are)."""
    t = (c & (FLIP - 1)) >> 2
    e = c & 3
    for i in range(4):
        SD[_V + i, d + 1] = SD[_V + i, d]
    v = SD[_V + e, d]
    SD[_V + e, d + 1] = (left_open(CODE, FIT_AT, VN, T, v, t, 1 if c & FLIP else 0) if FIT
                         else PIPS[t] - v)
    need, sval, cnt = SD[_NEED, d], SD[_SVAL, d], SD[_CNT, d]
    double = TL[t] == TH[t]
    if SPIN and (need > 0 or (need < 0 and double)):
        need, sval, opened = spin_place(need, sval, e, TL[t], double)
        if opened:   # both sides played on: the arms open
            SD[_V + 2, d + 1] = SD[_V + 3, d + 1] = sval
            cnt = 4
    SD[_HAND, d + 1] = SD[_HAND, d] ^ (1 << t)
    SD[_CNT, d + 1], SD[_NEED, d + 1], SD[_SVAL, d + 1] = cnt, need, sval


@njit
def _dead(DT, SD, d, gen, put):
    """Whether depth ``d``'s position (its hand, ends, count, spinner) is known dead in
    search ``gen`` (``jit_several.dead_at``, its ends packed in one number); with ``put``,
    it is from now on (while the table has room)."""
    key = (SD[_V, d] | SD[_V + 1, d] << 8 | SD[_V + 2, d] << 16 | SD[_V + 3, d] << 24
           | SD[_CNT, d] << 32 | (SD[_NEED, d] + 1) << 36)
    return dead_at(DT, SD[_HAND], d, key, gen, put)


@njit
def moves(h, L, R, U, D, NE, need, sval, PM, PIPS, TL, TH, CODE, SEV, RES, RSURE, WAIVE,
          FIT, FIT_AT, VN, T, SPIN, SECONDS, F, TAB, TEAMS, sides, N, deck, stack, MV, MN,
          SD, DT, DOUBLES):
    """``several.line_moves`` on the ``NE`` ends open (``L, R, U, D``; the spinner's
    ``need`` and value), of the kind the rule names: row k of ``MV`` the k-th move's codes
    (``tile << 2 | end``, ``FLIP`` a tile's second way), ``MN[k]`` its tile count; how
    many. ``RES``: the restrictions' program (-1: none), ``RSURE`` their sure tiles,
    ``WAIVE`` if_none_allowed: waive; ``FIT``: a fit rule, its tables at ``FIT_AT``;
    ``SECONDS``: two sets' second copies; ``SD``, ``DT``: scratch; ``DOUBLES``: the set's
    doubles, a mask."""
    kind = CODE[SEV + KIND]
    most = CODE[SEV + MOST]
    at = CODE[SEV + TILES_AT]
    whole = kind == WHOLE_HAND
    size = popcount(h)
    gen = 0
    if whole:   # the whole hand, one move: its first order found
        if size < 2:
            return 0
        most = size
        gen = search(DT)
    elif most < 2:
        return 0
    SD[_V, 0], SD[_V + 1, 0], SD[_V + 2, 0], SD[_V + 3, 0] = L, R, U, D
    SD[_HAND, 0], SD[_CNT, 0], SD[_NEED, 0], SD[_SVAL, 0] = h, NE, need, sval
    _open(SD, 0, 0, NE, DOUBLES if kind == AFTER_DOUBLE else -1, PM, CODE, RES, RSURE,
          WAIVE, F, TAB, TEAMS, sides, N, deck, stack)
    n = 0
    d = 0
    while d >= 0:
        c = _next(SD, d, at, FIT, FIT_AT, SECONDS, CODE, F, TAB, TEAMS, sides, N, deck,
                  stack)
        if c < 0:
            if whole:   # every order from here fails: dead
                _dead(DT, SD, d, gen, True)
            d -= 1
            continue
        SD[_CODE, d] = c
        if whole:
            if d + 1 == size:   # the hand is out: the move
                for i in range(size):
                    MV[0, i] = SD[_CODE, i]
                MN[0] = size
                return 1
        elif d >= 1:   # two tiles or more: a move
            for i in range(d + 1):
                MV[n, i] = SD[_CODE, i]
            MN[n] = d + 1
            n += 1
        if d + 1 >= most:
            continue
        t = (c & (FLIP - 1)) >> 2
        if kind == AFTER_DOUBLE and TL[t] != TH[t]:   # the move goes on after a double only
            continue
        k = c & 3
        k0, k1 = 0, NE   # the ends the next part may take: any (after_double, whole_hand)
        if kind == EACH_END:   # the ends after this one
            k0 = k + 1
        elif kind == CHAIN:   # this one again, on the tile just laid
            k0, k1 = k, k + 1
        if k0 >= k1:
            continue
        _lay(SD, d, c, PIPS, TL, TH, CODE, FIT, FIT_AT, VN, T, SPIN)
        if whole and _dead(DT, SD, d + 1, gen, False):
            continue
        _open(SD, d + 1, k0, k1, -1, PM, CODE, RES, RSURE, WAIVE, F, TAB, TEAMS, sides, N,
              deck, stack)
        d += 1
    return n


@njit
def _keep(m, v, at, h, playable, L, R, CODE, F, TAB, TEAMS, sides, N, deck, stack):
    """The tiles of ``m`` (on an end showing ``v``) that ``alone`` lets go down alone."""
    keep = 0
    while m:
        b = m & -m
        m ^= b
        if holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, low_index(b), v, h, playable,
                 L, R):
            keep |= b
    return keep


@njit
def alone(m0, m1, m2, m3, NE, h, L, R, U, D, PM, CODE, SEV, F, TAB, TEAMS, sides, N, deck,
          stack):
    """``several.alone_masks`` on the ``NE`` open ends: the single placements of
    ``m0..m3`` that ``alone`` lets go down on their own (all when it has none)."""
    at = CODE[SEV + ALONE_AT]
    if at < 0:
        return m0, m1, m2, m3
    playable = h & (PM[L] | PM[R])
    if NE == 4:
        playable |= h & (PM[U] | PM[D])
    return (_keep(m0, L, at, h, playable, L, R, CODE, F, TAB, TEAMS, sides, N, deck, stack),
            _keep(m1, R, at, h, playable, L, R, CODE, F, TAB, TEAMS, sides, N, deck, stack),
            _keep(m2, U, at, h, playable, L, R, CODE, F, TAB, TEAMS, sides, N, deck, stack),
            _keep(m3, D, at, h, playable, L, R, CODE, F, TAB, TEAMS, sides, N, deck, stack))


@njit
def _weigh(code, MV, MN, h, NE, L, R, U, D, PM, PIPS, VALUES, CODE, FIT, FIT_AT, VN, T,
           w_play2, w_domino2):
    """``strategist._weigh_line`` in half points: twice the value shed, ``W_PLAYABLE`` for
    each tile left that fits an end the move leaves (the ``NE`` open when it starts),
    ``W_DOMINO`` for the last tile."""
    rest = h
    shed = 0
    k = code - MOVE
    for i in range(MN[k] if code >= MOVE and code < FLIP else 1):
        c = MV[k, i] if code >= MOVE and code < FLIP else code
        t = (c & (FLIP - 1)) >> 2
        e = c & 3
        v = L if e == 0 else R if e == 1 else U if e == 2 else D
        w = left_open(CODE, FIT_AT, VN, T, v, t, 1 if c & FLIP else 0) if FIT else PIPS[t] - v
        if e == 0:
            L = w
        elif e == 1:
            R = w
        elif e == 2:
            U = w
        else:
            D = w
        rest ^= 1 << t
        shed += VALUES[t]
    fits = PM[L] | PM[R]
    if NE == 4:
        fits |= PM[U] | PM[D]
    return 2 * shed + w_play2 * popcount(rest & fits) + (w_domino2 if rest == 0 else 0)


@njit
def pick(kind, p, seed, N, WS, m0, m1, m2, m3, NE, L, R, U, D, nm, at_will, MV, MN, h, PM,
         PIPS, VALUES, CODE, SEV, FIT, FIT_AT, VN, T, TIE):
    """Seat ``p``'s option (``kind``: 0 random, 1 greedy, 2 strategist) among the single
    placements ``m0..m3`` (with a fit rule, a tile fitting its end two ways is two) and
    the ``nm`` moves of ``MV``, in that order: a placement's code (``FLIP`` its second
    way), ``MOVE + k`` for the k-th move, or -2 for a pass at will (random's last
    option). Random and greedy read one word of the seat's; the strategist one on a tie
    only (``StrategistBot._several``)."""
    f0 = f1 = f2 = f3 = 0
    if FIT:   # the tiles fitting each end two ways (jit_matching)
        f0, f1 = m0 & CODE[FIT_AT + L], m1 & CODE[FIT_AT + R]
        if NE == 4:
            f2, f3 = m2 & CODE[FIT_AT + U], m3 & CODE[FIT_AT + D]
    nfirst = popcount(m0) + popcount(m1) + popcount(m2) + popcount(m3)
    nfit = nfirst + popcount(f0) + popcount(f1) + popcount(f2) + popcount(f3)
    if kind == 0:
        total = nfit + nm
        k = (seat_word(seed, p, N, WS) * (total + at_will)) >> 32
        if k == total:
            return -2
        return kth_placement(k, m0, m1, m2, m3, f0, f1, f2, f3) if k < nfit else \
            MOVE + k - nfit
    singles = nfirst if kind == 1 else nfit   # greedy: a tile its first way only
    count = 0
    best = -(1 << 62)
    w_play2, w_domino2 = CODE[SEV + W_PLAYABLE2], CODE[SEV + W_DOMINO2]
    for i in range(singles + nm):
        if i < singles:
            code = (kth_placement(i, m0, m1, m2, m3, f0, f1, f2, f3) if kind != 1 else
                    kth_placement(i, m0, m1, m2, m3, 0, 0, 0, 0))
        else:
            code = MOVE + i - singles
        if kind == 1:
            if code >= MOVE and code < FLIP:
                v = 0
                for j in range(MN[code - MOVE]):
                    v += VALUES[(MV[code - MOVE, j] & (FLIP - 1)) >> 2]
            else:
                v = VALUES[(code & (FLIP - 1)) >> 2]
        else:
            v = _weigh(code, MV, MN, h, NE, L, R, U, D, PM, PIPS, VALUES, CODE, FIT, FIT_AT,
                       VN, T, w_play2, w_domino2)
        if v > best:
            best = v
            count = 0
        if v == best:
            TIE[count] = code
            count += 1
    if kind == 1 or count > 1:   # greedy reads a word always, the strategist on a tie
        return TIE[(seat_word(seed, p, N, WS) * count) >> 32]
    return TIE[0]
