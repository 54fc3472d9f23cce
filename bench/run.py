"""Rounds per second of the generic engine for every builtin variant and player count.

Single process, random bots, records off: whole matches are played (seeds from
``api.match_seed``), so the figure includes dealing, settling and match setup.
The hand-written pagat simulator ``../shared/bench/reference_draw.py`` runs in the
same process, interleaved rep by rep with the engine, and the ratio
engine / reference is printed for pagat (target: at least 0.5). Both are timed
in CPU seconds of this process (``time.process_time``) and the best rep counts,
so other work on a shared machine disturbs the ratio as little as possible.

Usage: python bench/run.py [--json] [--rounds N] [--reps R] [--reference PATH]
                           [--rulesets pagat hoyle ...] [--house]
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dominorules import api  # noqa: E402
from dominorules.engine.game import Game  # noqa: E402
from dominorules.rules import builtin_rulesets  # noqa: E402

VARIANTS = ("pagat", "hoyle", "dutch", "mexican", "vietnamese")


def engine_rate(game, players: int, rounds: int, base_seed: int) -> float:
    """Rounds per second playing whole matches until ``rounds`` rounds are done."""
    done = i = 0
    t0 = time.process_time()
    while done < rounds:
        done += len(api.play_match(game, players, api.match_seed(base_seed, i)).rounds)
        i += 1
    return done / (time.process_time() - t0)


def long_match_rate(game, players: int, rounds: int) -> float:
    """Rounds per second inside one endless match: the round loop without match setup
    (the bot streams, the first shuffle block, the lot, the result) -- for comparison only."""
    endless = Game(dataclasses.replace(game.rules, target=lambda *_: 10 ** 12))
    t0 = time.process_time()
    api.play_match(endless, players, 1, max_rounds=rounds)
    return rounds / (time.process_time() - t0)


def load_reference(path: str | None):
    """The reference module, or None (with a note on stderr) when it is not there."""
    candidates = [path] if path else [str(ROOT.parent / "shared" / "bench" / "reference_draw.py")]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate):
            spec = importlib.util.spec_from_file_location("reference_draw", candidate)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    print(f"reference simulator not found at {candidates[0]} (use --reference PATH)",
          file=sys.stderr)
    return None


def reference_rate(ref, players: int, rounds: int, seed: int) -> float:
    t0 = time.process_time()
    ref.simulate(players, rounds, seed)
    return rounds / (time.process_time() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--rounds", type=int, default=20000, help="rounds per measurement")
    ap.add_argument("--reps", type=int, default=5, help="repetitions (the best counts)")
    ap.add_argument("--reference", help="path of reference_draw.py")
    ap.add_argument("--rulesets", nargs="+", default=list(VARIANTS))
    ap.add_argument("--house", action="store_true", help="also every house ruleset")
    args = ap.parse_args(argv)

    names = list(args.rulesets)
    if args.house:
        names += [b.name for b in builtin_rulesets() if b.name.startswith("house/")]
    ref = load_reference(args.reference)
    rows, ratios = [], []
    for name in names:
        game = api.load_game(name)
        for players in range(game.rules.min_players, game.rules.max_players + 1):
            engine_rate(game, players, max(1, args.rounds // 20), 999)  # warm-up
            best = best_ref = 0.0
            for rep in range(args.reps):
                best = max(best, engine_rate(game, players, args.rounds, 1000 + rep))
                if ref is not None and name == "pagat" and players in (2, 3, 4):
                    best_ref = max(best_ref, reference_rate(ref, players, args.rounds,
                                                            12345 + 10 * rep))
            row = {"engine": "generic", "ruleset": name, "players": players,
                   "rounds_per_s": round(best, 1)}
            rows.append(row)
            if best_ref:
                long = max(long_match_rate(game, players, args.rounds)
                           for _ in range(args.reps))
                rows.append({"engine": "reference", "ruleset": "pagat", "players": players,
                             "rounds_per_s": round(best_ref, 1)})
                ratios.append({"players": players, "ratio": round(best / best_ref, 3),
                               "long_match_ratio": round(long / best_ref, 3)})
    if args.json:
        print(json.dumps({"rows": rows, "pagat_ratio": ratios}))
    else:
        for row in rows:
            print(f"{row['engine']:9} {row['ruleset']:28} {row['players']}p "
                  f"{row['rounds_per_s']:>10,.0f} rounds/s")
        for r in ratios:
            print(f"pagat {r['players']}p: generic / reference = {r['ratio']:.2f} "
                  f"(inside one long match, without per-match setup: "
                  f"{r['long_match_ratio']:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
