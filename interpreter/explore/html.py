"""A self-contained HTML report: the tables and hand-made inline SVG charts.

No script, no external stylesheet, font or CDN: the file opens from disk with no
network, and shows the same rows as the terminal table plus three charts:
points scored per round and match length (distributions per ruleset), and win
rate per seat with 95% intervals.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from html import escape

from .compare import Comparison
from .report import (
    PAIRING_TITLES,
    binned_shares,
    caption,
    fmt_difference,
    fmt_estimate,
    ruleset_color,
)

W, H = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 44

CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px;
       color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { padding: 0.25em 0.7em; border-bottom: 1px solid #ddd; text-align: right;
         white-space: nowrap; }
th:first-child, td:first-child { white-space: normal; }
th:first-child, td:first-child { text-align: left; }
thead th { border-bottom: 2px solid #444; }
td.sig { font-weight: bold; }
caption { caption-side: bottom; text-align: left; color: #555; font-size: 0.9em;
          padding-top: 0.4em; }
.meta { color: #555; font-size: 0.9em; }
.note { border-left: 3px solid #d62728; padding-left: 0.6em; }
svg { background: #fcfcfc; border: 1px solid #eee; max-width: 100%; height: auto; }
table { display: block; max-width: 100%; overflow-x: auto; }
@media (max-width: 640px) {
  body { font-size: 13px; padding: 0 0.4em; margin: 1em auto; }
  th, td { padding: 0.2em 0.35em; }
  th:first-child, td:first-child { min-width: 11em; }
}
svg text { font: 12px system-ui, sans-serif; fill: #333; }
"""


