"""Every metric ``compare`` reports, defined once, and the running sums they are computed from.

A match is the unit of sampling (its rounds are not independent of each other), so
each match is turned into one vector of integer *features* (its rounds, its turns,
whether seat 2 won ...). A batch of matches becomes an ``Aggregate``: the count, the
sum of the feature vectors and the sum of their outer products, all integers. Sums
of integers do not depend on the order they were added in, so a run gives the same
result to the last digit whatever the number of workers or the backend, and workers
send back a few small arrays instead of lists of records (memory stays flat).

Every metric is a ratio of two feature means (``rounds / matches``, ``turns /
rounds``, ``comebacks / decided matches`` ...) except ``balance``; ``stats`` turns
the sums into estimates and intervals. ``docs/metrics.md`` says the same in prose.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..engine.results import MECHANISM_COUNTERS as COUNTED
from ..engine.results import MatchResult

# Features smaller than this sum exactly in int64 (squares below 2**32, over up to 2**31
# matches); a batch holding a bigger one is summed in Python ints instead.
INT64_SAFE = 1 << 16
# The largest feature (points in one match, in practice) compare accepts: squares must
# stay far below the largest float (1e308) when the sums become estimates.
MAX_FEATURE = 10 ** 150

# The per-match features, in vector order; seat wins (``seat_win_<s>``) follow them.
BASE_FEATURES = (
    "one",            # 1: counts matches
    "sides",          # the number of sides (fair share = 1 / sides)
    "rounds",
    "turns",
    "placements",
    "draws",
    "passes",
    "decisions",
    "choice_points",  # decisions with two or more legal actions
    "redeals",
    "blocked",        # rounds that ended blocked
    "tied_blocks",    # blocked rounds whose lowest hands (or sides) tied
    "points",         # points scored by all sides over the match (draw costs included)
    "drawn",          # 1 when the match was drawn (tie for highest)
    "decided",        # 1 when some side won the match
    "lead_changes",
    "comeback",       # 1 when the match's winner trailed after some round
    "leader_edge",    # sides * [first leader's side won] - decided
    "skill_win",      # skill pairing: 1 when the skilled seat's side won
    "skill_edge",     # skill pairing: sides * skill_win - decided
    "side_rounds",    # sides * rounds (fair share of round wins = 1 / sides)
    "round_leader_edge",  # sum over rounds: sides * [round leader's side won it] - [won]
    "domino_rounds",  # rounds ended by a player placing their last tile
    "play_points",    # points scored during play (house mechanisms; 0 when the engine
    "extra_turns",    # reports none), extra turns taken and seats skipped
    "skips",
)


def feature_names(players: int) -> tuple[str, ...]:
    """The feature vector's layout for a pairing of ``players`` players: the base features,
    the seats' wins, then the mechanisms' counters (``MECHANISM_COUNTERS``)."""
    return BASE_FEATURES + tuple(f"seat_win_{s}" for s in range(players)) + COUNTED


def lead_changes(match: MatchResult) -> int:
    """How many times the unique highest score passed to another side between rounds.

    Rounds after which the highest score is tied are skipped: the lead changes when
    the next unique leader differs from the last one.

    >>> from dominorules.engine.results import RoundStats
    >>> r = lambda s: RoundStats(round=1, leader=0, result="domino", winner=0, winner_seat=0,
    ...                          tied_block=False, points=(0, 0), scores=s, turns=1,
    ...                          placements=1, draws=0, passes=0, decisions=1, choice_points=0)
    >>> m = MatchResult("x", 2, 1, ((0,), (1,)), 0, (9, 5), 5,
    ...                 (r((3, 0)), r((3, 3)), r((3, 5)), r((9, 5))))
    >>> lead_changes(m)
    2
    """
    changes = 0
    last: int | None = None
    for rnd in match.rounds:
        top = max(rnd.scores)
        leaders = [i for i, s in enumerate(rnd.scores) if s == top]
        if len(leaders) != 1:
            continue
        if last is not None and leaders[0] != last:
            changes += 1
        last = leaders[0]
    return changes


def is_comeback(match: MatchResult) -> bool:
    """True when the match's winner had a strictly lower score than some side after a round."""
    w = match.winner
    if w is None:
        return False
    return any(rnd.scores[w] < max(rnd.scores) for rnd in match.rounds)


