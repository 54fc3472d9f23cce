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

Its sets are ``jit_masks``' (a set is an array and an index: a narrow set's int64 mask,
or a wide set's row of ``W`` words), as ``jit_several``'s are, so the narrow kernel and
the wide one run this same source: the hand ``H[hi]``, the tiles each end takes as rows
of ``M`` (``rows``: the four ends', then the four of their tiles fitting two ways), the
search's sets in ``S`` (``BLOCKS`` blocks of ``most + 1``, a set a depth), and the tables
laid in ``CODE`` per end number (the restrictions' sure tiles, a fit rule's two-way tiles:
``jit_masks.meet_code``) a mask or ``W`` words each.

A ruleset on a plain line keeps ``jit_several``'s searches (the GEN lines ask this
module only under a spinner, a fit rule, restrictions or two sets);
``tests/test_kernel_jit_several_arms.py`` holds each piece to the loop's, on a narrow set
and on a set of words.

The GEN lines call ``alone``, ``moves`` and ``pick``, each compiled on its own with
numba's reference counts (one count of its arrays a call); the helpers they call all
the time (a placement tried, a depth opened) have none. Measured interleaved against
main (CPU time, medians of 4 to 6 cycles), as (the rulesets asking this module; house
rulesets that never do, whose kernel is the same): every piece refcount-free, (0.7-1.05x;
1.04-1.16x: the shared kernel grew); every piece counted, (1.13-1.30x; 0.9-1.0x); this
split, (0.94-1.26x; 1.03-1.04x), several-spinner and several-matador at random bots the
1.2-1.26x, still to win back.
"""

from __future__ import annotations

from .jit import njit
from .jit_board import spin_place
from .jit_copies import canonical_at
from .jit_formula import FACT, run
from .jit_masks import (
    after,
    clear,
    copy,
    count,
    count_and,
    has,
    join,
    meet,
    meet_code,
    nonempty,
    put,
    put_fact,
    take,
    words_of,
)
from .jit_matching import FLIP, left_open
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
    keep_alone,
    search,
)
from .jit_strategist import seat_word

# the search's scratch rows (SD), a column a depth: the four end values, how many are
# open, the spinner's need and value, the end being tried and the ends the depth may take
# (k0..k1), whether its tiles must be doubles (the first part of after_double), a tile
# whose second way is next (its index + 1), the placement chosen
_V, _CNT, _NEED, _SVAL, _K, _KEND, _ONLY, _PEND, _CODE = 0, 4, 5, 6, 7, 8, 9, 10, 11
ROWS = 12   # (jit_several.SCRATCH is at least this)
# its sets (S), a block of most + 1 a depth: the hand, the tiles fitting an open end, the
# tiles still to try at the end, those of them fitting two ways, and per end the tiles
# allowed (_ALLOWED) and, with restrictions, those kept (_KEPT)
_HAND_SET, _PLAY, _CAND, _TWO, _ALLOWED, _KEPT = 0, 1, 2, 3, 4, 8
BLOCKS = 12   # (jit_several.SET_BLOCKS is at least this)
_TILE, _END, _HAND, _PLAYABLE = FACT["tile"], FACT["end"], FACT["hand"], FACT["playable"]


@njit(refcounts=False)
def _restricted(S, a, k, v, CODE, RES, RSURE, F, TAB, TEAMS, sides, N, deck, stack):
    """``S[k]``: the tiles of ``S[a]`` the placement restrictions allow on an end showing
    ``v`` (``general_loop.allowed_at``): those allowed whatever else holds (``R_SURE``),
    and the others by their program; F's hand and playable tiles already set. 1 when it
    holds a tile."""
    meet_code(S, k, S, a, CODE, RSURE, v)
    F[_END] = v
    t = after(S, a, -1)
    while t >= 0:
        if not has(S, k, t):
            F[_TILE] = t
            if run(CODE, RES, F, TAB, TEAMS, sides, N, deck, stack):
                put(S, k, t)
        t = after(S, a, t)
    return nonempty(S, k)


@njit(refcounts=False)
def _open(S, Z, SD, d, k0, k1, only, PM, CODE, RES, RSURE, WAIVE, F, TAB, TEAMS, sides, N,
          deck, stack):
    """Depth ``d`` opens on the position its hand (``S``'s sets, blocks of ``Z``), ends,
    count and spinner rows hold: the tiles each end allows (the fit, the restrictions as
    ``allowed_at`` narrows them, all again under ``waive`` when none is), to be tried on
    the ends ``k0`` to ``k1 - 1`` (``only``: doubles alone)."""
    hd, play = _HAND_SET * Z + d, _PLAY * Z + d
    cnt = SD[_CNT, d]
    clear(S, play)
    for e in range(cnt):
        a = (_ALLOWED + e) * Z + d
        meet(S, a, S, hd, PM, SD[_V + e, d])
        join(S, play, S, a)
    if RES >= 0 and nonempty(S, play):
        put_fact(F, _HAND, 0, S, hd)
        put_fact(F, _PLAYABLE, 1, S, play)
        got = 0
        for e in range(cnt):
            got |= _restricted(S, (_ALLOWED + e) * Z + d, (_KEPT + e) * Z + d, SD[_V + e, d],
                               CODE, RES, RSURE, F, TAB, TEAMS, sides, N, deck, stack)
        if got or not WAIVE:
            for e in range(cnt):
                copy(S, (_ALLOWED + e) * Z + d, S, (_KEPT + e) * Z + d)
    SD[_K, d], SD[_KEND, d], SD[_ONLY, d] = k0 - 1, k1, only
    SD[_PEND, d] = 0
    clear(S, _CAND * Z + d)


@njit(refcounts=False)
def _next(S, Z, SD, d, at, TL, TH, FIT, FIT_AT, SECONDS, CODE, F, TAB, TEAMS, sides, N, deck,
          stack):
    """The next placement of depth ``d`` (``tile << 2 | end``, ``FLIP`` for a tile's second
    way), -1 when none is left: end by end, tile by tile, those meeting ``tiles`` (its
    program at ``at``; -1: none), a tile's second way right after its first."""
    c = _CAND * Z + d
    while True:
        pend = SD[_PEND, d]
        if pend:
            SD[_PEND, d] = 0
            return (pend - 1) << 2 | SD[_K, d] | FLIP
        t = after(S, c, -1)
        if t < 0:
            k = SD[_K, d] + 1
            if k >= SD[_KEND, d]:
                return -1
            SD[_K, d] = k
            copy(S, c, S, (_ALLOWED + k) * Z + d)
            if SECONDS:   # one copy of a tile held twice, the first left
                canonical_at(S, c, CODE, SECONDS)
            if FIT:
                meet_code(S, _TWO * Z + d, S, c, CODE, FIT_AT, SD[_V + k, d])
            continue
        take(S, c, t)
        if SD[_ONLY, d] and TL[t] != TH[t]:   # (after_double's first part: a double)
            continue
        k = SD[_K, d]
        if at >= 0 and not holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, t,
                                 SD[_V + k, d], put_fact(F, _HAND, 0, S, _HAND_SET * Z + d),
                                 put_fact(F, _PLAYABLE, 1, S, _PLAY * Z + d), SD[_V, d],
                                 SD[_V + 1, d]):
            continue
        if FIT and has(S, _TWO * Z + d, t):
            SD[_PEND, d] = t + 1
        return t << 2 | k


