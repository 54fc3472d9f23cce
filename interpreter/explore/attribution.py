"""``compare A B --by-rule``: how much of each metric's difference each differing rule causes.

The rules that differ are found in the data (every merged value that differs, grouped
under the rule sheet's key that tells it, the keys ``diff`` prints). Intermediate
rulesets take some of those rules from B and the rest from A; all of them are played
on the same seeds in one pairing, with the features of every ruleset summed side by
side (``RunSettings.joint``), so any contrast between them has a paired interval.

Design (``docs/metrics.md`` says why): up to ``FULL_FACTORIAL_MAX`` rules, every
subset is played (a full factorial) and each rule's share is its exact Shapley value;
above it, ``ORDERS`` orders of the rules (random ones and their reverses) are walked
from A to B and each rule's share is its mean step along them. Either way the shares
add up to B − A exactly. Each rule's effect *alone* (on A) is reported too, and in a
full factorial every pair's interaction.
"""

from __future__ import annotations

import copy
import itertools
import math
import os
import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import yaml
from scipy import stats as sps

from ..diagnostics import Diagnostic, DiagnosticError
from . import stats
from .metrics import Aggregate, Metric, feature_names, metrics_for, shown
from .runner import RunOutcome, RunSettings, run
from .worker import DEFAULT_API, Pairing, game_for

FULL_FACTORIAL_MAX = 4
ORDERS = 4
MAX_RULES = 12
ROUNDING = 1e-12   # relative size below which a contrast is floating-point residue
SKIP = ("name", "title", "description", "source", "extends", "examples")


@dataclass(frozen=True)
class Factor:
    """One differing rule: its key (as ``diff`` names it) and the data paths it covers."""

    key: str
    paths: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Effect:
    """A contrast between design points with its 95% interval and p-values."""

    value: float | None
    low: float | None
    high: float | None
    p: float | None
    p_holm: float | None = None

    @property
    def significant(self) -> bool:
        return self.p_holm is not None and self.p_holm < 1 - stats.LEVEL

    def to_json(self) -> dict:
        return {"value": self.value, "low": self.low, "high": self.high, "p": self.p,
                "p_holm": self.p_holm, "significant": self.significant}


@dataclass
class Attribution:
    labels: tuple[str, str]
    factors: list[Factor]
    design: str                          # "full factorial" or "Shapley sampling"
    points: list[frozenset[int]]
    metrics: list[Metric]
    total: dict[str, Effect] = field(default_factory=dict)
    alone: dict[tuple[str, str], Effect] = field(default_factory=dict)   # (factor, metric)
    share: dict[tuple[str, str], Effect] = field(default_factory=dict)
    interactions: dict[tuple[str, str, str], Effect] = field(default_factory=dict)
    matches: int = 0
    outcome: RunOutcome | None = None


# --- which rules differ -----------------------------------------------------------------


def _leaf_diffs(a: Any, b: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for key in list(a) + [k for k in b if k not in a]:
            if not path and key in SKIP:
                continue
            out += _leaf_diffs(a.get(key, _MISSING), b.get(key, _MISSING), path + (key,))
        return out
    return [] if a == b else [path]


_MISSING = object()


def factors(a_data: dict[str, Any], b_data: dict[str, Any]) -> list[Factor]:
    """The differing data, grouped under the longest rule-sheet key that is its prefix."""
    from ..rules.describe import rule_keys

    table_order = list(rule_keys())
    keys = sorted((tuple(k.split(".")) for k in table_order), key=len, reverse=True)
    groups: dict[str, list[tuple[str, ...]]] = {}
    for leaf in _leaf_diffs(a_data, b_data):
        owner = next((k for k in keys if leaf[:len(k)] == k), leaf)
        groups.setdefault(".".join(owner), []).append(leaf)
    order = {k: i for i, k in enumerate(table_order)}
    return [Factor(k, tuple(v)) for k, v in
            sorted(groups.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))]


# --- the design -----------------------------------------------------------------------


def design(k: int, seed: int) -> tuple[str, list[frozenset[int]], list[tuple[int, ...]]]:
    """Points to play (A = the empty set first, B = every rule second) and the orders
    walked (all of them in a full factorial, where Shapley weights are exact)."""
    everything = frozenset(range(k))
    if k <= FULL_FACTORIAL_MAX:
        subsets = [frozenset(c) for r in range(k + 1) for c in itertools.combinations(range(k), r)]
        points = [frozenset(), everything] + [s for s in subsets if 0 < len(s) < k]
        return "full factorial", points, []
    rng = random.Random(seed)
    orders: list[tuple[int, ...]] = []
    while len(orders) < ORDERS:
        order = list(range(k))
        rng.shuffle(order)
        orders += [tuple(order), tuple(reversed(order))]
    points = [frozenset(), everything] + [frozenset([i]) for i in range(k)]
    for order in orders:
        for j in range(1, k):
            s = frozenset(order[:j])
            if s not in points:
                points.append(s)
    return "Shapley sampling", points, orders


