"""Run a ruleset's rule examples through the engine; each failure becomes a Diagnostic.

Examples are checked by ``validate`` (not by every load): they say what the rules
mean, and a failing one means the data and the intent disagree.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..diagnostics import Diagnostic
from ..engine.examples import check_examples
from ..engine.game_rules import Rules
from .marked_yaml import FieldPath, Mark, dotted


def example_diagnostics(rules: Rules, marks: Mapping[FieldPath, Mark]) -> list[Diagnostic]:
    """One diagnostic per example the engine does not confirm, at the example's first line."""
    out = []
    for example, problem in check_examples(rules):
        index = next(i for i, e in enumerate(rules.examples) if e is example)
        path = ("examples", index)
        mark = marks.get(path)
        where = {"file": mark.file, "line": mark.line, "column": mark.column} if mark else {}
        out.append(Diagnostic("example", f"example '{example.title}' fails: {problem}",
                              path=dotted(path), hint="fix the example, or the rule it shows",
                              **where))
    return out
