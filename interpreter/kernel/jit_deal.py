"""The deal's mechanisms on the JIT, in numba: the tiles left over given to a seat
(``deal.leftover``) and the stock's tile turned up to start the line (``deal.turn_up``).

Each is ``engine.mechanisms.leftover`` or ``engine.mechanisms.turn_up`` over the kernel's
arrays (hands as bit masks, the deck as tile indexes, seats by number), held to them by
``tests/test_kernel_jit_deal.py``. The ``GEN`` lines of ``jit_loop`` call them only
when the ruleset's switch (``LEFT_TO``, ``TURN_UP``: ``jit_house.params``) is on, so a
ruleset without them pays one test of a constant a round.
"""

from __future__ import annotations

from .jit import njit
from .jit_strategist import BOARD
from .jit_support import seat_after

# deal.leftover as a code (LEFT_TO): set aside, to the leader, to the seat before the leader
LEFT_BONEYARD, LEFT_LEADER, LEFT_BEFORE_LEADER = 0, 1, 2
LEFTOVER_CODES = {"boneyard": LEFT_BONEYARD, "leader": LEFT_LEADER,
                  "before_leader": LEFT_BEFORE_LEADER}


@njit
def before(leader: int, N: int, RIGHT: int) -> int:
    """The seat whose next (in the direction of play) is ``leader``
    (``turn_up.stand_in``, ``leftover.receiver``'s ``before_leader``)."""
    for s in range(N):
        if seat_after(s, N, RIGHT) == leader:
            return s
    return -1


@njit
def receiver(code: int, leader: int, N: int, RIGHT: int) -> int:
    """The seat the tiles left over go to, or -1 when they stay out of play
    (``leftover.receiver``)."""
    if code == LEFT_LEADER:
        return leader
    if code == LEFT_BEFORE_LEADER:
        return before(leader, N, RIGHT)
    return -1


@njit
def give_leftover(hands, deck, dealt: int, T: int, seat: int) -> int:
    """The tiles after the hands' ``deck[dealt:]`` into ``seat``'s hand: the tiles now
    dealt (``GeneralLoop._leftover``)."""
    h = hands[seat]
    for i in range(dealt, T):
        h |= 1 << deck[i]
    hands[seat] = h
    return T


@njit
def know_turn_up(K, t: int) -> None:
    """The strategist's record read of the turned-up tile: on the board, led by nobody
    (``strategist_fast``'s ``turn_up`` event)."""
    K[BOARD, 0] |= 1 << t
