"""What formulas do at run time: total arithmetic, attribute reads and the fixed functions.

Shared by the compiler and the tree-walking evaluator so both agree by construction
on the edge cases: ``x // 0 == x % 0 == 0``; ``min``/``max`` of an empty list is 0.
Only the attribute names declared in ``types.ATTRIBUTES`` are ever read.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from .types import ATTRIBUTES, BOOL, INT, TILE, Type


def floordiv(a: int, b: int) -> int:
    """``a // b`` rounded down like Python; 0 when ``b`` is 0."""
    return a // b if b else 0


def mod(a: int, b: int) -> int:
    """``a % b`` with the sign of ``b`` like Python; 0 when ``b`` is 0."""
    return a % b if b else 0


BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": floordiv, "%": mod,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}

_TILE_READERS: dict[str, Callable[[Any], Any]] = {
    "low": lambda t: t[0],
    "high": lambda t: t[1],
    "pips": lambda t: t[0] + t[1],
    "is_double": lambda t: t[0] == t[1],
}


def attribute_reader(obj_type: Type, attr: str) -> Callable[[Any], Any]:
    """A function reading ``attr`` from a value of ``obj_type``, mapping over lists.

    The checker has already made sure ``attr`` is declared for the (innermost) type.
    """
    if obj_type.elem is not None:
        inner = attribute_reader(obj_type.elem, attr)
        return lambda values: tuple(inner(v) for v in values)
    if attr not in ATTRIBUTES.get(obj_type, {}):
        raise ValueError(f"{obj_type} has no attribute {attr!r}")  # checker prevents this
    if obj_type == TILE:
        return _TILE_READERS[attr]
    return operator.attrgetter(attr)


# What an index past either end of a list reads (``xs[i]``, docs/language.md): the element
# type's "nothing", so a checked formula never fails while a game runs. A missing tile is
# (-1, 0): no tile of any set equals it, it is no double, its pips are -1.
NOTHING: dict[Type, Any] = {INT: 0, BOOL: False, TILE: (-1, 0)}


def index(items: Any, at: int, nothing: Any) -> Any:
    """``items[at]``, counted from the end when ``at`` is negative (``-1`` the last);
    ``nothing`` when ``at`` lies past either end (an empty list included)."""
    return items[at] if -len(items) <= at < len(items) else nothing


def _min(*args: Any) -> int:
    values = args[0] if len(args) == 1 else args
    return min(values, default=0)


def _max(*args: Any) -> int:
    values = args[0] if len(args) == 1 else args
    return max(values, default=0)


class Bound:
    """The names of a formula with one element's name bound (``t`` in ``t -> ...``): that
    name reads the element, every other the enclosing names (a lazy mapping too)."""

    __slots__ = ("env", "var", "value")

    def __init__(self, env: Any, var: str, value: Any):
        self.env, self.var, self.value = env, var, value

    def __getitem__(self, key: str) -> Any:
        return self.value if key == self.var else self.env[key]


# ``f(xs, x -> body)``: f over the body's values, one per element (count: the true ones)
EACH: dict[str, Callable[[Any], Any]] = {
    "count": lambda values: sum(1 for v in values if v),
    "any": any,
    "all": all,
    "sum": sum,
    "min": lambda values: min(values, default=0),
    "max": lambda values: max(values, default=0),
}


def each_call(func: str, items: Any, var: str, body: Callable[[Any], Any], env: Any) -> Any:
    """``func(items, var -> body)`` in ``env``: ``body`` read once per element."""
    return EACH[func](body(Bound(env, var, x)) for x in items)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sum": lambda values: sum(values),
    "min": _min,
    "max": _max,
    "count": lambda values: len(values),
    "abs": abs,
    "any": lambda values: any(values),
    "all": lambda values: all(values),
}
