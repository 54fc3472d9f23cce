"""Play on until a whole side is out (``play.until: side_out``) on the JIT, in numba.

``engine.mechanisms.side_out`` over the kernel's arrays: hands as bit masks, the seats
out this round as the bits of one number (``outs``), held to it by
``tests/test_kernel_jit_deal.py``. The ``GEN`` lines of ``jit_loop`` ask ``goes_on``
when a seat empties its hand under the switch ``SIDE_OUT`` (``jit_house.params``), and
``next_in`` only once some seat is out, so a ruleset without it pays a test of a local
that stays 0.
"""

from __future__ import annotations

from .jit import njit
from .jit_support import seat_after


@njit
def goes_on(side: int, hands, TEAMS) -> bool:
    """Whether the round goes on after a seat of ``side`` emptied its hand: while some
    seat of that side still holds tiles (``side_out.goes_on``)."""
    for j in range(TEAMS.shape[1]):
        if hands[TEAMS[side, j]]:
            return True
    return False


@njit
def next_in(seat: int, N: int, RIGHT: int, outs: int) -> int:
    """The seat whose turn follows ``seat``'s, passing over the seats out
    (``side_out.next_in``; some seat is always in)."""
    nxt = seat_after(seat, N, RIGHT)
    while (outs >> nxt) & 1:
        nxt = seat_after(nxt, N, RIGHT)
    return nxt
