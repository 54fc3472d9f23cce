"""The engine: plays any compiled ``Rules`` (``Game`` -> ``State``), tight code over bitmasks."""

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

__all__ = ["DRAW", "PASS", "Action", "ActionError", "AmbiguousActionError", "Deal", "Game",
           "IllegalActionError", "MalformedActionError", "Observation", "State", "Tile",
           "TileSet"]
