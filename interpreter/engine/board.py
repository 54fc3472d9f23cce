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

from .mechanisms.layout import Layout, Shape
from .mechanisms.matching import FitRule, left_open

END_NAMES = ("left", "right", "up", "down")


class Board:
    """Open end values, whether each end shows a double, and the spinner's progress."""

    __slots__ = ("spinner", "values", "doubles", "used", "count", "tiles", "spin_need",
                 "spin_value", "first_pips", "across")

    def __init__(self, spinner: bool = False, across: bool = True):
        self.spinner = spinner        # the ruleset makes the first double a spinner
        self.across = across          # a double at an end shows both halves (else one)
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
    def showing(cls, ends: tuple[int, ...] | list[int], spinner: bool = False,
                across: bool = True) -> Board:
        """A board in mid-round showing ``ends``: 2 values (no spinner placed yet), or 4
        (left, right, up, down: a spinner's arms open, a tile on each). The tiles at the
        ends are not doubles. How a rule example's position is set up.

        >>> Board.showing([3, 4, 5, 6], spinner=True).ends()
        (3, 4, 5, 6)
        """
        board = cls(spinner, across)
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

    def place(self, end: int, low: int, high: int, double: bool, leave: int = -1) -> None:
        """Place a tile at ``end`` (it matches that end's value). ``leave``: the number it
        leaves open there, when a fit rule (``mechanisms.matching``) says; else its other
        half."""
        values = self.values
        values[end] = low + high - values[end] if leave < 0 else leave
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
        double at the end of an arm counts both halves (one when doubles lie in line:
        ``across`` false, ``matching.doubles``); an untouched spinner arm nothing."""
        across = self.across
        if self.tiles == 1:
            return self.first_pips
        total = 0
        for e in range(self.count):
            if self.used[e]:
                total += self.values[e] * 2 if self.doubles[e] and across else self.values[e]
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

    __slots__ = ("line", "up", "down", "board", "fit")

    def __init__(self, spinner: bool = False, fit: FitRule | None = None):
        self.line: list[tuple[int, int]] = []   # each (left half, right half)
        self.up: list[tuple[int, int]] = []     # each (inner half, outer half)
        self.down: list[tuple[int, int]] = []
        self.board = Board(spinner)
        self.fit = fit                          # the ruleset's fit rule, None: same number

    def place(self, a: int, b: int, end: str | None, meets: int | None = None) -> None:
        """A recorded placement of tile ``[a, b]`` at ``end`` (None: the opening tile);
        ``meets``: the half against the end, when the record names it (a fit rule's tile
        that fits one end two ways)."""
        if end is None:
            self.line[:] = [(a, b)]
            self.board.open_with(a, b, a == b)
            return
        e = END_NAMES.index(end)
        value = self.board.values[e]
        left = (a + b - value if self.fit is None
                else left_open((min(a, b), max(a, b)), value, self.fit, meets))
        self.line_place(e, (a + b - left, left), a, b, left)

    def line_place(self, e: int, placed: tuple[int, int], a: int, b: int, left: int) -> None:
        """Lay ``placed`` (the half against the end, the half left open) at end ``e``."""
        if e == 0:
            self.line.insert(0, placed[::-1])
        elif e == 1:
            self.line.append(placed)
        else:
            (self.up if e == 2 else self.down).append(placed)
        self.board.place(e, a, b, a == b, left)

    @property
    def arms(self) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
        return tuple(self.up), tuple(self.down)

    def ends(self) -> tuple[int, ...] | None:
        """The open end values; None before the opening."""
        return self.board.ends() if self.line else None


class ShapedBoard:
    """The board of a ruleset with ``board.layout``, as the match loop holds it: the
    mechanism's ``Layout`` (``engine.mechanisms.layout``, the one rule of where a tile
    may go, which the rulebook asks too) behind the two readings formulas make of any
    board, ``ends()`` and ``end_total()``."""

    __slots__ = ("layout",)

    def __init__(self, shape: Shape, players: int = 0):
        self.layout = Layout(shape, seats=players)   # players: a train each (trains)

    def ends(self) -> tuple[int, ...]:
        """Every open end's value, in the order the ends opened."""
        return self.layout.ends_tuple()

    def end_total(self) -> int:
        return self.layout.end_total()

    @property
    def tiles(self) -> int:
        return len(self.layout.tiles)


def new_board(spinner: bool, shape: Shape | None, across: bool = True,
              players: int = 0) -> Board | ShapedBoard:
    """A round's empty board: shaped by ``board.layout`` (with a train for each of
    ``players`` when it has trains), else the line (and its spinner; ``across``: a double
    at an end counts both halves in end totals)."""
    return Board(spinner, across) if shape is None else ShapedBoard(shape, players)


class ShapedLine:
    """``LineOfPlay`` for a ``board.layout`` board: the line through the opening tile
    (left to right) and every arm a spinning double opened, by name in the order they
    opened, each from its double outwards (inner half, outer half); an arm closed by a
    double played on it keeps its tiles.

    >>> from .mechanisms.layout import Shape
    >>> t = ShapedLine(Shape(spins="every_double", sides=3, through=False, arms_open="at_once"))
    >>> t.place(4, 4, None); t.place(4, 1, "4-4/2"); t.arm_names, t.arms[1], t.ends()
    (('4-4/1', '4-4/2', '4-4/3'), ((4, 1),), (4, 1, 4))
    """

    __slots__ = ("line", "arm_tiles", "board")

    def __init__(self, shape: Shape, players: int = 0):
        self.line: list[tuple[int, int]] = []
        self.arm_tiles: dict[str, list[tuple[int, int]]] = {}   # arms and trains, by name
        self.board = ShapedBoard(shape, players)

    def passed(self, seat: int) -> None:
        """A recorded pass (a forced one): the seat's marker goes down, with markers."""
        self.board.layout.passed(seat)

    def place(self, a: int, b: int, end: str | None, meets: int | None = None,
              seat: int | None = None) -> None:
        """A recorded placement of tile ``[a, b]`` at ``end`` (None: the opening tile) by
        ``seat``; ``meets`` is LineOfPlay's, for a fit rule, which a shaped board never
        plays (validate refuses board.layout with matching)."""
        layout = self.board.layout
        if end is None:
            self.line[:] = [(min(a, b), max(a, b))]
        else:
            value = layout.ends[end].value
            placed = (value, a + b - value)
            if end == "left":
                self.line.insert(0, placed[::-1])
            elif end == "right":
                self.line.append(placed)
            else:
                self.arm_tiles[end].append(placed)
        layout.place((a, b), end, seat=seat)
        for name in (*layout.ends, *layout.dead):
            if name not in ("left", "right") and name not in self.arm_tiles:
                self.arm_tiles[name] = []

    @property
    def arms(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        return tuple(tuple(tiles) for tiles in self.arm_tiles.values())

    @property
    def arm_names(self) -> tuple[str, ...]:
        return tuple(self.arm_tiles)

    def ends(self) -> tuple[int, ...] | None:
        """The open end values; None before the opening."""
        return self.board.ends() if self.board.layout.tiles else None


def line_of_play(spinner: bool, shape: Shape | None, fit: FitRule | None = None,
                 players: int = 0) -> LineOfPlay | ShapedLine:
    """The table as players see it, rebuilt from the record's placements."""
    return LineOfPlay(spinner, fit) if shape is None else ShapedLine(shape, players)
