"""Duties in numba: ``engine.mechanisms.duties`` for the JIT kernel's GEN lines.

An event rule with a ``duty`` has a duty block in ``CODE`` (``jit_house._event_blocks``:
who bears it, where its ``met`` program starts, what failing costs and whether it passes
on). The kernel keeps the round's pending duties in ``DUTY``, one row each in the order
laid (the block where the rule's duty starts, the bearer, the tile that laid it), and
calls ``lay`` after a placement's events, ``met_by`` before them and ``failed`` when a
seat's turn ends; each writes its record lines (``duty``, ``duty_met``, ``duty_failed``
and a failure's ``score`` and ``draw``) into ``EVL`` (``jit_record.event_lines``; empty,
no record). The mechanism (``bearers``, ``laid_on``, ``met_by``,
``failed_at_turn_end``) and the general loop's ``_fire`` and ``_duties_failed`` stay the
truth: ``tests/test_kernel_jit_table.py`` holds ``bearers`` to the mechanism's and plays
both engines over whole matches.
"""

from __future__ import annotations

from .jit import njit
from .jit_bits import put
from .jit_events import DUTY_AT, WIDTH, fired_at, value
from .jit_formula import FACT
from .jit_record import K_DUTY, K_FAILED, K_MET, K_RULE_DRAW, K_SCORE, put_line
from .jit_support import seat_after

# a duty block in CODE: who bears it (ON_CODES), its met program (MET_TRUE, MET_FALSE: a
# constant), the points and tiles its failure costs, whether it then passes to the next
# seat, the rule's index in events (its record lines')
ON, MET, FAIL_POINTS, FAIL_DRAWS, PASSES_ON, RULE = range(6)
ON_CODES = {"next": 0, "opponents": 1, "others": 2, "partner": 3}
MET_TRUE, MET_FALSE = -1, -2
# a pending duty's row in DUTY
BLOCK, BEARER, TILE = range(3)
_FIRED, _DUTY_TILE, _SIDE = FACT["fired"], FACT["duty_tile"], FACT["side"]
_LAID, _MET, _FAILED = FACT["duties_laid"], FACT["duties_met"], FACT["duties_failed"]


@njit
def bearers(on, actor, N, right, SIDE_OF, out):
    """The seats a duty laid by ``actor`` falls on, into ``out`` in turn order from the
    seat after the actor; returns how many (``duties.bearers``)."""
    first = seat_after(actor, N, right)
    if on == 0:
        out[0] = first
        return 1
    k = 0
    seat = first
    mine = SIDE_OF[actor]
    while seat != actor:
        if on == 2 or (on == 1 and SIDE_OF[seat] != mine) or (on == 3 and SIDE_OF[seat] == mine):
            out[k] = seat
            k += 1
        seat = seat_after(seat, N, right)
    return k


@njit
def lay(CODE, at, actor, tile, N, right, SIDE_OF, DUTY, nd, F, seats, EVL):
    """The duties of the rules that fired in the action whose block is at ``CODE[at]``
    (``F``'s ``fired``: how many, listed from ``jit_events.fired_at`` on, in the block's
    order), laid on their bearers after the ``nd`` pending; the new count."""
    listed = fired_at(CODE, CODE[at])
    for j in range(F[_FIRED]):
        d = CODE[at + 1 + WIDTH * F[listed + j] + DUTY_AT]
        for i in range(bearers(CODE[d + ON], actor, N, right, SIDE_OF, seats)):
            DUTY[nd, BLOCK] = d
            DUTY[nd, BEARER] = seats[i]
            DUTY[nd, TILE] = tile
            nd += 1
            F[_LAID] += 1
            put_line(EVL, K_DUTY, seats[i], CODE[d + RULE], tile, 0)
    return nd


