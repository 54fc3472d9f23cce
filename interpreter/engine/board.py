"""The layout of play: open ends, what a placement does to them, and the spinner.

One small mutable value, used by the general match loop (``engine.general_loop``) and
read by observations and examples. Ends are indexed 0 left, 1 right, 2 up, 3 down;
``up`` and ``down`` exist only on a spinner, once both of its sides are played on.

>>> b = Board(spinner=True); b.open_with(5, 5, True); b.ends()
(5, 5)
>>> b.place(0, 5, 2, False); b.place(1, 5, 1, False); b.ends()
(2, 1, 5, 5)
"""

from __future__ import annotations

END_NAMES = ("left", "right", "up", "down")


class Board:
    """Open end values, whether each end shows a double, and the spinner's progress."""

    __slots__ = ("spinner", "values", "doubles", "used", "count", "tiles", "spin_need",
                 "spin_value", "first_pips")

    def __init__(self, spinner: bool = False):
        self.spinner = spinner        # the ruleset makes the first double a spinner
        self.values = [0, 0, 0, 0]    # the pip value each end shows
        self.doubles = [False] * 4    # the tile at that end is a double (counts both halves)
        self.used = [True, True, False, False]  # a tile lies on that arm (up/down: once played)
        self.count = 2                # ends open: 2, or 4 once the spinner opened
        self.tiles = 0                # tiles on the board
        self.spin_need = -1           # sides of the spinner still to be played on (a bit per
                                      # end); -1: no spinner yet
        self.spin_value = 0
        self.first_pips = 0           # the opening tile's pips (a lone tile counts them all)

    @classmethod
    def showing(cls, ends: tuple[int, ...] | list[int], spinner: bool = False) -> Board:
        """A board in mid-round showing ``ends``: 2 values (no spinner placed yet), or 4
        (left, right, up, down: a spinner's arms open, a tile on each). The tiles at the
        ends are not doubles. How a rule example's position is set up.

        >>> Board.showing([3, 4, 5, 6], spinner=True).ends()
        (3, 4, 5, 6)
        """
        board = cls(spinner)
        board.values[0], board.values[1] = ends[0], ends[1]
        board.tiles = 2
        if len(ends) == 4:
            board.values[2], board.values[3] = ends[2], ends[3]
            board.count = 4
            board.spin_need = 0
            board.used[2] = board.used[3] = True
        return board

    def open_with(self, low: int, high: int, double: bool) -> None:
        """Place the round's first tile."""
        self.values[0], self.values[1] = low, high
        self.doubles[0] = self.doubles[1] = double
        self.tiles = 1
        self.first_pips = low + high
        if double and self.spinner:
            self.spin_need, self.spin_value = 0b11, low

    def place(self, end: int, low: int, high: int, double: bool) -> None:
        """Place a tile at ``end`` (it matches that end's value)."""
        values = self.values
        values[end] = low + high - values[end]
        self.doubles[end] = double
        self.used[end] = True
        self.tiles += 1
        need = self.spin_need
        if need > 0 and need >> end & 1:
            need &= ~(1 << end)
            self.spin_need = need
            if not need:   # both sides played on: the spinner opens up and down
                values[2] = values[3] = self.spin_value
                self.count = 4
        elif need < 0 and double and self.spinner and end < 2:
            # the first double, placed at an end: its outer side is still to be played on
            self.spin_need, self.spin_value = 1 << end, low

    def ends(self) -> tuple[int, ...]:
        """The open end values, in end order."""
        return tuple(self.values[:self.count])

    def end_total(self) -> int:
        """The ends counted as all-fives games count them: a lone tile counts all its pips; a
        double at the end of an arm counts both halves; an untouched spinner arm nothing."""
        if self.tiles == 1:
            return self.first_pips
        total = 0
        for e in range(self.count):
            if self.used[e]:
                total += self.values[e] * 2 if self.doubles[e] else self.values[e]
        return total


class LineOfPlay:
    """The tiles placed in a round as players see them: the line from left to right, a
    spinner's up and down arms (from the spinner outwards), and the board's open ends.

    Fed with the record's ``place`` events, it is the one rebuild of the table that
    observations and the terminal timeline share.

    >>> line = LineOfPlay(spinner=True)
    >>> for tile, end in (((5, 5), None), ((5, 2), "left"), ((5, 1), "right"), ((5, 3), "up")):
    ...     line.place(*tile, end)
    >>> line.line, line.arms, line.ends()
    ([(2, 5), (5, 5), (5, 1)], (((5, 3),), ()), (2, 1, 3, 5))
    """

    __slots__ = ("line", "up", "down", "board")

    def __init__(self, spinner: bool = False):
        self.line: list[tuple[int, int]] = []   # each (left half, right half)
        self.up: list[tuple[int, int]] = []     # each (inner half, outer half)
        self.down: list[tuple[int, int]] = []
        self.board = Board(spinner)

    def place(self, a: int, b: int, end: str | None) -> None:
        """A recorded placement of tile ``[a, b]`` at ``end`` (None: the opening tile)."""
        if end is None:
            self.line[:] = [(a, b)]
            self.board.open_with(a, b, a == b)
            return
        e = END_NAMES.index(end)
        value = self.board.values[e]
        placed = (value, a + b - value)
        if e == 0:
            self.line.insert(0, placed[::-1])
        elif e == 1:
            self.line.append(placed)
        else:
            (self.up if e == 2 else self.down).append(placed)
        self.board.place(e, a, b, a == b)

    @property
    def arms(self) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
        return tuple(self.up), tuple(self.down)

    def ends(self) -> tuple[int, ...] | None:
        """The open end values; None before the opening."""
        return self.board.ends() if self.line else None
