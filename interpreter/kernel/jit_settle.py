"""The general settlement's tallies in numba: ``GeneralLoop._seat_tallies`` and
``_side_tallies`` for the JIT kernel, over per-seat and per-side int64 arrays.

The rest of the settlement and the match's end are kernel pieces beside their rules
(``engine.mechanisms.settle``'s and ``match``'s ``*_piece`` functions). The tallies stay
here: they are the loop's, not a mechanism's, and walk a hand word by word through
``jit_masks`` (an int64 mask is one word, so a narrow kernel walks its bits as it always
did and a wide one counts alike), which the engine cannot import (numpy:
``tests/test_startup.py``). The JIT kernel's ``GEN`` lines call them; a ruleset
without house rules never does.
"""

from __future__ import annotations

from .jit import njit
from .jit_bits import BITS
from .jit_masks import word, words
from .jit_support import low_index


@njit(refcounts=False)   # (every round: jit.njit)
def tallies(hands, N, VALUES, PIPS, TL, TH, drawn_by, TEAMS, individual,
            P, V, C, DB, Q, SP, SV, ST, SD, SQ):
    """Every seat's pips, value, tiles, drawn and doubles (``GeneralLoop._seat_tallies``)
    and every side's sums (``_side_tallies``)."""
    for s in range(N):
        p = v = c = q = 0
        for w in range(words(hands)):
            x = word(hands, s, w)
            while x:
                b = x & -x
                x ^= b
                t = w * BITS + low_index(b)
                p += PIPS[t]
                v += VALUES[t]
                c += 1
                if TL[t] == TH[t]:
                    q += 1
        P[s] = p
        V[s] = v
        C[s] = c
        DB[s] = drawn_by[s]
        Q[s] = q
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
