"""validate's warnings for play-time event formulas that can never apply: a constant index
past the open ends the board can ever show (``end_tiles[2]`` on a line without a
spinner: always the nothing of ``docs/language.md``), and an ``if`` that reads nothing
and is false (the rule never fires). Each at the formula's file:line:col, with a hint.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..diagnostics import Diagnostic
from ..expr import ExprError, ast, compile_expression
from ..expr.ast import names_read, nodes
from .exprpos import locate
from .marked_yaml import FieldPath, Mark, dotted

_END_LISTS = ("ends", "end_doubles", "end_tiles")
_KEYS = ("if", "points", "each_opponent", "again", "skip", "next_draws")


def _kind(key: str, after: str) -> str:
    return f"event_{after}_condition" if key in ("if", "again") else f"event_{after}"


def never_apply_warnings(data: Mapping[str, Any], marks: Mapping[FieldPath, Mark]
                         ) -> list[Diagnostic]:
    """The warnings for ``data``'s events (a merged, defaulted ruleset)."""
    board = data.get("board") or {}
    if board.get("layout") is not None:
        return []   # a shaped board's ends grow with its arms: no fixed count
    most = 4 if board.get("spinner", "none") == "first_double" else 2
    out: list[Diagnostic] = []
    for i, event in enumerate(data.get("events") or ()):
        after = event.get("after")
        for key in _KEYS:
            text = event.get(key)
            if not isinstance(text, str) or after not in ("place", "draw", "pass"):
                continue
            path = ("events", i, key)
            try:
                tree = compile_expression(text, _kind(key, after)).ast
            except ExprError:
                continue   # the load reports it
            out += _past_the_ends(tree, text, path, marks.get(path), most)
            if key == "if" and not names_read(tree) and tree.type is not None and \
                    compile_expression(text, _kind(key, after)).fn({}) is False:
                out.append(_warning(marks.get(path), text, 0, path,
                                    f"events[{i}] never applies: its if is false whatever "
                                    "happens", "write the condition it stands for, or remove "
                                    "the rule"))
    return out


def _past_the_ends(tree: ast.Node, text: str, path: FieldPath, mark: Mark | None,
                   most: int) -> list[Diagnostic]:
    out = []
    for node in nodes(tree):
        if not (isinstance(node, ast.Index) and isinstance(node.obj, ast.Name)
                and node.obj.name in _END_LISTS):
            continue
        at = node.at
        if isinstance(at, ast.Unary) and at.op == "-" and isinstance(at.operand, ast.Int):
            value = -int(at.operand.value)
        elif isinstance(at, ast.Int):
            value = int(at.value)
        else:
            continue
        if -most <= value < most:
            continue
        nothing = {"ends": "0", "end_doubles": "false"}.get(node.obj.name, "no tile")
        out.append(_warning(
            mark, text, node.offset, path,
            f"{text[node.offset:node.offset + node.length]} reads past the {most} open ends "
            f"this board can ever show: it is always {nothing}",
            f"index from 0 to {most - 1} (or -1 to -{most}); "
            + ("a spinner (board.spinner: first_double) opens four ends" if most == 2
               else "a line and its spinner show four ends at most")))
    return out


def _warning(mark: Mark | None, text: str, offset: int, path: FieldPath, message: str,
             hint: str) -> Diagnostic:
    where = {}
    if mark is not None:
        line, column = locate(mark, text, offset)
        where = {"file": mark.file, "line": line, "column": column}
    return Diagnostic("never-applies", message, path=dotted(path), severity="warning",
                      hint=hint, **where)
