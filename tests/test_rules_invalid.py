"""Each broken ruleset in tests/rulesets/invalid/ gives exactly the diagnostics of its .expected.

Format of a .expected line: ``LINE:COL: code: message``; a diagnostic placed in
another file (a parent) is prefixed with that file's name: ``parent.yaml:LINE:COL: ...``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dominorules.rules import check_ruleset

INVALID = Path(__file__).parent / "rulesets" / "invalid"
CASES = sorted(INVALID.glob("*.yaml"))


def _render(file: Path) -> list[str]:
    out = []
    for d in check_ruleset(str(file)):
        prefix = "" if d.file == str(file) else os.path.basename(d.file) + ":"
        out.append(f"{prefix}{d.line}:{d.column}: {d.code}: {d.message}")
    return out


def test_enough_cases_each_with_its_expectation():
    assert len(CASES) >= 22
    assert [c.name for c in CASES if not c.with_suffix(".expected").exists()] == []


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_invalid_ruleset_diagnostics(case: Path):
    expected = case.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
    assert _render(case) == [line for line in expected if line.strip()]
