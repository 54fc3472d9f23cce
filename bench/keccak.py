"""What a Keccak-f[1600] permutation costs the JIT, and what eight at once would.

``kernel/shake.py``'s ``keccak_f1600`` (the permutation behind every SHAKE-128 stream the
kernels read) against a prototype that permutes eight independent states at once: the
same algorithm written as LLVM vector IR (``<8 x i64>``, one vector a lane of the eight
states) through a numba intrinsic, which on a CPU with AVX-512 becomes ``vprolq`` and
``vpternlogq`` and on others is split into narrower vectors. Both are checked to give
the same states before anything is timed.

The kernel plays one match at a time and squeezes each stream only as far as it is read,
so it permutes one state at a time; the streams of a match (its deals' groups, the seats'
blocks) and of the next matches depend on their seeds alone, so they could be squeezed
eight at a time with identical words -- what this prototype measures the room for.
CPU time of this process, the median of ``--reps`` (each ``--calls`` permutations).

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
from dominorules.kernel.shake import _ROUND, keccak_f1600  # noqa: E402

LANES = 8   # states a call permutes


def rho_offsets() -> list[list[int]]:
    """FIPS 202's rotation of lane (x, y), as ``[x][y]``."""
    r = [[0] * 5 for _ in range(5)]
    x, y = 1, 0
    for t in range(24):
        r[x][y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return r


def make_x8():
    """The numba functions (permute eight states, time N calls of each kind)."""
    from llvmlite import ir
    from numba import njit, types
    from numba.core import cgutils
    from numba.extending import intrinsic

    rho = rho_offsets()
    i64 = ir.IntType(64)
    vec = ir.VectorType(i64, LANES)

    def splat(v: int):
        return ir.Constant(vec, [int(v) & (2 ** 64 - 1)] * LANES)

    @intrinsic
    def permute8(_typingctx, states):
        """Keccak-f[1600] on the uint64 (25, 8) array ``states``: lane i of state l at
        ``[i, l]``, each row one vector."""
        sig = types.void(states)

        def codegen(context, builder, sig, args):
            data = context.make_array(sig.args[0])(context, builder, args[0]).data
            ptr = builder.bitcast(data, vec.as_pointer())
            fshl = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(vec, [vec, vec, vec]), "llvm.fshl.v8i64")

            def rot(v, n):
                return v if n == 0 else builder.call(fshl, [v, v, splat(n)])

            a = [builder.load(builder.gep(ptr, [ir.Constant(i64, i)]), align=8)
                 for i in range(25)]
            for rnd in range(24):
                c = [builder.xor(builder.xor(builder.xor(a[x], a[x + 5]),
                                             builder.xor(a[x + 10], a[x + 15])), a[x + 20])
                     for x in range(5)]
                d = [builder.xor(c[(x + 4) % 5], rot(c[(x + 1) % 5], 1)) for x in range(5)]
                b = [None] * 25
                for x in range(5):
                    for y in range(5):
                        b[y + 5 * ((2 * x + 3 * y) % 5)] = rot(builder.xor(a[x + 5 * y], d[x]),
                                                               rho[x][y])
                a = [builder.xor(b[i], builder.and_(builder.not_(b[(i + 1) % 5 + i // 5 * 5]),
                                                    b[(i + 2) % 5 + i // 5 * 5]))
                     for i in range(25)]
                a[0] = builder.xor(a[0], splat(_ROUND[rnd]))
            for i in range(25):
                builder.store(a[i], builder.gep(ptr, [ir.Constant(i64, i)]), align=8)
            return context.get_dummy_value()

        return sig, codegen

    @njit
    def x8(states):
        permute8(states)

    @njit
    def calls_x8(n: int) -> int:
        states = np.zeros((25, LANES), np.uint64)
        for _ in range(n):
            x8(states)
        return states[0, 0]

    @njit
    def calls_one(n: int) -> int:
        state = np.zeros(25, np.uint64)
        for _ in range(n):
            keccak_f1600(state)
        return state[0]

    return x8, calls_x8, calls_one


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=50000)
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args(argv)
    if not jit.available():
        print("the JIT is off (numba missing or DOMINORULES_NO_JIT set)", file=sys.stderr)
        return 1
    x8, calls_x8, calls_one = make_x8()
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
