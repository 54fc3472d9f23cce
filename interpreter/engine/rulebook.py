"""The rulebook: a second, independent reading of a game record (``verify --strict``).

Why it exists: ``records.verify_file`` replays a record with the engine that wrote
it, so it can only tell that a record is what the engine would do, not that the
engine does what the docs say. This module reads the same record against the rules
as ``docs/records.md``, ``docs/house-rules.md``, ``docs/language.md`` and the
schema state them, through the plain mechanisms of ``engine/mechanisms/``: event by
event it derives what the rules allow (a turn's legal actions, a deal's leader or
its redeal) or produce (score, extra_turn and skip lines, a round's points, the
match's end) and returns the first disagreement, naming the record line, what the
rules say and what the record says.

It must never import the match loops or kernels (``general_loop``, ``plain_loop``,
``board``, ``positions``, ``explain``, ``game``, ``scoring``, ``kernel``): a
reading that shares their code would share their mistakes
(``tests/test_rulebook.py`` checks the imports). It is slow on purpose and stays out
of every hot path. It reads the compiled ``Rules`` (plain values and formula
callables) and the tile parser; ``records.check_file_strict`` reads the file and loads
the rules a match names (the layer above).

Chance is not a rule: the shuffle, a lot, a tile drawn from a full set and exposed
tiles are taken from the record (a lot must name a seat); everything else is checked.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostic
from .mechanisms import (
    blind,
    deal,
    declarations,
    duties,
    environment,
    events,
    lead,
    match,
    opening,
    settle,
    side_out,
    turn,
    turn_options,
    turn_up,
    variables,
)
from .mechanisms.layout import Layout
from .mechanisms.matching import Tile
from .mechanisms.opening import Plan
from .mechanisms.position import LastRound, Position
from .mechanisms.turn import DRAW, Action

CODE = "record-strict"


class Disagreement(Exception):
    """The record and the rules part ways at ``line``."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


def _tile(value: Any) -> Tile | None:
    if (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)):
        return (min(value), max(value))
    return None


def _tiles(line: int, items: list) -> list[Tile]:
    out = []
    for item in items:
        tile = _tile(item)
        if tile is None:
            raise Disagreement(line, f"{item!r} is not a tile: the rules write one as [low, high]")
        out.append(tile)
    return out


def _say(value: Any) -> str:
    """A value as the record writes it (``null``, ``[3, 4]``)."""
    return json.dumps(value, separators=(", ", ": "))


def _show(tile: Tile | None) -> str:
    return "none" if tile is None else f"[{tile[0]}, {tile[1]}]"


def _actions(actions: list[Action]) -> str:
    return ", ".join(str(a) for a in actions) or "nothing"


@dataclass
class _Expected:
    """An event the rules produce on their own, and the fields the record must match."""

    fields: dict[str, Any]

    @property
    def kind(self) -> str:
        return self.fields["event"]

    def text(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in self.fields.items() if k != "event")


