"""The plain-language summary tells only Holm-significant differences, in words drawn
from the numbers; Holm's adjustment itself on a worked example."""

from __future__ import annotations

from types import SimpleNamespace

from dominorules.explore import stats
from dominorules.explore.compare import Row, adjust_for_multiplicity
from dominorules.explore.metrics import metrics_for
from dominorules.explore.stats import Difference, Estimate
from dominorules.explore.summary import paragraphs, sentence

METRICS = {m.key: m for m in metrics_for("main", 3) + metrics_for("skill", 3)}


def row(key, base, other, diff, p):
    b = Estimate(base[0], base[1], base[2], 100)
    o = Estimate(other[0], other[1], other[2], 100)
    d = Difference(diff, diff - 0.01, diff + 0.01, p, p < 0.05)
    return Row(METRICS[key], [b, o], [None, d])


def comparison(rows):
    labels = [SimpleNamespace(label="plain"), SimpleNamespace(label="house")]
    return SimpleNamespace(rulesets=labels, rows=adjust_for_multiplicity(rows))


def test_holm_multiplies_the_smallest_p_by_the_family_size_and_stays_monotone():
    assert stats.holm([0.001, 0.02, 0.5]) == [0.003, 0.04, 0.5]
    assert stats.holm([0.02, 0.02]) == [0.04, 0.04]


def test_only_differences_surviving_holm_are_told():
    rows = [
        row("rounds_per_match", (3.0, 2.9, 3.1), (4.2, 4.1, 4.3), 1.2, 0.0001),
        # p = 0.03 and 0.04 alone are "significant", but not once adjusted for 4 tests
        row("blocked_rate", (0.2, 0.18, 0.22), (0.23, 0.21, 0.25), 0.03, 0.03),
        row("win_rate_seat_1", (0.3, 0.25, 0.35), (0.35, 0.3, 0.4), 0.05, 0.04),
        row("leader_advantage", (0.08, 0.05, 0.11), (0.0, -0.03, 0.03), -0.08, 0.001),
    ]
    text = paragraphs(comparison(rows))[0]
    assert text == ("house against plain: Matches last 40% more rounds (3.000 → 4.200, "
                    "+1.200 ±0.01); the first leader's edge disappears (8.0% → 0.0%, "
                    "-8.0% ±1.0). No detectable change in rounds blocked and seat 1 wins.")


def test_the_largest_change_is_told_first_whatever_the_table_order():
    rows = [
        row("blocked_rate", (0.20, 0.19, 0.21), (0.21, 0.20, 0.22), 0.01, 1e-6),   # +5%
        row("rounds_per_match", (3.0, 2.9, 3.1), (4.5, 4.4, 4.6), 1.5, 1e-6),     # +50%
        row("turns_per_round", (20.0, 19.9, 20.1), (24.0, 23.9, 24.1), 4.0, 1e-6),  # +20%
    ]
    text = paragraphs(comparison(rows))[0]
    told = [text.index(s) for s in ("rounds", "rounds take 20% more turns",
                                    "the share of blocked rounds")]
    assert told == sorted(told), text
    assert "No detectable change" not in text


def test_the_method_is_told_in_plain_words_in_a_footer():
    from dominorules.explore.summary import method_footer

    rows = [row("rounds_per_match", (3.0, 2.9, 3.1), (4.2, 4.1, 4.3), 1.2, 0.0001)]
    text = method_footer(comparison(rows))
    assert "19 times out of 20" in text and "all 1 differences" in text
    assert "(Holm's method)" in text


def test_nothing_significant_is_said_plainly():
    rows = [row("blocked_rate", (0.2, 0.18, 0.22), (0.21, 0.19, 0.23), 0.01, 0.4)]
    assert paragraphs(comparison(rows)) == [
        "house against plain: no clear difference on any question. No detectable change "
        "in rounds blocked."]


def test_skill_gap_reads_as_skill_mattering_more():
    r = adjust_for_multiplicity([row("skill_gap", (0.1, 0.08, 0.12), (0.2, 0.18, 0.22),
                                     0.1, 1e-6)])[0]
    assert sentence(r, 1) == "skill matters more (10.0% → 20.0%, +10.0% ±1.0)"


def test_the_summary_says_which_ruleset_rewards_skill_more_with_its_interval():
    skill_run = SimpleNamespace(pairing=SimpleNamespace(skilled_bot="expert",
                                                        bots=("random", "random")))
    outcome = SimpleNamespace(runs=[SimpleNamespace(pairing=SimpleNamespace(skilled_bot=None)),
                                    skill_run])
    more = comparison([row("skill_gap", (0.1, 0.08, 0.12), (0.2, 0.18, 0.22), 0.1, 1e-6)])
    more.outcome = outcome
    assert paragraphs(more)[-1] == (
        "Skill (expert in one seat against random): house rewards skill more than plain: "
        "skill gap 10.0% → 20.0% (+10.0%, 95% interval +9.0% to +11.0%).")
    unclear = comparison([row("skill_gap", (0.1, 0.0, 0.2), (0.12, 0.0, 0.24), 0.005, 0.6)])
    unclear.outcome = outcome
    assert paragraphs(unclear)[-1] == (
        "Skill (expert in one seat against random): neither plain nor house can be said to "
        "reward skill more (the interval holds zero): skill gap 10.0% → 12.0% (+0.5%, 95% "
        "interval -0.5% to +1.5%).")
