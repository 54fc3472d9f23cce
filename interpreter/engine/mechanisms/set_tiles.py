"""Which tiles the set holds: the double-N set less the tiles a ruleset takes out.

``set.without`` names tiles, ``set.keep`` is a condition over ``tile`` (kind
``set_keep``); a tile is in play when it is not named and ``keep`` accepts it.
``set.copies`` (1 or 2) holds each tile in play that many times: two sets shuffled
together. The copies are the same tile to every rule (same name, same pips); the deal
counts each. Written
once: the compiler asks ``taken_out`` (kept on ``Rules.removed_tiles``), and the engine's
tables (``engine.tiles.TileSet``), the rulebook's deal check and the rule sheet read the
set back through ``set_tiles``.

>>> taken_out(1, [(1, 0)], None)
((0, 1),)
>>> set_tiles(2, ((0, 0), (2, 2)))
[(0, 1), (0, 2), (1, 1), (1, 2)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

Tile = tuple[int, int]


def double_set(max_pip: int) -> list[Tile]:
    """Every tile of the double-``max_pip`` set as ``(low, high)``, in the set's order."""
    return [(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)]


def taken_out(max_pip: int, without: Iterable[Tile],
              keep: Callable[[Mapping[str, Any]], Any] | None) -> tuple[Tile, ...]:
    """The tiles of the double-``max_pip`` set a ruleset takes out, in the set's order:
    those ``without`` names (either way round) and those ``keep`` says no to."""
    named = {(min(t), max(t)) for t in without}
    return tuple(t for t in double_set(max_pip)
                 if t in named or (keep is not None
                                   and not keep({"tile": t, "max_pip": max_pip})))


def set_tiles(max_pip: int, removed: Iterable[Tile] = (), copies: int = 1) -> list[Tile]:
    """The tiles in play: the double-``max_pip`` set without ``removed``, in the set's order,
    each ``copies`` times side by side (``set.copies``: two sets shuffled together).

    >>> set_tiles(1, copies=2)
    [(0, 0), (0, 0), (0, 1), (0, 1), (1, 1), (1, 1)]
    """
    out = set(removed)
    once = [t for t in double_set(max_pip) if t not in out]
    return once if copies == 1 else [t for t in once for _ in range(copies)]
