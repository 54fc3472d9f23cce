"""``Observation``: what one seat may know, copied out of the match.

It holds values only (tuples, ints, fresh dicts) and the immutable ``Rules``: no
reference to the State or to another seat's tiles, so a bot cannot peek even if
it tries. Other players' drawn tiles are hidden in the history.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .board import line_of_play
from .decision import DECLARE, OPEN, PLAY, SEEK
from .game_rules import Rules
from .tiles import Tile

PHASES = {OPEN: "open", PLAY: "play", SEEK: "seek", DECLARE: "declare"}


@dataclass(frozen=True)
class Observation:
    """One seat's view. ``phase``: ``open`` (the opening tile is due), ``play``,
    ``seek`` (drawing in turn for the opening tile), ``declare`` (choosing among a
    declaration's options: the legal actions) or ``over``."""

    seat: int
    players: int
    teams: tuple[tuple[int, ...], ...]
    side: int                           # this seat's side index
    round: int
    leader: int | None
    to_play: int | None                 # the seat to act
    phase: str
    hand: tuple[Tile, ...]              # ascending
    ends: tuple[int, ...] | None        # open values (left, right[, up, down] on a spinner);
                                        # None before the opening
    line: tuple[tuple[int, int], ...]   # placed tiles left to right, each (left half, right half)
    boneyard: int                       # tiles left in the boneyard
    drawable: int                       # of those, how many may still be drawn (reserve kept)
    hand_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    target: int
    drawn_this_turn: int                # by the player to act
    history: tuple[Mapping[str, Any], ...]   # public events of the match so far
    rules: Rules
    tile_values: Mapping[Tile, int]     # value of each tile in a hand
    arms: tuple[tuple[tuple[int, int], ...], ...] = ((), ())  # a spinner's up and down arms,
                                        # from the spinner outwards (inner half, outer half);
                                        # on a board.layout board, every arm by name
    arm_names: tuple[str, ...] = ()     # board.layout: the arms' names (5-5/3), as ``arms``
    end_names: tuple[str, ...] = ()     # board.layout: the open ends' names, as ``ends``
    cover_first: tuple[str, ...] = ()   # board.layout: the arms to cover before any other end
    counted: tuple[tuple[str, int], ...] = ()  # board.layout dead_arms: (name, value) of arms
                                        # never played on that count in end totals
    best_option: int = 0                # phase declare: the option a fixed policy takes (the
                                        # true worth claimed, the option of highest value)
    declaration: str = ""               # phase declare: the declaration's name
    marked: tuple[str, ...] = ()        # board.layout markers: the trains open to every seat


def observe(core, decision: tuple | None, seat: int, views: dict[int, list]) -> Observation:
    """Build seat ``seat``'s observation of the match in ``core``.

    The public history and the line are kept per seat in ``views`` (the caller's, one
    dict for the life of ``core``) and extended by the events recorded since that
    seat's last observation, so observing costs what is new, not the whole match
    again (a bot observes at every decision).
    """
    game = core.game
    ts = game.tileset
    history, line, table, arms = _public_view(core, seat, views)
    ends = table.board.ends() if line else None
    shape = game.rules.layout
    pos = decision.pos if decision else len(core.deck)
    draw_end = ts.tile_count - game.rules.reserve
    return Observation(
        seat=seat, players=core.players, teams=core.teams, side=game.side_of(core.players)[seat],
        round=core.round, leader=core.leader,
        to_play=decision.player if decision else None,
        phase=PHASES[decision.phase] if decision else "over",
        # deal.blind: a hidden hand, which even its owner cannot see (mechanisms.blind)
        hand=() if game.rules.blind else tuple(ts.tiles_of(core.hands[seat])), ends=ends,
        line=line,
        boneyard=max(0, len(core.deck) - pos), drawable=max(0, draw_end - pos),
        hand_sizes=tuple(h.bit_count() for h in core.hands), scores=tuple(core.scores),
        target=core.target, drawn_this_turn=decision.drawn if decision else 0,
        history=history, rules=game.rules, tile_values=game.tile_values, arms=arms,
        arm_names=getattr(table, "arm_names", ()),
        end_names=tuple(table.board.layout.ends) if shape and line else (),
        cover_first=tuple(table.board.layout.answer) if shape and line else (),
        counted=tuple(table.board.layout.dead.items()) if shape and line else (),
        best_option=decision.best if decision else 0,
        declaration=decision.declaration.name if decision and decision.declaration else "",
        marked=_marked(table.board.layout) if shape and line else ())


def _marked(layout) -> tuple[str, ...]:
    """The trains whose owner's marker is down, by name."""
    return tuple(name for name, s in layout.owner.items() if s in layout.marked)


def _public_view(core, seat: int, views: dict[int, list]) -> tuple:
    """Seat ``seat``'s public history, the line, the board and a spinner's arms, up to date."""
    view = views.get(seat)
    spinner = core.game.rules.spinner == "first_double"
    shape, fit = core.game.rules.layout, core.game.rules.fit
    if view is None:
        # events read, public events, line
        view = views[seat] = [0, [], line_of_play(spinner, shape, fit, core.players)]
    rec = core.rec or ()
    read, public, line = view
    for e in rec[read:]:
        public.append(_public(e, seat))
        kind = e["event"]
        if kind == "deal":
            line = view[2] = line_of_play(spinner, shape, fit, core.players)
        elif kind == "place" and shape is not None:   # by whom: a train's marker comes up
            line.place(*e["tile"], e["end"], None, e["player"])
        elif kind == "place":
            line.place(*e["tile"], e["end"], e.get("meets"))
        elif kind == "turn_up":   # deal.turn_up: the line's first tile, nobody's
            line.place(*e["tile"], None)
        elif kind == "pass" and shape is not None and shape.markers:
            line.passed(e["player"])
    view[0] = len(rec)
    return tuple(public), tuple(line.line), line, line.arms


def _public(event: dict, seat: int) -> dict:
    kind = event["event"]
    if kind == "deal":
        return {"event": "deal", "round": event["round"], "leader": event["leader"],
                "hand_sizes": [len(h) for h in event["hands"]],
                "boneyard": len(event["boneyard"])}
    if kind == "draw" and event["player"] != seat:
        return {"event": "draw", "player": event["player"]}
    out = dict(event)
    for key, value in out.items():
        if isinstance(value, list):
            out[key] = [list(v) if isinstance(v, list) else v for v in value]
    return out


class MatchView:
    """What the engine shows the policies bound to one match (``bind``), kept by whichever
    engine plays it: the record (``rec``, which the engine appends to) and the live hands
    (``hands``, which a kernel sets at each deal). Bots never see it: each gets a
    ``SeatView`` of it, never the loop or the kernel.
    """

    __slots__ = ("rec", "hands")

    def __init__(self) -> None:
        self.rec: list = []
        self.hands: list = []

    def seat(self, seat: int) -> SeatView:
        """Seat ``seat``'s view of this match."""
        return SeatView(self, seat)


class LoopView(MatchView):
    """A ``MatchView`` of a match the general loop plays: its record, and its hands as
    the loop deals them (the loop deals a new list each round)."""

    __slots__ = ("_loop",)

    def __init__(self, loop):   # not super().__init__: it would set the hands read here
        self.rec, self._loop = loop.rec, loop

    @property
    def hands(self) -> list:
        return self._loop.hands


class SeatView:
    """One seat's view of a match for a policy bound to it: its own hand, live, and the
    match record so far (``record``, one list the engine extends).

    The record is the one the engine writes: a bound policy reads only its public facts
    (who drew, never what; the boneyard's count, never its tiles), as ``Knowledge`` and
    ``bots.strategist_fast`` do. A public copy of it, kept event by event, was measured
    at 10-15% of a strategist match: two passes over every event in Python.
    """

    __slots__ = ("_match", "seat", "record")

    def __init__(self, match: MatchView, seat: int):
        self._match = match
        self.seat = seat
        self.record = match.rec

    @property
    def hand(self) -> int:
        """The seat's hand now, a bitmask of tile indices."""
        return self._match.hands[self.seat]
