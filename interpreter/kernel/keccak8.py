"""Keccak-f[1600] on eight states at once, as LLVM vectors: what ``shake.permute8`` compiles to.

numba compiles the scalar ``shake.keccak_f1600`` at some 1,100 cycles a permutation; the
same rounds written as ``<8 x i64>`` vector IR, one vector a lane of eight independent
states, permute them in about a tenth of the time each (``bench/keccak.py``: 0.057 us
against 0.54 on an AVX-512 machine, where the rotations become ``vprolq``; elsewhere LLVM
splits the vectors). Imported by ``shake`` only when numba compiles, it registers this
code as numba's implementation of the plain ``permute8`` (which permutes the columns one
by one with ``keccak_f1600``: the reference ``tests/test_kernel_shake.py`` holds it to).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

LANES = 8   # states one call permutes: the columns of a uint64 (25, LANES) array


def rho_offsets() -> list[list[int]]:
    """FIPS 202's rotation of lane (x, y) (3.2.2), as ``[x][y]``."""
    r = [[0] * 5 for _ in range(5)]
    x, y = 1, 0
    for t in range(24):
        r[x][y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return r


def register(plain: Callable, rounds: Sequence[int]) -> None:
    """numba's implementation of ``plain(states)``: the 24 rounds (round constants
    ``rounds``) on the C-contiguous uint64 (25, LANES) ``states``, each row a vector."""
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic, overload

    rho = rho_offsets()
    i64 = ir.IntType(64)
    vec = ir.VectorType(i64, LANES)

    def splat(v: int):
        return ir.Constant(vec, [int(v) & (2 ** 64 - 1)] * LANES)

    @intrinsic
    def permute(_typingctx, states):
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
            for constant in rounds:
                c = [builder.xor(builder.xor(builder.xor(a[x], a[x + 5]),
                                             builder.xor(a[x + 10], a[x + 15])), a[x + 20])
                     for x in range(5)]
                d = [builder.xor(c[(x + 4) % 5], rot(c[(x + 1) % 5], 1)) for x in range(5)]
                b = [None] * 25
                for x in range(5):
                    for y in range(5):   # theta, then rho and pi: (x, y) to (y, 2x + 3y)
                        b[y + 5 * ((2 * x + 3 * y) % 5)] = rot(builder.xor(a[x + 5 * y], d[x]),
                                                               rho[x][y])
                a = [builder.xor(b[i], builder.and_(builder.not_(b[(i + 1) % 5 + i // 5 * 5]),
                                                    b[(i + 2) % 5 + i // 5 * 5]))
                     for i in range(25)]   # chi, then iota
                a[0] = builder.xor(a[0], splat(constant))
            for i in range(25):
                builder.store(a[i], builder.gep(ptr, [ir.Constant(i64, i)]), align=8)
            return context.get_dummy_value()

        return sig, codegen

    def vectors(states):
        if not (isinstance(states, types.Array) and states.ndim == 2 and states.layout == "C"
                and states.dtype == types.uint64):
            return None

        def impl(states):
            permute(states)
        return impl

    overload(plain, jit_options={"_nrt": False})(vectors)   # (jit.njit: refcounts)
