"""``tune``: the zooming grid and successive halving find a known optimum; goals are
checked before anything runs."""

from __future__ import annotations

import json
import math
import random
import re

import pytest
from click.testing import CliRunner

from dominorules.cli import main
from dominorules.explore.stats import Estimate
from dominorules.explore.tune import (
    Candidate,
    grid,
    parse_goal,
    successive_halving,
    zoom_then_halve,
)
from dominorules.explore.variation import parse_vary


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


def test_the_search_zooms_in_on_an_optimum_between_two_coarse_grid_points():
    # a noisy objective with its optimum at x = 75: the coarse grid over 20..200 tries
    # 65 and 88 (and misses the goal by hundreds of tolerances); zooming in around the
    # best so far must reach 75 itself. (The noise is small next to the step from 75 to
    # 74 or 76: 75 won for each of 100 noise seeds tried, so this tests the zoom, not luck.)
    vary = parse_vary("x=20..200")
    assert 75 not in grid(vary) and {65, 88} <= set(grid(vary))
    goal = parse_goal("turns_per_match ~ 100 +- 1", 3)
    made = []

    def make(overrides):
        made.append(overrides["x"])
        return Candidate(len(made), overrides)

    def evaluate(alive, start, stop):
        for c in alive:
            rng = random.Random(c.index * 7919 + stop)
            v = 100 + 3 * (c.overrides["x"] - 75) ** 2 + rng.gauss(0, 10 / math.sqrt(stop))
            c.estimates["turns_per_match"] = Estimate(v, v - 1, v + 1, stop)

    ranked = zoom_then_halve((vary,), [goal], make, evaluate, first=20, most=20 * 27)
    assert ranked[0].overrides == {"x": 75} and ranked[0].loss == pytest.approx(0, abs=0.01)
    # each value tried once, and far fewer than the 181 of the range
    assert len(made) == len(set(made)) and len(made) < 40


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
    (["--goal", "skill_gap > 0.1", "--no-skill"],
     "--goal 'skill_gap > 0.1' needs the skill pairing, which --no-skill leaves out"),
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
    # first the answer in words, in the rule's own name, with its interval
    first = " ".join(res.stdout.split("\n\n")[0].split())
    assert re.fullmatch(r"Best found, of 2 candidates: Target 31, with rounds per match "
                        r"\d\.\d+ ±[\d.]+ for < 3, \d+% sure it is met\.", first), first
    assert " ".join(res.stdout.split()).endswith(
        "± is a 95% interval; \"sure\" is the chance, given that interval, that the goal "
        "holds.")
    text = out.read_text()
    assert "extends: pagat" in text and "target: 31" in text
    from dominorules.rules import load_ruleset

    assert load_ruleset(str(out)).rules.name == "tuned"


def test_tune_zooms_past_the_coarse_grid_on_the_runner():
    res = CliRunner().invoke(main, ["tune", "pagat", "--players", "4", "--vary",
                                    "match.target=20..200", "--goal", "turns_per_match ~ 120",
                                    "--matches", "20", "--max-matches", "60", "--workers", "1",
                                    "--no-skill", "--json"])
    assert res.exit_code == 0, res.output
    tried = [c["values"]["match.target"] for c in json.loads(res.stdout)["candidates"]]
    coarse = set(grid(parse_vary("match.target=20..200")))
    assert coarse < set(tried) and len(tried) == len(set(tried)) < 40
    # the winner is an integer between coarse points that ~120 turns lie between (65, 88)
    assert tried[0] not in coarse and 65 < tried[0] < 88


def test_a_skill_goal_plays_the_skill_pairing_with_the_skill_bots():
    res = CliRunner().invoke(main, ["tune", "pagat", "--players", "3", "--vary",
                                    "match.target=31,101", "--goal", "skill_gap > 0.1",
                                    "--skill-bots", "greedy,random", "--matches", "12",
                                    "--max-matches", "12", "--workers", "1", "--json"])
    assert res.exit_code == 0, res.output
    best = json.loads(res.stdout)["candidates"][0]
    assert best["goals"][0]["metric"] == "skill_gap" and best["goals"][0]["value"]["n"] == 12
