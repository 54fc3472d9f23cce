"""Check a merged ruleset against the JSON Schema; every error becomes a positioned Diagnostic.

jsonschema gathers all errors; we turn each into one message a person can act on
(unknown key with a did-you-mean, the list of choices for an enum, the expected
type) placed at the file:line:col of the offending key or value, which may be in
an inherited file.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, did_you_mean
from .resources import schema_path
from .source import Mark, Path, dotted

_TYPE_WORDS = {
    "integer": "an integer", "string": "a string", "object": "a mapping", "array": "a list",
    "boolean": "true or false", "null": "null", "number": "a number",
}


if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError


@cache
def strict_validator() -> type:
    """The validator class: Draft 2020-12 with real ints only. JSON Schema counts 7.0 as
    an integer; the engine needs real ints (YAML "7.0" is a float). jsonschema is
    imported here, when a file is first validated, not when `list` or `rules` start."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(
        Draft202012Validator,
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
            "integer",
            lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)),
    )


@cache
def ruleset_schema() -> dict[str, Any]:
    """The ruleset JSON Schema (read once)."""
    with open(schema_path(), encoding="utf-8") as fh:
        return json.load(fh)


def _what(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _expected(schema: dict[str, Any]) -> str:
    types = schema.get("type")
    types = [types] if isinstance(types, str) else list(types or [])
    words = [_TYPE_WORDS.get(t, t) for t in types]
    if "integer" in types and "string" in types and schema.get("minLength"):
        return "an integer or a string holding an expression"
    return " or ".join(words) if words else "a different value"


def _field(path: Path) -> str:
    return dotted(path) or "the ruleset"


def _in(path: Path) -> str:
    return f" in {dotted(path)}" if path else ""


def _position(marks: dict[Path, Mark], path: Path, key: bool = False) -> dict[str, Any]:
    # The nearest marked ancestor stands in when a path has no mark of its own.
    probe = path
    while probe not in marks and probe:
        probe = probe[:-1]
    mark = marks.get(probe)
    if mark is None:
        return {}
    if key:
        return {"file": mark.file, "line": mark.key_line, "column": mark.key_column}
    return {"file": mark.file, "line": mark.line, "column": mark.column}


def _schema_at(path: Path) -> dict[str, Any]:
    """The schema describing the value at ``path`` (keys and list indices)."""
    node = ruleset_schema()
    for part in path:
        node = node.get("items", {}) if isinstance(part, int) else \
            node.get("properties", {}).get(part, {})
    return node


def _diagnostics(error: ValidationError, marks: dict[Path, Mark]) -> list[Diagnostic]:
    path: Path = tuple(error.absolute_path)
    kind = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    if kind == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        out = []
        for key in error.instance:
            if key in allowed:
                continue
            where = _position(marks, path + (key,), key=True)
            out.append(Diagnostic("schema", f"unknown key '{key}'{_in(path)}",
                                  path=dotted(path + (key,)),
                                  hint=did_you_mean(str(key), allowed), **where))
        return out
    if kind == "required":
        missing = error.message.split("'")[1] if "'" in error.message else "?"
        target = path + (missing,)
        where = _position(marks, path, key=True) if path else _position(marks, ())
        if not path:
            where.update(line=1, column=1)
        # an if/then's `required` sits in a schema without the properties: look them up
        props = schema.get("properties") or _schema_at(path).get("properties", {})
        desc = props.get(missing, {}).get("description", "")
        return [Diagnostic("schema", f"missing required key '{missing}'{_in(path)}",
                           path=dotted(target), hint=desc, **where)]
    where = _position(marks, path)
    field = _field(path)
    if kind == "enum":
        choices = [str(c) for c in error.validator_value]
        hint = did_you_mean(str(error.instance), choices)
        if isinstance(error.instance, bool):
            hint = ("YAML reads yes, no, on and off as true or false: write one of "
                    + ", ".join(choices))
        return [Diagnostic("schema", f"{field} must be one of: {', '.join(choices)} "
                           f"(not {_what(error.instance)})", path=dotted(path),
                           hint=hint, **where)]
    if kind == "type":
        return [Diagnostic("schema", f"{field} must be {_expected(schema)}, not "
                           f"{_what(error.instance)}", path=dotted(path), **where)]
    if kind == "anyOf":
        named: list[str] = []
        forms: list[str] = []
        for sub in error.validator_value:
            if "enum" in sub:
                named += [str(c) for c in sub["enum"]]
            else:
                text = sub.get("description", "").rstrip(".")
                forms.append(text[:1].lower() + text[1:])
        # a form's description may end with an example: the message keeps the words,
        # the hint the example
        words = [f.split(", e.g.")[0] for f in forms]
        if named and words:
            choices = "one of: " + ", ".join(named) + ", or " + " or ".join(words)
        else:
            choices = ", ".join(named + words)
        hint = ""
        if isinstance(error.instance, str):
            close = did_you_mean(error.instance, named)
            hint = close if close.startswith("did you mean") else "expected " + "; ".join(forms)
        return [Diagnostic("schema", f"{field} must be {choices} (not {_what(error.instance)})",
                           path=dotted(path), hint=hint, **where)]
    if kind in ("minimum", "maximum"):
        word = "at least" if kind == "minimum" else "at most"
        return [Diagnostic("schema", f"{field} must be {word} {error.validator_value}, not "
                           f"{error.instance}", path=dotted(path), **where)]
    if kind in ("minItems", "maxItems"):
        word = "at least" if kind == "minItems" else "at most"
        return [Diagnostic("schema", f"{field} must hold {word} {error.validator_value} items",
                           path=dotted(path), **where)]
    if kind == "minLength":
        return [Diagnostic("schema", f"{field} must not be empty", path=dotted(path), **where)]
    if kind == "pattern":
        desc = schema.get("description", "")
        return [Diagnostic("schema", f"{field}: {_what(error.instance)} is not in the "
                           "expected form", path=dotted(path), hint=desc, **where)]
    return [Diagnostic("schema", f"{field}: {error.message}", path=dotted(path), **where)]


def _leaves(error: ValidationError) -> list[ValidationError]:
    # if/then and allOf wrap their real errors; report those.
    if error.validator in ("allOf", "then") and error.context:
        return [leaf for sub in error.context for leaf in _leaves(sub)]
    return [error]


def validate(data: Any, marks: dict[Path, Mark]) -> list[Diagnostic]:
    """Every schema violation in ``data``, each at its file:line:col."""
    validator = strict_validator()(ruleset_schema())
    leaves = [leaf for error in validator.iter_errors(data) for leaf in _leaves(error)]
    # `spinner: yes` breaks both "a string" and the enum: the list of choices says it all
    enums = {tuple(leaf.absolute_path) for leaf in leaves if leaf.validator == "enum"}
    out: list[Diagnostic] = []
    for leaf in leaves:
        if leaf.validator == "type" and tuple(leaf.absolute_path) in enums:
            continue
        out.extend(_diagnostics(leaf, marks))
    return sorted(set(out), key=Diagnostic.sort_key)


def fill_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of a valid ruleset with every schema default filled in (nested mappings too)."""
    out = copy.deepcopy(data)
    _fill(out, ruleset_schema())
    return out


def _fill(value: Any, schema: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for key, sub in schema.get("properties", {}).items():
            if key not in value and "default" in sub:
                value[key] = copy.deepcopy(sub["default"])
            if key in value:
                _fill(value[key], sub)
