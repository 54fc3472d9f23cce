"""Canonical text for a formula: one space around operators, parentheses only where needed.

Used by the rule sheet. ``parse(format_expression(tree)) == tree`` for every tree.
"""

from __future__ import annotations

from . import ast

# Binding strength, loosest first, as in Python.
_CONDITIONAL, _OR, _AND, _NOT, _COMPARE, _SUM, _PRODUCT, _UNARY, _POSTFIX = range(1, 10)
_BINARY_LEVEL = {"or": _OR, "and": _AND, "+": _SUM, "-": _SUM,
                 "*": _PRODUCT, "//": _PRODUCT, "%": _PRODUCT,
                 **{op: _COMPARE for op in ast.COMPARISONS}}


def format_expression(tree_or_source: ast.Node | str | int | bool) -> str:
    """The canonical text of a syntax tree (or of source text, parsed first)."""
    if isinstance(tree_or_source, ast.Node):
        return _fmt(tree_or_source, _CONDITIONAL)
    from .parser import parse, source_text
    return _fmt(parse(source_text(tree_or_source)), _CONDITIONAL)


def _level(node: ast.Node) -> int:
    match node:
        case ast.Conditional():
            return _CONDITIONAL
        case ast.Binary(op=op):
            return _BINARY_LEVEL[op]
        case ast.Unary(op="not"):
            return _NOT
        case ast.Unary():
            return _UNARY
        case ast.Int(value=v) if v < 0:  # only built by hand: the parser reads -2 as -(2)
            return _UNARY
        case _:
            return _POSTFIX


def _fmt(node: ast.Node, at_least: int) -> str:
    text = _text(node)
    return f"({text})" if _level(node) < at_least else text


def _text(node: ast.Node) -> str:
    match node:
        case ast.Int(value=v):
            return str(v)
        case ast.Bool(value=v):
            return "true" if v else "false"
        case ast.Tile(low=low, high=high):
            return f"[{low}|{high}]"
        case ast.Name(name=name):
            return name
        case ast.Attribute(obj=obj, attr=attr):
            return f"{_fmt(obj, _POSTFIX)}.{attr}"
        case ast.Index(obj=obj, at=at):
            return f"{_fmt(obj, _POSTFIX)}[{_fmt(at, _CONDITIONAL)}]"
        case ast.Unary(op="-", operand=operand):
            return "-" + _fmt(operand, _UNARY)
        case ast.Unary(op="not", operand=operand):
            return "not " + _fmt(operand, _NOT)
        case ast.Binary(op=op, left=left, right=right):
            level = _BINARY_LEVEL[op]
            # left-associative; comparisons do not chain, so both sides bind tighter
            left_at = level + 1 if level == _COMPARE else level
            return f"{_fmt(left, left_at)} {op} {_fmt(right, level + 1)}"
        case ast.Conditional(then=then, test=test, orelse=orelse):
            return (f"{_fmt(then, _OR)} if {_fmt(test, _OR)} "
                    f"else {_fmt(orelse, _CONDITIONAL)}")
        case ast.Call(func=func, args=args):
            return f"{func}(" + ", ".join(_fmt(a, _CONDITIONAL) for a in args) + ")"
        case ast.Each(var=var, body=body):
            return f"{var} -> {_fmt(body, _CONDITIONAL)}"
    raise TypeError(f"not a syntax tree node: {node!r}")
