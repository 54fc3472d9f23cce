"""Play on until a whole side is out (``play.until: side_out``).

The plain game ends a round as soon as one player empties the hand (``first_out``).
Under ``side_out`` a player who empties the hand is *out*: the round goes on without
them (their turns are skipped, nobody waits on their passes) until every seat of one
side is out, or the round blocks. A side of one seat is out as soon as its player is,
so in a game without partnerships ``side_out`` plays as ``first_out`` (validate warns).

What the round's end means (docs/house-rules.md, "Play on until a side is out"):

- the round is a domino won by the side that went out; the round's dominoer (the seat
  ``domino_winner`` and the next round's lead read) is the seat that completed it,
  i.e. the last of the side to go out;
- the scoring formulas read every seat's hand as it is then: the out seats hold none;
- a round blocked while some seats are out settles as any blocked round.

The play that takes a player out is not the round's last: its points count and a skip
it grants applies, but a turn, draws or a duty it would grant lapse (the player holds
nothing to play them with), as they do after a domino. Written once: the match loop
(``engine.general_loop``) and the rulebook (``engine.rulebook``) both ask ``goes_on``
and ``next_in``; the record writes ``{"event": "out", "player": p}`` when a player goes
out and the round goes on (docs/records.md).

>>> goes_on("side_out", (0, 2), lambda s: s == 2)
True
>>> goes_on("side_out", (0, 2), lambda s: False), goes_on("first_out", (0, 2), lambda s: True)
(False, False)
>>> next_in(lambda s: (s + 1) % 4, 0, {1})
2
>>> next_table([1, 2, 3, 0], {1, 2})
[3, 3, 3, 0]

``goes_on_piece`` and ``next_in_piece`` are the same rule for the JIT kernel (kernel
pieces, ``engine.pieces``): hands bit masks, the seats out this round the bits of one
number (``outs``). The kernel's ``GEN`` lines ask ``goes_on_piece`` when a seat empties
its hand under the switch ``SIDE_OUT``, and ``next_in_piece`` only once some seat is out.
``tests/test_kernel_jit_deal.py`` holds them to ``goes_on`` and ``next_in``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from ..pieces import piece
from .position import seat_after_piece


def goes_on(until: str, side: Sequence[int], holding: Callable[[int], bool]) -> bool:
    """Whether the round goes on after a seat of ``side`` empties its hand: under
    ``side_out``, while some seat of that side still holds tiles."""
    return until == "side_out" and any(holding(s) for s in side)


def next_in(next_seat: Callable[[int], int], seat: int, out: Collection[int]) -> int:
    """The seat whose turn follows ``seat``'s, passing over the seats that are out (some
    seat is always in: the round ends when a whole side is out)."""
    nxt = next_seat(seat)
    while nxt in out:
        nxt = next_seat(nxt)
    return nxt


def next_table(nxt: Sequence[int], out: Collection[int]) -> list[int]:
    """``next_in`` for every seat at once, as the match loop's table of next seats."""
    return [next_in(nxt.__getitem__, s, out) for s in range(len(nxt))]


@piece
def goes_on_piece(side: int, hands, TEAMS) -> bool:
    """Whether the round goes on after a seat of ``side`` emptied its hand: while some
    seat of that side still holds tiles (``side_out.goes_on``)."""
    for j in range(TEAMS.shape[1]):
        if hands[TEAMS[side, j]]:
            return True
    return False


@piece
def next_in_piece(seat: int, N: int, RIGHT: int, outs: int) -> int:
    """The seat whose turn follows ``seat``'s, passing over the seats out
    (``side_out.next_in``; some seat is always in)."""
    nxt = seat_after_piece(seat, N, RIGHT)
    while (outs >> nxt) & 1:
        nxt = seat_after_piece(nxt, N, RIGHT)
    return nxt


def out_line(seat: int) -> dict:
    """The record's line for a player who went out while the round goes on."""
    return {"event": "out", "player": seat}
