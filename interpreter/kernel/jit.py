"""The kernels' one switch between numba and plain Python: the ``njit`` decorator.

``njit`` compiles with numba (``cache=True`` so the compiled code is kept on disk and
reused by later runs and workers, keyed by every module of this package as well as its
own: ``kernel_sources_stamp``, ``nogil=True`` so threads run side by side) when
numba is importable and ``DOMINORULES_NO_JIT`` is unset or empty; otherwise it returns
the function unchanged, so every kernel also runs, and is tested, as plain Python.
Only the JIT path imports this module: ``import dominorules`` never loads numba.

``plain(module)`` gives a second copy of a kernel module whose functions are the plain
Python ones, so one process can hold both and test one against the other.

A mechanism's kernel piece (``engine.pieces``: a plain function beside its reference in
``engine/mechanisms/``) is registered with numba here, as soon as numba is loaded and
before any kernel compiles (``_register_piece``); with the JIT off it is left as it is.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from types import ModuleType

from ..engine import pieces
from .cache import entry_kind, locked, remove, tell, tell_damaged, unsafe

try:
    if os.environ.get("DOMINORULES_NO_JIT"):
        raise ImportError("DOMINORULES_NO_JIT is set")
    import numba
except ImportError:
    numba = None

OPTIONS = {"cache": True, "nogil": True}
_plain_copies: dict[str, ModuleType] = {}
_making_plain = 0          # > 0 while plain() runs a module's source: njit leaves it alone
_uncached = 0              # > 0 while a kernel is made in memory: njit keeps no cache


def _register_piece(fn: Callable, refcounts: bool) -> None:
    """numba's overload of the plain function ``fn`` itself (``register_jitable``): njit
    code calling ``fn`` compiles its body into the caller, with ``njit``'s
    ``refcounts=False`` as numba's ``_nrt=False``; ``fn`` stays the plain function."""
    from numba.extending import register_jitable

    if refcounts:
        register_jitable(fn)
    else:
        register_jitable(_nrt=False)(fn)


if numba is not None:
    pieces.on_piece(_register_piece)


def available() -> bool:
    """True when ``njit`` compiles (numba importable, ``DOMINORULES_NO_JIT`` not set)."""
    return numba is not None


def njit(fn: Callable | None = None, **options) -> Callable:
    """``@njit`` or ``@njit(option=...)``: numba's nopython compile with ``OPTIONS``
    (``options`` added), or the function itself when the JIT is off.

    ``refcounts=False``: compiled without numba's reference counts, for a function that
    allocates nothing and keeps no array it is given (its caller holds them while it
    runs). numba counts a reference to each array argument on entry and at every exit
    its pruning cannot see through (a loop, an early return): an atomic operation each,
    some 200 ns a call of ``jit_events.fire``, most of what an event cost. numba refuses
    to compile such a function if it allocates."""
    if fn is None:
        return lambda f: njit(f, **options)
    if numba is None or _making_plain:
        return fn
    options = {**OPTIONS, **options}
    if not options.pop("refcounts", True):
        options["_nrt"] = False
    cache = options.pop("cache") and not _uncached
    dispatcher = numba.njit(cache=False, **options)(fn)
    if cache:
        _safe_cache(dispatcher)
    return dispatcher


def _safe_cache(dispatcher) -> None:
    """numba's on-disk cache for ``dispatcher`` (what ``cache=True`` does), read
    defensively (``_SafeCache``), or none, with a notice, when its folder is not safe."""
    try:
        cache = _SafeCache(dispatcher.py_func)
    except RuntimeError:        # no folder numba can write for this function's file
        return
    path = cache.cache_path
    why = unsafe(path) if os.path.exists(path) else None
    if why is not None:
        tell(f"note: not using numba's cache in {path}: {why}; compiling in memory")
        return
    dispatcher._cache = cache