class MatchReading:
    """One match read against the rules, a record line at a time."""

    def __init__(self, rules, line: int, start: dict[str, Any]):
        players = start["players"]
        if not rules.min_players <= players <= rules.max_players:
            raise Disagreement(line, f"the rules allow {rules.min_players} to "
                               f"{rules.max_players} players; the record has {players}")
        if rules.partnerships:
            if players % 2:
                raise Disagreement(line, f"partnerships need an even player count; the "
                                   f"record has {players}")
            sides = (tuple(range(0, players, 2)), tuple(range(1, players, 2)))
        else:
            sides = tuple((s,) for s in range(players))
        if start["teams"] != [list(s) for s in sides]:
            raise Disagreement(line, f"the rules seat the sides {[list(s) for s in sides]}; "
                               f"the record says teams {start['teams']}")
        target = rules.target(players, len(sides), rules.partnerships)
        self.pos = Position(rules, players, sides, target, [0] * len(sides), [0] * len(sides),
                            values=variables.starting(rules.variables))
        self.expected: deque[_Expected] = deque()
        self.phase = "deal"          # deal | open | turn | over
        self.plan: Plan | None = None
        self.pos.round = 1
        # declarations due (mechanisms.declarations): (declaration, seat, its names when
        # read, what follows the last of them); passes made while able to place (showdown)
        self.pending: deque[tuple[Any, int, Callable[[], dict], Any]] = deque()
        self.reneged = [0] * players
        self.move: tuple[list[Action], int] | None = None   # a several-tile move under way:
                                                            # the moves it may be, tiles laid

    # -- the record, line by line ---------------------------------------------------
    def read(self, line: int, e: dict[str, Any]) -> None:
        kind = e["event"]
        if self.expected:
            self._match_expected(line, e, self.expected.popleft())
            return
        if self.pending:
            self._declaration(line, e)
            return
        if self.phase == "over":
            raise Disagreement(line, f"the match is over; the record goes on with {kind}")
        if self.phase == "deal":
            if kind != "deal":
                raise Disagreement(line, f"a deal for round {self.pos.round} comes next; the "
                                   f"record has {kind}")
            self._deal(line, e)
            return
        if self.phase == "open" and self.plan.kind == "draw_until" and self._drawn_out():
            self._leader_drew_in_vain()
            self.read(line, e)
            return
        if kind not in ("draw", "place", "pass"):
            raise Disagreement(line, f"player {self._actor()} is to act; the record has {kind}")
        if "rule" in e:
            raise Disagreement(line, f"no event makes a player draw here: player "
                               f"{self._actor()} is to act; the record has a draw by rule "
                               f"{_say(e['rule'])}")
        self._action(line, e)

    def _drawn_out(self) -> bool:
        """The leader drawing for an opening tile has drawn every tile above the reserve
        (the schema: until the boneyard runs out; a turn's draw ``limit`` is for turns)."""
        return len(self.pos.boneyard) <= self.pos.rules.reserve

    def _leader_drew_in_vain(self) -> None:
        """``if_lacking: draw`` and the boneyard has run out: ``if_unheld`` applies (a
        redeal deals the round again)."""
        pos = self.pos
        self.plan = opening.unheld(pos, opening.rule_for(pos), pos.leader)
        if self.plan.kind == "redeal":
            self.phase = "deal"
        else:
            pos.turn = self.plan.seat
            pos.drawn_this_turn = 0

    def finished(self) -> bool:
        return self.phase == "over" and not self.expected

    def _match_expected(self, line: int, e: dict[str, Any], want: _Expected) -> None:
        if e["event"] != want.kind:
            raise Disagreement(line, f"the rules write {want.kind} ({want.text()}) here; the "
                               f"record has {e['event']}")
        for key, value in want.fields.items():
            got = e.get(key)
            if key == "tile":
                got = _tile(got)
                value = tuple(value) if isinstance(value, list) else value
            if got != value:
                raise Disagreement(line, f"{want.kind} {key}: the rules say {_say(value)}; "
                                   f"the record says {_say(e.get(key))}")

    # -- the deal -------------------------------------------------------------------
    def _deal(self, line: int, e: dict[str, Any]) -> None:
        pos = self.pos
        if e["round"] != pos.round:
            raise Disagreement(line, f"deal round: the rules say {pos.round}; the record says "
                               f"{e['round']}")
        hands = [_tiles(line, h) if isinstance(h, list) else [] for h in e["hands"]]
        boneyard = _tiles(line, e["boneyard"])
        problem = deal.deal_problem(pos, hands, boneyard)
        if problem:
            raise Disagreement(line, problem)
        deal.start_round(pos, hands, boneyard)
        self.reneged = [0] * pos.players
        recorded = e["leader"]
        if recorded is not None and not (isinstance(recorded, int)
                                         and 0 <= recorded < pos.players):
            raise Disagreement(line, f"deal leader: the rules name a seat 0 to "
                               f"{pos.players - 1}; the record says {recorded}")
        choice = lead.choice_for(pos)
        if choice in lead.BY_CHANCE:
            seats = [recorded] if recorded is not None else list(range(pos.players))
            outcomes = {s: self._deal_outcome(s) for s in seats}
            if recorded is None:
                if not any(plan.kind == "redeal" for plan in outcomes.values()):
                    raise Disagreement(line, f"round {pos.round}: the rules open this deal "
                                       "(whoever the lot names); the record throws it in "
                                       "(leader null)")
                return
            leader, plan = recorded, outcomes[recorded]
        else:
            rule = opening.rule_for(pos)
            tile = rule.tile if isinstance(rule.tile, tuple) else None
            leader = lead.leader(pos, choice, tile)
            if leader is None and rule.if_unheld == "heaviest":
                leader = opening.heaviest(pos).seat   # issue 19 item 1: heaviest opens
            plan = self._deal_outcome(leader) if leader is not None else Plan("redeal")
        rules_leader = None if plan.kind == "redeal" else leader
        if rules_leader != recorded:
            if rules_leader is None:
                say = "nobody can open this deal, so it is thrown in (leader null)"
            else:
                say = f"seat {rules_leader} leads"
            raise Disagreement(line, f"round {pos.round}: the rules say {say}; the record "
                               f"says leader {_say(recorded)}")
        if leader is not None:   # deal.leftover: in the named seat's hand
            problem = deal.leftover_problem(pos, leader)
            if problem:
                raise Disagreement(line, problem)
        if plan.kind == "redeal":
            return
        pos.leader = leader
        self.plan = plan
        self.phase = "open"
        pos.turn = plan.seat
        for decl in declarations.at(pos.rules, "round_start"):   # the leader chooses
            self.pending.append((decl, leader, lambda: self._option_env(leader), None))
        self._turn_up(leader)

    def _turn_up(self, leader: int) -> None:
        """``deal.turn_up``: the boneyard's first tile starts the line, placed by nobody,
        and the leader plays the first turn of play on it."""
        pos = self.pos
        tile = turn_up.turned_up(pos.rules.turn_up, pos.boneyard)
        if tile is None:
            return
        pos.boneyard.pop(0)
        pos.board.place(tile, None)
        pos.last_tile = tile
        pos.last_player = turn_up.stand_in(leader, pos.next_seat, pos.players)
        self.phase = "turn"
        pos.turn = leader
        self._begin_turn()
        self.expected.append(_Expected({"event": "turn_up", "tile": tile}))

    def _deal_outcome(self, leader: int) -> Plan:
        if deal.redeal_asked(self.pos):
            return Plan("redeal")
        if self.pos.rules.blind:   # hidden rows: the leader's front tile opens
            return Plan("place", leader, (blind.front(self.pos.hands[leader]),))
        return opening.plan(self.pos, leader)

    # -- actions --------------------------------------------------------------------
    def _actor(self) -> int:
        return self.pos.turn

    def _whose_turn(self) -> str:
        seat = self.pos.turn
        if self.phase == "open":
            return {"place": f"player {seat} opens the round by the rules",
                    "draw_until": f"player {seat} draws until holding a tile that may open, "
                                  "by the rules",
                    "draw_in_turn": f"player {seat} draws in turn for the opening tile, by "
                                    "the rules"}[self.plan.kind]
        return f"it is player {seat}'s turn by the rules"

    def _legal(self) -> list[Action]:
        pos = self.pos
        if self.phase == "turn":
            return turn.legal_actions(pos)
        plan = self.plan
        if plan.kind == "place":
            out = [Action("place", t, None) for t in plan.tiles]
            if plan.free and pos.rules.voluntary_draw and turn.can_draw(pos):
                out.append(DRAW)
            return out
        if plan.kind == "draw_until":
            return [DRAW]
        return [DRAW] if len(pos.boneyard) > pos.rules.reserve else []

    def _action(self, line: int, e: dict[str, Any]) -> None:
        pos = self.pos
        kind = e["event"]
        if e["player"] != pos.turn:
            raise Disagreement(line, f"{self._whose_turn()}; the record has player "
                               f"{e['player']} {kind}")
        if kind == "place":
            tile = _tile(e["tile"])
            if tile is None:
                raise Disagreement(line, f"{e['tile']!r} is not a tile")
            action = Action("place", tile, e["end"], e.get("meets"))
        else:
            action = Action(kind)
        if self.move is not None or e.get("part") is not None:   # play.several
            self._part(line, e, action)
            return
        legal = self._legal()
        if kind == "place" and action.tile not in pos.hands[pos.turn]:
            raise Disagreement(line, f"player {pos.turn} holds {_say(sorted(pos.hands[pos.turn]))} "
                               f"by the rules; the record places {_show(action.tile)}")
        if action not in legal:
            raise Disagreement(line, f"player {pos.turn} may {_actions(legal)} by the rules; "
                               f"the record has {action}")
        if kind == "draw":
            self._draw(line, e)
        elif kind == "place":
            self._place(action)
        elif pos.rules.blind:   # the front tile did not fit: it goes to the back
            self._pass(forced=self._front_to_back(line, e))
        else:   # a pass with something else allowed is a pass at will (play.passing)
            if any(a.kind == "place" for a in legal):   # found out at the showdown
                self.reneged[pos.turn] += 1
            self._pass(forced=legal == [turn.PASS])

    def _part(self, line: int, e: dict[str, Any], action: Action) -> None:
        """One tile of a move of several (``part: [i, n]``): the i-th tile of one of the
        moves ``mechanisms.several`` allowed when the move started."""
        pos, part = self.pos, e.get("part")
        if self.move is None:
            if self.phase != "turn" or part[0] != 1:
                raise Disagreement(line, f"{self._whose_turn()}; a move of several tiles starts "
                                   f"with part [1, n], the record has part {part} here")
            legal = self._legal()
            fits = [a for a in legal if a.kind == "several" and len(a.parts) == part[1]
                    and a.parts[0] == action]
            if not fits:
                raise Disagreement(line, f"player {pos.turn} may {_actions(legal)} by the "
                                   f"rules; the record starts a move of {part[1]} tiles with "
                                   f"{action}")
            self.move = (fits, 1)
        else:
            fits, laid = self.move
            n = len(fits[0].parts)
            if e["event"] != "place" or part != [laid + 1, n]:
                raise Disagreement(line, f"player {pos.turn}'s move of {n} tiles goes on with "
                                   f"tile {laid + 1} (part [{laid + 1}, {n}]); the record has "
                                   f"{e['event']}" + (f" part {part}" if part else ""))
            fits = [a for a in fits if a.parts[laid] == action]
            if not fits:
                raise Disagreement(line, f"tile {laid + 1} of this move may be "
                                   f"{_actions(sorted({a.parts[laid] for a in self.move[0]}))} "
                                   f"by the rules; the record has {action}")
            self.move = (fits, laid + 1)
        fits, laid = self.move
        last = laid == len(fits[0].parts)
        if last:
            self.move = None
        self._place(action, last)
    def _front_to_back(self, line: int, e: dict[str, Any]) -> bool:
        """``deal.blind``: the pass shows the row's front tile, which goes to the back;
        whether the seat is stuck (no tile of its row fits, ``blind.counts_as_stuck``)."""
        pos = self.pos
        row = pos.hands[pos.turn]
        tile = blind.front(row)
        if _tile(e.get("tile")) != tile:
            raise Disagreement(line, f"player {pos.turn} turns up {_show(tile)}, the front of "
                               f"the row, by the rules; the record's pass shows "
                               f"{_say(e.get('tile'))}")
        blind.to_back(row)
        return blind.counts_as_stuck(turn.is_stuck(pos, pos.turn))

    def _progress(self) -> None:
        pos = self.pos
        pos.passes_in_row = 0
        pos.passed_since_progress = set()
        pos.idle_turns = 0

    def _draw(self, line: int, e: dict[str, Any]) -> None:
        pos = self.pos
        seat = pos.turn
        first = pos.boneyard[0]
        if _tile(e["tile"]) != first:
            raise Disagreement(line, f"a draw takes the boneyard's first tile, {_show(first)}; "
                               f"the record draws {_say(e['tile'])}")
        opening_draw = self.phase == "open"   # seeking the tile, or before a free first
        # tile: no turn's draw, so no ``after: draw`` rule fires (as in the match loop)
        forced = not opening_draw and turn.is_stuck(pos, seat)
        pos.boneyard.pop(0)
        pos.hands[seat].append(first)
        pos.drawn[seat] += 1
        pos.drawn_this_turn += 1
        if opening_draw:
            self._progress()
            self._after_opening_draw(seat, first)
            return
        env = events.environment(pos, seat, "draw", first, forced=forced)
        self._progress()
        fired = self._fire(seat, "draw", env)
        if self._won_in_play(seat, fired):
            return
        self._keep_fired(seat, fired)
        rule = turn_options.rule_of(pos.rules)
        if rule is not None and turn_options.turn_over_after_draw(rule, turn.turn_can_draw(pos)):
            self._end_turn(seat)   # a draw that ends the turn (drawing.ends_turn)

    def _after_opening_draw(self, seat: int, tile: Tile) -> None:
        pos, plan = self.pos, self.plan
        rule = opening.rule_for(pos)
        if plan.kind == "place":   # a voluntary draw before a free opening
            self.plan = Plan("place", seat, opening.openers_tiles(pos, rule, seat), free=True)
        elif plan.kind == "draw_until":
            tiles = opening.openers_tiles(pos, rule, seat)
            if tiles:
                self.plan = Plan("place", seat, tiles)
        elif opening.wanted(pos, rule)(tile, pos.hands[seat]):
            self.plan = Plan("place", seat, (tile,))
        else:
            pos.turn = pos.next_seat(seat)
            pos.drawn_this_turn = 0

    def _place(self, action: Action, last: bool = True) -> None:
        pos = self.pos
        seat, tile = pos.turn, action.tile
        is_opening = pos.board.empty
        board = pos.board
        if isinstance(board, Layout):   # by this seat: its own train's marker comes up
            both = len(board.ends_fitting(tile, seat)) >= 2 if not is_opening else False
            board.place(tile, action.end, seat=seat)
        else:
            both = len(board.ends_fitting(tile)) >= 2 if not is_opening else False
            board.place(tile, action.end, action.meets)
        pos.table.place(tile, action.end)
        pos.hands[seat].remove(tile)
        pos.last_tile, pos.last_player, pos.last_both_ends = tile, seat, both
        env = events.environment(pos, seat, "place", tile, opening=is_opening, both_ends=both)
        self._progress()
        for duty in duties.met_by(pos.duties, pos.rules.events, seat, env):   # before events
            self.expected.append(_Expected(duties.met_line(duty)))
        # emptying the hand, the turns, draws and duties it would grant lapse; a tile
        # before a move's last may lose its turn too (events.fire)
        fired = self._fire(seat, "place", env, ends_round=not pos.hands[seat],
                           goes_on=not last)
        self.phase = "turn"
        if self._won_in_play(seat, fired):
            self.move = None   # the match is won: a several-tile move stops with it
            return
        if not pos.hands[seat] and side_out.goes_on(
                pos.rules.play_until, pos.sides[pos.side_of(seat)], lambda s: bool(pos.hands[s])):
            self._go_out(seat, env, fired)   # out, and the round goes on (play.until)
            return
        if not pos.hands[seat]:   # a domino: its points count (what it grants lapsed)
            self._then_declare(seat, env, lambda: self._end_round(blocked=False,
                                                                  dominoer=seat))
            return
        self._keep_fired(seat, fired)
        self._next_draws(seat, fired)
        if last:   # not before a several-tile move's last tile (play.several)
            self._then_declare(seat, env, lambda: self._end_turn(seat))

    # -- declarations (mechanisms.declarations) -----------------------------------------
    def _go_out(self, seat: int, env: dict[str, Any], fired: events.Fired) -> None:
        """``play.until: side_out``: the seat emptied its hand while a partner holds tiles:
        its points and skips count, a turn it would earn lapses (``events.fire``); it is
        out, written after its declarations, and its turns are passed over from now on."""
        pos = self.pos
        self._keep_fired(seat, fired)

        def then() -> None:
            pos.out.add(seat)
            self.expected.append(_Expected(side_out.out_line(seat)))
            self._end_turn(seat)
        self._then_declare(seat, env, then)

    def _option_env(self, seat: int) -> dict[str, Any]:
        pos = self.pos
        return environment.option_names(pos, pos.hands[seat], seat)

    def _then_declare(self, seat: int, env: dict[str, Any], then: Callable[[], None]) -> None:
        """After a placement: its declarations are due (each read with the names as they
        are then), and ``then`` follows the last; without any, ``then`` at once."""
        due = declarations.at(self.pos.rules, "after_place")
        if any(d.due is not None for d in due):   # asked only when due (``due``)
            due = declarations.asked(due, {**events.environment_refreshed(self.pos, env),
                                           **self._option_env(seat)})
        if not due:
            then()
            return
        for i, decl in enumerate(due):
            self.pending.append((decl, seat, lambda: {
                **events.environment_refreshed(self.pos, env), **self._option_env(seat)},
                then if i == len(due) - 1 else None))

    def _declaration(self, line: int, e: dict[str, Any]) -> None:
        """A declaration due: the seat's choice among the options offered, and what it does."""
        pos = self.pos
        decl, seat, env_of, then = self.pending[0]
        offered = ", ".join(declarations.texts(decl))
        what = decl.title or decl.name
        if e["event"] not in ("declare", "claim") or e.get("player") != seat:
            raise Disagreement(line, f"player {seat} chooses {what} now by the rules "
                               f"({offered}); the record has player {_say(e.get('player'))} "
                               f"{e['event']}")
        k = declarations.choice_of(decl, e)
        if k is None or e.get("declaration") != decl.name:
            raise Disagreement(line, f"{what}: the rules offer {offered} (declaration "
                               f"{decl.name}); the record has {_say(e.get('declaration'))} "
                               f"{_say(e.get('option', e.get('claimed')))}")
        env = env_of()
        done = declarations.outcome(decl, k, env, pos.values, pos.side_of(seat), len(pos.sides))
        for key, value in declarations.event(seat, decl, k, done).items():
            if e.get(key) != value:
                raise Disagreement(line, f"{e['event']} {key}: the rules say {_say(value)}; "
                                   f"the record says {_say(e.get(key))}")
        pos.values = done.values
        for side, points in enumerate(done.points):
            pos.scores[side] += points
        for _ in range(events.tiles_taken(done.draws, len(pos.boneyard) - pos.rules.reserve)):
            tile = pos.boneyard.pop(0)   # an option's draw: the chooser draws at once
            pos.hands[seat].append(tile)
            pos.drawn[seat] += 1
            self.expected.append(_Expected(declarations.draw_line(seat, decl, tile)))
        if done.lead is not None:   # an option's lead: that seat sets the first tile
            pos.leader = done.lead
            self.plan = opening.plan(pos, done.lead)
            pos.turn = self.plan.seat
        self.pending.popleft()
        if then is not None:
            then()

    def _show_hands(self) -> None:
        """``showdown``: a seat that passed while able to place pays, before the settlement."""
        pos = self.pos

        def env_of(seat: int) -> dict[str, Any]:
            return environment.showdown_names(pos, pos.seat_view(seat))

        for seat, count, points in declarations.penalties(
                pos.rules.showdown, self.reneged, env_of, pos.side_of, len(pos.sides)):
            for side, gain in enumerate(points):
                pos.scores[side] += gain
            self.expected.append(_Expected(declarations.penalty_event(seat, count, points)))

    def _next_draws(self, seat: int, fired: events.Fired) -> None:
        """The tiles a placement's events make the next seat draw, at once, in rule order."""
        pos = self.pos
        victim = pos.next_seat(seat)
        for rule, owed in fired.draws:
            for _ in range(events.tiles_taken(owed, len(pos.boneyard) - pos.rules.reserve)):
                tile = pos.boneyard.pop(0)
                pos.hands[victim].append(tile)
                pos.drawn[victim] += 1
                self.expected.append(_Expected({"event": "draw", "player": victim,
                                                "tile": tile, "rule": rule}))

    def _pass(self, forced: bool = True) -> None:
        pos = self.pos
        seat = pos.turn
        pos.passes += 1
        pos.passes_in_row += 1
        if not pos.rules.blind:   # no turn of a blind row is idle (mechanisms.blind)
            pos.idle_turns += 1
        if forced:   # a pass at will is no sign that the player is stuck
            pos.passed_since_progress.add(seat)
        if isinstance(pos.board, Layout) and pos.board.passed(seat):
            # its marker went down (board.layout.markers): a train opened to the seats
            # that passed before, so the round is not blocked by their passes
            pos.passed_since_progress = {seat} if forced else set()
            pos.idle_turns = 1
        env = events.environment(pos, seat, "pass", None)
        fired = self._fire(seat, "pass", env)
        if self._won_in_play(seat, fired):
            return
        self._keep_fired(seat, fired)
        self._end_turn(seat)

    def _blocked(self) -> bool:
        pos = self.pos
        return (len(pos.passed_since_progress) == pos.players - len(pos.out)
                or pos.idle_turns >= 2 * pos.players)

    def _end_turn(self, seat: int) -> None:
        """The turn is over: duties the seat failed, another turn earned, skipped seats, or
        the next seat."""
        pos = self.pos
        pos.drawn_this_turn = 0
        if pos.duties:
            self._duties_failed(seat)
        if self._blocked():
            self._end_round(blocked=True, dominoer=None)
            return
        if pos.extra_turns:
            pos.extra_turns -= 1
            pos.turn = seat
            self._begin_turn()
            return
        nxt = side_out.next_in(pos.next_seat, seat, pos.out)   # none out: the next seat
        while pos.pending_skips:
            pos.pending_skips -= 1
            self.expected.append(_Expected({"event": "skip", "player": nxt}))
            pos.idle_turns += 1
            if pos.idle_turns >= 2 * pos.players:
                self._end_round(blocked=True, dominoer=None)
                return
            nxt = side_out.next_in(pos.next_seat, nxt, pos.out)
        pos.turn = nxt
        self._begin_turn()

    def _begin_turn(self) -> None:
        """The seat to act begins a turn: counted for ``first_turn`` (play.several)."""
        pos = self.pos
        if pos.turns:
            pos.turns[pos.turn] += 1

    def _duties_failed(self, seat: int) -> None:
        """The duties ``seat`` bore through its turn unmet: each fails, costs its points and
        draws (at once, in the order laid), and passes on or lapses."""
        pos = self.pos
        for duty, passed_to in duties.failed_at_turn_end(pos.duties, pos.rules.events, seat,
                                                         pos.next_seat(seat)):
            rule = pos.rules.events[duty.rule].duty
            self.expected.append(_Expected(duties.failed_line(duty, passed_to)))
            if rule.fail_points:
                side = pos.side_of(seat)
                pos.scores[side] += rule.fail_points
                pos.play_points[side] += rule.fail_points
                self.expected.append(_Expected({"event": "score", "player": seat, "side": side,
                                                "points": rule.fail_points,
                                                "rule": duty.rule}))
            for _ in range(events.tiles_taken(rule.fail_draws,
                                              len(pos.boneyard) - pos.rules.reserve)):
                tile = pos.boneyard.pop(0)
                pos.hands[seat].append(tile)
                pos.drawn[seat] += 1
                self.expected.append(_Expected({"event": "draw", "player": seat, "tile": tile,
                                                "rule": duty.rule}))

    def _fire(self, seat: int, after: str, env: dict[str, Any], ends_round: bool = False,
              goes_on: bool = False) -> events.Fired:
        """The action's events (``events.fire``, the loop's own reading), and the record
        lines they write, expected next in the order ``fire`` gives them."""
        lines: list[dict[str, Any]] = []
        fired = events.fire(self.pos, seat, after, env, ends_round, goes_on, record=lines)
        self.expected.extend(_Expected(fields) for fields in lines)
        return fired

    def _keep_fired(self, seat: int, fired: events.Fired) -> None:
        """The turns, skips and duties the action's events leave to come."""
        self.pos.extra_turns += len(fired.again)
        self.pos.pending_skips += fired.skips
        self.pos.duties += fired.duties

    # -- the round's end and the match's -------------------------------------------
    def _won_in_play(self, seat: int, fired: events.Fired) -> bool:
        """``match.ends_in_play``: the action's points won the match; the round stops
        unsettled (``round_end`` with ``result: target``) and the match ends."""
        if fired.reached is None:
            return False
        self._end_round(blocked=False, dominoer=None, reached=True)
        return True

    def _end_round(self, blocked: bool, dominoer: int | None, reached: bool = False) -> None:
        pos = self.pos
        if reached:
            done = settle.Settlement("target", None, None,
                                     [pos.hand_value(s) for s in range(pos.players)],
                                     [0] * len(pos.sides))
        else:
            if pos.rules.showdown is not None:
                self._show_hands()
            done = settle.settle(pos, blocked, dominoer)
        for side, points in enumerate(done.points):
            pos.scores[side] += points
        fields = {"event": "round_end", "round": pos.round, "result": done.result,
                  "winner": done.winner, "pips": done.pips, "points": done.points,
                  "scores": list(pos.scores)}
        if pos.rules.events:
            fields["play_points"] = list(pos.play_points)
        if pos.rules.variables:
            pos.values = variables.after_round(pos.rules.variables, pos.values,
                                               variables.round_facts(
                blocked, pos.round, pos.players, pos.target, done.winner, done.points,
                pos.scores))
            fields["variables"] = dict(pos.values)
        self.expected.append(_Expected(fields))
        if done.winner is not None:
            pos.rounds_won[done.winner] += 1
        pos.previous = LastRound(pos.leader, done.winner_seat, done.winner, pos.last_player,
                                 blocked, pos.seat_views(),
                                 tuple(pos.side_view(i, won=i == done.winner)
                                       for i in range(len(pos.sides))))
        over, winner = match.decided(pos)
        if over:
            self.expected.append(_Expected({"event": "match_end", "winner": winner,
                                            "scores": match.final_scores(pos, winner)}))
            self.phase = "over"
        else:
            pos.round += 1
            self.phase = "deal"


