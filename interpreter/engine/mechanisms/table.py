"""The table as play-time events read it: ``board`` (every tile down, in the order placed),
``line`` (the line through the opening tile, from its left end to its right end) and
``end_tiles`` (the tile lying at each open end, in the order of ``ends``; a spinner's arm
nobody has played on yet shows the spinner itself). From ``docs/language.md`` (the event
names) and the schema's ``events``.

Written once: the match loop (``engine.general_loop``, only for a ruleset whose events
read one of these names: ``Rules.reads_table``), the rule examples (``engine.positions``)
and the rulebook (``engine.rulebook``, ``verify --strict``) all keep a ``Table`` and read
it through these functions. Tiles are written low half first, as formulas see them.

>>> table = Table()
>>> for tile, end in (((5, 5), None), ((5, 2), "left"), ((5, 1), "right"), ((5, 3), "up")):
...     table.place(tile, end)
>>> table.board(), table.line_tiles()
(((5, 5), (2, 5), (1, 5), (3, 5)), ((2, 5), (5, 5), (1, 5)))
>>> table.end_tiles([("left", None), ("right", None), ("up", None), ("down", (5, 5))])
((2, 5), (1, 5), (3, 5), (5, 5))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

Tile = tuple[int, int]

# The event names this module answers (a ruleset reading none keeps no Table).
NAMES = frozenset({"board", "line", "end_tiles"})


@dataclass
class Table:
    """The tiles of one round's table, kept as they are placed."""

    placed: list[Tile] = field(default_factory=list)    # in the order placed
    line: list[Tile] = field(default_factory=list)      # left to right
    at_end: dict[str, Tile] = field(default_factory=dict)   # the last tile laid on each end

    def place(self, tile: Sequence[int], at: str | None) -> None:
        """Lay ``tile`` as the opening tile (``at`` None) or on the end named ``at``: the
        line's ``left`` or ``right``, or an arm (a spinner's ``up``/``down``, a shaped
        board's ``5-5/3``), which is no part of the line."""
        tile = (min(tile), max(tile))
        self.placed.append(tile)
        if at is None:
            self.line[:] = [tile]
            self.at_end = {"left": tile, "right": tile}
            return
        if at == "left":
            self.line.insert(0, tile)
        elif at == "right":
            self.line.append(tile)
        self.at_end[at] = tile

    def board(self) -> tuple[Tile, ...]:
        """``board``: every tile down, the opening tile first."""
        return tuple(self.placed)

    def line_tiles(self) -> tuple[Tile, ...]:
        """``line``: the line through the opening tile, from left to right."""
        return tuple(self.line)

    def end_tiles(self, ends: Sequence[tuple[str, Tile | None]]) -> tuple[Tile, ...]:
        """``end_tiles``: for each open end (its name, and the tile an end nobody has
        played on grows from: the spinner of an untouched arm), the tile lying there."""
        at_end = self.at_end
        return tuple(at_end.get(name, bare) or (-1, 0) for name, bare in ends)


def names(table: Table | None, ends: Sequence[tuple[str, Tile | None]]) -> dict[str, tuple]:
    """What events read of the table (``NAMES``): ``ends`` as ``Table.end_tiles`` takes
    them; no table yet (nothing kept) reads as an empty one."""
    table = table or Table()
    return {"board": table.board(), "line": table.line_tiles(), "end_tiles": table.end_tiles(ends)}


def reads(names: frozenset[str]) -> bool:
    """Whether formulas reading ``names`` need the table kept."""
    return bool(names & NAMES)
