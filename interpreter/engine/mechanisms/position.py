"""The one position every mechanism reads: a match between two events of its record.

Named fields only. ``SeatView`` and ``SideView`` are what formulas see of a seat and
of a side (the attributes ``docs/language.md`` lists), built fresh when asked.

``seat_after_piece`` is ``Position.next_seat``'s one step for the JIT kernels (a kernel
piece, ``engine.pieces``): ``kernel.jit_support.seat_after`` is it compiled, and the
mechanisms' pieces that walk the table (``turn_up.before_piece``, ``side_out``'s
``next_in_piece``) call it; ``tests/test_kernel_jit_deal.py`` holds it to ``next_seat``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game_rules import Rules
from ..pieces import piece
from .board import Board
from .duties import Duty
from .matching import Tile, is_double
from .table import Table


@dataclass(frozen=True)
class SeatView:
    """A player as formulas see it."""

    seat: int
    value: int
    pips: int
    tiles: int
    drawn: int
    doubles: int


@dataclass(frozen=True)
class SideView:
    """A side as formulas see it."""

    index: int
    players: tuple[SeatView, ...]
    value: int
    pips: int
    tiles: int
    drawn: int
    doubles: int
    score: int
    won: bool
    rounds_won: int


@dataclass(frozen=True)
class LastRound:
    """What the next round's lead may depend on."""

    leader: int
    winner_seat: int | None
    winner_side: int | None
    last_player: int | None
    blocked: bool
    seats: tuple[SeatView, ...] = ()    # as the round ended (hands left)
    sides: tuple[SideView, ...] = ()    # as it ended (scores after it, who won it)


@dataclass
class Position:
    """A match in progress, as the rules see it."""

    rules: Rules
    players: int
    sides: tuple[tuple[int, ...], ...]
    target: int
    scores: list[int]
    rounds_won: list[int]
    round: int = 0
    previous: LastRound | None = None
    values: dict[str, int] = field(default_factory=dict)   # the variables, this round's
    # the round being played
    leader: int | None = None
    hands: list[list[Tile]] = field(default_factory=list)
    boneyard: list[Tile] = field(default_factory=list)
    board: Board = field(default_factory=Board)
    table: Table = field(default_factory=Table)           # its tiles (mechanisms.table)
    duties: list[Duty] = field(default_factory=list)     # pending (mechanisms.duties)
    drawn: list[int] = field(default_factory=list)        # tiles each seat drew this round
    play_points: list[int] = field(default_factory=list)  # per side, from events this round
    passes: int = 0
    turn: int = 0                       # the seat to act
    drawn_this_turn: int = 0
    passes_in_row: int = 0
    passed_since_progress: set[int] = field(default_factory=set)
    idle_turns: int = 0                 # passes and skips since the last placement or draw
    extra_turns: int = 0                # turns the actor has earned (``again``)
    turns: list[int] = field(default_factory=list)   # each seat's turns this round, the
                                                     # opening tile aside (``first_turn``)
    pending_skips: int = 0              # following turns to skip when this turn ends
    last_tile: Tile | None = None
    last_player: int | None = None
    last_both_ends: bool = False
    out: set[int] = field(default_factory=set)   # seats out, the round going on
                                                 # (play.until: side_out, mechanisms.side_out)

    def side_of(self, seat: int) -> int:
        return next(i for i, side in enumerate(self.sides) if seat in side)

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` turns after ``seat``, in the direction of play."""
        step = 1 if self.rules.direction == "left" else -1
        return (seat + step * steps) % self.players

    def hand_value(self, seat: int) -> int:
        return sum(self.rules.tile_value(*t) for t in self.hands[seat])

    def seat_view(self, seat: int) -> SeatView:
        hand = self.hands[seat]
        return SeatView(seat, self.hand_value(seat), sum(a + b for a, b in hand), len(hand),
                        self.drawn[seat], sum(is_double(t) for t in hand))

    def side_view(self, index: int, won: bool = False, score: int | None = None) -> SideView:
        seats = tuple(self.seat_view(s) for s in self.sides[index])
        return SideView(index, seats, sum(s.value for s in seats), sum(s.pips for s in seats),
                        sum(s.tiles for s in seats), sum(s.drawn for s in seats),
                        sum(s.doubles for s in seats),
                        self.scores[index] if score is None else score, won,
                        self.rounds_won[index])

    def seat_views(self) -> tuple[SeatView, ...]:
        return tuple(self.seat_view(s) for s in range(self.players))

    def side_views(self) -> tuple[SideView, ...]:
        return tuple(self.side_view(i) for i in range(len(self.sides)))


@piece
def seat_after_piece(p: int, N: int, right: int) -> int:
    """The seat that plays after ``p``: the next one round the table, or (``right``,
    ``play.direction: right``) the one before."""
    if right:
        return p - 1 if p > 0 else N - 1
    return p + 1 if p + 1 < N else 0
