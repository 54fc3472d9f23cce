"""Strategist matches per second: the simulation path (``decider``) beside the Observation
path (``choose``, as ``play`` and ``fast=False`` use it) and the ``random`` bot.

Whole matches, every seat a strategist, seeds from ``api.match_seed``; CPU seconds of
this process (``time.process_time``), the median of interleaved repetitions.

Usage: python bench/strategist.py [--json] [--matches N] [--reps R]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dominorules import api  # noqa: E402

CASES = [("pagat", 2), ("pagat", 3), ("pagat", 4), ("mexican", 4), ("house/all-fives", 3)]
PATHS = {"decider": ("strategist", True), "observation": ("strategist", False),
         "random": ("random", True)}


def seconds(game, players: int, matches: int, bots: str, fast: bool) -> float:
    t0 = time.process_time()
    for i in range(matches):
        api.play_match(game, players, api.match_seed(1, i), bots, fast=fast)
    return time.process_time() - t0


def measure(ruleset: str, players: int, matches: int, reps: int) -> dict:
    game = api.load_game(ruleset)
    times: dict[str, list[float]] = {name: [] for name in PATHS}
    for _ in range(reps):
        for name, (bots, fast) in PATHS.items():
            times[name].append(seconds(game, players, matches, bots, fast))
    rates = {name: matches / statistics.median(ts) for name, ts in times.items()}
    return {"ruleset": ruleset, "players": players, "matches": matches,
            "matches_per_second": rates,
            "decider_over_observation": rates["decider"] / rates["observation"],
            "random_over_decider": rates["random"] / rates["decider"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--matches", type=int, default=100, help="matches per measurement")
    ap.add_argument("--reps", type=int, default=3, help="interleaved repetitions (median)")
    args = ap.parse_args(argv)
    results = [measure(r, p, args.matches, args.reps) for r, p in CASES]
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"strategist matches per CPU second, median of {args.reps}")
    for r in results:
        rate = r["matches_per_second"]
        print(f"{r['ruleset']:>16} {r['players']}p: decider {rate['decider']:7.1f}  "
              f"observation {rate['observation']:7.1f} (x{r['decider_over_observation']:.1f})"
              f"  random {rate['random']:7.0f} (x{r['random_over_decider']:.1f} the decider)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
