"""Rounds per CPU-second of each engine, for every builtin ruleset and player count.

Single process, random bots (``--bots``: another builtin bot at every seat, e.g. the
strategist), records off, whole matches (seeds from ``api.match_seed``, their derivation
included), so a figure includes dealing, settling and match setup:

- ``python``: ``api.play_match`` -- the ruleset's compiled Python kernel
  (``kernel.python_kernel`` specialised, or the match loop's own source specialised, for a
  ruleset it does not cover);
- ``jit``: the numba kernel (when ``dominorules[fast]`` is installed and the ruleset
  allows it), batches of seeds as ``simulate`` plays them;
- ``reference``: the hand-written pagat simulator ``../shared/bench/reference_draw.py``
  (or ``--reference PATH``), for pagat at 2-4 players.

The engines run interleaved rep by rep; CPU seconds of this process
(``time.process_time``); the median of the reps counts. Printed: rounds/s, actions/s
(placements + draws + passes), each engine over the reference (pagat), the JIT over the
python engine on the same ruleset and bots, and each ruleset's per-action speed over
pagat's at the same player count (python engine).

``--rulesets`` takes names and three group words: ``variants`` (the five variants, the
default), ``house`` (five house rulesets, one a mechanism family: a spinner, play-time
scoring, muggins' scoring on the ends, an opening condition, an extra turn) and
``house-jit`` (the house rulesets the JIT plays), so "no engine slower than before" can be
measured on all with one command. A JIT row also gives its first call's wall-clock time:
compiling the kernel on a cold cache (the house-jit rulesets share one), else loading it;
wall clock and this process's CPU seconds.

Usage: python bench/run.py [--json] [--rounds N] [--reps R] [--reference PATH]
                           [--rulesets variants house pagat ...] [--house]
                           [--engines python jit] [--bots strategist]

``python bench/run.py --bots strategist --rulesets pagat mexican --rounds 4000`` gives
the strategist's figure: the strategist on the JIT over the strategist on Python.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dominorules import api  # noqa: E402
from dominorules.kernel import engines  # noqa: E402
from dominorules.kernel.seeds import match_seeds  # noqa: E402
from dominorules.rules import builtin_rulesets  # noqa: E402

VARIANTS = ("pagat", "hoyle", "dutch", "mexican", "vietnamese")
# one house ruleset for each family of mechanisms the kernels write out
HOUSE = ("house/spinner", "house/all-fives", "house/muggins", "house/double-opening",
         "house/doubles-play-again")
# the house rulesets the JIT plays (house rules of a round's end, the match's end, the deal,
# the lead or the opening, the direction of play, placement restrictions, the spinner, a
# fit rule, declarations and the showdown: one compiled kernel for them all)
HOUSE_JIT = ("house/block-charges-own", "house/blocker-leads", "house/boneyard-to-dominoer",
             "house/double-blank-bonus", "house/double-domino-bonus", "house/double-opening",
             "house/exact-target", "house/first-round-highest-double", "house/first-to-three",
             "house/fixed-rounds", "house/four-doubles-redeal", "house/heaviest-opens",
             "house/last-two-block", "house/low-score-wins", "house/lowest-side-takes-round",
             "house/minimum-to-start", "house/no-blanks", "house/shutout-pays-double",
             "house/play-to-the-right", "house/double-blank-last",
             "house/spinner", "house/matador", "house/matador-nine",
             "house/turned-up-starter", "house/leftover-to-leader", "house/side-out",
             "house/two-sets", "house/blind-hughie",
             "house/muggins-called", "house/partner-sets", "house/passed-and-could-play")
GROUPS = {"variants": VARIANTS, "house": HOUSE, "house-jit": HOUSE_JIT}


def expand(names: list[str]) -> list[str]:
    """Ruleset names with the group words replaced by their members, each name once.

    >>> expand(["pagat", "house"])[:3]
    ['pagat', 'house/spinner', 'house/all-fives']
    """
    out: list[str] = []
    for name in names:
        for member in GROUPS.get(name, (name,)):
            if member not in out:
                out.append(member)
    return out


def python_rate(game, players: int, rounds: int, base_seed: int, bots: str = "random"
                ) -> tuple[float, float]:
    """(rounds/s, actions/s) playing whole matches until ``rounds`` rounds are done."""
    done = i = 0
    t0 = time.process_time()
    while done < rounds:
        done += len(api.play_match(game, players, api.match_seed(base_seed, i), bots).rounds)
        i += 1
    seconds = time.process_time() - t0
    # the same matches again, untimed, for their actions (keeping every result alive while
    # timing would time the garbage collector too)
    actions = sum(r.placements + r.draws + r.passes for k in range(i)
                  for r in api.play_match(game, players, api.match_seed(base_seed, k),
                                          bots).rounds)
    return done / seconds, actions / seconds


def jit_rate(game, players: int, rounds: int, base_seed: int, per_round: float,
             bots: str = "random") -> tuple[float, float]:
    """The same for the JIT: matches enough for about ``rounds`` rounds, in batches."""
    from dominorules.kernel.jit_template import ROUND_COLUMNS
    cols = [ROUND_COLUMNS.index(c) for c in ("placements", "draws", "passes")]
    matches = max(1, int(rounds / per_round))
    done = actions = 0
    t0 = time.process_time()
    seeds = match_seeds(base_seed, 0, matches)   # as simulate derives them for the JIT
    for _, _, rows in engines.jit_batches(game, players, seeds, bots):
        done += len(rows)
        actions += int(rows[:, cols].sum())
    seconds = time.process_time() - t0
    return done / seconds, actions / seconds


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


def measure(name: str, players: int, args, ref) -> list[dict]:
    """Every engine's row for one ruleset and player count, interleaved rep by rep."""
    game, bots = api.load_game(name), args.bots
    use_jit = "jit" in args.engines and engines.jit_reason(game, players, bots) is None
    warm = python_rate(game, players, max(1, args.rounds // 20), 999, bots)
    per_round = 1.0
    first_call = None
    if use_jit:   # the first call compiles or loads the kernel: timed apart (wall clock)
        t0, c0 = time.perf_counter(), time.process_time()
        engines.jit_results(game, players, [api.match_seed(998, i) for i in range(20)], bots)
        match_seeds(998, 0, 2)   # numba's too: a cold cache compiles it here, not in a rep
        first_call = (round(time.perf_counter() - t0, 2), round(time.process_time() - c0, 2))
        per_round = statistics.mean(len(api.play_match(game, players, api.match_seed(997, i),
                                                       bots).rounds) for i in range(50))
    rates: dict[str, list[tuple[float, float]]] = {"python": [], "jit": [], "reference": []}
    # the reference plays random bots: it is measured beside them only
    with_ref = ref is not None and name == "pagat" and players in (2, 3, 4) and bots == "random"
    for rep in range(args.reps):
        if "python" in args.engines:
            rates["python"].append(python_rate(game, players, args.rounds, 1000 + rep, bots))
        if use_jit:
            rates["jit"].append(jit_rate(game, players, args.rounds * 10, 1000 + rep,
                                         per_round, bots))
        if with_ref:
            rates["reference"].append((reference_rate(ref, players, args.rounds,
                                                      12345 + 10 * rep), 0.0))
    del warm
    rows = []
    for engine, got in rates.items():
        if got:
            rows.append({"engine": engine, "ruleset": name, "players": players, "bots": bots,
                         "rounds_per_s": round(statistics.median(r for r, _ in got), 1),
                         "actions_per_s": round(statistics.median(a for _, a in got), 1)
                         if engine != "reference" else None})
            if engine == "jit":   # compiling the kernel, or loading it from the cache
                rows[-1]["first_call_s"] = first_call
    return rows


def ratios(rows: list[dict]) -> list[dict]:
    """Engine over reference (pagat), and per-action speed over pagat's (python engine)."""
    by = {(r["engine"], r["ruleset"], r["players"]): r for r in rows}
    out = []
    for r in rows:
        if r["engine"] == "reference":
            continue
        entry = {"engine": r["engine"], "ruleset": r["ruleset"], "players": r["players"]}
        ref = by.get(("reference", "pagat", r["players"]))
        if r["ruleset"] == "pagat" and ref:
            entry["over_reference"] = round(r["rounds_per_s"] / ref["rounds_per_s"], 3)
        python = by.get(("python", r["ruleset"], r["players"]))
        if r["engine"] == "jit" and python:
            entry["over_python"] = round(r["rounds_per_s"] / python["rounds_per_s"], 2)
        base = by.get((r["engine"], "pagat", r["players"]))
        if base and base["actions_per_s"]:
            entry["actions_over_pagat"] = round(r["actions_per_s"] / base["actions_per_s"], 3)
        out.append(entry)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--rounds", type=int, default=20000, help="rounds per measurement "
                    "(the JIT plays ten times as many)")
    ap.add_argument("--reps", type=int, default=5, help="repetitions (the median counts)")
    ap.add_argument("--reference", help="path of reference_draw.py")
    ap.add_argument("--rulesets", nargs="+", default=["variants"], metavar="NAME",
                    help="rulesets to measure: builtin names or paths, or the groups "
                    f"'variants' ({', '.join(VARIANTS)}), 'house' ({', '.join(HOUSE)}) and "
                    "'house-jit' (the house rulesets the JIT plays); default: variants")
    ap.add_argument("--house", action="store_true", help="also every house ruleset")
    ap.add_argument("--engines", nargs="+", default=["python", "jit"],
                    choices=["python", "jit"])
    ap.add_argument("--bots", default="random", choices=["random", "greedy", "strategist"],
                    help="the bot at every seat (default: random)")
    args = ap.parse_args(argv)

    names = expand(list(args.rulesets))
    if args.house:
        names = expand(names + [b.name for b in builtin_rulesets()
                                if b.name.startswith("house/")])
    if "jit" in args.engines and engines.jit_reason(api.load_game("pagat"), 3, args.bots):
        print("jit: " + engines.jit_reason(api.load_game("pagat"), 3, args.bots),
              file=sys.stderr)
    ref = load_reference(args.reference)
    rows = []
    for name in names:
        game = api.load_game(name)
        for players in range(game.rules.min_players, game.rules.max_players + 1):
            try:
                game.check_players(players)
            except Exception:
                continue
            rows += measure(name, players, args, ref)
    table = ratios(rows)
    if args.json:
        print(json.dumps({"rows": rows, "ratios": table}))
        return 0
    for row in rows:
        actions = f"{row['actions_per_s']:>12,.0f} actions/s" if row["actions_per_s"] else ""
        first = (f"  first call {row['first_call_s'][0]:.1f} s "
                 f"({row['first_call_s'][1]:.1f} s CPU)" if row.get("first_call_s") else "")
        print(f"{row['engine']:9} {row['bots']:10} {row['ruleset']:34} {row['players']}p "
              f"{row['rounds_per_s']:>11,.0f} rounds/s {actions}{first}")
    for r in table:
        parts = []
        if "over_reference" in r:
            parts.append(f"{r['over_reference']:.2f}x the reference")
        if "over_python" in r:
            parts.append(f"{r['over_python']:.1f}x the python engine")
        if "actions_over_pagat" in r and r["ruleset"] != "pagat":
            parts.append(f"per action {r['actions_over_pagat']:.2f} of pagat's")
        if parts:
            print(f"{r['engine']:6} {r['ruleset']} {r['players']}p: {', '.join(parts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
