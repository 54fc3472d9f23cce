"""``sweep``: every combination of the varied fields, played on the same seeded deals.

Each combination is a variant file (``variation``) played as its own pairing by the
same runner as ``compare`` (workers, Dask, batches merged in order), so its numbers
are the same whatever the workers or backend. Pairings run in order: a combination
finishes before the next starts, so Ctrl-C keeps every finished combination whole.
Memory holds one ``Aggregate`` per combination, never a match.
"""

from __future__ import annotations

import importlib
import itertools
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..bots.seats import seat_bots
from ..diagnostics import Diagnostic, DiagnosticError
from . import stats
from .choices import SAMPLE_MATCHES, unused_choice_notes
from .compare import worker_ref
from .metrics import Metric, feature_names, metrics_for, shown
from .runner import PairingRun, RunOutcome, RunSettings, run
from .variation import (
    Vary,
    check_distinct,
    check_vary,
    label,
    usage,
    write_variant,
)
from .worker import DEFAULT_API, Pairing, game_for

MAX_COMBINATIONS = 400


@dataclass(frozen=True)
class SweepSettings:
    """Everything that decides a sweep's numbers (not how fast: workers, backend)."""

    ref: str
    varies: tuple[Vary, ...]
    players: int | None = None
    matches: int = 1000
    seed: int = 1
    bots: tuple[str, ...] = ("random",)
    skill_bots: tuple[str, str] | None = ("strategist", "random")
    batch_size: int = 50
    api_module: str = DEFAULT_API
    background: bool = False   # auto: Python plays while a new kernel compiles aside

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ref, "vary": {v.path: list(v.values) for v in self.varies},
                "players": self.players, "matches": self.matches, "seed": self.seed,
                "bots": list(self.bots),
                "skill_bots": list(self.skill_bots) if self.skill_bots else None,
                "batch_size": self.batch_size}


@dataclass
class Combination:
    """One point of the sweep: its values, its variant file, and what it measured."""

    index: int
    overrides: dict[str, Any]
    ref: str = ""                       # the variant file ("" when it cannot be played)
    problem: str = ""                   # why it cannot be played
    matches: int = 0
    status: str = "not run"             # done | interrupted | not run | invalid
    estimates: dict[str, stats.Estimate] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return label(self.overrides)


@dataclass
class Sweep:
    settings: SweepSettings
    players: int
    combinations: list[Combination]
    metrics: list[Metric]
    outcome: RunOutcome
    backend_name: str = ""
    notes: list[str] = field(default_factory=list)   # choices the bots never made (choices)

    @property
    def played(self) -> list[Combination]:
        return [c for c in self.combinations if c.matches]

    @property
    def invalid(self) -> list[Combination]:
        return [c for c in self.combinations if c.status == "invalid"]


Progress = Callable[[int, int, str], None]


def check_settings(ref: str, varies: tuple[Vary, ...], players: int | None,
                   api_module: str = DEFAULT_API) -> tuple[Any, int]:
    """Every --vary checked (usage errors), then the base ruleset loaded (its own errors)."""
    if not varies:
        raise usage("give at least one --vary FIELD=VALUES")
    for v in varies:
        check_vary(v)
    check_distinct(list(varies))
    count = 1
    for v in varies:
        count *= len(v.values)
    if count > MAX_COMBINATIONS:
        raise usage(f"--vary makes {count} combinations, more than {MAX_COMBINATIONS}",
                    "give fewer values, or use `tune` to search a range")
    base = game_for(api_module, worker_ref(ref))
    n = players if players is not None else base.rules.min_players
    return base, n


def combinations(varies: tuple[Vary, ...]) -> list[dict[str, Any]]:
    """Every combination, the first field varying slowest."""
    return [dict(zip([v.path for v in varies], values, strict=True))
            for values in itertools.product(*(v.values for v in varies))]


def prepare(settings: SweepSettings, directory: str) -> tuple[list[Combination], int]:
    """Write and load every variant; combinations that cannot be played are kept, marked."""
    _, players = check_settings(settings.ref, settings.varies, settings.players,
                                settings.api_module)
    combos = []
    for i, overrides in enumerate(combinations(settings.varies)):
        c = Combination(i, overrides)
        path = write_variant(worker_ref(settings.ref), at_players(overrides, players),
                             directory, i)
        try:
            game = game_for(settings.api_module, path)
            game.check_players(players)
            c.ref = path
        except DiagnosticError as exc:
            first = exc.diagnostics[0]
            c.problem = first.message + (f" ({first.hint})" if first.hint else "")
            c.status = "invalid"
        combos.append(c)
    if not any(c.ref for c in combos):
        raise DiagnosticError([Diagnostic(
            "sweep", f"no combination can be played: {combos[0].label}: {combos[0].problem}",
            hint="check the values against `dominorules rules " f"{settings.ref}`")])
    return combos, players


