"""``diff``: only the rules two rulesets tell differently, each as both sheets word it.

Two rulesets are compared sheet against sheet, rule by rule (examples aside): a rule
differs when its sentence differs. So whatever gets a sentence in ``describe`` is
compared here with no further code, and a formula written two ways that plays the
same ("7 if players <= 3 else 6" and "6 if players == 4 else 7") still shows, since
the sentence quotes the formula. A house rule one sheet tells and the other does not (a
play-time event, a redeal condition) shows as "No such rule." on the side without it.
"""

from __future__ import annotations

import json
from typing import Any

from ..textlayout import DEFAULT_WIDTH
from .describe import FORMATS, RuleSheet, SheetDiff, diff_sheets, markdown_text, rule_sheet, wrap


def diff(a: Any, b: Any) -> SheetDiff:
    """Compare two loaded rulesets (see ``describe.rule_sheet``)."""
    return diff_sheets(rule_sheet(a, derive=False), rule_sheet(b, derive=False))


def _label(sheet: RuleSheet) -> str:
    return f"{sheet.name}: {sheet.title}" if sheet.title else sheet.name


def _count(d: SheetDiff) -> str:
    n = len(d.rules)
    if n == 0:
        return "The two rulesets tell every rule the same way."
    return f"{n} rule{'s' if n != 1 else ''} differ{'s' if n == 1 else ''}."


def _diff_text(d: SheetDiff, columns: int = DEFAULT_WIDTH) -> str:
    width = max(len(d.a.name), len(d.b.name))
    out = [_label(d.a), _label(d.b), _count(d)]
    section = None
    for r in d.rules:
        if r.section != section:
            section = r.section
            out += ["", section, "-" * len(section)]
        out.append(f"{r.title}:")
        for name, line in ((d.a.name, r.a), (d.b.name, r.b)):
            indent = f"  {name:<{width}}  "
            if columns - len(indent) < 30:   # long names: each text under its name
                out += [f"  {name}", wrap(line.text, "      ", columns, line.formulas)]
            else:
                out.append(wrap(line.text, indent, columns, line.formulas))
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _diff_markdown(d: SheetDiff) -> str:
    out = [f"# {d.a.name} against {d.b.name}", "",
           f"- `{d.a.name}`: {d.a.title}", f"- `{d.b.name}`: {d.b.title}", "", _count(d)]
    section = None
    for r in d.rules:
        if r.section != section:
            section = r.section
            out += ["", f"## {section}", "",
                    f"| Rule | {_cell(d.a.name)} | {_cell(d.b.name)} |", "|---|---|---|"]
        out.append(f"| {_cell(r.title)} | {_cell(markdown_text(r.a))} | "
                   f"{_cell(markdown_text(r.b))} |")
    return "\n".join(out) + "\n"


def render_diff(d: SheetDiff, fmt: str = "text", width: int = DEFAULT_WIDTH) -> str:
    """The differences as plain text (terminal, filled to ``width`` columns), markdown (a
    table per section) or JSON."""
    if fmt == "json":
        return json.dumps(d.to_dict(), indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return _diff_markdown(d)
    if fmt == "text":
        return _diff_text(d, width)
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
