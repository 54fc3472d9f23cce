"""The field kinds: which names each formula field offers, and what it must produce."""

from __future__ import annotations

from dataclasses import dataclass

from .types import BOOL, INT, PLAYER, SIDE, TILE, Type, list_of


@dataclass(frozen=True)
class FieldSpec:
    """One field kind: its names with their types, its result type, one line of help."""

    names: dict[str, Type]
    result: Type
    description: str


FIELDS: dict[str, FieldSpec] = {
    "hand_size": FieldSpec(
        {"players": INT, "max_pip": INT, "tile_count": INT}, INT,
        "tiles dealt to each player"),
    "tile_value": FieldSpec(
        {"tile": TILE}, INT,
        "what one tile left in a hand counts"),
    "scoring": FieldSpec(
        {"winner": SIDE, "opponents": list_of(SIDE), "sides": list_of(SIDE),
         "seats": list_of(PLAYER), "players": INT}, INT,
        "points the scoring side wins for a round"),
    "draw_cost": FieldSpec(
        {"players": INT}, INT,
        "points one drawn tile costs"),
    "target": FieldSpec(
        {"players": INT, "partnerships": BOOL, "side_count": INT}, INT,
        "points that win the match"),
}
