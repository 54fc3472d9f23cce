"""A checkout's stand-in for the installed package (never installed itself).

Installed, ``dominorules`` is the repository's ``interpreter/`` folder and
``dominorules.commands.cli`` its ``cli.py`` (``pyproject.toml`` maps them). From a
checkout, with nothing installed, this makes ``import dominorules`` (and
``python cli.py``, the tests, ``bench/``) load the same files under the same names.
"""

import importlib.machinery
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
__path__ = [str(_ROOT / "interpreter")]          # submodules come from interpreter/
__file__ = str(_ROOT / "interpreter" / "__init__.py")
exec(compile(Path(__file__).read_text(encoding="utf-8"), __file__, "exec"))

# dominorules.commands: the folder holding cli.py (the repository's root)
_spec = importlib.machinery.ModuleSpec("dominorules.commands", None, is_package=True)
_spec.submodule_search_locations = [str(_ROOT)]
_commands = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("dominorules.commands", _commands)
