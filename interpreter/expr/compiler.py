"""A checked syntax tree to one Python closure, built once, so evaluation walks no tree.

Each node becomes a small function of ``env``; constants are captured, attribute
readers and operators looked up here, at compile time, never during a call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from . import ast
from .runtime import BINARY, FUNCTIONS, NOTHING, attribute_reader, each_call, index

Fn = Callable[[Mapping[str, Any]], Any]


def compile_tree(node: ast.Node) -> Fn:
    """The closure computing ``node`` from an environment of the field's names."""
    return _COMPILERS[type(node)](node)


def _constant(value: Any) -> Fn:
    return lambda env: value


def _name(node: ast.Name) -> Fn:
    name = node.name
    return lambda env: env[name]


def _attribute(node: ast.Attribute) -> Fn:
    assert node.obj.type is not None, "compile only checked trees"
    read = attribute_reader(node.obj.type, node.attr)
    obj = compile_tree(node.obj)
    return lambda env: read(obj(env))


def _index(node: ast.Index) -> Fn:
    assert node.type is not None, "compile only checked trees"
    items, at, nothing = compile_tree(node.obj), compile_tree(node.at), NOTHING[node.type]
    return lambda env: index(items(env), at(env), nothing)


def _unary(node: ast.Unary) -> Fn:
    operand = compile_tree(node.operand)
    if node.op == "-":
        return lambda env: -operand(env)
    return lambda env: not operand(env)


def _binary(node: ast.Binary) -> Fn:
    left, right = compile_tree(node.left), compile_tree(node.right)
    if node.op == "and":
        return lambda env: left(env) and right(env)
    if node.op == "or":
        return lambda env: left(env) or right(env)
    op = BINARY[node.op]
    return lambda env: op(left(env), right(env))


def _conditional(node: ast.Conditional) -> Fn:
    then, test, orelse = (compile_tree(n) for n in (node.then, node.test, node.orelse))
    return lambda env: then(env) if test(env) else orelse(env)


def _call(node: ast.Call) -> Fn:
    if len(node.args) == 2 and isinstance(node.args[1], ast.Each):
        func, var = node.func, node.args[1].var
        items, body = compile_tree(node.args[0]), compile_tree(node.args[1].body)
        return lambda env: each_call(func, items(env), var, body, env)
    fn = FUNCTIONS[node.func]
    args = tuple(compile_tree(a) for a in node.args)
    if len(args) == 1:
        (arg,) = args
        return lambda env: fn(arg(env))
    return lambda env: fn(*(a(env) for a in args))


_COMPILERS: dict[type, Callable[[Any], Fn]] = {
    ast.Int: lambda n: _constant(n.value),
    ast.Bool: lambda n: _constant(n.value),
    ast.Tile: lambda n: _constant((n.low, n.high)),
    ast.Name: _name,
    ast.Attribute: _attribute,
    ast.Index: _index,
    ast.Unary: _unary,
    ast.Binary: _binary,
    ast.Conditional: _conditional,
    ast.Call: _call,
}
