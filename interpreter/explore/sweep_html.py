"""A sweep as a self-contained HTML page: each metric drawn against the varied value.

One chart per metric, the estimate as a line and its 95% interval as a band. When
two fields vary, each chart is a row of small multiples, one panel per value of the
second field, all on the same y scale so panels compare at a glance. No script, no
external resource: the page opens from disk.
"""

from __future__ import annotations

import math
from html import escape

from .html import CSS, nice_step
from .metrics import Metric
from .report import fmt_value
from .sweep import Combination, Sweep
from .sweep_report import caption, invalid_lines
from .variation import _text

W, H = 340, 220
LEFT, RIGHT, TOP, BOTTOM = 62, 12, 14, 40
COLOR = "#1f77b4"


def render(sw: Sweep) -> str:
    """The whole page: settings, what was not played, then one chart per metric."""
    title = f"dominorules sweep: {sw.settings.ref}"
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{escape(title)}</title><style>{CSS}"
             ".panels { display: flex; flex-wrap: wrap; gap: 8px; }</style></head><body>",
             f"<h1>{escape(title)}</h1>", f"<p class=meta>{escape(caption(sw))}</p>"]
    parts += [f"<p class=meta>{escape(line)}</p>" for line in invalid_lines(sw)]
    if sw.outcome.interrupted:
        parts.append("<p class=meta>interrupted: combinations not finished are marked</p>")
    for m in sw.metrics:
        parts.append(f'<h2 id="metric-{m.key}">{escape(m.question)}</h2>')
        parts.append(f'<div class="panels">{"".join(_panels(sw, m))}</div>')
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
    if len(varies) == 2:
        first, second = varies
        return [_chart(m, [c for c in played if c.overrides[second.path] == v],
                       [_text(x) for x in first.values], first.path, scale,
                       f"{second.path} = {_text(v)}") for v in second.values]
    if len(varies) == 1:
        return [_chart(m, played, [_text(x) for x in varies[0].values], varies[0].path, scale)]
    return [_chart(m, played, [c.label for c in sw.combinations], "combination", scale)]


def _x_of(c: Combination, ticks: list[str], xlabel: str) -> int:
    if xlabel == "combination":
        return c.index
    return ticks.index(_text(c.overrides[xlabel]))


def _chart(m: Metric, combos: list[Combination], ticks: list[str], xlabel: str,
           scale: tuple[float, float], title: str = "") -> str:
    lo, hi = scale
    step = nice_step((hi - lo) or abs(hi) or 1.0, 4)
    lo = math.floor(lo / step) * step
    hi = max(math.ceil(hi / step) * step, lo + step)
    n = max(len(ticks) - 1, 1)

    def sx(i: float) -> float:
        return LEFT + (i / n if len(ticks) > 1 else 0.5) * (W - LEFT - RIGHT)

    def sy(y: float) -> float:
        return H - BOTTOM - (y - lo) / (hi - lo) * (H - TOP - BOTTOM)

    out = [f'<line x1="{LEFT}" y1="{H - BOTTOM}" x2="{W - RIGHT}" y2="{H - BOTTOM}" '
           'stroke="#444"/>',
           f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{H - BOTTOM}" stroke="#444"/>']
    k = 0
    while lo + k * step <= hi + 1e-9:
        y = lo + k * step
        out.append(f'<line x1="{LEFT - 3}" y1="{sy(y):.1f}" x2="{W - RIGHT}" '
                   f'y2="{sy(y):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{LEFT - 5}" y="{sy(y) + 4:.1f}" text-anchor="end">'
                   f"{escape(fmt_value(m, y))}</text>")
        k += 1
    for i, t in enumerate(ticks):
        out.append(f'<text x="{sx(i):.1f}" y="{H - BOTTOM + 14}" text-anchor="middle">'
                   f"{escape(t[:14])}</text>")
    out.append(f'<text x="{(LEFT + W - RIGHT) / 2}" y="{H - 6}" text-anchor="middle">'
               f"{escape(xlabel)}</text>")
    pts = sorted((_x_of(c, ticks, xlabel), c.estimates[m.key]) for c in combos
                 if c.estimates[m.key].value is not None)
    band = [(i, e) for i, e in pts if e.low is not None and e.high is not None]
    if band:
        upper = " ".join(f"{sx(i):.1f},{sy(e.high):.1f}" for i, e in band)
        lower = " ".join(f"{sx(i):.1f},{sy(e.low):.1f}" for i, e in reversed(band))
        out.append(f'<polygon points="{upper} {lower}" fill="{COLOR}" fill-opacity="0.18" '
                   'stroke="none"/>')
    if pts:
        line = " ".join(f"{sx(i):.1f},{sy(e.value):.1f}" for i, e in pts)
        out.append(f'<polyline fill="none" stroke="{COLOR}" stroke-width="2" '
                   f'points="{line}"/>')
    for i, e in pts:
        tip = f"{ticks[i] if i < len(ticks) else i}: {fmt_value(m, e.value)}"
        out.append(f'<circle cx="{sx(i):.1f}" cy="{sy(e.value):.1f}" r="3" fill="{COLOR}">'
                   f"<title>{escape(tip)}</title></circle>")
    head = f"<figcaption>{escape(title)}</figcaption>" if title else ""
    return (f"<figure style=\"margin:0\">{head}<svg xmlns=\"http://www.w3.org/2000/svg\" "
            f'width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" '
            f'aria-label="{escape(m.key)} by {escape(xlabel)}">{"".join(out)}</svg></figure>')
