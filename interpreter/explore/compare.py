"""``compare``: load the rulesets, build the pairings, run them, and turn sums into rows.

The result, a ``Comparison``, holds one ``Row`` per metric: each ruleset's estimate
with its interval, and each ruleset's paired difference from the first. Reports
(table, JSON, HTML, PNG) only format it.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..bots.seats import check_names, seat_bots
from ..diagnostics import Diagnostic, DiagnosticError, UsageError
from . import stats
from .metrics import Metric, feature_names, metrics_for, shown
from .runner import PairingRun, RunOutcome, RunSettings, run
from .worker import DEFAULT_API, Pairing, game_for

MIN_MATCHES_FOR_PRECISION = 100


@dataclass(frozen=True)
class CompareSettings:
    """Everything that decides the numbers (not how fast they come: workers, backend)."""

    refs: tuple[str, ...]
    players: int | None = None
    matches: int = 1000
    seed: int = 1
    bots: tuple[str, ...] = ("random",)
    skill_bots: tuple[str, str] | None = ("strategist", "random")  # (skilled, opponents)
    precision: float | None = None
    max_matches: int = 100_000
    batch_size: int = 50
    api_module: str = DEFAULT_API
    engine: str = "auto"     # who plays (kernel.engines): never the numbers, only the speed
    background: bool = False   # auto: Python plays while a new kernel compiles aside

    def to_json(self) -> dict[str, Any]:
        return {
            "rulesets": list(self.refs), "players": self.players, "seed": self.seed,
            "matches": None if self.precision else self.matches, "bots": list(self.bots),
            "skill_bots": list(self.skill_bots) if self.skill_bots else None,
            "precision": self.precision,
            "max_matches": self.max_matches if self.precision else None,
            "batch_size": self.batch_size,
        }


@dataclass(frozen=True)
class RulesetInfo:
    label: str          # what the table calls it
    ref: str            # what workers load (a builtin name or an absolute path)
    name: str
    sha256: str         # of the merged data (defaults filled in)
    partnerships: bool


@dataclass
class Row:
    """One metric across the rulesets of its pairing."""

    metric: Metric
    estimates: list[stats.Estimate]
    differences: list[stats.Difference | None]   # None for the first ruleset


@dataclass
class Comparison:
    settings: CompareSettings
    rulesets: list[RulesetInfo]
    rows: list[Row]
    outcome: RunOutcome
    stops: dict[str, str] = field(default_factory=dict)  # pairing -> why it stopped
    backend_name: str = ""
    notes: list[str] = field(default_factory=list)   # choices the bots never made (choices)

    def run_for(self, pairing: str) -> PairingRun | None:
        return next((r for r in self.outcome.runs if r.pairing.name == pairing), None)


def data_hash(data: Any) -> str:
    """sha256 of a ruleset's merged data, as canonical JSON."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def worker_ref(ref: str) -> str:
    """A ref any worker can load: files become absolute paths, builtin names stay."""
    path = os.path.expanduser(ref)
    if (os.sep in ref or ref.endswith((".yaml", ".yml"))) and os.path.isfile(path):
        return os.path.abspath(path)
    return ref


def describe_rulesets(settings: CompareSettings) -> tuple[list[RulesetInfo], int]:
    """Load every ruleset once here, so a broken one is reported before any worker starts."""
    problems: list[Diagnostic] = []
    games = []
    for ref in settings.refs:
        try:
            games.append((ref, game_for(settings.api_module, worker_ref(ref))))
        except DiagnosticError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise DiagnosticError(problems)
    names = [g.rules.name for _, g in games]
    infos = [RulesetInfo(g.rules.name if names.count(g.rules.name) == 1 else ref,
                         worker_ref(ref), g.rules.name, ruleset_hash(worker_ref(ref)),
                         g.rules.partnerships)
             for ref, g in games]
    try:
        players = _players(settings, games)
    except DiagnosticError as exc:  # a player count that cannot be: the command's fault
        raise UsageError(exc.diagnostics) from None
    return infos, players