def side_of(match: MatchResult, seat: int) -> int:
    """The index of the side ``seat`` plays for."""
    for i, seats in enumerate(match.teams):
        if seat in seats:
            return i
    raise ValueError(f"seat {seat} is in no side of {match.teams}")


def features(match: MatchResult, skilled_seat: int | None = None,
             round_points: list[int] | None = None) -> list[int]:
    """The match as one integer vector laid out as ``feature_names(match.players)``.

    One pass over the rounds: this runs once per match, beside the engine's hot loop.
    Each round's total points are appended to ``round_points`` when given (the chart).
    """
    rounds = match.rounds
    sides = len(match.teams)
    winner = match.winner
    decided = 0 if winner is None else 1
    turns = placements = draws = passes = decisions = choices = redeals = 0
    blocked = tied = points = changes = 0
    leader_rounds = won_rounds = dominoes = play_points = extra_turns = skips = 0
    side_by_seat = [0] * match.players
    for i, seats in enumerate(match.teams):
        for seat in seats:
            side_by_seat[seat] = i
    trailed = False
    last: int | None = None
    for r in rounds:
        turns += r.turns
        placements += r.placements
        draws += r.draws
        passes += r.passes
        decisions += r.decisions
        choices += r.choice_points
        redeals += r.redeals
        if r.result == "blocked":
            blocked += 1
        elif r.result == "domino":
            dominoes += 1
        if r.winner is not None:
            won_rounds += 1
            if side_by_seat[r.leader] == r.winner:
                leader_rounds += 1
        # fields the engine may not report (house-rule mechanisms): read them softly
        played = getattr(r, "play_points", None)
        if played:
            play_points += sum(played)
        extra_turns += getattr(r, "extra_turns", 0) or 0
        skips += getattr(r, "skips", 0) or 0
        if r.tied_block:
            tied += 1
        scored = sum(r.points)
        points += scored
        if round_points is not None:
            round_points.append(scored)
        scores = r.scores
        top = max(scores)
        if decided and scores[winner] < top:
            trailed = True
        if scores.count(top) == 1:
            lead = scores.index(top)
            if last is not None and lead != last:
                changes += 1
            last = lead
    leader_won = int(decided == 1 and bool(rounds)
                     and side_of(match, rounds[0].leader) == winner)
    skill_win = skill_edge = 0
    if skilled_seat is not None:
        skill_win = int(decided == 1 and side_of(match, skilled_seat) == winner)
        skill_edge = sides * skill_win - decided
    winning_seats = match.teams[winner] if decided else ()
    vec = [1, sides, len(rounds), turns, placements, draws, passes, decisions, choices,
           redeals, blocked, tied, points, 1 - decided, decided, changes, int(trailed),
           sides * leader_won - decided, skill_win, skill_edge,
           sides * len(rounds), sides * leader_rounds - won_rounds, dominoes, play_points,
           extra_turns, skips]
    vec.extend(int(s in winning_seats) for s in range(match.players))
    counted = getattr(match, "counters", None) or {}   # a mechanism's, when it reports any
    vec.extend(int(counted.get(name, 0)) for name in COUNTED)
    return vec


@dataclass(frozen=True)
class Metric:
    """One reported number: the plain question it answers and how it is computed.

    ``kind`` is ``ratio`` (mean of ``num`` over mean of ``den``, interval by the
    delta method with Student's t over matches), ``proportion`` (the same ratio where
    both are 0/1 per match and ``num`` implies ``den``: a Wilson interval on the
    counts) or ``balance`` (largest minus smallest seat win rate). ``unit`` is
    ``share`` for rates (shown as percentages; ``--precision`` reads it in absolute
    terms) or the word counted (``--precision`` reads those relative to the estimate).
    """

    key: str
    question: str
    unit: str
    kind: str
    num: str = ""
    den: str = "one"
    pairing: str = "main"    # "main" (the bots asked for) or "skill" (skilled vs random)
    doc: str = ""
    when_used: bool = False  # shown only when some ruleset's ``num`` total is not 0
    short: str = ""          # a few words, for tables too narrow for the question
    by_seat: bool = False    # a seat's (or side's) share: its fair share depends on the sides


