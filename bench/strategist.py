"""Strategist matches per second: the simulation path (``decider``) beside the Observation
path (``choose``, as ``play`` and ``fast=False`` use it) and the ``random`` bot.

Whole matches, every seat a strategist, seeds from ``api.match_seed``; CPU seconds of
this process (``time.process_time``), the median of interleaved repetitions.

``--baseline PATH`` (a checkout of another edition, e.g. the first strategist's,
``git worktree add /tmp/first 611f60a``) also times that edition's strategist on the same
matches, in a child process per repetition interleaved with the others (its own CPU
seconds, game loaded first), and prints the ratio of the decider's speed to it. A ruleset
the other edition does not have is reported as missing.

Usage: python bench/strategist.py [--json] [--matches N] [--reps R] [--baseline PATH]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
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


# run in a child process with the other checkout first on sys.path: its CPU seconds for
# the strategist's matches (its package is ``dominorules``, or ``interpreter`` in the first
# editions), or nothing when it has no such ruleset
BASELINE = """
import sys, time
sys.path.insert(0, sys.argv[1])
try:
    from dominorules import api
except ImportError:
    from interpreter import api
ruleset, players, matches = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
try:
    game = api.load_game(ruleset)
except Exception:
    raise SystemExit(3)
api.play_match(game, players, api.match_seed(2, 0), "strategist")   # warm up
t0 = time.process_time()
for i in range(matches):
    api.play_match(game, players, api.match_seed(1, i), "strategist")
print(time.process_time() - t0)
"""


def baseline_seconds(path: str, ruleset: str, players: int, matches: int) -> float | None:
    """The other checkout's CPU seconds for the same matches, or None without the ruleset."""
    done = subprocess.run([sys.executable, "-c", BASELINE, path, ruleset, str(players),
                           str(matches)], capture_output=True, text=True, cwd=path)
    if done.returncode == 3:
        return None
    if done.returncode:
        raise SystemExit(f"the baseline at {path} failed:\n{done.stderr}")
    return float(done.stdout)


def measure(ruleset: str, players: int, matches: int, reps: int,
            baseline: str | None = None) -> dict:
    game = api.load_game(ruleset)
    api.play_match(game, players, api.match_seed(2, 0), "strategist")   # warm up
    times: dict[str, list[float]] = {name: [] for name in PATHS}
    base: list[float] = []
    for _ in range(reps):
        for name, (bots, fast) in PATHS.items():
            times[name].append(seconds(game, players, matches, bots, fast))
        if baseline is not None:
            t = baseline_seconds(baseline, ruleset, players, matches)
            if t is None:
                break
            base.append(t)
    rates = {name: matches / statistics.median(ts) for name, ts in times.items()}
    result = {"ruleset": ruleset, "players": players, "matches": matches,
              "matches_per_second": rates,
              "decider_over_observation": rates["decider"] / rates["observation"],
              "random_over_decider": rates["random"] / rates["decider"]}
    if baseline is not None:
        rate = matches / statistics.median(base) if base else None
        result["baseline_matches_per_second"] = rate
        result["decider_over_baseline"] = rates["decider"] / rate if rate else None
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--matches", type=int, default=100, help="matches per measurement")
    ap.add_argument("--reps", type=int, default=3, help="interleaved repetitions (median)")
    ap.add_argument("--baseline", metavar="PATH",
                    help="a checkout of another edition: its strategist's speed and the ratio")
    args = ap.parse_args(argv)
    baseline = str(Path(args.baseline).resolve()) if args.baseline else None
    if baseline is not None and not (Path(baseline) / "interpreter").is_dir():
        ap.error(f"--baseline {args.baseline}: not a checkout (no interpreter/ folder in it)")
    results = [measure(r, p, args.matches, args.reps, baseline) for r, p in CASES]
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"strategist matches per CPU second, median of {args.reps}")
    for r in results:
        rate = r["matches_per_second"]
        print(f"{r['ruleset']:>16} {r['players']}p: decider {rate['decider']:7.1f}  "
              f"observation {rate['observation']:7.1f} (x{r['decider_over_observation']:.1f})"
              f"  random {rate['random']:7.0f} (x{r['random_over_decider']:.1f} the decider)")
        if baseline is not None:
            base = r["baseline_matches_per_second"]
            print(f"{'':>20} baseline {base:7.1f}  (decider x{r['decider_over_baseline']:.1f})"
                  if base else f"{'':>20} baseline: no such ruleset there")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
