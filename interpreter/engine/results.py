"""Per-round and per-match facts the engine reports, whatever the ruleset.

These are the only things ``explore`` (compare) reads: every metric is computed
from them, so they are plain, small and picklable (workers send them back, or
running aggregates of them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple


class RoundStats(NamedTuple):
    """What happened in one round (one ``round_end`` of the record).

    Built by name (``RoundStats(round=..., leader=...)``). The kernels make one per round
    in one step instead (``ONE_STEP``, ``tuple.__new__``: a tenth of the cost of 18 keywords), from
    source that ``one_step_source`` writes in this class's own field order, so no second
    list of the fields exists.
    """

    round: int                       # 1-based
    leader: int                      # the round's leader (seat)
    result: str                      # "domino" or "blocked"
    winner: int | None               # winning side index; None when nobody scored the round
    winner_seat: int | None          # the seat that dominoed / had the lowest hand; None on a tie
    tied_block: bool                 # blocked, and the lowest hands (or sides) tied
    points: tuple[int, ...]          # per side, this round (draw costs included)
    scores: tuple[int, ...]          # per side, cumulative after this round
    turns: int                       # turns taken (a turn ends with a placement or a pass)
    placements: int                  # tiles placed, the opening included
    draws: int                       # tiles drawn (opening draws-in-turn included)
    passes: int
    decisions: int                   # times a player was asked to choose an action
    choice_points: int               # decisions with two or more legal actions
    redeals: int = 0                 # deals thrown in before this round could open
    play_points: tuple[int, ...] = ()  # per side, scored during play by events (house rules);
                                       # empty when the ruleset has none
    extra_turns: int = 0             # turns granted again to the same player by events
    skips: int = 0                   # turns skipped by events


ONE_STEP = tuple.__new__   # ONE_STEP(cls, (every field, in order)): a named tuple, no defaults


def one_step_source(cls: type, values: Mapping[str, str]) -> str:
    """Source making the named tuple ``cls`` in one step, ``ONE_STEP(cls, (...))``, from
    the source of each field's value by name, put in ``cls._fields``' order (generated
    code names ``ONE_STEP`` and the class). Every field must be given, and nothing else.

    >>> one_step_source(RoundStats, {f: "x" for f in RoundStats._fields})[:30]
    'ONE_STEP(RoundStats, (x, x, x,'
    """
    fields = cls._fields
    if set(values) != set(fields):
        wrong = sorted(set(values) ^ set(fields))
        raise ValueError(f"{cls.__name__}: fields missing or unknown: {', '.join(wrong)}")
    parts = [v if v.isidentifier() else f"({v})" for v in map(values.__getitem__, fields)]
    return f"ONE_STEP({cls.__name__}, (" + ", ".join(parts) + "))"


# The counts a house-rule mechanism may report over a match (``MatchResult.counters``), in
# the order they follow the seats' wins in compare's feature vectors (``explore.metrics``
# gives each its metric). A mechanism adds its name here and counts it in its own hook.
MECHANISM_COUNTERS = ("variable_sets", "variables_final", "duties_laid", "duties_failed",
                      "duties_met", "leads_handed")


@dataclass(frozen=True)
class MatchResult:
    """A finished match: its outcome, its rounds and (when asked for) its record."""

    ruleset: str
    players: int
    seed: int
    teams: tuple[tuple[int, ...], ...]   # seats of each side
    winner: int | None                   # side index; None for a drawn match
    scores: tuple[int, ...]              # per side, final
    target: int
    rounds: tuple[RoundStats, ...]
    events: list[dict[str, Any]] | None = field(default=None, compare=False)  # TRACE events
    capped: bool = False  # stopped by the round cap (``max_rounds``), undecided: not a tie
    # what the house-rule mechanisms did over the match, by feature name (variables set by
    # events ...), for compare (``explore.metrics.MECHANISM_COUNTERS``); None: nothing
    counters: dict[str, int] | None = field(default=None, compare=False)
