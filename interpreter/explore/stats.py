"""Estimates, 95% intervals and paired differences, from the integer sums of ``metrics``.

Matches are the independent units. A ratio metric (turns per round ...) gets a
delta-method interval: its linearised value per match has a variance we can read
off the sums, and Student's t (scipy.stats.t) gives the quantile. A proportion of
matches gets a Wilson interval (scipy.stats.binomtest). A difference between two
rulesets played on the same seeds is a paired difference: its variance subtracts
the covariance of the two rulesets' linearised values seed by seed (common random
numbers), so what the shared deals explain does not count as noise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .metrics import Aggregate, CrossAggregate, Metric

LEVEL = 0.95


def _sps():
    """scipy.stats, imported when the first interval is computed: it takes most of a
    second, which `compare` should not spend before its first match."""
    from scipy import stats

    return stats


@dataclass(frozen=True)
class Estimate:
    """A metric's value for one ruleset with its 95% interval (None when undefined)."""

    value: float | None
    low: float | None
    high: float | None
    n: int   # matches (or, for proportions, the matches in the denominator)

    @property
    def half_width(self) -> float | None:
        if self.low is None or self.high is None:
            return None
        return (self.high - self.low) / 2

    def to_json(self) -> dict:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


@dataclass(frozen=True)
class Difference:
    """Ruleset minus the first ruleset on the same seeds, with its 95% interval and p-value."""

    value: float | None
    low: float | None
    high: float | None
    p: float | None
    significant: bool
    p_holm: float | None = None          # p adjusted for every difference in the report
    significant_holm: bool = False       # still significant at 5% after that adjustment

    @property
    def half_width(self) -> float | None:
        if self.low is None or self.high is None:
            return None
        return (self.high - self.low) / 2

    def to_json(self) -> dict:
        return {"value": self.value, "low": self.low, "high": self.high, "p": self.p,
                "significant": self.significant, "p_holm": self.p_holm,
                "significant_holm": self.significant_holm}


def _index(names: tuple[str, ...]) -> dict[str, int]:
    return {n: i for i, n in enumerate(names)}


def covariance(agg: Aggregate) -> np.ndarray:
    """The sample covariance of the feature vectors, computed exactly then as floats."""
    return _centred(agg.n, agg.s1, agg.s1, agg.s2)


def cross_covariance(a: Aggregate, b: Aggregate, cross: CrossAggregate) -> np.ndarray:
    """Covariance between ruleset a's and ruleset b's features over the shared seeds."""
    return _centred(cross.n, a.s1, b.s1, cross.s12)


def _centred(n: int, sa: np.ndarray, sb: np.ndarray, sab: np.ndarray) -> np.ndarray:
    """(n * sum(a b') - sum(a) sum(b)') / (n (n - 1)) in exact integers, then as floats."""
    d = len(sa)
    if n < 2:
        return np.zeros((d, d))
    a = np.array([int(v) for v in sa], dtype=object)
    b = np.array([int(v) for v in sb], dtype=object)
    exact = np.array(sab.tolist(), dtype=object) * n - np.outer(a, b)
    return (exact / (n * (n - 1))).astype(float)


def _seat_rates(agg: Aggregate, idx: dict[str, int]) -> list[tuple[float, int]]:
    seats = sorted(k for k in idx if k.startswith("seat_win_"))
    seats.sort(key=lambda k: int(k.rsplit("_", 1)[1]))
    return [(int(agg.s1[idx[k]]) / agg.n, idx[k]) for k in seats]


def point_and_gradient(
    metric: Metric, agg: Aggregate, names: tuple[str, ...]
) -> tuple[float | None, np.ndarray | None]:
    """The metric's estimate and its gradient with respect to the feature means."""
    idx = _index(names)
    if agg.n == 0:
        return None, None
    mean = [int(v) / agg.n for v in agg.s1]
    grad = np.zeros(len(names))
    if metric.kind == "balance":
        rates = _seat_rates(agg, idx)
        hi = max(rates, key=lambda r: (r[0], -r[1]))
        # the lowest seat that ever won or lost apart from hi: partners (who always
        # win together) are one side, and a seat against itself is no gap
        s2 = agg.s2
        apart = [r for r in rates
                 if s2[hi[1], hi[1]] + s2[r[1], r[1]] - 2 * s2[hi[1], r[1]] > 0]
        if not apart:
            return 0.0, None
        lo = min(apart, key=lambda r: (r[0], r[1]))
        grad[hi[1]] += 1.0
        grad[lo[1]] -= 1.0
        return hi[0] - lo[0], grad
    x, y = idx[metric.num], idx[metric.den]
    if mean[y] == 0:
        return None, None
    value = mean[x] / mean[y]
    grad[x] += 1 / mean[y]
    grad[y] -= mean[x] / mean[y] ** 2
    return value, grad


def _t(df: int) -> float:
    return float(_sps().t.ppf(0.5 + LEVEL / 2, df))


def estimate(
    metric: Metric, agg: Aggregate, names: tuple[str, ...], cov: np.ndarray | None = None
) -> Estimate:
    """The metric on one ruleset's sums, with its 95% interval (``cov``: a cached covariance)."""
    idx = _index(names)
    if metric.kind == "proportion":
        k = int(agg.s1[idx[metric.num]])
        n = int(agg.s1[idx[metric.den]])
        if n == 0:
            return Estimate(None, None, None, 0)
        ci = _sps().binomtest(k, n).proportion_ci(confidence_level=LEVEL, method="wilson")
        return Estimate(k / n, float(ci.low), float(ci.high), n)
    value, grad = point_and_gradient(metric, agg, names)
    if value is None or grad is None or agg.n < 2:
        return Estimate(value, None, None, agg.n)
    cov = covariance(agg) if cov is None else cov
    var = float(grad @ cov @ grad) / agg.n
    if bounded(metric) and metric.kind == "ratio" and var <= 0 and value in (0.0, 1.0):
        # never (or always) in every match: as sure as that many trials make it, no surer
        low, high = wilson(value, float(int(agg.s1[idx[metric.den]])))
    else:
        low, high = _interval(value, var, _t(agg.n - 1), bounded(metric))
    return Estimate(value, low, high, agg.n)


