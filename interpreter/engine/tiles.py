"""Tiles as values, and the per-set tables the hot loop reads instead of tiles.

A ``Tile`` is what people and records see; inside a match a tile is its index in
the set (``(low, high)`` in ascending order) and a hand is an ``int`` bitmask of
indices, so "which of my tiles fit an end" is one ``&`` with a precomputed mask.

This is the one place that parses tiles (every spelling: ``6-4`` in examples and at
the table, ``[6|4]`` in a ruleset's ``opening.tile``, ``[4, 6]`` in records), counts
a set's tiles and says whether a tile is in a set.

>>> Tile(6, 4) == Tile(4, 6), str(Tile(4, 6))
(True, '6-4')
>>> TileSet(6).tile_count, tile_count(6), in_set(Tile(7, 1), 6)
(28, 28, False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .mechanisms.set_tiles import set_tiles

# ASCII digits only, as the schema's tile patterns: "٣-٤" is no tile
_TILE_RE = re.compile(r"^\s*\[?\s*(\d+)\s*[-|,]\s*(\d+)\s*\]?\s*$", re.ASCII)


@dataclass(frozen=True, order=True)
class Tile:
    """One domino; ``Tile(6, 4) == Tile(4, 6)``. Text form: high half first (``6-4``)."""

    low: int
    high: int

    def __post_init__(self) -> None:
        if self.low > self.high:
            low, high = self.high, self.low
            object.__setattr__(self, "low", low)
            object.__setattr__(self, "high", high)

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def to_json(self) -> list[int]:
        """The record's form: ``[low, high]``."""
        return [self.low, self.high]

    @classmethod
    def parse(cls, text: str) -> Tile:
        """``"6-4"``, ``"4-6"``, ``"[4|6]"`` or ``"4,6"`` -> ``Tile(4, 6)``, else ValueError."""
        m = _TILE_RE.match(text)
        if not m:
            raise ValueError(f"'{text}' is not a tile: write it like 6-4")
        return cls(int(m.group(1)), int(m.group(2)))

    @classmethod
    def of(cls, value: Tile | str | tuple[int, int] | list[int]) -> Tile:
        """Any of the usual spellings of a tile -> ``Tile``."""
        if isinstance(value, Tile):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        a, b = value
        return cls(int(a), int(b))


def parse_tiles(text: str) -> list[Tile]:
    """``"6-4 3-3"`` -> two tiles; ``""`` -> none."""
    return [Tile.parse(part) for part in text.split()]


def parse_pair(text: str) -> tuple[int, int]:
    """A tile's text -> ``(low, high)``, the form formulas and ``Rules`` hold.

    >>> parse_pair("[6|4]"), parse_pair("4-6")
    ((4, 6), (4, 6))
    """
    tile = Tile.parse(text)
    return (tile.low, tile.high)


def tile_count(max_pip: int) -> int:
    """Tiles in a double-``max_pip`` set: one for each pair of values, doubles included."""
    return (max_pip + 1) * (max_pip + 2) // 2


def set_pairs(max_pip: int) -> list[tuple[int, int]]:
    """Every tile of the double-``max_pip`` set as ``(low, high)``, in the set's index order.

    >>> set_pairs(1)
    [(0, 0), (0, 1), (1, 1)]
    """
    return [(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)]


def in_set(tile: Tile | tuple[int, int], max_pip: int) -> bool:
    """Whether ``tile`` belongs to the double-``max_pip`` set (both halves 0 to ``max_pip``)."""
    low, high = sorted(tile) if isinstance(tile, tuple) else (tile.low, tile.high)
    return 0 <= low and high <= max_pip


def not_in_set(written: str, max_pip: int) -> str:
    """The one wording of a tile outside the set, naming it as the input wrote it.

    >>> not_in_set("tile 3-9", 6)
    'tile 3-9 is not in a double-6 set'
    """
    return f"{written} is not in a double-{max_pip} set"