@njit
def met_by(CODE, F, TAB, TEAMS, sides, N, deck, stack, seat, mine, DUTY, nd, EVL):
    """The duties ``seat`` bears that its placement meets (the placement's facts already in
    ``F``), taken off ``DUTY`` in order; the new count (``duties.met_by``)."""
    F[_SIDE] = mine
    j = 0
    for i in range(nd):
        if DUTY[i, BEARER] == seat:
            c = CODE[DUTY[i, BLOCK] + MET]
            if c == MET_TRUE:
                F[_MET] += 1
                put_line(EVL, K_MET, seat, CODE[DUTY[i, BLOCK] + RULE], 0, 0)
                continue
            if c >= 0:
                F[_DUTY_TILE] = DUTY[i, TILE]
                if value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack) != 0:
                    F[_MET] += 1
                    put_line(EVL, K_MET, seat, CODE[DUTY[i, BLOCK] + RULE], 0, 0)
                    continue
        if j != i:
            DUTY[j, BLOCK], DUTY[j, BEARER], DUTY[j, TILE] = (DUTY[i, BLOCK], DUTY[i, BEARER],
                                                             DUTY[i, TILE])
        j += 1
    return j


@njit
def failed(CODE, seat, next_seat, DUTY, nd, F, SIDE_OF, scores, play, deck, pos, draw_end,
           hands, drawn_by, EVL):
    """``seat``'s turn ended with the duties it bore unmet: each fails in the order laid,
    its side scores its points and the seat draws its tiles (no more than the boneyard
    holds above its reserve), then it passes to ``next_seat`` or lapses
    (``duties.failed_at_turn_end``, ``GeneralLoop._duties_failed``); (count, deck position).
    ``hands``: a mask a seat; a set over 62 tiles' words are ``failed_words``'."""
    drew = pos
    j, pos = _failed(CODE, seat, next_seat, DUTY, nd, F, SIDE_OF, scores, play, deck, pos,
                     draw_end, drawn_by, EVL)
    for i in range(drew, pos):
        hands[seat] |= 1 << deck[i]
    return j, pos


@njit
def failed_words(CODE, seat, next_seat, DUTY, nd, F, SIDE_OF, scores, play, deck, pos,
                 draw_end, hands, drawn_by, EVL):
    """``failed`` with the hands as rows of words (``jit_bits``: a set over 62 tiles)."""
    drew = pos
    j, pos = _failed(CODE, seat, next_seat, DUTY, nd, F, SIDE_OF, scores, play, deck, pos,
                     draw_end, drawn_by, EVL)
    for i in range(drew, pos):
        put(hands, seat, deck[i])
    return j, pos


@njit
def _failed(CODE, seat, next_seat, DUTY, nd, F, SIDE_OF, scores, play, deck, pos, draw_end,
            drawn_by, EVL):
    """``failed`` but for the tiles drawn, which the caller adds to the hand (those at the
    deck's positions it passes)."""
    j = 0
    for i in range(nd):
        d = DUTY[i, BLOCK]
        if DUTY[i, BEARER] == seat:
            F[_FAILED] += 1
            rule = CODE[d + RULE]
            put_line(EVL, K_FAILED, seat, rule, next_seat if CODE[d + PASSES_ON] else -1, 0)
            pts = CODE[d + FAIL_POINTS]
            if pts:
                side = SIDE_OF[seat]
                scores[side] += pts
                play[side] += pts
                put_line(EVL, K_SCORE, seat, side, pts, rule)
            for _ in range(max(0, min(CODE[d + FAIL_DRAWS], draw_end - pos))):
                put_line(EVL, K_RULE_DRAW, seat, deck[pos], rule, 0)
                pos += 1
                drawn_by[seat] += 1
            if not CODE[d + PASSES_ON]:
                continue
            DUTY[i, BEARER] = next_seat
        if j != i:
            DUTY[j, BLOCK], DUTY[j, BEARER], DUTY[j, TILE] = d, DUTY[i, BEARER], DUTY[i, TILE]
        j += 1
    return j, pos

