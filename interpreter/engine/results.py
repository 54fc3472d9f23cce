"""Per-round and per-match facts the engine reports, whatever the ruleset.

These are the only things ``explore`` (compare) reads: every metric is computed
from them, so they are plain, small and picklable (workers send them back, or
running aggregates of them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple


class RoundStats(NamedTuple):
    """What happened in one round (one ``round_end`` of the record).

    A named tuple: the engines make one per round, in one step over all its fields
    (``NEW_ROUND(RoundStats, values)``, ``tuple.__new__``), which costs a fraction of a
    frozen dataclass's dict of fields.
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


NEW_ROUND = tuple.__new__   # NEW_ROUND(RoundStats, (every field, in order)): no defaults


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
