"""Text from a ruleset or a record made safe to print: control characters shown, not obeyed.

A title holding ``ESC ] 0 ; ... BEL`` would set the terminal's window title, one holding
``ESC [ 2 J`` would clear the screen; a right-to-left override would make a line read
differently from what it holds. Every command prints such text through ``visible``
(plain text) or a ``VisibleConsole`` (rich): each control character becomes its
escape (``\\x1b``), newlines and tabs stay.

>>> visible("Draw\\x1b]0;owned\\x07 \\u202eDraw")
'Draw\\\\x1b]0;owned\\\\x07 \\\\u202eDraw'
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

# C0 but newline and tab, DEL, C1, and the format characters that reorder or hide text
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e"
                      "\u2060-\u2069\ufeff\ufff9-\ufffb]")


def _escape(match: re.Match, json: bool) -> str:
    code = ord(match.group())
    if json or code > 0xFF:
        return f"\\u{code:04x}"
    return f"\\x{code:02x}"


def visible(text: str, json: bool = False) -> str:
    """``text`` with every control character written as its escape; ``json``: as JSON's
    ``\\u00XX`` (the text is JSON, where only strings can hold such characters)."""
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda m: _escape(m, json), text)


def VisibleConsole(**options: Any):  # noqa: N802 - stands for the class, made on first use
    """A rich Console that prints every text through ``visible``; its own control codes
    (clearing the screen, moving the cursor) and the styles it adds are left alone.
    rich is imported only here: ``list`` and ``rules`` start without it."""
    return _console_class()(**options)


@cache
def _console_class() -> type:
    from rich.console import Console
    from rich.segment import Segment

    class _VisibleConsole(Console):
        def _render_buffer(self, buffer) -> str:
            return super()._render_buffer(
                Segment(text if control else visible(text), style, control)
                for text, style, control in buffer)

    return _VisibleConsole
