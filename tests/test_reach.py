"""Rulesets whose matches can never end: validate warns, simulate and compare say so.

A match undecided at the round cap (1000 rounds) stops there; it is reported as
stopped, never silently as a drawn match.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from dominorules import api
from dominorules.cli import main

NO_POINTS = 'extends: pagat\nscoring:\n  domino: "0"\n  blocked:\n    points: "0"\n'
FAR_TARGET = "extends: pagat\nmatch:\n  target: 1000000000000\n"


@pytest.fixture()
def never(tmp_path):
    (tmp_path / "never.yaml").write_text(NO_POINTS)
    (tmp_path / "far.yaml").write_text(FAR_TARGET)
    return tmp_path


def test_a_match_stopped_by_the_round_cap_says_so(never):
    result = api.play_match(api.load_game(str(never / "never.yaml")), 2, 1, max_rounds=30)
    assert result.capped and result.winner is None and len(result.rounds) == 30
    assert not api.play_match("pagat", 2, 1).capped


def test_validate_warns_but_accepts(never):
    out = CliRunner().invoke(main, ["validate", str(never / "never.yaml"),
                                    str(never / "far.yaml")])
    assert out.exit_code == 0
    assert out.stdout == f"ok: {never}/never.yaml\nok: {never}/far.yaml\n"
    lines = out.stderr.splitlines()
    assert lines[0] == (f"{never}/never.yaml: warning: no side scored a point in 3000 sample "
                        "rounds: a match can never reach its target (100) [match.target]")
    assert lines[2].startswith(f"{never}/far.yaml: warning: 3 of 3 sample matches stopped "
                               "undecided at the round cap (1000 rounds): the target "
                               "(1000000000000) looks beyond reach, averaging ")


def test_a_valid_builtin_gets_no_warning():
    out = CliRunner().invoke(main, ["validate", "pagat"])
    assert (out.exit_code, out.stdout, out.stderr) == (0, "ok: pagat\n", "")


def test_simulate_counts_stopped_matches_apart_from_drawn_ones(never):
    out = CliRunner().invoke(main, ["simulate", str(never / "never.yaml"), "--matches", "2"])
    assert out.exit_code == 0
    assert "  stopped undecided at the round cap (1000 rounds): 2\n" in out.stdout
    assert "drawn matches" not in out.stdout


def test_compare_warns_about_stopped_matches(never):
    out = CliRunner().invoke(main, ["compare", "pagat", str(never / "never.yaml"),
                                    "--matches", "2", "--workers", "1", "--no-skill"])
    assert out.exit_code == 0
    assert (f"warning: 2 of 2 matches of {never}/never.yaml (main) stopped undecided at the "
            "round cap (1000 rounds); the tables count them as drawn") in out.stderr
