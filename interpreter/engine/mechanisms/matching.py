"""Matching: does a tile fit an open end, and what does it leave open there.

A tile goes at an end by matching one of its halves to that end's value; its other
half is then open there (``docs/variants.md``: a blank matches only a blank).

>>> fits((2, 5), 5), fits((2, 5), 3), left_open((2, 5), 5)
(True, False, 2)
"""

from __future__ import annotations

Tile = tuple[int, int]


def fits(tile: Tile, value: int) -> bool:
    """Whether one half of ``tile`` matches an end showing ``value``."""
    return value in tile


def left_open(tile: Tile, value: int) -> int:
    """The half of ``tile`` left open after it matched ``value`` with its other half."""
    low, high = tile
    return high if low == value else low


def is_double(tile: Tile) -> bool:
    return tile[0] == tile[1]
