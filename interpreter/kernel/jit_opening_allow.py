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
A hand is an array and an index (``jit_masks``: one int64 mask each, or a row of words on
a set over 62 tiles), the tiles allowed go to a row of a scratch array (``M, row``; a
hand grown by draws or a lone tile to another, ``S, srow``), so the narrow kernel and the
wide one run these same functions. ``tests/test_kernel_jit_turns.py`` holds these to the
loop's methods.
"""

from __future__ import annotations

from .jit import njit
from .jit_formula import FACT, run
from .jit_gen_wide import OPEN_SET
from .jit_masks import after, clear, copy, has, nonempty, put, put_fact
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
    tile_alone,
)
from .jit_support import seat_after

_TILE, _HAND = FACT["tile"], FACT["hand"]


@njit
def allowed_of(M, row, A, i, CODE, at, F, TAB, TEAMS, sides, N, deck, stack):
    """``M[row]`` = the tiles of the hand ``A[i]`` the ``allow`` program at ``at`` accepts
    (``GeneralLoop._allowed``: the hand as ``hand``, each of its tiles as ``tile``; the
    round and the players are F's facts already); 1 when it holds one, else 0."""
    put_fact(F, _HAND, 0, A, i)
    clear(M, row)
    t = after(A, i, -1)
    while t >= 0:
        F[_TILE] = t
        if run(CODE, at, F, TAB, TEAMS, sides, N, deck, stack):
            put(M, row, t)
        t = after(A, i, t)
    return nonempty(M, row)


@njit
def _held(M, row):
    """The opening's tiles once ``M[row]`` holds those allowed: a narrow kernel's mask, a
    wide one's ``OPEN_SET`` (``jit_opening.open_round``: the row read as they are)."""
    if M.ndim == 1:
        return M[row]
    return OPEN_SET


@njit
def open_any(at, unheld, lacking, hands, leader, deck, DEALT, DRAW_END, N, HEAVY, right,
             CODE, F, TAB, TEAMS, sides, stack, M, row, S, srow):
    """``GeneralLoop._open`` for ``opening.tile: any`` with the ``allow`` program at
    ``at``: (opener or -1 for a redeal, opening tiles, free, seek, seek mask), as
    ``jit_opening.open_round`` returns them for either width, the tiles allowed in
    ``M[row]``; a seek's mask is -1, the drawer's hand being asked again after each draw
    (``allowed_of``); ``S[srow]``: scratch."""
    if allowed_of(M, row, hands, leader, CODE, at, F, TAB, TEAMS, sides, N, deck, stack):
        return leader, _held(M, row), 1, SEEK_NONE, 0
    if lacking == LACKING_PASS_ON:
        s = seat_after(leader, N, right)
        while s != leader:
            if allowed_of(M, row, hands, s, CODE, at, F, TAB, TEAMS, sides, N, deck, stack):
                return s, _held(M, row), 1, SEEK_NONE, 0
            s = seat_after(s, N, right)
    elif lacking == LACKING_DRAW:
        if DEALT < DRAW_END:   # the leader draws until holding one, or the boneyard is out
            if unheld == UNHELD_HEAVIEST or draws_one(hands, leader, deck, DEALT, DRAW_END,
                                                      CODE, at, F, TAB, TEAMS, sides, N,
                                                      stack, M, row, S, srow):
                return leader, 0, 0, SEEK_LEADER, -1
            return -1, 0, 0, SEEK_OUT, 0   # drawn out in vain: the deal is thrown in
    else:
        return -1, 0, 0, SEEK_NONE, 0
    # nobody holds, or can draw, an allowed tile
    if unheld == UNHELD_HEAVIEST:
        seat, t = heaviest(hands, N, HEAVY)
        return seat, tile_alone(hands, t), 0, SEEK_NONE, 0
    if unheld == UNHELD_DRAW_IN_TURN:
        for i in range(DEALT, DRAW_END):   # a boneyard tile allowed alone in a hand
            clear(S, srow)
            put(S, srow, deck[i])
            if allowed_of(M, row, S, srow, CODE, at, F, TAB, TEAMS, sides, N, deck, stack):
                return leader, 0, 0, SEEK_TURNS, -1
    return -1, 0, 0, SEEK_NONE, 0


@njit
def draws_one(hands, leader, deck, DEALT, DRAW_END, CODE, at, F, TAB, TEAMS, sides, N,
              stack, M, row, S, srow):
    """``GeneralLoop._draws_one``: whether the leader draws an allowed tile from the
    boneyard, its hand (a copy in ``S[srow]``) growing by each tile drawn."""
    copy(S, srow, hands, leader)
    for i in range(DEALT, DRAW_END):
        t = deck[i]
        put(S, srow, t)
        allowed_of(M, row, S, srow, CODE, at, F, TAB, TEAMS, sides, N, deck, stack)
        if has(M, row, t):
            return True
    return False
