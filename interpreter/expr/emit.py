"""A checked syntax tree to Python source text, and that text to one function.

The closures of ``compiler`` call one small function per node; a formula emitted as
source is one expression Python runs directly, several times faster on the engine's
hot paths (events and restrictions run a formula on every move). The source is made
only from checked trees, names are read as ``env["name"]``, and it is evaluated with
no builtins but the few helpers below: nothing else is reachable from a formula.

>>> from .parser import parse
>>> from .checker import check
>>> from .fields import FIELDS
>>> tree = parse("sum(opponents.pips) - winner.pips")
>>> check(tree, "scoring", FIELDS["scoring"], "")
[]
>>> print(source_of(tree))
(sum(tuple(_v1.pips for _v1 in env['opponents'])) - env['winner'].pips)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..generated import compile_named
from . import ast
from .runtime import NOTHING, floordiv, index, mod
from .types import TILE, Type

_ARITHMETIC = {"+", "-", "*"}
_SIMPLE = re.compile(r"_v\d+|env\['[A-Za-z_][A-Za-z0-9_]*'\]")
_COMPARE = {"==", "!=", "<", "<=", ">", ">="}

# Everything emitted source may call; no other builtins are reachable.
NAMESPACE: dict[str, Any] = {
    "__builtins__": {},
    "_floordiv": floordiv, "_mod": mod, "_index": index,
    "sum": sum, "len": len, "abs": abs, "any": any, "all": all, "tuple": tuple,
    "min": min, "max": max,
}


def source_of(node: ast.Node) -> str:
    """Python source computing a checked ``node`` from ``env``."""
    return SourceEmitter().emit(node)


def compile_source(node: ast.Node) -> Callable[[Mapping[str, Any]], Any]:
    """The function ``env -> value`` of a checked tree, through its source."""
    code = compile_named(f"lambda env: {source_of(node)}\n", "formula", "eval")
    return eval(code, dict(NAMESPACE))  # noqa: S307 - checked tree


class SourceEmitter:
    """A checked tree to source, node by node (``kernel.formulas`` writes a few kinds of
    node its own way)."""

    def __init__(self) -> None:
        self.names = (f"_v{i}" for i in itertools.count(1))
        self.bound: dict[str, str] = {}   # element names of ``x -> ...`` -> Python names

    def emit(self, node: ast.Node) -> str:
        match node:
            case ast.Int(value=v):
                return repr(int(v))
            case ast.Bool(value=v):
                return "True" if v else "False"
            case ast.Tile(low=low, high=high):
                return f"({int(low)}, {int(high)})"
            case ast.Name(name=name) if name in self.bound:
                return self.bound[name]
            case ast.Name(name=name):
                return f"env['{name}']"   # names are identifiers (the grammar's NAME)
            case ast.Attribute(obj=obj, attr=attr):
                assert obj.type is not None, "emit only checked trees"
                return self.attribute(obj.type, self.emit(obj), attr)
            case ast.Index(obj=obj, at=at):
                assert node.type is not None, "emit only checked trees"
                return f"_index({self.emit(obj)}, {self.emit(at)}, {NOTHING[node.type]!r})"
            case ast.Unary(op="-", operand=operand):
                return f"(-{self.emit(operand)})"
            case ast.Unary(op="not", operand=operand):
                return f"(not {self.emit(operand)})"
            case ast.Binary(op=op, left=left, right=right):
                a, b = self.emit(left), self.emit(right)
                if op in ("and", "or") or op in _ARITHMETIC or op in _COMPARE:
                    return f"({a} {op} {b})"
                return f"{'_floordiv' if op == '//' else '_mod'}({a}, {b})"
            case ast.Conditional(then=then, test=test, orelse=orelse):
                return f"({self.emit(then)} if {self.emit(test)} else {self.emit(orelse)})"
            case ast.Call(func=func, args=[items, ast.Each(var=var, body=body)]):
                return self.each(func, self.emit(items), var, body)
            case ast.Call(func=func, args=args):
                return self.call(func, [self.emit(a) for a in args])
        raise TypeError(f"not a syntax tree node: {node!r}")

    def attribute(self, typ: Type, obj: str, attr: str) -> str:
        if typ.elem is not None:   # on a list: read it from every element
            v = next(self.names)
            return f"tuple({self.attribute(typ.elem, v, attr)} for {v} in {obj})"
        if typ == TILE:
            if attr == "low":
                return f"{obj}[0]"
            if attr == "high":
                return f"{obj}[1]"
            if _SIMPLE.fullmatch(obj):   # a name or env['name']: cheap to read twice
                v = obj
            else:
                v = next(self.names)     # read the tile once
            body = f"{v}[0] + {v}[1]" if attr == "pips" else f"{v}[0] == {v}[1]"
            return f"({body})" if v is obj else f"(lambda {v}: {body})({obj})"
        return f"{obj}.{attr}"

    def each(self, func: str, items: str, var: str, body: ast.Node) -> str:
        """``func(items, var -> body)`` as a generator over the list: one pass, bounded
        by the list (every list a formula reads is a hand, the board or the seats)."""
        v = next(self.names)
        outer = self.bound.get(var)
        self.bound[var] = v
        try:
            value = self.emit(body)
        finally:
            if outer is None:
                del self.bound[var]
            else:
                self.bound[var] = outer
        if func == "count":
            return f"sum(1 for {v} in {items} if {value})"
        if func in ("min", "max"):
            return f"{func}(({value} for {v} in {items}), default=0)"
        return f"{func}({value} for {v} in {items})"   # any, all, sum

    @staticmethod
    def call(func: str, args: list[str]) -> str:
        if func in ("min", "max"):
            if len(args) == 1:
                return f"{func}({args[0]}, default=0)"
            return f"{func}({', '.join(args)})"
        if func == "count":
            return f"len({args[0]})"
        return f"{func}({', '.join(args)})"   # sum, abs, any, all: one argument
