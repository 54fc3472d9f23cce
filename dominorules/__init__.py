"""A checkout's stand-in for the installed package (never installed itself).

Installed, ``dominorules`` is the repository's ``interpreter/`` folder
(``pyproject.toml`` maps it; ``interpreter/cli.py`` links to the top-level
``cli.py``). From a checkout with nothing installed, this makes ``import
dominorules`` (for ``python cli.py``, the tests, ``bench/``) load the same files
under the same names.
"""

from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
__path__ = [str(_ROOT / "interpreter")]          # submodules come from interpreter/
__file__ = str(_ROOT / "interpreter" / "__init__.py")
exec(compile(Path(__file__).read_text(encoding="utf-8"), __file__, "exec"))
