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
from dataclasses import dataclass
from typing import Any

from ..textlayout import DEFAULT_WIDTH
from .describe import FORMATS, RuleLine, RuleSheet, markdown_text, rule_order, rule_sheet, wrap

NO_RULE = "No such rule."


@dataclass(frozen=True)
class RuleDiff:
    """One rule told differently: its section, key and title, and each side's line."""

    section: str
    key: str
    title: str
    a: RuleLine
    b: RuleLine


@dataclass(frozen=True)
class SheetDiff:
    a: RuleSheet
    b: RuleSheet
    rules: tuple[RuleDiff, ...]

    def keys(self) -> list[str]:
        return [d.key for d in self.rules]

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": {"name": self.a.name, "title": self.a.title},
            "b": {"name": self.b.name, "title": self.b.title},
            "differences": [{"section": d.section, "key": d.key, "title": d.title,
                             "a": d.a.text, "b": d.b.text} for d in self.rules],
        }


def _lines(sheet: RuleSheet) -> dict[str, tuple[str, RuleLine]]:
    return {line.key: (section.title, line) for section in sheet.sections
            if section.title != "Examples" for line in section.rules}


def diff_sheets(a: RuleSheet, b: RuleSheet) -> SheetDiff:
    """The rules whose sentences differ, in table order; a rule only one sheet tells is
    "No such rule." on the other side."""
    a_lines, b_lines = _lines(a), _lines(b)
    found = []
    for key in sorted(a_lines.keys() | b_lines.keys(), key=rule_order):
        section, line = a_lines.get(key) or b_lines[key]
        a_line = a_lines[key][1] if key in a_lines else RuleLine(key, line.title, NO_RULE)
        b_line = b_lines[key][1] if key in b_lines else RuleLine(key, line.title, NO_RULE)
        if a_line.text != b_line.text:
            found.append(RuleDiff(section, key, line.title, a_line, b_line))
    return SheetDiff(a, b, tuple(found))


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


def parent_name(ruleset: Any) -> str | None:
    """What a ruleset ``extends``, as users type it (builtin name or file name), or None."""
    from pathlib import Path

    from .resources import builtin_name_of

    chain = tuple(getattr(ruleset, "chain", ()) or ())
    if len(chain) < 2:
        return None
    return builtin_name_of(Path(chain[1])) or Path(chain[1]).name


def changes_line(ruleset: Any) -> str:
    """A one-line description of a ruleset that extends another and has none of its own:
    which rules it tells differently from its parent (say 'As PARENT, but with a
    different hand size and target.'). Empty for a ruleset that extends nothing."""
    from . import load_ruleset

    parent = parent_name(ruleset)
    if parent is None:
        return ""
    changed = diff(load_ruleset(ruleset.chain[1]), ruleset).rules
    if not changed:
        return f"The same rules as {parent}."
    titles = [r.title[0].lower() + r.title[1:] for r in changed]
    listed = titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]
    return f"As {parent}, but with a different {listed}."