@njit(refcounts=False)
def _lay(S, Z, SD, d, c, PIPS, TL, TH, CODE, FIT, FIT_AT, VN, T, SPIN):
    """Depth ``d + 1``'s position: depth ``d``'s once placement ``c`` lies (``Board.place``:
    the number it leaves open, by the fit rule's tables if any, which follow its two-way
    sets; a spinner's side played on, its arms opening once both are)."""
    t = (c & (FLIP - 1)) >> 2
    e = c & 3
    for i in range(4):
        SD[_V + i, d + 1] = SD[_V + i, d]
    v = SD[_V + e, d]
    SD[_V + e, d + 1] = (left_open(CODE, FIT_AT + VN * (words_of(S) - 1), VN, T, v, t,
                                   1 if c & FLIP else 0) if FIT else PIPS[t] - v)
    need, sval, cnt = SD[_NEED, d], SD[_SVAL, d], SD[_CNT, d]
    double = TL[t] == TH[t]
    if SPIN and (need > 0 or (need < 0 and double)):
        need, sval, opened = spin_place(need, sval, e, TL[t], double)
        if opened:   # both sides played on: the arms open
            SD[_V + 2, d + 1] = SD[_V + 3, d + 1] = sval
            cnt = 4
    h = _HAND_SET * Z + d + 1
    copy(S, h, S, h - 1)
    take(S, h, t)
    SD[_CNT, d + 1], SD[_NEED, d + 1], SD[_SVAL, d + 1] = cnt, need, sval


