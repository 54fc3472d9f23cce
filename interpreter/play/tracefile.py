"""The record of a match being played, written as it happens: one JSON line per event, flushed.

A player may quit, close the terminal or press Ctrl-C at any moment; whatever
happened until then is already on disk (``docs/records.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..diagnostics import Diagnostic, DiagnosticError
from ..records import dumps


class TraceWriter:
    """Appends the events of a live record it has not written yet; ``None`` path: no file."""

    def __init__(self, path: str | None):
        self.path = path
        self.written = 0
        self._fh = None
        if path:
            try:
                self._fh = open(path, "w", encoding="utf-8")  # noqa: SIM115 - kept open
            except OSError as exc:
                raise DiagnosticError([Diagnostic(
                    "file", f"cannot write the record to {path}: {exc.strerror}",
                    file=path)]) from None

    def sync(self, events: Sequence[dict[str, Any]]) -> None:
        """Write ``events[written:]`` and flush them to disk."""
        if self._fh is None:
            self.written = len(events)
            return
        try:
            for event in events[self.written:]:
                self._fh.write(dumps(event) + "\n")
                self._fh.flush()
        except OSError as exc:  # a full disk mid-match: say so, never carry on unrecorded
            raise DiagnosticError([Diagnostic(
                "file", f"cannot write the record to {self.path}: {exc.strerror}",
                file=self.path)]) from None
        self.written = len(events)

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
