"""The one gate every file the program reads passes through: rulesets, ``extends``,
records, the ruleset a record names, plug-in bot files, and the source lines the
CLI shows under a diagnostic.

A path is checked before anything is opened: text (a record may hold any JSON
value), a user that exists (``~nosuchuser/...``), a sane length, a regular file
(never a directory, a FIFO that would block, or a device such as ``/dev/zero`` that
never ends) and a size under the limit of its kind. Every refusal is one
``Diagnostic``; a path that does not exist gets the code ``NOT_FOUND`` so the CLI can
call it a usage error (exit 2) when the user typed it.

>>> check_path("~nosuchuser/rules.yaml", "ruleset").message
"cannot read ~nosuchuser/rules.yaml: there is no user 'nosuchuser'"
"""

from __future__ import annotations

import os
import stat
from typing import Any

from .diagnostics import Diagnostic

MIB = 1 << 20
# the largest file of each kind read: a ruleset is a few kB, a record of 10,000 matches
# some 100 MB; anything bigger is a mistake (or an attack) and is refused before reading
LIMITS = {"ruleset": 1 * MIB, "record": 512 * MIB, "bot": 1 * MIB}
MAX_PATH_CHARS = 1024   # longer is never a path a person typed
MAX_NAME_CHARS = 255    # one component (the limit of common file systems)
NOT_FOUND = "not-found"


def _refuse(path: str, why: str, code: str = "file", hint: str = "") -> Diagnostic:
    return Diagnostic(code, f"cannot read {_short(path)}: {why}", file=_short(path), hint=hint)


def _short(path: str) -> str:
    """A path as shown in a message: cut in the middle when absurdly long."""
    return path if len(path) <= 120 else f"{path[:60]}...{path[-40:]}"


def check_path(path: Any, kind: str) -> Diagnostic | None:
    """Why ``path`` cannot be read as a file of ``kind`` (``LIMITS``), or None if it can."""
    found = _check(path, kind)
    return found if isinstance(found, Diagnostic) else None


def _check(path: Any, kind: str) -> str | Diagnostic:
    if not isinstance(path, str):
        return Diagnostic("file", f"a file path must be text, not {type(path).__name__} "
                          f"{str(path)[:40]}")
    if not path:
        return Diagnostic("file", "the file path is empty")
    if "\0" in path:
        return _refuse(path.replace("\0", "\\0"), "the path holds a NUL character")
    full = os.path.expanduser(path)
    if full.startswith("~"):
        user = full[1:].split("/", 1)[0]
        return _refuse(path, f"there is no user '{user}'")
    if len(full) > MAX_PATH_CHARS or any(len(p) > MAX_NAME_CHARS for p in full.split(os.sep)):
        return _refuse(path, f"the path is too long ({len(full)} characters)")
    try:
        st = os.stat(full)
    except FileNotFoundError:
        return _refuse(path, "no such file", NOT_FOUND)
    except NotADirectoryError:
        return _refuse(path, "a part of the path is not a folder", NOT_FOUND)
    except OSError as exc:
        return _refuse(path, exc.strerror or str(exc))
    return _check_stat(path, full, st, kind)


def _check_stat(path: str, full: str, st: os.stat_result, kind: str) -> str | Diagnostic:
    if stat.S_ISDIR(st.st_mode):
        hint = f"give the YAML files inside it, e.g. {path.rstrip('/')}/*.yaml" \
            if kind == "ruleset" else ""
        return Diagnostic("file", f"{_short(path)} is a directory, not a {kind} file",
                          file=_short(path), hint=hint)
    if not stat.S_ISREG(st.st_mode):
        return _refuse(path, f"it is not a regular file (a device, pipe or socket), "
                       f"not a {kind} file")
    limit = LIMITS[kind]
    if st.st_size > limit:
        return _refuse(path, f"it is {st.st_size / MIB:.1f} MB; a {kind} file may be at "
                       f"most {limit // MIB} MB")
    return full


def _read_at_most(fh, size: int, most: int) -> bytes:
    """Up to ``most`` bytes of ``fh``, whose size was ``size``: a buffer of the file's size,
    not of the limit (``read(512 MB)`` reserves 512 MB even for a small file)."""
    data = fh.read(min(size + 1, most))
    while len(data) < most:       # the file grew since its size was read
        more = fh.read(min(1 << 20, most - len(data)))
        if not more:
            break
        data += more
    return data


def read_bytes(path: Any, kind: str) -> bytes | Diagnostic:
    """The bytes of a checked file, or the one diagnostic saying why not.

    The file is opened without blocking and checked again once open, so a file
    swapped for a FIFO between the check and the open cannot hang the program;
    at most the limit is read, so a file that grows meanwhile cannot exhaust memory.
    """
    full = _check(path, kind)
    if isinstance(full, Diagnostic):
        return full
    try:
        fd = os.open(full, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        return _refuse(path, exc.strerror or str(exc))
    try:
        st = os.fstat(fd)
        again = _check_stat(path, full, st, kind)
        if isinstance(again, Diagnostic):
            return again
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = _read_at_most(fh, st.st_size, LIMITS[kind] + 1)
    except OSError as exc:
        return _refuse(path, exc.strerror or str(exc))
    finally:
        os.close(fd)
    if len(data) > LIMITS[kind]:
        return _refuse(path, f"it grew beyond {LIMITS[kind] // MIB} MB while being read")
    return data
