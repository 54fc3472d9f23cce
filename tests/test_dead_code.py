"""No dead code: vulture (settings in pyproject.toml) finds no function, class, variable
or parameter that nothing uses, beyond the names listed with their reason in
``tests/vulture_whitelist.py``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_vulture_finds_nothing_unused():
    pytest.importorskip("vulture", reason="vulture comes with the test extra: pip install .[test]")
    found = subprocess.run([sys.executable, "-m", "vulture"],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert found.stdout + found.stderr == "" and found.returncode == 0
