"""Records validate against schemas/trace.schema.json, house-rule events included."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from dominorules import api

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