class TileSet:
    """The double-N set, less any tiles the ruleset takes out (``removed``), each tile
    ``copies`` times (``set.copies``: two sets shuffled together), and its lookup tables
    (built once per ruleset). Indices count the tiles in play only, so the deal, the
    boneyard and every mask see the smaller (or doubled) set.

    With two copies a tile's copies sit side by side (indices ``2k`` and ``2k + 1``), so
    a hand lists in the set's order, each name twice when both are held; ``index`` names
    the first copy, and a name at the table means the lowest copy the player holds
    (``held_index``). With one copy every table is exactly the single set's.

    >>> ts = TileSet(1, copies=2)
    >>> [str(t) for t in ts.tiles], ts.mask(["1-0", "0-1"]), ts.canonical(0b001100)
    (['0-0', '0-0', '1-0', '1-0', '1-1', '1-1'], 12, 4)
    """

    def __init__(self, max_pip: int, removed: tuple[tuple[int, int], ...] = (),
                 copies: int = 1):
        self.max_pip = max_pip
        self.removed = removed
        self.copies = copies
        self.tiles: tuple[Tile, ...] = tuple(Tile(a, b)
                                             for a, b in set_tiles(max_pip, removed, copies))
        self.tile_count = len(self.tiles)
        self.index: dict[Tile, int] = {}
        for i, t in enumerate(self.tiles):
            self.index.setdefault(t, i)
        self.low = tuple(t.low for t in self.tiles)
        self.high = tuple(t.high for t in self.tiles)
        self.pips = tuple(t.pips for t in self.tiles)
        # value_mask[v]: every tile with a half showing v
        self.value_mask = tuple(
            sum(1 << i for i, t in enumerate(self.tiles) if v in (t.low, t.high))
            for v in range(max_pip + 1))
        self.doubles_desc = tuple(self.index[Tile(v, v)] + c for v in range(max_pip, -1, -1)
                                  if Tile(v, v) in self.index for c in range(copies))
        self.doubles_mask = sum(1 << i for i in self.doubles_desc)
        self.bit = tuple(1 << i for i in range(self.tile_count))
        # the second copies (odd indices): canonical() drops one whose first is also held
        self._seconds = sum(1 << i for i in range(1, self.tile_count, 2)) if copies == 2 else 0

    @property
    def seconds(self) -> int:
        """The second copies' mask (0 for a single set): what ``canonical`` may drop."""
        return self._seconds

    def holds(self, tile: Tile | tuple[int, int]) -> bool:
        """Whether ``tile`` is in play: in the double-N set and not taken out."""
        return Tile.of(tile) in self.index

    def missing(self, written: str, tile: Tile | tuple[int, int]) -> str:
        """Why ``tile`` (as the input wrote it) is not in play, in the words of
        ``not_in_set``; a tile taken out says so."""
        if in_set(tile, self.max_pip):
            return f"{written} is taken out of this set (set.without or set.keep)"
        return not_in_set(written, self.max_pip)

    def mask(self, tiles) -> int:
        """Tiles -> hand bitmask (a name given twice takes both copies of a doubled set;
        once more than the set holds is a ValueError)."""
        m = 0
        for t in tiles:
            i = self.index[Tile.of(t)]
            if self.copies > 1:
                i = self.free_index(Tile.of(t), m)
            m |= 1 << i
        return m

    def free_index(self, tile: Tile, taken: int) -> int:
        """The lowest copy of ``tile`` not in ``taken`` (ValueError when every copy is):
        how a deal given by names gets its indices, copy by copy."""
        first = self.index[tile]
        for i in range(first, first + self.copies):
            if not taken >> i & 1:
                return i
        raise ValueError(f"{tile} is dealt more often than the set holds it "
                         f"({self.copies} {'copy' if self.copies == 1 else 'copies'})")

    def held_index(self, tile: Tile, hand: int) -> int:
        """The index an action naming ``tile`` means: the lowest copy ``hand`` holds (the
        first copy when it holds none, as with one copy)."""
        first = self.index[tile]
        for i in range(first, first + self.copies):
            if hand >> i & 1:
                return i
        return first

    def canonical(self, hand: int) -> int:
        """``hand`` with one copy of each tile it holds twice (the first): the tiles a
        seat's legal moves are listed from, so two copies are one move, not two."""
        return hand ^ ((hand & (hand >> 1)) << 1 & self._seconds)

    def tiles_of(self, mask: int) -> list[Tile]:
        """Hand bitmask -> tiles in ascending order."""
        return [self.tiles[i] for i in bits(mask)]


def bits(mask: int) -> list[int]:
    """Indices of the set bits, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
