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
from ..expr import FIELDS
from .marked_yaml import FieldPath, Mark, dotted
from .resources import schema_path

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


# the definitions a formula field refers to ($ref); its ``x-formula`` names the field kind
FORMULA_REFS = ("#/$defs/formula", "#/$defs/condition")


def formula_kind(node: dict[str, Any]) -> str | None:
    """The field kind of a schema node that refers to a formula definition, else None.

    A formula field is known by its ``$ref``, not by its shape: an integer-or-string
    field that is no formula would need its own definition.
    """
    return node.get("x-formula") if node.get("$ref") in FORMULA_REFS else None


def deref(node: dict[str, Any]) -> dict[str, Any]:
    """``node`` with its ``$ref`` (``#/$defs/NAME``) replaced by the definition; the node's
    own keywords (a description, a default) win over the definition's."""
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return node
    own = {k: v for k, v in node.items() if k != "$ref"}
    return {**_definition(ref.removeprefix("#/$defs/")), **own}


@cache
def _definition(name: str) -> dict[str, Any]:
    return deref(ruleset_schema()["$defs"][name])


@cache
def _validator() -> Any:
    # validating through $refs costs jsonschema half as much again: the same schema inlined
    return strict_validator()(inlined(ruleset_schema()))


def _raw_node(schema_path: Any) -> Any:
    """The node of the schema as written (its ``$ref`` kept) at a validation error's
    schema path into the inlined copy."""
    node: Any = ruleset_schema()
    for key in schema_path:
        node = (deref(node) if isinstance(node, dict) else node)[key]
    return node


def _fits(value: Any, branch: dict[str, Any]) -> bool:
    """Whether ``value`` fits a schema branch; a list of choices is read directly, so
    finding formula fields (every load, `rules` too) needs no JSON Schema validator."""
    branch = deref(branch)
    if set(branch) <= {"type", "enum", "description"} and "enum" in branch:
        return value in branch["enum"]
    return strict_validator()(inlined(branch)).is_valid(value)


def inlined(node: Any) -> Any:
    """A copy of ``node`` with every ``$ref`` inside it replaced (for a validator or a
    reader of one field's schema, which cannot resolve ``#/$defs`` on its own)."""
    if isinstance(node, dict):
        return {k: inlined(v) for k, v in deref(node).items()}
    if isinstance(node, list):
        return [inlined(v) for v in node]
    return node


def formula_fields(data: Any) -> list[tuple[FieldPath, str]]:
    """Every formula field present in ``data`` with its kind, in schema order: the nodes
    that refer to a formula definition. In an ``anyOf`` (``lead.later``: a named choice
    or a formula) the value is a formula when it fits none of the other branches; an
    event's kinds depend on its ``after`` (``event_{after}``)."""
    out: list[tuple[FieldPath, str]] = []
    _formulas(data, ruleset_schema(), (), {}, out)
    return out


def _formulas(value: Any, node: dict[str, Any], path: FieldPath, parent: Any,
              out: list[tuple[FieldPath, str]]) -> None:
    kind = formula_kind(node)
    if kind is not None:
        if "{" in kind:
            try:
                kind = kind.format_map(parent)
            except (KeyError, AttributeError, TypeError, ValueError):
                return
        if kind in FIELDS:   # an event's `after` that is no trigger names no kind
            out.append((path, kind))
        return
    node = deref(node)
    branches = node.get("anyOf", ())
    formulas = [b for b in branches if formula_kind(b) is not None]
    if formulas:
        if not any(_fits(value, b) for b in branches if formula_kind(b) is None):
            _formulas(value, formulas[0], path, parent, out)
        return
    if isinstance(value, dict):
        for key, sub in node.get("properties", {}).items():
            if key in value:
                _formulas(value[key], sub, path + (key,), value, out)
        named = node.get("additionalProperties")   # a mapping of names (``variables``)
        if isinstance(named, dict):
            for key in value:
                if key not in node.get("properties", {}):   # its owner's keys (an
                    # event's ``after`` for its ``set``) name the kind, not the mapping's
                    _formulas(value[key], named, path + (key,), parent, out)
    elif isinstance(value, list) and isinstance(node.get("items"), dict):
        for i, item in enumerate(value):
            _formulas(item, node["items"], path + (i,), value, out)


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


