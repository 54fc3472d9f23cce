"""Text to syntax tree: the lark LALR parser (built once) and a transformer to ``ast`` nodes.

Syntax errors become one ``ExprProblem`` saying, in plain words, what was found
and what could have come there. The nesting limit is checked on lark's tree
without recursion, before anything recursive walks it.
"""

from __future__ import annotations

import difflib
from functools import cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, UnexpectedCharacters, UnexpectedInput, v_args
from lark.exceptions import UnexpectedEOF, UnexpectedToken

from . import ast
from .errors import ExprError, ExprProblem

MAX_LENGTH = 1000
MAX_DEPTH = 50

_GRAMMAR = Path(__file__).with_name("grammar.lark")


@cache
def _parser() -> Lark:
    return Lark(_GRAMMAR.read_text(encoding="utf-8"), parser="lalr",
                propagate_positions=True, maybe_placeholders=False)


# Terminals that are not a fixed string, in words.
_TERMINAL_WORDS = {"NAME": "a name", "INT": "a number", "COMP_OP": "a comparison",
                   "$END": "the end of the expression"}


def _describe_terminal(name: str) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    try:
        pattern = _parser().get_terminal(name).pattern
    except KeyError:
        return name.lower()
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return name.lower()


def _expected_words(names: set[str]) -> str:
    words = sorted({_describe_terminal(n) for n in names},
                   key=lambda w: (not w.startswith("a"), w))
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


# Characters people type from other languages, with what to write instead.
_CHARACTER_HINTS = {
    "*": "'**' (powers) is not part of the language; multiply with '*'",
    "/": "division is '//' (whole numbers, rounded down)",
    "'": "formulas have no text values; a tile is written [6|4]",
    '"': "formulas have no text values; a tile is written [6|4]",
    "≤": "write '<='", "≥": "write '>='", "≠": "write '!='", "×": "write '*'",
    "÷": "write '//'", "−": "write '-'", "?": "write 'A if condition else B'",
    ":": "write 'A if condition else B'",
}
for _ch in "&|!=":
    _CHARACTER_HINTS[_ch] = "use 'and', 'or', 'not'; compare with '==' and '!='"

_KEYWORDS = ("and", "else", "false", "if", "not", "or", "true")


def _syntax_problem(err: UnexpectedInput, text: str) -> ExprProblem:
    """One plain-words problem for lark's error: what was found, what could come there."""
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream]
        return ExprProblem("expr-syntax", f"unexpected character {ch!r}",
                           err.pos_in_stream, 1, _CHARACTER_HINTS.get(ch, ""))
    if not text.strip():
        return ExprProblem("expr-syntax", "the expression is empty", 0, 1,
                           "write a number or a formula, e.g. 7")
    if isinstance(err, UnexpectedEOF) or (
            isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        expected = _expected_words(set(err.expected))
        hint = _else_hint(set(err.expected))
        return ExprProblem("expr-syntax", f"the expression ends too early; expected {expected}",
                           len(text), 1, hint)
    assert isinstance(err, UnexpectedToken)
    tok = err.token
    names = set(err.accepts or err.expected)
    expected = _expected_words(names)
    return ExprProblem("expr-syntax", f"unexpected {_token_words(tok)}; expected {expected}",
                       tok.start_pos, max(1, len(tok)), _token_hint(tok, names, text))


def _else_hint(expected: set[str]) -> str:
    if any(_describe_terminal(n) == "'else'" for n in expected):
        return "a conditional is written 'A if condition else B'"
    return ""


def _token_hint(tok: Token, expected: set[str], text: str) -> str:
    after_operand = "NAME" not in expected and "INT" not in expected
    if tok == "*" and text[tok.start_pos - 1:tok.start_pos] == "*":
        return _CHARACTER_HINTS["*"]
    if tok.type == "COMP_OP" and after_operand and "COMP_OP" not in expected:
        return "comparisons do not chain: write 'a < b and b < c'"
    if tok.type == "NAME" and after_operand:
        keywords = [k for k in _KEYWORDS if f"'{k}'" in map(_describe_terminal, expected)]
        close = difflib.get_close_matches(str(tok), keywords, n=1, cutoff=0.6)
        if close:
            return f"did you mean '{close[0]}'?"
    if tok.type in ("NAME", "INT") and after_operand:
        return _else_hint(expected) or "is an operator missing?"
    return ""


def _token_words(tok: Token) -> str:
    if tok.type == "NAME":
        return f"name '{tok}'"
    if tok.type == "INT":
        return f"number {tok}"
    return f"'{tok}'"


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

    def group(self, meta, children):
        return children[0]

    def attribute(self, meta, children):
        obj, attr = children
        return ast.Attribute(obj, str(attr), attr.start_pos, **_pos(meta))

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
        raise ExprError([_syntax_problem(err, text)]) from None
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
