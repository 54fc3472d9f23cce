"""What a Keccak-f[1600] permutation costs the JIT, one state at a time and eight at once.

``kernel/shake.py``'s ``keccak_f1600`` (the permutation behind every SHAKE-128 stream the
kernels read) against ``shake.permute8``, which the kernels' plain lines call to squeeze
eight matches' first streams at once (``shake.first_streams8``): compiled, the same
rounds as LLVM vector IR (``<8 x i64>``, one vector a lane of the eight states:
``kernel/keccak8.py``), which on a CPU with AVX-512 becomes ``vprolq`` and ``vpternlogq``
and on others is split into narrower vectors. Both are checked to give the same states
before anything is timed. CPU time of this process, the median of ``--reps`` (each
``--calls`` permutations).

Usage: python bench/keccak.py [--calls N] [--reps R]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dominorules.kernel import jit  # noqa: E402
from dominorules.kernel.shake import LANES, keccak_f1600, permute8  # noqa: E402


def make_timers():
    """numba functions (compiled here, uncached): eight states permuted once, and N
    permutations of one state and of eight."""
    from numba import njit

    @njit
    def calls_x8(n: int) -> int:
        states = np.zeros((25, LANES), np.uint64)
        for _ in range(n):
            permute8(states)
        return states[0, 0]

    @njit
    def calls_one(n: int) -> int:
        state = np.zeros(25, np.uint64)
        for _ in range(n):
            keccak_f1600(state)
        return state[0]

    @njit
    def x8(states) -> None:
        permute8(states)

    return x8, calls_x8, calls_one


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=50000)
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args(argv)
    if not jit.available():
        print("the JIT is off (numba missing or DOMINORULES_NO_JIT set)", file=sys.stderr)
        return 1
    x8, calls_x8, calls_one = make_timers()
    states = np.random.default_rng(2).integers(0, 2 ** 63, size=(25, LANES), dtype=np.uint64)
    before = states.copy()
    x8(states)
    for lane in range(LANES):
        one = before[:, lane].copy()
        keccak_f1600(one)
        if not (one == states[:, lane]).all():
            print(f"state {lane}: the eight-state permutation differs", file=sys.stderr)
            return 1
    calls_x8(1)
    calls_one(1)
    per: dict[str, list[float]] = {"one state a call": [], "eight states a call": []}
    for _ in range(args.reps):
        t0 = time.process_time()
        calls_one(args.calls)
        per["one state a call"].append((time.process_time() - t0) / args.calls)
        t0 = time.process_time()
        calls_x8(args.calls)
        per["eight states a call"].append((time.process_time() - t0) / args.calls / LANES)
    one = statistics.median(per["one state a call"])
    for name, got in per.items():
        median = statistics.median(got)
        print(f"{name:20} {median * 1e6:.4f} us a permutation"
              + (f" ({one / median:.1f}x)" if median != one else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
