"""``tune``: search the varied fields for values that meet goals on the metrics.

The search (``docs/metrics.md`` says why): a coarse grid over each long range, then
finer grids that zoom in around the best candidate so far, until no untried value is
left between it and its nearest tried neighbours (every new point plays the first
rung of matches); then successive halving over every candidate: the best third by
goal loss go on to play ``ETA`` times as many matches, on the next seeds, and so on
until one is left or ``max_matches`` is reached. Matches go where the candidates are
still in doubt. Each step is a run of compare's runner (``first_index`` continues the
seeds), so the result is the same whatever the workers.
"""

from __future__ import annotations

import itertools
import math
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scipy import stats as sps

from ..bots.seats import seat_bots
from ..diagnostics import did_you_mean
from . import stats
from .compare import worker_ref
from .metrics import Aggregate, Metric, feature_names, metrics_for
from .runner import RunSettings, run
from .sweep import at_players, check_settings
from .variation import Vary, label, usage, variant_text, write_variant
from .worker import DEFAULT_API, Pairing, game_for

ETA = 3
GRID = 9            # values tried inside a range
MAX_CANDIDATES = 81
ALIASES = {"first_leader_advantage": "leader_advantage", "matches_length": "rounds_per_match"}
GOAL = re.compile(r"^\s*([A-Za-z_0-9]+)\s*(~|<|>)\s*(-?[\d.]+)(%?)\s*"
                  r"(?:(?:\+-|±)\s*([\d.]+)(%?))?\s*$")


@dataclass(frozen=True)
class Goal:
    """``metric ~ target [± tolerance]``, ``metric < bound`` or ``metric > bound``."""

    text: str
    metric: Metric
    op: str
    value: float
    tolerance: float

    def loss(self, v: float | None) -> float:
        """0 when met; otherwise the miss in tolerances (a missing value is a large miss)."""
        if v is None:
            return 1e6
        if self.op == "~":
            return max(0.0, abs(v - self.value) - self.tolerance) / self.tolerance + \
                abs(v - self.value) / self.tolerance * 1e-3
        miss = v - self.value if self.op == "<" else self.value - v
        return max(0.0, miss) / self.tolerance

    def confidence(self, e: stats.Estimate) -> float | None:
        """How sure the goal is met: the normal approximation to the estimate's interval."""
        if e.value is None:
            return None
        se = (e.half_width or 0.0) / sps.norm.ppf(0.5 + stats.LEVEL / 2)
        if se == 0:
            return float(self.loss(e.value) == 0)
        cdf = sps.norm.cdf
        if self.op == "~":
            return float(cdf((self.value + self.tolerance - e.value) / se)
                         - cdf((self.value - self.tolerance - e.value) / se))
        z = (self.value - e.value) / se
        return float(cdf(z) if self.op == "<" else cdf(-z))


def parse_goal(text: str, players: int) -> Goal:
    """A goal as typed; an unknown metric or a malformed goal is a usage error."""
    m = GOAL.match(text)
    if not m:
        raise usage(f"--goal {text!r}: expected METRIC ~ TARGET, METRIC < BOUND or "
                    "METRIC > BOUND", "e.g. --goal \"turns_per_match ~ 120\"")
    key, op, number, pct, tol, tol_pct = m.groups()
    known = {x.key: x for x in metrics_for("main", players) + metrics_for("skill", players)}
    metric = known.get(ALIASES.get(key, key))
    if metric is None:
        raise usage(f"--goal {text!r}: no metric named '{key}'",
                    did_you_mean(key, list(known) + list(ALIASES)))
    value = float(number) / (100 if pct else 1)
    if tol:
        tolerance = float(tol) / (100 if tol_pct else 1)
    elif metric.unit == "share":
        tolerance = 0.01
    else:
        tolerance = max(abs(value) * 0.05, 1e-6)
    return Goal(text.strip(), metric, op, value, tolerance)


