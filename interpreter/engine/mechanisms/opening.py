"""The opening: which tile opens a round, who lays it, and what happens when nobody can.

From the schema's ``opening`` (tile, opener, if_unheld, allow, if_lacking,
first_round) and ``docs/house-rules.md`` 10-11. The required tile is ``any`` tile of
the opener's hand, the highest double dealt, or one named tile; ``allow`` must accept
it. The required tile in no hand: ``if_unheld`` (redeal, draw_in_turn from the leader,
or the heaviest tile dealt opens by its holder). The leader holding no tile ``allow``
accepts: ``if_lacking`` (redeal, draw until they hold one, or pass the opening on to
the next seat holding one; nobody: ``if_unheld``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..game_rules import Opening, Rules
from .environment import opening_names
from .lead import highest_double_holder, holder_of
from .matching import Tile, is_double
from .position import Position


@dataclass(frozen=True)
class Plan:
    """How the round opens. ``kind``: ``place`` (``seat`` lays one of ``tiles``),
    ``draw_until`` (``seat`` draws until it holds a wanted tile), ``draw_in_turn`` (from
    ``seat`` on, each draws one tile until one draws a wanted tile), ``redeal``."""

    kind: str
    seat: int | None = None
    tiles: tuple[Tile, ...] = ()
    free: bool = False        # the opener chooses among its tiles: an ordinary turn


def rule_of(rules: Rules, rnd: int) -> Opening:
    """The opening rule of round ``rnd``: round 1's own when ``first_round`` gives one,
    else the ``opening`` section's. Asked by the rulebook (``rule_for``), the match loop
    (``GeneralLoop``'s rules of round 1 and the later rounds) and the why-not
    explanations alike."""
    if rnd == 1 and rules.first_opening is not None:
        return rules.first_opening
    return Opening(tile=rules.opening_tile, opener=rules.opener, if_unheld=rules.if_unheld,
                   allow=rules.opening_allow, explain=rules.opening_explain,
                   if_lacking=rules.if_lacking, allow_tree=rules.opening_allow_tree)


def rule_for(pos: Position) -> Opening:
    """The opening rule of the round the position is in (``rule_of``)."""
    return rule_of(pos.rules, pos.round)


def required_tile(pos: Position, rule: Opening) -> Tile | None:
    """The tile the rule names (None for ``any``, or no double dealt)."""
    if rule.tile == "any":
        return None
    if rule.tile == "highest_double":
        seat = highest_double_holder(pos)
        if seat is None:
            return None
        return max(t for t in pos.hands[seat] if is_double(t))
    return tuple(rule.tile)


def wanted(pos: Position, rule: Opening) -> Callable[[Tile, list[Tile]], bool]:
    """Whether a tile may open, for a hand holding it."""
    need = required_tile(pos, rule)

    def test(tile: Tile, hand: list[Tile]) -> bool:
        if rule.tile == "highest_double" and need is None:
            return False
        if need is not None and tile != need:
            return False
        if rule.allow is None:
            return True
        return bool(rule.allow({**opening_names(pos, hand, pos.rules.max_pip),
                                "tile": tile}))
    return test


def openers_tiles(pos: Position, rule: Opening, seat: int) -> tuple[Tile, ...]:
    test = wanted(pos, rule)
    return tuple(t for t in sorted(pos.hands[seat]) if test(t, pos.hands[seat]))


def heaviest(pos: Position) -> Plan:
    """The heaviest tile dealt opens, by its holder: most pips, then the higher half
    (the schema's ``if_unheld`` and docs/house-rules.md: [6|0] before [5|1])."""
    seat, tile = max(((s, t) for s, hand in enumerate(pos.hands) for t in hand),
                     key=lambda st: (st[1][0] + st[1][1], st[1][1]))
    return Plan("place", seat, (tile,))


def unheld(pos: Position, rule: Opening, leader: int) -> Plan:
    if rule.if_unheld == "heaviest":
        return heaviest(pos)
    if rule.if_unheld == "draw_in_turn":
        test = wanted(pos, rule)
        drawable = pos.boneyard[:max(0, len(pos.boneyard) - pos.rules.reserve)]
        if any(test(t, [t]) for t in drawable):
            return Plan("draw_in_turn", leader)
    return Plan("redeal")


def plan(pos: Position, leader: int) -> Plan:
    """How the round dealt in ``pos`` opens under ``leader``."""
    rule = rule_for(pos)
    need = required_tile(pos, rule)
    if rule.tile != "any":
        holder = None if need is None else holder_of(pos, need)
        if holder is None:
            return unheld(pos, rule, leader)
        opener = holder if rule.opener == "holder" else leader
        if opener != holder:
            # the leader must open with a tile another seat holds: the deal is thrown
            # in (the schema's ``opener``, docs/house-rules.md)
            return Plan("redeal")
        tiles = openers_tiles(pos, rule, opener)
        if tiles:
            return Plan("place", opener, tiles)
        return lacking(pos, rule, leader)
    tiles = openers_tiles(pos, rule, leader)
    if tiles:
        return Plan("place", leader, tiles, free=True)
    return lacking(pos, rule, leader)


def lacking(pos: Position, rule: Opening, leader: int) -> Plan:
    if rule.if_lacking == "draw":
        return Plan("draw_until", leader)
    if rule.if_lacking == "pass_on":
        seat = leader
        for _ in range(pos.players - 1):
            seat = pos.next_seat(seat)
            tiles = openers_tiles(pos, rule, seat)
            if tiles:
                return Plan("place", seat, tiles, free=rule.tile == "any")
        return unheld(pos, rule, leader)
    return Plan("redeal")