def _expected(error: ValidationError) -> str:
    if _raw_node(list(error.absolute_schema_path)[:-1]).get("$ref") == FORMULA_REFS[0]:
        return "an integer or a string holding an expression"
    types = error.schema.get("type") if isinstance(error.schema, dict) else None
    types = [types] if isinstance(types, str) else list(types or [])
    words = [_TYPE_WORDS.get(t, t) for t in types]
    return " or ".join(words) if words else "a different value"


def _field(path: FieldPath) -> str:
    return dotted(path) or "the ruleset"


def _in(path: FieldPath) -> str:
    return f" in {dotted(path)}" if path else ""


def _position(marks: dict[FieldPath, Mark], path: FieldPath, key: bool = False) -> dict[str, Any]:
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


def _schema_at(path: FieldPath) -> dict[str, Any]:
    """The schema describing the value at ``path`` (keys and list indices)."""
    node = ruleset_schema()
    for part in path:
        node = deref(node)
        node = node.get("items", {}) if isinstance(part, int) else \
            node.get("properties", {}).get(part, {})
    return deref(node)


def _diagnostics(error: ValidationError, marks: dict[FieldPath, Mark]) -> list[Diagnostic]:
    path: FieldPath = tuple(error.absolute_path)
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
                           path=dotted(target), hint=_with_about(
                               f"add {missing}: to {_field(path)}", {"description": desc}),
                           **where)]
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
        # the field's description says what it holds, in the ruleset's words
        return [Diagnostic("schema", f"{field} must be {_expected(error)}, not "
                           f"{_what(error.instance)}", path=dotted(path),
                           hint=_type_hint(error, _schema_at(path)), **where)]
    if kind == "anyOf" and all(set(sub) == {"required"} for sub in error.validator_value):
        keys = [k for sub in error.validator_value for k in sub["required"]]   # "one of these"
        return [Diagnostic("schema", f"{field} needs at least one of: {', '.join(keys)}",
                           path=dotted(path), hint="say what the example expects", **where)]
    if kind == "anyOf" and _branch_for_its_shape(error):
        return [d for leaf in _branch_for_its_shape(error) for d in _diagnostics(leaf, marks)]
    if kind == "anyOf":
        named: list[str] = []
        forms: list[str] = []
        for sub in map(deref, error.validator_value):
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
            choices = " or ".join(named + words)
        hint = ("write one of the names listed, or " + "; ".join(forms) if named and forms
                else "expected " + "; ".join(forms) if forms
                else "write one of: " + ", ".join(named))
        if isinstance(error.instance, str):
            close = did_you_mean(error.instance, named)
            if close.startswith("did you mean"):
                hint = close
            elif forms:
                hint = "expected " + "; ".join(forms)
        return [Diagnostic("schema", f"{field} must be {choices} (not {_what(error.instance)})",
                           path=dotted(path), hint=hint, **where)]
    if kind in ("minimum", "maximum"):
        word = "at least" if kind == "minimum" else "at most"
        return [Diagnostic("schema", f"{field} must be {word} {error.validator_value}, not "
                           f"{error.instance}", path=dotted(path),
                           hint=_range_hint(schema), **where)]
    if kind in ("minItems", "maxItems"):
        word = "at least" if kind == "minItems" else "at most"
        items = "item" if error.validator_value == 1 else "items"
        return [Diagnostic("schema", f"{field} must hold {word} {error.validator_value} "
                           f"{items}", path=dotted(path), hint=_items_hint(schema, path),
                           **where)]
    if kind == "uniqueItems":
        return [Diagnostic("schema", f"{field} lists the same value twice", path=dotted(path),
                           hint="list each once", **where)]
    if kind == "minLength":
        return [Diagnostic("schema", f"{field} must not be empty", path=dotted(path),
                           hint=_empty_hint(error, schema, path), **where)]
    if kind == "pattern":
        desc = _with_about(schema.get("x-hint", ""), schema)
        return [Diagnostic("schema", f"{field}: {_what(error.instance)} is not in the "
                           "expected form", path=dotted(path), hint=desc, **where)]
    if kind == "not":
        return [Diagnostic("schema", f"{field} may not be {_what(error.instance)}",
                           path=dotted(path), hint=_not_hint(error, schema), **where)]
    if kind == "const":
        return [Diagnostic("schema", f"{field} must be {error.validator_value!r} here "
                           f"(not {_what(error.instance)})", path=dotted(path),
                           hint=f"write {error.validator_value}", **where)]
    return [Diagnostic("schema", f"{field}: {error.message}", path=dotted(path),
                       hint=schema.get("description", ""), **where)]