@njit(refcounts=False)
def _dead(DT, S, Z, SD, d, gen, put_):
    """Whether depth ``d``'s position (its hand, ends, count, spinner) is known dead in
    search ``gen`` (``jit_several.dead_at``, its ends packed in one number); with
    ``put_``, it is from now on (while the table has room)."""
    key = (SD[_V, d] | SD[_V + 1, d] << 8 | SD[_V + 2, d] << 16 | SD[_V + 3, d] << 24
           | SD[_CNT, d] << 32 | (SD[_NEED, d] + 1) << 36)
    return dead_at(DT, S, _HAND_SET * Z + d, key, gen, put_)


@njit
def moves(H, hi, L, R, U, D, NE, need, sval, PM, PIPS, TL, TH, CODE, SEV, RES, RSURE, WAIVE,
          FIT, FIT_AT, VN, T, SPIN, SECONDS, F, TAB, TEAMS, sides, N, deck, stack, MV, MN,
          SD, S, DT):
    """``several.line_moves`` for the hand ``H[hi]`` on the ``NE`` ends open (``L, R, U,
    D``; the spinner's ``need`` and value), of the kind the rule names: row k of ``MV``
    the k-th move's codes (``tile << 2 | end``, ``FLIP`` a tile's second way), ``MN[k]``
    its tile count; how many. ``RES``: the restrictions' program (-1: none), ``RSURE``
    their sure tiles, ``WAIVE`` if_none_allowed: waive; ``FIT``: a fit rule, its tables
    at ``FIT_AT``; ``SECONDS``: two sets' second copies (``jit_copies.canonical_at``);
    ``SD``, ``S``, ``DT``: scratch (rows, ``BLOCKS`` blocks of sets, the dead table)."""
    kind = CODE[SEV + KIND]
    most = CODE[SEV + MOST]
    at = CODE[SEV + TILES_AT]
    Z = most + 1
    whole = kind == WHOLE_HAND
    size = count(H, hi)
    gen = 0
    if whole:   # the whole hand, one move: its first order found
        if size < 2:
            return 0
        most = size
        gen = search(DT)
    elif most < 2:
        return 0
    SD[_V, 0], SD[_V + 1, 0], SD[_V + 2, 0], SD[_V + 3, 0] = L, R, U, D
    SD[_CNT, 0], SD[_NEED, 0], SD[_SVAL, 0] = NE, need, sval
    copy(S, _HAND_SET * Z, H, hi)
    _open(S, Z, SD, 0, 0, NE, 1 if kind == AFTER_DOUBLE else 0, PM, CODE, RES, RSURE, WAIVE,
          F, TAB, TEAMS, sides, N, deck, stack)
    n = 0
    d = 0
    while d >= 0:
        c = _next(S, Z, SD, d, at, TL, TH, FIT, FIT_AT, SECONDS, CODE, F, TAB, TEAMS, sides,
                  N, deck, stack)
        if c < 0:
            if whole:   # every order from here fails: dead
                _dead(DT, S, Z, SD, d, gen, True)
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
        _lay(S, Z, SD, d, c, PIPS, TL, TH, CODE, FIT, FIT_AT, VN, T, SPIN)
        if whole and _dead(DT, S, Z, SD, d + 1, gen, False):
            continue
        _open(S, Z, SD, d + 1, k0, k1, 0, PM, CODE, RES, RSURE, WAIVE, F, TAB, TEAMS, sides,
              N, deck, stack)
        d += 1
    return n


