"""Play-time events: after a placement, a draw (one per tile) or a pass, each rule of
``events`` whose ``if`` holds scores ``points`` to the actor's side and
``each_opponent`` to every other side, grants another turn (``again``) or makes
following players lose their turn (``skip``) or makes the next player draw
(``next_draws``, after a placement only) or sets variables (``set``: all of one
rule's from the values before it, each bounded as ``variables.after_round``'s). From
the schema's ``events`` and ``docs/house-rules.md`` ("How the engine settles what
house rules leave open").

The match loop (``engine.general_loop``) asks ``tiles_taken`` and ``set_values`` too: how
many tiles an effect's draw takes and what a ``set`` gives are written once, here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import table as table_rules
from .duties import Duty, bearers, laid_on
from .environment import actor_names, match_names
from .match import reached_in_play
from .matching import Tile
from .position import Position
from .table import Table
from .variables import bounded


@dataclass
class Fired:
    """What one action's events produce: score lines (rule, side, points), in rule then
    side order, the rules granting the actor another turn (a turn each: two rules, two
    turns), and how many turns are skipped."""

    scores: list[tuple[int, int, int]] = field(default_factory=list)
    again: list[int] = field(default_factory=list)   # rules granting a turn
    skips: int = 0
    draws: list[tuple[int, int]] = field(default_factory=list)   # (rule, tiles) owed
    sets: list[tuple[int, str, int]] = field(default_factory=list)   # (rule, variable, value)
    duties: list[Duty] = field(default_factory=list)   # laid on duty.on's seats (unless a domino)


def set_values(rule: Any, env: Any) -> list[tuple[str, int]]:
    """(variable, value) for each variable a rule sets (``set``), all read from ``env``
    before any is set, in the file's order."""
    return [(name, bounded(name, int(formula(env)), f"set.{name}"))
            for name, formula in rule.sets]


def rules_after(rules: Sequence[Any], after: str) -> tuple[tuple[int, Any], ...]:
    """(index, rule) of each event rule fired after ``after`` (place, draw or pass), in
    the file's order: the match loop resolves the three once a match, ``fire`` and the
    rule examples' positions ask the same."""
    return tuple((i, rule) for i, rule in enumerate(rules) if rule.after == after)


def tiles_taken(owed: int, drawable: int) -> int:
    """The tiles an event's ``next_draws`` makes the next player take: what it asks, no
    fewer than none, no more than the boneyard holds above its reserve (``drawable``)."""
    return max(0, min(owed, drawable))


def environment(pos: Position, actor: int, after: str, tile: Tile | None,
                opening: bool = False, both_ends: bool = False,
                forced: bool = False) -> dict[str, Any]:
    """The names an event formula reads, the action already applied."""
    mine = pos.side_of(actor)
    sides = pos.side_views()
    env: dict[str, Any] = {
        **match_names(pos), **actor_names(pos.seat_view(actor), sides, mine),
        "ends": tuple(pos.board.values()),
        "end_total": pos.board.end_total(), "boneyard": len(pos.boneyard),
        "passes_in_row": pos.passes_in_row,
        "drawn_this_turn": pos.drawn_this_turn, "hand": tuple(sorted(pos.hands[actor])),
        "end_doubles": tuple(
            end.double and (name in ("left", "right") or end.covered)   # an arm's own tile
            for name, end in ((n, pos.board.ends[n]) for n in pos.board.open_ends())),
        **table_names(pos.table, pos.board)}
    if after == "place":
        env.update(tile=tile, opening=opening, both_ends=both_ends)
    elif after == "draw":
        env.update(tile=tile, forced=forced)
    return env


def fire(pos: Position, actor: int, after: str, env: dict[str, Any]) -> Fired:
    """Every event rule after ``after`` whose condition holds, in order. Points count at
    once: a later rule of the same action sees the earlier rule's points in ``score``."""
    out = Fired()
    mine = pos.side_of(actor)
    for index, rule in rules_after(pos.rules.events, after):
        if rule.condition is not None and not rule.condition(env):
            continue
        points = rule.points(env) if rule.points is not None else 0
        others = rule.each_opponent(env) if rule.each_opponent is not None else 0
        for side in range(len(pos.sides)):
            gain = points if side == mine else others
            if gain:
                out.scores.append((index, side, gain))
                pos.scores[side] += gain
                pos.play_points[side] += gain
        if rule.sets:   # after its points, before the match may end on them
            done = set_values(rule, env)
            for name, value in done:
                out.sets.append((index, name, value))
                pos.values[name] = value
            env = {**env, **dict(done)}
        if reached_in_play(pos.rules.ends_in_play, pos.scores, pos.target) is not None:
            break   # the match is over: this rule's other effects and later rules lapse
        if rule.again is not None and rule.again(env):
            out.again.append(index)
        if rule.skip is not None:
            out.skips += max(0, rule.skip(env))
        if rule.next_draws is not None:
            owed = max(0, rule.next_draws(env))
            if owed:
                out.draws.append((index, owed))
        if rule.duty is not None:
            out.duties += laid_on(index, bearers(rule.duty.on, actor, pos.next_seat,
                                                 pos.side_of), env["tile"])
        if out.scores:
            env = environment_refreshed(pos, env)
    return out


def table_names(table: Table | None, board: Any) -> dict[str, Any]:
    """``board``, ``line`` and ``end_tiles`` (``mechanisms.table``) over a board of
    ``mechanisms.board`` or ``mechanisms.layout``: an arm nobody played on shows the
    double it grows from."""
    spinner = getattr(board, "spinner", None)
    return table_rules.names(table, [(name, getattr(board.ends[name], "root", None) or spinner)
                                     for name in board.open_ends()])


def environment_refreshed(pos: Position, env: dict[str, Any]) -> dict[str, Any]:
    """The same names with the sides' scores as they are now."""
    return {**env, **actor_names(env["player"], pos.side_views(), env["side"].index)}
