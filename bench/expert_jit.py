"""The expert's CPU time per move with its playouts on the JIT and on the Python engine.

The same real choices (those of strategists' matches, seat by seat) are analysed by two
experts, one whose playouts the JIT plays (``kernel.jit_continuation``) and one whose
playouts ``continue_round`` plays; their analyses must be the same, and the bench says
so. The two run interleaved, ``--reps`` times (the order swapped each time), and the
median of each one's mean CPU time per move is printed. Printed, never asserted: a
measurement, not a test. A ruleset whose playouts stay on Python (a rule the expert
plays as the strategist) shows the same time twice, and says why; under house rules the
positions their kernel does not follow (a round's first tile, a draw seen before it:
``jit_continuation.follows``) stay on Python within the JIT's figure.

Usage: python bench/expert_jit.py [--rulesets pagat,house/all-fives] [--players 2]
                                  [--matches 2] [--playouts 64] [--reps 5]
                                  [--rollout strategist|greedy|random]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dominorules import api  # noqa: E402
from dominorules.bots import expert  # noqa: E402
from dominorules.bots.strategist import StrategistBot  # noqa: E402
from dominorules.kernel import engines  # noqa: E402


def choices(game, players: int, matches: int) -> list:
    """(seat, observation, legal) at every real choice of strategists' matches."""
    out = []
    for seed in range(matches):
        state = game.new_match(players, seed=seed)
        bots = [StrategistBot(s, api.bot_rng(seed, s)) for s in range(players)]
        while not state.is_terminal:
            seat = state.current_player
            obs, legal = state.observation(seat), state.legal_actions()
            if len([a for a in legal if a.kind != "pass"]) > 1:
                out.append((seat, obs, legal))
            state.apply(bots[seat].choose(obs, legal))
    return out


def timed(bots, moves, on_jit: bool, playouts_on: list) -> tuple[float, list]:
    """Mean CPU ms per move, and the analyses, with the JIT's continuations on or off."""
    expert._jit_playouts[:] = playouts_on if on_jit else []
    got = []
    start = time.process_time()
    for i, (seat, obs, legal) in enumerate(moves):
        bots[seat].rng.seed(i)
        got.append(bots[seat].analyse(obs, legal))
    return (time.process_time() - start) * 1000 / len(moves), got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", default="pagat,house/all-fives")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--matches", type=int, default=2)
    ap.add_argument("--playouts", type=int, default=expert.DEFAULT_PLAYOUTS)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--rollout", default="strategist", choices=tuple(expert.ROLLOUTS))
    args = ap.parse_args()
    playouts_on = list(expert._jit_playouts)
    for name in args.rulesets.split(","):
        game = api.load_game(name)
        n = args.players
        why = engines.expert_playouts_reason(game, n)
        moves = choices(game, n, args.matches)
        jit_bots = [expert.ExpertBot(s, random.Random(), playouts=args.playouts,
                                     rollout=args.rollout) for s in range(n)]
        py_bots = [expert.ExpertBot(s, random.Random(), playouts=args.playouts,
                                    rollout=args.rollout) for s in range(n)]
        timed(jit_bots, moves[:2], True, playouts_on)   # the kernel loaded (or compiled)
        on, off, same = [], [], True
        for rep in range(args.reps):
            order = (True, False) if rep % 2 == 0 else (False, True)
            got = {}
            for flag in order:
                ms, got[flag] = timed(jit_bots if flag else py_bots, moves, flag, playouts_on)
                (on if flag else off).append(ms)
            same = same and got[True] == got[False]
        a, b = statistics.median(on), statistics.median(off)
        print(f"{name} ({n} players, {len(moves)} moves, {args.playouts} playouts, "
              f"{args.rollout} rollouts, "
              f"{args.reps} interleaved reps): expert {a:.1f} ms of CPU a move with the "
              f"JIT's playouts, {b:.1f} ms on Python ({b / a:.1f}x); analyses "
              f"{'identical' if same else 'DIFFERENT'}"
              + (f"; the playouts stay on Python: {why}" if why else ""))
    expert._jit_playouts[:] = playouts_on


if __name__ == "__main__":
    main()
