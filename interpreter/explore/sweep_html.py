"""A sweep as a self-contained HTML page: each metric drawn against the varied value.

One chart per metric, the estimate as a line and its 95% interval as a band over a
numeric field (a bar per value over choices, a numbered key over three fields). When
two fields vary, each chart is a row of small multiples, one panel per value of the
second field, all on the same y scale so panels compare at a glance. No script, no
external resource: the page opens from disk.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import Any

from .html import CSS, nice_step
from .metrics import Metric
from .report import fmt_estimate
from .stats import Estimate
from .sweep import Sweep
from .sweep_report import caption, invalid_lines, method_footer, split_constant, summary
from .variation import _text

W, H = 340, 220
LEFT, RIGHT, TOP, BOTTOM = 62, 12, 14, 40
COLOR = "#1f77b4"
MAX_XTICKS = 8     # x labels a panel has room for


def render(sw: Sweep) -> str:
    """The whole page: settings, what was not played, then one chart per metric."""
    title = f"dominorules sweep: {sw.settings.ref}"
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{escape(title)}</title><style>{CSS}"
             ".panels { display: flex; flex-wrap: wrap; gap: 8px; }</style></head><body>",
             f"<h1>{escape(title)}</h1>",
             *(f"<p class=summary>{escape(line)}</p>" for line in summary(sw)),
             *(f"<p class=note>{escape(note)}</p>" for note in sw.notes),
             f"<p class=meta>{escape(caption(sw))}; each chart draws the estimate as a dot "
             "and its 95% interval as a band (or a bar)</p>"]
    parts += [f"<p class=meta>{escape(line)}</p>" for line in invalid_lines(sw)]
    if sw.outcome.interrupted:
        parts.append("<p class=meta>interrupted: combinations not finished are marked</p>")
    drawn, folded = split_constant(sw)
    if folded:
        parts.append(f"<p class=meta>{escape(folded)}</p>")
    if len(sw.settings.varies) > 2:
        parts.append("<p class=meta>Combinations: " + "; ".join(
            f"{c.index + 1} = {escape(c.label)}" for c in sw.combinations) + "</p>")
    for m in drawn:
        parts.append(f'<h2 id="metric-{m.key}">{escape(m.question)}</h2>')
        parts.append(f'<div class="panels">{"".join(_panels(sw, m))}</div>')
    parts.append(f"<p class=meta>{escape(method_footer(sw))}</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _panels(sw: Sweep, m: Metric) -> list[str]:
    """One panel, or one per value of the second field; x is the first field's values."""
    varies = sw.settings.varies
    played = [c for c in sw.played if m.key in c.estimates]
    values = [c.estimates[m.key] for c in played]
    lows = [e.low if e.low is not None else e.value for e in values if e.value is not None]
    highs = [e.high if e.high is not None else e.value for e in values if e.value is not None]
    if not lows:
        return ["<p>no data</p>"]
    scale = (min(lows), max(highs))
    if len(varies) > 2:   # numbered: the key under the page's caption says which is which
        axis = XAxis.categories([str(c.index + 1) for c in sw.combinations], "combination")
        return [_chart(m, [(c.index, c.estimates[m.key]) for c in played], axis, scale)]
    first = varies[0]
    axis = XAxis.of(first.values, first.path)
    if len(varies) == 1:
        return [_chart(m, [(axis.position(c.overrides[first.path]), c.estimates[m.key])
                           for c in played], axis, scale)]
    second = varies[1]
    return [_chart(m, [(axis.position(c.overrides[first.path]), c.estimates[m.key])
                       for c in played if c.overrides[second.path] == v],
                   axis, scale, f"{second.path} = {_text(v)}") for v in second.values]


@dataclass(frozen=True)
class XAxis:
    """Where each value of the first field sits: at its number when every value is a
    number (31, 61, 101, 151 are not evenly spaced), joined by a line and a band; else
    evenly, in the order given, each with its own interval bar (no line between
    choices that have no order)."""

    low: float
    high: float
    ticks: tuple[tuple[float, str], ...]
    label: str
    numeric: bool = False   # a line and band join numbers; categories get a bar each

    @classmethod
    def of(cls, values: tuple[Any, ...], label: str) -> XAxis:
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            nums = [float(v) for v in values]
            return cls(min(nums), max(nums), tuple((float(v), _text(v)) for v in values), label,
                       True)
        return cls.categories([_text(v) for v in values], label)

    @classmethod
    def categories(cls, names: list[str], label: str) -> XAxis:
        # half a slot of room at each end: the first bar clear of the axis, labels whole
        return cls(-0.5, len(names) - 0.5, tuple(enumerate(names)), label)

    def position(self, value: Any) -> float:
        text = _text(value)
        return next(x for x, t in self.ticks if t == text)


