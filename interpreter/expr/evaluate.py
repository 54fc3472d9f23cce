"""A direct tree-walking evaluator: the reference the compiled closures are tested against.

Slow (it walks the tree on every call) and used only by the property tests. It
needs a *checked* tree, since attribute reads depend on the checked types.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import ast
from .runtime import BINARY, FUNCTIONS, NOTHING, attribute_reader, each_call, index


def evaluate_tree(node: ast.Node, env: Mapping[str, Any]) -> Any:
    """The value of a checked tree in ``env``, computed by walking it."""
    match node:
        case ast.Int(value=v) | ast.Bool(value=v):
            return v
        case ast.Tile(low=low, high=high):
            return (low, high)
        case ast.Name(name=name):
            return env[name]
        case ast.Attribute(obj=obj, attr=attr):
            return attribute_reader(obj.type, attr)(evaluate_tree(obj, env))
        case ast.Index(obj=obj, at=at):
            return index(evaluate_tree(obj, env), evaluate_tree(at, env), NOTHING[node.type])
        case ast.Unary(op="-", operand=operand):
            return -evaluate_tree(operand, env)
        case ast.Unary(op="not", operand=operand):
            return not evaluate_tree(operand, env)
        case ast.Binary(op="and", left=left, right=right):
            return evaluate_tree(left, env) and evaluate_tree(right, env)
        case ast.Binary(op="or", left=left, right=right):
            return evaluate_tree(left, env) or evaluate_tree(right, env)
        case ast.Binary(op=op, left=left, right=right):
            return BINARY[op](evaluate_tree(left, env), evaluate_tree(right, env))
        case ast.Conditional(then=then, test=test, orelse=orelse):
            return evaluate_tree(then if evaluate_tree(test, env) else orelse, env)
        case ast.Call(func=func, args=[items, ast.Each(var=var, body=body)]):
            return each_call(func, evaluate_tree(items, env), var,
                             lambda bound: evaluate_tree(body, bound), env)
        case ast.Call(func=func, args=args):
            return FUNCTIONS[func](*(evaluate_tree(a, env) for a in args))
    raise TypeError(f"not a syntax tree node: {node!r}")