@dataclass
class Candidate:
    index: int
    overrides: dict[str, Any]
    ref: str = ""
    aggs: dict[str, Aggregate] = field(default_factory=dict)   # pairing kind -> sums
    estimates: dict[str, stats.Estimate] = field(default_factory=dict)
    loss: float = math.inf
    rung: int = 0

    @property
    def label(self) -> str:
        return label(self.overrides)


def _evenly(values: list[Any], most: int) -> list[Any]:
    """At most ``most`` of the sorted ``values``, evenly spread, both ends included."""
    if len(values) <= most:
        return list(values)
    return sorted({values[round(j * (len(values) - 1) / (most - 1))] for j in range(most)})


def searched(vary: Vary) -> bool:
    """A range too long to try whole (``5..7`` is tried whole; lists always are)."""
    return vary.span is not None and len(vary.values) > GRID


def grid(vary: Vary, most: int = GRID) -> tuple[Any, ...]:
    """The coarse grid: a long range on at most ``GRID`` evenly spaced values."""
    return tuple(_evenly(list(vary.values), most)) if searched(vary) else vary.values


def candidates(varies: tuple[Vary, ...]) -> list[dict[str, Any]]:
    combos = [dict(zip([v.path for v in varies], values, strict=True))
              for values in itertools.product(*(grid(v) for v in varies))]
    if len(combos) > MAX_CANDIDATES:
        raise usage(f"--vary makes {len(combos)} candidates, more than {MAX_CANDIDATES}",
                    "give fewer values or fewer fields")
    return combos


def zoomed(varies: tuple[Vary, ...], tried: list[dict[str, Any]],
           best: dict[str, Any]) -> list[dict[str, Any]]:
    """The finer grid around ``best``: in each searched range, the values between the
    nearest values tried on either side of best's (evenly spread, at most ``GRID``
    of them, fewer per field when several ranges zoom together so the grid stays
    within ``MAX_CANDIDATES``); every other field keeps best's value."""
    ranges = [v for v in varies if searched(v)]
    per_field = max(3, min(GRID, int(MAX_CANDIDATES ** (1 / max(len(ranges), 1)) + 1e-9)))
    axes = []
    for v in varies:
        b = best[v.path]
        if not searched(v):
            axes.append([b])
            continue
        seen = {t[v.path] for t in tried}
        lo = max((x for x in seen if x < b), default=b)
        hi = min((x for x in seen if x > b), default=b)
        axes.append(_evenly([x for x in v.values if lo <= x <= hi], per_field))
    return [dict(zip([v.path for v in varies], values, strict=True))
            for values in itertools.product(*axes)]


Evaluate = Callable[[list[Candidate], int, int], None]
Make = Callable[[dict[str, Any]], "Candidate | None"]


def score(cands: list[Candidate], goals: list[Goal], rung: int) -> None:
    for c in cands:
        c.loss = sum(g.loss(c.estimates[g.metric.key].value if g.metric.key in c.estimates
                            else None) for g in goals)
        c.rung = rung


def successive_halving(cands: list[Candidate], goals: list[Goal], evaluate: Evaluate,
                       first: int, most: int, first_rung_played: bool = False
                       ) -> list[Candidate]:
    """Play rungs until one candidate is left or ``most`` matches; best first.

    ``evaluate(alive, start, stop)`` plays matches ``start..stop`` of each alive candidate
    and updates its estimates. Ties keep the candidates' order, so it is deterministic.
    With ``first_rung_played`` every candidate has already played (and been scored on)
    its first ``first`` matches.
    """
    alive = list(cands)
    start, stop, rung = 0, min(first, most), 0
    while True:
        if not (first_rung_played and rung == 0):
            evaluate(alive, start, stop)
            score(alive, goals, rung)
        alive.sort(key=lambda c: (c.loss, c.index))
        if len(alive) == 1 or stop >= most:
            break
        alive = alive[:max(1, math.ceil(len(alive) / ETA))]
        start, stop, rung = stop, min(stop * ETA, most), rung + 1
    return ranking(cands)


