"""``replay``: step through a recorded match, every hand visible.

The record is verified by the engine first (``records.verify``): a record the
rules do not allow is refused with the place it goes wrong, never shown as if it
were a real match; a record that only stops early (a match quit at the table) is
shown up to where it stops. Then: Enter for the next event, ``b`` back, a number to jump
to that event, ``q`` to quit.
"""

from __future__ import annotations

from rich.text import Text

from ..diagnostics import Diagnostic, DiagnosticError
from . import render
from .commands import clean, typed_number
from .terminal import Terminal
from .timeline import Snapshot, snapshots

KEYS = "Enter: next · b: back · a number: jump to that event · q: quit"


MAX_EVENTS = 100_000   # a replay keeps a snapshot of every event: a match has some 100


def read_events(path: str) -> list[dict]:
    """The events of a record file (``records.read_records`` without line numbers); a
    record too long to step through (``MAX_EVENTS``) is refused before it fills memory."""
    from .. import records

    events = []
    for number, event in records.iter_records(path):
        if len(events) == MAX_EVENTS:
            raise DiagnosticError([Diagnostic(
                "record", f"the record holds more than {MAX_EVENTS:,} events (line "
                f"{number}); replay steps through a few matches at a time", file=path,
                hint="copy the lines of the matches to see into a file of their own "
                     "(each match begins at a match_start line); verify checks it all")])
        events.append(event)
    return events


def verify_record(path: str) -> list[Diagnostic]:
    """The engine's verdict on a record: no diagnostics when every event is legal and right."""
    from .. import records

    return records.verify_file(path)


STOPS_EARLY = "The record stops before the match ends."


def replay(path: str, term: Terminal) -> int:
    """Step through the record at ``path``; raises ``DiagnosticError`` if it does not verify.

    A record that only stops early (a match quit at the table) is shown up to where it
    stops; any illegal or mis-scored event still refuses the whole record.
    """
    from ..records import TRUNCATED, with_record_hint

    try:
        events = read_events(path)
    except DiagnosticError as exc:
        raise DiagnosticError([with_record_hint(d, path) for d in exc.diagnostics]) from None
    problems = verify_record(path)
    if any(p.code != TRUNCATED for p in problems):
        raise DiagnosticError(problems)
    game = recorded_game(events)
    steps = snapshots(events, fit=game.rules.fit if game is not None else None,
                      shape=game.rules.layout if game is not None else None)
    return Replayer(steps, term, STOPS_EARLY if problems else "",
                    rule_titles(events)).run()


def recorded_game(events: list[dict]):
    """The game a record's ``match_start`` names (as ``verify`` loads it), or None."""
    from .. import api

    start = next((e for e in events if e.get("event") == "match_start"), None)
    if start is None:
        return None
    return api.load_game(start.get("source") or start["ruleset"])


def rule_titles(events: list[dict]) -> tuple[str, ...]:
    """The titles of the recorded ruleset's event rules (its ``source`` file or builtin
    name, as ``verify`` loads it); none when the record has no ``match_start``."""
    from .. import api

    start = next((e for e in events if e.get("event") == "match_start"), None)
    if start is None:
        return ()
    game = api.load_game(start.get("source") or start["ruleset"])
    return tuple(rule.title for rule in game.rules.events)


def replay_refusal(answer: str, events: int) -> str:
    """Why a line typed at ``replay >`` is no key, and the keys: a key or a number with
    something after it (``b 2``, ``5 6``) says it stands alone, a number past the record
    names the events there are."""
    first, _, rest = answer.partition(" ")
    keys = f"{KEYS} (events 1 to {events})"
    if rest and (first in ("b", "back", "q", "quit") or typed_number(first) is not None):
        return f"'{first}' stands alone: type it without '{rest}'. {keys}"
    if typed_number(answer) is not None:
        return f"there is no event {answer[:12]}: the record holds events 1 to {events}"
    return f"'{answer}': {keys}"


class Replayer:
    """The stepping loop over a list of snapshots (one per event)."""

    def __init__(self, steps: list[Snapshot], term: Terminal, end_note: str = "",
                 titles: tuple[str, ...] = ()):
        self.steps = steps
        self.titles = titles  # the ruleset's event rule titles, for score events
        self.term = term
        self.end_note = end_note  # said at the last event (a record that stops early)
        self.at = 0

    def run(self) -> int:
        self.term.show(Text(KEYS, style="dim"))
        try:
            self._show()
            while True:
                answer = clean(self.term.ask("replay > ")).lower()
                if answer in ("q", "quit"):
                    return 0
                if not answer:
                    if self.at == len(self.steps) - 1:
                        self.term.show(Text(f"End of the record. {self.end_note}".rstrip()))
                        return 0
                    self.at += 1
                elif answer in ("b", "back"):
                    if self.at == 0:
                        self.term.show(Text("This is the first event."))
                        continue
                    self.at -= 1
                elif 1 <= (typed_number(answer) or 0) <= len(self.steps):
                    self.at = typed_number(answer) - 1
                elif answer in ("?", "help"):
                    self.term.show(Text(f"{KEYS} (events 1 to {len(self.steps)})"))
                    continue
                else:
                    self.term.show(Text(f"✗ {replay_refusal(answer, len(self.steps))}",
                                        style="red"))
                    continue
                self._show()
        except EOFError:
            return 0
        except KeyboardInterrupt:
            return 130

    def _show(self) -> None:
        snap = self.steps[self.at]
        seating = render.Seating(snap.teams, ("",) * snap.players)
        self.term.show(render.snapshot_view(snap, seating, self.at + 1, len(self.steps),
                                            self.term.width, self.titles))
        if self.end_note and self.at == len(self.steps) - 1:
            self.term.show(Text(self.end_note, style="bold"))
