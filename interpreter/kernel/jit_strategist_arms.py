"""The ``strategist`` bot on a spinner, under a fit rule or with two sets, in the JIT kernel.

On a board with a spinner, under a fit rule (``matching``) or with two sets
(``set.copies``) ``bots.strategist_fast`` reads the record through ``Knowledge`` and
ranks every placement (``make_decider``: its bound ``policy`` and ``rank``), counting
every open end (two, then four once the spinner's arms open) rather than the one end a
placement changes on a line (``jit_strategist.choose``). ``choose_arms`` is that policy
term for term over the kernel's masks and ends: every term but ``shed`` a whole number
of half points summed as an int, ``shed`` added last, so every score is the Python
engine's to the last bit, and a tie (within 1e-9) broken by the seat's next word as its
``random()`` would. Under a fit rule a tile meeting an end two ways is two placements
(the second ``FLIP``); two copies of a tile are two bits of the kernel's masks, so the
tiles others may hold (``unseen``) count what ``Knowledge.placed`` counts. What the
record tells of each seat is ``jit_strategist``'s array (the kernel marks a seat lacking
every open end when it draws or passes); the weights and tables are its ``tables``.
``tests/test_kernel_jit_strategist_arms.py`` and ``test_kernel_jit_strategist_rules.py``
hold this to ``strategist_fast`` position by position, and match by match.
"""

from __future__ import annotations

from .jit import njit
from .jit_matching import FLIP
from .jit_strategist import BOARD, LACKS, LED, OPENED, TWICE, _tie, pick
from .jit_support import low_index, popcount


@njit
def _kth(m0: int, m1: int, m2: int, m3: int, f0: int, f1: int, f2: int, f3: int,
         k: int) -> int:
    """The ``k``-th placement (``tile << 2 | end``) in legal order: end by end, lowest
    tile first, a tile meeting the end two ways (``f0``..``f3``) its second way
    (``FLIP``) next (``strategist_fast._codes``, ``_fit_codes``)."""
    for end in range(4):
        m = m0 if end == 0 else m1 if end == 1 else m2 if end == 2 else m3
        f = f0 if end == 0 else f1 if end == 1 else f2 if end == 2 else f3
        c = popcount(m) + popcount(f)
        if k < c:
            while m:
                b = m & -m
                m ^= b
                if not k:
                    return low_index(b) << 2 | end
                k -= 1
                if f & b:
                    if not k:
                        return low_index(b) << 2 | end | FLIP
                    k -= 1
        k -= c
    return -1


@njit
def choose_arms(p: int, m0: int, m1: int, m2: int, m3: int, can_draw: bool, hand: int,
                e0: int, e1: int, e2: int, e3: int, ne: int, left: int, drawn: int, K, S,
                TS, TC, seed: int, N: int, WS) -> int:
    """Seat ``p``'s placement as ``tile << 2 | end`` (0 left, 1 right, 2 up, 3 down), or -1
    for a draw, once the line is open on a spinning board: ``m0``..``m3`` the tiles
    fitting each end, ``e0``..``e3`` the ends' values, the first ``ne`` open (2 or 4),
    ``left`` the tiles still drawable, ``drawn`` the seat's draws this turn, ``K`` what
    the record tells (``jit_strategist.know_*``). Under a fit rule (``matching``) a tile
    meeting an end two ways is two placements, the second coded ``FLIP``, each leaving
    what the rule says open (``LEAVE``), as ``strategist_fast.rank`` weighs them."""
    TWO, LEAVE = S[14], S[15]
    fit = LEAVE.shape[0] > 0
    f0 = f1 = f2 = f3 = 0
    if fit:
        f0, f1, f2, f3 = m0 & TWO[e0], m1 & TWO[e1], m2 & TWO[e2], m3 & TWO[e3]
    n = (popcount(m0) + popcount(m1) + popcount(m2) + popcount(m3) + popcount(f0)
         + popcount(f1) + popcount(f2) + popcount(f3))
    held = popcount(hand)
    if n == 1 and (not can_draw or held > 5 or drawn or left < 2 * N):
        return _kth(m0, m1, m2, m3, f0, f1, f2, f3, 0)   # one, and no draw it would want
    if not hand & (hand - 1):   # the last tile: every placement wins alike, no draw
        if n == 1:
            return _kth(m0, m1, m2, m3, f0, f1, f2, f3, 0)
        return _kth(m0, m1, m2, m3, f0, f1, f2, f3, pick(n, seed, p, N, WS))   # (the
        # seat's word; in the expert's playouts their one stream: jit_strategist.pick)
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
    # tiles neither mine nor placed: a value none of them shows is locked (``Knowledge``'s
    # suit size less my tiles and the placed ones showing it)
    unseen = ((1 << PIPS.shape[0]) - 1) ^ (hand | K[BOARD, 0])
    top = floor = ceil = -1e300
    best = -1
    k = 0
    for at in range(4):
        m = m0 if at == 0 else m1 if at == 1 else m2 if at == 2 else m3
        two = f0 if at == 0 else f1 if at == 1 else f2 if at == 2 else f3
        e_at = e0 if at == 0 else e1 if at == 1 else e2 if at == 2 else e3
        while m:
            b = m & -m
            m ^= b
            t = low_index(b)
            for way in range(2 if two & b else 1):   # a fit rule's second way: FLIP
                # the ends once the tile is down: the one it is laid on shows what it leaves
                v = LEAVE[way, e_at, t] if fit else PIPS[t] - e_at
                g0, g1, g2, g3 = e0, e1, e2, e3
                if at == 0:
                    g0 = v
                elif at == 1:
                    g1 = v
                elif at == 2:
                    g2 = v
                else:
                    g3 = v
                fits = values = locked = kept = 0
                for i in range(ne):
                    e = g0 if i == 0 else g1 if i == 1 else g2 if i == 2 else g3
                    vm = VM[e]
                    c = popcount(hand & vm)
                    mine = c - (vm >> t & 1)
                    kept += mine
                    bit = 1 << e
                    if not values & bit:
                        values |= bit
                        fits |= vm
                        if mine and not vm & unseen:
                            locked += 1
                # my other tiles meeting an end (a fit rule's placed tile need not meet one)
                options = popcount((hand ^ b) & fits)
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
