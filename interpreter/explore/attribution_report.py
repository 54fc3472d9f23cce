"""An Attribution as a rich table, plain lines, JSON, a long CSV and an HTML section."""

from __future__ import annotations

import csv
from html import escape
from typing import Any

from rich.table import Table
from rich.text import Text

from .attribution import Attribution, Effect
from .metrics import Metric
from .report import QUESTION_WIDTH, fmt_half, fmt_value, min_width


def fmt_effect(m: Metric, e: Effect | None) -> str:
    if e is None or e.value is None:
        return "n/a"
    half = e.high - e.value if e.high is not None else None
    mark = " †" if e.significant else ""
    return f"{fmt_value(m, e.value, signed=True)} {fmt_half(m, half)}{mark}".strip()


def title(att: Attribution) -> str:
    a, b = att.labels
    return (f"Which rule does what: {b} − {a} split among the {len(att.factors)} rules that "
            f"differ ({att.design})")


def caption(att: Attribution) -> str:
    runs = att.outcome.runs if att.outcome else []
    bots = " ".join(runs[0].pairing.bots) if runs else ""
    if len(runs) > 1:
        skilled = runs[1].pairing
        bots += (f" (skill rows: {skilled.skilled_bot} in one rotating seat against "
                 f"{skilled.bots[0]})")
    return (f"{att.matches} matches per ruleset on the same deals, {len(att.points)} rulesets "
            f"(A, B and the mixes between){_cost(att)}; bots: {bots}; each share is the "
            "rule's Shapley value (the shares add up to the total); ± is a 95% interval; "
            "† marks a share that stays significant after Holm's adjustment over every "
            "share, effect alone and interaction")


def unchanged(att: Attribution, m: Metric) -> bool:
    """True when no mix differs from A on any deal for ``m`` (no redeal anywhere): the
    row would be all "+0 ±0", so it is one line instead, as compare folds such rows."""
    effects = [att.total.get(m.key)] + [att.share.get((f.key, m.key)) for f in att.factors]
    return all(e is not None and e.value == 0 and e.low == e.high == 0 for e in effects)


def rows(att: Attribution) -> list[Metric]:
    return [m for m in att.metrics if not unchanged(att, m)]


def _cost(att: Attribution) -> str:
    out = att.outcome
    if out is None or not out.seconds:
        return ""
    return f", {out.matches:,} matches played in {out.seconds:.1f} s"


def name(f) -> str:
    """A differing rule as ``diff`` names it ("Voluntary draws"), not its schema path."""
    from ..rules.describe import rule_title

    return rule_title(f.key)


def table(att: Attribution, width: int = 130) -> Table:
    """A column per rule when it fits ``width`` columns, else one block per question: the
    question on a line of its own, then the total and each rule's share, each labelled."""
    wide = _wide(att)
    return wide if min_width(wide) <= width else _stacked(att)


def _wide(att: Attribution) -> Table:
    t = Table(title=title(att), caption=caption(att), title_justify="left",
              caption_justify="left")
    t.add_column("Question", overflow="fold", min_width=QUESTION_WIDTH)
    t.add_column(f"{att.labels[1]} − {att.labels[0]}", justify="right", no_wrap=True)
    for f in att.factors:
        t.add_column("\n".join(name(f).split(" ")), justify="right", no_wrap=True)
    for m in rows(att):
        t.add_row(m.question, fmt_effect(m, att.total.get(m.key)),
                  *(fmt_effect(m, att.share.get((f.key, m.key))) for f in att.factors))
    return t


def _stacked(att: Attribution) -> Table:
    t = Table(title=title(att), caption=caption(att), title_justify="left",
              caption_justify="left")
    t.add_column("Question, then each rule's share", overflow="fold")
    t.add_column("change", justify="right", no_wrap=True)
    for m in rows(att):
        t.add_row(Text(m.question, style="bold"), "")
        t.add_row(f"  all of them ({att.labels[1]} − {att.labels[0]})",
                  fmt_effect(m, att.total.get(m.key)))
        for f in att.factors:
            t.add_row(f"  {name(f)}", fmt_effect(m, att.share.get((f.key, m.key))))
    return t


def lines(att: Attribution) -> list[str]:
    """Metrics no rule changed, rules with no detectable effect, and the interactions
    that matter, in words."""
    flat = [m.short for m in att.metrics if unchanged(att, m)]
    out = [f"No difference on any deal: {', '.join(flat)}."] if flat else []
    for f in att.factors:
        if not any(att.share[(f.key, m.key)].significant or att.alone[(f.key, m.key)].significant
                   for m in att.metrics if (f.key, m.key) in att.share):
            out.append(f"{name(f)}: no effect distinguishable from zero on any metric "
                       f"(with {att.matches} matches)")
    titles = {f.key: name(f) for f in att.factors}
    for (x, y, key), e in att.interactions.items():
        if e.significant:
            m = next(m for m in att.metrics if m.key == key)
            out.append(f"{titles[x]} and {titles[y]} interact on \"{m.question}\": together "
                       f"they change it by {fmt_effect(m, e)} more than their effects "
                       "alone add up to")
    return out


