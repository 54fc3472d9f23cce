"""The schema is the language reference: complete, strict, and in step with engine.game_rules."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from dominorules.engine import game_rules as R
from dominorules.expr import FIELDS
from dominorules.rules import check_ruleset
from dominorules.rules.marked_yaml import parse_yaml
from dominorules.rules.schema import (
    FORMULA_REFS,
    fill_defaults,
    formula_fields,
    ruleset_schema,
    validate,
)


def _objects(node: Any, where: str = "$"):
    if isinstance(node, dict):
        if node.get("type") == "object":
            yield where, node
        for key, value in node.items():
            yield from _objects(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _objects(value, f"{where}[{i}]")


def test_schema_is_valid_2020_12():
    schema = ruleset_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_every_object_is_closed_and_every_property_described():
    objects = list(_objects(ruleset_schema()))
    assert len(objects) >= 10
    for where, obj in objects:
        extra = obj.get("additionalProperties")
        if isinstance(extra, dict) and "properties" not in obj:
            # a mapping of names the file chooses (``variables``): every value is still
            # checked by that schema, so no misspelt key slips through unread
            assert obj.get("description") or where.endswith("additionalProperties"), where
            continue
        assert extra is False, where
        for name, prop in obj.get("properties", {}).items():
            assert prop.get("description"), f"{where}.{name}"


def test_enums_are_the_engines_choices():
    p = ruleset_schema()["properties"]
    defs = ruleset_schema()["$defs"]
    assert p["lead"]["properties"]["first"]["$ref"] == "#/$defs/lead_chooser"
    assert defs["lead_chooser"]["enum"] == list(R.LEAD_CHOOSERS)
    assert p["lead"]["properties"]["later"]["anyOf"][0]["$ref"] == "#/$defs/lead_choice"
    assert defs["lead_choice"]["enum"] == list(R.LEAD_CHOOSERS + R.LEAD_FOLLOWERS)
    assert p["lead"]["properties"]["count_from"]["enum"] == list(R.LEAD_COUNT_FROM)
    assert p["opening"]["properties"]["tile"]["$ref"] == "#/$defs/opening_tile"
    assert defs["opening_tile"]["anyOf"][0]["enum"] == list(R.OPENING_TILES)
    assert p["opening"]["properties"]["opener"]["enum"] == list(R.OPENERS)
    assert p["opening"]["properties"]["if_unheld"]["enum"] == list(R.IF_UNHELD)
    assert p["drawing"]["properties"]["when_stuck"]["enum"] == list(R.STUCK_CHOICES)
    assert p["drawing"]["properties"]["cost_to"]["enum"] == list(R.DRAW_COST_TO)
    blocked = p["scoring"]["properties"]["blocked"]["properties"]
    assert blocked["winner"]["enum"] == list(R.BLOCKED_WINNERS)
    assert blocked["tie"]["enum"] == list(R.BLOCKED_TIES)
    assert p["match"]["properties"]["tie"]["enum"] == list(R.MATCH_TIES)
    # the house-rule mechanisms
    assert p["board"]["properties"]["spinner"]["enum"] == list(R.SPINNERS)
    play = p["play"]["properties"]
    assert play["direction"]["enum"] == list(R.DIRECTIONS)
    assert play["if_none_allowed"]["enum"] == list(R.IF_NONE_ALLOWED)
    assert play["passing"]["enum"] == list(R.PASSING)
    when = p["declarations"]["items"]["properties"]["when"]["enum"]
    assert when == list(R.DECLARE_MOMENTS)
    assert defs["event"]["properties"]["after"]["enum"] == list(R.EVENT_TRIGGERS)
    assert p["opening"]["properties"]["if_lacking"]["enum"] == list(R.IF_LACKING)
    first = p["opening"]["properties"]["first_round"]["properties"]
    assert first["if_lacking"]["enum"] == list(R.IF_LACKING)
    assert first["if_unheld"]["enum"] == list(R.IF_UNHELD)
    assert first["opener"]["enum"] == list(R.OPENERS)
    assert first["tile"]["$ref"] == "#/$defs/opening_tile"
    assert p["scoring"]["properties"]["domino_winner"]["enum"] == list(R.DOMINO_WINNERS)
    assert blocked["among"]["enum"] == list(R.BLOCKED_AMONG)
    assert p["match"]["properties"]["end"]["enum"] == list(R.MATCH_ENDS)
    assert p["match"]["properties"]["winner"]["enum"] == list(R.MATCH_WINNERS)


MINIMAL = """\
title: Minimal
players: {min: 2, max: 4}
deal: {hand_size: 5}
scoring: {domino: "sum(opponents.value)"}
match: {target: 100}
"""


def test_minimal_ruleset_gets_documented_defaults():
    doc, _ = parse_yaml(MINIMAL, "m.yaml")
    assert validate(doc.data, doc.marks) == []
    data = fill_defaults(doc.data)
    assert data["set"] == {"max_pip": 6}
    assert data["players"]["sides"] == "individual"
    assert data["lead"] == {"first": "lot", "later": "rotate", "count_from": "seat_zero"}
    assert data["opening"] == {"tile": "any", "opener": "leader", "if_unheld": "redeal"}
    assert data["drawing"] == {"reserve": 0, "voluntary": "allowed", "when_stuck": "draw",
                               "limit": None, "cost": 0, "cost_to": "nobody"}
    assert data["scoring"] == {"domino": "sum(opponents.value)", "tile_value": "tile.pips",
                               "blocked": {"winner": "lowest_hand", "tie": "nothing",
                                           "points": "sum(opponents.value) - winner.value"}}
    assert data["match"] == {"target": 100, "tie": "draw"}
    # the house-rule keys have no filled-in defaults: a plain ruleset's data is as before
    assert not {"board", "play", "events"} & set(data)
    assert data["examples"] == [] and data["description"] == "" and data["source"] == ""
    assert doc.data["players"] == {"min": 2, "max": 4}  # the input is not changed


def test_hints(tmp_path):
    path = tmp_path / "h.yaml"
    path.write_text(MINIMAL + "lead: {first: lots, later: rotat}\ndeal2: 1\n", encoding="utf-8")
    got = [(d.line, d.column, d.path, d.hint) for d in check_ruleset(str(path))]
    assert got == [
        (6, 15, "lead.first", "did you mean 'lot'?"),
        (6, 28, "lead.later", "did you mean 'rotate'?"),
        (7, 1, "deal2", "did you mean 'deal'?"),
    ]


def test_type_messages(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(MINIMAL.replace("deal: {hand_size: 5}", "deal: 5")
                    + "drawing: {limit: many}\nset: {max_pip: true}\n", encoding="utf-8")
    assert [d.message for d in check_ruleset(str(path))] == [
        "deal must be a mapping, not the integer 5",
        "drawing.limit must be an integer or null, not the string 'many'",
        "set.max_pip must be an integer, not true/false",
        # a ruleset without its deal cannot be checked further (the deal is required)
        "the deal, match and example checks run once the problems above are fixed",
    ]


def test_a_value_of_the_wrong_type_is_hinted_with_what_the_field_holds(tmp_path):
    # shared_train names a train: true (a flag) is a natural mistake, and the hint says so
    path = tmp_path / "t.yaml"
    path.write_text("extends: pagat\nboard:\n  layout:\n    trains: true\n"
                    "    shared_train: true\n", encoding="utf-8")
    [d] = [d for d in check_ruleset(str(path)) if d.path == "board.layout.shared_train"]
    assert (d.line, d.column) == (5, 19)
    assert d.message == "board.layout.shared_train must be a string, not true/false"
    assert d.hint.startswith('write text; quote it ("...") when it looks like a number, a list '
                             "or yes/no. With trains: one more train grows from the station, "
                             "by this name")


def test_a_formula_of_the_wrong_type_is_told_as_one_wherever_it_is(tmp_path):
    path = tmp_path / "e.yaml"
    path.write_text("extends: pagat\nevents:\n  - after: place\n    points: [1]\n"
                    "    if: [2]\nscoring: {domino: {a: 1}}\n", encoding="utf-8")
    assert [d.message for d in check_ruleset(str(path))] == [
        "events[0].points must be an integer or a string holding an expression, not a list",
        "events[0].if must be true or false or a string, not a list",
        "scoring.domino must be an integer or a string holding an expression, not a mapping",
    ]


def test_a_float_is_not_an_integer(tmp_path):
    path = tmp_path / "f.yaml"
    path.write_text("extends: pagat\nplayers: {min: 2.0}\n", encoding="utf-8")
    assert [(d.line, d.column, d.message) for d in check_ruleset(str(path))] == [
        (2, 16, "players.min must be an integer, not the number 2.0")]


# -- formula fields are known by their $ref ------------------------------------------

def _nodes(node: Any):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _nodes(value)


def test_a_formula_field_refers_to_a_formula_definition_and_names_its_kind():
    schema = ruleset_schema()
    defs = schema["$defs"]
    sites = [n for n in _nodes(schema) if n.get("$ref") in FORMULA_REFS]
    assert len(sites) >= 19
    for node in sites:
        kinds = {node["x-formula"].format(after=a) for a in R.EVENT_TRIGGERS}
        assert kinds <= set(FIELDS), node
    # the shape lives in the definitions only: no field spells it out again
    shapes = [{k: n.get(k) for k in ("type", "minLength")} for n in _nodes(schema)
              if n is not defs["formula"] and n is not defs["condition"]]
    assert {"type": ["integer", "string"], "minLength": 1} not in shapes
    assert {"type": ["boolean", "string"], "minLength": 1} not in shapes


def test_the_formula_fields_of_a_ruleset_are_found_through_the_schema():
    data = fill_defaults(parse_yaml(MINIMAL, "m.yaml")[0].data)
    data["lead"] = {"later": "last_player + 1"}
    data["play"] = {"restrictions": [{"allow": "tile.is_double", "explain": "doubles"}]}
    data["events"] = [{"after": "draw", "if": True, "points": 2},
                      {"after": "nonsense", "points": 1}]
    found = dict(formula_fields(data))
    assert found == {
        ("deal", "hand_size"): "hand_size", ("lead", "later"): "lead",
        ("drawing", "cost"): "draw_cost", ("scoring", "tile_value"): "tile_value",
        ("scoring", "domino"): "scoring", ("scoring", "blocked", "points"): "scoring",
        ("match", "target"): "target", ("play", "restrictions", 0, "allow"): "placement",
        ("events", 0, "if"): "event_draw_condition", ("events", 0, "points"): "event_draw",
    }
    data["lead"] = {"later": "rotate"}   # a named choice of the same field is no formula
    assert ("lead", "later") not in dict(formula_fields(data))
