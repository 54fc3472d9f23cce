"""A mechanism's kernel piece (``engine.pieces``) as the JIT calls it, written once for the
differential tests beside each mechanism's: compiled by numba into a caller, as a kernel
compiles it, once ``kernel/jit.py`` has registered it."""

from __future__ import annotations

from collections.abc import Callable


def compiled_caller(fn: Callable) -> Callable:
    """An njit function calling the piece ``fn`` with its own arguments (no cache): numba
    compiles ``fn``'s body into it through the registration, as into a kernel. The
    caller skips without numba or with ``DOMINORULES_NO_JIT`` set."""
    import numba

    from dominorules.kernel import jit

    assert jit.available()

    @numba.njit(cache=False)
    def call(*args):
        return fn(*args)
    return call
