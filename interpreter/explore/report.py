"""A Comparison as a rich table (rows read as plain questions), as JSON, and number formats.

Nothing here prints: the CLI prints the renderables and writes the JSON.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
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

from .compare import Comparison, Row
from .metrics import Metric
from .stats import Difference, Estimate, bounded

# One colour per ruleset, by its place in the comparison: the HTML and PNG charts share them.
COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
          "#17becf")


def ruleset_color(k: int) -> str:
    """The colour of the ``k``-th ruleset compared, in every chart."""
    return COLORS[k % len(COLORS)]


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
        return f"{_no_minus_zero(value * 100, 1):{sign}.1f}%"
    digits = 3 if abs(value) < 10 else 2 if abs(value) < 100 else 1
    return f"{_no_minus_zero(value, digits):{sign}.{digits}f}"


def _no_minus_zero(value: float, digits: int) -> float:
    """0.0 for a value that rounds to zero: "-0.0%" reads as a change that is not there."""
    return 0.0 if round(value, digits) == 0 else value


def fmt_half(metric: Metric, half: float | None) -> str:
    if half is None or not math.isfinite(half):
        return ""
    if metric.unit == "share":
        return f"±{half * 100:.1f}"
    return f"±{half:.2g}" if half < 1 else f"±{half:.1f}"


def fmt_estimate(metric: Metric, est: Estimate) -> str:
    """A value and its interval: ``±`` half its width, or, for a share whose ``±`` would
    reach past 0 or 100% (its interval is not symmetric there), the interval itself."""
    if (metric.unit == "share" and est.value is not None and est.low is not None
            and est.high is not None and est.low >= 0 and est.high <= 1):
        half = (est.high - est.low) / 2
        if est.value - half < -5e-4 or est.value + half > 1 + 5e-4:
            return (f"{fmt_value(metric, est.value)} "
                    f"({est.low * 100:.1f}–{est.high * 100:.1f})")
    half = fmt_half(metric, est.half_width)
    return f"{fmt_value(metric, est.value)} {half}".strip()


def fmt_difference(metric: Metric, diff: Difference | None) -> str:
    if diff is None or diff.value is None:
        return "n/a"
    mark = " *" if diff.significant else ""
    mark += "†" if diff.significant_holm else ""
    return f"{fmt_value(metric, diff.value, signed=True)} {fmt_half(metric, diff.half_width)}{mark}"


# Ruleset columns are headed by their labels when every label is this short, else by
# letters with a legend: a long path must not squeeze the question column out.
MAX_HEADER = 12
# The question column never gets narrower than this while questions wrap.
QUESTION_WIDTH = 34


def tables(comparison: Comparison, width: int = 130) -> list[Table]:
    """One table per pairing, the widest layout that fits ``width`` columns.

    In order of preference: a column per ruleset and per difference from the first,
    with the full questions, then with short labels; a column per ruleset holding its
    value over its difference; a row per ruleset under each question (fits any
    width). Rows whose every match is the same in every ruleset are folded into one
    line of the caption.
    """
    out = []
    for run in comparison.outcome.runs:
        name = run.pairing.name
        rows = [r for r in comparison.rows if r.metric.pairing == name]
        varying = [r for r in rows if not is_constant(r)]
        constant = [r for r in rows if is_constant(r)]
        title = PAIRING_TITLES.get(name, name)
        if name == "skill" and run.pairing.skilled_bot:
            title += f": {run.pairing.skilled_bot} vs {run.pairing.bots[0]}"
        notes = [constant_line(constant)] if constant else []
        notes.append(caption(comparison, name))
        out.append(_fitting_table(comparison, varying, title, "\n".join(notes), width))
    return out


def is_constant(row: Row) -> bool:
    """True when the metric took one value in every match of every ruleset (no redeals
    anywhere, no drawn match anywhere): nothing to compare, nothing to estimate."""
    return constant_estimates(row.metric, row.estimates)


def constant_estimates(metric: Metric, estimates: Sequence[Estimate]) -> bool:
    """True when every estimate is the same value with no spread (one value in every
    match); a sweep folds such metrics as compare folds such rows."""
    values = {e.value for e in estimates}
    if len(values) != 1 or None in values:
        return False
    if bounded(metric) and metric.kind != "balance":   # a Wilson interval is never empty
        return values <= {0.0, 1.0}
    return all(e.half_width == 0 for e in estimates)


def constant_line(rows: list[Row]) -> str:
    """The folded rows in one line: each short label and its one value."""
    cells = ", ".join(f"{r.metric.short} {exact_text(r.metric, r.estimates[0].value)}"
                      for r in rows)
    return f"The same in every match of every ruleset: {cells}."


def exact_text(metric: Metric, value: float | None) -> str:
    """A folded value as it is: a whole count without decimals ("redeals per round 0")."""
    if metric.unit != "share" and value is not None and float(value).is_integer():
        return str(int(value))
    return fmt_value(metric, value)


def column_keys(labels: list[str]) -> list[str]:
    """What heads each ruleset's column: its label, or a letter when some label is long.

    >>> column_keys(["ours", "theirs"])
    ['ours', 'theirs']
    >>> column_keys(["ours", "house/pay-per-draw"])
    ['A', 'B']
    """
    if all(len(label) <= MAX_HEADER for label in labels):
        return list(labels)
    return [chr(ord("A") + k) if k < 26 else str(k + 1) for k in range(len(labels))]


def _fitting_table(comparison: Comparison, rows: list[Row], title: str, notes: str,
                   width: int) -> Table:
    labels = [r.label for r in comparison.rulesets]
    keys = column_keys(labels)
    keyed = title
    if keys != labels:   # no-break spaces: a key never ends a line apart from its ruleset
        keyed += "\n" + "   ".join(f"{k}\u00a0=\u00a0{label}" for k, label in zip(
            keys, labels, strict=True))
    candidates = [
        lambda: _wide(rows, keys, keyed, notes, full=True),
        lambda: _wide(rows, keys, keyed, notes, full=False),
        lambda: _stacked_cells(rows, keys, keyed, notes),
    ]
    for make in candidates:
        table = make()
        if min_width(table) <= width:
            return table
    return _by_ruleset(rows, labels, title, notes)


def min_width(table: Table) -> int:
    """The fewest terminal columns ``table`` needs without cutting a cell: unwrapped
    columns as wide as their widest line, the others at their minimum, plus the
    padding and rules of the default box."""
    total = 0
    for column in table.columns:
        if column.no_wrap:
            lines = [line for cell in (column.header, *column.cells)
                     for line in _plain(cell).split("\n")]
            total += max(cell_len(line) for line in lines)
        else:
            total += column.min_width or 1
    return total + 3 * len(table.columns) + 1


def _plain(cell: object) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


def _new_table(title: str, notes: str) -> Table:
    return Table(title=title, caption=notes, title_justify="left", caption_justify="left")


def _wide(rows: list[Row], keys: list[str], title: str, notes: str, full: bool) -> Table:
    """A column per ruleset, then a column per difference from the first."""
    table = _new_table(title, notes)
    if full:
        table.add_column("Question", overflow="fold", min_width=QUESTION_WIDTH)
    else:
        table.add_column("Question", no_wrap=True)
    for key in keys:
        table.add_column(key, justify="right", no_wrap=True)
    for key in keys[1:]:
        table.add_column(f"{key} − {keys[0]}", justify="right", no_wrap=True)
    for row in rows:
        cells: list[str | Text] = [row.metric.question if full else row.metric.short]
        cells += [fmt_estimate(row.metric, e) for e in row.estimates]
        cells += [_diff_cell(row, d) for d in row.differences[1:]]
        table.add_row(*cells)
    return table


def _stacked_cells(rows: list[Row], keys: list[str], title: str, notes: str) -> Table:
    """A column per ruleset: its value, and under it its difference from the first."""
    table = _new_table(title, notes + f"\nUnder each value: its difference from {keys[0]}.")
    table.add_column("Question", no_wrap=True)
    for key in keys:
        table.add_column(key, justify="right", no_wrap=True)
    for row in rows:
        cells: list[str | Text] = [row.metric.short]
        for k, est in enumerate(row.estimates):
            cell = Text(fmt_estimate(row.metric, est))
            if k:
                cell.append("\n")
                cell.append_text(_diff_cell(row, row.differences[k]))
            cells.append(cell)
        table.add_row(*cells)
    return table


def _by_ruleset(rows: list[Row], labels: list[str], title: str, notes: str) -> Table:
    """Each question on a line of its own, then a row per ruleset: fits any width."""
    table = _new_table(title, notes)
    table.add_column("Question and ruleset", overflow="fold")
    table.add_column("value", justify="right", no_wrap=True)
    table.add_column(f"− {labels[0]}", justify="right", no_wrap=True)
    for row in rows:
        table.add_row(Text(row.metric.question, style="bold"), "", "")
        for k, (label, est) in enumerate(zip(labels, row.estimates, strict=True)):
            diff = _diff_cell(row, row.differences[k]) if k else ""
            table.add_row(f"  {label}", fmt_estimate(row.metric, est), diff)
    return table


def _diff_cell(row: Row, diff: Difference | None) -> Text:
    text = "—" if diff is None else fmt_difference(row.metric, diff)
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
    if len({r.partnerships for r in comparison.rulesets}) > 1:
        parts.append("— : a seat's win rate is not compared between individual and "
                     "partnership rules (its fair share differs)")
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
        "notes": list(getattr(comparison, "notes", [])),
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
