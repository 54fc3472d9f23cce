"""``compare --by-rule`` on constructed rulesets whose answer is known in advance."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from dominorules.cli import main
from dominorules.explore.attribution import attribute, design, factors, shapley_weights
from dominorules.explore.runner import SerialBackend
from dominorules.rules import load_ruleset

# Three changes to pagat: a lower target (changes every match's length); forbidding
# voluntary draws (random bots never draw voluntarily, so play is unchanged: only the
# choices counted change); the hand size written another way (plays exactly the same).
HOUSE = """\
extends: pagat
match:
  target: 31
drawing:
  voluntary: forbidden
deal:
  hand_size: "6 if players == 4 else 7"
"""


@pytest.fixture(scope="module")
def split(tmp_path_factory):
    d = tmp_path_factory.mktemp("by-rule")
    (d / "house.yaml").write_text(HOUSE)
    work = d / "points"
    work.mkdir()
    return attribute("pagat", str(d / "house.yaml"), ("pagat", "house"), 3, ("random",) * 3,
                     seed=3, matches=40, batch_size=20, backend=SerialBackend(),
                     directory=str(work))


def test_the_rules_that_differ_are_the_ones_diff_names():
    a = load_ruleset("pagat").data
    b = dict(a, match={**a["match"], "target": 31})
    assert [f.key for f in factors(a, b)] == ["match.target"]


def test_the_design_is_a_full_factorial_for_three_rules(split):
    assert split.design == "full factorial" and len(split.points) == 8
    assert [f.key for f in split.factors] == ["deal.hand_size", "drawing.voluntary",
                                              "match.target"]


def test_two_changes_with_no_interaction_add_up(split):
    # voluntary draws change no match here, so the target's share is the whole difference
    total = split.total["rounds_per_match"].value
    assert total < 0
    assert split.share[("match.target", "rounds_per_match")].value == pytest.approx(total)
    assert split.alone[("match.target", "rounds_per_match")].value == pytest.approx(total)
    inter = split.interactions[("drawing.voluntary", "match.target", "rounds_per_match")]
    assert inter.value == pytest.approx(0.0, abs=1e-12)
    # and the share of each metric adds up to the total, rule by rule
    for m in split.metrics:
        shares = [split.share[(f.key, m.key)].value for f in split.factors]
        if split.total[m.key].value is not None and None not in shares:
            assert sum(shares) == pytest.approx(split.total[m.key].value, abs=1e-9)


def test_a_change_with_no_effect_is_reported_as_none(split):
    from dominorules.explore.attribution_report import lines

    for m in split.metrics:
        e = split.share[("deal.hand_size", m.key)]
        # exactly zero, interval and all: the same play cancels (no "±8.8e-17" printed)
        assert e.value in (None, 0.0) and not e.significant
        assert e.value is None or e.low == e.high == 0.0
    assert ("Hand size: no effect distinguishable from zero on any metric (with 40 "
            "matches)") in lines(split)
    # forbidding voluntary draws does remove choices
    assert split.share[("drawing.voluntary", "decision_rate")].value < 0


def test_sampled_shapley_shares_add_up_to_the_total_for_many_rules():
    kind, points, orders = design(6, seed=1)
    assert kind == "Shapley sampling" and points[0] == frozenset() and len(orders) == 4
    summed = sum(shapley_weights(6, points, orders, i) for i in range(6))
    expected = np.zeros(len(points))
    expected[0], expected[1] = -1, 1
    assert np.allclose(summed, expected)
    _, full, _ = design(3, seed=1)
    summed = sum(shapley_weights(3, full, [], i) for i in range(3))
    assert np.allclose(summed, expected[:8])


def test_by_rule_needs_exactly_two_rulesets():
    res = CliRunner().invoke(main, ["compare", "pagat", "dutch", "hoyle", "--by-rule"])
    assert res.exit_code == 2 and "--by-rule splits the difference between two" in res.stderr


def test_by_rule_in_json_and_html(tmp_path):
    res = CliRunner().invoke(main, ["compare", "pagat", "house/south-american", "--players",
                                    "3", "--matches", "30", "--no-skill", "--workers", "1",
                                    "--by-rule", "--json", "--html", str(tmp_path / "r.html")])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)["by_rule"]
    assert out["design"] == "full factorial" and [r["key"] for r in out["rules"]] == [
        "deal.hand_size"]
    assert out["rulesets_played"] == 2
    assert '<table id="table-by-rule">' in (tmp_path / "r.html").read_text()


def test_by_rule_splits_the_skill_rows_the_main_table_shows():
    res = CliRunner().invoke(main, ["compare", "pagat", "dutch", "--players", "3",
                                    "--matches", "30", "--skill-bots", "greedy,random",
                                    "--workers", "1", "--by-rule", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    table = {m["key"]: m for m in out["metrics"]}
    split = {m["key"]: m for m in out["by_rule"]["metrics"]}
    for key in ("skill_win_rate", "skill_gap"):
        # the same seeds and bots as the table's skill pairing: the same total difference
        total = split[key]["total"]["value"]
        assert total == pytest.approx(table[key]["differences"]["dutch"]["value"], abs=1e-12)
        shares = [r["share"]["value"] for r in split[key]["rules"].values()]
        assert sum(shares) == pytest.approx(total, abs=1e-12)
    # the main table shows no skill rows with --no-skill, so neither does the split
    res = CliRunner().invoke(main, ["compare", "pagat", "dutch", "--players", "3",
                                    "--matches", "10", "--no-skill", "--workers", "1",
                                    "--by-rule", "--json"])
    assert "skill_gap" not in {m["key"] for m in json.loads(res.stdout)["by_rule"]["metrics"]}


def test_a_metric_no_rule_changes_on_any_deal_is_one_line_not_a_row(split):
    from dominorules.explore.attribution_report import lines, rows

    # no deal is thrown in under either ruleset: every cell of that row would be +0 ±0
    shown = [m.key for m in rows(split)]
    assert "redeals_per_round" not in shown and "rounds_per_match" in shown
    assert any(line.startswith("No difference on any deal: redeals per round")
               for line in lines(split))


def _render(renderable, width: int) -> str:
    from rich.console import Console

    console = Console(width=width, record=True, file=open("/dev/null", "w"))
    console.print(renderable)
    return console.export_text()


def test_by_rule_at_80_columns_is_one_block_per_question_in_the_rules_names(split):
    from dominorules.explore.attribution_report import fmt_effect, rows, table

    text = _render(table(split, 80), 80)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert len(lines) < 8 * len(rows(split)) + 12     # a few lines a question, not 35
    first = " ".join(line.split("│")[1].strip() for line in lines if line.startswith("│"))
    for m in rows(split):                       # the question whole, above its rules
        assert f"{m.question} all of them (house − pagat)" in first, m.question
        for f, title in zip(split.factors, ("Hand size", "Voluntary draws", "Target"),
                            strict=True):
            shown = fmt_effect(m, split.share[(f.key, m.key)])
            assert any(line.startswith(f"│   {title} ") and shown in line for line in lines)
    assert "drawing.voluntary" not in text      # rules by name, as diff names them
    wide = _render(table(split, 160), 160)      # room enough: a column per rule
    assert "Voluntary" in wide and "rounds does a match last?" in wide


def test_the_split_is_summed_up_in_words_largest_first_with_the_method_below(split):
    from dominorules.explore.attribution_report import fmt_effect, method_footer, summary

    base = {m.key: 1e6 for m in split.metrics}     # A's values: the changes' scale
    base |= {"rounds_per_match": 6.0, "turns_per_match": 200.0, "decision_rate": 0.5}
    first, quiet = summary(split, base)
    rounds = fmt_effect(next(m for m in split.metrics if m.key == "rounds_per_match"),
                        split.share[("match.target", "rounds_per_match")])
    assert first.startswith(f"What each rule changes, largest first: rounds per match: "
                            f"Target {rounds} (in all ")
    told = [first.index(q) for q in ("rounds per match:", "real choices: Voluntary draws",
                                     "turns per match: Target")]
    assert told == sorted(told)    # -37%, -34%, -26% of A's value
    assert quiet == "No detectable effect: Hand size."
    assert "Shapley value" in method_footer(split) and "(Holm's method)" in method_footer(split)
