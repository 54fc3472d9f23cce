"""The plain-language paragraph above compare's tables, and the footers: the bots, and
the method in plain words.

The paragraph names the rules that differ as ``diff`` titles them, then tells the
largest changes first, each with its 95% interval, and what did not change detectably.
It says only what survived Holm's adjustment over every difference in the report
(``Difference.significant_holm``), so a family of 40 rows does not produce a sentence
by chance. Each sentence is drawn from the numbers: the same words serve any ruleset.
"""

from __future__ import annotations

from .compare import Comparison, Row
from .report import fmt_half, fmt_value, is_constant
from .stats import Difference, Estimate

MAX_POINTS = 6   # a paragraph, not a second table

# key -> (sentence when it rises, when it falls); {p} is the relative change in percent
COUNTS = {
    "rounds_per_match": ("matches last {p}% more rounds", "matches last {p}% fewer rounds"),
    "turns_per_match": ("matches are {p}% longer in turns", "matches are {p}% shorter in turns"),
    "placements_per_match": ("matches place {p}% more tiles", "matches place {p}% fewer tiles"),
    "turns_per_round": ("rounds take {p}% more turns", "rounds take {p}% fewer turns"),
    "placements_per_round": ("rounds place {p}% more tiles", "rounds place {p}% fewer tiles"),
    "draws_per_round": ("players draw {p}% more tiles a round",
                        "players draw {p}% fewer tiles a round"),
    "passes_per_round": ("players pass {p}% more often", "players pass {p}% less often"),
    "points_per_round": ("rounds score {p}% more points", "rounds score {p}% fewer points"),
    "lead_changes": ("the lead changes {p}% more often", "the lead changes {p}% less often"),
}
# key -> the thing a rate measures (sentence: "<thing> rises from a to b")
RATES = {
    "blocked_rate": "the share of blocked rounds",
    "domino_rate": "the share of rounds decided by the last tile",
    "tied_block_rate": "the share of blocked rounds tied",
    "drawn_match_rate": "the share of drawn matches",
    "comeback_rate": "the share of comeback wins",
    "decision_rate": "the share of turns with a real choice",
    "balance": "the gap between the luckiest and unluckiest seat",
    "skill_win_rate": "the skilled player's win rate",
}
EDGES = {
    "leader_advantage": "the first leader's edge",
    "round_leader_advantage": "each round leader's edge in that round",
    "skill_gap": "skill",
}


def _excludes_zero(est: Estimate) -> bool:
    return est.low is not None and est.high is not None and (est.low > 0 or est.high < 0)


def sentence(row: Row, k: int) -> str | None:
    """What ruleset ``k`` changes on this row, in words, or None when nothing significant."""
    diff: Difference | None = row.differences[k]
    if diff is None or not diff.significant_holm or diff.value is None:
        return None
    m, base, other = row.metric, row.estimates[0], row.estimates[k]
    if base.value is None or other.value is None:
        return None
    up = diff.value > 0
    key = m.key
    if key == "skill_gap":
        return f"skill matters {'more' if up else 'less'} ({_pair(row, k)})"
    if key in EDGES:
        what = EDGES[key]
        if _excludes_zero(base) and not _excludes_zero(other):
            return f"{what} disappears ({_pair(row, k)})"
        if not _excludes_zero(base) and _excludes_zero(other):
            return f"{what} appears ({_pair(row, k)})"
        return f"{what} {'grows' if up else 'shrinks'} ({_pair(row, k)})"
    if key in COUNTS and base.value:
        rises, falls = COUNTS[key]
        rel = abs(diff.value / base.value) * 100
        return f"{(rises if up else falls).format(p=f'{rel:.0f}')} ({_pair(row, k)})"
    thing = RATES.get(key, m.question.rstrip("?").lower())
    if m.key.startswith("win_rate_seat_"):
        thing = f"seat {m.key.rsplit('_', 1)[1]}'s win rate"
    return f"{thing} {'rises' if up else 'falls'} ({_pair(row, k)})"


def _pair(row: Row, k: int) -> str:
    m, d = row.metric, row.differences[k]
    change = ""
    if d is not None and d.value is not None:
        change = f", {fmt_value(m, d.value, signed=True)} {fmt_half(m, d.half_width)}".rstrip()
    return (f"{fmt_value(m, row.estimates[0].value)} → {fmt_value(m, row.estimates[k].value)}"
            f"{change}")


def size(row: Row, k: int) -> float:
    """How large a change is, across units: relative to the first ruleset's value (an
    edge, whose value may be near 0, by its absolute size)."""
    d, base = row.differences[k], row.estimates[0].value
    if d is None or d.value is None:
        return 0.0
    if base and row.metric.key not in EDGES:
        return abs(d.value / base)
    return abs(d.value)


