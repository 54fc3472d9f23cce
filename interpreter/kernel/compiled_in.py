"""The package's files a JIT kernel compiles in, found by walking its imports.

numba compiles every njit function and kernel piece a kernel calls into the kernel's own
machine code, so the kernel module's name (``jit_kernel._module``: a hash of its source
and of these files) must change whenever one of them does, or a stale compile would run.
The files are read off the kernel's source, not listed by hand: every module of
``kernel/`` it imports and those they import in turn, and every module of the engine
on that walk holding a kernel piece (``engine.pieces``: a line starting ``@piece``)
with the piece modules it imports. A new kernel module is in the key as soon as a kernel
imports it; a switched-off import (``if GEN:`` folded away by ``specialise_kernel``)
leaves its module out of the plain kernels' key.
"""

from __future__ import annotations

import ast
import hashlib
import re
from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent     # the package's folder (interpreter/)
_NAME = "dominorules"
_PIECE = re.compile(r"^@piece\b", re.MULTILINE)


def _file_of(module: str) -> Path | None:
    """The package's file of the dotted ``module`` (``dominorules.kernel.jit_support``), or
    None when it is not one of the package's modules."""
    parts = module.split(".")
    if parts[0] != _NAME:
        return None
    base = _PACKAGE.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _package_of(path: Path) -> str:
    """The dotted name of the package holding the package's file ``path`` (the one its
    relative imports start from)."""
    return ".".join([_NAME, *path.relative_to(_PACKAGE).parent.parts])


def imported(text: str, package: str) -> list[Path]:
    """The package's files the Python source ``text`` imports, anywhere in it (function-local
    imports too), its relative imports read from the dotted ``package``."""
    here = package.split(".")
    found: list[Path] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names = [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                keep = len(here) - node.level + 1
                base = ".".join(here[:keep] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            names = [(base, alias.name) for alias in node.names]
        else:
            continue
        for base, name in names:
            for candidate in ([f"{base}.{name}", base] if name else [base]):
                path = _file_of(candidate)
                if path is not None:
                    found.append(path)
                    break
    return found


@lru_cache(maxsize=256)
def _imports_of(path: Path) -> tuple[Path, ...]:
    return tuple(imported(path.read_text(encoding="utf-8"), _package_of(path)))


def files(source: str) -> list[Path]:
    """The kernel modules and the engine's piece files the kernel of ``source`` (a
    specialised ``jit_loop``) compiles in, in path order."""
    seen: set[Path] = set()
    todo = imported(source, f"{_NAME}.kernel")
    while todo:
        path = todo.pop()
        if path in seen or not _compiled(path):
            continue
        seen.add(path)
        todo.extend(_imports_of(path))
    return sorted(seen)


def _compiled(path: Path) -> bool:
    """Whether a kernel may compile code of ``path`` in: a module of ``kernel/``, or one of
    the engine's holding a piece (a piece calls only pieces, imported from their own
    modules: the walk leaves the engine's other modules, and what they import, alone)."""
    layer = path.relative_to(_PACKAGE).parts[0]
    return layer == "kernel" or (layer == "engine"
                                 and _PIECE.search(path.read_text(encoding="utf-8")) is not None)


def digest(source: str) -> str:
    """The hash naming the kernel of ``source``: its text and that of every file it
    compiles in (``files``), each with its path."""
    parts = [source]
    for path in files(source):
        parts.append(path.relative_to(_PACKAGE).as_posix() + "\0"
                     + path.read_text(encoding="utf-8"))
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:20]
