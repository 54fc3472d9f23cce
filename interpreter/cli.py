"""The command line as this package's module ``dominorules.cli``.

The CLI's code is the repository's top-level ``cli.py`` (its place in the
layout). A checkout runs that file here under this module's name, so a clone
without symbolic links (Windows' default) imports ``dominorules.cli`` as well as
any other; a built package (``pip install .``, a wheel) holds a copy of
``cli.py`` in this file's place instead (``setup.py`` copies it at build time).
"""

from pathlib import Path

_SOURCE = Path(__file__).resolve().parent.parent / "cli.py"
exec(compile(_SOURCE.read_text(encoding="utf-8"), str(_SOURCE), "exec"))
