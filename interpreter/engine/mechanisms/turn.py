"""A turn: what the player to act may do.

From ``docs/variants.md`` (common rules), the schema's ``drawing`` and ``play`` and
``docs/house-rules.md``: a player places a tile that fits an open end and meets every
placement restriction; may draw (one tile at a time, keeping the turn) while the
boneyard holds more than ``reserve`` tiles and the turn's ``limit`` is not reached,
holding a playable tile only when ``voluntary`` draws are allowed and, holding none,
only when ``when_stuck`` is ``draw``; and passes only when nothing else is possible,
unless the ruleset's turn options (``turn_options``: exact draws, passing at will) say
more.
When every fitting tile is forbidden, ``if_none_allowed`` says whether the player
counts as stuck, passes at once, or may lay any fitting tile.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass

from . import blind, restrictions, several, turn_options
from .layout import Layout
from .matching import Tile
from .position import Position


@dataclass(frozen=True, order=True)
class Action:
    """One thing a player may do: ``place`` a tile at an end (None: the opening), ``draw``
    or ``pass``. ``meets``: the half against the end, named only when the fit rule lets
    the tile lie on that end either way round (``matching``). ``several``: a move of
    several tiles (``play.several``), its placements in ``parts``."""

    kind: str
    tile: Tile | None = None
    end: str | None = None
    meets: int | None = None
    parts: tuple = ()

    def __str__(self) -> str:
        if self.kind == "several":
            return several.text(str(p) for p in self.parts)
        if self.kind != "place":
            return self.kind
        low, high = self.tile
        way = f" {self.meets}" if self.meets is not None else ""
        return f"{high}-{low}" + (f" {self.end}{way}" if self.end else " (opening)")


DRAW = Action("draw")
PASS = Action("pass")


def can_draw(pos: Position) -> bool:
    """The boneyard holds a tile above the reserve and the turn's limit is not reached."""
    rules = pos.rules
    if len(pos.boneyard) <= rules.reserve:
        return False
    return rules.draw_limit is None or pos.drawn_this_turn < rules.draw_limit


def fitting(pos: Position, seat: int) -> list[Action]:
    """Every placement of ``seat``'s tiles on an open end, before restrictions: one per way
    a tile may lie there, each naming its half against the end when there are two. A tile
    held twice (``set.copies``) is one placement, as the loop lists it: its copies are
    alike, so they make the same moves."""
    out = []
    board = pos.board
    if isinstance(board, Layout):   # the ends open to this seat (trains have owners)
        ends = [name for name, _ in board.playable(seat)]
        ways_of = lambda t, end: board.ways(t, end, seat)  # noqa: E731
    else:
        ends, ways_of = board.open_ends(), board.ways
    for t in sorted(set(pos.hands[seat])):
        for end in ends:
            ways = ways_of(t, end)
            if len(ways) > 1:
                out += [Action("place", t, end, half) for half, _ in ways]
            elif ways:
                out.append(Action("place", t, end))
    return out


def allowed_by_restrictions(pos: Position, seat: int, action: Action) -> bool:
    """Whether ``action`` meets every placement restriction (``play.restrictions``)."""
    hand = pos.hands[seat]
    board = pos.board
    shaped = isinstance(board, Layout)   # what a shaped board tells the placement rules
    env = restrictions.placement_env(
        tuple(sorted(hand)),
        tuple(t for t in sorted(hand) if (board.ends_fitting(t, seat) if shaped
                                          else board.ends_fitting(t))),
        tuple(board.values()), len(pos.boneyard), pos.round, pos.players,
        (board.spinners_complete(), board.doubles_down()) if shaped else None)
    restrictions.at(env, action.tile, board.ends[action.end].value,
                    board.arm_of(action.end) if shaped else None)
    return restrictions.allows(pos.rules.restrictions, env)


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


def moves(pos: Position, seat: int) -> tuple[list[Action], bool]:
    """``placements``, with the moves of several tiles ``play.several`` allows after them
    (``mechanisms.several``: each tile judged by ``placements`` once the ones before it
    lie) and the single ones it lets go down alone."""
    places, pass_now = placements(pos, seat)
    rule = several.rule_of(pos.rules)
    if rule is None or pass_now:
        return places, pass_now

    shaped = isinstance(pos.board, Layout)   # ends open to this seat, trains it owns
    first = bool(pos.turns) and several.first_turn(pos.turns[seat])

    def facts(p: Position, a: Action) -> dict:
        hand = sorted(p.hands[seat])
        return several.placement_env(
            a.tile, p.board.ends[a.end].value, hand,
            [t for t in hand if (p.board.ends_fitting(t, seat) if shaped
                                 else p.board.ends_fitting(t))],
            p.board.values(), len(p.boneyard), p.round, p.players, first,
            shaped and p.board.own_train(a.end, seat))

    def steps(p: Position, end: str) -> list[tuple[Action, Position]]:
        out = []
        for a in placements(p, seat)[0]:
            if a.end == end and several.tile_allowed(rule, facts(p, a)):
                after = dataclasses.replace(   # a Layout copies itself cheaply
                    p, board=p.board.copy() if shaped else copy.deepcopy(p.board),
                    hands=[list(h) for h in p.hands])
                if shaped:   # by this seat: its own train's marker comes up
                    after.board.place(a.tile, a.end, seat=seat)
                else:
                    after.board.place(a.tile, a.end, a.meets)
                after.hands[seat].remove(a.tile)
                out.append((a, after))
        return out

    ends = ([name for name, _ in pos.board.playable(seat)] if shaped
            else pos.board.open_ends())
    multi = [Action("several", parts=m)
             for m in several.moves(rule, ends, pos, steps,
                                    len(pos.hands[seat]), lambda p: (
                                        tuple(sorted(p.hands[seat])), tuple(p.board.values())),
                                    lambda a: a.tile[0] == a.tile[1])]
    alone = [a for a in places if several.alone_allowed(rule, facts(pos, a))]
    return alone + multi, False


def turn_can_draw(pos: Position) -> bool:
    """``can_draw`` in a turn of play, where ``drawing.exactly`` is the turn's limit."""
    rule = turn_options.rule_of(pos.rules)
    if rule is None or not rule.exactly:
        return can_draw(pos)
    return can_draw(pos) and pos.drawn_this_turn < rule.exactly


def legal_actions(pos: Position) -> list[Action]:
    """What the player to act may do in an ordinary turn (after the opening)."""
    seat = pos.turn
    places, pass_now = moves(pos, seat)
    if pos.rules.blind:   # hidden rows: the front tile alone, else a pass (mechanisms.blind)
        return blind.only_front(pos.hands[seat], places, lambda a: a.tile) or [PASS]
    if pass_now:
        return [PASS]
    rules = pos.rules
    rule = turn_options.rule_of(rules)
    may_draw = turn_can_draw(pos)
    at_will = False
    if rule is not None:   # what a turn may hold beyond the plain game's
        if turn_options.must_draw(rule, pos.drawn_this_turn, may_draw):
            return [DRAW]
        at_will = turn_options.may_pass(rule, pos.drawn_this_turn, may_draw)
    if places:
        out = places + ([DRAW] if rules.voluntary_draw and may_draw else [])
    elif rules.when_stuck == "draw" and may_draw:
        out = [DRAW]
    else:
        return [PASS]
    return out + [PASS] if at_will else out


def is_stuck(pos: Position, seat: int) -> bool:
    """Holds no placement the rules allow (``forced`` for a draw)."""
    return not moves(pos, seat)[0]
