"""Lark's syntax errors in plain words: what was found, what could have come there, a hint.

The expected terminals are named as a person would say them ("a name", "'else'",
"the end of the expression"), and common slips from other languages (``**``, ``/``,
``&&``, ``? :``, ``≤``) get a hint saying what to write instead.
"""

from __future__ import annotations

import difflib

from lark import Lark, Token, UnexpectedCharacters, UnexpectedInput
from lark.exceptions import UnexpectedEOF, UnexpectedToken

from .errors import ExprProblem

# Terminals that are not a fixed string, in words; fixed strings are shown quoted.
_TERMINAL_WORDS = {"NAME": "a name", "INT": "a number", "COMP_OP": "a comparison",
                   "$END": "the end of the expression"}

# Characters people type from other languages, with what to write instead.
_CHARACTER_HINTS = {
    "*": "'**' (powers) is not part of the language; multiply with '*'",
    "/": "division is '//' (whole numbers, rounded down)",
    "'": "formulas have no text values; a tile is written [6|4]",
    '"': "formulas have no text values; a tile is written [6|4]",
    "≤": "write '<='", "≥": "write '>='", "≠": "write '!='", "×": "write '*'",
    "÷": "write '//'", "−": "write '-'", "?": "write 'A if condition else B'",
    ":": "write 'A if condition else B'",
    **{ch: "use 'and', 'or', 'not'; compare with '==' and '!='" for ch in "&|!="},
}

_KEYWORDS = ("and", "else", "false", "if", "not", "or", "true")


def terminal_words(lark: Lark) -> dict[str, str]:
    """Every terminal of the grammar in words: ``PLUS`` -> ``'+'``, ``NAME`` -> ``a name``."""
    words = dict(_TERMINAL_WORDS)
    for term in lark.terminals:
        if term.name not in words:
            pattern = term.pattern
            words[term.name] = f"'{pattern.value}'" if pattern.type == "str" else term.name.lower()
    return words


def syntax_problem(err: UnexpectedInput, text: str, words: dict[str, str]) -> ExprProblem:
    """One plain-words problem for lark's error (``words`` from ``terminal_words``)."""
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream]
        return ExprProblem("expr-syntax", f"unexpected character {ch!r}",
                           err.pos_in_stream, 1, _CHARACTER_HINTS.get(ch, ""))
    if not text.strip():
        return ExprProblem("expr-syntax", "the expression is empty", 0, 1,
                           "write a number or a formula, e.g. 7")
    if isinstance(err, UnexpectedEOF) or (
            isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        expected = {words.get(n, n.lower()) for n in err.expected}
        return ExprProblem("expr-syntax", "the expression ends too early; expected "
                           + _one_of(expected), len(text), 1, _end_hint(expected, text))
    assert isinstance(err, UnexpectedToken)
    tok = err.token
    expected = {words.get(n, n.lower()) for n in (err.accepts or err.expected)}
    return ExprProblem("expr-syntax", f"unexpected {_token_words(tok)}; expected "
                       + _one_of(expected), tok.start_pos, max(1, len(tok)),
                       _token_hint(tok, expected, text) or _expected_hint(tok, expected))


def _one_of(words: set[str]) -> str:
    """``a name, a number, '(' or '-'``: described terminals first, then symbols, sorted."""
    ordered = sorted(words, key=lambda w: (not w.startswith("a"), w))
    if len(ordered) <= 1:
        return "".join(ordered)
    return ", ".join(ordered[:-1]) + " or " + ordered[-1]


def _else_hint(expected: set[str]) -> str:
    if "'else'" in expected:
        return "a conditional is written 'A if condition else B'"
    return ""


def _end_hint(expected: set[str], text: str) -> str:
    """What finishes a formula that stops too early: its ``else``, a closing bracket, or
    the operand its last operator needs."""
    if "'else'" in expected:
        return _else_hint(expected)
    if "')'" in expected:
        return "close every '(' with ')'"
    if "']'" in expected:
        return "close the tile with ']', e.g. [6|4]"
    if "a name" in expected and text.rstrip().endswith("."):
        return "name an attribute after the '.', e.g. tile.pips"
    if "a name" in expected or "a number" in expected:
        end = text.rstrip()
        last = end[-1] if end and not (end[-1].isalnum() or end[-1] == "_") else \
            (end.split() or [""])[-1]
        return f"write what comes after '{last}', or remove it"
    return ""


def _expected_hint(tok: Token, expected: set[str]) -> str:
    """What to write instead of a token nothing may be (``)`` with no ``(``, ``== 3``,
    ``[1|]``)."""
    if tok == ")" and "')'" not in expected:
        return "remove the ')', or open it with '(' earlier"
    if tok == "]" and "a number" in expected:
        return "a tile has two numbers: [6|4]"
    if "a name" in expected or "a number" in expected:
        return f"write a value (a name or a number) before '{tok}'"
    return "remove it, or write an operator before it"


def _token_hint(tok: Token, expected: set[str], text: str) -> str:
    after_operand = "a name" not in expected and "a number" not in expected
    if tok == "*" and text[tok.start_pos - 1:tok.start_pos] == "*":
        return _CHARACTER_HINTS["*"]
    if tok.type == "COMP_OP" and after_operand and "a comparison" not in expected:
        return "comparisons do not chain: write 'a < b and b < c'"
    if tok.type == "NAME" and after_operand:
        keywords = [k for k in _KEYWORDS if f"'{k}'" in expected]
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
