"""``simulate``'s summary in words, each rate with its 95% interval (``explore.stats``).

A match is the unit of sampling, as in ``compare``: a side's wins are a proportion of
matches (Wilson interval); rounds per match, blocked rounds per round and draws per
round are ratios of per-match sums (the delta method over matches; a Wilson interval
on the effective trials for the share of blocked rounds, which stays within 0-100%).
"""

from __future__ import annotations

from typing import Any

from . import stats


def estimates(summary: dict[str, Any]) -> dict[str, stats.Estimate | list[stats.Estimate]]:
    """Every interval the summary's sums allow: ``win_rates`` (one per side), ``drawn``,
    ``rounds_per_match``, ``blocked_rate`` and ``draws_per_round``."""
    n, sq = summary["matches"], summary["squares"]
    rounds = (summary["rounds"], sq["rounds2"])
    return {
        "win_rates": [stats.proportion(w, n) for w in summary["wins"]],
        "drawn": stats.proportion(summary["drawn_matches"], n),
        "rounds_per_match": stats.ratio(n, rounds, (n, n), summary["rounds"]),
        "blocked_rate": stats.ratio(n, (summary["blocked_rounds"], sq["blocked2"]), rounds,
                                    sq["rounds_blocked"], within_0_1=True),
        "draws_per_round": stats.ratio(n, (summary["draws"], sq["draws2"]), rounds,
                                       sq["rounds_draws"]),
    }


def intervals_json(summary: dict[str, Any]) -> dict[str, Any]:
    """The intervals for ``--json``: each as ``{"value", "low", "high", "n"}``."""
    return {key: [e.to_json() for e in value] if isinstance(value, list) else value.to_json()
            for key, value in estimates(summary).items()}


def _share(e: stats.Estimate) -> str:
    if e.value is None:
        return "n/a"
    if e.low is None or e.high is None:
        return f"{e.value:.1%}"
    return f"{e.value:.1%}, 95% interval {e.low * 100:.1f}–{e.high * 100:.1f}%"


def _count(e: stats.Estimate) -> str:
    if e.value is None:
        return "n/a"
    if e.low is None or e.high is None:
        return f"{e.value:.2f}"
    half = (e.high - e.low) / 2
    return f"{e.value:.2f} ±{half:.2f}"


def lines(summary: dict[str, Any], names: list[str]) -> list[str]:
    """The summary as the terminal shows it: the run, each side's wins with its share
    and interval, then rounds, blocked rounds and draws (± is a 95% interval)."""
    n, players = summary["matches"], summary["players"]
    est = estimates(summary)
    teams = summary["teams"]
    sides = "side" if len(teams) < players else "seat"
    out = [f"{summary['ruleset']}: {players} players, {n} matches, seed {summary['seed']}, "
           f"bots {','.join(names)}, engine {summary['engine']}",
           f"matches won (of {n}):"]
    for i, team in enumerate(teams):
        who = f" (seats {','.join(map(str, team))})" if len(team) > 1 else ""
        out.append(f"  {sides} {i}{who}: {summary['wins'][i]} "
                   f"({_share(est['win_rates'][i])})")
    if summary["drawn_matches"]:
        out.append(f"  drawn: {summary['drawn_matches']} ({_share(est['drawn'])})")
    if summary["capped_matches"]:
        out.append(f"  stopped undecided at the round cap ({summary['max_rounds']} rounds): "
                   f"{summary['capped_matches']}")
    out += [f"rounds: {summary['rounds']} ({_count(est['rounds_per_match'])} a match)",
            f"blocked rounds: {_share(est['blocked_rate'])}",
            f"draws per round: {_count(est['draws_per_round'])}",
            "±: a 95% interval (matches are the independent units)"]
    return out
