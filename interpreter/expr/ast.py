"""The syntax tree of a formula: small dataclasses, each knowing where it sits in the text.

Positions (``offset``, ``length``) and the checked type (``type``, filled in by the
checker) take no part in ``==``, so two trees compare equal when they say the same thing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from .types import Type

COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
LOGICAL = ("and", "or")


@dataclass(eq=True)
class Node:
    """Base of every node: position in the source and (after checking) its type."""

    offset: int = field(default=0, compare=False, kw_only=True)
    length: int = field(default=0, compare=False, kw_only=True)
    type: Type | None = field(default=None, compare=False, kw_only=True)


@dataclass(eq=True)
class Int(Node):
    value: int


@dataclass(eq=True)
class Bool(Node):
    value: bool


@dataclass(eq=True)
class Tile(Node):
    """A tile literal, normalized so ``low <= high``: ``[6|0]`` is ``Tile(0, 6)``."""

    low: int
    high: int


@dataclass(eq=True)
class Name(Node):
    name: str


@dataclass(eq=True)
class Attribute(Node):
    """``obj.attr``; ``attr_offset`` is where the attribute's name starts."""

    obj: Node
    attr: str
    attr_offset: int = field(default=0, compare=False)


@dataclass(eq=True)
class Index(Node):
    """``items[at]``: one element of an ordered list (``line[0]``, ``board[-1]``); an
    index past either end reads the element type's "nothing" (``runtime.NOTHING``)."""

    obj: Node
    at: Node


@dataclass(eq=True)
class Unary(Node):
    """``-x`` or ``not x``."""

    op: str
    operand: Node


@dataclass(eq=True)
class Binary(Node):
    """Arithmetic, comparison or ``and``/``or``: ``op`` is the operator as written."""

    op: str
    left: Node
    right: Node
    op_offset: int = field(default=0, compare=False)


@dataclass(eq=True)
class Conditional(Node):
    """``then if test else orelse``."""

    then: Node
    test: Node
    orelse: Node


@dataclass(eq=True)
class Call(Node):
    """``func(args...)``: only the fixed functions of ``functions.FUNCTIONS`` exist."""

    func: str
    args: list[Node]


@dataclass(eq=True)
class Each(Node):
    """``var -> body``: a list function's second argument, ``body`` read for each element
    of the list (bound to ``var``); ``var_offset`` is where the name starts."""

    var: str
    body: Node
    var_offset: int = field(default=0, compare=False)


def nodes(tree: Node | None) -> Iterator[Node]:
    """Every node of a syntax tree (none for a constant formula, which has no tree)."""
    stack = [tree] if tree is not None else []
    while stack:
        node = stack.pop()
        yield node
        for value in vars(node).values():
            if isinstance(value, Node):
                stack.append(value)
            elif isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, Node))


def names_read(tree: Node | None) -> frozenset[str]:
    """The names a formula reads (a constant formula: none); an element's name bound by
    ``x -> ...`` is none of them (it may not be one of the field's names)."""
    found = list(nodes(tree))
    bound = {n.var for n in found if isinstance(n, Each)}
    return frozenset(n.name for n in found if isinstance(n, Name) and n.name not in bound)
