"""The engine: plays any compiled ``Rules`` (``Game`` -> ``State``), tight code over bitmasks.

Its names are imported on first use (PEP 562), so loading a ruleset -- which needs only
``engine.game_rules`` -- does not import the match loops: `dominorules rules` starts faster.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .actions import (
        DRAW,
        PASS,
        Action,
        ActionError,
        AmbiguousActionError,
        IllegalActionError,
        MalformedActionError,
    )
    from .game import Deal, Game
    from .observation import Observation
    from .state import State
    from .tiles import Tile, TileSet

_WHERE = {"DRAW": "actions", "PASS": "actions", "Action": "actions",
          "ActionError": "actions", "AmbiguousActionError": "actions",
          "IllegalActionError": "actions", "MalformedActionError": "actions",
          "Deal": "game", "Game": "game", "Observation": "observation", "State": "state",
          "Tile": "tiles", "TileSet": "tiles"}

__all__ = ["DRAW", "PASS", "Action", "ActionError", "AmbiguousActionError", "Deal", "Game",
           "IllegalActionError", "MalformedActionError", "Observation", "State", "Tile",
           "TileSet"]


def __getattr__(name: str):
    if name in _WHERE:
        value = getattr(import_module(f".{_WHERE[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
