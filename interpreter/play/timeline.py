"""The table as the record tells it: every hand, the line, the boneyard, the scores.

A record (``docs/records.md``) holds everything -- dealt hands, drawn tiles,
placements -- so the whole table can be rebuilt event by event without the engine.
``play`` uses it to reveal the hands at the end of a round, ``replay`` to show
every position of a recorded match.

>>> t = Timeline()
>>> for e in [{"event": "match_start", "ruleset": "x", "players": 2, "teams": [[0], [1]],
...            "seed": 1},
...           {"event": "deal", "round": 1, "leader": 0, "hands": [[[4, 6]], [[1, 2]]],
...            "boneyard": [[0, 0]]},
...           {"event": "place", "player": 0, "tile": [4, 6], "end": None}]:
...     t.feed(e)
>>> t.snapshot().line, t.snapshot().ends
(((4, 6),), (4, 6))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..engine.board import LineOfPlay, ShapedLine
from ..engine.mechanisms.layout import Shape
from ..engine.tiles import Tile


@dataclass(frozen=True)
class Snapshot:
    """The full table after one event (nothing hidden)."""

    index: int                                  # the event's position in the record
    event: dict[str, Any]
    ruleset: str
    players: int
    teams: tuple[tuple[int, ...], ...]
    round: int
    leader: int | None
    hands: tuple[tuple[Tile, ...], ...]         # per seat, ascending
    line: tuple[tuple[int, int], ...]           # left to right, each (left half, right half)
    boneyard: int
    scores: tuple[int, ...]
    arms: tuple[tuple[tuple[int, int], ...], ...] = ((), ())  # a spinner's up and down arms,
                                                # from the spinner out, (inner, outer)
    spinner: int | None = None                  # the spinner's pip, once an arm is used
    arm_names: tuple[str, ...] = ()             # board.layout: every arm by name, as ``arms``
    open_ends: tuple[tuple[str, int], ...] = ()  # board.layout: (name, value) of each open end
    cover_first: tuple[str, ...] = ()           # board.layout: arms to cover before others
    counted: tuple[tuple[str, int], ...] = ()   # board.layout: arms that only count
    marked: tuple[str, ...] = ()                # board.layout markers: trains open to all

    ends: tuple[int, ...] | None = None         # the open values as the board has them (left,
                                                # right, and up, down once a spinner opens);
                                                # None before the opening


@dataclass
class Timeline:
    """Feeds on record events one at a time and keeps the whole table up to date."""

    ruleset: str = ""
    players: int = 0
    teams: tuple[tuple[int, ...], ...] = ()
    round: int = 0
    leader: int | None = None
    hands: list[list[Tile]] = field(default_factory=list)
    table: LineOfPlay = field(default_factory=LineOfPlay)
    board_spinner: bool | None = None   # the ruleset's first double is a spinner (None: the
                                        # ruleset the record's match_start names says)
    boneyard: int = 0
    scores: list[int] = field(default_factory=list)
    index: int = -1
    event: dict[str, Any] = field(default_factory=dict)
    fit: Any = None     # the ruleset's fit rule (engine.mechanisms.matching), None: same number
    shape: Shape | None = None   # the ruleset's board.layout: the record's arms are named

    def _new_table(self) -> Any:
        if self.shape is None:
            return LineOfPlay(spinner=bool(self.board_spinner), fit=self.fit)
        return ShapedLine(self.shape, self.players)

    def feed(self, event: dict[str, Any]) -> None:
        """Apply one event (assumed legal: ``replay`` verifies the record first)."""
        self.index += 1
        self.event = event
        kind = event.get("event")
        if kind == "match_start":
            self.ruleset = str(event.get("ruleset", ""))
            self.players = int(event["players"])
            self.teams = tuple(tuple(t) for t in event["teams"])
            self.round, self.leader = 0, None
            self.hands = [[] for _ in range(self.players)]
            if self.board_spinner is None:
                self.board_spinner = _spinner_of(event)
            self.table, self.boneyard = self._new_table(), 0
            self.scores = [0] * len(self.teams)
        elif kind == "deal":
            self.round = int(event["round"])
            self.leader = event.get("leader")
            self.hands = [sorted(Tile.of(t) for t in h) for h in event["hands"]]
            self.table = self._new_table()
            self.boneyard = len(event["boneyard"])
        elif kind == "draw":
            self.boneyard -= 1
            if "tile" in event:
                hand = self.hands[event["player"]]
                hand.append(Tile.of(event["tile"]))
                hand.sort()
        elif kind == "place":
            self._place(event)
        elif kind == "turn_up":   # deal.turn_up: the line's first tile, from the boneyard
            self.boneyard -= 1
            self.table.place(*event["tile"], None)
        elif kind == "pass" and isinstance(self.table, ShapedLine):
            self.table.passed(event["player"])   # its marker goes down (markers)
        elif kind == "score":
            self.scores[event["side"]] += int(event["points"])
        elif kind in ("round_end", "match_end"):
            self.scores = list(event["scores"])

    def _place(self, event: dict[str, Any]) -> None:
        tile = Tile.of(event["tile"])
        hand = self.hands[event["player"]]
        if tile in hand:
            hand.remove(tile)
        a, b = event["tile"]
        if isinstance(self.table, ShapedLine):   # by whom: a train's marker comes up
            self.table.place(a, b, event.get("end"), None, event["player"])
        else:
            self.table.place(a, b, event.get("end"), event.get("meets"))

    def snapshot(self) -> Snapshot:
        if isinstance(self.table, ShapedLine):
            layout = self.table.board.layout
            return Snapshot(
                index=self.index, event=self.event, ruleset=self.ruleset, players=self.players,
                teams=self.teams, round=self.round, leader=self.leader,
                hands=tuple(tuple(h) for h in self.hands), line=tuple(self.table.line),
                boneyard=self.boneyard, scores=tuple(self.scores), arms=self.table.arms,
                arm_names=self.table.arm_names,
                open_ends=tuple((n, e.value) for n, e in layout.ends.items()),
                cover_first=tuple(layout.answer), counted=tuple(layout.dead.items()),
                marked=tuple(n for n, s in layout.owner.items() if s in layout.marked),
                ends=self.table.ends())
        return Snapshot(
            index=self.index, event=self.event, ruleset=self.ruleset, players=self.players,
            teams=self.teams, round=self.round, leader=self.leader,
            hands=tuple(tuple(h) for h in self.hands), line=tuple(self.table.line),
            boneyard=self.boneyard, scores=tuple(self.scores), arms=self.table.arms,
            spinner=(self.table.board.spin_value if self.table.up or self.table.down
                     else None), ends=self.table.ends())


def _spinner_of(start: dict[str, Any]) -> bool:
    """Whether the ruleset a record's ``match_start`` names (its ``source`` file or builtin
    name, as ``verify`` loads it) makes the first double a spinner: the board's ends are
    then the board's own (``engine.board``). A ruleset that no longer loads: a spinner is
    assumed, as a record with ``up`` or ``down`` placements needs one."""
    from .. import api
    from ..diagnostics import DiagnosticError

    try:
        game = api.load_game(start.get("source") or start["ruleset"])
    except (DiagnosticError, KeyError, OSError):
        return True
    return game.rules.spinner == "first_double"


def snapshots(events: Iterable[dict[str, Any]], fit: Any = None,
              shape: Shape | None = None, spinner: bool | None = None) -> list[Snapshot]:
    """The table after each event of a record, in order (``fit``: the ruleset's fit rule,
    for a record of a ruleset where tiles do not join by the same number; ``shape``: the
    ruleset's board.layout, whose arms the record names; ``spinner``: whether the first
    double is one, None: as the record's ruleset says)."""
    timeline = Timeline(fit=fit, shape=shape, board_spinner=spinner)
    out = []
    for event in events:
        timeline.feed(event)
        out.append(timeline.snapshot())
    return out
