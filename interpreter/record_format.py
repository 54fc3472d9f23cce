"""What one line of a game record must hold, read from ``schemas/trace.schema.json``.

The schema is the one statement of the record format: the event kinds are its
``oneOf`` branches, each with its ``required`` fields and their types. Reading a
record checks each line against what is derived here (kind, fields present, each
field's JSON type) before the verifier replays it, which then checks every value
against the engine. The checks are derived once, not run through a JSON Schema
validator per line: a validator costs several times the whole replay.

>>> shape_problem({"event": "draw"})
'draw lacks player, tile'
>>> shape_problem({"event": "pass", "player": "0"})
'pass player must be a seat number, not "0"'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

_TYPES: dict[str, type | None] = {"integer": int, "array": list, "string": str,
                                  "object": dict, "boolean": bool, "null": None}
_WORDS = {int: "a whole number", list: "a list", str: "a string", dict: "an object",
          bool: "true or false"}


@dataclass(frozen=True)
class FieldType:
    """The JSON types one field may have, and how a message names them."""

    types: tuple[type, ...]
    nullable: bool
    words: str

    def admits(self, value: Any) -> bool:
        if value is None:
            return self.nullable
        if isinstance(value, bool):   # JSON true is no number
            return bool in self.types
        return isinstance(value, self.types)


@cache
def trace_schema() -> dict[str, Any]:
    """The record JSON Schema (read once)."""
    from .rules.resources import trace_schema_path

    with open(trace_schema_path(), encoding="utf-8") as fh:
        return json.load(fh)


@cache
def event_fields() -> dict[str, dict[str, FieldType]]:
    """Event kind -> its required fields (besides ``event``) and their types, in the
    schema's order."""
    schema = trace_schema()
    out: dict[str, dict[str, FieldType]] = {}
    for branch in schema["oneOf"]:
        props = branch["properties"]
        kind = props["event"]["const"]
        out[kind] = {f: _field_type(props.get(f, {})) for f in branch["required"]
                     if f != "event"}
    return out


def _deref(node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return node
    own = {k: v for k, v in node.items() if k != "$ref"}
    return {**_deref(trace_schema()["$defs"][ref.removeprefix("#/$defs/")]), **own}


def _json_types(node: dict[str, Any]) -> list[type | None]:
    node = _deref(node)
    if "oneOf" in node or "anyOf" in node:
        return [t for sub in node.get("oneOf", node.get("anyOf")) for t in _json_types(sub)]
    if "enum" in node:
        return [None if v is None else type(v) for v in node["enum"]]
    kinds = node.get("type", [])
    return [_TYPES[k] for k in ([kinds] if isinstance(kinds, str) else kinds)]


def _field_type(node: dict[str, Any]) -> FieldType:
    found = _json_types(node)
    types = tuple(dict.fromkeys(t for t in found if t is not None))
    nullable = None in found
    words = _deref(node).get("title") or (
        " or ".join(_WORDS[t] for t in types) + (" or null" if nullable else ""))
    return FieldType(types, nullable, words)


def shape_problem(event: Any) -> str:
    """Why ``event`` is no record event of the schema (kind, missing or mistyped field),
    or ``""`` when its shape is right."""
    if not isinstance(event, dict):
        return "an event must be a JSON object"
    kinds = event_fields()
    kind = event.get("event")
    if not isinstance(kind, str) or kind not in kinds:
        return f"unknown event {kind!r}: expected one of {', '.join(kinds)}"
    fields = kinds[kind]
    missing = [f for f in fields if f not in event]
    if missing:
        return f"{kind} lacks {', '.join(missing)}"
    for name, want in fields.items():
        value = event[name]
        if not want.admits(value):
            return f"{kind} {name} must be {want.words}, not {json.dumps(value)}"
    return ""
