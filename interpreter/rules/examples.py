"""Rule examples: what a ruleset file states about its own rules, checked against the engine.

An example is YAML (a position and its legal moves, one action and what it fires, or a
round's end and its points); ``rules.verify`` asks the engine's ``positions`` for each
(``validate`` runs them). The engine never sees an example, only ``Rules``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .marked_yaml import FieldPath, Mark


@dataclass(frozen=True)
class Example:
    """A rule example carried by the ruleset (checked by ``validate``, shown by ``rules``).

    ``kind`` is ``legal``, ``events`` or ``points``; ``data`` the example's mapping as
    written in YAML; ``line`` its line there.
    """

    kind: str
    title: str
    data: dict[str, Any]
    line: int = 0


def examples_of(data: Mapping[str, Any], marks: Mapping[FieldPath, Mark]
                ) -> tuple[Example, ...]:
    """The rule examples of a merged ruleset, with their YAML line."""
    out = []
    for i, item in enumerate(data.get("examples", [])):
        mark = marks.get(("examples", i))
        out.append(Example(item["kind"], item["title"], dict(item), mark.line if mark else 0))
    return tuple(out)
