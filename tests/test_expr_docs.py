"""docs/language.md stays a complete reference: every field, name, function and error kind."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dominorules.expr import FIELDS, ExprError, compile_expression
from dominorules.expr.checker import SIGNATURES
from dominorules.expr.errors import CODES
from dominorules.expr.types import ATTRIBUTES

DOC = (Path(__file__).parent.parent / "docs" / "language.md").read_text(encoding="utf-8")


def test_every_field_and_name_is_documented():
    for field, spec in FIELDS.items():
        row = next(line for line in DOC.splitlines() if line.startswith(f"| `{field}` |"))
        for name in spec.names:
            assert f"`{name}`" in row, (field, name)


def test_every_attribute_function_and_error_kind_is_documented():
    for attributes in ATTRIBUTES.values():
        for attr in attributes:
            assert f"`{attr}`" in DOC, attr
    for func in SIGNATURES:
        assert f"`{func}(" in DOC, func
    for code in CODES:
        assert f"`{code}`" in DOC, code


# rows of the error table: | kind | when | `formula` in `field` | message (hint: ...) |
ERROR_ROWS = re.findall(r"^\| [^|]*\| [^|]*\| `([^`]+)` in `(\w+)` \| "
                        r"(.+?)(?: \(hint: (.*)\))? \|$", DOC, re.MULTILINE)


@pytest.mark.parametrize("source, field, message, hint", ERROR_ROWS)
def test_error_table_shows_real_messages(source, field, message, hint):
    with pytest.raises(ExprError) as err:
        compile_expression(source, field)
    problem = err.value.problems[0]
    if message.endswith("..."):
        assert problem.message.startswith(message[:-3].rstrip())
    else:
        assert problem.message == message
    if hint:
        assert problem.hint == hint


def test_error_table_is_parsed():
    assert len(ERROR_ROWS) == 16   # the index errors included