def _seat_metrics(players: int, partnerships: bool) -> list[Metric]:
    whose = "seat {s}'s side" if partnerships else "seat {s}"
    return [
        Metric(f"win_rate_seat_{s}", f"How often does {whose.format(s=s)} win the match?",
               "share", "proportion", f"seat_win_{s}",
               doc="matches won by the seat's side / matches",
               short=("seat {s}'s side wins" if partnerships else "seat {s} wins").format(s=s),
               by_seat=True)
        for s in range(players)
    ]


MAIN_METRICS: tuple[Metric, ...] = (
    Metric("rounds_per_match", "How many rounds does a match last?", "rounds", "ratio",
           "rounds", doc="rounds / matches",
           short="rounds per match"),
    Metric("turns_per_match", "How many turns does a match take?", "turns", "ratio",
           "turns", doc="turns, over all rounds / matches", short="turns per match"),
    Metric("placements_per_match", "How many tiles are placed in a match?", "tiles", "ratio",
           "placements", doc="tiles placed over all rounds, openings included / matches",
           short="tiles per match"),
    Metric("turns_per_round", "How many turns does a round take?", "turns", "ratio",
           "turns", "rounds", doc="turns / rounds (a turn ends with a placement or a pass)",
           short="turns per round"),
    Metric("placements_per_round", "How many tiles are placed in a round?", "tiles", "ratio",
           "placements", "rounds", doc="tiles placed, the opening included / rounds",
           short="tiles placed per round"),
    Metric("draws_per_round", "How many tiles are drawn in a round?", "tiles", "ratio",
           "draws", "rounds", doc="tiles drawn from the boneyard / rounds",
           short="tiles drawn per round"),
    Metric("passes_per_round", "How many times does someone pass in a round?", "passes",
           "ratio", "passes", "rounds", doc="passes / rounds",
           short="passes per round"),
    Metric("redeals_per_round", "How many deals are thrown in per round?", "deals", "ratio",
           "redeals", "rounds", doc="deals thrown in before the round could open / rounds",
           short="redeals per round"),
    Metric("blocked_rate", "How often does a round end blocked?", "share", "ratio",
           "blocked", "rounds", doc="blocked rounds / rounds",
           short="rounds blocked"),
    Metric("domino_rate", "How often is a round decided by the last tile (someone goes out)?",
           "share", "ratio", "domino_rounds", "rounds",
           doc="rounds ended by a player placing their last tile / rounds",
           short="rounds gone out"),
    Metric("tied_block_rate", "When a round blocks, how often do the lowest hands tie?",
           "share", "ratio", "tied_blocks", "blocked",
           doc="blocked rounds with a tie for lowest / blocked rounds",
           short="blocks tied"),
    Metric("points_per_round", "How many points does a round score?", "points", "ratio",
           "points", "rounds", doc="points scored by all sides (draw costs included) / rounds",
           short="points per round"),
    Metric("play_points_per_round", "How many points are scored during play in a round?",
           "points", "ratio", "play_points", "rounds", when_used=True,
           doc="points scored while the round is played (not at its end) / rounds"),
    Metric("extra_turns_per_round", "How many extra turns are taken in a round?", "turns",
           "ratio", "extra_turns", "rounds", when_used=True,
           doc="extra turns a house rule granted / rounds"),
    Metric("skips_per_round", "How many times is a player skipped in a round?", "skips",
           "ratio", "skips", "rounds", when_used=True,
           doc="turns a house rule skipped / rounds"),
    Metric("drawn_match_rate", "How often does a match end drawn?", "share", "proportion",
           "drawn", doc="drawn matches (tie for highest) / matches",
           short="matches drawn"),
    Metric("leader_advantage", "How much more often than a fair share does the first "
           "leader win?", "share", "ratio", "leader_edge", "sides",
           doc="(wins of the first round's leader's side - decided matches / sides) / matches",
           short="first leader's edge"),
    Metric("round_leader_advantage", "How much more often than a fair share does a round's "
           "leader win that round?", "share", "ratio", "round_leader_edge", "side_rounds",
           doc="(rounds won by the leader's side - rounds won by anyone / sides) / rounds",
           short="round leader's edge"),
    Metric("balance", "What is the largest gap between two seats' win rates?", "share",
           "balance", doc="highest seat win rate - lowest seat win rate",
           short="seat win gap"),
    Metric("lead_changes", "How many times does the lead change in a match?", "changes",
           "ratio", "lead_changes", doc="changes of the unique highest score / matches",
           short="lead changes a match"),
    Metric("comeback_rate", "How often does the winner come from behind?", "share",
           "proportion", "comeback", "decided",
           doc="decided matches whose winner trailed after some round / decided matches",
           short="comeback wins"),
    Metric("decision_rate", "How often does a player have a real choice?", "share", "ratio",
           "choice_points", "decisions",
           doc="decisions with two or more legal actions / decisions",
           short="real choices"),
)