@njit
def alone(M, rows, NE, H, hi, L, R, U, D, PM, CODE, SEV, F, TAB, TEAMS, sides, N, deck,
          stack, S):
    """``several.alone_masks`` on the ``NE`` open ends: the single placements of
    ``M[rows[e]]`` (the tiles fitting end e) narrowed in place to those ``alone`` lets go
    down on their own (all when it has none); ``S[0]`` scratch. 1 when some end still
    takes a tile, else 0."""
    at = CODE[SEV + ALONE_AT]
    ends = (L, R, U, D)
    if at >= 0:
        copy(S, 0, PM, L)   # the hand's tiles fitting an open end
        join(S, 0, PM, R)
        if NE == 4:
            join(S, 0, PM, U)
            join(S, 0, PM, D)
        meet(S, 0, S, 0, H, hi)
        hand = put_fact(F, _HAND, 0, H, hi)
        playable = put_fact(F, _PLAYABLE, 1, S, 0)
        for e in range(NE):
            keep_alone(M, rows[e], ends[e], at, hand, playable, L, R, CODE, F, TAB, TEAMS,
                       sides, N, deck, stack)
    some = 0
    for e in range(NE):
        some |= nonempty(M, rows[e])
    return some


@njit(refcounts=False)
def _placement(code):
    """A single placement's tile and end (``FLIP`` its second way)."""
    return (code & (FLIP - 1)) >> 2, code & 3


@njit(refcounts=False)
def _weigh(code, MV, MN, H, hi, NE, L, R, U, D, PM, PIPS, VALUES, CODE, FIT, FIT_AT, VN, T,
           w_play2, w_domino2, S):
    """``strategist._weigh_line`` in half points: twice the value shed, ``W_PLAYABLE`` for
    each tile left that fits an end the move leaves (the ``NE`` open when it starts),
    ``W_DOMINO`` for the last tile; ``S[0]``, ``S[1]`` scratch."""
    copy(S, 0, H, hi)   # what is left of the hand
    shed = 0
    k = code - MOVE
    move = code >= MOVE and code < FLIP
    for i in range(MN[k] if move else 1):
        c = MV[k, i] if move else code
        t, e = _placement(c)
        v = L if e == 0 else R if e == 1 else U if e == 2 else D
        w = (left_open(CODE, FIT_AT + VN * (words_of(S) - 1), VN, T, v, t,
                       1 if c & FLIP else 0) if FIT else PIPS[t] - v)
        if e == 0:
            L = w
        elif e == 1:
            R = w
        elif e == 2:
            U = w
        else:
            D = w
        take(S, 0, t)
        shed += VALUES[t]
    copy(S, 1, PM, L)   # the tiles fitting an end it leaves
    join(S, 1, PM, R)
    if NE == 4:
        join(S, 1, PM, U)
        join(S, 1, PM, D)
    return (2 * shed + w_play2 * count_and(S, 0, S, 1)
            + (0 if nonempty(S, 0) else w_domino2))


