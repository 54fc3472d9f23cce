"""Declarations and the showdown in numba: ``engine.mechanisms.declarations`` for the JIT
kernel's GEN lines, function for function (``asked``, ``count``, ``worth``, ``fixed``,
``uniform``, ``outcome``, ``lead_of``, ``penalties``).

``declare_code.block`` lays a ruleset's declarations out in the kernel's ``CODE`` (each
formula a ``jit_formula`` program); these functions read it. The GEN lines ask them at
the moments the general loop asks the mechanism, so the mechanism stays the one truth:
``tests/test_kernel_jit_declare.py`` holds each function to it on random positions and
every builtin ruleset using them to the Python engine's matches. A hand is an array and
an index (``jit_masks``: one int64 mask each, or a row of words on a set over 62 tiles),
so the narrow kernel and the wide one run these same functions.
"""

from __future__ import annotations

from .declare_code import (
    AT,
    CHOICES,
    CLAIMS,
    DRAW,
    DUE,
    EACH,
    INDEX,
    LEAD,
    ROW,
    SCORE,
    SETS,
    SETS_AT,
    VALUE,
    WORTH,
)
from .jit import njit
from .jit_events import value
from .jit_formula import FACT
from .jit_masks import put, put_fact
from .jit_record import CLAIM_POINTS, K_CLAIM, K_DECL_DRAW, K_DECLARE, K_PENALTY, put_line
from .jit_strategist import seat_word
from .jit_support import _mod

_SEAT, _HAND, _CLAIMED, _WORTH, _RENEGED, _PLAYERS, _SIDE, _BONEYARD, _HANDED, _VARS = (
    FACT["seat"], FACT["hand"], FACT["claimed"], FACT["worth"], FACT["reneged"],
    FACT["players"], FACT["side"], FACT["boneyard"], FACT["leads_handed"], len(FACT))


@njit
def asked(CODE, at, F, TAB, TEAMS, sides, N, deck, stack):
    """``declarations.asked``: the declarations of the moment at ``CODE[at]`` due now, a
    bit each (every ``due`` read once, before any of them is chosen)."""
    due = 0
    for j in range(CODE[at]):
        c = CODE[CODE[at + 1 + j] + DUE]
        if c < 0 or value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack) != 0:
            due |= 1 << j
    return due


@njit
def count(CODE, d):
    """``len(declarations.texts(decl))``: the choices of the declaration at ``d``."""
    return CODE[d + CHOICES]


@njit
def worth(CODE, d, F, TAB, TEAMS, sides, N, deck, stack):
    """``declarations.worth``: what the placement is truly worth (0 without a worth)."""
    c = CODE[d + WORTH]
    return value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack) if c >= 0 else 0


@njit
def fixed(CODE, d, F, TAB, TEAMS, sides, N, deck, stack):
    """``declarations.fixed``: the claim of the true worth (else the largest below it,
    else the first); the option of highest value, the first listed on a tie."""
    n = CODE[d + CHOICES]
    first = CODE[d + AT]
    if CODE[d + CLAIMS]:
        true = worth(CODE, d, F, TAB, TEAMS, sides, N, deck, stack)
        pick = -1
        for k in range(n):
            c = CODE[first + k]
            if c <= true and (pick < 0 or c > CODE[first + pick]):
                pick = k
        return pick if pick >= 0 else 0
    pick = 0
    best = 0
    for k in range(n):
        c = CODE[first + ROW * k + VALUE]
        v = value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack) if c >= 0 else 0
        if k == 0 or v > best:
            best, pick = v, k
    return pick


@njit
def uniform(CODE, d, word):
    """``declarations.uniform``: the ``random`` bot's pick from a 32-bit word."""
    return (word * CODE[d + CHOICES]) >> 32


@njit
def lead_of(CODE, row, F, TAB, TEAMS, sides, N, deck, stack):
    """``declarations.lead_of``: the seat option ``row`` hands the first tile to (its
    lead, modulo the players), or -1: the chooser keeps it."""
    c = CODE[row + LEAD]
    if c < 0:
        return -1
    return _mod(value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack), F[_PLAYERS])


@njit
def outcome(CODE, d, k, F, TAB, TEAMS, sides, N, deck, stack, mine, scores):
    """``declarations.outcome``, applied as the general loop's ``_declared`` applies it:
    option ``k``'s variables (every value from those before the choice) or the claim's
    points to ``scores`` (``mine``: the claimer's side); returns (the seat the option
    hands the first tile to or -1, the tiles its chooser draws at once)."""
    first = CODE[d + AT]
    if not CODE[d + CLAIMS]:
        row = first + ROW * k
        n = CODE[row + SETS]
        pairs = CODE[row + SETS_AT]
        top = stack.shape[0] - 1   # (kept at the stack's top: the programs leave it room)
        for j in range(n):
            stack[top - j] = value(CODE, CODE[pairs + 2 * j + 1], F, TAB, TEAMS, sides, N,
                                   deck, stack)
        lead = lead_of(CODE, row, F, TAB, TEAMS, sides, N, deck, stack)
        for j in range(n):
            F[_VARS + CODE[pairs + 2 * j]] = stack[top - j]
        return lead, CODE[row + DRAW]
    claimed = CODE[first + k]
    true = worth(CODE, d, F, TAB, TEAMS, sides, N, deck, stack)
    F[_CLAIMED], F[_WORTH] = claimed, true
    c = CODE[d + SCORE]
    if c >= 0:
        gain = value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack)
    else:
        gain = true if claimed == true else 0
    c = CODE[d + EACH]
    theirs = value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack) if c >= 0 else 0
    for s in range(sides):
        scores[s] += gain if s == mine else theirs
    return -1, 0


