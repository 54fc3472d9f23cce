"""The rule sheet and diff: exact sentences from the data, exact differences, the three
formats, and the CLI's exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dominorules.cli import main
from dominorules.rules import builtin_rulesets, load_ruleset
from dominorules.rules.describe import (
    _SPECS,
    SECTIONS,
    _by_players,
    _counts_phrase,
    _View,
    render_sheet,
    rule_keys,
    rule_sheet,
)
from dominorules.rules.diff import diff, render_diff


def sheet(ref: str):
    return rule_sheet(load_ruleset(ref))


def text(ref: str, key: str) -> str:
    return sheet(ref).rule(key).text


# --- exact sentences ----------------------------------------------------------------


def test_pagat_deal_evaluates_the_formula_for_each_player_count():
    assert text("pagat", "deal.hand_size") == (
        "Each player is dealt 7 tiles with 2 or 3 players, 6 with 4 "
        "(formula: 7 if players <= 3 else 6). Dealt face down; the other tiles form the "
        "boneyard: 14 tiles with 2 players, 7 with 3, 4 with 4.")


def test_pagat_lead_blocked_and_target():
    assert text("pagat", "lead") == (
        "The first round's leader is chosen by a fair lot. In later rounds the leader is "
        "the next seat clockwise from the previous round's leader (not the winner).")
    assert text("pagat", "scoring.blocked") == (
        "In a blocked round the player with the lowest hand wins and scores the sum of the "
        "opponents' hand values minus the winner's own hand value "
        "(formula: sum(opponents.value) - winner.value); if two or more players tie for "
        "lowest, nobody scores.")
    assert text("pagat", "match.target") == (
        "The match ends after the round in which a player reaches or passes 100 points "
        "with 2 players, 61 with 3 or 4 (formula: 100 if players == 2 or partnerships "
        "else 61); excess points are kept.")
    assert text("pagat", "drawing.reserve") == "The last two tiles of the boneyard are never drawn."


def test_dutch_tile_value_and_draw_limit():
    assert text("dutch", "scoring.tile_value") == (
        "A hand is worth the sum of its tiles' values; a tile is worth its pips, both "
        "halves added, except 0-0, worth 13 (formula: 13 if tile == [0|0] else tile.pips).")
    assert text("dutch", "drawing.limit") == (
        "At most 2 tiles may be drawn in one turn; a player who still cannot place then passes.")
    assert text("dutch", "drawing.voluntary") == (
        "A player who holds a playable tile must place: they may not draw.")


def test_hoyle_highest_double_lead_and_opening():
    assert text("hoyle", "lead") == (
        "Every round, the leader is the player holding the highest double dealt; if nobody "
        "holds a double, the tiles are shuffled and dealt again.")
    assert text("hoyle", "opening") == (
        "The first tile must be the highest double dealt, and the leader opens with it at "
        "once. "
        "If nobody holds a double, the tiles are shuffled and dealt again.")
    assert text("hoyle", "drawing.reserve") == "The whole boneyard may be drawn."


def test_mexican_sides_deal_and_side_scoring():
    assert text("mexican", "players") == "Exactly 4 players."
    assert text("mexican", "players.sides") == (
        "Two partnerships, seats alternating: seats 0 and 2 against seats 1 and 3; "
        "partners sit opposite and share one score.")
    assert text("mexican", "deal.hand_size") == (
        "Each player is dealt 7 tiles. All the tiles are dealt: there is no boneyard.")
    assert text("mexican", "lead") == "Every round, the leader is the player holding 6-6."
    assert text("mexican", "scoring.blocked") == (
        "In a blocked round the side whose hands add up to the lowest total wins and scores "
        "the sum of the opposing side's hand values (formula: sum(opponents.value)); if two "
        "or more sides tie for lowest, nobody scores.")


def test_vietnamese_opening_draws_in_turn():
    assert text("vietnamese", "opening") == (
        "The first tile must be 6-6: whoever holds it opens with it at once, and play goes "
        "on from their left. If nobody was dealt it, each player in turn, starting with the leader "
        "and going clockwise, draws one tile; the first to draw it opens with it at once.")
    assert text("vietnamese", "deal.hand_size") == (
        "Each player is dealt 1 tile. Dealt face down; the other tiles form the boneyard: "
        "26 tiles with 2 players, 25 with 3, 24 with 4.")


def test_house_rules_sentences():
    assert text("house/double-nine", "deal.hand_size") == (
        "Each player is dealt 7 tiles with 2 to 5 players, 6 with 6, 5 with 7 or 8 "
        "(formula: min(7, (tile_count - 15) // players)). Dealt face down; the other tiles "
        "form the boneyard: 41 tiles with 2 players, 34 with 3, 27 with 4, 20 with 5 or 7, "
        "19 with 6, 15 with 8.")
    assert text("house/double-nine", "set") == (
        "A double-nine set: one tile for each pair of values from 0 to 9, 0-0 to 9-9, "
        "55 tiles in all.")
    assert text("house/pay-per-draw", "drawing.cost") == (
        "Each tile drawn costs the drawer 1 point; the points are simply lost.")
    assert text("house/one-point-per-round", "scoring.domino") == (
        "A player who dominoes scores 1 point.")
    assert text("house/exposed-tiles-lead", "lead") == (
        "Every round, the leader is chosen by exposed tiles: each player shows a random "
        "tile, and the total of their pips modulo the number of players, plus 1, is the "
        "leader's number, counting clockwise from 1 at seat 0.")


def test_sentences_come_from_the_data_not_the_name(tmp_path: Path):
    """A custom file gets sentences for values no builtin uses."""
    path = tmp_path / "odd.yaml"
    path.write_text(
        "extends: pagat\n"
        "drawing:\n  cost: \"players - 1\"\n  cost_to: round_winner\n"
        "scoring:\n  tile_value: 1\n  domino: \"2 * sum(opponents.tiles)\"\n"
        "match:\n  tie: play_on\n", encoding="utf-8")
    s = sheet(str(path))
    assert s.rule("drawing.cost").text == (
        "Each tile drawn costs the drawer 1 point with 2 players, 2 with 3, 3 with 4 "
        "(formula: players - 1); the points go to the round's winner.")
    assert s.rule("scoring.tile_value").text == (
        "A hand is worth the sum of its tiles' values; every tile is worth 1 point.")
    assert s.rule("scoring.domino").text == (
        "A player who dominoes scores 2 times the sum of the opponents' tiles left in hand "
        "(formula: 2 * sum(opponents.tiles)).")
    assert s.rule("match.tie").text == (
        "The highest score wins; if the highest scores tie, another round is played.")


def test_counts_and_grouping_phrases():
    assert _counts_phrase([2, 3]) == "2 or 3"
    assert _counts_phrase([2, 3, 4, 5]) == "2 to 5"
    assert _counts_phrase([2, 4, 5, 6, 8]) == "2, 4 to 6 or 8"
    assert _by_players({2: 1, 3: 2, 4: 1}, "tile") == "1 tile with 2 or 4 players, 2 with 3"


def _schema_fields(node: dict, prefix: str = "") -> list[str]:
    out = []
    for key, sub in node.get("properties", {}).items():
        if sub.get("type") == "object" and "properties" in sub:
            out += _schema_fields(sub, f"{prefix}{key}.")
        else:
            out.append(prefix + key)
    return out


def test_every_schema_rule_field_gets_a_sentence():
    """A new schema field fails here until some sentence writer tells it."""
    schema = json.loads((Path(__file__).parents[1] / "schemas" / "ruleset.schema.json")
                        .read_text(encoding="utf-8"))
    fields = set(_schema_fields(schema)) - {"name", "title", "description", "source",
                                             "extends", "examples"}
    read: set[str] = set()
    for info in builtin_rulesets():
        view = _View(load_ruleset(info.name))
        for spec in _SPECS:
            spec.write(view)
        read |= view.read
    assert sorted(fields - read) == []


# --- the whole sheet ------------------------------------------------------------------


@pytest.mark.parametrize("name", [info.name for info in builtin_rulesets()])
def test_every_builtin_gets_every_rule_in_table_order(name: str):
    s = sheet(name)
    titles = [sec.title for sec in s.sections]
    assert titles == [t for t in SECTIONS if t in titles]
    assert titles[:8] == list(SECTIONS[:8])
    keys = [line.key for sec in s.sections if sec.title != "Examples" for line in sec.rules]
    every = list(rule_keys())
    assert [k for k in keys if k in every] == every          # the plain game's rules, all
    told = [k.partition("[")[0] for k in keys]               # house rules only where used
    order = list(rule_keys(optional=True))
    assert sorted(told, key=order.index) == told
    for sec in s.sections:
        for line in sec.rules:
            assert line.text.endswith("."), (line.key, line.text)


def test_examples_are_told():
    ex = [sec for sec in sheet("pagat").sections if sec.title == "Examples"][0].rules
    assert ex[0].title == "A domino against hands of 0 and 8 scores 8"
    assert ex[0].text == ("3 players, the round ends in a domino; hands: seat 0 empty, "
                          "seat 1 0-0 and seat 2 5-3. Points per player: 8, 0 and 0.")


# --- diff -------------------------------------------------------------------------------


def test_diff_pagat_dutch_lists_exactly_the_differing_rules():
    d = diff(load_ruleset("pagat"), load_ruleset("dutch"))
    assert d.keys() == ["drawing.voluntary", "drawing.limit", "scoring.tile_value"]
    limit = d.rules[1]
    assert limit.a.text == "There is no limit to the tiles drawn in one turn."
    assert limit.b.text.startswith("At most 2 tiles")


def test_diff_of_a_ruleset_with_itself_is_empty():
    assert diff(load_ruleset("pagat"), load_ruleset("pagat")).keys() == []


@pytest.mark.parametrize("house, keys", [
    ("house/empty-boneyard", ["drawing.reserve"]),
    ("house/winner-leads", ["lead"]),
    ("house/britannica", ["scoring.blocked", "match.target"]),
    ("house/partnership-draw",
     ["players", "players.sides", "deal.hand_size", "scoring.domino", "scoring.blocked",
      "match.target"]),
])
def test_diff_pagat_house_rules(house: str, keys: list[str]):
    assert diff(load_ruleset("pagat"), load_ruleset(house)).keys() == keys


def test_diff_formats():
    d = diff(load_ruleset("pagat"), load_ruleset("dutch"))
    data = json.loads(render_diff(d, "json"))
    assert data["a"] == {"name": "pagat", "title": "Pagat's representative individual Draw"}
    assert [x["key"] for x in data["differences"]] == d.keys()
    assert set(data["differences"][0]) == {"section", "key", "title", "a", "b"}
    md = render_diff(d, "markdown").splitlines()
    assert md[0] == "# pagat against dutch"
    assert "| Rule | pagat | dutch |" in md
    row = [line for line in md if line.startswith("| Tile values |")][0]
    assert "`13 if tile == [0\\|0] else tile.pips`" in row   # pipes escaped inside the table
    plain = render_diff(d, "text")
    assert plain.splitlines()[2] == "3 rules differ."
    assert "Sides" not in plain


def test_sheet_formats():
    s = sheet("dutch")
    md = render_sheet(s, "markdown")
    assert md.startswith("# Dutch Draw\n")
    assert "\n## Equipment\n" in md and "\n## Examples\n" in md
    assert ("- **Tile values.** A hand is worth the sum of its tiles' values; a tile is worth "
            "its pips, both halves added, except 0-0, worth 13 (formula: "
            "`13 if tile == [0|0] else tile.pips`).") in md.splitlines()
    data = json.loads(render_sheet(s, "json"))
    assert data["name"] == "dutch"
    assert [sec["title"] for sec in data["sections"]] == list(SECTIONS)
    rule = data["sections"][6]["rules"][0]
    assert rule == {"key": "scoring.tile_value", "title": "Tile values",
                    "text": s.rule("scoring.tile_value").text,
                    "formulas": ["13 if tile == [0|0] else tile.pips"]}
    plain = render_sheet(s, "text").splitlines()
    assert plain[0] == "Dutch Draw (dutch)"
    assert "Equipment" in plain and "---------" in plain


# --- CLI ----------------------------------------------------------------------------------


def test_cli_rules_and_diff_succeed():
    runner = CliRunner()
    out = runner.invoke(main, ["rules", "pagat"])
    assert out.exit_code == 0, out.output
    assert "- Hand size. Each player is dealt 7 tiles with 2 or 3 players, 6 with 4" in out.output
    out = runner.invoke(main, ["rules", "hoyle", "--format", "json"])
    assert out.exit_code == 0
    assert json.loads(out.output)["name"] == "hoyle"
    out = runner.invoke(main, ["diff", "pagat", "dutch", "--format", "markdown"])
    assert out.exit_code == 0
    assert out.output.startswith("# pagat against dutch\n")


def test_cli_bad_ruleset_prints_diagnostics_and_exits_1(tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text('extends: pagat\ndeal:\n  hand_size: "7 if playrs <= 3 else 6"\n',
                   encoding="utf-8")
    runner = CliRunner()
    for args in (["rules", str(bad)], ["diff", "pagat", str(bad)]):
        out = runner.invoke(main, args)
        assert out.exit_code == 1
        assert out.exception is None or isinstance(out.exception, SystemExit)
        assert f"{bad}:3:20: error: unknown name 'playrs'" in out.stderr
        assert "Traceback" not in out.output
    out = runner.invoke(main, ["rules", "no-such-ruleset"])
    assert out.exit_code == 2  # a name that is nothing: a usage error
    assert "no builtin ruleset or file named 'no-such-ruleset'" in out.stderr


def test_cli_usage_errors_exit_2():
    runner = CliRunner()
    assert runner.invoke(main, ["rules", "pagat", "--format", "xml"]).exit_code == 2
    assert runner.invoke(main, ["diff", "pagat"]).exit_code == 2


def test_sheets_point_to_the_variants_and_records_docs():
    """The project stands alone: a sheet names the docs of the repository, never ../shared."""
    sheet = rule_sheet(load_ruleset("dutch"))
    for fmt in ("text", "markdown"):
        text = render_sheet(sheet, fmt)
        assert "docs/variants.md" in text and "docs/records.md" in text
        assert "shared" not in text and "VARIANTS.md" not in text


def test_readme_and_docs_point_nowhere_outside_the_repository():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    files = [root / "README.md", *(root / "docs").glob("*.md"),
             *(root / "rulesets").rglob("*.yaml")]
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert "../shared" not in text and "TRACE.md" not in text, path
        assert "VARIANTS.md" not in text.replace("docs/variants.md", ""), path
    for name in ("records.md", "variants.md"):
        assert f"docs/{name}" in (root / "README.md").read_text(encoding="utf-8")
