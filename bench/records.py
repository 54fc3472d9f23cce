"""The cost of records: ``simulate`` with a record file against the same run without one.

For each case, the same matches are simulated (``api.simulate``, seeds from
``api.match_seed``) without a record, with one written by each encoder (``orjson`` when
the ``fast`` extra is installed, the fallback without it, and one ``json.dumps`` call
per event as records were written before), and with the events built but not written
(the engine's share), interleaved rep by rep.
CPU seconds of this process (``time.process_time``), the median of the reps; the ratio
is each run with records over the run without (target: at most 1.5).

Usage: python bench/records.py [--json] [--matches N] [--reps R]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dominorules import api, record_lines  # noqa: E402

CASES = [("pagat", 3, "random"), ("pagat", 2, "greedy"), ("mexican", 4, "random"),
         ("house/all-fives", 2, "random"), ("pagat", 3, "strategist")]


def _per_event_dumps(events) -> str:
    return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)


def _nothing(events) -> str:
    return ""


# "events only" builds the records but writes nothing: what the engine's event dicts
# cost by themselves, the floor any encoder stands on
ENCODERS = {"events only, nothing written": _nothing,
            "json.dumps per event (before)": _per_event_dumps,
            "templates + json's C encoder": record_lines.encode_standard}
if record_lines.orjson is not None:
    ENCODERS["orjson"] = record_lines._encode_orjson


def timed(game, players: int, matches: int, bots: str, path: str | None) -> float:
    t0 = time.process_time()
    api.simulate(game, players, matches, 1, bots, path)
    return time.process_time() - t0


def measure(ruleset: str, players: int, bots: str, matches: int, reps: int) -> dict:
    game = api.load_game(ruleset)
    if bots == "strategist":
        matches = max(1, matches // 20)  # a slow bot: fewer matches, same ratio
    times: dict[str, list[float]] = {"off": []} | {name: [] for name in ENCODERS}
    saved = record_lines._ENCODE
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "r.jsonl")
        timed(game, players, max(1, matches // 10), bots, path)  # warm up every cache
        try:
            for _ in range(reps):
                times["off"].append(timed(game, players, matches, bots, None))
                for name, encoder in ENCODERS.items():
                    record_lines._ENCODE = encoder
                    times[name].append(timed(game, players, matches, bots, path))
        finally:
            record_lines._ENCODE = saved
    median = {name: statistics.median(ts) for name, ts in times.items()}
    return {"ruleset": ruleset, "players": players, "bots": bots, "matches": matches,
            "seconds": median,
            "ratio": {name: median[name] / median["off"] for name in ENCODERS}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--matches", type=int, default=1000, help="matches per measurement")
    ap.add_argument("--reps", type=int, default=5, help="interleaved repetitions (median)")
    args = ap.parse_args(argv)
    results = [measure(r, p, b, args.matches, args.reps) for r, p, b in CASES]
    if args.json:
        print(json.dumps({"backend": record_lines.BACKEND, "cases": results}, indent=2))
        return 0
    print(f"records: encode_events uses {record_lines.BACKEND}; CPU seconds, median of "
          f"{args.reps}; ratio = with records / without")
    for r in results:
        print(f"\n{r['ruleset']}, {r['players']} players, {r['bots']}, {r['matches']} matches:"
              f" {r['seconds']['off']:.3f} s without records")
        for name in ENCODERS:
            print(f"  {name:32} {r['seconds'][name]:.3f} s  x{r['ratio'][name]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
