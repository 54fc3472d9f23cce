"""The ``strategist`` bot in the JIT kernel: its choices on a line of play, in numba.

The JIT kernel (``jit_loop``) asks ``opening`` for a strategist seat's first tile and
``choose`` for its placement (or a voluntary draw) once the line is open. They are the
simulation path of ``bots.strategist_fast`` (``_line_policies`` and ``_opening``) term
for term: every term but ``shed`` a whole number of half points summed as an int, then
``shed`` added last, as the reference adds it, so every score is the Python engine's to
the last bit, and a tie (within 1e-9) is broken by the seat's next word exactly as its
``random()`` would. ``tests/test_kernel_jit_strategist.py`` plays both engines and
compares.

What the record tells of each seat (``bots.strategy.Knowledge``) is kept in one int64
array the kernel updates as it plays: ``know_deal`` at a round's deal, ``know_open`` at
its first tile, ``know_place`` at each later placement, ``know_lack`` at each draw or
pass once the line is open. The weights and per-tile tables are the bot's own
(``tables`` reads them from ``bots.strategist_fast`` and ``bots.strategy``) and reach the
compiled code as arrays, never as constants frozen into a cached kernel.

Every set of tiles is named by an array and an index (``jit_masks``: ``M, i`` is one
int64 mask on a set of at most 62 tiles, a row of ``W`` words on a larger one), so the
narrow kernel and the wide one run this one source, numba cutting the other branch by
the array's ``ndim``. The board's placed tiles are the words of the knowledge array's
``BOARD`` row (a narrow set's: one word, its mask). In the expert's playouts
(``jit_continue``) a tie is drawn from the Twister the rollouts share: the kernel passes
that row as ``TW``, any other kernel ``None``, and numba cuts the branch on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..bots.strategist_fast import (
    CONTROL2,
    LOCK2,
    OPP_SUIT2,
    OPTIONS2,
    PARTNER2,
    PARTNER_LACKS2,
    SHUTOUT2,
    _facts,
)
from ..bots.strategy import O_DOUBLE, O_OTHER, O_SUIT
from . import jit_bits
from .jit import njit
from .jit_bits import BITS
from .jit_continue import mt_random
from .jit_masks import (
    after,
    count,
    count_and,
    count_and_or,
    kth,
    nonempty,
    put,
    several,
    shares,
)
from .jit_support import popcount
from .shake import seat_words_next

if TYPE_CHECKING:
    from ..engine.game import Game

# the knowledge array's rows (``Knowledge``): values each seat drew or passed at, the
# values of the tile it led, the end values it opened once and twice; BOARD's first
# column: the tiles placed this round, a mask
LACKS, LED, OPENED, TWICE, BOARD = range(5)
KNOW_ROWS = 5
# the weights in half points, by position in the ``W`` array
WEIGHTS = (OPTIONS2, CONTROL2, LOCK2, SHUTOUT2, PARTNER2, PARTNER_LACKS2, OPP_SUIT2)
OPENING_WEIGHTS = (O_SUIT, O_DOUBLE, O_OTHER)


def tables(game: Game, players: int, words: int = 0, house: bool = True) -> tuple[Any, ...]:
    """The strategist's tables for ``players`` seats of ``game``, as the kernel reads them
    (``S`` in ``choose``): per value the tiles showing it; per tile its pips, halves, the
    double term, the shed term per block risk and the opening's value term; per seat its
    opponents with their block weights, its partners, whether an opponent plays next and
    who; the weights; for the house-rule kernel (``house``) a fit rule's tables (``TWO``,
    ``LEAVE``) and each tile's first copy (``FIRST``, ``set.copies``), which the plain
    kernel never reads (three arrays fewer to pass at each choice). ``words``: a wide
    kernel's (``jit_bits``), each value's tiles as a row of that many words."""
    facts = _facts(game)
    t, i64 = facts.tables, np.int64
    seats = [facts.seat(players, s) for s in range(players)]
    opps = np.full((players, players), -1, i64)
    oppw = np.zeros((players, players), i64)
    parts = np.full((players, players), -1, i64)
    for s, where in enumerate(seats):
        for j, (o, w) in enumerate(where.blocking2):
            opps[s, j], oppw[s, j] = o, w
        for j, q in enumerate(where.partners):
            parts[s, j] = q
    vm = jit_bits.wide(t.value_mask, words) if words else np.array(t.value_mask, i64)
    values, tiles = len(t.value_mask), len(t.pips)
    # a fit rule's (``_Tables.two``, ``leave``): per end value the tiles meeting it two
    # ways, per way, end value and tile the number left open; its opening weighs the
    # tile's value alone (``strategist_fast._opening_fit``: the suit weights are 0)
    if words:   # (a wide house-rule kernel's: each value's tiles as words)
        two = jit_bits.wide(list(t.two or [0] * values), words)
    else:
        two = np.zeros(values, i64) if t.two is None else np.array(t.two, i64)
    leave = (np.zeros((0, values, tiles), i64) if t.leave is None
             else np.array(t.leave, i64).reshape(2, values, tiles))
    weighs = (0.0, 0.0, 0.0) if t.two is not None else OPENING_WEIGHTS
    first = np.array([t.index[tile] for tile in game.tileset.tiles], i64)
    return (vm, np.array(t.pips, i64), np.array(facts.double, i64),
            np.array(t.shed, np.float64), np.array(t.open_value, np.float64),
            np.array(t.low, i64), np.array(t.high, i64), opps, oppw, parts,
            np.array([w.next_seat for w in seats], i64),
            np.array([w.next_is_opponent for w in seats], i64),
            np.array(WEIGHTS, i64), np.array(weighs, np.float64),
            *((two, leave, first) if house else ()))


@njit
def know_deal(K) -> None:
    """A new deal: nothing known of anyone."""
    K[:, :] = 0


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
def know_lack(K, p: int, left: int, right: int) -> None:
    """Seat ``p`` drew or passed with ``left`` and ``right`` showing: it held neither."""
    K[LACKS, p] |= 1 << left | 1 << right


@njit
def know_turn_up(K, t: int) -> None:
    """The strategist's record read of the turned-up tile: on the board, led by nobody
    (``strategist_fast``'s ``turn_up`` event)."""
    put(K, BOARD, t)


@njit(refcounts=False)   # (not inlined: numba cuts a branch by ndim on an argument only)
def unseen(U, H, h: int, K, T: int) -> None:
    """``U[0]``: the tiles others may hold, neither in the hand ``H[h]`` nor placed (the
    ``BOARD`` row), of ``T``."""
    if U.ndim == 1:
        U[0] = ((1 << T) - 1) ^ (H[h] | K[BOARD, 0])
    else:
        for w in range(U.shape[1]):
            bits = min(BITS, T - w * BITS)
            U[0, w] = ((1 << bits) - 1) ^ (H[h, w] | K[BOARD, w])


@njit(refcounts=False)   # (see opening)
def seat_word(seed: int, p: int, N: int, WS) -> int:
    """Seat ``p``'s next 32-bit word (its ``random()`` times 2**32; ``kernel.shake``)."""
    WB, wpos, wend, wblock, wmade, wshared, wfirst, wstates, msg = WS
    if wpos[p] == wend[p]:
        seat_words_next(seed, p, N, WB, wpos, wend, wblock, wmade, wshared, wfirst, wstates,
                        msg)
    word = np.int64(WB[wpos[p]])
    wpos[p] += 1
    return word


@njit(refcounts=False)   # (see opening)
def pick(n: int, seed: int, p: int, N: int, WS, TW) -> int:
    """A tie's index below ``n`` for seat ``p``: ``(word * n) >> 32`` of its next word
    (``kernel.shake``), or, in the expert's playouts (``TW`` the Twister the rollouts
    share: ``jit_continue``; ``None`` in any other kernel), ``int(random() * n)`` of that
    one stream, as ``strategist_fast`` draws it from ``random.Random``."""
    if TW is not None:
        return int(mt_random(TW) * n)
    return (seat_word(seed, p, N, WS) * n) >> 32


@njit(refcounts=False)   # (see opening)
def tied(codes, n: int, seed: int, p: int, N: int, WS) -> int:
    """Of the ``n`` codes tied best, in legal order, the one seat ``p``'s word picks (its
    ``random()`` in ``strategist_fast``), the only one without a word: the weighings whose
    ties are exact (a shaped board's, hidden rows') end here."""
    if n == 1:
        return codes[0]
    return codes[pick(n, seed, p, N, WS, None)]


@njit(refcounts=False)   # (see opening)
def _tie(n: int, floor: float, TS, TC, seed: int, p: int, N: int, WS, TW) -> int:
    """``strategist_fast._tie``: of the ``n`` (score, code) pairs collected in legal order,
    those still within 1e-9 of the best (``floor``), ranked best first (stable), one
    picked by the seat's word; -1 when only one is left (the best stands)."""
    kept = 0
    for i in range(n):
        if TS[i] >= floor:
            TS[kept], TC[kept] = TS[i], TC[i]
            kept += 1
    if kept == 1:
        return -1
    for i in range(1, kept):   # insertion sort, best first: equal scores keep their order
        s, c = TS[i], TC[i]
        j = i
        while j > 0 and TS[j - 1] < s:
            TS[j], TC[j] = TS[j - 1], TC[j - 1]
            j -= 1
        TS[j], TC[j] = s, c
    return TC[pick(kept, seed, p, N, WS, TW)]


@njit(inline="always")   # (at every choice: no call, no reference counts)
def rank(score: float, code: int, top: float, floor: float, ceil: float, top_code: int,
         n: int, TS, TC) -> tuple[float, float, float, int, int]:
    """One more placement (``code``) weighed, in legal order: the best score so far
    (``top``) and its code, and the ``n`` pairs in ``TS``/``TC`` within 1e-9 of it, from
    the first one: nothing below ``floor`` ties with the best, anything above ``ceil`` is
    a clear best. Returns them updated (``best`` settles the choice at the end)."""
    if score > ceil:   # a clear best so far
        return score, score - 1e-9, score + 1e-9, code, 0
    if score >= floor:   # a tie (within 1e-9) with the best so far
        if n == 0:
            TS[0], TC[0], n = top, top_code, 1
        TS[n], TC[n] = score, code
        n += 1
        if score > top:
            return score, score - 1e-9, score + 1e-9, code, n
    return top, floor, ceil, top_code, n


@njit(inline="always")   # (at every choice: no call, no reference counts)
def best(n: int, floor: float, top_code: int, TS, TC, seed: int, p: int, N: int, WS,
         TW) -> int:
    """The choice once every placement is weighed (``rank``): the best, or among the ``n``
    tied with it the one the seat's word picks."""
    if n:
        picked = _tie(n, floor, TS, TC, seed, p, N, WS, TW)
        if picked >= 0:
            return picked
    return top_code


@njit(inline="always")   # (at every choice: no call, no reference counts)
def plays(K, SEATS, p: int, N: int, row: int) -> tuple[int, int]:
    """Of the seats ``SEATS[p]`` lists (to its first -1): the values one led or showed
    in ``row`` (``TWICE`` or ``OPENED``) and does not lack, and those any of them lacks."""
    shown = lacked = 0
    for j in range(N):
        q = SEATS[p, j]
        if q < 0:
            break
        lk = K[LACKS, q]
        shown = (shown | K[LED, q] | K[row, q] | lk) ^ lk
        lacked |= lk
    return shown, lacked


@njit(inline="always")   # (at every choice: no call, no reference counts)
def sides(p: int, N: int, K, S) -> tuple[int, int, int, int, bool]:
    """What the record tells of seat ``p``'s opponents and partners: the values an opponent
    led or opened twice and does not lack (opening them costs), the values any opponent
    lacks, the values a partner plays (led or opened) and does not lack, those a partner
    lacks, and whether ``p`` has partners."""
    OPPS, PARTS = S[7], S[9]
    opp, lks = plays(K, OPPS, p, N, TWICE)
    suits, partner_lacks = plays(K, PARTS, p, N, OPENED)
    return opp, lks, suits, partner_lacks, PARTS[p, 0] >= 0


@njit(inline="always")   # (at every choice: no call, no reference counts)
def next_suits(p: int, can_draw: bool, drawn: int, left: int, held: int, N: int, K,
               S) -> int:
    """May a voluntary draw beat every placement? (``strategist._wants_draw``) Only when
    the next player, an opponent, is known to hold a suit: those suits, else 0."""
    if can_draw and not drawn and left >= 2 * N and S[11][p] and held <= 5:
        q = S[10][p]
        lk = K[LACKS, q]
        return (K[LED, q] | K[TWICE, q] | lk) ^ lk
    return 0


@njit(inline="always")   # (at every choice: no call, no reference counts)
def blocks(values: int, p: int, N: int, K, S) -> int:
    """The halves for blocking each opponent known to lack a value the ends will show
    (``values``): its block weight a value lacked, ``SHUTOUT2`` when it lacks them all."""
    OPPS, OPPW, shutout2 = S[7], S[8], S[12][3]
    block = 0
    for j in range(N):
        o = OPPS[p, j]
        if o < 0:
            break
        lacked = values & K[LACKS, o]
        if lacked:
            block += OPPW[p, j] * popcount(lacked)
            if lacked == values:
                block += shutout2
    return block


@njit(inline="always")   # (at every choice: no call, no reference counts)
def suited(values: int, opp: int, suits: int, partner_lacks: int, partners: bool,
           W) -> int:
    """The halves for the values the ends will show (``values``) that an opponent plays
    (against), that a partner plays (for) or lacks (against): ``sides``' sets."""
    half = -W[6] * popcount(values & opp)
    if partners:
        half += W[4] * popcount(values & suits) - W[5] * popcount(values & partner_lacks)
    return half


# the choices allocate nothing and keep no array: compiled without numba's reference
# counts, an atomic operation for each of the thirty arrays they are given on entry and
# exit (jit.njit), some 340 ns of a line's choice that cost 410 (a double-six line)
@njit(refcounts=False)
def opening(p: int, M, mi: int, H, h: int, S, TS, TC, seed: int, N: int, WS, TW) -> int:
    """The opening tile among ``M[mi]`` (``strategist_fast._opening``), the hand ``H[h]``:
    the strongest suit, then its double, then the other half's suit, then the tile's
    value."""
    if not several(M, mi):
        return kth(M, mi, 0) << 2
    VM, LOW, HIGH, VALUE, WO = S[0], S[5], S[6], S[4], S[13]
    o_suit, o_double, o_other = WO[0], WO[1], WO[2]
    top = floor = ceil = -1e300
    top_code = -1
    n = 0
    t = after(M, mi, -1)
    while t >= 0:
        lo, hi = LOW[t], HIGH[t]
        c_lo, c_hi = count_and(H, h, VM, lo), count_and(H, h, VM, hi)
        if lo == hi:
            score = o_suit * c_hi + o_double + VALUE[t]
        elif c_hi >= c_lo:
            score = o_suit * c_hi + o_other * c_lo + VALUE[t]
        else:
            score = o_suit * c_lo + o_other * c_hi + VALUE[t]
        top, floor, ceil, top_code, n = rank(score, t << 2, top, floor, ceil, top_code,
                                             n, TS, TC)
        t = after(M, mi, t)
    return best(n, floor, top_code, TS, TC, seed, p, N, WS, TW)


@njit(refcounts=False)   # (see opening)
def choose(p: int, M, m0: int, m1: int, can_draw: bool, H, h: int, e0: int, e1: int,
           left: int, drawn: int, K, S, TS, TC, seed: int, N: int, WS, TW, U) -> int:
    """Seat ``p``'s placement as ``tile << 2 | end`` (0 left, 1 right), or -1 for a draw,
    once the line is open (``strategist_fast._line_policies``' policy): ``M[m0]`` and
    ``M[m1]`` the tiles fitting each end, ``e0``/``e1`` the ends, ``H[h]`` the hand,
    ``left`` the tiles still drawable, ``drawn`` the seat's draws this turn, ``K`` what
    the record tells (``know_*``), ``U[0]`` scratch (``unseen``)."""
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
    nexts = next_suits(p, can_draw, drawn, left, held, N, K, S)
    if lone >= 0 and not nexts:
        return lone
    if not several(H, h):   # the last tile: every placement wins alike, no draw
        c0 = count(M, m0)
        n = c0 + count(M, m1)
        if n == 1:
            return kth(M, m0, 0) << 2 if any0 else kth(M, m1, 0) << 2 | 1
        k = pick(n, seed, p, N, WS, TW)
        if k < c0:
            return kth(M, m0, k) << 2
        return kth(M, m1, k - c0) << 2 | 1
    VM, PIPS, DBL, SHED, W = S[0], S[1], S[2], S[3], S[12]
    options2, control2, lock2 = W[0], W[1], W[2]
    risk = 2 if left <= 0 else (1 if left <= N else 0)
    opp, lks, suits, partner_lacks, partners = sides(p, N, K, S)
    unseen(U, H, h, K, PIPS.shape[0])
    top = floor = ceil = -1e300
    top_code = -1
    n = 0
    for at in range(2):   # the left end's placements, then the right's; the other end stays
        if at == 0:
            m, end, keep = m0, e0, e1
        else:
            m, end, keep = m1, e1, e0
        if not nonempty(M, m):
            continue
        ck = count_and(H, h, VM, keep)
        kbit = 1 << keep
        klock = not shares(VM, keep, U, 0)   # a kept value nobody else can hold
        mine = ck - 1 if end == keep else ck
        kept_half = control2 * (mine - 1) - options2 + (lock2 if mine and klock else 0)
        t = after(M, m, -1)
        while t >= 0:
            v = PIPS[t] - end
            if v == keep:   # both ends will show it: the tile (end, keep)
                half = (control2 * 2 + options2) * (ck - 1) + (
                    lock2 if ck > 1 and klock else 0)
                values = kbit
                both = ck
            else:
                c = count_and(H, h, VM, v)
                both = count_and_or(H, h, VM, keep, VM, v)   # my tiles meeting an end
                half = kept_half + control2 * c + options2 * both
                values = kbit | 1 << v
                if c > 1 and not shares(VM, v, U, 0):
                    half += lock2
            half += blocks(values, p, N, K, S) + suited(values, opp, suits,
                                                        partner_lacks, partners, W)
            if nexts and (not nexts >> v & 1 or values & lks or both > 1):
                nexts = 0   # a placement a draw cannot beat
            score = (half + DBL[t]) * 0.5 + SHED[risk, t]
            top, floor, ceil, top_code, n = rank(score, t << 2 | at, top, floor, ceil,
                                                 top_code, n, TS, TC)
            t = after(M, m, t)
    chosen = best(n, floor, top_code, TS, TC, seed, p, N, WS, TW)   # (a tie draws a word)
    return -1 if nexts else chosen
