"""``-`` on the command line: standard input for a RULESET, standard output for a file
option (``--csv -``), as in every Unix tool.

A ruleset read from standard input is written once to a private temporary file: every
loader, worker and diagnostic then reads it by path like any other file (workers cannot
read the parent's standard input). A report written to ``-`` goes to a temporary file
first and is copied to standard output once complete, so a failed run prints no half
report.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile

DASH = "-"
MOST_BYTES = 1 << 20      # the size limit of a ruleset file (``files``): one byte more tells
_made: dict[str, str] = {}
_stdins: dict[str, tuple[object, str]] = {}    # per standard input: it, and its file


def _folder() -> str:
    if "folder" not in _made:
        _made["folder"] = tempfile.mkdtemp(prefix="dominorules-stdin-")
        atexit.register(shutil.rmtree, _made["folder"], True)
    return _made["folder"]


def ruleset_ref(ref: str) -> str:
    """``ref``, or for ``-`` the path of a file holding standard input (read only once,
    at most one byte over the ruleset size limit, so the loader's limit still speaks)."""
    if ref != DASH:
        return ref
    key = f"stdin-{id(sys.stdin)}"     # one read per standard input (a test runs many)
    # the stream is kept with its file: a later stream given a freed one's id (CliRunner
    # makes one per call) is not taken for it, and read the previous test's ruleset
    held = _stdins.get(key)
    if held is None or held[0] is not sys.stdin:
        folder = tempfile.mkdtemp(prefix="in-", dir=_folder())
        path = os.path.join(folder, "stdin.yaml")
        stream = getattr(sys.stdin, "buffer", None)
        data = stream.read(MOST_BYTES + 1) if stream is not None else b""
        with open(path, "wb") as fh:
            fh.write(data)
        _stdins[key] = (sys.stdin, path)
    return _stdins[key][1]


STDIN_SHOWN = "<stdin>"


def shown_path(path: str) -> str:
    """How a message names ``path``: ``<stdin>`` for the file holding a ruleset read from
    ``-`` (its temporary path would name a file the person never wrote), else ``path``."""
    return STDIN_SHOWN if any(path == held for _, held in _stdins.values()) else path


def output_path(path: str | None) -> str | None:
    """Where to write an output option's file: a temporary file for ``-`` (then
    ``copy_out``), else the path itself."""
    if path != DASH:
        return path
    # a name in a fresh private folder, not a file made ahead: an existing output file
    # needs --force, and this one is the run's own
    return os.path.join(tempfile.mkdtemp(prefix="output-", dir=_folder()), "output")


def copy_out(path: str) -> None:
    """Copy a finished temporary output to standard output."""
    with open(path, encoding="utf-8") as fh:
        while chunk := fh.read(1 << 16):
            sys.stdout.write(chunk)
    sys.stdout.flush()


def stdout_option(named: dict[str, str | None], as_json: bool,
                  allowed: tuple[str, ...]) -> tuple[str | None, str]:
    """(the one option of ``named`` whose file is ``-``, or None; what is wrong, or "").
    ``-`` for two outputs, beside ``--json``, or for an output that makes no sense on a
    terminal (a PNG) is refused."""
    dashed = [option for option, path in named.items() if path == DASH]
    if not dashed:
        return None, ""
    if any(option not in allowed for option in dashed):
        return None, (f"{dashed[0]} - : standard output takes only "
                      f"{' or '.join(allowed)}; give {dashed[0]} a file name")
    if len(dashed) > 1 or as_json:
        taken = dashed + (["--json"] if as_json else [])
        return None, (f"{' and '.join(taken)} would both write to standard output: "
                      "give all but one a file name")
    return dashed[0], ""


def finish(named: dict[str, str | None], paths: dict[str, str | None],
           dashed: str | None) -> list[str]:
    """Copy the ``-`` output (written at ``paths[dashed]``) to standard output; the files
    written under their own names, to tell the user."""
    if dashed and paths.get(dashed) and os.path.exists(paths[dashed] or ""):
        copy_out(paths[dashed] or "")
    return [path for option, path in named.items() if path and option != dashed]
