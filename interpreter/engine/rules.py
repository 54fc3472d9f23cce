"""``Rules``: everything the engine needs to play one ruleset, as plain values and callables.

This is the contract between ``dominorules.rules`` (which turns YAML into it, once
per ruleset) and the engine (which runs tight code over it). It knows nothing of
YAML, schemas or the expression language: formulas arrive already compiled to
Python callables, named choices as plain strings (the ``*_CHOICES`` tuples below
list them; the schema's enums are the same words).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

# Who leads a round. The first round may use any "chooser"; later rounds may also
# use the "followers" (rotate / same / winner), which need a previous round.
LEAD_CHOOSERS = (
    "lot",                  # uniform random seat (the match's RNG)
    "seat_zero",            # seat 0
    "highest_double",       # holder of the highest double dealt; nobody holds one: redeal
    "opening_tile_holder",  # holder of the required opening tile (opening.tile is a tile)
    "draw_highest_tile",    # each draws a tile from a shuffled full set; highest pips leads,
                            # ties draw again among the tied (tiles returned)
    "exposed_tiles",        # each exposes a random tile; (total % players) + 1 is the leader's
                            # 1-based number counted from LEAD_COUNT_FROM
)
LEAD_FOLLOWERS = (
    "rotate",   # one seat clockwise from the previous round's leader
    "same",     # the previous round's leader again
    "winner",   # the seat that won the previous round (domino, or lowest hand when blocked);
                # no winner (tied block): the previous leader again
)
LEAD_COUNT_FROM = ("seat_zero", "previous_leader")

OPENING_TILES = ("any", "highest_double")  # or a specific tile, given as (low, high)
OPENERS = ("leader", "holder")             # who opens when a specific tile is required
IF_UNHELD = ("redeal", "draw_in_turn")     # required tile in no hand
# a player with no placement: draws (if allowed) or passes
STUCK_CHOICES = ("draw", "pass")
BLOCKED_WINNERS = ("lowest_hand", "lowest_side")
BLOCKED_TIES = ("nothing", "each")         # tie for lowest: nobody scores / each tied side scores
DRAW_COST_TO = ("nobody", "round_winner")  # a drawn tile's cost: simply lost, or paid to the winner
# tie for highest at/over target: drawn match / another round
MATCH_TIES = ("draw", "play_on")


@dataclass(frozen=True)
class SeatTally:
    """One seat at the end of a round, as the scoring formulas see it."""

    seat: int
    pips: int    # hand value by the ruleset's tile values
    tiles: int   # tiles left in hand
    drawn: int   # tiles drawn this round


@dataclass(frozen=True)
class SideTally:
    """One side (a team, or a single seat in individual play) at the end of a round."""

    index: int
    players: tuple[SeatTally, ...]
    pips: int    # sum of its players' pips
    tiles: int
    drawn: int


@dataclass(frozen=True)
class ScoreContext:
    """What the domino and blocked-round formulas may read.

    ``winner`` is the scoring side, ``opponents`` every other side, ``sides`` all
    sides in index order, ``seats`` all seats in seat order, ``players`` their count.
    """

    winner: SideTally
    opponents: tuple[SideTally, ...]
    sides: tuple[SideTally, ...]
    seats: tuple[SeatTally, ...]
    players: int


@dataclass(frozen=True)
class Example:
    """A rule example carried by the ruleset (checked by ``validate``, shown by ``rules``).

    ``kind`` is ``"legal"`` (a position and the expected legal actions, in their
    text form) or ``"points"`` (end-of-round hands and the expected points per side).
    ``data`` is the example's mapping as written in YAML; ``line`` its line there.
    """

    kind: str
    title: str
    data: dict[str, Any]
    line: int = 0


@dataclass(frozen=True)
class Rules:
    """A compiled ruleset. Built once; read-only; cheap to pickle except the callables."""

    name: str
    title: str
    description: str
    source: str
    # equipment and seats
    max_pip: int                                  # a double-N set
    min_players: int
    max_players: int
    partnerships: bool                            # two sides, seats alternating (0,2,.. vs 1,3,..)
    # deal
    hand_size: Callable[[int], int]               # players -> tiles each
    reserve: int                                  # boneyard tiles that are never drawn
    # leader and opening
    first_leader: str                             # one of LEAD_CHOOSERS
    later_leader: str                             # one of LEAD_CHOOSERS + LEAD_FOLLOWERS
    lead_count_from: str                          # for exposed_tiles
    opening_tile: str | tuple[int, int]           # "any", "highest_double" or (low, high)
    opener: str                                   # one of OPENERS
    if_unheld: str                                # one of IF_UNHELD
    # a turn
    voluntary_draw: bool                          # may draw while holding a playable tile
    when_stuck: str                               # one of STUCK_CHOICES
    draw_limit: int | None                        # most tiles drawn in one turn; None: no limit
    draw_cost: Callable[[int], int]               # players -> points one drawn tile costs
    draw_cost_to: str                             # one of DRAW_COST_TO
    # scoring
    tile_value: Callable[[int, int], int]         # (low, high) -> value of that tile in a hand
    domino_points: Callable[[ScoreContext], int]  # points for the dominoer's side
    blocked_winner: str                           # one of BLOCKED_WINNERS
    blocked_tie: str                              # one of BLOCKED_TIES
    blocked_points: Callable[[ScoreContext], int] # points for the blocked round's winning side
    # match
    target: Callable[[int, int, bool], int]       # (players, sides, partnerships) -> target
    match_tie: str                                # one of MATCH_TIES
    examples: Sequence[Example] = field(default_factory=tuple)
