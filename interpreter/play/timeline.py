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

    @property
    def ends(self) -> tuple[int, ...] | None:
        """Open values: left, right, and up, down once a spinner's arm is in use."""
        if not self.line:
            return None
        ends: tuple[int, ...] = (self.line[0][0], self.line[-1][1])
        if self.spinner is not None:
            ends += tuple(arm[-1][1] if arm else self.spinner for arm in self.arms)
        return ends


@dataclass
class Timeline:
    """Feeds on record events one at a time and keeps the whole table up to date."""

    ruleset: str = ""
    players: int = 0
    teams: tuple[tuple[int, ...], ...] = ()
    round: int = 0
    leader: int | None = None
    hands: list[list[Tile]] = field(default_factory=list)
    table: LineOfPlay = field(default_factory=lambda: LineOfPlay(spinner=True))
    boneyard: int = 0
    scores: list[int] = field(default_factory=list)
    index: int = -1
    event: dict[str, Any] = field(default_factory=dict)
    shape: Shape | None = None   # the ruleset's board.layout: the record's arms are named

    def _new_table(self) -> Any:
        return LineOfPlay(spinner=True) if self.shape is None else ShapedLine(self.shape)

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
            self.table, self.boneyard = self._new_table(), 0
            self.scores = [0] * len(self.teams)
        elif kind == "deal":
            self.round = int(event["round"])
            self.leader = event.get("leader")
            self.hands = [sorted(Tile.of(t) for t in h) for h in event["hands"]]
            # a record names the arms, not the spinner: the first double placed is taken
            # (board.spinner: first_double); without arms nothing of it shows
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
        self.table.place(a, b, event.get("end"))

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
                cover_first=tuple(layout.answer), counted=tuple(layout.dead.items()))
        return Snapshot(
            index=self.index, event=self.event, ruleset=self.ruleset, players=self.players,
            teams=self.teams, round=self.round, leader=self.leader,
            hands=tuple(tuple(h) for h in self.hands), line=tuple(self.table.line),
            boneyard=self.boneyard, scores=tuple(self.scores), arms=self.table.arms,
            spinner=(self.table.board.spin_value if self.table.up or self.table.down
                     else None))


def snapshots(events: Iterable[dict[str, Any]], shape: Shape | None = None) -> list[Snapshot]:
    """The table after each event of a record, in order (``shape``: the ruleset's
    board.layout, whose arms the record names)."""
    timeline = Timeline(shape=shape)
    out = []
    for event in events:
        timeline.feed(event)
        out.append(timeline.snapshot())
    return out