def shapley_weights(k: int, points: list[frozenset[int]], orders: list[tuple[int, ...]],
                    i: int) -> np.ndarray:
    """Coefficients over the points of rule ``i``'s share (exact, or the sampled orders)."""
    index = {p: n for n, p in enumerate(points)}
    c = np.zeros(len(points))
    if not orders:
        for s in points:
            if i in s:
                continue
            w = math.factorial(len(s)) * math.factorial(k - len(s) - 1) / math.factorial(k)
            c[index[s | {i}]] += w
            c[index[s]] -= w
        return c
    for order in orders:
        pre = frozenset(order[:order.index(i)])
        c[index[pre | {i}]] += 1 / len(orders)
        c[index[pre]] -= 1 / len(orders)
    return c


# --- the intermediate rulesets ------------------------------------------------------------


def _set(data: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    node = data
    for part in path[:-1]:
        node = node.setdefault(part, {})
    if value is _MISSING:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = copy.deepcopy(value)


def _get(data: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return _MISSING
        data = data[part]
    return data


def write_point(a_data: dict[str, Any], b_data: dict[str, Any], chosen: list[Factor],
                players: int, directory: str, n: int) -> str:
    """A ruleset file: A's merged data with the chosen rules taken from B, for ``players``."""
    data = {k: copy.deepcopy(v) for k, v in a_data.items() if k != "examples"}
    for f in chosen:
        for path in f.paths:
            _set(data, path, _get(b_data, path))
    data["name"] = f"mix-{n:03d}"
    data["title"] = f"{a_data.get('name', 'A')} with " + ", ".join(f.key for f in chosen)
    data.pop("extends", None)
    data.setdefault("players", {}).update({"min": players, "max": players})
    path = os.path.join(directory, f"point-{n:03d}.yaml")
    with open(path, "w", encoding="utf-8") as fh:
        yaml.safe_dump(data, fh, sort_keys=False, allow_unicode=True)
    return path


# --- run and estimate ---------------------------------------------------------------------


def attribute(a_ref: str, b_ref: str, labels: tuple[str, str], players: int,
              bots: tuple[str, ...], seed: int, matches: int, batch_size: int, backend: Any,
              directory: str, progress: Any = None, api_module: str = DEFAULT_API,
              partnerships: bool = False,
              skill_bots: tuple[str, str] | None = None) -> Attribution:
    """Play the design on shared seeds and split each metric's B − A among the rules.

    With ``skill_bots`` (skilled, others) the skill pairing is played on every point
    too, so the skill rows of compare's table are split as well.
    """
    from ..rules import load_ruleset

    try:
        a_data, b_data = load_ruleset(a_ref).data, load_ruleset(b_ref).data
        fs = factors(a_data, b_data)
        if not fs:
            raise DiagnosticError([Diagnostic(
                "by-rule", f"{labels[0]} and {labels[1]} play by the same rules: nothing to "
                "attribute", hint="compare two rulesets that differ")])
        if len(fs) > MAX_RULES:
            raise DiagnosticError([Diagnostic(
                "by-rule", f"{len(fs)} rules differ; --by-rule splits at most {MAX_RULES}",
                hint="compare through an intermediate ruleset that changes fewer rules")])
        kind, points, orders = design(len(fs), seed)
        refs = [a_ref, b_ref]
        for n, p in enumerate(points[2:]):
            ref = write_point(a_data, b_data, [fs[i] for i in sorted(p)], players, directory, n)
            try:
                game_for(api_module, ref)
            except DiagnosticError as exc:
                names = ", ".join(fs[i].key for i in sorted(p))
                raise DiagnosticError([Diagnostic(
                    "by-rule", f"{labels[0]} with {labels[1]}'s {names} is not a playable "
                    f"ruleset: {exc.diagnostics[0].message}",
                    hint="these rules only make sense together; change them in one file "
                         "first and compare through it")]) from None
            refs.append(ref)
        pairings = [Pairing("by-rule", tuple(refs), players, bots)]
        if skill_bots is not None:
            skilled, others = skill_bots
            pairings.append(Pairing("by-rule skill", tuple(refs), players,
                                    (others,) * players, skilled))
        settings = RunSettings(seed, matches, batch_size=batch_size, api_module=api_module,
                               joint=True)
    except BaseException:
        backend.close()
        raise
    outcome = run(pairings, settings, backend, progress=progress)
    r = outcome.runs[0]
    names = feature_names(players)
    main = [m for m in metrics_for("main", players, partnerships) if shown(m, r.aggs, names)]
    skill = metrics_for("skill", players, partnerships) if skill_bots is not None else []
    result = Attribution(labels, fs, kind, points, main + skill,
                         matches=min(run.n for run in outcome.runs), outcome=outcome)
    _estimate(result, r.joint, len(names), orders, main)
    if skill:
        _estimate(result, outcome.runs[1].joint, len(names), orders, skill)
    _holm(result)
    return result


def _estimate(res: Attribution, joint: Any, dim: int, orders: list[tuple[int, ...]],
              metrics: list[Metric]) -> None:
    """Every contrast of ``metrics`` from one pairing's joint sums (main or skill)."""
    if joint is None or joint.n < 2:
        return
    names = feature_names_from(dim)
    cov = stats.covariance(joint)
    m_points = len(res.points)
    k = len(res.factors)
    index = {p: n for n, p in enumerate(res.points)}
    slices = []
    for n in range(m_points):
        part = Aggregate(dim, joint.n, joint.s1[n * dim:(n + 1) * dim],
                               joint.s2[n * dim:(n + 1) * dim, n * dim:(n + 1) * dim])
        slices.append(part)
    for metric in metrics:
        vg = [stats.point_and_gradient(metric, s, names) for s in slices]
        cells: list[tuple[dict, Any, np.ndarray]] = []
        total = np.zeros(m_points)
        total[0], total[1] = -1, 1
        cells.append((res.total, metric.key, total))
        for i, f in enumerate(res.factors):
            alone = np.zeros(m_points)
            alone[index[frozenset([i])]] += 1
            alone[0] -= 1
            cells.append((res.alone, (f.key, metric.key), alone))
            cells.append((res.share, (f.key, metric.key),
                          shapley_weights(k, res.points, orders, i)))
        if not orders:
            for i, j in itertools.combinations(range(k), 2):
                c = np.zeros(m_points)
                c[index[frozenset([i, j])]] += 1
                c[index[frozenset([i])]] -= 1
                c[index[frozenset([j])]] -= 1
                c[0] += 1
                cells.append((res.interactions,
                              (res.factors[i].key, res.factors[j].key, metric.key), c))
        for target, key, c in cells:
            target[key] = _contrast(c, vg, cov, joint.n, dim)


def feature_names_from(dim: int) -> tuple[str, ...]:
    """The feature layout of a vector of ``dim`` features (``metrics.feature_names``: the
    base features, one per seat, then the mechanisms' counters)."""
    from .metrics import BASE_FEATURES, COUNTED

    return feature_names(dim - len(BASE_FEATURES) - len(COUNTED))


def _contrast(c: np.ndarray, vg: list, cov: np.ndarray, n: int, dim: int) -> Effect:
    """Σ c_s · metric(point s), its paired delta-method interval over the shared seeds."""
    used = [s for s in range(len(c)) if c[s] != 0]
    if any(vg[s][0] is None or vg[s][1] is None for s in used):
        return Effect(None, None, None, None)
    value = sum(c[s] * vg[s][0] for s in used)
    w = np.zeros(cov.shape[0])
    for s in used:
        w[s * dim:(s + 1) * dim] = c[s] * vg[s][1]
    var = float(w @ cov @ w)
    # rulesets that play alike cancel exactly in the maths but not in floating point:
    # a residue far below every term's own size is zero (else "±8.8e-17" gets printed)
    if abs(value) <= ROUNDING * sum(abs(c[s] * vg[s][0]) for s in used):
        value = 0.0
    term_var = max(float(c[s] ** 2 * vg[s][1] @ cov[s * dim:(s + 1) * dim, s * dim:(s + 1) * dim]
                         @ vg[s][1]) for s in used)
    if var <= ROUNDING * term_var:
        var = 0.0
    se = math.sqrt(max(var / n, 0.0))
    if se == 0:
        zero = abs(value) < 1e-12
        return Effect(value, value, value, 1.0 if zero else 0.0)
    half = float(sps.t.ppf(0.5 + stats.LEVEL / 2, n - 1)) * se
    p = float(2 * sps.t.sf(abs(value) / se, n - 1))
    return Effect(value, value - half, value + half, p)


def _holm(res: Attribution) -> None:
    """One family: every rule's share and effect alone, and every interaction."""
    tables = (res.alone, res.share, res.interactions)
    keys = [(t, k) for t in tables for k in t]
    adjusted = stats.holm([t[k].p for t, k in keys])
    for (t, k), p in zip(keys, adjusted, strict=True):
        e = t[k]
        t[k] = Effect(e.value, e.low, e.high, e.p, p)