def _players(settings: CompareSettings, games: list[tuple[str, Any]]) -> int:
    """The player count every ruleset allows: the one asked for, or the smallest common."""
    problems: list[Diagnostic] = []
    players = settings.players
    if players is None:
        players = max(g.rules.min_players for _, g in games)
        if players > min(g.rules.max_players for _, g in games):
            spans = ", ".join(f"{g.rules.name} {g.rules.min_players}-{g.rules.max_players}"
                              for _, g in games)
            raise DiagnosticError([Diagnostic(
                "players", f"no player count suits every ruleset ({spans})",
                hint="compare rulesets that share a player count, or give --players")])
    for _, g in games:
        try:
            g.check_players(players)
        except DiagnosticError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise DiagnosticError(problems)
    return players


def ruleset_hash(ref: str) -> str:
    """sha256 of the ruleset's merged data (its ``extends`` chain merged, defaults filled)."""
    from ..rules import load_ruleset

    return data_hash(load_ruleset(ref).data)


def compare(settings: CompareSettings, backend: Any, progress: Any = None,
            csv_path: str | None = None) -> Comparison:
    """Simulate, then compute every metric, interval and paired difference.

    ``backend`` is closed when done (or when the settings turn out to be wrong).
    """
    try:
        pairings, infos = _pairings(settings)
    except BaseException:
        backend.close()
        raise
    partnerships = any(i.partnerships for i in infos)
    mixed = len({i.partnerships for i in infos}) > 1
    run_settings = RunSettings(settings.seed, settings.matches, settings.max_matches,
                               settings.batch_size, csv_path is not None, settings.api_module,
                               engine=settings.engine, background=settings.background)
    precise = None
    if settings.precision is not None:
        precision = settings.precision

        def precise(r: PairingRun) -> bool:
            if r.n < MIN_MATCHES_FOR_PRECISION:
                return False
            return widest(pairing_rows(r, partnerships, mixed), precision)[0] is None

    outcome = run(pairings, run_settings, backend, precise, progress, csv_path)
    rows = adjust_for_multiplicity(
        [row for r in outcome.runs for row in pairing_rows(r, partnerships, mixed)])
    comparison = Comparison(settings, infos, rows, outcome,
                            backend_name=getattr(backend, "name", ""))
    for r in outcome.runs:
        comparison.stops[r.pairing.name] = stop_message(r, settings, partnerships, mixed)
    if len(infos) > 1 and not outcome.interrupted:
        from .choices import unused_choice_notes

        main = pairings[0]
        comparison.notes = unused_choice_notes(main.refs, main.labels or main.refs, main.players,
                                               main.bots, settings.seed)
    if not outcome.interrupted:   # what declarations did (declarations, showdown)
        comparison.notes += declaration_report(pairings[0], settings.seed)
    comparison.notes += engine_notes(pairings[0], settings)
    return comparison


def engine_notes(main: Pairing, settings: CompareSettings) -> list[str]:
    """Once per run: ``--engine auto`` kept the Python engine for a ruleset the JIT plays,
    because of a seat's bot (``kernel.engines.bots_keep_python``)."""
    if settings.engine != "auto":
        return []
    from ..kernel import engines

    api = importlib.import_module(settings.api_module)
    for ref in main.refs:
        note = engines.bots_keep_python(api.load_game(ref), main.players, list(main.bots),
                                        "auto", settings.matches)
        if note:
            return [note]
    return []


def declaration_report(main: Pairing, seed: int) -> list[str]:
    """compare's lines on declarations taken and penalties paid (``choices``)."""
    from .choices import declaration_notes

    return declaration_notes(main.refs, main.labels or main.refs, main.players, main.bots,
                             seed)


def _pairings(settings: CompareSettings) -> tuple[list[Pairing], list[RulesetInfo]]:
    """The main pairing (and the skill pairing), checked: rulesets, player count, bots."""
    infos, players = describe_rulesets(settings)
    refs = tuple(i.ref for i in infos)
    labels = tuple(i.label for i in infos)
    pairings = [Pairing("main", refs, players, seat_bots(settings.bots, players),
                        labels=labels)]
    if settings.skill_bots:
        skilled, others = settings.skill_bots
        pairings.append(Pairing("skill", refs, players, (others,) * players, skilled, labels))
    check_names(settings.skill_bots or ())
    api = importlib.import_module(settings.api_module)
    for p in pairings:   # an unknown bot is one message now, not an error in every worker
        api.make_bots(p.seat_bots(0)[0], players, 0)
    if settings.engine == "jit":   # the main pairing must be one the JIT plays (not the skill one)
        from ..kernel import engines
        for ref in refs:
            engines.choose(api.load_game(ref), players, list(pairings[0].bots), "jit")
    return pairings, infos


