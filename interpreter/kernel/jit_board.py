"""The spinner in numba: ``engine.board.Board``'s spinner rule for the JIT kernel's GEN lines.

With ``board.spinner: first_double`` the first double of a round spins: laid as the opening
tile both its sides along the line are bare, laid at an end of the line its outer side is;
once every bare side is played on, its up and down arms open showing its number (four
ends). The kernel keeps the line's ends in locals and the spinner as two numbers (``need``:
a bit per line end still to be played on, -1 before any double spun; ``value``: its
number), and asks these two functions at the opening and after a placement. The board's
own ``Board.open_with`` and ``Board.place`` stay the truth; ``tests/test_kernel_jit_board.py``
holds these to them placement by placement.
"""

from __future__ import annotations

from .jit import njit

NO_SPINNER = -1   # ``need`` before any double spun (``Board.spin_need``)


@njit
def spin_open(low, high, spins):
    """(need, value) once the opening tile ``[low, high]`` is down (``Board.open_with``):
    a double of a spinning ruleset has both line sides bare."""
    if spins and low == high:
        return 3, low
    return NO_SPINNER, 0


@njit
def spin_place(need, value, end, low, double):
    """(need, value, opened) after a tile is laid at ``end`` (0 left, 1 right, 2 up, 3
    down; ``Board.place``): a bare side of the spinner played on, its arms opening once
    none is left, or the round's first double laid at a line end becoming the spinner.
    Called only for a spinning ruleset."""
    if need > 0 and (need >> end) & 1:
        need &= ~(1 << end)
        return need, value, need == 0
    if need < 0 and double and end < 2:
        return 1 << end, low, False
    return need, value, False


@njit
def double_of(value, TL, TH):
    """The index of the double ``[value|value]``: the spinner, which an arm nobody played
    on shows an event's ``end_tiles`` (``events.table_names``); -1 if the set lacks it."""
    for t in range(TL.shape[0]):
        if TL[t] == value and TH[t] == value:
            return t
    return -1
