"""The one error type every stage returns: a Diagnostic, rendered only by the CLI.

Library code never prints: it returns (or raises, wrapped in ``DiagnosticError``)
diagnostics carrying code, message, file, line, column, field path and hint. The
CLI renders them as ``file:line:col: message`` plus the source line and a caret.

>>> d = Diagnostic("schema", "unknown key 'hand_sise'", file="x.yaml", line=3, column=3,
...                path="deal.hand_sise", hint="did you mean 'hand_size'?")
>>> print(d.render(file_text="name: x\\ndeal:\\n  hand_sise: 7\\n"))
x.yaml:3:3: error: unknown key 'hand_sise' [deal.hand_sise]
    3 |   hand_sise: 7
      |   ^
  hint: did you mean 'hand_size'?
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Diagnostic:
    """One problem a person can act on.

    ``line`` and ``column`` are 1-based (0 when unknown); ``path`` is the dotted
    field path inside the ruleset (``scoring.domino``), empty when not applicable;
    ``code`` is a short stable kind (``yaml``, ``schema``, ``expr-syntax``,
    ``expr-name``, ``expr-type``, ``extends``, ``deal``, ``players``, ``example`` ...).
    """

    code: str
    message: str
    file: str = ""
    line: int = 0
    column: int = 0
    path: str = ""
    hint: str = ""
    length: int = 1  # how many characters the caret underlines
    severity: str = "error"  # or "warning": told, but the input is still accepted

    @property
    def location(self) -> str:
        """``file:line:col`` (as much of it as is known)."""
        parts = [self.file or "<input>"]
        if self.line:
            parts.append(str(self.line))
            if self.column:
                parts.append(str(self.column))
        return ":".join(parts)

    def headline(self) -> str:
        """The one-line form: ``file:line:col: error: message [path]`` (``error: ...``
        alone when the problem is in no file, e.g. a bot failing in a match)."""
        where = f" [{self.path}]" if self.path else ""
        prefix = f"{self.location}: " if self.file or self.line else ""
        return f"{prefix}{self.severity}: {self.message}{where}"

    def render(self, file_text: str | None = None) -> str:
        """Headline, then the file's line with a caret under the column, then the hint."""
        out = [self.headline()]
        if file_text is not None and self.line:
            lines = file_text.splitlines()
            if 0 < self.line <= len(lines):
                text, column = _window(lines[self.line - 1].rstrip("\n"), self.column)
                gutter = f"{self.line:>5} | "
                out.append(gutter + text)
                if column:
                    pad = "".join(c if c == "\t" else " " for c in text[: column - 1])
                    width = min(max(1, self.length), len(text) - column + 2)
                    out.append(" " * (len(gutter) - 2) + "| " + pad + "^" * max(1, width))
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)

    def sort_key(self) -> tuple:
        return (self.file, self.line, self.column, self.code, self.message)


SHOWN_LINE = 120  # characters of a source line shown: a long line is cut around the caret


def _window(text: str, column: int) -> tuple[str, int]:
    """A line cut to at most about ``SHOWN_LINE`` characters around ``column`` (1-based),
    with ``...`` where it was cut, and the column inside the cut text."""
    if len(text) <= SHOWN_LINE:
        return text, column
    start = max(0, min(column - 1 - SHOWN_LINE // 2, len(text) - SHOWN_LINE)) if column else 0
    cut = text[start:start + SHOWN_LINE]
    head = "..." if start else ""
    tail = "..." if start + SHOWN_LINE < len(text) else ""
    return head + cut + tail, (column - start + len(head)) if column else 0


class DiagnosticError(Exception):
    """Raised by library code when it cannot go on; carries every diagnostic found."""

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.headline() for d in self.diagnostics))


class UsageError(DiagnosticError):
    """The command asks for something impossible (an unknown bot, a player count a ruleset
    does not allow): the CLI exits 2, as for any usage error, not 1 (invalid input)."""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A hint naming the closest choice, or listing them all when none is close."""
    choices = sorted(set(choices))
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if close:
        return f"did you mean '{close[0]}'?"
    if choices:
        return "expected one of: " + ", ".join(choices)
    return ""
