"""The stock's tile turned up to start the line (``deal.turn_up``).

Some tables deal the hands, then turn the stock's first tile face up in the middle of
the table: it is the line's first tile, placed by nobody, and the round's leader plays
the first turn on it as an ordinary turn (place, draw or pass as the turn rules say).
When the deal leaves no stock (every tile dealt), nothing is turned up and the leader
opens from the hand as usual. Written once: the match loop (``engine.general_loop``)
and the rulebook (``engine.rulebook``) both ask ``turned_up`` and ``stand_in``.

The record writes it as one event after the deal, ``{"event": "turn_up", "tile": [a,
b]}`` (docs/records.md); the tile is the deal's first boneyard tile.

>>> turned_up(True, [(2, 5), (0, 0)])
(2, 5)
>>> turned_up(True, []) is None and turned_up(False, [(2, 5)]) is None
True
>>> stand_in(0, lambda s: (s + 1) % 3, 3)
2

``before_piece`` is ``stand_in`` for the JIT kernel (a kernel piece, ``engine.pieces``),
seats by number, ``RIGHT`` the direction of play; the kernel's ``GEN`` lines ask it under
the switch ``TURN_UP`` only (and ``leftover.receiver_piece`` for ``before_leader``).
``tests/test_kernel_jit_deal.py`` holds it to ``stand_in``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from ..pieces import piece
from .position import seat_after_piece

T = TypeVar("T")


def turned_up(rule: bool, stock: Sequence[T]) -> T | None:
    """The tile turned up to start the line: the stock's first, when ``deal.turn_up`` is
    set and the deal left a stock; else None (the leader opens from the hand)."""
    return stock[0] if rule and stock else None


def stand_in(leader: int, next_seat: Callable[[int], int], players: int) -> int:
    """The seat that counts as having placed the turned-up tile: the one whose next is
    the leader, so that the leader's is the first turn of play. It is the round's
    ``last_player`` until somebody places (a round blocked before any placement)."""
    for seat in range(players):
        if next_seat(seat) == leader:
            return seat
    raise ValueError("no seat plays before the leader")


@piece
def before_piece(leader: int, N: int, RIGHT: int) -> int:
    """The seat whose next (in the direction of play) is ``leader``
    (``turn_up.stand_in``, ``leftover.receiver``'s ``before_leader``)."""
    for s in range(N):
        if seat_after_piece(s, N, RIGHT) == leader:
            return s
    return -1


def record_event(tile: tuple[int, int]) -> dict:
    """The record's line for the turned-up tile."""
    return {"event": "turn_up", "tile": [tile[0], tile[1]]}
