"""Plain text laid out for the terminal it is printed on: wrapped at spaces only.

A rule sheet, a diff and ``list`` are read in terminals of any width (80 columns, a
phone's SSH client, a tmux pane). Lines are filled to the terminal's width, never
past it, and broken only at spaces: never inside a word (``0-0``), never before a
word that starts with a minus sign (a continuation line starting ``- players)``
reads as a new bullet), and never inside a formula that fits on one line.
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
from collections.abc import Iterable, Sequence

DEFAULT_WIDTH = 88   # output that goes to a file or a pipe (no terminal to measure)
MOST_WIDTH = 100     # lines longer than this are hard to read, however wide the terminal
LEAST_WIDTH = 30
_GLUE = "\x1f"       # stands for a space no line may break at, while the text is filled


def terminal_columns() -> int | None:
    """``COLUMNS`` when set, else the width of the terminal stdout is, else None (a pipe
    or a file: nothing to measure)."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns or None


def terminal_width(default: int = DEFAULT_WIDTH) -> int:
    """The width to fill lines to: ``terminal_columns()``, else ``default``; at most
    ``MOST_WIDTH``."""
    width = terminal_columns() or default
    return max(LEAST_WIDTH, min(width, MOST_WIDTH))


def _glued(text: str, keep: Iterable[str], room: int) -> str:
    """``text`` with the spaces no line may break at replaced by ``_GLUE``."""
    for piece in sorted(set(keep), key=len, reverse=True):
        if " " in piece and len(piece) <= room and piece in text:
            text = text.replace(piece, piece.replace(" ", _GLUE))
    # a word starting with a minus sign stays on the line of the word before it
    return text.replace(" -", _GLUE + "-")


def wrap(text: str, indent: str = "", width: int = DEFAULT_WIDTH,
         keep: Sequence[str] = (), subsequent: str | None = None) -> str:
    """``text`` filled to ``width`` columns after ``indent`` (the first line's prefix;
    ``subsequent``, by default as many spaces, prefixes the others), broken at spaces
    only; each of ``keep`` (a formula) stays on one line when it fits on one."""
    rest = " " * len(indent) if subsequent is None else subsequent
    room = max(width - max(len(indent), len(rest)), 1)
    filled = textwrap.fill(_glued(text, keep, room), width=max(width, len(indent) + 1),
                           initial_indent=indent, subsequent_indent=rest,
                           break_long_words=False, break_on_hyphens=False)
    return filled.replace(_GLUE, " ")


def two_columns(rows: Sequence[tuple[str, str]], width: int | None = DEFAULT_WIDTH,
                gap: int = 2) -> list[str]:
    """Names and their descriptions: the descriptions wrapped in a column of their own,
    or, when the names leave it too little room, each under its name, indented; with
    ``width`` None (a pipe: ``grep`` reads it) one line a name, unwrapped."""
    name_width = max((len(name) for name, _ in rows), default=0)
    room = (width or 0) - name_width - gap
    out = []
    for name, text in rows:
        if not text or width is None:
            out.append(f"{name:<{name_width}}{' ' * gap}{text}".rstrip())
        elif room >= 30:
            out.append(wrap(text, f"{name:<{name_width}}{' ' * gap}", width))
        else:
            out += [name, wrap(text, "    ", width)]
    return out
