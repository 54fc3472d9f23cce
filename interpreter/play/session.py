"""``play``: one match of any ruleset at the terminal, humans and bots at their seats.

The loop asks the engine's ``State`` for the player to act: a bot chooses through
the bot API (as in simulation, so the same seed and choices give the same record),
a human through ``commands.interpret``. Every new record event is told on screen
and written to the trace at once, so leaving at any moment keeps the record so far.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from .. import api
from ..bots.seats import seat_bots
from ..bots.turn import bot_turn
from ..diagnostics import Diagnostic, DiagnosticError, UsageError
from ..engine.actions import Action
from . import commands, render
from .hint import strongest_bot, suggest
from .terminal import Terminal
from .timeline import Timeline
from .tracefile import TraceWriter

BOT_PAUSE = 0.6      # seconds after each bot action (``--fast``: none)


class SetupError(UsageError):
    """The command line asks for a table that cannot be set (a usage error, exit 2)."""


class Leave(Exception):  # noqa: N818 - a way out, not a failure
    """The human left the match: ``quit`` confirmed, end of input or Ctrl-C."""

    def __init__(self, why: str, code: int = 0):
        super().__init__(why)
        self.why = why
        self.code = code


@dataclass(frozen=True)
class PlaySettings:
    """What ``dominorules play`` was asked for; ``None`` means the default."""

    ruleset: str
    humans: tuple[int, ...] = (0,)
    bots: tuple[str, ...] = ()
    players: int | None = None
    seed: int | None = None
    trace: str | None = None
    fast: bool = False


@dataclass(frozen=True)
class Table:
    """A seated table: the game, who sits where, the seed."""

    game: api.Game
    players: int
    humans: tuple[int, ...]
    bots: dict[int, str]         # seat -> bot spec
    seed: int
    seating: render.Seating


def seat_table(settings: PlaySettings) -> Table:
    """Load the ruleset and seat everyone; ``DiagnosticError`` for a bad ruleset,
    ``SetupError`` for seats, players or bots that do not fit it."""
    game = api.load_game(settings.ruleset)
    rules = game.rules
    humans = tuple(sorted(set(settings.humans)))
    twice = sorted({h for h in settings.humans if settings.humans.count(h) > 1})
    if twice:
        raise SetupError([Diagnostic(
            "seats", f"seat {twice[0]} is given twice in --humans",
            hint="name each human seat once, e.g. --humans 0,1")])
    if any(h < 0 for h in humans):
        raise SetupError([Diagnostic("seats", "seats are numbered from 0",
                                     hint="give --humans 0 for the first seat, e.g. --humans 0,2")])
    players = settings.players
    if players is None:
        players = max(rules.min_players, (max(humans) + 1) if humans else 0)
    if humans and max(humans) >= rules.max_players:
        raise SetupError([Diagnostic(
            "seats", f"there is no seat {max(humans)}: {game.name} seats at most "
            f"{rules.max_players} players (seats 0 to {rules.max_players - 1})",
            hint=f"give --humans seats from 0 to {rules.max_players - 1}")])
    try:
        game.check_players(players)
    except DiagnosticError as exc:
        raise SetupError(exc.diagnostics) from None
    if humans and max(humans) >= players:
        raise SetupError([Diagnostic(
            "seats", f"seat {max(humans)} is not at a table of {players} players "
            f"(seats 0 to {players - 1})", hint="give --players or other --humans")])
    bot_seats = [s for s in range(players) if s not in humans]
    try:
        names = (seat_bots(settings.bots or (strongest_bot(),), bot_seats if humans else players)
                 if bot_seats else ())
    except UsageError as exc:
        raise SetupError(exc.diagnostics) from None
    seed = settings.seed if settings.seed is not None else random.SystemRandom().randrange(
        1, 1_000_000)
    kinds = tuple("you" if s in humans and len(humans) == 1 else "human" if s in humans
                  else "" for s in range(players))
    bots = dict(zip(bot_seats, names, strict=False))
    kinds = tuple(k or bots[s] for s, k in enumerate(kinds))
    teams = game.teams(players)
    if len(humans) == 1:   # the lone human's partners say so wherever a seat is named
        mine = next(t for t in teams if humans[0] in t)
        kinds = tuple(f"{k}, your partner" if s in mine and s != humans[0] else k
                      for s, k in enumerate(kinds))
    return Table(game, players, humans, bots, seed, render.Seating(teams, kinds))


def play(settings: PlaySettings, term: Terminal) -> int:
    """Play one match at ``term``; the exit code (0 done or left, 130 on Ctrl-C)."""
    table = seat_table(settings)
    try:
        bots = {s: _bot(spec, s, table.seed) for s, spec in table.bots.items()}
    except DiagnosticError as exc:
        raise SetupError(exc.diagnostics) from None
    writer = TraceWriter(settings.trace)
    match = _Match(table, bots, term, writer, settings.fast)
    try:
        match.run()
        code = 0
    except Leave as leave:
        term.show(Text(""), Text(leave.why, style="bold"))
        code = leave.code
    finally:
        writer.sync(match.state.record if match.state else [])
        writer.close()
    if settings.trace:
        term.show(Text(f"The record is in {settings.trace} "
                       f"(dominorules replay {settings.trace})."))
    return code


def _bot(spec: str, seat: int, seed: int):
    from ..bots import make_bot

    return make_bot(spec, seat, api.bot_rng(seed, seat))


class _Match:
    """One match being played at the terminal."""

    def __init__(self, table: Table, bots: dict, term: Terminal, writer: TraceWriter,
                 fast: bool):
        self.table = table
        self.bots = bots
        self.term = term
        self.writer = writer
        self.fast = fast
        self.seating = table.seating
        self.timeline = Timeline(fit=table.game.rules.fit, shape=table.game.rules.layout,
                                 board_spinner=table.game.rules.spinner == "first_double")
        self.told = 0                      # record events already told on screen
        self.hotseat = len(table.humans) > 1
        self.screen_owner: int | None = None
        self.state = None
        self.rule_titles = tuple(rule.title for rule in table.game.rules.events)
        self.hidden_draws: tuple[int, int] | None = None   # (seat, count) not told yet

    def run(self) -> None:
        t = self.table
        self.term.show(Text(f"{t.game.rules.title or t.game.name}", style="bold"),
                       Text(f"Seed {t.seed}: play this deal again with --seed {t.seed}"))
        try:
            self.state = t.game.new_match(t.players, seed=t.seed)
            self._record_and_tell()
            while not self.state.is_terminal:
                seat = self.state.current_player
                if seat in t.humans:
                    self._tell_draws()
                    self._human_turn(seat)
                else:
                    self._bot_turn(seat)
                self._record_and_tell()
        except EOFError:
            raise Leave("End of input: the match is left unfinished.") from None
        except KeyboardInterrupt:
            raise Leave("Interrupted: the match is left unfinished.", 130) from None

    # -- telling what happened -----------------------------------------------------------
    def _record_and_tell(self) -> None:
        events = self.state.record
        self.writer.sync(events)
        while self.told < len(events):
            event = events[self.told]
            self.told += 1
            self.timeline.feed(event)
            self._tell(event)

    def _tell_draws(self) -> None:
        """Tell the hidden draws in a row of one seat as one line, then pause once."""
        if self.hidden_draws is None:
            return
        seat, count = self.hidden_draws
        self.hidden_draws = None
        self.term.show(Text(render.draws_text(self.seating.seat(seat), count)))
        if seat not in self.table.humans:
            self.term.pause(BOT_PAUSE)

    def _tell(self, event: dict) -> None:
        kind = event["event"]
        player = event.get("player")
        if kind == "draw" and not (player in self.table.humans and not self.hotseat):
            if self.hidden_draws and self.hidden_draws[0] != player:
                self._tell_draws()
            count = self.hidden_draws[1] if self.hidden_draws else 0
            self.hidden_draws = (player, count + 1)
            return
        self._tell_draws()
        if kind == "match_start":
            game, n = self.table.game, self.table.players
            goal = render.match_goal(game.rules.match_end, game.target(n))
            self.term.show(Text(f"{n} players · {goal} · " + ", ".join(
                self.seating.side(i) for i in range(len(self.seating.teams)))))
        elif kind == "deal":
            self.term.show(Text(""), Text(render.event_text(event, self.seating), style="bold"))
        elif kind in render.PLAY_EVENTS:
            player = event.get("player")   # a turn_up (deal.turn_up) is nobody's
            human = player in self.table.humans
            self.term.show(Text(render.event_text(event, self.seating,
                                                  show_drawn=human and not self.hotseat,
                                                  rule_titles=self.rule_titles)))
            if not human and kind in ("draw", "place", "pass"):
                self.term.pause(BOT_PAUSE)
        elif kind == "round_end":
            self.term.show(render.round_end_view(self.timeline.snapshot(), event, self.seating))
            if not self.fast and self.table.humans and self.state.outcome is None:
                self.term.ask("Press Enter for the next round ")
        elif kind == "match_end":
            self.term.show(Text(""), Text(render.match_result_text(event, self.seating),
                                          style="bold"))

    # -- turns ------------------------------------------------------------------------------
    def _bot_turn(self, seat: int) -> None:
        bot_turn(self.state, self.bots[seat], self.table.bots[seat], seat)

    def _human_turn(self, seat: int) -> None:
        state = self.state
        if self.hotseat and self.screen_owner != seat:
            if self.screen_owner is not None:  # another player's hand is still on screen
                self.term.clear()
            self.term.show(Text(f"{self.seating.seat(seat)} to play: everyone else, look away.",
                                style="bold"))
            self.term.ask(f"Seat {seat}: press Enter to show your hand ")
            self.screen_owner = seat
        legal = state.legal_actions()
        self.term.show(render.table_view(state.observation(seat), self.seating, legal,
                                         self.term.width))
        while True:
            reply = commands.interpret(self.term.ask(f"Seat {seat} > "), state)
            if isinstance(reply, Action):
                state.apply(reply)
                break
            if isinstance(reply, commands.Refusal):
                self.term.show(Text(f"✗ {reply.message}", style="red"))
            else:
                self._command(reply.name, seat, legal)
        if self.hotseat and state.current_player != seat:
            self.term.clear()
            self.screen_owner = None

    def _command(self, name: str, seat: int, legal: Sequence[Action]) -> None:
        if name == "help":
            rules = self.table.game.rules
            self.term.show(Text(commands.help_text(self.writer.path, rules.fit is not None,
                                                   bool(rules.declarations),
                                                   commands.board_help(rules))),
                           Text("Moves: ").append_text(
                render.actions_text(legal)))
        elif name == "hint":
            self.term.show(Text(f"Hint: {suggest(self.state, seat)}", style="cyan"))
        elif name == "rules":   # then the table again: the sheet pushed it off the screen
            self.term.show(Text(rule_sheet_text(self.table.game)))
            self.term.show(render.table_view(self.state.observation(seat), self.seating,
                                             legal, self.term.width))
        elif name == "quit":
            kept = (f"The record so far is kept in {self.writer.path}." if self.writer.path
                    else "Nothing is recorded (--trace FILE keeps a record).")
            answer = self.term.ask(f"Leave this match? {kept} [y/N] ")
            if answer.strip().lower() in ("y", "yes"):
                raise Leave("You left the match.")


def rule_sheet_text(game: api.Game) -> str:
    """The ruleset's rule sheet in plain text (``dominorules rules``)."""
    from ..rules import load_ruleset
    from ..rules.describe import render_sheet, rule_sheet
    from ..textlayout import terminal_width

    return render_sheet(rule_sheet(load_ruleset(game.path or game.ref)), "text",
                        terminal_width())
