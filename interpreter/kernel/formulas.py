"""A round's scoring formula as kernel code: sides and seats are numbers, lists are arrays.

The match loop hands a formula objects (``ScoreContext``, tallies); a kernel keeps a
finished round as a few arrays instead: per side ``SP`` (pips), ``SV`` (value), ``ST``
(tiles), ``SD`` (drawn), per seat ``P``, ``V``, ``C``, ``DB``, and ``w`` the scoring side.
``emit(tree, target)`` writes the formula over those, for plain Python (lists) or for
numba (numpy arrays, fancy indexing). A formula reading anything else (a round fact:
those rulesets run on the general loop) raises ``Unsupported``.

>>> from ..expr import compile_expression
>>> tree = compile_expression("5 * ((sum(opponents.value) + 2) // 5)", "scoring").ast
>>> emit(tree, "python")
'(5 * _floordiv(((sum(SV) - SV[w]) + 2), 5))'
>>> emit(tree, "numba")
'(5 * _floordiv((_sum_at(SV, OPP[w]) + 2), 5))'
"""

from __future__ import annotations

import itertools
import re

from ..expr import ast
from ..expr.emit import SourceEmitter
from ..expr.types import PLAYER, SIDE, Type

# a side's / a seat's attribute -> the kernel array holding it per index
_SIDE = {"pips": "SP", "value": "SV", "tiles": "ST", "drawn": "SD"}
_SEAT = {"pips": "P", "value": "V", "tiles": "C", "drawn": "DB"}
_NAMES = {"winner": "w", "opponents": "OPP[w]", "sides": "SIDES", "seats": "SEATS",
          "players": "N"}


class Unsupported(Exception):
    """The formula reads something a kernel does not keep: the match loop plays it."""


def emit(tree: ast.Node, target: str) -> str:
    """Source computing ``tree`` from the kernel's round arrays (``target``: python | numba)."""
    return _Emitter(target).emit(tree)


class _Emitter(SourceEmitter):
    """``expr.emit``'s emitter with names, attributes and calls read from the arrays; the
    operators, conditionals and literals are written as there."""

    def __init__(self, target: str) -> None:
        super().__init__()
        self.numba = target == "numba"
        self.names = (f"_i{i}" for i in itertools.count(1))

    def emit(self, node: ast.Node) -> str:
        match node:
            case ast.Name(name=name):
                if name not in _NAMES:
                    raise Unsupported(f"Name {name}")   # a round fact: the general loop's
                return _NAMES[name]
            case ast.Tile():
                raise Unsupported("Tile")
            case ast.Index():
                raise Unsupported("an index")   # xs[i]: the general loop's own formulas
            case ast.Call(args=[_, ast.Each()]):
                raise Unsupported("x -> ...")   # read element by element: the loop's own
            case ast.Call(func=func, args=args):
                return self.kernel_call(func, [self.emit(a) for a in args], args)
        return super().emit(node)

    def attribute(self, typ: Type | None, obj: str, attr: str) -> str:
        if typ is None:
            raise Unsupported("an unchecked tree")
        elem = typ.elem
        if elem is not None:          # a list of sides or seats: every element's attribute
            table = self.table(elem, attr)
            if table is None:
                raise Unsupported(f"{attr} of a list")
            if self.numba:
                return f"{table}[{obj}]"
            v = next(self.names)
            return f"[{table}[{v}] for {v} in {obj}]"
        if typ == SIDE and attr == "index" or typ == PLAYER and attr == "seat":
            return obj
        if typ == SIDE and attr == "players":
            return f"TEAMS[{obj}]"
        table = self.table(typ, attr)
        if table is None:
            raise Unsupported(f"{typ}.{attr}")
        return f"{table}[{obj}]"

    @staticmethod
    def table(typ: Type, attr: str) -> str | None:
        if typ == SIDE:
            return _SIDE.get(attr)
        if typ == PLAYER:
            return _SEAT.get(attr)
        return None

    def kernel_call(self, func: str, args: list[str], nodes: list[ast.Node]) -> str:
        if func in ("min", "max") and len(args) > 1:
            return f"{func}({', '.join(args)})"
        if func == "abs":
            return f"abs({args[0]})"
        if len(args) != 1 or nodes[0].type is None or nodes[0].type.elem is None:
            raise Unsupported(func)
        arg = nodes[0]
        if func == "sum" and not self.numba and isinstance(arg, ast.Attribute) \
                and isinstance(arg.obj, ast.Name) and arg.obj.name == "opponents":
            every_other = re.fullmatch(r"OPP\[(\w+)\]", self.emit(arg.obj))
            table = self.table(SIDE, arg.attr)
            if every_other and table is not None:   # all sides but one: no list made
                return f"(sum({table}) - {table}[{every_other.group(1)}])"
        if self.numba:
            if func in ("sum", "min", "max") and isinstance(arg, ast.Attribute) \
                    and arg.obj.type is not None and arg.obj.type.elem is not None:
                table = self.table(arg.obj.type.elem, arg.attr)
                if table is not None:   # folded over the indices: no array is made
                    return f"_{func}_at({table}, {self.emit(arg.obj)})"
            if func in ("sum", "min", "max", "count"):
                return f"_{func}({args[0]})"
            raise Unsupported(func)
        if func in ("min", "max"):
            return f"{func}({args[0]}, default=0)"
        if func == "count":
            return f"len({args[0]})"
        if func in ("sum", "any", "all"):
            return f"{func}({args[0]})"
        raise Unsupported(func)


