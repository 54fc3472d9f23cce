"""The formula language: text -> checked syntax tree -> one Python closure.

>>> c = compile_expression("7 if players <= 3 else 6", "hand_size")
>>> c.fn({"players": 4, "max_pip": 6, "tile_count": 28}), str(c.type)
(6, 'int')

Stages, one module each: ``parser`` (grammar.lark, lark LALR), ``checker`` (names,
attributes, arguments, types), ``compiler`` (closures). See docs/language.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from . import ast
from .checker import check
from .compiler import compile_tree
from .emit import compile_source, source_of
from .errors import ExprError, ExprProblem
from .evaluate import evaluate_tree
from .fields import FIELDS, FieldSpec
from .format import format_expression
from .parser import parse, source_text
from .types import Type

__all__ = ["Compiled", "ExprError", "ExprProblem", "FIELDS", "FieldSpec", "Type",
           "compile_source", "compile_tree", "source_of",
           "compile_expression", "evaluate_tree", "format_expression", "parse"]


@dataclass(frozen=True)
class Compiled:
    """A checked, compiled formula: call ``fn(env)``; ``type``, ``source``, ``ast`` describe it."""

    fn: Callable[[Mapping[str, Any]], Any]
    type: Type
    source: str
    ast: ast.Node


def compile_expression(source: str | int | bool, field: str,
                       extra: Mapping[str, Type] | None = None) -> Compiled:
    """Parse, check and compile a formula for a field kind; raise ``ExprError`` on problems.

    ``source`` may be a YAML integer or boolean as well as text. ``field`` must be a
    key of ``FIELDS`` (anything else is a programming error: ``KeyError``). ``extra``:
    names a ruleset adds to the kind's (its variables), read like the kind's own.
    """
    spec = FIELDS[field]
    if extra:
        spec = FieldSpec({**spec.names, **extra}, spec.result, spec.description)
    text = source_text(source)
    tree = parse(text)
    problems = check(tree, field, spec, text)
    if problems:
        raise ExprError(problems)
    assert tree.type is not None
    return Compiled(compile_source(tree), tree.type, text, tree)
