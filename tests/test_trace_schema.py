"""Records validate against schemas/trace.schema.json, house-rule events included, and the
record reader takes its checks from that schema (one statement of the format, not two)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from dominorules import api, record_format

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "tests" / "rulesets" / "house" / "fives-spinner.yaml"


@pytest.fixture(scope="module")
def validator():
    schema = json.loads((ROOT / "schemas" / "trace.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def errors(validator, events):
    return [(e, err.message) for e in events for err in validator.iter_errors(e)]


def test_a_plain_pagat_record_validates(validator):
    events = api.play_match(api.load_game("pagat"), 2, 3, trace=True).events
    assert errors(validator, events) == []


def test_a_house_rule_record_validates_and_holds_every_new_event(validator):
    game = api.load_game(str(HOUSE))
    events = [e for seed in range(3) for e in api.play_match(game, 3, seed, trace=True).events]
    kinds = {e["event"] for e in events}
    assert {"score", "extra_turn", "skip"} <= kinds
    assert {e["end"] for e in events if e["event"] == "place"} >= {"up", "down"}
    assert all("play_points" in e for e in events if e["event"] == "round_end")
    assert errors(validator, events) == []


@pytest.mark.parametrize("event", [
    {"event": "score", "player": 0, "side": 0, "points": 5},             # no rule
    {"event": "skip"},                                                    # no player
    {"event": "place", "player": 0, "tile": [1, 2], "end": "middle"},   # no such end
    {"event": "round_end", "round": 1, "result": "domino", "winner": 0, "pips": [0, 3],
     "points": [3, 0], "scores": [3, 0], "play_points": "5"},
])
def test_malformed_house_events_are_refused(validator, event):
    assert errors(validator, [event]) != []


# -- the schema is the one statement of the format: the reader derives its checks from it --

SCHEMA = json.loads((ROOT / "schemas" / "trace.schema.json").read_text())
BRANCHES = {b["properties"]["event"]["const"]: b for b in SCHEMA["oneOf"]}
CANDIDATES = [True, 7, "x", [0], {}, None]


def _node(node):
    ref = node.get("$ref")
    return {**_node(SCHEMA["$defs"][ref.split("/")[-1]]), **node} if ref else node


def _sample(node):
    """A value the schema accepts at ``node``."""
    node = _node(node)
    if "const" in node:
        return node["const"]
    if "enum" in node:
        return node["enum"][0]
    if "oneOf" in node:
        return _sample(node["oneOf"][0])
    kind = node["type"]
    if kind == "array":
        return [_sample(node["items"])] * node.get("minItems", 1)
    return {"integer": node.get("minimum", 0), "string": "x", "null": None}[kind]


def _sample_event(kind):
    branch = BRANCHES[kind]
    return {f: _sample(branch["properties"][f]) for f in branch["required"]}


def _wrong_type(error, field):
    """Whether ``error`` says the field itself has the wrong JSON type (what is inside a
    list the reader leaves to the replay, which checks every value)."""
    if list(error.absolute_path) != [field]:
        return False
    if error.validator == "type":
        return True
    subs = error.context or ()   # oneOf: the field fits none of its types
    return bool(subs) and all(_wrong_type(sub, field) for sub in subs)


def test_the_reader_knows_the_schemas_event_kinds_in_its_order():
    assert list(record_format.event_fields()) == list(BRANCHES)
    assert record_format.shape_problem({"event": "nope"}) == (
        "unknown event 'nope': expected one of " + ", ".join(BRANCHES))


@pytest.mark.parametrize("kind", BRANCHES)
def test_what_the_schema_requires_the_reader_requires(validator, kind):
    event = _sample_event(kind)
    assert errors(validator, [event]) == []
    assert record_format.shape_problem(event) == ""
    for field in BRANCHES[kind]["required"]:
        if field == "event":
            continue
        short = {k: v for k, v in event.items() if k != field}
        assert errors(validator, [short]) != []
        assert record_format.shape_problem(short) == f"{kind} lacks {field}"


@pytest.mark.parametrize("kind", BRANCHES)
def test_a_field_of_a_type_the_schema_refuses_is_refused_by_the_reader(kind):
    validator = jsonschema.Draft202012Validator({**BRANCHES[kind], "$defs": SCHEMA["$defs"]})
    event = _sample_event(kind)
    for field in BRANCHES[kind]["required"]:
        if field == "event":
            continue
        for value in CANDIDATES:
            changed = {**event, field: value}
            problems = list(validator.iter_errors(changed))
            refused = record_format.shape_problem(changed)
            if any(_wrong_type(p, field) for p in problems):
                assert refused.startswith(f"{kind} {field} must be "), (field, value)
            if refused:   # never stricter than the schema
                assert problems, (field, value)
