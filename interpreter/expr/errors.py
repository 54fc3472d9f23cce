"""What the expression stages report: ``ExprProblem`` values gathered into one ``ExprError``.

Offsets are into the expression text only; the rules loader turns them into
file:line:col ``Diagnostic``s because only it knows where the text sits in the YAML.
"""

from __future__ import annotations

from dataclasses import dataclass

CODES = ("expr-syntax", "expr-name", "expr-attribute", "expr-type", "expr-args", "expr-limit")


@dataclass(frozen=True)
class ExprProblem:
    """One problem: a code from ``CODES``, a message, where (0-based offset, length), a hint."""

    code: str
    message: str
    offset: int = 0
    length: int = 1
    hint: str = ""


class ExprError(Exception):
    """Raised by ``compile_expression`` with every problem it found, in text order."""

    def __init__(self, problems: list[ExprProblem]):
        self.problems = sorted(problems, key=lambda p: p.offset)
        super().__init__("; ".join(f"{p.message} (at {p.offset})" for p in self.problems))

    def __reduce__(self):
        return (type(self), (self.problems,))
