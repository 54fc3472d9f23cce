"""A Sweep as rich tables, JSON and a long CSV (one row per combination and metric).

Nothing here prints. The tables put metrics down the side and combinations across,
a few combinations per table so each fits a terminal.
"""

from __future__ import annotations

import csv
from typing import Any

from rich.table import Table
from rich.text import Text

from .metrics import Metric
from .report import QUESTION_WIDTH, constant_estimates, exact_text, fmt_estimate, min_width
from .sweep import Sweep

PER_TABLE = 4


def tables(sw: Sweep, width: int = 130) -> list[Table]:
    """The widest layout that fits ``width`` columns: metric rows with a column per
    combination (``PER_TABLE`` a table), full questions, then short labels; else each
    question on a line of its own with a labelled row per combination under it."""
    played = sw.played
    metrics, folded = split_constant(sw)
    notes = "\n".join(x for x in (folded, caption(sw)) if x)
    for full in (True, False):
        out = _side_by_side(sw, metrics, notes, full)
        if all(min_width(t) <= width for t in out):
            return out
    return [_stacked(sw, metrics, notes)] if played else []


def _mark(c) -> str:
    return "" if c.status == "done" else f" ({c.status}, {c.matches} matches)"


def _cell(m: Metric, c) -> str:
    return fmt_estimate(m, c.estimates[m.key]) if m.key in c.estimates else "n/a"


def _side_by_side(sw: Sweep, metrics: list[Metric], notes: str, full: bool) -> list[Table]:
    played = sw.played
    out = []
    for start in range(0, len(played), PER_TABLE):
        chunk = played[start:start + PER_TABLE]
        table = Table(title=f"Combinations {start + 1}-{start + len(chunk)} of {len(played)}",
                      title_justify="left", caption_justify="left",
                      caption=notes if start + PER_TABLE >= len(played) else None)
        if full:
            table.add_column("Question", overflow="fold", min_width=QUESTION_WIDTH)
        else:
            table.add_column("Question", no_wrap=True)
        for c in chunk:
            table.add_column("\n".join(c.label.split(" ")) + _mark(c), justify="right",
                             no_wrap=True)
        for m in metrics:
            table.add_row(m.question if full else m.short, *(_cell(m, c) for c in chunk))
        out.append(table)
    return out


def _stacked(sw: Sweep, metrics: list[Metric], notes: str) -> Table:
    """Each question on a line of its own, then a row per combination: fits any width."""
    table = Table(title=f"{len(sw.played)} combinations", title_justify="left",
                  caption_justify="left", caption=notes)
    table.add_column("Question and combination", overflow="fold")
    table.add_column("value", justify="right", no_wrap=True)
    for m in metrics:
        table.add_row(Text(m.question, style="bold"), "")
        for c in sw.played:
            table.add_row(f"  {c.label}{_mark(c)}", _cell(m, c))
    return table


def plain_label(overrides: dict[str, Any]) -> str:
    """A combination in the rules' own names: "Target 31, Hand size 5"."""
    from ..rules.describe import rule_title

    return ", ".join(f"{rule_title(path)} {value}" for path, value in overrides.items())


MAX_TOLD = 5


def summary(sw: Sweep) -> list[str]:
    """What the varied rules change most, in words, above the tables: each question whose
    lowest and highest combinations' intervals do not overlap, the largest relative
    change first, from its lowest to its highest combination; then what did not change
    detectably."""
    from ..rules.describe import rule_title

    metrics, _ = split_constant(sw)
    names = [f"{rule_title(v.path)} ({v.path})" for v in sw.settings.varies]
    varied = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    clear, flat = [], []
    for m in metrics:
        done = [c for c in sw.played if c.estimates.get(m.key) is not None
                and c.estimates[m.key].value is not None]
        if len(done) < 2:
            continue
        lo = min(done, key=lambda c: c.estimates[m.key].value)
        hi = max(done, key=lambda c: c.estimates[m.key].value)
        a, b = lo.estimates[m.key], hi.estimates[m.key]
        if a.high is not None and b.low is not None and a.high < b.low:
            scale = 1.0 if m.unit == "share" else (abs(a.value) or 1.0)   # relative
            clear.append(((b.value - a.value) / scale, m, lo, hi))
        else:
            flat.append(m.short or m.key)
    clear.sort(key=lambda t: -t[0])
    told = [f"{m.short or m.question} from {fmt_estimate(m, lo.estimates[m.key])} "
            f"({plain_label(lo.overrides)}) to {fmt_estimate(m, hi.estimates[m.key])} "
            f"({plain_label(hi.overrides)})" for _, m, lo, hi in clear[:MAX_TOLD]]
    if told:
        more = len(clear) - len(told)
        out = [f"What {varied} change{'s' if len(sw.settings.varies) == 1 else ''} most: "
               + "; ".join(told) + (f"; and {more} more" if more else "") + "."]
    else:
        out = [f"No question changes detectably with {varied}, with "
               f"{sw.settings.matches} matches per combination."]
    if flat and told:
        out.append("No detectable change in " + ", ".join(flat[:8])
                   + (f" and {len(flat) - 8} more" if len(flat) > 8 else "") + ".")
    return out


