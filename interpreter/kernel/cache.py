"""The kernel cache's trust: where it is, whether its folders are safe to read, and its
entries looked at without blocking.

numba's cache is pickled: loading an index someone else could write is running their
code. So, as Python treats ``__pycache__``, a cache folder is used only when it, and
every folder up to the cache root, belongs to the user and is not writable by group or
others; otherwise the JIT compiles in memory (nothing read, nothing kept). An entry is
looked at with ``os.lstat`` before any open, so a FIFO, a device or a link to
``/dev/zero`` is never opened: it is damaged, removed and compiled again.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

CLEAR_HINT = "deleting the folder is always safe"
LOCK_NAME = "dominorules.lock"   # in each numba cache folder (``locked``)
# called with a sentence when the cache is bypassed or an entry of it is damaged (the CLI
# prints it on stderr); None: say nothing. Each sentence is said once a process.
notice: Callable[[str], None] | None = None
_told: set[str] = set()


def tell(text: str) -> None:
    """Say ``text`` through ``notice``, once per process."""
    if notice is not None and text not in _told:
        _told.add(text)
        notice(text)


def tell_damaged(folder: str | os.PathLike) -> None:
    tell(f"note: damaged entries of the JIT cache in {folder} are compiled again")


def cache_root() -> Path:
    """The folder dominorules keeps its caches in: ``$DOMINORULES_CACHE``, else
    ``$XDG_CACHE_HOME/dominorules``, else ``~/.cache/dominorules``."""
    root = os.environ.get("DOMINORULES_CACHE")
    if root:
        return Path(root).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dominorules"


def unsafe(folder: Path) -> str | None:
    """Why ``folder`` (which exists) must not be trusted, or None: another owner, or
    writable by group or others."""
    try:
        st = os.stat(folder)
    except OSError as exc:
        return f"it cannot be read ({exc.strerror or exc})"
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a folder"
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        return "it belongs to another user"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "others may write in it"
    return None


def private_folder(folder: Path, root: Path) -> str | None:
    """Make ``folder`` (inside ``root``) if it is missing, owner-only, then say why it
    cannot be trusted (None: it can): it and each folder up to ``root`` are checked."""
    missing = []
    current = folder
    while not os.path.lexists(current) and current.parent != current:
        missing.append(current)
        current = current.parent
    # each owner-only: os.makedirs leaves the parents it makes to the umask (775 under
    # umask 002, and then the cache would never be trusted)
    for made in reversed(missing):
        try:
            os.mkdir(made, 0o700)
        except FileExistsError:          # another process made it meanwhile
            pass
        except OSError as exc:
            return f"it cannot be made ({exc.strerror or exc})"
    current = folder
    while True:
        why = unsafe(current)
        if why is not None:
            return why if current == folder else f"{current}: {why}"
        if current == root or current.parent == current:
            return None
        current = current.parent


def entry_kind(path: str | os.PathLike) -> str:
    """``missing``, ``file`` (a regular file of the user's) or ``damaged`` (anything else:
    a folder, a FIFO, a device, a link, another's file), found without opening it."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return "missing"
    except OSError:
        return "damaged"
    if not stat.S_ISREG(st.st_mode):
        return "damaged"
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        return "damaged"
    return "file"


def remove(path: str | os.PathLike) -> None:
    """Remove a damaged entry (a folder with what is in it; a link, not what it names)."""
    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.unlink(path)
    except OSError:
        pass


def read_text(path: Path, limit: int = 1 << 22) -> str | None:
    """A regular file's UTF-8 text (at most ``limit`` bytes), or None when it is missing,
    not a regular file, too big or not UTF-8. Opened without blocking."""
    if entry_kind(path) != "file":
        return None
    try:
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(data) > limit:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


@contextmanager
def locked(folder: str | os.PathLike, exclusive: bool,
           name: str = LOCK_NAME) -> Iterator[None]:
    """Hold ``folder``'s lock file while an entry is written (``exclusive``) or read
    (shared). numba writes a function's index before its machine code, so a process that
    reads the index meanwhile (another pytest-xdist worker, another ``compare`` worker
    compiling the same kernel) would load the code an older source left under that name,
    or none. Where the folder cannot be locked (no ``fcntl``, a folder not made yet or
    read-only, the lock not a regular file) this goes on unlocked, as numba alone does.
    ``name``: another lock file in ``folder`` (a kernel's first compile: jit_kernel)."""
    fd = _lock(folder, exclusive, name)
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)                  # and with it the lock


def _lock(folder: str | os.PathLike, exclusive: bool, name: str) -> int | None:
    try:
        import fcntl
    except ImportError:                   # Windows
        return None
    flags = (os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
             | getattr(os, "O_NONBLOCK", 0))
    try:
        fd = os.open(os.path.join(folder, name), flags, 0o600)
    except OSError:
        return None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
            return fd
    except OSError:
        pass
    os.close(fd)
    return None
