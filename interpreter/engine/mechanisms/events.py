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

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..bounds import checked_points, checked_skip
from ..game_rules import Rules
from . import table as table_rules
from .duties import Duty, bearers, laid_line, laid_on
from .environment import actor_names, match_names
from .match import reached_in_play
from .matching import Tile
from .position import Position
from .several import again_lapses
from .table import Table
from .variables import bounded


class Fired:
    """What one action's events produce: score lines (rule, side, points), in rule then
    side order, the rules granting the actor another turn (a turn each: two rules, two
    turns), how many turns are skipped, the tiles owed to the next seat, the variables
    set, the duties laid, and the side that won the match with them (``reached``, with
    ``match.ends_in_play``; None: play goes on)."""

    __slots__ = ("scores", "again", "skips", "draws", "sets", "duties", "reached")

    def __init__(self) -> None:
        self.scores: tuple[tuple[int, int, int], ...] = ()
        self.again: tuple[int, ...] = ()                    # rules granting a turn
        self.skips = 0
        self.draws: tuple[tuple[int, int], ...] = ()        # (rule, tiles) owed
        self.sets: tuple[tuple[int, str, int], ...] = ()    # (rule, variable, value)
        self.duties: tuple[Duty, ...] = ()                  # laid on duty.on's seats
        self.reached: int | None = None


NOTHING = Fired()   # what an action fires when no rule's condition holds (never changed)


class Match(Protocol):
    """What ``fire`` reads and changes of a match, by name: a ``Position``, or the match
    loop's view of its own (``engine.general_loop``)."""

    rules: Rules
    scores: list[int]        # per side, changed at once
    play_points: list[int]   # per side, this round's points from events
    values: dict[str, int]   # the variables
    target: int

    def side_of(self, seat: int) -> int: ...

    def next_seat(self, seat: int) -> int: ...


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


def fire(pos: Match, actor: int, after: str, env: Any, ends_round: bool = False,
         goes_on: bool = False, rules_of: tuple | None = None,
         rescore: Callable[[Any], None] | None = None,
         record: list[dict[str, Any]] | None = None) -> Fired:
    """Every event rule after ``after`` whose condition holds, in order; the one reading
    of play-time events (the match loop's ``_fire`` and the rulebook both ask it).

    Points count at once: every formula read after them, the rule's own ``set``,
    ``again``, ``skip``, ``next_draws`` and the later rules, sees them in ``score``
    (``rescore(env)`` brings ``env``'s tallies up to date; the default rebuilds them from
    a ``Position``). A rule's sets are read before any is set and written into ``env``.
    ``ends_round``: the action empties the actor's hand (a domino, or out with
    ``play.until``): the turns it would grant, the tiles it would make the next seat
    draw and the duties it would lay lapse (docs/house-rules.md); its points and skips
    count. ``goes_on``: a tile of a move going on (``several.again_lapses``). When the
    points win the match (``match.ends_in_play``), that rule's other effects, every
    later rule and what earlier ones would still do (draws, duties) lapse.
    ``rules_of``: ``rules_after(pos.rules.events, after)``, resolved once by a caller
    firing many actions. ``record``: the action's record lines are added to it in the
    record's order: rule by rule its points side by side, its sets, the turn it grants;
    then each duty laid. ``NOTHING`` when no rule's condition holds."""
    out = NOTHING
    if rules_of is None:
        rules_of = rules_after(pos.rules.events, after)
    for index, rule in rules_of:
        if rule.condition is not None and not rule.condition(env):
            continue
        if out is NOTHING:   # the first rule that fires (most actions fire none)
            out = Fired()
        mine, scores = pos.side_of(actor), pos.scores
        points = checked_points(rule.points(env)) if rule.points is not None else 0
        others = checked_points(rule.each_opponent(env)) if rule.each_opponent is not None \
            else 0
        if points or others:
            play = pos.play_points
            for side in (range(len(scores)) if others else (mine,)):   # in side order
                gain = points if side == mine else others
                if gain:
                    out.scores += ((index, side, gain),)
                    scores[side] += gain
                    play[side] += gain
                    if record is not None:
                        record.append({"event": "score", "player": actor, "side": side,
                                       "points": gain, "rule": index})
            if rescore is None:
                env.update(actor_names(pos.seat_view(actor), pos.side_views(), mine))
            else:
                rescore(env)
        if rule.sets:   # after its points, before the match may end on them
            for name, value in set_values(rule, env):
                out.sets += ((index, name, value),)
                pos.values[name] = env[name] = value
                if record is not None:
                    record.append({"event": "set", "player": actor, "variable": name,
                                   "value": value, "rule": index})
        if pos.rules.ends_in_play:
            out.reached = reached_in_play(True, scores, pos.target)
            if out.reached is not None:   # the match is over: this rule's other effects,
                out.draws = out.duties = ()   # later rules and what earlier ones would
                return out                    # still do lapse
        if rule.again is not None and not ends_round and not again_lapses(
                pos.rules.several, goes_on) and rule.again(env):
            out.again += (index,)
            if record is not None:
                record.append({"event": "extra_turn", "player": actor})
        if rule.skip is not None:
            out.skips += checked_skip(max(0, int(rule.skip(env))))
        if rule.next_draws is not None and not ends_round:
            owed = max(0, int(rule.next_draws(env)))
            if owed:
                out.draws += ((index, owed),)
        if rule.duty is not None and not ends_round:
            out.duties += tuple(laid_on(index, bearers(rule.duty.on, actor, pos.next_seat,
                                                       pos.side_of), env["tile"]))
    if out.duties and record is not None:   # after the rules' other lines
        record += [laid_line(duty) for duty in out.duties]
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
