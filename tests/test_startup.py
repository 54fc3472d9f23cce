"""Commands start without importing what they do not use: `list` reads descriptions only,
`rules` and `diff` compile formulas but play nothing, `validate` plays sample matches but
computes no statistics, and `compare` imports scipy only once its matches are played."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# run one command in a fresh interpreter, then print which of these modules it imported
PROGRAM = """
import json, sys
from dominorules.cli import main
sys.argv = ["dominorules", *{args!r}]
{hook}
try:
    main()
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps(sorted(m for m in {watched!r} if m in sys.modules)), file=sys.stderr)
"""

WATCHED = ["scipy", "numpy", "dask", "distributed", "matplotlib", "jsonschema", "lark",
           "dominorules.engine.general_loop", "dominorules.engine.state", "dominorules.api"]


def imported(*args: str, hook: str = "") -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", PROGRAM.format(args=list(args), hook=hook, watched=WATCHED)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stderr.strip().splitlines()[-1])


def test_list_reads_only_the_files():
    assert imported("list") == []


@pytest.mark.parametrize("args", [("rules", "pagat"), ("rules", "house/all-fives"),
                                  ("diff", "pagat", "dutch")])
def test_reading_builtin_rules_needs_only_the_formula_parser(args):
    assert imported(*args) == ["lark"]


def test_validate_plays_samples_but_computes_no_statistics():
    assert imported("validate", "pagat") == [
        "dominorules.api", "dominorules.engine.general_loop", "dominorules.engine.state",
        "jsonschema", "lark"]


def test_compare_imports_scipy_only_after_its_matches():
    hook = ("import dominorules.explore.compare as c\n"
            "run = c.run\n"
            "def first(*a, **k):\n"
            "    assert 'scipy' not in sys.modules and 'dask' not in sys.modules\n"
            "    return run(*a, **k)\n"
            "c.run = first")
    assert "scipy" in imported("compare", "pagat", "dutch", "--players", "2", "--matches", "4",
                               "--workers", "1", hook=hook)