def ranking(cands: list[Candidate]) -> list[Candidate]:
    """Those that went furthest first (their estimates are the surest), then by loss."""
    return sorted(cands, key=lambda c: (-c.rung, c.loss, c.index))


def zoom_then_halve(varies: tuple[Vary, ...], goals: list[Goal], make: Make,
                    evaluate: Evaluate, first: int, most: int,
                    pool: list[Candidate] | None = None) -> list[Candidate]:
    """The search: the coarse grid, then finer grids around the best so far (each new
    point plays the first ``first`` matches) until no untried value is left between
    the best and its nearest tried neighbours; then successive halving over them all.

    ``make(overrides)`` gives a candidate, or None for one that cannot be played.
    ``pool`` (if given) collects every candidate as it is made, for a Ctrl-C report.
    """
    pool = [] if pool is None else pool
    tried: list[dict[str, Any]] = []
    points = candidates(varies)
    while True:
        fresh = [o for o in points if o not in tried]
        if not fresh:
            break
        tried += fresh
        new = [c for c in map(make, fresh) if c is not None]
        pool += new
        if new:
            evaluate(new, 0, min(first, most))
            score(new, goals, 0)
        if not pool:
            break
        best = min(pool, key=lambda c: (c.loss, c.index))
        points = zoomed(varies, tried, best.overrides)
    if not pool:
        return []
    return successive_halving(pool, goals, evaluate, first, most, first_rung_played=True)


@dataclass(frozen=True)
class TuneSettings:
    ref: str
    varies: tuple[Vary, ...]
    goals: tuple[str, ...]
    players: int | None = None
    matches: int = 200          # the first rung
    max_matches: int = 5400
    seed: int = 1
    bots: tuple[str, ...] = ("random",)
    skill_bots: tuple[str, str] | None = ("strategist", "random")   # None: --no-skill
    batch_size: int = 50
    api_module: str = DEFAULT_API
    background: bool = False   # auto: Python plays while a new kernel compiles aside


@dataclass
class Tuning:
    settings: TuneSettings
    players: int
    goals: list[Goal]
    ranked: list[Candidate]
    invalid: list[tuple[str, str]]
    interrupted: bool = False


def check(settings: TuneSettings) -> tuple[int, list[Goal]]:
    """Every usage error before anything runs: --vary, --goal, players."""
    base, players = check_settings(settings.ref, settings.varies, settings.players,
                                   settings.api_module)
    if not settings.goals:
        raise usage("give at least one --goal", "e.g. --goal \"turns_per_match ~ 120\"")
    goals = [parse_goal(g, players) for g in settings.goals]
    for g in goals:
        if g.metric.pairing == "skill" and settings.skill_bots is None:
            raise usage(f"--goal {g.text!r} needs the skill pairing, which --no-skill "
                        "leaves out", "drop --no-skill, or the goal")
    return players, goals


