"""A mechanism's kernel piece: the fast form of a rule, kept beside its reference.

A piece is a plain Python function over the kernels' arrays and numbers (numba's
nopython subset: no lists of tuples, no objects), written in the mechanism's own module
(``engine/mechanisms/<mechanism>.py``) next to the reference function it implements, so
the rule and its fast form are read, changed and tested together. ``@piece`` marks it
and returns it unchanged: this module imports no numba, so ``import dominorules`` stays
free of it, and with the JIT off every caller runs the same plain function.

``kernel/jit.py``, once it has loaded numba, asks ``on_piece`` to hear of every piece
(those marked already and any marked later) and registers each with numba
(``register_jitable``), so the JIT's kernels call it as if it were compiled there; its
machine code is compiled into each caller's. ``sources`` names the files that hold
pieces, which the kernels' cache key hashes (a changed piece compiles its callers again).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

F = TypeVar("F", bound=Callable)

_MARKED: list[tuple[Callable, bool]] = []       # (piece, refcounts) in the order marked
_LISTENERS: list[Callable[[Callable, bool], None]] = []
_MARK = re.compile(r"^@piece\b", re.MULTILINE)
_HERE = Path(__file__).resolve().parent


def piece(fn: F | None = None, *, refcounts: bool = True) -> F | Callable[[F], F]:
    """``@piece`` or ``@piece(refcounts=False)``: ``fn`` is a kernel piece; returned as it
    is. ``refcounts=False`` (``kernel/jit.py``'s ``njit`` option of that name): compiled
    without numba's reference counts, for a piece that allocates nothing."""
    if fn is None:
        return lambda f: piece(f, refcounts=refcounts)
    _MARKED.append((fn, refcounts))
    for listener in _LISTENERS:
        listener(fn, refcounts)
    return fn


def on_piece(listener: Callable[[Callable, bool], None]) -> None:
    """Call ``listener(fn, refcounts)`` for every piece marked so far, and for each one
    marked from now on (the JIT registers them before any kernel that calls one compiles:
    a piece's module is imported before its callers can name it)."""
    _LISTENERS.append(listener)
    for fn, refcounts in list(_MARKED):
        listener(fn, refcounts)


def marked() -> list[Callable]:
    """The pieces marked so far, in the order their modules were imported."""
    return [fn for fn, _ in _MARKED]


def sources() -> list[Path]:
    """Every file of the engine that holds a piece (a line starting ``@piece``), in path
    order: read from the files, not from what is imported, so the cache key is the same
    whichever modules a process happens to have loaded."""
    return [path for path in sorted(_HERE.rglob("*.py"))
            if path.name != "pieces.py" and _MARK.search(path.read_text(encoding="utf-8"))]