@njit(refcounts=False)
def _kth(M, rows, NE, FL, k):
    """The ``k``-th single placement in the general loop's order (end by end, tile by
    tile, a tile fitting its end two ways, ``M[rows[4 + e]]`` with ``FL``, then its
    second way: ``jit_matching.kth_placement``); -1 past the last."""
    for e in range(NE):
        f = rows[4 + e]
        t = after(M, rows[e], -1)
        while t >= 0:
            if not k:
                return t << 2 | e
            k -= 1
            if FL and has(M, f, t):
                if not k:
                    return t << 2 | e | FLIP
                k -= 1
            t = after(M, rows[e], t)
    return -1


@njit(refcounts=False)
def _tie(TIE, n, best, code, v):
    """An option of worth ``v`` against the best so far (``best``, its ``n`` ties in
    ``TIE``): the new best and tie count."""
    if v > best:
        best = v
        n = 0
    if v == best:
        TIE[n] = code
        n += 1
    return n, best


@njit
def pick(kind, p, seed, N, WS, M, rows, NE, L, R, U, D, nm, at_will, MV, MN, H, hi, PM,
         PIPS, VALUES, CODE, SEV, FIT, FIT_AT, VN, T, TIE, S):
    """Seat ``p``'s option (``kind``: 0 random, 1 greedy, 2 strategist) among the single
    placements ``M[rows[e]]`` on the ``NE`` open ends (with a fit rule, a tile fitting its
    end two ways is two: their rows ``rows[4 + e]``, written here) and the ``nm`` moves of
    ``MV``, in that order: a placement's code (``FLIP`` its second way), ``MOVE + k`` for
    the k-th move, or -2 for a pass at will (random's last option). Random and greedy
    read one word of the seat's; the strategist one on a tie only
    (``StrategistBot._several``). The hand ``H[hi]``; ``S[0]``, ``S[1]`` scratch."""
    ends = (L, R, U, D)
    nfirst = nfit = 0
    for e in range(NE):
        nfirst += count(M, rows[e])
        if FIT:   # the tiles fitting each end two ways (jit_matching)
            meet_code(M, rows[4 + e], M, rows[e], CODE, FIT_AT, ends[e])
            nfit += count(M, rows[4 + e])
    nfit += nfirst
    if kind == 0:
        total = nfit + nm
        k = (seat_word(seed, p, N, WS) * (total + at_will)) >> 32
        if k == total:
            return -2
        return _kth(M, rows, NE, FIT, k) if k < nfit else MOVE + k - nfit
    n = 0
    best = -(1 << 62)
    w_play2, w_domino2 = CODE[SEV + W_PLAYABLE2], CODE[SEV + W_DOMINO2]
    two = FIT and kind != 1   # greedy: a tile its first way only
    for e in range(NE):   # the single placements, in the loop's order
        t = after(M, rows[e], -1)
        while t >= 0:
            for flip in range(2 if two and has(M, rows[4 + e], t) else 1):
                code = t << 2 | e | (FLIP if flip else 0)
                v = (VALUES[t] if kind == 1 else
                     _weigh(code, MV, MN, H, hi, NE, L, R, U, D, PM, PIPS, VALUES, CODE, FIT,
                            FIT_AT, VN, T, w_play2, w_domino2, S))
                n, best = _tie(TIE, n, best, code, v)
            t = after(M, rows[e], t)
    for k in range(nm):   # then the moves
        code = MOVE + k
        if kind == 1:
            v = 0
            for j in range(MN[k]):
                v += VALUES[_placement(MV[k, j])[0]]
        else:
            v = _weigh(code, MV, MN, H, hi, NE, L, R, U, D, PM, PIPS, VALUES, CODE, FIT,
                       FIT_AT, VN, T, w_play2, w_domino2, S)
        n, best = _tie(TIE, n, best, code, v)
    if kind == 1 or n > 1:   # greedy reads a word always, the strategist on a tie
        return TIE[(seat_word(seed, p, N, WS) * n) >> 32]
    return TIE[0]
