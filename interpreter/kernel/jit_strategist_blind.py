"""The ``strategist`` bot on hidden rows (``deal.blind``) in the JIT kernel, in numba.

Under hidden rows the one choice the rules leave a seat is the end for its front tile;
``bots.strategist_fast._blind_decider`` weighs each end by ``strategy.weigh_blind``: the
tiles the rows have shown (a pass turns the front tile up, then puts it at the back) and
still hold that may meet an end then, its own and its partners' counted for, its
opponents' against. ``know_shown`` and ``know_front`` keep what the record shows of
each row in rows of ``jit_strategist``'s knowledge array past its ``KNOW_ROWS`` (row
``KNOW_ROWS + seat``: per tile, by its first copy, the times shown and not placed since,
as ``strategy.shown_rows`` keeps a list); ``choose_blind`` weighs the placements in
legal order and breaks a tie with the seat's word, as its ``random()`` would. Its sets
are ``jit_masks``' (an array and an index), so the narrow kernel and the wide one run
this one source.
``tests/test_kernel_jit_strategist_rules.py`` holds it to the Python engine.
"""

from __future__ import annotations

from .jit import njit
from .jit_masks import after, clear, has, join
from .jit_matching import FLIP
from .jit_strategist import KNOW_ROWS, tied


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
def _meeting(K, s: int, A, j: int) -> int:
    """The tiles seat ``s``'s row has shown, and still holds, among the set ``A[j]``."""
    n = 0
    row = KNOW_ROWS + s
    for i in range(K.shape[1]):
        if K[row, i] and has(A, j, i):
            n += K[row, i]
    return n


@njit
def choose_blind(p: int, M, rows, ne: int, ends, K, S, TC, seed: int, N: int, WS,
                 U) -> int:
    """Seat ``p``'s placement of its front tile (``M[rows[e]]``: the ends it fits, whose
    values ``ends[e]``, the first ``ne`` open), ``tile << 2 | end``, ``FLIP`` for a fit
    rule's second way: the best by ``weigh_blind``, a tie to the seat's word. ``U[0]``:
    scratch, the tiles meeting an end a placement leaves."""
    VM, PIPS, OPPS, PARTS, TWO, LEAVE = S[0], S[1], S[7], S[9], S[14], S[15]
    fit = LEAVE.shape[0] > 0
    best = -(1 << 62)
    k = 0
    for at in range(ne):
        e_at = ends[at]
        t = after(M, rows[at], -1)
        while t >= 0:
            for way in range(2 if fit and has(TWO, e_at, t) else 1):
                v = LEAVE[way, e_at, t] if fit else PIPS[t] - e_at
                clear(U, 0)   # the tiles meeting an end the placement leaves
                for i in range(ne):
                    join(U, 0, VM, v if i == at else ends[i])
                score = _meeting(K, p, U, 0)
                for j in range(N):
                    q = PARTS[p, j]
                    if q < 0:
                        break
                    score += _meeting(K, q, U, 0)
                for j in range(N):
                    o = OPPS[p, j]
                    if o < 0:
                        break
                    score -= _meeting(K, o, U, 0)
                code = t << 2 | at | (FLIP if way else 0)
                if score > best:
                    best, k = score, 0
                if score == best:
                    TC[k] = code
                    k += 1
            t = after(M, rows[at], t)
    return tied(TC, k, seed, p, N, WS)