def _tick_text(m: Metric, y: float, step: float) -> str:
    """A y tick with as many decimals as the step needs: 0, 5, 10 — not 0.000, 5.000."""
    if m.unit == "share":
        y, step, unit = y * 100, step * 100, "%"
    else:
        unit = ""
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    text = f"{y:.{decimals}f}"
    return ("0" if float(text) == 0 else text) + unit


def _chart(m: Metric, points: list[tuple[float, Estimate]], axis: XAxis,
           scale: tuple[float, float], title: str = "") -> str:
    lo, hi = scale
    step = nice_step((hi - lo) or abs(hi) or 1.0, 4)
    lo = math.floor(lo / step) * step
    hi = max(math.ceil(hi / step) * step, lo + step)
    span = axis.high - axis.low

    def sx(x: float) -> float:
        return LEFT + ((x - axis.low) / span if span else 0.5) * (W - LEFT - RIGHT)

    def sy(y: float) -> float:
        return H - BOTTOM - (y - lo) / (hi - lo) * (H - TOP - BOTTOM)

    out = [f'<line x1="{LEFT}" y1="{H - BOTTOM}" x2="{W - RIGHT}" y2="{H - BOTTOM}" '
           'stroke="#444"/>',
           f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{H - BOTTOM}" stroke="#444"/>']
    k = 0
    while lo + k * step <= hi + step * 1e-9:
        y = lo + k * step
        out.append(f'<line x1="{LEFT - 3}" y1="{sy(y):.1f}" x2="{W - RIGHT}" '
                   f'y2="{sy(y):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{LEFT - 5}" y="{sy(y) + 4:.1f}" text-anchor="end">'
                   f"{escape(_tick_text(m, y, step))}</text>")
        k += 1
    every = math.ceil(len(axis.ticks) / MAX_XTICKS)   # labels that would overlap: every k-th
    for n, (x, t) in enumerate(axis.ticks):
        if n % every == 0:
            out.append(f'<text x="{sx(x):.1f}" y="{H - BOTTOM + 14}" text-anchor="middle">'
                       f"{escape(t[:14])}</text>")
    out.append(f'<text x="{(LEFT + W - RIGHT) / 2}" y="{H - 6}" text-anchor="middle">'
               f"{escape(axis.label)}</text>")
    pts = sorted((x, e) for x, e in points if e.value is not None)
    band = [(x, e) for x, e in pts if e.low is not None and e.high is not None]
    if band and not axis.numeric:
        out += [f'<line x1="{sx(x):.1f}" y1="{sy(e.low):.1f}" x2="{sx(x):.1f}" '
                f'y2="{sy(e.high):.1f}" stroke="{COLOR}" stroke-opacity="0.45" '
                'stroke-width="6"/>' for x, e in band]
    elif band:
        upper = " ".join(f"{sx(x):.1f},{sy(e.high):.1f}" for x, e in band)
        lower = " ".join(f"{sx(x):.1f},{sy(e.low):.1f}" for x, e in reversed(band))
        out.append(f'<polygon points="{upper} {lower}" fill="{COLOR}" fill-opacity="0.18" '
                   'stroke="none"/>')
    if pts and axis.numeric:
        line = " ".join(f"{sx(x):.1f},{sy(e.value):.1f}" for x, e in pts)
        out.append(f'<polyline fill="none" stroke="{COLOR}" stroke-width="2" '
                   f'points="{line}"/>')
    names = dict(axis.ticks)
    for x, e in pts:
        tip = f"{axis.label} {names.get(x, x)}: {fmt_estimate(m, e)}"
        out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(e.value):.1f}" r="3" fill="{COLOR}">'
                   f"<title>{escape(tip)}</title></circle>")
    head = f"<figcaption>{escape(title)}</figcaption>" if title else ""
    return (f"<figure style=\"margin:0\">{head}<svg xmlns=\"http://www.w3.org/2000/svg\" "
            f'width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" '
            f'aria-label="{escape(m.key)} by {escape(axis.label)}">{"".join(out)}</svg></figure>')
