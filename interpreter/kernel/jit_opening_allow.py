"""An opening condition reading the hand, or the round of a match of no fixed length, on
the JIT: ``GeneralLoop._allowed`` and ``_open`` (``opening.tile: any``) in numba.

An ``allow`` reading only the tile, the players and the round of a fixed number of rounds
is a tile mask (``jit_opening``: ``O1_AMASK``, or one a round at ``O_ROUNDS``). One reading
the seat's hand (``count(hand, t -> t.is_double) > 1``), or the round of a match of any
length, is a program (``jit_formula``) asked of each tile of a hand as the loop asks it:
the leader's, each seat's in turn when the opening passes on, the leader's growing hand
as it draws (``_draws_one``), a lone boneyard tile before players draw in turn for one,
and the drawer's hand after each draw of a seek. ``jit_house`` lays the two rounds'
programs out at ``O_ALLOW`` in ``CODE`` (the first round's start, the later rounds'; -1:
no ``allow``, every tile opens); the ``GEN`` lines of ``jit_loop`` ask here only when
``O_ALLOW`` is set, so a ruleset without it pays a test a round.
``tests/test_kernel_jit_turns.py`` holds these to the loop's methods.
"""

from __future__ import annotations

from .jit import njit
from .jit_formula import FACT, run
from .jit_opening import (
    LACKING_DRAW,
    LACKING_PASS_ON,
    SEEK_LEADER,
    SEEK_NONE,
    SEEK_OUT,
    SEEK_TURNS,
    UNHELD_DRAW_IN_TURN,
    UNHELD_HEAVIEST,
    heaviest,
)
from .jit_support import low_index, seat_after

_TILE, _HAND = FACT["tile"], FACT["hand"]


@njit
def allowed_of(h, CODE, at, F, TAB, TEAMS, sides, N, deck, stack):
    """The tiles of the hand ``h`` the ``allow`` program at ``at`` accepts
    (``GeneralLoop._allowed``: the hand as ``hand``, each of its tiles as ``tile``; the
    round and the players are F's facts already)."""
    F[_HAND] = h
    keep = 0
    m = h
    while m:
        b = m & -m
        m ^= b
        F[_TILE] = low_index(b)
        if run(CODE, at, F, TAB, TEAMS, sides, N, deck, stack):
            keep |= b
    return keep


@njit
def open_any(at, unheld, lacking, hands, leader, deck, DEALT, DRAW_END, N, HEAVY, right,
             CODE, F, TAB, TEAMS, sides, stack):
    """``GeneralLoop._open`` for ``opening.tile: any`` with the ``allow`` program at
    ``at``: (opener or -1 for a redeal, opening mask, free, seek, seek mask), as
    ``jit_opening.open_round`` returns them; a seek's mask is -1, the drawer's hand being
    asked again after each draw (``allowed_of``)."""
    allowed = allowed_of(hands[leader], CODE, at, F, TAB, TEAMS, sides, N, deck, stack)
    if allowed:
        return leader, allowed, 1, SEEK_NONE, 0
    if lacking == LACKING_PASS_ON:
        s = seat_after(leader, N, right)
        while s != leader:
            allowed = allowed_of(hands[s], CODE, at, F, TAB, TEAMS, sides, N, deck, stack)
            if allowed:
                return s, allowed, 1, SEEK_NONE, 0
            s = seat_after(s, N, right)
    elif lacking == LACKING_DRAW:
        if DEALT < DRAW_END:   # the leader draws until holding one, or the boneyard is out
            if unheld == UNHELD_HEAVIEST or draws_one(hands[leader], deck, DEALT, DRAW_END,
                                                      CODE, at, F, TAB, TEAMS, sides, N,
                                                      stack):
                return leader, 0, 0, SEEK_LEADER, -1
            return -1, 0, 0, SEEK_OUT, 0   # drawn out in vain: the deal is thrown in
    else:
        return -1, 0, 0, SEEK_NONE, 0
    # nobody holds, or can draw, an allowed tile
    if unheld == UNHELD_HEAVIEST:
        seat, t = heaviest(hands, N, HEAVY)
        return seat, 1 << t, 0, SEEK_NONE, 0
    if unheld == UNHELD_DRAW_IN_TURN:
        for i in range(DEALT, DRAW_END):   # a boneyard tile allowed alone in a hand
            if allowed_of(1 << deck[i], CODE, at, F, TAB, TEAMS, sides, N, deck, stack):
                return leader, 0, 0, SEEK_TURNS, -1
    return -1, 0, 0, SEEK_NONE, 0


@njit
def draws_one(h, deck, DEALT, DRAW_END, CODE, at, F, TAB, TEAMS, sides, N, stack):
    """``GeneralLoop._draws_one``: whether a leader holding ``h`` draws an allowed tile
    from the boneyard, its hand growing by each tile drawn."""
    for i in range(DEALT, DRAW_END):
        t = deck[i]
        h |= 1 << t
        if allowed_of(h, CODE, at, F, TAB, TEAMS, sides, N, deck, stack) >> t & 1:
            return True
    return False
