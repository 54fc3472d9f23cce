"""Benchmark the explorer: its overhead over the engine, its scale-out, its peak memory.

1. The bare engine: ``api.play_match`` (the python engine) in a loop over the same seeds,
   bots and rulesets ``compare`` plays (rounds per second; CPU time of this process,
   best of 3, as ``bench/run.py`` measures the engine), against ``compare --engine
   python`` in this process (one worker): its overhead is the drop in rounds per second.
2. Scaling, for each engine (``python``, ``jit`` when installed) on each backend (the
   process pool of ``--workers N``; a Dask ``LocalCluster`` of single-threaded worker
   processes, warmed by a short compare first, as a cluster outlives one run): a run of
   some five seconds at 1 and at 2 workers, ``--reps`` times interleaved, each in a fresh
   process (``bench/scaleout.py``). The efficiency at 2 workers, medians of the reps, by
   three clocks: ``run``, the run's own (the matches per second ``compare`` reports:
   rate(2) / (2 * rate(1))); ``wall``, the whole compare (loading the rulesets and the
   statistics, which one worker or many do once, included); ``cpu``, the CPU time of every
   process for the same matches, CPU(1) / CPU(2), which a busy machine cannot distort.
3. Peak memory at 2 workers, from 10^3 to 10^6 matches on each backend and engine (the
   python engine's to ``--python-memory-max``, 10^5 by default: 10^6 takes it some four CPU
   minutes): the largest process's peak resident set and the sum of the workers' peaks.
   Running sums, and batches dropped once merged, keep both flat.

Where a scaled-out run's time goes (each batch per worker, the parent's CPU, the kernel
loaded ahead of the fork): ``bench/timeline.py``.

Usage: python bench/compare.py [--rulesets pagat] [--players 2] [--reps 3]
                               [--python-matches 20000] [--jit-matches 300000]
                               [--memory 1000 10000 100000 1000000]
                               [--engines python jit] [--backends processes dask] [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
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


SCALEOUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scaleout.py")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measured(spec: dict) -> dict:
    """One ``compare`` in a fresh process (``bench/scaleout.py``): wall, CPU, peak memory."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [ROOT, *filter(None, [os.environ.get("PYTHONPATH")])])}   # Dask's spawned workers too
    out = subprocess.run([sys.executable, SCALEOUT, json.dumps(spec)], capture_output=True,
                         text=True, env=env)
    if out.returncode:
        sys.exit(f"bench/scaleout.py failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _median(xs: list[float]) -> float:
    xs = sorted(xs)
    mid = len(xs) // 2
    return xs[mid] if len(xs) % 2 else (xs[mid - 1] + xs[mid]) / 2


def scaling(base: dict, matches: dict[str, int], backends: list[str], engines: list[str],
            reps: int) -> list[dict]:
    """Per backend and engine: 1 and 2 workers, ``reps`` times interleaved; the medians of
    the three efficiencies at 2 workers (1 is 1 by definition)."""
    rows = []
    for backend in backends:
        for engine in engines:
            runs: dict[int, list[dict]] = {1: [], 2: []}
            for _ in range(reps):
                for w in (1, 2):
                    runs[w].append(measured({**base, "backend": backend, "engine": engine,
                                             "workers": w, "matches": matches[engine],
                                             "warm": True}))
            one, two = runs[1], runs[2]
            rows.append({
                "backend": backend, "engine": engine, "matches": matches[engine],
                "runs": runs,
                # the run's own clock (compare's matches per second, while simulating)
                "run_seconds": [_median([r["run_seconds"] for r in runs[w]]) for w in (1, 2)],
                "run": _median([a["run_seconds"] / (2 * b["run_seconds"])
                                for a, b in zip(one, two, strict=True)]),
                # the whole compare: loading the rulesets and the statistics included
                "wall": _median([a["wall"] / (2 * b["wall"]) for a, b in zip(one, two,
                                                                              strict=True)]),
                # every process's CPU for the same matches: what a busy machine cannot distort
                "cpu_seconds": [_median([r["cpu"] for r in runs[w]]) for w in (1, 2)],
                "cpu": _median([a["cpu"] / b["cpu"] for a, b in zip(one, two, strict=True)]),
            })
    return rows


def memory(base: dict, sizes: list[int], backends: list[str], engines: list[str],
           python_max: int) -> list[dict]:
    """Peak memory at 2 workers for each size (Python's only up to ``python_max``)."""
    return [measured({**base, "backend": b, "engine": e, "workers": 2, "matches": n})
            for b in backends for e in engines for n in sizes
            if e == "jit" or n <= python_max]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", nargs="+", default=["pagat"])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--overhead-matches", type=int, default=5000,
                    help="matches of the in-process overhead figure (0: skip it)")
    ap.add_argument("--python-matches", type=int, default=20_000,
                    help="matches of a scaling run on the python engine (some 5 s)")
    ap.add_argument("--jit-matches", type=int, default=300_000,
                    help="matches of a scaling run on the JIT (some 5 s)")
    ap.add_argument("--reps", type=int, default=3, help="scaling runs per figure (0: skip them)")
    ap.add_argument("--memory", nargs="*", type=int, default=[10**3, 10**4, 10**5, 10**6],
                    help="match counts whose peak memory is measured (none: skip)")
    ap.add_argument("--python-memory-max", type=int, default=10**5,
                    help="the python engine's memory runs stop at this many matches")
    ap.add_argument("--engines", nargs="+", default=["python", "jit"], choices=["python", "jit"])
    ap.add_argument("--backends", nargs="+", default=["processes", "dask"],
                    choices=["processes", "dask"])
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    report: dict = {"rulesets": a.rulesets, "players": a.players}
    from dominorules.kernel import engines
    game = api.load_game(a.rulesets[0])
    usable = [e for e in a.engines
              if e == "python" or engines.jit_reason(game, a.players, "random") is None]
    backends = [b for b in a.backends if b != "dask" or importlib.util.find_spec("distributed")]
    if a.overhead_matches:
        api.play_match(game, a.players, 0, "random")  # warm up
        # best of 3, interleaved, so a busy neighbour on the machine slows both alike
        bares, ourses = [], []
        for _ in range(3):
            bares.append(bare_engine(a.rulesets, a.players, a.overhead_matches, a.seed))
            ourses.append(explorer(a.rulesets, a.players, a.overhead_matches, a.seed))
        bare = max(bares, key=lambda r: r["rounds_per_s"])
        ours = max(ourses, key=lambda r: r["rounds_per_s"])
        report.update(bare_engine=bare, explorer_in_process=ours,
                      overhead=1 - ours["rounds_per_s"] / bare["rounds_per_s"])
    base = {"rulesets": a.rulesets, "players": a.players, "seed": a.seed}
    report["scaling"] = scaling(base, {"python": a.python_matches, "jit": a.jit_matches},
                                backends, usable, a.reps) if a.reps else []
    report["memory"] = memory(base, a.memory, backends, usable, a.python_memory_max)
    if a.json:
        print(json.dumps(report, indent=2))
        return
    print_report(report, a.reps)


