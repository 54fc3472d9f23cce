"""``tune``: successive halving finds a known optimum; goals are checked before anything runs."""

from __future__ import annotations

import math
import random

import pytest
from click.testing import CliRunner

from dominorules.cli import main
from dominorules.explore.stats import Estimate
from dominorules.explore.tune import Candidate, parse_goal, successive_halving


def test_successive_halving_finds_the_known_optimum_of_a_noisy_objective():
    # turns_per_match = 100 + (x - 37)^2 plus noise shrinking as 1/sqrt(matches):
    # the goal "~ 100" is met best at x = 37, which a first rung of 20 cannot tell for sure
    goal = parse_goal("turns_per_match ~ 100 +- 1", 3)
    cands = [Candidate(i, {"x": x}) for i, x in enumerate(range(1, 80, 3))]
    played: dict[int, int] = {}

    def evaluate(alive, start, stop):
        for c in alive:
            played[c.index] = stop
            rng = random.Random(c.index * 7919 + stop)
            noise = rng.gauss(0, 30 / math.sqrt(stop))
            v = 100 + (c.overrides["x"] - 37) ** 2 + noise
            c.estimates["turns_per_match"] = Estimate(v, v - 1, v + 1, stop)

    ranked = successive_halving(cands, [goal], evaluate, first=20, most=20 * 27)
    assert ranked[0].overrides == {"x": 37}
    # matches went to the candidates in doubt: most stopped after the first rung
    assert sum(1 for n in played.values() if n == 20) >= len(cands) * 2 // 3
    assert played[ranked[0].index] == 540


def test_goals_read_targets_bounds_tolerances_and_percentages():
    g = parse_goal("first_leader_advantage < 1%", 4)
    assert (g.metric.key, g.op, g.value) == ("leader_advantage", "<", 0.01)
    assert g.loss(0.005) == 0 and g.loss(0.03) == pytest.approx(2.0)
    t = parse_goal("turns_per_match ~ 120", 4)
    assert t.tolerance == 6.0 and t.loss(123) < 0.01
    assert t.confidence(Estimate(120.0, 119.0, 121.0, 100)) > 0.99


@pytest.mark.parametrize(("args", "message"), [
    (["--goal", "turns_per_mach ~ 120"], "no metric named 'turns_per_mach'"),
    (["--goal", "turns_per_match is long"], "expected METRIC ~ TARGET"),
    (["--goal", "turns_per_match ~ 120", "--vary", "match.target=200..20"], "is empty"),
])
def test_bad_goal_or_range_is_exit_2_before_anything_runs(args, message):
    base = ["tune", "pagat", "--players", "3", "--matches", "100000", "--workers", "1"]
    if "--vary" not in args:
        base += ["--vary", "match.target=20..200"]
    res = CliRunner().invoke(main, base + args)
    assert res.exit_code == 2, res.output
    assert message in res.stderr and res.stdout == ""


def test_tune_writes_a_ruleset_that_extends_the_original(tmp_path):
    out = tmp_path / "tuned.yaml"
    res = CliRunner().invoke(main, ["tune", "pagat", "--players", "3", "--vary",
                                    "match.target=31,101", "--goal", "rounds_per_match < 3",
                                    "--matches", "30", "--max-matches", "90", "--workers", "1",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "best: match.target=31" in res.stdout
    text = out.read_text()
    assert "extends: pagat" in text and "target: 31" in text
    from dominorules.rules import load_ruleset

    assert load_ruleset(str(out)).rules.name == "tuned"
