"""Round and match variables: named numbers a match keeps from one round to the next.

From the schema's ``variables`` and ``docs/house-rules.md`` ("A number kept from round
to round"). Each variable starts the match at its ``initial`` value. Every formula of
the round reads it by its name (the scoring formulas, the events, the next round's
lead formula, the match's end and final scores); once a round is settled, every
``after_round`` formula is worked out from the values the round was played with, all
at once (one variable's update never sees another's new value, so their order does not
matter and no cycle can arise), and the new values hold for the next round. The
``round_end`` line of a record states them (``docs/records.md``).

Written once: the match loop (``engine.general_loop``) and the rulebook
(``engine.rulebook``, ``verify --strict``) both call these functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...diagnostics import Diagnostic, DiagnosticError
from ..bounds import MAX_DIGITS, MAX_POINTS
from ..game_rules import Variable


def starting(variables: Sequence[Variable]) -> dict[str, int]:
    """The values a match starts with: each variable's ``initial``."""
    return {v.name: v.initial for v in variables}


def round_facts(blocked: bool, rnd: int, players: int, target: int, winner: int | None,
                points: Sequence[int], scores: Sequence[int]) -> dict[str, Any]:
    """What an ``after_round`` formula reads of the round just settled (kind
    ``variable``): how it ended, its number, the winning side (-1: nobody won), each
    side's points this round and scores after it."""
    return {"blocked": blocked, "round": rnd, "players": players, "target": target,
            "won": winner is not None, "winner_side": -1 if winner is None else winner,
            "points": tuple(points), "scores": tuple(scores)}


def after_round(variables: Sequence[Variable], values: Mapping[str, int],
                facts: Mapping[str, Any]) -> dict[str, int]:
    """The values for the next round: every ``after_round`` over ``facts`` and the values
    the round was played with (a variable without one keeps its value). A value past the
    engine's bound on numbers (``engine.bounds``) stops the match with one message."""
    env = {**facts, **values}
    return {v.name: (values[v.name] if v.after_round is None
                     else bounded(v.name, int(v.after_round(env))))
            for v in variables}


def bounded(name: str, value: int, where: str = "after_round") -> int:
    """``value`` for variable ``name`` when within the engine's bound on numbers; else one
    message naming the formula that made it (``where``: after_round, or an event's set)."""
    if -MAX_POINTS <= value <= MAX_POINTS:
        return value
    raise DiagnosticError([Diagnostic(
        "variable", f"variable {name} outgrew {MAX_DIGITS} digits: its {where} makes it "
        "grow without bound", path=f"variables.{name}.after_round" if where == "after_round"
        else where, hint="check a formula that multiplies the variable (say, by itself)")])