def _about(schema: dict[str, Any]) -> str:
    """A field's description, to follow the fix in a hint (what the field is for)."""
    return str(schema.get("description", "")).strip()


def _with_about(fix: str, schema: dict[str, Any]) -> str:
    """A hint: what to write, then what the field is for (its description)."""
    about = _about(schema)
    if not fix or not about:
        return fix or about
    return f"{fix}. {about}"


def _optional(path: FieldPath) -> bool:
    """Whether the key at ``path`` may be left out (its mapping does not require it)."""
    return bool(path) and isinstance(path[-1], str) and \
        path[-1] not in _schema_at(path[:-1]).get("required", ())


def _range_hint(schema: dict[str, Any]) -> str:
    """What to write for a number out of its range: the range, in words, then what the
    field is for (``set.max_pip: 40``: from 1 to 20, a double-N set ...)."""
    low, high = schema.get("minimum"), schema.get("maximum")
    types = schema.get("type")
    whole = "a whole number" if "integer" in ([types] if isinstance(types, str)
                                               else list(types or ())) else "a number"
    if low is not None and high is not None:
        fix = f"write {whole} from {low} to {high}"
    elif low is not None:
        fix = f"write {whole} of {low} or more"
    else:
        fix = f"write {whole} of {high} or less"
    if "null" in (types or ()):
        fix += ", or null"
    return _with_about(fix, schema)


def _items_hint(schema: dict[str, Any], path: FieldPath) -> str:
    """What to write for a list of too few or too many items."""
    low, high = schema.get("minItems"), schema.get("maxItems")
    if low is not None and high is not None:
        fix = f"list from {low} to {high} items"
    elif low is not None:
        fix = f"list at least {low}" + (f", or leave {_field(path)} out"
                                        if _optional(path) else "")
    else:
        fix = f"list at most {high}"
    return _with_about(fix, schema)


def _empty_hint(error: ValidationError, schema: dict[str, Any], path: FieldPath) -> str:
    """What an empty text should say instead: a formula's example, else the field's own
    description."""
    out = f", or leave {_field(path)} out" if _optional(path) else ""
    if _raw_node(list(error.absolute_schema_path)[:-1]).get("$ref") in FORMULA_REFS:
        return f"write a number or a formula, e.g. 7{out}"
    return _with_about(f"write some text{out}", schema)


# what each JSON type is written as in YAML, for a value of the wrong type
_TYPE_FIXES = {
    "integer": "write a whole number without quotes, e.g. {example}",
    "number": "write a number without quotes, e.g. {example}",
    "string": "write text; quote it (\"...\") when it looks like a number, a list or yes/no",
    "boolean": "write true or false",
    "object": "write its keys on the lines below, indented (key: value)",
    "array": "write a list: [a, b] on one line, or one '- item' a line below",
    "null": "write null",
}


def _type_hint(error: ValidationError, field: dict[str, Any]) -> str:
    """What the field holds (its description), then how to write a value of the right
    type: ``players.min: two`` gets "... Write a whole number without quotes, e.g. 2"."""
    about = _about(field) or _about(error.schema if isinstance(error.schema, dict) else {})
    if _raw_node(list(error.absolute_schema_path)[:-1]).get("$ref") == FORMULA_REFS[0]:
        fix = 'write a number, or a formula in quotes, e.g. "7 if players > 2 else 5"'
    else:
        types = error.schema.get("type") if isinstance(error.schema, dict) else None
        types = [types] if isinstance(types, str) else list(types or [])
        example = field.get("default")
        if not isinstance(example, int) or isinstance(example, bool):
            example = field.get("minimum", 1)
        fixes = [_TYPE_FIXES[t].format(example=example) for t in types if t in _TYPE_FIXES]
        fix = "; or ".join(fixes)
    return _with_about(fix, {"description": about})


