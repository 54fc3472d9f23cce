"""The static types of the formula language, and which attributes each one offers.

Types are plain values so the checker can compare them with ``==`` and print them
in words ("an integer", "a list of sides") inside error messages.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Type:
    """A type: a scalar (``int``, ``bool``, ``tile``, ``side``, ``player``) or ``list`` of one."""

    name: str
    elem: Type | None = None

    def __str__(self) -> str:
        return f"list[{self.elem}]" if self.elem is not None else self.name

    def words(self, article: bool = True) -> str:
        """The type in plain words: ``an integer``, ``a list of sides``."""
        if self.elem is not None:
            text = "list of " + self.elem.plural()
            return "a " + text if article else text
        text = _WORDS[self.name]
        if not article:
            return text
        return ("an " if text[0] in "aeiou" else "a ") + text

    def plural(self) -> str:
        if self.elem is not None:
            return "lists of " + self.elem.plural()
        return _WORDS[self.name] + "s"


_WORDS = {"int": "integer", "bool": "boolean", "tile": "tile", "side": "side",
          "player": "player"}

INT = Type("int")
BOOL = Type("bool")
TILE = Type("tile")
SIDE = Type("side")
PLAYER = Type("player")


def list_of(elem: Type) -> Type:
    """The list type with elements of ``elem``."""
    return Type("list", elem)


# The attributes a value of each scalar type offers (and nothing else is reachable).
ATTRIBUTES: dict[Type, dict[str, Type]] = {
    TILE: {"low": INT, "high": INT, "pips": INT, "is_double": BOOL},
    SIDE: {"index": INT, "value": INT, "pips": INT, "tiles": INT, "drawn": INT,
           "players": list_of(PLAYER), "doubles": INT, "score": INT, "won": BOOL,
           "rounds_won": INT},
    PLAYER: {"seat": INT, "value": INT, "pips": INT, "tiles": INT, "drawn": INT,
             "doubles": INT},
}
