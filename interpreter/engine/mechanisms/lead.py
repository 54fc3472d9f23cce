"""Who leads a round: every ``lead.first`` / ``lead.later`` choice and the lead formula.

From the schema's description of ``lead``. A lot, a tile drawn from a full set and
exposed tiles are chance: a record's choice is accepted when it names a seat.
"""

from __future__ import annotations

from .environment import lead_names
from .matching import is_double
from .position import Position

BY_CHANCE = ("lot", "draw_highest_tile", "exposed_tiles")


def choice_for(pos: Position) -> str:
    """The lead choice of the round being dealt (``formula`` for a lead formula)."""
    return pos.rules.first_leader if pos.round == 1 else pos.rules.later_leader


def highest_double_holder(pos: Position) -> int | None:
    """The seat dealt the highest double, or None when no hand holds a double."""
    best = None
    for seat, hand in enumerate(pos.hands):
        for tile in hand:
            if is_double(tile) and (best is None or tile > best[0]):
                best = (tile, seat)
    return None if best is None else best[1]


def holder_of(pos: Position, tile: tuple[int, int]) -> int | None:
    return next((s for s, hand in enumerate(pos.hands) if tile in hand), None)


def leader(pos: Position, choice: str, opening_tile) -> int | None:
    """The seat the (not chance) choice names for the dealt hands; None when it names
    nobody (no double for ``highest_double``, the tile unheld for its holder)."""
    prev = pos.previous
    if choice == "seat_zero":
        return 0
    if choice == "rotate":
        return pos.next_seat(prev.leader)
    if choice == "same":
        return prev.leader
    if choice == "winner":
        return prev.leader if prev.winner_seat is None else prev.winner_seat
    if choice == "formula":
        return formula_leader(pos)
    if choice == "highest_double":
        return highest_double_holder(pos)
    if choice == "opening_tile_holder":
        return holder_of(pos, opening_tile)
    raise ValueError(f"unknown lead choice {choice!r}")


def formula_leader(pos: Position) -> int:
    """``lead.later`` as a formula, taken modulo the player count."""
    prev = pos.previous
    env = lead_names(pos, leader=prev.leader, winner_seat=prev.winner_seat,
                     winner_side=prev.winner_side, last_player=prev.last_player,
                     last_side=None if prev.last_player is None
                     else pos.side_of(prev.last_player),
                     blocked=prev.blocked, seats=prev.seats, sides=prev.sides)
    return pos.rules.later_leader_formula(env) % pos.players
