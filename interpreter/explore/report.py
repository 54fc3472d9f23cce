"""A Comparison as a rich table (rows read as plain questions), as JSON, and number formats.

Nothing here prints: the CLI prints the renderables and writes the JSON.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from interpreter.explore.compare import Comparison, Row
from interpreter.explore.metrics import Metric
from interpreter.explore.stats import Difference, Estimate

PAIRING_TITLES = {
    "main": "Under these rules",
    "skill": "Does skill matter? (one skilled seat, rotating, against random players)",
}


def fmt_value(metric: Metric, value: float | None, signed: bool = False) -> str:
    """A value in the metric's unit: shares as percentages, counts with 2-3 decimals."""
    if value is None or not math.isfinite(value):
        return "n/a"
    sign = "+" if signed else ""
    if metric.unit == "share":
        return f"{value * 100:{sign}.1f}%"
    digits = 3 if abs(value) < 10 else 2 if abs(value) < 100 else 1
    return f"{value:{sign}.{digits}f}"


def fmt_half(metric: Metric, half: float | None) -> str:
    if half is None or not math.isfinite(half):
        return ""
    if metric.unit == "share":
        return f"±{half * 100:.1f}"
    return f"±{half:.2g}" if half < 1 else f"±{half:.1f}"


def fmt_estimate(metric: Metric, est: Estimate) -> str:
    half = fmt_half(metric, est.half_width)
    return f"{fmt_value(metric, est.value)} {half}".strip()


def fmt_difference(metric: Metric, diff: Difference | None) -> str:
    if diff is None or diff.value is None:
        return "n/a"
    mark = " *" if diff.significant else ""
    mark += "†" if diff.significant_holm else ""
    return f"{fmt_value(metric, diff.value, signed=True)} {fmt_half(metric, diff.half_width)}{mark}"


def tables(comparison: Comparison) -> list[Table]:
    """One table per pairing: a row per question, a column per ruleset, then differences."""
    labels = [r.label for r in comparison.rulesets]
    out = []
    for run in comparison.outcome.runs:
        name = run.pairing.name
        rows = [r for r in comparison.rows if r.metric.pairing == name]
        title = PAIRING_TITLES.get(name, name)
        if name == "skill" and run.pairing.skilled_bot:
            title += f": {run.pairing.skilled_bot} vs {run.pairing.bots[0]}"
        table = Table(title=title, caption=caption(comparison, name), title_justify="left",
                      caption_justify="left")
        table.add_column("Question", overflow="fold")
        for label in labels:
            table.add_column(label, justify="right", no_wrap=True)
        for label in labels[1:]:
            table.add_column(f"{label} − {labels[0]}", justify="right", no_wrap=True)
        for row in rows:
            cells = [row.metric.question]
            cells += [fmt_estimate(row.metric, e) for e in row.estimates]
            cells += [_diff_cell(row, d) for d in row.differences[1:]]
            table.add_row(*cells)
        out.append(table)
    return out


def _diff_cell(row: Row, diff: Difference | None) -> Text:
    text = fmt_difference(row.metric, diff)
    return Text(text, style="bold" if diff is not None and diff.significant else "")


def caption(comparison: Comparison, pairing: str) -> str:
    run = comparison.run_for(pairing)
    bots = " ".join(run.pairing.bots) if run and pairing == "main" else ""
    parts = [comparison.stops.get(pairing, "")]
    if bots:
        parts.append(f"bots: {bots}")
    players = run.pairing.players if run else ""
    parts.append(f"{players} players, seed "
                 f"{comparison.settings.seed}; ± is a 95% interval; * marks a difference "
                 "from the first ruleset that is significant at 5% (paired on the same deals)")
    return "; ".join(p for p in parts if p)


def to_json(comparison: Comparison) -> dict[str, Any]:
    """One object: settings, rulesets (with hashes), metrics with intervals, differences.

    Everything except ``run`` depends only on the settings, never on workers or backend.
    """
    labels = [r.label for r in comparison.rulesets]
    metrics = []
    for row in comparison.rows:
        m = row.metric
        metrics.append({
            "key": m.key, "question": m.question, "unit": m.unit, "pairing": m.pairing,
            "definition": m.doc,
            "values": {lab: e.to_json() for lab, e in zip(labels, row.estimates, strict=True)},
            "differences": {lab: d.to_json() for lab, d in
                            zip(labels[1:], row.differences[1:], strict=True) if d is not None},
        })
    out = comparison.outcome
    return {
        "settings": comparison.settings.to_json(),
        "rulesets": [{"label": r.label, "name": r.name, "ref": r.ref, "sha256": r.sha256}
                     for r in comparison.rulesets],
        "pairings": [{"name": r.pairing.name, "players": r.pairing.players,
                      "bots": list(r.pairing.bots), "skilled_bot": r.pairing.skilled_bot,
                      "matches_per_ruleset": r.n, "stopped": r.stop_reason,
                      "message": comparison.stops.get(r.pairing.name, "")}
                     for r in out.runs],
        "metrics": metrics,
        "multiple_comparisons": {"method": "holm", "family": sum(
            1 for row in comparison.rows for d in row.differences if d is not None)},
        "run": {"backend": comparison.backend_name, "seconds": round(out.seconds, 3),
                "matches": out.matches, "rounds": out.rounds,
                "matches_per_second": round(out.matches / out.seconds, 1) if out.seconds else None,
                "interrupted": out.interrupted, "warnings": out.warnings},
    }


def binned_shares(hist: Counter, lo: int, hi: int, bins: int = 40) -> list[tuple[float, float]]:
    """Share of observations per bin of equal integer width (about ``bins`` bins over
    ``lo..hi``), as (bin centre, share); a distribution chart reads better than raw counts.

    >>> binned_shares(Counter({0: 1, 1: 1, 5: 2}), 0, 5, bins=3)
    [(0.5, 0.5), (4.5, 0.5)]
    """
    width = max(1, -(-(hi - lo + 1) // bins))
    total = sum(hist.values()) or 1
    out: dict[int, float] = {}
    for value, count in hist.items():
        b = lo + (value - lo) // width * width
        out[b] = out.get(b, 0.0) + count / total
    return [(b + (width - 1) / 2, share) for b, share in sorted(out.items())]


class SpeedColumn(ProgressColumn):
    """Matches per second so far."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.0f} matches/s", style="cyan")


def progress_columns() -> list[ProgressColumn]:
    """The progress bar's columns: what, bar, done/total, matches/s, time left."""
    return [TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(), SpeedColumn(),
            TimeRemainingColumn()]