def print_report(report: dict, reps: int) -> None:
    if "bare_engine" in report:
        bare, ours = report["bare_engine"], report["explorer_in_process"]
        print(f"bare engine:        {bare['rounds_per_s']:9.0f} rounds/s "
              f"{bare['matches_per_s']:7.0f} matches/s")
        print(f"explorer, 1 worker: {ours['rounds_per_s']:9.0f} rounds/s "
              f"{ours['matches_per_s']:7.0f} matches/s  overhead {report['overhead']:.1%}")
    if report["scaling"]:
        print(f"scaling efficiency at 2 workers (1 worker: 100%), medians of {reps} "
              "interleaved runs; run = the run's own clock, wall = the whole compare, "
              "cpu = CPU(1) / CPU(2) of every process:")
    for r in report["scaling"]:
        print(f"  {r['backend']:9} {r['engine']:6} {r['matches']:>7} matches: "
              f"run {r['run']:4.0%} wall {r['wall']:4.0%} cpu {r['cpu']:4.0%}   (run "
              f"{r['run_seconds'][0]:.1f} s / {r['run_seconds'][1]:.1f} s, CPU "
              f"{r['cpu_seconds'][0]:.1f} s / {r['cpu_seconds'][1]:.1f} s at 1 / 2 workers)")
    if report["memory"]:
        print("peak memory at 2 workers (largest process; sum of the workers' peaks):")
    for r in report["memory"]:
        print(f"  {r['backend']:9} {r['engine']:6} {r['matches']:>8} matches: "
              f"{r['largest_peak_mb']:6.0f} MB; workers {r['workers_peak_sum_mb']:6.0f} MB  "
              f"({r['wall']:.0f} s)")


if __name__ == "__main__":
    main()