def tune(settings: TuneSettings, make_backend: Callable[[], Any],
         progress: Callable[[int, int, str], None] | None = None) -> Tuning:
    """Write each candidate as the search reaches it, play it on the runner, rank them."""
    players, goals = check(settings)
    skill = any(g.metric.pairing == "skill" for g in goals)
    bots = seat_bots(settings.bots, players)
    names = feature_names(players)
    invalid: list[tuple[str, str]] = []
    result = Tuning(settings, players, goals, [], invalid)
    with tempfile.TemporaryDirectory(prefix="dominorules-tune-") as directory:
        pool: list[Candidate] = []
        made = [0]

        def make(overrides: dict[str, Any]) -> Candidate | None:
            i = made[0]
            made[0] += 1
            path = write_variant(worker_ref(settings.ref), at_players(overrides, players),
                                 directory, i)
            try:
                game_for(settings.api_module, path).check_players(players)
            except Exception as exc:   # an impossible deal: listed, not fatal
                problems = getattr(exc, "diagnostics", None)
                invalid.append((label(overrides), problems[0].message if problems else str(exc)))
                return None
            return Candidate(i, overrides, path)

        rung = [0]

        def evaluate(alive: list[Candidate], start: int, stop: int) -> None:
            pairings = []
            for c in alive:
                pairings.append(Pairing(f"{c.index}", (c.ref,), players, bots))
                if skill and settings.skill_bots is not None:
                    skilled, others = settings.skill_bots
                    pairings.append(Pairing(f"{c.index} skill", (c.ref,), players,
                                            (others,) * players, skilled))

            def report(done: int, total: int) -> None:
                if progress is not None:
                    progress(done, total, f"step {rung[0] + 1}: {len(alive)} candidates, "
                                          f"matches {start}-{stop - 1}")

            outcome = run(pairings, RunSettings(settings.seed, stop,
                                                batch_size=settings.batch_size,
                                                api_module=settings.api_module,
                                                first_index=start,
                                                background=settings.background),
                          make_backend(), progress=report)
            rung[0] += 1
            for r in outcome.runs:
                index, _, kind = r.pairing.name.partition(" ")
                c = next(c for c in alive if str(c.index) == index)
                agg = c.aggs.setdefault(kind or "main", Aggregate(len(names)))
                if r.n > start:
                    agg.merge(r.aggs[0])
                for g in goals:
                    if g.metric.pairing == (kind or "main") and agg.n:
                        c.estimates[g.metric.key] = stats.estimate(g.metric, agg, names)
            if outcome.interrupted:
                result.interrupted = True
                raise KeyboardInterrupt

        try:
            result.ranked = zoom_then_halve(settings.varies, goals, make, evaluate,
                                            settings.matches, settings.max_matches, pool)
        except KeyboardInterrupt:
            result.interrupted = True
            result.ranked = ranking([c for c in pool if c.estimates])
    if not result.ranked and not result.interrupted:
        raise usage("no candidate can be played", invalid[0][1] if invalid else "")
    return result


def winning_yaml(tuning: Tuning, out_path: str, only_players: bool = False) -> str:
    """The best candidate as a ruleset that extends the original (as named from ``out_path``)."""
    from .variation import extends_from

    best = tuning.ranked[0]
    title = f"{tuning.settings.ref} tuned: {best.label}"
    overrides = at_players(best.overrides, tuning.players) if only_players else best.overrides
    text = variant_text(extends_from(tuning.settings.ref, out_path), overrides, title)
    goals = "".join(f"#   {g.text}\n" for g in tuning.goals)
    return f"# Written by `dominorules tune`; the goals were:\n{goals}{text}"


def summary(tuning: Tuning) -> list[str]:
    """The result in words, above the details: the best settings in the rules' own names
    (as ``diff`` titles them), each goal's estimate with its interval and how sure it is
    met, and how many candidates were tried."""
    from ..rules.describe import rule_title
    from .report import fmt_estimate

    if not tuning.ranked:
        return []
    best = tuning.ranked[0]
    where = ", ".join(f"{rule_title(path)} {value}" for path, value in best.overrides.items())
    goals = []
    for g in tuning.goals:
        e = best.estimates.get(g.metric.key)
        if e is None:
            continue
        sure = g.confidence(e)
        goals.append(f"{g.metric.short or g.metric.key} {fmt_estimate(g.metric, e)} for "
                     f"{g.text.split(None, 1)[1] if ' ' in g.text else g.text}"
                     + ("" if sure is None else f", {sure:.0%} sure it is met"))
    return [f"Best found, of {len(tuning.ranked)} candidates: {where}, with "
            + "; ".join(goals) + "."]


METHOD = ("How it searched: a grid over the varied values that zooms in on the best ones, "
          "then successive halving (the most promising candidates play more matches, the "
          "others stop). ± is a 95% interval; \"sure\" is the chance, given that interval, "
          "that the goal holds.")
