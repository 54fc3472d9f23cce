"""The general settlement and match end in numba: ``GeneralLoop._settle`` / ``_match_over``
for the JIT kernel, over per-seat and per-side int64 arrays.

The JIT kernel (``jit_loop``, its ``GEN`` lines) calls these between the ruleset's own
formulas (a rank, the domino and blocked points, ``every_side``, ``draw_if``, ``final``:
programs ``jit_formula.run`` evaluates); everything else a house rule of the round's or
the match's end decides arrives as a number (``jit_template.PARAMS``), so one compiled
copy of this module serves every ruleset. A ruleset without house rules never calls it
(its kernel has no ``GEN`` lines).
"""

from __future__ import annotations

from .jit import njit
from .jit_support import low_index, popcount

# blocked.winner / match.end as the kernel's codes (jit_house reads the words)
LOWEST_HAND, LOWEST_SIDE, LOWEST, HIGHEST = 0, 1, 2, 3
TIE_NOTHING, TIE_EACH, TIE_LAST, TIE_NEXT = 0, 1, 2, 3
END_POINTS, END_ROUNDS, END_ROUNDS_WON = 0, 1, 2


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


@njit(refcounts=False)   # (every round: jit.njit)
def hand_rank(V, TEAMS, R):
    """``blocked.winner: lowest_hand``: each side ranked by its lowest hand value."""
    for i in range(TEAMS.shape[0]):
        best = V[TEAMS[i, 0]]
        for s in TEAMS[i]:
            best = min(best, V[s])
        R[i] = best


@njit(refcounts=False)   # (every round: jit.njit)
def best_sides(R, sides, how, last_two, tie, last_player, after, SIDE_OF, lowest):
    """The blocked comparison (``GeneralLoop._settle``): fills ``lowest`` with the sides
    ranked best among those compared (all, or the last placer's and the next seat's),
    one when ``tie`` picks the last or next player's side (``after``: the seat that plays
    after the last placer); returns how many."""
    a = b = -1
    if last_two:
        a = SIDE_OF[last_player]
        b = SIDE_OF[after]
        if b < a:
            a, b = b, a
    best = 0
    first = True
    for i in range(sides):
        if last_two and i != a and i != b:
            continue
        if first or (R[i] > best if how == HIGHEST else R[i] < best):
            best = R[i]
            first = False
    n = 0
    for i in range(sides):
        if last_two and i != a and i != b:
            continue
        if R[i] == best:
            lowest[n] = i
            n += 1
    if n > 1 and (tie == TIE_LAST or tie == TIE_NEXT):
        seat = last_player
        if tie == TIE_NEXT:
            seat = after
        pick = SIDE_OF[seat]
        for k in range(n):
            if lowest[k] == pick:
                lowest[0] = pick
                return 1
    return n


@njit(refcounts=False)   # (every round: jit.njit)
def winner_seat(w, domino, SIDE_OF, TEAMS, V):
    """The seat that won for side ``w``: the dominoer when its side won, else the side's
    lowest hand (its first such seat)."""
    if domino >= 0 and SIDE_OF[domino] == w:
        return domino
    seat = -1
    best = 0
    for s in TEAMS[w]:
        if seat < 0 or V[s] < best:
            seat, best = s, V[s]
    return seat


@njit(refcounts=False)   # (every round: jit.njit)
def counted(points, scores, minimum, exact, target):
    """A side's round points as the match counts them: nothing below ``minimum`` while
    on 0 (``match.minimum_to_start``), nothing that overshoots (``match.exact``)."""
    for i in range(points.shape[0]):
        if minimum and scores[i] == 0 and points[i] < minimum:
            points[i] = 0
        if exact and scores[i] + points[i] > target:
            points[i] = 0


@njit(refcounts=False)   # (every round: jit.njit)
def match_over(end, lowest_wins, target, play_on, rnd, scores, rounds_won, sides):
    """``GeneralLoop._match_over`` but its ``draw_if``: (over, winning side or -1)."""
    if end == END_ROUNDS_WON:
        top = rounds_won[0]
        at = 0
        for i in range(1, sides):
            if rounds_won[i] > top:
                top, at = rounds_won[i], i
        if top >= target:
            return 1, at
        return 0, -1
    if end == END_ROUNDS:
        due = rnd >= target
    else:
        top = scores[0]
        for i in range(1, sides):
            top = max(top, scores[i])
        due = top >= target
    if not due:
        return 0, -1
    best = scores[0]
    for i in range(1, sides):
        best = min(best, scores[i]) if lowest_wins else max(best, scores[i])
    count = 0
    at = -1
    for i in range(sides):
        if scores[i] == best:
            count += 1
            at = i
    if count == 1:
        return 1, at
    if not play_on:
        return 1, -1
    return 0, -1
