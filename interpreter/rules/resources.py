"""Where the builtin rulesets and the schema live: inside the installed package, or the repo.

An installed wheel (or an editable install) maps the repo's ``rulesets/`` and
``schemas/`` to the packages ``dominorules.builtin_rulesets`` and
``dominorules.builtin_schemas``; running ``python cli.py`` from a checkout has
neither, so we fall back to the folders beside ``interpreter/``.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

_REPO = Path(__file__).resolve().parents[2]


def _package_dir(package: str, fallback: str) -> Path:
    try:
        spec = importlib.util.find_spec(package)
    except (ModuleNotFoundError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            if Path(location).is_dir():
                return Path(location)
    return _REPO / fallback


def rulesets_dir() -> Path:
    """The folder holding the builtin ``*.yaml`` rulesets (house rules in ``house/``)."""
    return _package_dir("dominorules.builtin_rulesets", "rulesets")


def schema_path() -> Path:
    """The ruleset JSON Schema file."""
    return _package_dir("dominorules.builtin_schemas", "schemas") / "ruleset.schema.json"


def trace_schema_path() -> Path:
    """The game record JSON Schema file (one event a line)."""
    return _package_dir("dominorules.builtin_schemas", "schemas") / "trace.schema.json"


@dataclass(frozen=True)
class BuiltinInfo:
    """A builtin ruleset: the name users type, its file, its one-line description."""

    name: str
    path: Path
    description: str


def builtin_paths() -> dict[str, Path]:
    """Builtin name -> file: ``NAME`` for ``rulesets/NAME.yaml``, ``house/x`` for house rules."""
    root = rulesets_dir()
    found: dict[str, Path] = {}
    for path in sorted(root.glob("*.yaml"), key=lambda p: p.stem):
        found[path.stem] = path
    for path in sorted((root / "house").glob("*.yaml"), key=lambda p: p.stem):
        found[f"house/{path.stem}"] = path
    return found


def builtin_name_of(path: Path) -> str | None:
    """The builtin name of a file, if it is one of the builtin rulesets."""
    try:
        resolved = path.resolve()
    except OSError:
        return None
    for name, builtin in builtin_paths().items():
        if builtin.resolve() == resolved:
            return name
    return None


@cache
def _description(path: Path, mtime: float) -> str:
    # Only the top file's own description: a cheap read for `list`, no full load.
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return ""
    if isinstance(data, dict):
        text = data.get("description") or ""
        return " ".join(str(text).split())
    return ""


def builtin_files() -> list[BuiltinInfo]:
    """Every builtin ruleset, variants first then house rules, each with the description
    its own file writes (or "")."""
    out = []
    for name, path in builtin_paths().items():
        out.append(BuiltinInfo(name, path, _description(path, path.stat().st_mtime)))
    return out