def magnitude(node: ast.Node, hand: int, tiles: int, players: int,
              names: dict[str, int] | None = None, score: int | None = None) -> int:
    """An upper bound of ``|value|`` of a scoring formula, given the largest hand value or
    pip count ``hand``, the set's ``tiles``, the ``players`` and bounds of other ``names``
    (variables, the target) and of a side's ``score`` (None: the players, as any other
    attribute): the JIT keeps numbers in 64 bits, so a ruleset whose points could outgrow
    them stays with Python's integers."""
    low, high = interval(node, hand, tiles, players, names, score)
    return max(abs(low), abs(high))


def interval(node: ast.Node, hand: int, tiles: int, players: int,  # noqa: C901
             names: dict[str, int] | None = None, score: int | None = None
             ) -> tuple[int, int]:
    """Bounds ``(low, high)`` of a formula's value (of a list's elements, for a list), by
    interval arithmetic: ``min(3, max(1, target - side.score))`` stays within 1..3 however
    large a score grows, which a bound of ``|value|`` alone could not tell. A name of
    ``names`` lies within ``-b..b``; a list of sides or seats holds at most ``players``
    elements, any other (tiles, ends) at most ``max(tiles, players)``."""
    known = names or {}
    longest = max(tiles, players)

    def sym(b: int) -> tuple[int, int]:
        return -b, b

    def length(n: ast.Node) -> int:   # the most elements the list ``n`` may hold
        t = n.obj.type if isinstance(n, ast.Attribute) and n.obj.type is not None \
            and n.obj.type.elem is not None else n.type
        return players if t is not None and t.elem in (SIDE, PLAYER) else longest

    def hull(*spans: tuple[int, int]) -> tuple[int, int]:
        return min(s[0] for s in spans), max(s[1] for s in spans)

    def bound(n: ast.Node) -> tuple[int, int]:  # noqa: C901 - one case per node kind
        match n:
            case ast.Name(name=name) if name in known:
                return sym(known[name])
            case ast.Int(value=v):
                return int(v), int(v)
            case ast.Bool() | ast.Tile():
                return 0, 1
            case ast.Name(name="players"):
                return players, players
            case ast.Name(name="boneyard_value" | "boneyard_pips"):
                return sym(hand)
            case ast.Name(name="round"):
                return 0, 1000             # a match stops after 1000 rounds
            case ast.Name(name="passes" | "drawn" | "boneyard"):
                return 0, tiles * players
            case ast.Name():
                return sym(players)        # a side or seat is a number below the players
            case ast.Attribute(attr="score") if score is not None:
                return sym(score)
            case ast.Attribute(attr=attr):
                if attr in ("pips", "value"):
                    return sym(hand)
                if attr in ("tiles", "drawn"):
                    return 0, tiles
                return sym(players)
            case ast.Unary(op="-", operand=x):
                lo, hi = bound(x)
                return -hi, -lo
            case ast.Unary(op="not"):
                return 0, 1
            case ast.Unary(operand=x):
                return bound(x)
            case ast.Binary(op=op, left=a, right=b):
                (alo, ahi), (blo, bhi) = bound(a), bound(b)
                if op == "+":
                    return alo + blo, ahi + bhi
                if op == "-":
                    return alo - bhi, ahi - blo
                if op == "*":
                    products = (alo * blo, alo * bhi, ahi * blo, ahi * bhi)
                    return min(products), max(products)
                if op == "//":             # |a // b| <= |a| (b = 0 gives 0)
                    return sym(max(abs(alo), abs(ahi)))
                if op == "%":              # |a % b| < |b| (b = 0 gives 0)
                    return sym(max(abs(blo), abs(bhi)))
                if op in ("and", "or"):
                    return hull((alo, ahi), (blo, bhi), (0, 1))
                return 0, 1                # a comparison
            case ast.Conditional(then=a, orelse=b):
                return hull(bound(a), bound(b))
            case ast.Each(body=body):      # an element's value (x -> ...)
                return bound(body)
            case ast.Index(obj=obj):       # an element of the list, or 0 past its ends
                lo, hi = bound(obj)
                return min(0, lo), max(0, hi)
            case ast.Call(func="any" | "all"):
                return 0, 1
            case ast.Call(func="count", args=args):
                return 0, length(args[0]) if args else longest
            case ast.Call(func="min" | "max" as func, args=[_, second, *_] as args) \
                    if not isinstance(second, ast.Each):   # of numbers, not of a list
                spans = [bound(a) for a in args]
                pick = min if func == "min" else max
                return pick(s[0] for s in spans), pick(s[1] for s in spans)
            case ast.Call(func=func, args=args):
                # a list's elements, or what the formula after ``x ->`` makes of each
                lo, hi = bound(args[-1]) if args and isinstance(args[-1], ast.Each) \
                    else hull(*(bound(a) for a in args)) if args else (0, 0)
                if func == "abs":
                    return 0, max(abs(lo), abs(hi))
                if func == "sum":
                    most = length(args[0])
                    return min(0, most * lo), max(0, most * hi)
                if func in ("min", "max"):  # an empty list's is 0
                    return min(0, lo), max(0, hi)
                return lo, hi
        raise Unsupported(type(n).__name__)
    return bound(node)