def _rules_that_differ(comparison: Comparison, k: int) -> str:
    """", where Voluntary draws, Draw limit and Tile values differ" (``diff``'s titles)."""
    refs = [getattr(r, "ref", None) for r in comparison.rulesets]
    if not refs[0] or not refs[k]:
        return ""
    from ..rules import load_ruleset
    from ..rules.diff import diff

    try:
        titles = [r.title for r in diff(load_ruleset(refs[0]), load_ruleset(refs[k])).rules]
    except Exception:  # noqa: BLE001 - a sentence is never worth failing the report for
        return ""
    if not titles:
        return ", which tells every rule the same way"
    return f", where {_join(titles)} differ{'s' if len(titles) == 1 else ''}"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def paragraphs(comparison: Comparison) -> list[str]:
    """One paragraph per ruleset after the first: the rules that differ, its clear
    differences largest first (each with its interval), and what did not change."""
    labels = [r.label for r in comparison.rulesets]
    out = []
    for k in range(1, len(labels)):
        intro = f"{labels[k]} against {labels[0]}{_rules_that_differ(comparison, k)}"
        ranked = sorted(((size(row, k), i, s) for i, row in enumerate(comparison.rows)
                         if (s := sentence(row, k))), key=lambda t: (-t[0], t[1]))
        points = [s for _, _, s in ranked]
        if points:
            shown = points[:MAX_POINTS]
            more = len(points) - len(shown)
            tail = f"; and {more} more clear difference{'s' if more > 1 else ''} (†)" if more \
                else ""
            text = "; ".join(shown)
            said = f"{intro}: {text[0].upper()}{text[1:]}{tail}."
        else:
            said = f"{intro}: no clear difference on any question."
        same = [row.metric.short or row.metric.key for row in comparison.rows
                if row.differences[k] is not None and not row.differences[k].significant_holm
                and not is_constant(row)]
        if same:
            listed = same[:8] + ([f"{len(same) - 8} more"] if len(same) > 8 else [])
            said += f" No detectable change in {_join(listed)}."
        out.append(said)
    return out + skill_verdict(comparison)


def skill_verdict(comparison: Comparison) -> list[str]:
    """Which ruleset rewards skill more (the skill gap), with the difference's interval:
    told whether significant or not, since "no ruleset rewards skill more" is an answer."""
    row = next((r for r in comparison.rows if r.metric.key == "skill_gap"), None)
    if row is None:
        return []
    run = next(r for r in comparison.outcome.runs if r.pairing.skilled_bot)
    labels = [r.label for r in comparison.rulesets]
    m = row.metric
    who = f"{run.pairing.skilled_bot} in one seat against {run.pairing.bots[0]}"
    out = []
    for k in range(1, len(labels)):
        diff = row.differences[k]
        if diff is None or diff.value is None or diff.low is None or diff.high is None:
            continue
        span = (f"{fmt_value(m, diff.value, signed=True)}, 95% interval "
                f"{fmt_value(m, diff.low, signed=True)} to {fmt_value(m, diff.high, signed=True)}")
        if diff.low > 0 or diff.high < 0:
            more, less = (labels[k], labels[0]) if diff.value > 0 else (labels[0], labels[k])
            verdict = f"{more} rewards skill more than {less}"
        else:
            verdict = (f"neither {labels[0]} nor {labels[k]} can be said to reward skill more "
                       "(the interval holds zero)")
        out.append(f"Skill ({who}): {verdict}: skill gap {fmt_value(m, row.estimates[0].value)} → "
                   f"{fmt_value(m, row.estimates[k].value)} ({span}).")
    return out


def method_footer(comparison: Comparison) -> str:
    """How the numbers were found, in plain words (the summary above leaves it out)."""
    family = sum(1 for row in comparison.rows for d in row.differences if d is not None)
    return ("How to read this: ± gives a 95% interval, the range the true value lies in 19 "
            "times out of 20 given these matches; every ruleset plays the same deals, so "
            "a difference is measured deal by deal. The summary tells a difference only "
            f"when it stays clear of zero even after allowing for all {family} differences "
            "looked at at once (Holm's method), so luck alone would rarely produce one; "
            "the tables mark those with †, and with * those clear of zero on their own.")


def bots_footer(comparison: Comparison) -> str:
    """Which bots played each table, and what the run cost (a strategist table is slow)."""
    parts = []
    for run in comparison.outcome.runs:
        p = run.pairing
        if p.skilled_bot:
            parts.append(f"skill table: {p.skilled_bot} in one seat (rotating) against "
                         f"{p.bots[0]}")
        else:
            seats = (f"{p.bots[0]} in every seat" if len(set(p.bots)) == 1
                     else ", ".join(f"seat {s} {b}" for s, b in enumerate(p.bots)))
            parts.append(f"{p.name} table: {seats}")
    out = comparison.outcome
    cost = ""
    if out.seconds:
        cost = (f" {out.matches:,} matches took {out.seconds:.1f} s "
                f"({out.matches / out.seconds:,.0f} matches/s on {comparison.backend_name}).")
    return "Bots: " + "; ".join(parts) + "." + cost
