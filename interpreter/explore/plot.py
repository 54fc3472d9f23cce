"""``--plot FILE.png``: the HTML report's three charts drawn with matplotlib.

matplotlib is an optional extra (``dominorules[plot]``), imported only here and
only when a plot is asked for; without it the user gets one clear diagnostic.
"""

from __future__ import annotations

from collections import Counter

from ..diagnostics import Diagnostic, DiagnosticError
from .compare import Comparison
from .report import binned_shares, ruleset_color


def _shares(hists: list[Counter], k: int) -> tuple[list[float], list[float]]:
    """A distribution as (bin centres, percentages): percent, as the tables show shares."""
    values = [v for h in hists for v in h] or [0]
    pts = binned_shares(hists[k], min(values), max(values))
    return [x for x, _ in pts], [100 * y for _, y in pts]


def write_png(comparison: Comparison, path: str) -> None:
    """Points per round, match length and win rate per seat, side by side, in one PNG."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise DiagnosticError([Diagnostic(
            "plot", "--plot needs matplotlib, which is not installed",
            hint="pip install 'dominorules[plot]' (or use --html for a report without it)",
        )]) from exc
    labels = [r.label for r in comparison.rulesets]
    main = comparison.run_for("main")
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.5))
    if main is not None:
        points = [a.points_hist for a in main.aggs]
        lengths = [a.rounds_hist for a in main.aggs]
        for k, label in enumerate(labels):
            axes[0].plot(*_shares(points, k), label=label, color=ruleset_color(k))
            axes[1].plot(*_shares(lengths, k), marker="o", label=label,
                         color=ruleset_color(k))
    axes[0].set(title="Points scored per round", xlabel="points in the round",
                ylabel="% of rounds")
    axes[1].set(title="Match length", xlabel="rounds in the match", ylabel="% of matches")
    rows = [r for r in comparison.rows if r.metric.key.startswith("win_rate_seat_")]
    width = 0.8 / max(1, len(labels))
    top = 0.0
    for k, label in enumerate(labels):
        xs, ys, errs = [], [], [[], []]
        for s, row in enumerate(rows):
            est = row.estimates[k]
            if est.value is None or est.low is None or est.high is None:
                continue
            xs.append(s - 0.4 + width * (k + 0.5))
            ys.append(100 * est.value)
            errs[0].append(100 * (est.value - est.low))
            errs[1].append(100 * (est.high - est.value))
            top = max(top, 100 * est.high)
        axes[2].errorbar(xs, ys, yerr=errs, fmt="o", capsize=4, label=label,
                         color=ruleset_color(k))
    infos = comparison.rulesets
    title = "Win rate per seat (95% intervals)"
    if main is not None and rows and len({r.partnerships for r in infos}) == 1:
        fair = 100 / (2 if infos[0].partnerships else main.pairing.players)
        axes[2].axhline(fair, color="#888", linestyle="--", linewidth=1)
        title = f"Win rate per seat (95% intervals;\ndashed: a fair share, {fair:.0f}%)"
    axes[2].set_xticks(range(len(rows)), [f"seat {s}" for s in range(len(rows))])
    axes[2].set(title=title, ylabel="% of matches won")
    for ax in axes:    # from 0: a difference of two points must not look like a cliff
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    axes[2].set_ylim(0, min(100, max(top * 1.15, 1)))
    handles, names = axes[0].get_legend_handles_labels()
    if not handles:
        handles, names = axes[2].get_legend_handles_labels()
    # one legend for the three charts, above them: it never covers a point or a bar
    fig.legend(handles, names, loc="upper center", ncol=min(len(names), 6), frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.9))
    try:
        fig.savefig(path, dpi=100)
    except OSError as exc:
        raise DiagnosticError([Diagnostic("plot", f"cannot write {path}: {exc.strerror}",
                                          file=path)]) from exc
    finally:
        plt.close(fig)