def summary(att: Attribution, base: dict[str, float | None] | None = None) -> list[str]:
    """The split in words, above its table: for each question the rules changed clearly
    (largest change first, relative to ``base``, A's value per metric key), the whole
    change and each rule's clear share, with intervals; then the rules with no
    detectable effect."""
    base = base or {}

    def clear_shares(m: Metric) -> list:
        return sorted((f for f in att.factors if (f.key, m.key) in att.share
                       and att.share[(f.key, m.key)].significant),
                      key=lambda f: -abs(att.share[(f.key, m.key)].value or 0.0))

    def weight(m: Metric) -> float:
        largest = abs(att.share[(clear_shares(m)[0].key, m.key)].value or 0.0)
        b = base.get(m.key)
        return largest / abs(b) if b else largest

    clear = [m for m in rows(att) if clear_shares(m)]
    out = []
    for m in sorted(clear, key=weight, reverse=True)[:MAX_TOLD]:
        parts = ", ".join(f"{name(f)} {fmt_effect(m, att.share[(f.key, m.key)])}"
                          for f in clear_shares(m))
        out.append(f"{m.short or m.question}: {parts} (in all "
                   f"{fmt_effect(m, att.total.get(m.key))})")
    if len(clear) > MAX_TOLD:
        more = len(clear) - MAX_TOLD
        out.append(f"and {more} more question{'s' if more > 1 else ''} (†)")
    out = ["What each rule changes, largest first: " + "; ".join(out) + "."] if out else []
    if not out:
        out.append(f"No rule changes any question clearly with {att.matches} matches "
                   "(the table gives each share with its interval).")
    quiet = [name(f) for f in att.factors
             if not any(att.share[(f.key, m.key)].significant
                        or att.alone[(f.key, m.key)].significant
                        for m in att.metrics if (f.key, m.key) in att.share)]
    if quiet and len(quiet) < len(att.factors):
        out.append(f"No detectable effect: {', '.join(quiet)}.")
    return out


def method_footer(att: Attribution) -> str:
    """How the split is made, in plain words."""
    family = len(att.share) + len(att.alone) + len(att.interactions)
    return ("How the split is made: the rulesets between A and B (some rules from each) "
            "are played on the same deals, and each rule's share is its average effect "
            "over the orders of switching the rules one by one (its Shapley value), so "
            "the shares add up to the whole change. ± is a 95% interval; † marks a share "
            f"still clear of zero after allowing for all {family} effects looked at at "
            "once (Holm's method).")


MAX_TOLD = 5


def to_json(att: Attribution) -> dict[str, Any]:
    return {
        "design": att.design, "rulesets": list(att.labels), "matches_per_ruleset": att.matches,
        "rulesets_played": len(att.points),
        "rules": [{"key": f.key, "title": name(f), "paths": [".".join(p) for p in f.paths]}
                  for f in att.factors],
        "multiple_comparisons": {"method": "holm", "family": len(att.share) + len(att.alone)
                                 + len(att.interactions)},
        "metrics": [{
            "key": m.key, "question": m.question, "unit": m.unit,
            "total": att.total[m.key].to_json() if m.key in att.total else None,
            "rules": {f.key: {"share": att.share[(f.key, m.key)].to_json(),
                              "alone": att.alone[(f.key, m.key)].to_json()}
                      for f in att.factors if (f.key, m.key) in att.share},
            "interactions": [{"rules": [x, y], **e.to_json()}
                             for (x, y, k), e in att.interactions.items() if k == m.key],
        } for m in att.metrics],
    }


def write_csv(att: Attribution, path: str) -> None:
    """One row per (rule, metric, what): share, alone or interaction (rule "a & b")."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["rule", "metric", "what", "value", "low", "high", "p", "p_holm",
                    "significant"])
        rows = [(k[0], k[1], "share", e) for k, e in att.share.items()]
        rows += [(k[0], k[1], "alone", e) for k, e in att.alone.items()]
        rows += [(f"{k[0]} & {k[1]}", k[2], "interaction", e)
                 for k, e in att.interactions.items()]
        rows += [("(all)", k, "total", e) for k, e in att.total.items()]
        for rule, metric, what, e in rows:
            w.writerow([rule, metric, what, *("" if x is None else x for x in
                                              (e.value, e.low, e.high, e.p, e.p_holm)),
                        int(e.significant)])


def html_section(att: Attribution, base: dict[str, float | None] | None = None) -> str:
    head = "".join(f"<th>{escape(x)}</th>" for x in
                   ["Question", f"{att.labels[1]} − {att.labels[0]}",
                    *(name(f) for f in att.factors)])
    body = []
    for m in rows(att):
        cells = [f"<td>{escape(m.question)}</td>",
                 f"<td>{escape(fmt_effect(m, att.total.get(m.key)))}</td>"]
        for f in att.factors:
            e = att.share.get((f.key, m.key))
            cls = ' class="sig"' if e is not None and e.significant else ""
            alone = att.alone.get((f.key, m.key))
            tip = f"alone on {att.labels[0]}: {fmt_effect(m, alone)}"
            cells.append(f'<td{cls} title="{escape(tip)}">{escape(fmt_effect(m, e))}</td>')
        body.append(f"<tr>{''.join(cells)}</tr>")
    notes = "".join(f"<p class=meta>{escape(line)}</p>" for line in lines(att))
    notes += f"<p class=meta>{escape(method_footer(att))}</p>"
    told = "".join(f"<p class=summary>{escape(line)}</p>" for line in summary(att, base))
    return (f"<h2>{escape(title(att))}</h2>{told}<table id=\"table-by-rule\">"
            f"<caption>{escape(caption(att))}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>{notes}")