def method_footer(sw: Sweep) -> str:
    """How to read the sweep, in plain words."""
    return ("How to read this: every combination plays the same deals; ± gives a 95% "
            "interval, the range the true value lies in 19 times out of 20 given these "
            "matches. A question is said to change when the intervals of its lowest and "
            "highest combinations do not overlap, a cautious test that luck alone rarely "
            "passes.")


def split_constant(sw: Sweep) -> tuple[list[Metric], str]:
    """The metrics worth a row or chart, and one line for those that took one value in
    every match of every combination (no redeal anywhere), folded as compare folds them."""
    shown, folded = [], []
    for m in sw.metrics:
        estimates = [c.estimates[m.key] for c in sw.played if m.key in c.estimates]
        (folded if estimates and constant_estimates(m, estimates) else shown).append(m)
    if not folded:
        return shown, ""
    cells = ", ".join(f"{m.short} {exact_text(m, sw.played[0].estimates[m.key].value)}"
                      for m in folded)
    return shown, f"The same in every match of every combination: {cells}."


def caption(sw: Sweep) -> str:
    s = sw.settings
    bots = " ".join(s.bots)
    skill = (f"; skill rows: {s.skill_bots[0]} in one rotating seat against {s.skill_bots[1]}"
             if s.skill_bots else "")
    return (f"{s.ref}, {sw.players} players, {s.matches} matches per combination on the same "
            f"deals (seed {s.seed}); bots: {bots}{skill}; ± is a 95% interval")


def invalid_lines(sw: Sweep) -> list[str]:
    """Each combination that cannot be played, with why (listed, not fatal)."""
    return [f"not played: {c.label}: {c.problem}" for c in sw.invalid]


def to_json(sw: Sweep) -> dict[str, Any]:
    """Settings, then every combination's values, status and metrics with intervals."""
    return {
        "settings": sw.settings.to_json() | {"players": sw.players},
        "summary": summary(sw), "notes": sw.notes,
        "metrics": [{"key": m.key, "question": m.question, "unit": m.unit,
                     "pairing": m.pairing, "definition": m.doc} for m in sw.metrics],
        "combinations": [
            {"index": c.index, "values": c.overrides, "label": c.label, "status": c.status,
             "matches": c.matches, "problem": c.problem or None,
             "metrics": {k: e.to_json() for k, e in c.estimates.items()}}
            for c in sw.combinations],
        "run": {"backend": sw.backend_name, "seconds": round(sw.outcome.seconds, 3),
                "interrupted": sw.outcome.interrupted, "warnings": sw.outcome.warnings},
    }


def write_csv(sw: Sweep, path: str) -> None:
    """Long form for pandas: one row per (combination, metric), the varied fields as columns."""
    fields = [v.path for v in sw.settings.varies]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["combination", *fields, "status", "matches", "metric", "value", "low",
                    "high", "n"])
        for c in sw.played:
            for m in sw.metrics:
                e = c.estimates.get(m.key)
                if e is None:
                    continue
                w.writerow([c.index, *(c.overrides[f] for f in fields), c.status, c.matches,
                            m.key, *("" if x is None else x for x in (e.value, e.low, e.high)),
                            e.n])
