"""How far a score may grow and how many seats one event may skip.

Integers in formulas have no size limit, so a ruleset can square a score every turn or
skip ``10**21`` seats: the match would then never finish (or never print: Python writes
at most 4300 digits). Past these bounds, far beyond any game, the match stops with one
message instead.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, DiagnosticError

MAX_DIGITS = 1000
MAX_POINTS = 10 ** MAX_DIGITS
MAX_SKIP = 100_000   # a round's turns at most (general_loop.MAX_TURNS)


def checked_points(points: int) -> int:
    """``points`` (a formula's value added to a score), or the error saying it outgrew
    the bound."""
    if -MAX_POINTS <= points <= MAX_POINTS:
        return points
    raise DiagnosticError([Diagnostic(
        "points", f"a score or an event's points outgrew {MAX_DIGITS} digits: the ruleset's "
        "formulas make points grow without bound",
        hint="check formulas that multiply a score (say, by itself)")])


def check_scores(scores: list[int]) -> None:
    """Raise the error of ``checked_points`` when a score is past the bound."""
    for s in scores:
        checked_points(s)


def checked_skip(seats: int) -> int:
    """How many seats an event skips, or the error when it is past any round's length."""
    if seats <= MAX_SKIP:
        return seats
    raise DiagnosticError([Diagnostic(
        "round", f"an event skips {str(seats)[:40]} seats; a round has at most {MAX_SKIP} "
        "turns", hint="check the events' skip formulas")])