def _split(events_: list[tuple[int, dict]]) -> list[list[tuple[int, dict]]]:
    matches: list[list[tuple[int, dict]]] = []
    for line, e in events_:
        if e["event"] == "match_start":
            matches.append([])
        elif not matches:
            raise Disagreement(line, f"a match begins with match_start; the record begins "
                               f"with {e['event']}")
        matches[-1].append((line, e))
    return matches


def check_matches(lines: list[tuple[int, dict[str, Any]]], path: str,
                  rules_for: Callable[[int, dict[str, Any]], Any]) -> list[Diagnostic]:
    """The first place a record's lines (``records.read_records``) disagree with the rules
    as documented, or ``[]``. ``rules_for(line, match_start)`` gives the compiled rules a
    match names, raising ``Disagreement`` when it names none that may be loaded (the file
    entry is ``records.check_file_strict``: this layer reads no files)."""
    if not lines:
        return [Diagnostic(CODE, "the record holds no events", file=path)]
    try:
        for match_lines in _split(lines):
            line, start = match_lines[0]
            reading = MatchReading(rules_for(line, start), line, start)
            for line, e in match_lines[1:]:
                reading.read(line, e)
            if not reading.finished():
                raise Disagreement(line, "the record ends before the match is over: the rules "
                                   f"still expect {_next_of(reading)}")
    except Disagreement as exc:
        return [Diagnostic(CODE, exc.message, file=path, line=exc.line)]
    return []


def _next_of(reading: MatchReading) -> str:
    if reading.expected:
        return reading.expected[0].kind
    if reading.phase == "deal":
        return f"a deal for round {reading.pos.round}"
    return f"player {reading.pos.turn} to act"
