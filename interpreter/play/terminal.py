"""The screen and the keyboard behind one small interface, so the table can be driven in tests.

``play`` and ``replay`` only call ``show``, ``ask``, ``clear`` and ``pause``.
``RichTerminal`` is the real one (rich on stdout, ``input`` for lines);
``ScriptedTerminal`` answers from a list and keeps what was shown as plain text.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any, Protocol

from rich.console import Console
from rich.text import Text

from ..visible import VisibleConsole


class Terminal(Protocol):
    """What the table needs from a terminal. ``ask`` raises EOFError / KeyboardInterrupt."""

    def show(self, *renderables: Any) -> None: ...

    def ask(self, prompt: str) -> str: ...

    def clear(self) -> None: ...

    def pause(self, seconds: float) -> None: ...

    @property
    def width(self) -> int: ...


class RichTerminal:
    """stdout through rich; ``fast`` turns every pause off."""

    def __init__(self, console: Console | None = None, fast: bool = False):
        self.console = console or VisibleConsole(highlight=False)  # a ruleset's text: shown
        self.fast = fast

    @property
    def width(self) -> int:
        return self.console.width

    def show(self, *renderables: Any) -> None:
        for renderable in renderables:  # a plain str is text, never rich markup
            self.console.print(Text(renderable) if isinstance(renderable, str) else renderable)

    def ask(self, prompt: str) -> str:
        return self.console.input(Text(prompt))

    def clear(self) -> None:
        """Wipe the screen and its scrollback, so a hot-seat hand cannot be scrolled back to."""
        if self.console.is_terminal and not self.console.is_dumb_terminal:
            self.console.file.write("\x1b[2J\x1b[3J\x1b[H")
            self.console.file.flush()
        else:  # no escape codes understood: push everything off the screen
            self.console.file.write("\n" * max(self.console.height, 50))
            self.console.file.flush()

    def pause(self, seconds: float) -> None:
        if not self.fast:
            self.console.file.flush()
            time.sleep(seconds)


class ScriptedTerminal:
    """A terminal for tests: answers come from ``inputs`` (EOF when they run out)."""

    def __init__(self, inputs: Iterable[str], width: int = 160):
        self.inputs = list(inputs)
        self.console = Console(width=width, record=True, color_system=None,
                               force_terminal=False, file=_Null())
        self.prompts: list[str] = []
        self.clears = 0

    @property
    def width(self) -> int:
        return self.console.width

    @property
    def text(self) -> str:
        """Everything shown so far, as plain text."""
        return self.console.export_text(clear=False)

    def show(self, *renderables: Any) -> None:
        for renderable in renderables:  # a plain str is text, never rich markup
            self.console.print(Text(renderable) if isinstance(renderable, str) else renderable)

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.console.print(Text(prompt), end="")
        if not self.inputs:
            raise EOFError
        answer = self.inputs.pop(0)
        self.console.print(Text(answer))
        return answer

    def clear(self) -> None:
        self.clears += 1
        self.console.print("<clear>")

    def pause(self, seconds: float) -> None:
        pass


class _Null:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass
