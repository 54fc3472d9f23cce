"""The board: the line of play, its open ends, and the spinner's four arms.

As ``docs/records.md`` and ``docs/house-rules.md`` tell it: the opening tile
``[a, b]`` leaves ``a`` open on the left and ``b`` on the right; a tile placed at an
end matches that end with one half and leaves its other half open there. Doubles lie
crosswise in the line. With ``board.spinner: first_double`` the first double placed
in a round (the opening tile or at an end) is a spinner: once both its sides along
the line are played on, its up and down arms open too.

>>> board = Board()
>>> board.place((5, 5), None); board.end_total()
10
>>> board.place((0, 5), "right"); board.values(), board.end_total()
([5, 0], 10)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .matching import FitRule, Tile, end_count, is_double, left_open, placements

LINE = ("left", "right")
ARMS = ("up", "down")
ENDS = LINE + ARMS


@dataclass
class End:
    """One open end: the value it shows, whether the tile lying there is a double, and
    whether a tile was placed on it (a spinner's arm counts only once one is)."""

    value: int
    double: bool
    covered: bool = False


@dataclass
class Board:
    """The tiles down in one round and what they leave open."""

    spins: bool = False                  # the ruleset's first double is a spinner
    tiles: list[Tile] = field(default_factory=list)
    ends: dict[str, End] = field(default_factory=dict)   # open ends, by name
    spinner: Tile | None = None          # the spinner, once placed
    spinner_bare: set[str] = field(default_factory=set)  # line ends where it lies unplayed on
    fit: FitRule | None = None           # how a tile fits an end (None: the same number)
    doubles: str = "across"              # how a double at an end counts in the ends' total

    @property
    def empty(self) -> bool:
        return not self.tiles

    def open_ends(self) -> list[str]:
        """The open ends' names, in the order left, right, up, down."""
        return [name for name in ENDS if name in self.ends]

    def values(self) -> list[int]:
        """The open ends' values (``ends`` in formulas)."""
        return [self.ends[name].value for name in self.open_ends()]

    def ends_fitting(self, tile: Tile) -> list[str]:
        """The open ends ``tile`` may be placed on."""
        return [name for name in self.open_ends() if self.ways(tile, name)]

    def ways(self, tile: Tile, at: str) -> tuple[tuple[int, int], ...]:
        """Each way ``tile`` may go on the open end ``at``: (half against it, number left
        open), by the ruleset's fit rule (``matching.placements``)."""
        return placements(tile, self.ends[at].value, self.fit)

    def end_total(self) -> int:
        """The ends counted as all-fives games count them (``docs/language.md``)."""
        if len(self.tiles) == 1:
            return sum(self.tiles[0])
        total = 0
        for name in self.open_ends():
            end = self.ends[name]
            if name in ARMS and not end.covered:
                continue
            total += end_count(end.value, end.double, self.doubles)
        return total

    def place(self, tile: Tile, at: str | None, meets: int | None = None) -> None:
        """Lay ``tile``: as the opening tile (``at`` None) or on the open end ``at``, with
        its half ``meets`` against it when it could lie either way round."""
        double = is_double(tile)
        becomes_spinner = self.spins and double and self.spinner is None
        if at is None:
            self.tiles.append(tile)
            self.ends = {"left": End(tile[0], double), "right": End(tile[1], double)}
            if becomes_spinner:
                self.spinner = tile
                self.spinner_bare = {"left", "right"}
            return
        end = self.ends[at]
        self.tiles.append(tile)
        self.ends[at] = End(left_open(tile, end.value, self.fit, meets), double, covered=True)
        if at in self.spinner_bare:
            self.spinner_bare.discard(at)
            if not self.spinner_bare:
                self._open_arms()
        if becomes_spinner and at in LINE:
            self.spinner = tile
            self.spinner_bare = {at}

    def _open_arms(self) -> None:
        value = self.spinner[0]
        for arm in ARMS:
            self.ends.setdefault(arm, End(value, True))