def render(comparison: Comparison, extra: Sequence[str] = ()) -> str:
    """The whole report as one HTML string (``extra``: more sections, e.g. ``--by-rule``)."""
    from .summary import bots_footer, method_footer, paragraphs

    labels = [r.label for r in comparison.rulesets]
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>dominorules compare: {escape(' vs '.join(labels))}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{escape(' vs '.join(labels))}</h1>",
        _meta(comparison),
        *(f"<p class=summary>{escape(p)}</p>" for p in paragraphs(comparison)),
        *(f"<p class=note>{escape(n)}</p>" for n in comparison.notes),
    ]
    for run in comparison.outcome.runs:
        parts.append(_table(comparison, run.pairing.name))
    main = comparison.run_for("main")
    if main is not None and main.n:
        parts.append("<h2>Points scored per round</h2>")
        parts.append(_distribution([a.points_hist for a in main.aggs], labels,
                                   "points in the round", "% of rounds"))
        parts.append("<h2>Match length</h2>")
        parts.append(_distribution([a.rounds_hist for a in main.aggs], labels,
                                   "rounds in the match", "% of matches"))
        parts.append("<h2>Win rate per seat (95% intervals)</h2>")
        parts.append(_seat_chart(comparison, labels))
    parts.extend(extra)
    parts.append(f"<p class=meta>{escape(bots_footer(comparison))}</p>")
    parts.append(f"<p class=meta>{escape(method_footer(comparison))}</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _meta(comparison: Comparison) -> str:
    items = "".join(f"<li><b>{escape(r.label)}</b>: <code>{escape(r.ref)}</code>, "
                    f"sha256 <code>{r.sha256[:16]}</code>…</li>" for r in comparison.rulesets)
    warn = "".join(f"<p class=meta>warning: {escape(w)}</p>" for w in comparison.outcome.warnings)
    return f"<ul class=meta>{items}</ul>{warn}"


def _table(comparison: Comparison, pairing: str) -> str:
    labels = [r.label for r in comparison.rulesets]
    run = comparison.run_for(pairing)
    title = PAIRING_TITLES.get(pairing, pairing)
    if pairing == "skill" and run is not None and run.pairing.skilled_bot:
        title += f": {run.pairing.skilled_bot} vs {run.pairing.bots[0]}"
    head = "".join(f"<th>{escape(x)}</th>" for x in ["Question", *labels])
    head += "".join(f"<th>{escape(x)} − {escape(labels[0])}</th>" for x in labels[1:])
    body = []
    for row in (r for r in comparison.rows if r.metric.pairing == pairing):
        cells = [f"<td>{escape(row.metric.question)}</td>"]
        cells += [f"<td>{escape(fmt_estimate(row.metric, e))}</td>" for e in row.estimates]
        for d in row.differences[1:]:
            cls = ' class="sig"' if d is not None and d.significant else ""
            cells.append(f"<td{cls}>{escape(fmt_difference(row.metric, d))}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    return (f"<h2>{escape(title)}</h2><table id=\"table-{pairing}\">"
            f"<caption>{escape(caption(comparison, pairing))}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")


Scale = Callable[[float], float]


def nice_step(span: float, target: int = 5) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about ``target`` ticks.

    >>> nice_step(80), nice_step(0.27), nice_step(7)
    (20, 0.1, 2)
    """
    raw = max(span, 1e-12) / target
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            step = m * power
            return int(step) if step >= 1 else round(step, 12)
    return 10 * power  # pragma: no cover


def _axes(xmin: float, xmax: float, ymax: float, xlabel: str, ylabel: str,
          xticks: list[tuple[float, str]] | None = None) -> tuple[list[str], Scale, Scale]:
    """Axis lines, round ticks and labels; returns the SVG parts and the two scale functions."""
    span_x = (xmax - xmin) or 1
    ystep = nice_step(ymax or 1, 4)
    ymax = math.ceil((ymax or 1) / ystep - 1e-9) * ystep

    def sx(x: float) -> float:
        return LEFT + (x - xmin) / span_x * (W - LEFT - RIGHT)

    def sy(y: float) -> float:
        return H - BOTTOM - y / ymax * (H - TOP - BOTTOM)

    out = [f'<line x1="{LEFT}" y1="{H - BOTTOM}" x2="{W - RIGHT}" y2="{H - BOTTOM}" '
           'stroke="#444"/>',
           f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{H - BOTTOM}" stroke="#444"/>']
    k = 0
    while k * ystep <= ymax + 1e-9:
        y = k * ystep
        out.append(f'<line x1="{LEFT - 4}" y1="{sy(y):.1f}" x2="{W - RIGHT}" y2="{sy(y):.1f}" '
                   'stroke="#eee"/>')
        out.append(f'<text x="{LEFT - 6}" y="{sy(y) + 4:.1f}" text-anchor="end">'
                   f"{y * 100:.{0 if ystep >= 0.01 else 1}f}%</text>")
        k += 1
    if xticks is None:
        xstep = max(1, nice_step(span_x, 6))
        first = math.ceil(xmin / xstep) * xstep
        xticks = [(x, f"{x:g}") for x in range(int(first), int(xmax) + 1, int(xstep))]
    for x, text in xticks:
        out.append(f'<text x="{sx(x):.1f}" y="{H - BOTTOM + 16}" text-anchor="middle">'
                   f"{escape(text)}</text>")
    out.append(f'<text x="{(LEFT + W - RIGHT) / 2}" y="{H - 8}" text-anchor="middle">'
               f"{escape(xlabel)}</text>")
    out.append(f'<text x="14" y="{(TOP + H - BOTTOM) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {(TOP + H - BOTTOM) / 2})">{escape(ylabel)}</text>')
    return out, sx, sy


def _legend(labels: list[str]) -> list[str]:
    out = []
    for k, label in enumerate(labels):
        x = W - RIGHT - 150
        y = TOP + 14 + 16 * k
        out.append(f'<rect x="{x}" y="{y - 9}" width="12" height="10" '
                   f'fill="{ruleset_color(k)}"/>')
        out.append(f'<text x="{x + 18}" y="{y}">{escape(label)}</text>')
    return out


def _distribution(hists: list[Counter], labels: list[str], xlabel: str, ylabel: str) -> str:
    """Share of observations per value (about 40 bins), one line per ruleset."""
    values = [v for h in hists for v in h]
    if not values:
        return "<p>no data</p>"
    lo, hi = min(values), max(values)
    series = [binned_shares(h, lo, hi) for h in hists]
    ymax = max((y for s in series for _, y in s), default=1.0)
    parts, sx, sy = _axes(lo, hi, ymax, xlabel, ylabel)
    for k, s in enumerate(series):
        pts = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in s)
        parts.append(f'<polyline fill="none" stroke="{ruleset_color(k)}" '
                     f'stroke-width="2" points="{pts}"><title>{escape(labels[k])}</title>'
                     "</polyline>")
    parts += _legend(labels)
    return _svg(parts, f"{ylabel} by {xlabel}")


def _seat_chart(comparison: Comparison, labels: list[str]) -> str:
    """A dot and a 95% interval bar per seat and ruleset, over the fair-share line."""
    rows = [r for r in comparison.rows if r.metric.key.startswith("win_rate_seat_")]
    if not rows:
        return "<p>no data</p>"
    seats = len(rows)
    highs = [e.high for r in rows for e in r.estimates if e.high is not None]
    ymax = min(1.0, max(highs, default=1.0))
    parts, sx, sy = _axes(-0.5, seats - 0.5, ymax, "seat", "% of matches won",
                          [(s, f"seat {s}") for s in range(seats)])
    n_rules = len(labels)
    for s, row in enumerate(rows):
        for k, est in enumerate(row.estimates):
            if est.value is None:
                continue
            x = sx(s - 0.3 + 0.6 * (k + 0.5) / n_rules)
            color = ruleset_color(k)
            if est.low is not None and est.high is not None:
                parts.append(f'<line x1="{x:.1f}" y1="{sy(est.low):.1f}" x2="{x:.1f}" '
                             f'y2="{sy(est.high):.1f}" stroke="{color}" stroke-width="2"/>')
            parts.append(f'<circle cx="{x:.1f}" cy="{sy(est.value):.1f}" r="4" '
                         f'fill="{color}"><title>{escape(labels[k])}, seat {s}: '
                         f"{escape(fmt_estimate(row.metric, est))}</title></circle>")
    parts += _legend(labels)
    return _svg(parts, "win rate per seat")


def _svg(parts: list[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
            f'viewBox="0 0 {W} {H}" role="img"><title>{escape(title)}</title>'
            + "".join(parts) + "</svg>")
