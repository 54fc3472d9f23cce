"""Hidden hands (``deal.blind``): each hand lies face down in a row its owner cannot see,
played from the front in a fixed order (a game of the Draw family plays so).

At a turn the player turns up the row's front tile. If it fits an open end it is placed
(the player chooses the end when it fits more than one); if not, it is shown, turned
face down again and put at the back of the row, and the turn passes. The round's first
tile is the leader's front tile (or a tile turned up from the stock, ``deal.turn_up``).
Nobody draws. A seat that fails with its front tile while some tile of its row fits is
not stuck: the round is blocked only when no tile of any row fits (then no row can ever
bring one to the front), so such a turn is no stuck pass; and no turn of a row counts as
an idle turn of the table (a stuck seat passing again and again would otherwise block
the round while another row still works its way to a fitting tile). Written once: the
match loop (``engine.general_loop``) and the rulebook (``engine.rulebook``, through
``turn.legal_actions``) both ask this module.

The record lists each hand in row order (front first) in the ``deal`` line, and a turn
whose front tile does not fit is a ``pass`` carrying that ``tile`` (docs/records.md).

The ``*_piece`` functions are the same rows for the JIT kernel (kernel pieces,
``engine.pieces``): each seat's row a ring in ``ROWS[seat]``, its front at ``head[seat]``,
``count[seat]`` tiles long; the kernel's ``GEN`` lines ask them under the switch ``BLIND``
only. ``tests/test_kernel_jit_deal.py`` holds them to the functions above.

>>> row = [(1, 2), (3, 4), (5, 5)]
>>> front(row)
(1, 2)
>>> to_back(row); row
[(3, 4), (5, 5), (1, 2)]
>>> counts_as_stuck(False), counts_as_stuck(True)
(False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ..pieces import piece

T = TypeVar("T")


def front(row: Sequence[T]) -> T:
    """The tile the player turns up this turn: the row's first."""
    return row[0]


def to_back(row: list[T]) -> None:
    """A front tile that does not fit goes face down to the back of the row."""
    row.append(row.pop(0))


def only_front(row: Sequence[T], placements: list, tile_of) -> list:
    """The placements of the front tile alone, out of every placement of the row
    (``tile_of(placement)`` names a placement's tile)."""
    first = row[0]
    return [a for a in placements if tile_of(a) == first]


def counts_as_stuck(no_tile_fits: bool) -> bool:
    """A failed front tile marks the seat stuck (and the turn idle) only when no tile of
    its row fits: otherwise a later turn brings a fitting one to the front."""
    return no_tile_fits


def rows_of(deck: Sequence[int], players: int, size: int) -> list[list[int]]:
    """The rows as dealt: seat ``s`` holds ``deck[s * size:(s + 1) * size]`` in order."""
    return [list(deck[s * size:(s + 1) * size]) for s in range(players)]


@piece
def rows_of_piece(deck, N: int, size: int, ROWS, head, count) -> None:
    """``rows_of`` into the kernel's rings: seat ``s`` holds ``deck[s * size:(s + 1) *
    size]`` in order, front first."""
    for s in range(N):
        for i in range(size):
            ROWS[s, i] = deck[s * size + i]
        head[s] = 0
        count[s] = size


@piece
def front_piece(ROWS, head, s: int) -> int:
    """``front``: the tile seat ``s`` turns up this turn, its ring's first."""
    return ROWS[s, head[s]]


@piece
def pop_front_piece(ROWS, head, count, s: int) -> None:
    """The front tile was placed: the ring goes on from the next (the loop's
    ``row.pop(0)``)."""
    head[s] = head[s] + 1 if head[s] + 1 < ROWS.shape[1] else 0
    count[s] -= 1


@piece
def to_back_piece(ROWS, head, count, s: int) -> None:
    """``to_back``: a front tile that does not fit goes face down to the ring's back."""
    size = ROWS.shape[1]
    back = head[s] + count[s]
    ROWS[s, back - size if back >= size else back] = ROWS[s, head[s]]
    head[s] = head[s] + 1 if head[s] + 1 < size else 0
