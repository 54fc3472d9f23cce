"""Helpers for ``test_scenarios_*``: a real ruleset, a fixed deal, moves, and the record
as short lines a reader can check against the rules by hand.

>>> state = deal("pagat", ["6-6 6-5", "5-5 4-4"], "0-0", leader=0)
>>> play(state, "6-6"); legal(state)
['draw']
>>> log(state)
['deal 1 leader 0', '0 6-6']
"""

from __future__ import annotations

from collections.abc import Sequence

from dominorules import api
from dominorules.engine.state import State
from dominorules.engine.tiles import Tile


def deal(ruleset: str, hands: Sequence[str], boneyard: str = "", leader: int | None = None,
         more: Sequence[api.Deal] = (), scores: Sequence[int] | None = None,
         seed: int = 0) -> State:
    """A match of a real ruleset whose first deal is fixed: hands per seat as ``"6-4 3-3"``,
    the boneyard's first tiles in draw order (the rest of the set follows, ascending)."""
    first = api.Deal.of(hands, boneyard, leader)
    return api.load_game(ruleset).new_match(len(hands), seed, deals=[first, *more],
                                            start_scores=scores)


def legal(state: State) -> list[str]:
    """The legal actions' text forms, in canonical order."""
    return [str(a) for a in state.legal_actions()]


def play(state: State, *moves: str) -> None:
    for move in moves:
        state.apply(move)


def line(event: dict) -> str:
    """One record event as a short line: ``0 6-4 left``, ``1 draw 5-5``, ``2 pass``..."""
    kind = event["event"]
    if kind == "deal":
        return f"deal {event['round']} leader {event['leader']}"
    if kind == "place":
        end = f" {event['end']}" if event["end"] else ""
        return f"{event['player']} {Tile(*event['tile'])}{end}"
    if kind == "draw":
        return f"{event['player']} draw {Tile(*event['tile'])}"
    if kind == "pass":
        return f"{event['player']} pass"
    if kind == "round_end":
        return (f"end {event['result']} winner {event['winner']} pips {event['pips']} "
                f"points {event['points']} scores {event['scores']}")
    if kind == "match_end":
        return f"match_end winner {event['winner']} scores {event['scores']}"
    return kind


def log(state: State, since: int = 1) -> list[str]:
    """The record from event ``since`` on (``match_start`` left out by default), as lines."""
    return [line(e) for e in state.record[since:]]


def round_log(state: State, round_no: int = 1) -> list[str]:
    """The lines of one round: its deal(s) through its ``round_end``."""
    out, inside = [], False
    for e in state.record:
        if e["event"] == "deal" and e["round"] == round_no:
            inside = True
        if inside:
            out.append(line(e))
            if e["event"] == "round_end":
                break
    return out


def moves_of(text: str) -> list[str]:
    """``"6-6, 6-2 right, draw"`` -> the list of moves."""
    return [m.strip() for m in text.split(",") if m.strip()]