# What the house-rule mechanisms do, counted per match by the engine that plays them
# (``MatchResult.counters``, the names of ``engine.results.MECHANISM_COUNTERS``, filled by
# the general loop only for a ruleset using the mechanism; 0 for a match reporting none,
# the JIT's rows padded with zeros). Each metric reads one counter (``num``) and shows
# only when some ruleset compared reports it: a mechanism adds its name there and its
# metric here.
MECHANISM_COUNTERS: tuple[Metric, ...] = (
    Metric("variable_sets_per_round", "How many times does an event set a variable in a "
           "round?", "sets", "ratio", "variable_sets", "rounds", when_used=True,
           doc="variables set by play-time events (events[].set) / rounds",
           short="variables set per round"),
    Metric("variables_final", "What do the variables add up to when a match ends?", "value",
           "ratio", "variables_final", when_used=True,
           doc="the sum of every variable's value at the match's end / matches",
           short="variables at the end"),
    Metric("duties_laid_per_round", "How many duties do events lay in a round (one a seat "
           "bearing it)?", "duties", "ratio", "duties_laid", "rounds", when_used=True,
           doc="duties laid by play-time events (events[].duty) / rounds",
           short="duties laid per round"),
    Metric("duties_failed_per_round", "How many times is a duty failed in a round?", "duties",
           "ratio", "duties_failed", "rounds", when_used=True,
           doc="turns that ended with a duty unmet (each pays its penalty) / rounds",
           short="duties failed per round"),
    Metric("duty_met_rate", "How many duties laid are met?", "share", "ratio", "duties_met",
           "duties_laid", when_used=True,
           doc="duties met by a placement / duties laid (the rest lapse at the round's end)",
           short="duties met"),
    Metric("lead_handed_rate", "How often does the leader hand the first tile to another "
           "seat?", "share", "ratio", "leads_handed", "rounds", when_used=True,
           doc="rounds whose first tile a declaration's lead handed to another seat / rounds",
           short="lead handed over"),
)

SKILL_METRICS: tuple[Metric, ...] = (
    Metric("skill_win_rate", "How often does a skilled player beat random players?", "share",
           "proportion", "skill_win", pairing="skill",
           doc="matches won by the skilled seat's side / matches (skill pairing)",
           short="skilled seat wins",
           by_seat=True),
    Metric("skill_gap", "How much more often than a fair share does skill win?", "share",
           "ratio", "skill_edge", "sides", pairing="skill",
           doc="(skilled side's wins - decided matches / sides) / matches (skill pairing)",
           short="skill's edge"),
)


