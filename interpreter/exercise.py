"""validate's warning when random bots would never exercise a rule, from a few sample matches.

A rule may be valid and still never come into play: an event whose ``if`` the deals
never meet, a duty nobody ever meets, a declaration never asked or an option of it never
taken, moves of several tiles nobody makes, trains' markers nobody ever puts down. Then
a compare of that ruleset shows ``+0 ±0`` and a reader takes the rule for one that
changes nothing. ``validate`` plays a few seeded matches between
random bots (``SAMPLE_MATCHES`` at the fewest and at the most players, each cut at
``MOST_ROUNDS`` rounds) and counts, from the records alone, what each rule did: an
event's lines (the ``score``, ``set``, ``duty`` and ``draw`` lines naming its rule),
duties met, declarations asked and their options taken, move parts, passes (each puts a
marker down on trains with markers). A rule that did nothing in them gets a
warning at its field's file:line:col. Only rules whose every effect the record names
are judged (an event granting another turn or a skip writes no rule number), and a
ruleset with none of them plays no sample at all: validate costs it nothing. The seeds
are fixed, so the warning is the same on every run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from .diagnostics import Diagnostic, DiagnosticError
from .rules.marked_yaml import dotted

SAMPLE_MATCHES = 4   # seeded matches at each player count judged (the fewest, the most)
MOST_ROUNDS = 4      # each cut there: a rule that applies shows within a few rounds (at
# 30, a double-twelve train game's long rounds cost validate 3.6 s of CPU; at 4, 1 s)
# an event's effects the record writes with its rule number; the others (again, skip)
# leave no trace of which rule granted them
_NAMED = ("points", "each_opponent", "set", "duty", "next_draws")
_UNNAMED = ("again", "skip")


def _judged_events(data: Mapping[str, Any]) -> list[int]:
    return [i for i, e in enumerate(data.get("events") or ())
            if any(k in e for k in _NAMED) and not any(k in e for k in _UNNAMED)]


def _markers(data: Mapping[str, Any]) -> bool:
    """Whether the board's trains take markers (``board.layout.markers``)."""
    layout = (data.get("board") or {}).get("layout") or {}
    return bool(layout.get("trains") and layout.get("markers"))


def judges(data: Mapping[str, Any]) -> bool:
    """Whether the ruleset has a rule the samples would judge (else none is played)."""
    return bool(_judged_events(data) or data.get("declarations") or _markers(data)
                or (data.get("play") or {}).get("several") is not None)


def tally(events: list[dict[str, Any]]) -> Counter:
    """What the rules did in a record: ``("rule", i)`` lines naming event rule ``i``,
    ``("laid", i)`` / ``("met", i)`` its duties, ``("asked", name)`` a declaration's
    choices, ``("took", name, option)`` each option taken, ``("several",)`` moves of
    several tiles, ``("pass",)`` passes (on trains with markers, each puts the passer's
    marker down: markers are no events of their own)."""
    out: Counter = Counter()
    for e in events:
        kind = e["event"]
        if kind in ("score", "set", "duty", "draw") and "rule" in e:
            out["rule", e["rule"]] += 1
        if kind == "duty":
            out["laid", e["rule"]] += 1
        elif kind == "duty_met":
            out["met", e["rule"]] += 1
        elif kind in ("declare", "claim"):
            out["asked", e["declaration"]] += 1
            if kind == "declare":
                out["took", e["declaration"], e["option"]] += 1
        elif kind == "pass":
            out["pass",] += 1
        elif kind == "place" and e.get("part", [0])[0] == 1:
            out["several",] += 1
    return out


def exercise_warnings(game: Any, data: Mapping[str, Any], marks: Mapping[tuple, Any]
                      ) -> list[Diagnostic]:
    """Warnings (severity ``warning``) for the rules of ``game`` (its merged, defaulted
    ``data`` and their ``marks``) that did nothing in the sample matches."""
    from .api import play_match

    if not judges(data):
        return []
    rules = game.rules
    counts = sorted({rules.min_players, rules.max_players})
    seen: Counter = Counter()
    played = []
    for players in counts:
        try:
            game.check_players(players)
            for seed in range(1, SAMPLE_MATCHES + 1):
                result = play_match(game, players, seed, "random", trace=True,
                                    max_rounds=MOST_ROUNDS)
                seen += tally(result.events)
        except DiagnosticError:   # a seating or a deal problem: validate's error, or reach's
            continue
        played.append(players)
    if not played:
        return []
    said = (f"{SAMPLE_MATCHES * len(played)} sample matches of random bots ("
            + " and ".join(f"{SAMPLE_MATCHES} with {n} players" for n in played) + ")")
    out: list[Diagnostic] = []

    def warn(path: tuple, message: str, hint: str) -> None:
        mark = marks.get(path)
        where = {"file": mark.file, "line": mark.line, "column": mark.column} if mark else {}
        out.append(Diagnostic("never-exercised", message, path=dotted(path),
                              severity="warning", hint=hint, **where))

    for i in _judged_events(data):
        event = data["events"][i]
        name = f"events[{i}]" + (f" ({event['title']})" if event.get("title") else "")
        if not seen["rule", i]:
            warn(("events", i, "if") if "if" in event else ("events", i),
                 f"{name} never applied in {said}: it scored, set, laid or drew nothing",
                 "check its if and the formulas it reads; a rule that applies only rarely "
                 "may be meant, but a compare will show it changing nothing")
        elif "duty" in event and seen["laid", i] and not seen["met", i]:
            warn(("events", i, "duty", "met"),
                 f"{name}: its duty was laid {seen['laid', i]} times in {said} and never "
                 "met", "check duty.met: it is read after each placement by the bearer, "
                 "with duty_tile the tile that laid it")
    for i, decl in enumerate(data.get("declarations") or ()):
        name = decl.get("name")
        if not seen["asked", name]:
            warn(("declarations", i),
                 f"declaration {name!r} was never asked in {said}",
                 "check when: and what the round must reach for it to be asked")
            continue
        for k, option in enumerate(decl.get("options") or ()):
            if not seen["took", name, option.get("name")]:
                warn(("declarations", i, "options", k),
                     f"declaration {name!r}: its option {option.get('name')!r} was never "
                     f"taken in {said}, though the declaration was asked "
                     f"{seen['asked', name]} times", "random bots pick among the options "
                     "offered: check that this one is offered (and not the same as another)")
    if _markers(data) and not seen["pass",]:
        warn(("board", "layout", "markers"), f"board.layout.markers: no marker was ever put "
             f"down in {said}: nobody passed", "a marker goes down when a seat passes unable "
             "to play: check the drawing rules, or remove markers")
    if (data.get("play") or {}).get("several") is not None and not seen["several",]:
        warn(("play", "several"), f"play.several: no move of several tiles in {said}",
             "check play.several's move, most and tiles: no hand ever allowed one")
    return out
