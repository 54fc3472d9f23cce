"""Benchmark the explorer: matches per second, overhead over the bare engine, peak memory.

1. The bare engine: ``api.play_match`` (the python engine) in a loop over the same seeds,
   bots and rulesets ``compare`` plays (rounds per second; CPU time of this process,
   best of 3, as ``bench/run.py`` measures the engine).
2. ``compare --engine python`` in this process (one worker): the same matches through
   batches, features, running sums and statistics; its overhead is the drop in rounds
   per second.
3. ``dominorules compare`` as a user runs it, with 1 and 2 workers, for each engine
   (``--engine python`` and ``jit`` when installed): matches per second (counting each
   ruleset's match separately), per worker, and the scaling efficiency at 2 workers
   (rate with 2 / twice the rate with 1).
4. Peak memory (max resident set of the run's largest process) of a short and a long
   run: running sums keep it flat however many matches are played.

Usage: python bench/compare.py [--rulesets pagat dutch] [--players 3] [--matches 2000]
                               [--memory-matches 100000] [--engines python jit] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from dominorules import api  # noqa: E402
from dominorules.explore.compare import CompareSettings, compare  # noqa: E402
from dominorules.explore.runner import SerialBackend  # noqa: E402

CLI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli.py")


def bare_engine(rulesets: list[str], players: int, matches: int, seed: int) -> dict:
    games = [api.load_game(r) for r in rulesets]
    rounds = 0
    t0 = time.process_time()
    for i in range(matches):
        s = api.match_seed(seed, i)
        for g in games:
            rounds += len(api.play_match(g, players, s, "random").rounds)
    dt = time.process_time() - t0
    return {"seconds": dt, "rounds": rounds, "rounds_per_s": rounds / dt,
            "matches_per_s": matches * len(games) / dt}


def explorer(rulesets: list[str], players: int, matches: int, seed: int) -> dict:
    settings = CompareSettings(tuple(rulesets), players, matches, seed, skill_bots=None,
                               engine="python")   # the bare engine's: the overhead alone
    t0 = time.process_time()
    c = compare(settings, SerialBackend())
    dt = time.process_time() - t0
    return {"seconds": dt, "rounds": c.outcome.rounds, "rounds_per_s": c.outcome.rounds / dt,
            "matches_per_s": c.outcome.matches / dt}


# Runs a command and prints the largest peak RSS (KiB) among the processes it waited
# for: run in a fresh process, so earlier, larger children cannot mask this one.
_PEAK = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
         "sys.stderr.write(f'PEAK {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}\\n');"
         " sys.exit(r.returncode)")


def cli_run(rulesets: list[str], players: int, matches: int, workers: int,
            engine: str = "auto") -> dict:
    """One ``dominorules compare`` process; its wall time and its largest process's peak RSS."""
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", _PEAK, sys.executable, CLI, "compare", *rulesets,
         "--players", str(players), "--matches", str(matches), "--workers", str(workers),
         "--no-skill", "--json", "--engine", engine],
        capture_output=True, text=True, check=True)
    dt = time.perf_counter() - t0
    peak_kib = int(out.stderr.rsplit("PEAK ", 1)[1].split()[0])
    run = json.loads(out.stdout)["run"]
    return {"engine": engine, "workers": workers, "matches": run["matches"],
            "wall_seconds": dt, "matches_per_s_wall": run["matches"] / dt,
            "matches_per_s_run": run["matches_per_second"],
            "matches_per_s_per_worker": run["matches_per_second"] / workers,
            "peak_rss_mb": round(peak_kib / 1024, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", nargs="+", default=["pagat", "dutch"])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--matches", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--memory-matches", type=int, default=100_000)
    ap.add_argument("--engines", nargs="+", default=["python", "jit"], choices=["python", "jit"])
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    report: dict = {"rulesets": a.rulesets, "players": a.players}
    api.play_match(api.load_game(a.rulesets[0]), a.players, 0, "random")  # warm up
    # best of 3, interleaved, so a busy neighbour on the machine slows both alike
    bares, ourses = [], []
    for _ in range(3):
        bares.append(bare_engine(a.rulesets, a.players, a.matches, a.seed))
        ourses.append(explorer(a.rulesets, a.players, a.matches, a.seed))
    bare = max(bares, key=lambda r: r["rounds_per_s"])
    ours = max(ourses, key=lambda r: r["rounds_per_s"])
    report["bare_engine"] = bare
    report["explorer_in_process"] = ours
    report["overhead"] = 1 - ours["rounds_per_s"] / bare["rounds_per_s"]
    from dominorules.kernel import engines
    usable = [e for e in a.engines if e == "python" or engines.jit_reason(
        api.load_game(a.rulesets[0]), a.players, "random") is None]
    report["cli"] = [cli_run(a.rulesets, a.players, a.matches, w, e)
                     for e in usable for w in (1, 2)]
    report["scaling"] = {}
    for e in usable:
        one, two = (next(r for r in report["cli"] if r["engine"] == e and r["workers"] == w)
                    for w in (1, 2))
        report["scaling"][e] = two["matches_per_s_run"] / (2 * one["matches_per_s_run"])
    small = cli_run(a.rulesets, a.players, 1000, 2)
    big = cli_run(a.rulesets, a.players, a.memory_matches, 2) if a.memory_matches else None
    report["memory"] = {"matches_1000": small, f"matches_{a.memory_matches}": big}
    if a.json:
        print(json.dumps(report, indent=2))
        return
    print(f"bare engine:        {bare['rounds_per_s']:9.0f} rounds/s "
          f"{bare['matches_per_s']:7.0f} matches/s")
    print(f"explorer, 1 worker: {ours['rounds_per_s']:9.0f} rounds/s "
          f"{ours['matches_per_s']:7.0f} matches/s  overhead {report['overhead']:.1%}")
    for r in report["cli"]:
        print(f"dominorules compare --engine {r['engine']} --workers {r['workers']}: "
              f"{r['matches_per_s_wall']:7.0f} matches/s (wall, process start included), "
              f"{r['matches_per_s_run']:7.0f} while simulating, "
              f"{r['matches_per_s_per_worker']:7.0f} per worker")
    for e, eff in report["scaling"].items():
        print(f"scaling efficiency at 2 workers ({e}): {eff:.0%}")
    for label, r in report["memory"].items():
        if r:
            print(f"peak memory, {label}: {r['peak_rss_mb']} MB "
                  f"({r['wall_seconds']:.0f} s)")


if __name__ == "__main__":
    main()