def metrics_for(pairing: str, players: int, partnerships: bool = False) -> list[Metric]:
    """The metrics reported for one pairing, in table order."""
    if pairing == "skill":
        return list(SKILL_METRICS)
    out: list[Metric] = []
    for m in MAIN_METRICS:
        out.append(m)
        if m.key == "drawn_match_rate":
            out.extend(_seat_metrics(players, partnerships))
    return out + list(MECHANISM_COUNTERS)


def shown(metric: Metric, aggs: Sequence[Aggregate], names: tuple[str, ...]) -> bool:
    """Whether a row belongs in the report: a ``when_used`` metric only when some ruleset
    compared scored, skipped or gave extra turns at all (so a plain Draw table stays short)."""
    if not metric.when_used:
        return True
    k = names.index(metric.num)
    return any(int(a.s1[k]) != 0 for a in aggs)


def points_per_round(match: MatchResult) -> list[int]:
    """Total points every round of the match scored (for the distribution chart)."""
    return [sum(r.points) for r in match.rounds]


@dataclass
class Aggregate:
    """Running sums over a set of matches of one ruleset in one pairing.

    ``s1`` is the sum of feature vectors, ``s2`` the sum of their outer products
    (int64: exact, whatever order batches are added in). ``rounds_hist`` counts
    matches by length and ``points_hist`` rounds by the points they scored.
    """

    dim: int
    n: int = 0
    s1: np.ndarray = field(default=None)  # type: ignore[assignment]
    s2: np.ndarray = field(default=None)  # type: ignore[assignment]
    rounds_hist: Counter = field(default_factory=Counter)
    points_hist: Counter = field(default_factory=Counter)

    def __post_init__(self) -> None:
        if self.s1 is None:
            self.s1 = np.zeros(self.dim, dtype=np.int64)
        if self.s2 is None:
            self.s2 = np.zeros((self.dim, self.dim), dtype=np.int64)

    def add_rows(self, rows: np.ndarray) -> None:
        """Add a (matches x features) array of feature vectors: int64, or Python ints
        (``object``) when the values are too big for int64 sums to stay exact."""
        if rows.dtype == object:
            self._promote()
        self.n += rows.shape[0]
        self.s1 += rows.sum(axis=0)
        self.s2 += rows.T @ rows

    def _promote(self) -> None:
        """Sums as Python ints from now on: exact whatever their size (and slower)."""
        if self.s1.dtype != object:
            self.s1, self.s2 = self.s1.astype(object), self.s2.astype(object)

    def merge(self, other: Aggregate) -> None:
        if other.s1.dtype == object:
            self._promote()
        self.n += other.n
        self.s1 += other.s1
        self.s2 += other.s2
        self.rounds_hist.update(other.rounds_hist)
        self.points_hist.update(other.points_hist)


@dataclass
class CrossAggregate:
    """Sum of outer products between the first ruleset's features and another's, per seed."""

    dim: int
    n: int = 0
    s12: np.ndarray = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.s12 is None:
            self.s12 = np.zeros((self.dim, self.dim), dtype=np.int64)

    def add_rows(self, base: np.ndarray, other: np.ndarray) -> None:
        if base.dtype == object or other.dtype == object:
            self._promote()
        self.n += base.shape[0]
        self.s12 += base.T @ other

    def _promote(self) -> None:
        if self.s12.dtype != object:
            self.s12 = self.s12.astype(object)

    def merge(self, other: CrossAggregate) -> None:
        if other.s12.dtype == object:
            self._promote()
        self.n += other.n
        self.s12 += other.s12


def aggregate_matches(
    matches: Sequence[MatchResult], skilled: Sequence[int | None] | None = None
) -> Aggregate:
    """An Aggregate of hand-given matches (tests, small scripts)."""
    skilled = skilled or [None] * len(matches)
    dim = len(feature_names(matches[0].players))
    agg = Aggregate(dim)
    rows = np.array([features(m, s) for m, s in zip(matches, skilled, strict=True)],
                    dtype=np.int64)
    agg.add_rows(rows)
    for m in matches:
        agg.rounds_hist[len(m.rounds)] += 1
        agg.points_hist.update(points_per_round(m))
    return agg
