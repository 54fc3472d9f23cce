"""The kernels' one switch between numba and plain Python: the ``njit`` decorator.

``njit`` compiles with numba (``cache=True`` so the compiled code is kept on disk and
reused by later runs and workers, ``nogil=True`` so threads run side by side) when
numba is importable and ``DOMINORULES_NO_JIT`` is unset or empty; otherwise it returns
the function unchanged, so every kernel also runs, and is tested, as plain Python.
Only the JIT path imports this module: ``import dominorules`` never loads numba.

``plain(module)`` gives a second copy of a kernel module whose functions are the plain
Python ones, so one process can hold both and test one against the other.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType

try:
    if os.environ.get("DOMINORULES_NO_JIT"):
        raise ImportError("DOMINORULES_NO_JIT is set")
    import numba
except ImportError:
    numba = None

OPTIONS = {"cache": True, "nogil": True}
_plain_copies: dict[str, ModuleType] = {}
_making_plain = 0          # > 0 while plain() runs a module's source: njit leaves it alone


def available() -> bool:
    """True when ``njit`` compiles (numba importable, ``DOMINORULES_NO_JIT`` not set)."""
    return numba is not None


def njit(fn: Callable | None = None, **options) -> Callable:
    """``@njit`` or ``@njit(option=...)``: numba's nopython compile with ``OPTIONS``
    (``options`` added), or the function itself when the JIT is off."""
    if fn is None:
        return lambda f: njit(f, **options)
    if numba is None or _making_plain:
        return fn
    return numba.njit(**{**OPTIONS, **options})(fn)


def plain(module: ModuleType) -> ModuleType:
    """``module`` run again from its source with ``njit`` as the identity: its functions
    call each other as plain Python (made once per module)."""
    global _making_plain
    found = _plain_copies.get(module.__name__)
    if found is None:
        found = ModuleType(module.__name__ + "._plain", module.__doc__)
        found.__file__ = module.__file__
        found.__package__ = module.__package__
        with open(module.__file__, encoding="utf-8") as f:
            code = compile(f.read(), module.__file__, "exec")
        _making_plain += 1
        try:
            exec(code, found.__dict__)
        finally:
            _making_plain -= 1
        _plain_copies[module.__name__] = found
    return found

