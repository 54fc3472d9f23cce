"""What a turn may hold beyond the plain game's: a draw that ends the turn, drawing
exactly N tiles, passing at will (the schema's ``drawing.ends_turn``,
``drawing.exactly`` and ``play.passing``; docs/house-rules.md, "Turns").

Written once, over plain values: the match loop (``engine.general_loop``), the rule
examples' positions (``engine.positions``, through ``GeneralLoop.decide``) and the
rulebook (``engine.rulebook`` through ``mechanisms.turn``) all ask these functions, so
the three cannot disagree on what a turn allows. A ruleset that uses none of them gets
``None`` from ``rule_of`` and never calls anything here.

- ``exactly: N``: once a player draws in a turn, only another draw is allowed until N
  tiles are drawn (or the boneyard is down to its reserve); then the player places if
  able, else passes. N is also the turn's most draws.
- ``ends_turn``: the turn's draws (one tile, or the N of ``exactly``) end the turn.
- ``passing: at_will``: a pass is allowed at every turn of play, even holding a
  playable tile or able to draw. Such a pass is no sign the player is stuck, so only
  a forced pass counts towards "every player has passed" (the round is blocked when
  nobody can place or draw); the two full turns of the table with nobody placing or
  drawing still block the round, which bounds a table that keeps passing at will.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class TurnRule(NamedTuple):
    """The turn options a ruleset uses."""

    ends_turn: bool       # a draw ends the turn
    exactly: int          # tiles drawn once drawing starts; 0: one at a time (the plain game)
    at_will: bool         # a pass is allowed at every turn of play


def rule_of(rules: Any) -> TurnRule | None:
    """The ruleset's turn options, or None when it plays the plain turn."""
    rule = TurnRule(bool(rules.draw_ends_turn), int(rules.draw_exactly or 0),
                    rules.passing == "at_will")
    return rule if any(rule) else None


def turn_limit(rule: TurnRule, limit: int) -> int:
    """The most tiles drawn in one turn of play: ``exactly`` replaces ``limit``."""
    return min(limit, rule.exactly) if rule.exactly else limit


def must_draw(rule: TurnRule, drawn: int, may_draw: bool) -> bool:
    """Mid-way through an exact draw: another draw is the only legal action (``may_draw``:
    the boneyard holds a tile above the reserve and the turn's limit is not reached)."""
    return bool(rule.exactly) and drawn > 0 and may_draw


def may_pass(rule: TurnRule, drawn: int, may_draw: bool) -> bool:
    """Whether a pass is allowed although something else is (a pass at will): never in
    the middle of an exact draw."""
    return rule.at_will and not must_draw(rule, drawn, may_draw)


def now(rule: TurnRule, drawn: int, may_draw: bool) -> tuple[bool, bool]:
    """(only a draw is allowed, a pass at will is allowed) at this point of a turn of play,
    ``drawn`` tiles drawn in it (``may_draw``: as ``must_draw`` takes it). The match loop
    asks here at every decision of a ruleset with ``exactly`` or ``at_will``, and
    ``GeneralLoop.decide`` (a rule example's position) asks the same.

    >>> now(TurnRule(False, 2, True), 1, True), now(TurnRule(False, 2, True), 2, False)
    ((True, False), (False, True))
    """
    only_draw = must_draw(rule, drawn, may_draw)
    return only_draw, rule.at_will and not only_draw


def turn_over_after_draw(rule: TurnRule, may_draw_more: bool) -> bool:
    """After a draw: whether it ends the turn (``may_draw_more``: the draw that follows
    would be allowed by the boneyard and the turn's limit)."""
    return rule.ends_turn and (not rule.exactly or not may_draw_more)

