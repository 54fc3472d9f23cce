"""Map an offset inside an expression's text to the file line and column where it was written.

The expression text is the YAML scalar's value; the file holds it quoted,
escaped or folded. We align the value's characters with the raw source text
(skipping quotes, escape backslashes, indentation and line breaks) so a caret
lands on the offending character whatever the quoting style.

>>> from dominorules.rules.marked_yaml import Mark
>>> m = Mark("f.yaml", 3, 13, 3, 3, raw="'7 if players'", style="'")
>>> locate(m, "7 if players", 5)
(3, 19)
"""

from __future__ import annotations

from .marked_yaml import Mark


def _content_start(raw: str, style: str | None) -> int:
    if style in ("'", '"'):
        return 1
    if style in ("|", ">"):
        newline = raw.find("\n")
        return newline + 1 if newline >= 0 else len(raw)
    return 0


def _align(raw: str, value: str, style: str | None) -> list[int] | None:
    """For each character of ``value``, its index in ``raw``; None if they do not align."""
    out: list[int] = []
    i = _content_start(raw, style)
    for ch in value:
        while i < len(raw) and raw[i] != ch:
            if ch == " " and raw[i] == "\n":
                break  # a folded line break stands for this space
            i += 1
        if i >= len(raw):
            return None
        out.append(i)
        i += 1
    return out


def locate(mark: Mark, value: str, offset: int) -> tuple[int, int]:
    """The 1-based (line, column) in the file of ``value[offset]`` (written at ``mark``)."""
    if not mark.raw:
        return mark.line, mark.column
    table = _align(mark.raw, value, mark.style)
    if table is None or not table:
        return mark.line, mark.column
    index = table[min(max(offset, 0), len(table) - 1)]
    if offset >= len(table):  # just past the end (e.g. "unexpected end of expression")
        index += 1
    before = mark.raw[:index]
    newlines = before.count("\n")
    if newlines == 0:
        return mark.line, mark.column + index
    return mark.line + newlines, index - before.rfind("\n")