@njit
def penalties(CODE, at, reneged, F, TAB, TEAMS, sides, N, deck, stack, SIDE_OF, scores,
              EVL):
    """``declarations.penalties``, applied: every seat that passed while able to place
    pays ``penalty`` and every other side gains ``each_opponent``, in seat order, each a
    ``penalty`` line in ``EVL`` (``jit_record.declared_lines``); returns how many seats
    were found out."""
    shown = 0
    for seat in range(N):
        n = reneged[seat]
        if not n:
            continue
        shown += 1
        F[_SEAT], F[_RENEGED] = seat, n
        c = CODE[at]
        pay = value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack) if c >= 0 else 0
        c = CODE[at + 1]
        gain = value(CODE, c, F, TAB, TEAMS, sides, N, deck, stack) if c >= 0 else 0
        mine = SIDE_OF[seat]
        for s in range(sides):
            scores[s] += -pay if s == mine else gain
        put_line(EVL, K_PENALTY, seat, n, pay, gain)
    return shown


@njit
def _pick(CODE, d, F, TAB, TEAMS, sides, N, deck, stack, seat, by_word, seed, WS):
    """``GeneralLoop._declare_pick``: the uniform pick on the seat's next word (the
    ``random`` bot), else the fixed policy."""
    if by_word:
        return uniform(CODE, d, seat_word(seed, seat, N, WS))
    return fixed(CODE, d, F, TAB, TEAMS, sides, N, deck, stack)


@njit
def _chosen(EVL, CODE, d, k, seat, mine, before_mine, before_other, F, scores):
    """The record's line of seat ``seat``'s choice ``k`` of the declaration at ``d``, just
    applied (``declarations.event``), into ``EVL``: a ``declare``, or a ``claim`` with its
    worth and what it gave (the scores' change: ``before_mine`` the claimer's side's
    before, ``before_other`` another side's)."""
    if EVL.shape[0] == 0:
        return
    if not CODE[d + CLAIMS]:
        put_line(EVL, K_DECLARE, seat, CODE[d + INDEX], k, 0)
        return
    put_line(EVL, K_CLAIM, seat, CODE[d + INDEX], k, F[_WORTH])
    other = 1 if mine == 0 else 0
    put_line(EVL, CLAIM_POINTS, seat, scores[mine] - before_mine,
             scores[other] - before_other, 0)


@njit
def round_start(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, leader, hands, SIDE_OF,
                scores, by_word, seed, WS, EVL):
    """``GeneralLoop.run`` once the deal stands: the leader chooses each declaration of
    ``round_start`` in turn; returns (the leader then, whether an option's lead named
    it: that seat then sets the first tile), a lead that moves it counted in
    ``leads_handed``. ``by_word``: a bit per seat picking by its words (``random``); each
    choice's line into ``EVL``."""
    handed = False
    for j in range(CODE[at]):
        d = CODE[at + 1 + j]
        F[_SEAT] = leader
        put_fact(F, _HAND, 0, hands, leader)
        k = _pick(CODE, d, F, TAB, TEAMS, sides, N, deck, stack, leader,
                  (by_word >> leader) & 1, seed, WS)
        mine = SIDE_OF[leader]
        other = 1 if mine == 0 else 0
        before_mine, before_other = scores[mine], scores[other]
        lead = outcome(CODE, d, k, F, TAB, TEAMS, sides, N, deck, stack, mine, scores)[0]
        _chosen(EVL, CODE, d, k, leader, mine, before_mine, before_other, F, scores)
        if lead >= 0:
            if lead != leader:
                F[_HANDED] += 1
            leader, handed = lead, True
    return leader, handed


@njit
def after_place(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, p, hands, SIDE_OF, scores,
                by_word, seed, WS, pos, draw_end, drawn_by, EVL):
    """``GeneralLoop.run`` after a placement and its events (the placement's event
    facts already in ``F``): each declaration of ``after_place`` due, chosen by the
    placer, and the tiles an option makes it draw at once (``events.tiles_taken``), their
    lines into ``EVL``; returns the deck's position after them."""
    T = deck.shape[0]
    F[_SIDE], F[_SEAT] = SIDE_OF[p], p
    put_fact(F, _HAND, 0, hands, p)
    due = asked(CODE, at, F, TAB, TEAMS, sides, N, deck, stack)
    for j in range(CODE[at]):
        if not (due >> j) & 1:
            continue
        d = CODE[at + 1 + j]
        put_fact(F, _HAND, 0, hands, p)
        F[_BONEYARD] = T - pos
        k = _pick(CODE, d, F, TAB, TEAMS, sides, N, deck, stack, p, (by_word >> p) & 1,
                  seed, WS)
        mine = SIDE_OF[p]
        other = 1 if mine == 0 else 0
        before_mine, before_other = scores[mine], scores[other]
        draws = outcome(CODE, d, k, F, TAB, TEAMS, sides, N, deck, stack, mine, scores)[1]
        _chosen(EVL, CODE, d, k, p, mine, before_mine, before_other, F, scores)
        for _ in range(max(0, min(draws, draw_end - pos))):
            t = deck[pos]
            pos += 1
            put(hands, p, t)
            drawn_by[p] += 1
            put_line(EVL, K_DECL_DRAW, p, t, CODE[d + INDEX], 0)
    return pos

