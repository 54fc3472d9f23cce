"""The ``strategist`` bot on a spinner, under a fit rule or with two sets, in the JIT kernel.

On a board with a spinner, under a fit rule (``matching``) or with two sets
(``set.copies``) ``bots.strategist_fast`` reads the record through ``Knowledge`` and
ranks every placement (``make_decider``: its bound ``policy`` and ``rank``), counting
every open end (two, then four once the spinner's arms open) rather than the one end a
placement changes on a line (``jit_strategist.choose``). ``choose_arms`` is that policy
term for term over the kernel's sets (``jit_masks``: masks, or rows of words on a set
over 62 tiles) and ends: every term but ``shed`` a whole number of half points summed as
an int, ``shed`` added last, so every score is the Python engine's to the last bit, and
a tie (within 1e-9) broken by the seat's next word as its ``random()`` would. Under a
fit rule a tile meeting an end two ways is two placements (the second ``FLIP``); two
copies of a tile are two bits of the kernel's masks, so the tiles others may hold
(``unseen``) count what ``Knowledge.placed`` counts. What the record tells of each seat
is ``jit_strategist``'s array (the kernel marks a seat lacking every open end when it
draws or passes); the weights and tables are its ``tables``, and the terms a line weighs
alike (``sides``, ``blocks``, ``suited``, ``rank``) its own.
``tests/test_kernel_jit_strategist_arms.py`` and ``test_kernel_jit_strategist_rules.py``
hold this to ``strategist_fast`` position by position, and match by match.
"""

from __future__ import annotations

from .jit import njit
from .jit_masks import after, clear, count, count_and, has, join, meet, several, shares
from .jit_matching import FLIP
from .jit_strategist import (
    best,
    blocks,
    next_suits,
    pick,
    rank,
    sides,
    suited,
    unseen,
)


@njit(refcounts=False)   # (jit_strategist.opening: no reference counts)
def _kth(M, rows, ne: int, k: int) -> int:
    """The ``k``-th placement (``tile << 2 | end``) in legal order: end by end, lowest
    tile first, a tile meeting the end two ways (``M[rows[4 + end]]``) its second way
    (``FLIP``) next (``strategist_fast._codes``, ``_fit_codes``)."""
    for end in range(ne):
        m, f = rows[end], rows[4 + end]
        t = after(M, m, -1)
        while t >= 0:
            if not k:
                return t << 2 | end
            k -= 1
            if has(M, f, t):
                if not k:
                    return t << 2 | end | FLIP
                k -= 1
            t = after(M, m, t)
    return -1


@njit(refcounts=False)   # (jit_strategist.opening: no reference counts)
def choose_arms(p: int, M, rows, ne: int, can_draw: bool, H, h: int, ends, left: int,
                drawn: int, K, S, TS, TC, seed: int, N: int, WS, TW, U) -> int:
    """Seat ``p``'s placement as ``tile << 2 | end`` (0 left, 1 right, 2 up, 3 down), or -1
    for a draw, once the line is open on a spinning board or under a fit rule:
    ``M[rows[e]]`` the tiles fitting end ``e`` (the first ``ne`` open, 2 or 4), whose
    value ``ends[e]``, ``M[rows[4 + e]]`` filled here with those fitting it two ways,
    ``H[h]`` the hand, ``left`` the tiles still drawable, ``drawn`` the seat's draws this
    turn, ``K`` what the record tells (``jit_strategist.know_*``), ``U`` two scratch sets
    (the tiles others may hold; those meeting an end). Under a fit rule (``matching``) a
    tile meeting an end two ways is two placements, the second coded ``FLIP``, each
    leaving what the rule says open (``LEAVE``), as ``strategist_fast.rank`` weighs them."""
    TWO, LEAVE = S[14], S[15]
    fit = LEAVE.shape[0] > 0
    n = 0
    for e in range(ne):
        f = rows[4 + e]
        if fit:
            meet(M, f, M, rows[e], TWO, ends[e])
        else:
            clear(M, f)
        n += count(M, rows[e]) + count(M, f)
    held = count(H, h)
    if n == 1 and (not can_draw or held > 5 or drawn or left < 2 * N):
        return _kth(M, rows, ne, 0)   # one, and no draw it would want
    if not several(H, h):   # the last tile: every placement wins alike, no draw
        if n == 1:
            return _kth(M, rows, ne, 0)
        return _kth(M, rows, ne, pick(n, seed, p, N, WS, TW))
    VM, PIPS, DBL, SHED, W = S[0], S[1], S[2], S[3], S[12]
    options2, control2, lock2 = W[0], W[1], W[2]
    risk = 2 if left <= 0 else (1 if left <= N else 0)
    nexts = next_suits(p, can_draw, drawn, left, held, N, K, S)
    wants_draw = nexts != 0
    opp, lks, suits, partner_lacks, partners = sides(p, N, K, S)
    # tiles neither mine nor placed: a value none of them shows is locked (``Knowledge``'s
    # suit size less my tiles and the placed ones showing it)
    unseen(U, H, h, K, PIPS.shape[0])
    top = floor = ceil = -1e300
    top_code = -1
    k = 0
    for at in range(ne):
        m, two, e_at = rows[at], rows[4 + at], ends[at]
        t = after(M, m, -1)
        while t >= 0:
            for way in range(2 if has(M, two, t) else 1):   # a second way: FLIP
                # the ends once the tile is down: the one it is laid on shows what it
                # leaves
                v = LEAVE[way, e_at, t] if fit else PIPS[t] - e_at
                values = locked = kept = 0
                clear(U, 1)   # the tiles meeting an end
                for i in range(ne):
                    e = v if i == at else ends[i]
                    mine = count_and(H, h, VM, e) - has(VM, e, t)
                    kept += mine
                    bit = 1 << e
                    if not values & bit:
                        values |= bit
                        join(U, 1, VM, e)
                        if mine and not shares(VM, e, U, 0):
                            locked += 1
                # my other tiles meeting an end (a fit rule's placed tile need not meet
                # one)
                options = count_and(H, h, U, 1) - has(U, 1, t)
                half = options2 * options + control2 * kept + lock2 * locked + DBL[t]
                block = blocks(values, p, N, K, S)
                if wants_draw and (options or block or not nexts >> v & 1):
                    wants_draw = False   # a placement a draw cannot beat
                half += block + suited(values, opp, suits, partner_lacks, partners, W)
                score = half * 0.5 + SHED[risk, t]
                code = t << 2 | at | (FLIP if way else 0)
                top, floor, ceil, top_code, k = rank(score, code, top, floor, ceil,
                                                     top_code, k, TS, TC)
            t = after(M, m, t)
    chosen = best(k, floor, top_code, TS, TC, seed, p, N, WS, TW)   # (a tie draws a word)
    return -1 if wants_draw else chosen