def at_players(overrides: dict[str, Any], players: int) -> dict[str, Any]:
    """The overrides of a variant played only at ``players``: a hand size that suits 3
    players but not 4 is then playable, as the sweep asks for 3 (unless players vary)."""
    extra = {p: players for p in ("players.min", "players.max") if p not in overrides}
    return {**overrides, **extra}


def pairings_for(combos: list[Combination], settings: SweepSettings,
                 players: int) -> list[Pairing]:
    """Each playable combination's main pairing, then its skill pairing, in order."""
    bots = seat_bots(settings.bots, players)
    out = []
    for c in combos:
        if not c.ref:
            continue
        out.append(Pairing(f"{c.index}", (c.ref,), players, bots, labels=(c.label,)))
        if settings.skill_bots:
            skilled, others = settings.skill_bots
            out.append(Pairing(f"{c.index} skill", (c.ref,), players, (others,) * players,
                               skilled, (c.label,)))
    api = importlib.import_module(settings.api_module)
    for p in out[:2]:   # an unknown bot: one message now, not an error in every worker
        api.make_bots(p.seat_bots(0)[0], players, 0)
    return out


def sweep(settings: SweepSettings, backend: Any, progress: Progress | None = None) -> Sweep:
    """Check, write the variants, run every playable combination, estimate every metric."""
    try:
        with tempfile.TemporaryDirectory(prefix="dominorules-sweep-") as directory:
            combos, players = prepare(settings, directory)
            pairings = pairings_for(combos, settings, players)
            playable = [c for c in combos if c.ref]
            per = settings.matches * (2 if settings.skill_bots else 1)

            def report(done: int, total: int) -> None:
                if progress is not None:
                    k = min(done // per, len(playable) - 1)
                    progress(done, total, f"combination {k + 1}/{len(playable)}: "
                                          f"{playable[k].label}")

            run_settings = RunSettings(settings.seed, settings.matches,
                                       batch_size=settings.batch_size,
                                       api_module=settings.api_module, in_order=True,
                                       background=settings.background)
            partnerships = game_for(settings.api_module, playable[0].ref).rules.partnerships
            outcome = run(pairings, run_settings, backend, progress=report)
            notes = [] if outcome.interrupted or len(playable) < 2 else unused_choice_notes(
                [c.ref for c in playable], [c.label for c in playable], players,
                seat_bots(settings.bots, players), settings.seed,
                max(2, SAMPLE_MATCHES * 2 // len(playable)))
    except BaseException:
        backend.close()
        raise
    metrics = collect(combos, outcome, players, partnerships, settings.skill_bots is not None)
    return Sweep(settings, players, combos, metrics, outcome, getattr(backend, "name", ""),
                 notes)


def collect(combos: list[Combination], outcome: RunOutcome, players: int,
            partnerships: bool, skill: bool) -> list[Metric]:
    """Each combination's estimates and status from its runs; the metrics shown."""
    runs = {r.pairing.name: r for r in outcome.runs}
    names = feature_names(players)
    main_aggs = [runs[str(c.index)].aggs[0] for c in combos if str(c.index) in runs]
    metrics = [m for m in metrics_for("main", players, partnerships)
               if shown(m, main_aggs, names)]
    if skill:
        metrics += metrics_for("skill", players, partnerships)
    for c in combos:
        main = runs.get(str(c.index))
        if main is None:
            continue
        c.matches = main.n
        c.status = _status(main)
        for kind, r in (("main", main), ("skill", runs.get(f"{c.index} skill"))):
            if r is None or r.n == 0:
                continue
            cov = stats.covariance(r.aggs[0])
            for m in metrics:
                if m.pairing == kind:
                    c.estimates[m.key] = stats.estimate(m, r.aggs[0], names, cov)
        if skill and c.status == "done" and _status(runs[f"{c.index} skill"]) != "done":
            c.status = "interrupted"
    return metrics


def _status(r: PairingRun) -> str:
    if r.n == 0:
        return "not run"
    return "interrupted" if r.stop_reason == "interrupted" else "done"