# Features that are edges (a side's wins weighed against its fair share): a ratio over
# them may be negative, unlike the other shares, which count a part of their denominator.
SIGNED_FEATURES = frozenset({"leader_edge", "skill_edge", "round_leader_edge"})


def bounded(metric: Metric) -> bool:
    """True for a share that lies between 0 and 100% (a part of its denominator, or the
    gap between two win rates): its interval must too."""
    return metric.unit == "share" and (metric.kind == "balance" or (
        metric.kind in ("ratio", "proportion") and metric.num not in SIGNED_FEATURES))


def _interval(value: float, var: float, z: float, within_0_1: bool) -> tuple[float, float]:
    """``value ± z·sqrt(var)``; for a share between 0 and 1, a Wilson interval on the
    effective number of independent trials ``value (1 - value) / var`` instead (rounds
    of one match are not independent: that count says how many they are worth), which
    never leaves 0..1 and is not symmetric near its ends."""
    half = z * math.sqrt(max(var, 0.0))
    if not within_0_1:
        return value - half, value + half
    if var > 0 and 0 < value < 1:
        return wilson(value, value * (1 - value) / var, z)
    return max(value - half, 0.0), min(value + half, 1.0)


def wilson(p: float, n: float, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``p`` out of ``n`` trials.

    >>> [round(x, 4) for x in wilson(0.5, 100)]
    [0.4038, 0.5962]
    >>> [round(x, 4) for x in wilson(0.0, 20)]
    [0.0, 0.1611]
    """
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z / n
    centre = (p + z2 / 2) / (1 + z2)
    half = z / (1 + z2) * math.sqrt(p * (1 - p) / n + z2 / (4 * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def proportion(k: int, n: int) -> Estimate:
    """``k`` out of ``n`` independent trials (matches won), with its Wilson interval."""
    if n == 0:
        return Estimate(None, None, None, 0)
    low, high = wilson(k / n, n)     # as ``estimate`` gives a proportion (scipy's Wilson)
    return Estimate(k / n, low, high, n)


def ratio(n: int, x: tuple[int, int], y: tuple[int, int], xy: int,
          within_0_1: bool = False) -> Estimate:
    """mean(x) / mean(y) over ``n`` independent matches, from each one's sums and sums of
    squares (``x = (sum, sum of squares)``) and the sum of products ``xy``: the delta
    method's interval (a Wilson one for a share, ``within_0_1``), as ``estimate`` gives."""
    if n == 0 or y[0] == 0:
        return Estimate(None, None, None, n)
    value = x[0] / y[0]
    if n < 2:
        return Estimate(value, None, None, n)
    mx, my = x[0] / n, y[0] / n
    vxx = (x[1] - n * mx * mx) / (n - 1)
    vyy = (y[1] - n * my * my) / (n - 1)
    vxy = (xy - n * mx * my) / (n - 1)
    var = (vxx - 2 * value * vxy + value * value * vyy) / (my * my) / n
    if within_0_1 and var <= 0 and value in (0.0, 1.0):
        low, high = wilson(value, float(y[0]))
    else:
        low, high = _interval(value, var, _t(n - 1), within_0_1)
    return Estimate(value, low, high, n)


def difference(
    metric: Metric,
    base: Aggregate,
    other: Aggregate,
    cross: CrossAggregate,
    names: tuple[str, ...],
    covs: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> Difference:
    """``other - base`` for rulesets played on the same seeds, paired seed by seed.

    The interval is Student's t on the per-seed difference of the two linearised
    values (for a proportion: the difference of the two 0/1 outcomes per seed).
    ``covs`` caches (base, other, cross) covariances.
    """
    vb, gb = point_and_gradient(metric, base, names)
    vo, go = point_and_gradient(metric, other, names)
    n = cross.n
    if vb is None or vo is None or gb is None or go is None or n < 2:
        return Difference(None, None, None, None, False)
    d = vo - vb
    if covs is None:
        covs = (covariance(base), covariance(other), cross_covariance(base, other, cross))
    cb, co, cx = covs
    var = (float(gb @ cb @ gb) + float(go @ co @ go) - 2 * float(gb @ cx @ go)) / n
    se = math.sqrt(max(var, 0.0))
    if se == 0:
        same = d == 0
        return Difference(d, d, d, 1.0 if same else 0.0, not same)
    half = _t(n - 1) * se
    p = float(2 * _sps().t.sf(abs(d) / se, n - 1))
    return Difference(d, d - half, d + half, p, p < 1 - LEVEL)


def holm(ps: list[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values (None stays None): a family of tests whose
    chance of any false "significant" is at most 5% when each adjusted p < 0.05 is
    marked, whatever the dependence between the tests (metrics share matches).

    >>> holm([0.01, 0.04, None, 0.03])
    [0.03, 0.06, None, 0.06]
    """
    order = sorted((p, i) for i, p in enumerate(ps) if p is not None)
    m = len(order)
    out: list[float | None] = [None] * len(ps)
    running = 0.0
    for rank, (p, i) in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = round(running, 12)
    return out
