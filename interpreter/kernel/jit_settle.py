"""The general settlement's tallies in numba: ``GeneralLoop._seat_tallies`` and
``_side_tallies`` for the JIT kernel, over per-seat and per-side int64 arrays.

The rest of the settlement and the match's end are kernel pieces beside their rules
(``engine.mechanisms.settle``'s and ``match``'s ``*_piece`` functions). The tallies stay
here: they are the loop's, not a mechanism's, and count a hand's bits with the kernels'
``jit_support.popcount`` and ``low_index``, whose int64 constants are numpy's (the
engine imports no numpy: ``tests/test_startup.py``). The JIT kernel's ``GEN`` lines call
them; a ruleset without house rules never does.
"""

from __future__ import annotations

from .jit import njit
from .jit_support import low_index, popcount


@njit(refcounts=False)   # (every round: jit.njit)
def tallies(hands, N, VALUES, PIPS, DOUBLES_MASK, drawn_by, TEAMS, individual,
            P, V, C, DB, Q, SP, SV, ST, SD, SQ):
    """Every seat's pips, value, tiles, drawn and doubles (``GeneralLoop._seat_tallies``)
    and every side's sums (``_side_tallies``)."""
    for s in range(N):
        h = hands[s]
        p = v = 0
        while h:
            b = h & -h
            h ^= b
            t = low_index(b)
            p += PIPS[t]
            v += VALUES[t]
        P[s] = p
        V[s] = v
        C[s] = popcount(hands[s])
        DB[s] = drawn_by[s]
        Q[s] = popcount(hands[s] & DOUBLES_MASK)
    if individual:
        for s in range(N):
            SP[s], SV[s], ST[s], SD[s], SQ[s] = P[s], V[s], C[s], DB[s], Q[s]
        return
    for i in range(TEAMS.shape[0]):
        SP[i] = SV[i] = ST[i] = SD[i] = SQ[i] = 0
        for s in TEAMS[i]:
            SP[i] += P[s]
            SV[i] += V[s]
            ST[i] += C[s]
            SD[i] += DB[s]
            SQ[i] += Q[s]
