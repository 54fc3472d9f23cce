"""The layout of play: open ends, what a placement does to them, and the spinner.

One small mutable value, used by the general match loop (``engine.general``) and
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
