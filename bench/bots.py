"""How strong is the ``expert``? Head-to-head win rates on paired deals, with 95% intervals.

For each ruleset and opponent, pair ``i`` plays two matches on the same seed (so the
same deals): the expert's side in the first seats of each side, then the sides
swapped. The expert's score is its share of the matches (a drawn match counts
half), with a Wilson 95% interval over the matches played; "significant" means the
interval lies above one half. Printed, never asserted: a measurement, not a test.

"Seconds per move" is the expert's CPU time per real choice (two legal actions or
more), the time ``analyse`` takes; the cell's CPU seconds include its opponents'.

Usage: python bench/bots.py [--pairs N] [--playouts P] [--expert SPEC] [--rulesets a,b]
                            [--opponents a,b] [--players N] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dominorules import api  # noqa: E402
from dominorules.bots.expert import ExpertBot  # noqa: E402

VARIANTS = ("pagat", "hoyle", "dutch", "mexican", "vietnamese")
HOUSE = ("house/spinner", "house/all-fives", "house/double-opening", "house/double-blank-last",
         "house/doubles-play-again")   # a spinner, play-time scoring, an opening condition,
                                       # a placement restriction, extra turns
OPPONENTS = ("strategist", "greedy", "random")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class _Clock:
    """The CPU time the expert spends deciding, and its real choices, over a cell."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.moves = 0

    def __enter__(self) -> _Clock:
        original = self.original = ExpertBot.analyse

        def timed(bot, obs, legal):
            t0 = time.process_time()
            try:
                return original(bot, obs, legal)
            finally:
                self.seconds += time.process_time() - t0
                self.moves += 1
        ExpertBot.analyse = timed
        return self

    def __exit__(self, *_) -> None:
        ExpertBot.analyse = self.original


def head_to_head(ruleset: str, opponent: str, pairs: int, expert: str,
                 players: int | None = None, seed: int = 1) -> dict:
    """The expert's share of ``2 * pairs`` matches against ``opponent`` on paired deals."""
    game = api.load_game(ruleset)
    n = players or game.rules.min_players
    sides = game.teams(n)
    score = 0.0
    t0 = time.process_time()
    with _Clock() as clock:
        score = _pairs(game, n, sides, opponent, pairs, expert, seed)
    matches = 2 * pairs
    low, high = wilson(score, matches)
    return {"ruleset": ruleset, "opponent": opponent, "players": n, "matches": matches,
            "expert_share": score / matches, "low": low, "high": high,
            "significant": low > 0.5, "cpu_seconds": time.process_time() - t0,
            "seconds_per_move": clock.seconds / max(1, clock.moves)}


def _pairs(game, n: int, sides, opponent: str, pairs: int, expert: str, seed: int) -> float:
    """The expert's points over ``pairs`` paired matches (a drawn match counts half)."""
    score = 0.0
    for i in range(pairs):
        match_seed = api.match_seed(seed, i)
        for expert_side in (0, 1):
            bots = [opponent] * n
            for s in sides[expert_side % len(sides)]:
                bots[s] = expert
            result = api.play_match(game, n, match_seed, bots)
            if result.winner is None:
                score += 0.5
            elif result.winner == expert_side % len(sides):
                score += 1.0
    return score


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=20, help="paired deals per cell (2 matches each)")
    ap.add_argument("--playouts", type=int, default=None,
                    help="the expert's playouts (default: its own default)")
    ap.add_argument("--expert", default=None,
                    help="the expert's full spec, e.g. expert:playouts=32:rollout=greedy")
    ap.add_argument("--rulesets", default=",".join(VARIANTS + HOUSE))
    ap.add_argument("--opponents", default=",".join(OPPONENTS))
    ap.add_argument("--players", type=int, default=None, help="default: each ruleset's fewest")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    expert = args.expert or ("expert" if args.playouts is None
                             else f"expert:playouts={args.playouts}")
    rows = []
    for ruleset in args.rulesets.split(","):
        for opponent in args.opponents.split(","):
            row = head_to_head(ruleset, opponent, args.pairs, expert, args.players, args.seed)
            rows.append(row)
            if not args.json:
                mark = "significant" if row["significant"] else "not significant"
                print(f"{ruleset:>22} {row['players']}p vs {opponent:<10} "
                      f"{100 * row['expert_share']:5.1f}% [{100 * row['low']:5.1f}, "
                      f"{100 * row['high']:5.1f}] of {row['matches']} ({mark}, "
                      f"{row['cpu_seconds']:.0f} s, "
                      f"{1000 * row['seconds_per_move']:.0f} ms a move)",
                      flush=True)
    if args.json:
        print(json.dumps({"expert": expert, "pairs": args.pairs, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
