"""The one check every output option passes before any work starts.

A compare can run for hours; a typo in ``--html`` found only at the end loses all of
it. So every output path (``--trace``, ``--csv``, ``--html``, ``--plot``) is checked
up front: not empty, not a directory, its folder exists and is writable, it is not
one of the input files (nor another output), and for ``--plot`` that matplotlib is
installed and writes that format. Each problem is one ``Diagnostic``; the CLI calls
them usage errors (exit 2).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from .diagnostics import Diagnostic


def _problem(option: str, path: str, why: str, hint: str = "") -> Diagnostic:
    return Diagnostic("output", f"{option} {path}: {why}", hint=hint)


def check_output(option: str, path: str) -> Diagnostic | None:
    """Why ``path`` cannot be written as ``option``'s output, or None."""
    if not path.strip():
        return Diagnostic("output", f"{option} needs a file name, not an empty one")
    full = os.path.expanduser(path)
    if full.startswith("~") or "\0" in full:
        return _problem(option, path, "not a usable path")
    if os.path.isdir(full):
        return _problem(option, path, "is a directory", "name a file inside it")
    folder = os.path.dirname(os.path.abspath(full))
    if not os.path.isdir(folder):
        return _problem(option, path, f"the folder {folder} does not exist")
    if os.path.exists(full):
        if not os.access(full, os.W_OK):
            return _problem(option, path, "the file is not writable")
    elif not os.access(folder, os.W_OK | os.X_OK):
        return _problem(option, path, f"the folder {folder} is not writable")
    return None


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_outputs(outputs: Mapping[str, str | None], inputs: Iterable[str] = ()
                  ) -> list[Diagnostic]:
    """Every problem of the given ``{option: path}`` outputs (None: not asked for).

    ``inputs`` are the files read (ruleset paths): writing over one would destroy it.
    """
    problems: list[Diagnostic] = []
    given = {opt: p for opt, p in outputs.items() if p is not None}
    files = [os.path.expanduser(i) for i in inputs if os.path.isfile(os.path.expanduser(i))]
    seen: dict[str, str] = {}
    for option, path in given.items():
        problem = check_output(option, path)
        if problem is None:
            full = os.path.expanduser(path)
            if any(_same(full, i) for i in files):
                problem = _problem(option, path, "is an input ruleset; writing it would "
                                   "destroy it", "choose another file name")
            elif clash := next((o for f, o in seen.items() if _same(full, f)), None):
                problem = _problem(option, path, f"is also the file of {clash}")
            elif option == "--plot":
                problem = _plot_format(path)
            seen[full] = option
        if problem is not None:
            problems.append(problem)
    return problems


def _plot_format(path: str) -> Diagnostic | None:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return Diagnostic("output", "--plot needs matplotlib, which is not installed",
                          hint="pip install 'dominorules[plot]' (or use --html for a "
                               "report without it)")
    formats = FigureCanvasAgg(Figure()).get_supported_filetypes()
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext not in formats:
        return _problem("--plot", path, f"'.{ext}' is not an image format matplotlib writes",
                        "use one of: " + ", ".join(f".{f}" for f in sorted(formats)))
    return None
