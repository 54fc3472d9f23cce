"""Intervals and paired differences agree with the textbook computations in scipy.stats."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from dominorules.explore import stats
from dominorules.explore.metrics import Aggregate, CrossAggregate, Metric, feature_names

NAMES = feature_names(2)
IDX = {n: i for i, n in enumerate(NAMES)}


def aggregate(columns: dict[str, list[int]]) -> tuple[Aggregate, np.ndarray]:
    n = len(next(iter(columns.values())))
    rows = np.zeros((n, len(NAMES)), dtype=np.int64)
    rows[:, IDX["one"]] = 1
    for name, values in columns.items():
        rows[:, IDX[name]] = values
    agg = Aggregate(len(NAMES))
    agg.add_rows(rows)
    return agg, rows


ROUNDS = [3, 5, 4, 4, 7, 2, 5, 6]
TURNS = [40, 71, 50, 61, 90, 22, 66, 80]
MEAN = Metric("rounds_per_match", "?", "rounds", "ratio", "rounds")
RATIO = Metric("turns_per_round", "?", "turns", "ratio", "turns", "rounds")
PROP = Metric("drawn_match_rate", "?", "share", "proportion", "drawn")


def test_a_mean_per_match_gets_the_student_t_interval():
    agg, _ = aggregate({"rounds": ROUNDS})
    est = stats.estimate(MEAN, agg, NAMES)
    low, high = sps.t.interval(0.95, len(ROUNDS) - 1, loc=np.mean(ROUNDS),
                               scale=sps.sem(ROUNDS))
    assert est.value == pytest.approx(4.5)
    assert (est.low, est.high) == (pytest.approx(low), pytest.approx(high))
    assert est.n == 8


def test_a_ratio_gets_the_delta_method_interval_over_matches():
    agg, _ = aggregate({"rounds": ROUNDS, "turns": TURNS})
    est = stats.estimate(RATIO, agg, NAMES)
    r = sum(TURNS) / sum(ROUNDS)
    z = [(t - r * k) / np.mean(ROUNDS) for t, k in zip(TURNS, ROUNDS, strict=True)]
    half = sps.t.ppf(0.975, 7) * np.std(z, ddof=1) / math.sqrt(8)
    assert est.value == pytest.approx(r)
    assert est.half_width == pytest.approx(half)


def test_a_proportion_gets_the_wilson_interval():
    agg, _ = aggregate({"drawn": [1, 0, 0, 1, 1, 0, 0, 0, 1, 1]})
    est = stats.estimate(PROP, agg, NAMES)
    assert est.value == 0.5
    assert (round(est.low, 4), round(est.high, 4)) == (0.2366, 0.7634)


def test_paired_difference_of_means_is_the_paired_t_test():
    other = [r + d for r, d in zip(ROUNDS, [1, 0, 2, 1, 0, 1, 1, 0], strict=True)]
    a, ra = aggregate({"rounds": ROUNDS})
    b, rb = aggregate({"rounds": other})
    cross = CrossAggregate(len(NAMES))
    cross.add_rows(ra, rb)
    diff = stats.difference(MEAN, a, b, cross, NAMES)
    test = sps.ttest_rel(other, ROUNDS)
    assert diff.value == pytest.approx(0.75)
    assert diff.p == pytest.approx(test.pvalue)
    low, high = test.confidence_interval(0.95)
    assert (diff.low, diff.high) == (pytest.approx(low), pytest.approx(high))
    assert diff.significant


def test_pairing_removes_the_noise_the_deals_share():
    # b = a + 1 on every seed: unpaired that would be a wide interval, paired it is exact
    a, ra = aggregate({"rounds": ROUNDS})
    b, rb = aggregate({"rounds": [r + 1 for r in ROUNDS]})
    cross = CrossAggregate(len(NAMES))
    cross.add_rows(ra, rb)
    diff = stats.difference(MEAN, a, b, cross, NAMES)
    assert (diff.value, diff.low, diff.high, diff.significant) == (1.0, 1.0, 1.0, True)


def test_identical_rulesets_differ_by_nothing_significant():
    a, ra = aggregate({"rounds": ROUNDS, "turns": TURNS})
    cross = CrossAggregate(len(NAMES))
    cross.add_rows(ra, ra)
    diff = stats.difference(RATIO, a, a, cross, NAMES)
    assert diff.value == 0 and not diff.significant


def test_sums_are_exact_whatever_the_order_of_batches():
    _, rows = aggregate({"rounds": ROUNDS, "turns": TURNS})
    forward, backward = Aggregate(len(NAMES)), Aggregate(len(NAMES))
    for k in range(0, 8, 3):
        part = Aggregate(len(NAMES))
        part.add_rows(rows[k:k + 3])
        forward.merge(part)
    for k in reversed(range(0, 8, 3)):
        part = Aggregate(len(NAMES))
        part.add_rows(rows[k:k + 3])
        backward.merge(part)
    assert np.array_equal(forward.s2, backward.s2)
    e1, e2 = (stats.estimate(RATIO, g, NAMES) for g in (forward, backward))
    assert (e1.value, e1.low, e1.high) == (e2.value, e2.low, e2.high)


def test_numbers_are_shown_in_their_unit_with_the_interval():
    from dominorules.explore.report import fmt_difference, fmt_estimate

    share = Metric("blocked_rate", "?", "share", "ratio", "blocked", "rounds")
    assert fmt_estimate(share, stats.Estimate(0.2521, 0.2391, 0.2651, 900)) == "25.2% ±1.3"
    assert fmt_estimate(MEAN, stats.Estimate(4.1234, 4.0, 4.2468, 900)) == "4.123 ±0.12"
    assert fmt_estimate(MEAN, stats.Estimate(None, None, None, 0)) == "n/a"
    sig = stats.Difference(1.949, 0.749, 3.149, 0.001, True)
    assert fmt_difference(MEAN, sig) == "+1.949 ±1.2 *"
    flat = stats.Difference(-0.004, -0.03, 0.022, 0.6, False)
    assert fmt_difference(share, flat) == "-0.4% ±2.6"


BLOCKED = Metric("blocked_rate", "?", "share", "ratio", "blocked", "rounds")


def test_a_rare_share_keeps_its_interval_within_0_and_100_percent():
    """One blocked round in 20 matches of 3 rounds: the delta method's ±2.8 points would
    reach below 0%; the share's interval stays within 0-100%, the estimate inside it,
    and the table shows the interval itself (a ± would read as reaching below 0)."""
    from dominorules.explore.report import fmt_estimate

    agg, _ = aggregate({"rounds": [3] * 20, "blocked": [1] + [0] * 19})
    est = stats.estimate(BLOCKED, agg, NAMES)
    assert est.value == pytest.approx(1 / 60)
    assert 0 <= est.low < est.value < est.high < 0.2
    z = [(b - (1 / 60) * 3) / 3 for b in [1] + [0] * 19]   # linearised, per match
    var = np.var(z, ddof=1) / 20
    n_eff = (1 / 60) * (59 / 60) / var
    low, high = stats.wilson(1 / 60, n_eff, sps.t.ppf(0.975, 19))
    assert (est.low, est.high) == (pytest.approx(low), pytest.approx(high))
    assert fmt_estimate(BLOCKED, est) == f"1.7% ({low * 100:.1f}–{high * 100:.1f})"
    common, _ = aggregate({"rounds": [3] * 20, "blocked": [1, 2] * 10})
    assert fmt_estimate(BLOCKED, stats.estimate(BLOCKED, common, NAMES)).startswith("50.0% ±")


def test_an_edge_may_be_negative_and_keeps_its_symmetric_interval():
    edge = Metric("leader_advantage", "?", "share", "ratio", "leader_edge", "sides")
    agg, _ = aggregate({"sides": [2] * 8, "leader_edge": [-1, -1, 1, -1, -1, 1, -1, -1]})
    est = stats.estimate(edge, agg, NAMES)
    assert est.value == pytest.approx(-0.25) and est.low < -0.25 - 0.1
    assert est.high - est.value == pytest.approx(est.value - est.low)