def pairing_rows(r: PairingRun, partnerships: bool, mixed_sides: bool = False) -> list[Row]:
    """Every metric of one pairing, estimated from its merged sums.

    With ``mixed_sides`` (individual and partnership rulesets together) a seat's win
    rate has a different fair share in each ruleset, so its differences are left out
    (None) rather than marked significant for a reason that says nothing of the rules.
    """
    names = feature_names(r.pairing.players)
    covs = [stats.covariance(a) for a in r.aggs]
    crosses = [stats.cross_covariance(r.aggs[0], a, c)
               for a, c in zip(r.aggs[1:], r.crosses, strict=True)]
    rows = []
    for metric in metrics_for(r.pairing.name, r.pairing.players, partnerships):
        if not shown(metric, r.aggs, names):
            continue
        ests = [stats.estimate(metric, a, names, cov) for a, cov in zip(r.aggs, covs,
                                                                         strict=True)]
        diffs: list[stats.Difference | None] = [None]
        for k in range(1, len(r.aggs)):
            if mixed_sides and metric.by_seat:
                diffs.append(None)
                continue
            diffs.append(stats.difference(metric, r.aggs[0], r.aggs[k], r.crosses[k - 1],
                                          names, (covs[0], covs[k], crosses[k - 1])))
        rows.append(Row(metric, ests, diffs))
    return rows


def adjust_for_multiplicity(rows: list[Row]) -> list[Row]:
    """Every difference of the report gets its Holm-adjusted p-value (one family)."""
    cells = [(i, k) for i, row in enumerate(rows) for k, d in enumerate(row.differences)
             if d is not None]
    adjusted = stats.holm([rows[i].differences[k].p for i, k in cells])
    for (i, k), p in zip(cells, adjusted, strict=True):
        d = rows[i].differences[k]
        rows[i].differences[k] = replace(d, p_holm=p,
                                         significant_holm=p is not None and p < 1 - stats.LEVEL)
    return rows


def _allowed(metric: Metric, precision: float, base: float | None) -> float:
    """The half-width an interval may have: absolute for shares, relative otherwise."""
    if metric.unit == "share":
        return precision
    return precision * abs(base or 0.0)


def widest(rows: list[Row], precision: float) -> tuple[str | None, float]:
    """The first interval wider than ``precision`` allows (its description), or None."""
    for row in rows:
        base = row.estimates[0].value
        for k, est in enumerate(row.estimates):
            if est.value is None:
                continue
            hw = est.half_width
            if hw is None or not np.isfinite(hw) or hw > _allowed(row.metric, precision,
                                                                  est.value):
                return f"{row.metric.key} (ruleset {k + 1})", hw or float("inf")
        for k, diff in enumerate(row.differences):
            if diff is None or diff.value is None:
                continue
            hw = diff.half_width
            if hw is None or hw > _allowed(row.metric, precision, base):
                return f"{row.metric.key} (difference {k + 1})", hw or float("inf")
    return None, 0.0


def stop_message(r: PairingRun, settings: CompareSettings, partnerships: bool,
                 mixed_sides: bool = False) -> str:
    """Which limit stopped a pairing, in words."""
    n = r.n
    if r.stop_reason == "precision":
        return (f"stopped after {n} matches per ruleset: every interval is within the "
                f"precision asked (±{settings.precision:g})")
    if r.stop_reason == "max-matches":
        what, hw = widest(pairing_rows(r, partnerships, mixed_sides), settings.precision or 0.0)
        return (f"stopped at --max-matches ({n} matches per ruleset) before the precision asked "
                f"(±{settings.precision:g}): widest is {what} at ±{hw:.4g}")
    if r.stop_reason == "interrupted":
        return f"interrupted: {n} matches per ruleset finished and counted"
    return f"played {n} matches per ruleset"
