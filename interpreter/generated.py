"""Generated source compiled as code a traceback and a debugger can read.

Kernels, written settlements and emitted formulas are Python text made at run time.
Compiled under a bare ``<string>`` their frames show no line; ``compile_named``
compiles a text once under a readable file name (``<dominorules kernel NAME 3p
77db6c22>``: what it is, for which ruleset, and a hash of the text) and registers the
text with ``linecache`` under that name, so ``traceback``, ``pdb`` and ``inspect``
print its lines. One entry per distinct name and text, made at compile time, never
per match; a name carries the hash, so two texts never share a name.
"""

from __future__ import annotations

import hashlib
import linecache
import re
import threading
from types import CodeType

_CODE: dict[str, CodeType] = {}       # file name -> its code object
_LOCK = threading.Lock()
_UNSAFE = re.compile(r"[^A-Za-z0-9_.+/-]+")   # a ruleset name is shown, never trusted


def label(*parts: object) -> str:
    """Words for a file name: each part squeezed to letters, digits and ``_.+/-`` (a
    ruleset's name may hold anything), at most 40 characters a part, blanks dropped."""
    words = [_UNSAFE.sub("-", str(p)).strip("-")[:40] for p in parts]
    return " ".join(w for w in words if w)


def file_name(what: str, source: str) -> str:
    """``<dominorules WHAT HASH>``: the name ``source`` is compiled under."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:8]
    return f"<dominorules {what} {digest}>"


def compile_named(source: str, what: str, mode: str = "exec") -> CodeType:
    """``source`` compiled under ``file_name(what, source)`` (once per name) with its
    lines in ``linecache``."""
    name = file_name(what, source)
    with _LOCK:
        code = _CODE.get(name)
        if code is None:
            code = compile(source, name, mode)
            # mtime None: linecache.checkcache never drops an entry that has no file
            linecache.cache[name] = (len(source), None, source.splitlines(True), name)
            _CODE[name] = code
    return code
