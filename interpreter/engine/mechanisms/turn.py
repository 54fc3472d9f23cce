"""A turn: what the player to act may do.

From ``docs/variants.md`` (common rules), the schema's ``drawing`` and ``play`` and
``docs/house-rules.md``: a player places a tile that fits an open end and meets every
placement restriction; may draw (one tile at a time, keeping the turn) while the
boneyard holds more than ``reserve`` tiles and the turn's ``limit`` is not reached,
holding a playable tile only when ``voluntary`` draws are allowed and, holding none,
only when ``when_stuck`` is ``draw``; and passes only when nothing else is possible.
When every fitting tile is forbidden, ``if_none_allowed`` says whether the player
counts as stuck, passes at once, or may lay any fitting tile.
"""

from __future__ import annotations

from dataclasses import dataclass

from .layout import Layout
from .matching import Tile
from .position import Position


@dataclass(frozen=True, order=True)
class Action:
    """One thing a player may do: ``place`` a tile at an end (None: the opening), ``draw``
    or ``pass``."""

    kind: str
    tile: Tile | None = None
    end: str | None = None

    def __str__(self) -> str:
        if self.kind != "place":
            return self.kind
        low, high = self.tile
        return f"{high}-{low}" + (f" {self.end}" if self.end else " (opening)")


DRAW = Action("draw")
PASS = Action("pass")


def can_draw(pos: Position) -> bool:
    """The boneyard holds a tile above the reserve and the turn's limit is not reached."""
    rules = pos.rules
    if len(pos.boneyard) <= rules.reserve:
        return False
    return rules.draw_limit is None or pos.drawn_this_turn < rules.draw_limit


def fitting(pos: Position, seat: int) -> list[Action]:
    """Every placement of ``seat``'s tiles on an open end, before restrictions."""
    return [Action("place", t, end) for t in sorted(pos.hands[seat])
            for end in pos.board.ends_fitting(t)]


def allowed_by_restrictions(pos: Position, seat: int, action: Action) -> bool:
    """Whether ``action`` meets every placement restriction (``play.restrictions``)."""
    hand = pos.hands[seat]
    playable = tuple(t for t in sorted(hand) if pos.board.ends_fitting(t))
    env = {"tile": action.tile, "hand": tuple(sorted(hand)), "playable": playable,
           "ends": tuple(pos.board.values()), "end": pos.board.ends[action.end].value,
           "boneyard": len(pos.boneyard), "round": pos.round, "players": pos.players}
    board = pos.board
    if isinstance(board, Layout):   # what a shaped board tells the placement rules
        env.update(arm=board.arm_of(action.end), spinners_complete=board.spinners_complete(),
                   doubles_down=board.doubles_down())
    return all(r.allow(env) for r in pos.rules.restrictions)


def placements(pos: Position, seat: int) -> tuple[list[Action], bool]:
    """The placements ``seat`` may make, and whether it must pass at once
    (``if_none_allowed: pass`` with every fitting tile forbidden)."""
    fits = fitting(pos, seat)
    allowed = [a for a in fits if allowed_by_restrictions(pos, seat, a)]
    if fits and not allowed:
        choice = pos.rules.if_none_allowed
        if choice == "waive":
            return fits, False
        if choice == "pass":
            return [], True
    return allowed, False


def legal_actions(pos: Position) -> list[Action]:
    """What the player to act may do in an ordinary turn (after the opening)."""
    seat = pos.turn
    places, pass_now = placements(pos, seat)
    if pass_now:
        return [PASS]
    rules = pos.rules
    if places:
        return places + ([DRAW] if rules.voluntary_draw and can_draw(pos) else [])
    if rules.when_stuck == "draw" and can_draw(pos):
        return [DRAW]
    return [PASS]


def is_stuck(pos: Position, seat: int) -> bool:
    """Holds no placement the rules allow (``forced`` for a draw)."""
    return not placements(pos, seat)[0]
