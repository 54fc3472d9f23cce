"""Text to syntax tree: the lark LALR parser (built once) and a transformer to ``ast`` nodes.

Syntax errors become one ``ExprProblem`` (worded by ``syntax_errors``). The nesting
limit is checked on lark's tree without recursion, before anything recursive walks it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, UnexpectedInput, v_args

from . import ast
from .errors import ExprError, ExprProblem
from .syntax_errors import syntax_problem, terminal_words

MAX_LENGTH = 1000
MAX_DEPTH = 50

_GRAMMAR = Path(__file__).with_name("grammar.lark")


@cache
def _parser() -> Lark:
    return Lark(_GRAMMAR.read_text(encoding="utf-8"), parser="lalr",
                propagate_positions=True, maybe_placeholders=False)


@cache
def _words() -> dict[str, str]:
    return terminal_words(_parser())


def _depth_problem(tree: Tree) -> ExprProblem | None:
    """The first node nested more than ``MAX_DEPTH`` deep, found without recursion."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return ExprProblem(
                "expr-limit", f"the expression is nested more than {MAX_DEPTH} levels deep",
                node.meta.start_pos, max(1, node.meta.end_pos - node.meta.start_pos),
                "split it into simpler parts")
        # an argument list is part of its call, not a level of its own
        stack.extend((c, depth if c.data == "arguments" else depth + 1)
                     for c in node.children if isinstance(c, Tree))
    return None


def _pos(meta) -> dict:
    return {"offset": meta.start_pos, "length": meta.end_pos - meta.start_pos}


@v_args(meta=True)
class _ToAst(Transformer):
    """lark tree -> ``ast`` nodes; one method per alias in grammar.lark."""

    def __init__(self, text: str):
        super().__init__()
        self._text = text

    def number(self, meta, children):
        return ast.Int(int(children[0]), **_pos(meta))

    def true(self, meta, children):
        return ast.Bool(True, **_pos(meta))

    def false(self, meta, children):
        return ast.Bool(False, **_pos(meta))

    def tile(self, meta, children):
        a, b = int(children[0]), int(children[1])
        return ast.Tile(min(a, b), max(a, b), **_pos(meta))

    def name(self, meta, children):
        return ast.Name(str(children[0]), **_pos(meta))

    def call(self, meta, children):
        args = children[1] if len(children) > 1 else []
        return ast.Call(str(children[0]), args, **_pos(meta))

    def arguments(self, meta, children):
        return list(children)

    def each(self, meta, children):
        var, body = children
        return ast.Each(str(var), body, var.start_pos, **_pos(meta))

    def group(self, meta, children):
        return children[0]

    def attribute(self, meta, children):
        obj, attr = children
        return ast.Attribute(obj, str(attr), attr.start_pos, **_pos(meta))

    def index(self, meta, children):
        obj, at = children
        return ast.Index(obj, at, **_pos(meta))

    def neg(self, meta, children):
        return ast.Unary("-", children[0], **_pos(meta))

    def not_op(self, meta, children):
        return ast.Unary("not", children[0], **_pos(meta))

    def conditional(self, meta, children):
        then, test, orelse = children
        return ast.Conditional(then, test, orelse, **_pos(meta))

    def compare(self, meta, children):
        left, op, right = children
        return ast.Binary(str(op), left, right, op.start_pos, **_pos(meta))

    def _binary(op):  # noqa: N805 - a method factory used while building the class
        def method(self, meta, children):
            left, right = children
            return ast.Binary(op, left, right, _between(self._text, left, right), **_pos(meta))
        return method

    add = _binary("+")
    sub = _binary("-")
    mul = _binary("*")
    floordiv = _binary("//")
    mod = _binary("%")
    and_op = _binary("and")
    or_op = _binary("or")


def _between(text: str, left: ast.Node, right: ast.Node) -> int:
    """Offset of the operator between two operands (first non-space, non-')' after left)."""
    i = left.offset + left.length
    while i < right.offset and (text[i].isspace() or text[i] == ")"):
        i += 1
    return i


def parse(text: str) -> ast.Node:
    """Parse formula text into a syntax tree; raise ``ExprError`` on bad syntax or limits."""
    if len(text) > MAX_LENGTH:
        raise ExprError([ExprProblem(
            "expr-limit", f"the expression is {len(text)} characters long; "
            f"at most {MAX_LENGTH} are allowed", MAX_LENGTH, len(text) - MAX_LENGTH,
            "split it into simpler parts")])
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as err:
        raise ExprError([syntax_problem(err, text, _words())]) from None
    if isinstance(tree, Token):  # a lone terminal cannot happen: every atom is aliased
        raise ExprError([ExprProblem("expr-syntax", "not an expression", 0, len(text))])
    problem = _depth_problem(tree)
    if problem:
        raise ExprError([problem])
    return _ToAst(text).transform(tree)


def source_text(source: str | int | bool) -> str:
    """A YAML scalar as formula text: ``7`` -> ``"7"``, ``True`` -> ``"true"``."""
    if isinstance(source, bool):
        return "true" if source else "false"
    if isinstance(source, int):
        return str(source)
    if not isinstance(source, str):
        raise ExprError([ExprProblem(
            "expr-type", f"a formula is text or a whole number, not {source!r}", 0, 1)])
    return source
