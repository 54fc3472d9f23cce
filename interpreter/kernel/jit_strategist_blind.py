"""The ``strategist`` bot on hidden rows (``deal.blind``) in the JIT kernel, in numba.

Under hidden rows the one choice the rules leave a seat is the end for its front tile;
``bots.strategist_fast._blind_decider`` weighs each end by ``strategy.weigh_blind``: the
tiles the rows have shown (a pass turns the front tile up, then puts it at the back) and
still hold that may meet an end then, its own and its partners' counted for, its
opponents' against. ``know_shown`` and ``know_front`` keep what the record shows of
each row in rows of ``jit_strategist``'s knowledge array past its ``KNOW_ROWS`` (row
``KNOW_ROWS + seat``: per tile, by its first copy, the times shown and not placed since,
as ``strategy.shown_rows`` keeps a list); ``choose_blind`` weighs the placements in
legal order and breaks a tie with the seat's word, as its ``random()`` would.
``tests/test_kernel_jit_strategist_rules.py`` holds it to the Python engine.
"""

from __future__ import annotations

from .jit import njit
from .jit_matching import FLIP
from .jit_strategist import KNOW_ROWS, tied
from .jit_support import low_index


@njit
def know_shown(K, p: int, S, t: int) -> None:
    """Seat ``p`` passed, showing its front tile ``t``: its row still holds it."""
    K[KNOW_ROWS + p, S[16][t]] += 1


@njit
def know_front(K, p: int, S, t: int) -> None:
    """Seat ``p`` placed its front tile ``t``: one showing of it is off its row."""
    i = S[16][t]
    if K[KNOW_ROWS + p, i]:
        K[KNOW_ROWS + p, i] -= 1


@njit
def _meeting(K, s: int, fits: int) -> int:
    """The tiles seat ``s``'s row has shown, and still holds, among ``fits``."""
    n = 0
    row = KNOW_ROWS + s
    for i in range(K.shape[1]):
        if K[row, i] and fits >> i & 1:
            n += K[row, i]
    return n


@njit
def choose_blind(p: int, m0: int, m1: int, m2: int, m3: int, e0: int, e1: int, e2: int,
                 e3: int, ne: int, K, S, TC, seed: int, N: int, WS) -> int:
    """Seat ``p``'s placement of its front tile (``m0``..``m3``: the ends it fits, whose
    values ``e0``..``e3``, the first ``ne`` open), ``tile << 2 | end``, ``FLIP`` for a
    fit rule's second way: the best by ``weigh_blind``, a tie to the seat's word."""
    VM, PIPS, OPPS, PARTS, TWO, LEAVE = S[0], S[1], S[7], S[9], S[14], S[15]
    fit = LEAVE.shape[0] > 0
    best = -(1 << 62)
    k = 0
    for at in range(4):
        m = m0 if at == 0 else m1 if at == 1 else m2 if at == 2 else m3
        e_at = e0 if at == 0 else e1 if at == 1 else e2 if at == 2 else e3
        two = m & TWO[e_at] if fit else 0
        while m:
            b = m & -m
            m ^= b
            t = low_index(b)
            for way in range(2 if two & b else 1):
                v = LEAVE[way, e_at, t] if fit else PIPS[t] - e_at
                fits = 0   # the tiles meeting an end the placement leaves
                for i in range(ne):
                    e = e0 if i == 0 else e1 if i == 1 else e2 if i == 2 else e3
                    fits |= VM[v if i == at else e]
                score = _meeting(K, p, fits)
                for j in range(N):
                    q = PARTS[p, j]
                    if q < 0:
                        break
                    score += _meeting(K, q, fits)
                for j in range(N):
                    o = OPPS[p, j]
                    if o < 0:
                        break
                    score -= _meeting(K, o, fits)
                code = t << 2 | at | (FLIP if way else 0)
                if score > best:
                    best, k = score, 0
                if score == best:
                    TC[k] = code
                    k += 1
    return tied(TC, k, seed, p, N, WS)