def _not_hint(error: ValidationError, schema: dict[str, Any]) -> str:
    """What a value the schema rules out (``not``) should be instead: the field's own
    words, and the values that are taken."""
    taken = error.validator_value.get("enum") if isinstance(error.validator_value, dict) \
        else None
    if taken is None and isinstance(error.validator_value, dict):
        taken = deref(error.validator_value).get("enum")
    if taken:
        return _with_about("pick another; these are taken: " + ", ".join(map(str, taken)),
                           schema)
    return _about(schema)


def _branch_for_its_shape(error: ValidationError) -> list[ValidationError]:
    """The errors inside the one ``anyOf`` branch made for a list or a mapping, when the
    value is one: ``matching.wild: []`` is a list of tiles with none in it, not a value
    of the wrong kind, and that branch's own error says so."""
    shapes = {"array": list, "object": dict}
    own = [i for i, sub in enumerate(error.validator_value)
           if isinstance(sub, dict) and isinstance(sub.get("type"), str)
           and sub["type"] in shapes and isinstance(error.instance, shapes[sub["type"]])]
    if len(own) != 1:
        return []
    return [leaf for sub in error.context if sub.relative_schema_path[0] == own[0]
            for leaf in _leaves(sub)]


def _leaves(error: ValidationError) -> list[ValidationError]:
    # if/then and allOf wrap their real errors; report those.
    if error.validator in ("allOf", "then") and error.context:
        return [leaf for sub in error.context for leaf in _leaves(sub)]
    return [error]


def validate(data: Any, marks: dict[FieldPath, Mark]) -> list[Diagnostic]:
    """Every schema violation in ``data``, each at its file:line:col."""
    validator = _validator()
    leaves = [leaf for error in validator.iter_errors(data) for leaf in _leaves(error)]
    # `spinner: yes` breaks both "a string" and the enum: the list of choices says it all
    enums = {tuple(leaf.absolute_path) for leaf in leaves if leaf.validator == "enum"}
    out: list[Diagnostic] = []
    for leaf in leaves:
        if leaf.validator == "type" and tuple(leaf.absolute_path) in enums:
            continue
        out.extend(_diagnostics(leaf, marks))
    return sorted(set(out), key=Diagnostic.sort_key)


def without_faults(data: Any, fallback: Any = None) -> Any | None:
    """A copy of ``data`` without its schema faults, so the rest is checked too and every
    problem is told at once; None when that cannot be done safely.

    An unknown key is dropped; a faulty value at a key takes ``fallback``'s value there
    (the ruleset it extends: the file as if the line were not written), or is dropped.
    A fault in a list item itself (an event or example lacking a key), or in the whole
    file, cannot be cut out without renumbering what follows: None. So is a copy the
    schema still refuses.
    """
    leaves = [leaf for error in _validator().iter_errors(data) for leaf in _leaves(error)]
    if not leaves:
        return None
    out = copy.deepcopy(data)
    for leaf in leaves:
        path = tuple(leaf.absolute_path)
        node = _at(out, path[:-1] if leaf.validator != "additionalProperties" else path)
        if node is None:
            continue   # inside a value already cut out
        if leaf.validator == "additionalProperties":
            allowed = leaf.schema.get("properties", {}) if isinstance(leaf.schema, dict) else {}
            for key in [k for k in node if k not in allowed]:
                del node[key]
            continue
        if not path or not isinstance(path[-1], str) or not isinstance(node, dict):
            return None
        node.pop(path[-1], None)
        if path[0] not in ("examples", "name", "extends", "description", "source"):
            kept = _at(fallback, path)
            if kept is not None:
                node[path[-1]] = copy.deepcopy(kept)
    if any(True for _ in _validator().iter_errors(out)):
        return None
    return out


def _at(data: Any, path: tuple) -> Any:
    """The value at ``path`` in ``data``, or None when there is none."""
    for part in path:
        if isinstance(data, dict) and isinstance(part, str) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


def fill_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of a valid ruleset with every schema default filled in (nested mappings too)."""
    out = copy.deepcopy(data)
    _fill(out, ruleset_schema())
    return out


def _fill(value: Any, schema: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for key, sub in deref(schema).get("properties", {}).items():
            sub = deref(sub)
            if key not in value and "default" in sub:
                value[key] = copy.deepcopy(sub["default"])
            if key in value:
                _fill(value[key], sub)