if numba is not None:
    from numba.core.caching import FunctionCache, IndexDataCacheFile

    class _SafeIndex(IndexDataCacheFile):
        """numba's index and data files, each looked at with ``lstat`` before it is
        opened: a folder, FIFO, device or link is damaged (removed), never opened; each
        save and load under the folder's lock (``cache.locked``), so processes sharing
        the cache never see a save half done."""

        def save(self, key, data):
            with locked(self._cache_path, exclusive=True):
                super().save(key, data)

        def load(self, key):
            with locked(self._cache_path, exclusive=False):
                return super().load(key)

        def _load_index(self):
            if not _usable(self._index_path):
                return {}
            overloads = super()._load_index()
            if not isinstance(overloads, dict):
                raise ValueError("the index is not a mapping")
            return overloads

        def _load_data(self, name):
            path = self._data_path(name)
            if not _usable(path):
                raise FileNotFoundError(path)   # numba's answer: compile again
            return super()._load_data(name)

    class _SafeCache(FunctionCache):
        """A function's cache whose damaged entry (garbage, empty, truncated, not a
        regular file) is compiled again with one notice, and whose failed write (a full
        disk, a read-only folder) only costs the next run a compile."""

        def __init__(self, py_func):
            super().__init__(py_func)
            self._cache_file = _SafeIndex(self._cache_path, self._impl.filename_base,
                                          (self._impl.locator.get_source_stamp(),
                                           kernel_sources_stamp()))

        def load_overload(self, sig, target_context):
            try:
                return super().load_overload(sig, target_context)
            except Exception:   # noqa: BLE001 - whatever a damaged file raises
                tell_damaged(self._cache_path)
                _remove_index(self._cache_file)
                return None

        def save_overload(self, sig, data):
            try:
                super().save_overload(sig, data)
            except Exception as exc:   # noqa: BLE001 - the compiled code runs all the same
                tell(f"note: the JIT cache in {self._cache_path} cannot be written "
                     f"({getattr(exc, 'strerror', None) or exc}); the kernel runs uncached")


def on_disk(dispatcher) -> bool | None:
    """Whether numba's cache holds machine code of ``dispatcher`` that its first call would
    load instead of compiling: this machine's, these sources' (any signature); False when
    a compile would be kept there, None when the function has no cache on disk (the JIT
    is off, or the folder is not safe: it compiles in memory). Read under the folder's
    lock, the index and the code it names, so a save half done reads as not there."""
    cache = getattr(dispatcher, "_cache", None)
    if numba is None or not isinstance(cache, FunctionCache):
        return None
    index = cache._cache_file
    wanted = cache._index_key(None, dispatcher.targetctx.codegen())[1:]
    with locked(cache.cache_path, exclusive=False):
        try:
            overloads = index._load_index()
        except Exception:   # noqa: BLE001 - a damaged index: the first call compiles again
            return False
        return any(key[1:] == wanted and entry_kind(index._data_path(name)) == "file"
                   for key, name in overloads.items())


_SOURCES_STAMP: list[str] = []


def kernel_sources_stamp() -> str:
    """A hash of every module of this package (the kernels' pieces), part of each compiled
    function's cache key. numba keys a function's cached machine code by its own file
    only, but a piece calls pieces of other modules (``jit_events.fire`` calls
    ``jit_formula.run``) and keeps their code compiled in: without this, a changed
    ``jit_formula.py`` would leave ``fire``'s stale code in use. A change to any module
    here, or to a module of the engine holding a kernel piece (``engine.pieces.sources``:
    a piece is compiled into its callers), compiles every piece again, once."""
    if not _SOURCES_STAMP:
        import hashlib
        from pathlib import Path

        digest = hashlib.sha256()
        here = Path(__file__).resolve().parent
        for path in [*sorted(here.glob("*.py")), *pieces.sources()]:
            name = path.name if path.parent == here else path.relative_to(here.parent).as_posix()
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
        _SOURCES_STAMP.append(digest.hexdigest())
    return _SOURCES_STAMP[0]


def _usable(path: str) -> bool:
    kind = entry_kind(path)
    if kind == "damaged":
        tell_damaged(os.path.dirname(path))
        remove(path)
    return kind == "file"


def _remove_index(cache_file) -> None:
    remove(cache_file._index_path)


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
        # (registered first: a dataclass in it looks its module up in sys.modules)
        sys.modules[found.__name__] = found
        try:
            exec(code, found.__dict__)
        finally:
            _making_plain -= 1
        _plain_copies[module.__name__] = found
    return found

