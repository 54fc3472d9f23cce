"""The builtin rulesets: all of them validate, and the public API reports them exactly."""

from __future__ import annotations

import pytest

from dominorules.diagnostics import DiagnosticError
from dominorules.engine.game_rules import Rules, ScoreContext, SeatTally, SideTally
from dominorules.rules import (
    Ruleset,
    builtin_rulesets,
    check_player_count,
    check_ruleset,
    load_ruleset,
)
from dominorules.rules.examples import Example

BUILTINS = builtin_rulesets()


def test_builtin_names_are_stems_and_house_stems():
    names = [b.name for b in BUILTINS]
    for b in BUILTINS:
        expected = f"house/{b.path.stem}" if b.path.parent.name == "house" else b.path.stem
        assert b.name == expected
        assert b.path.suffix == ".yaml"
    assert names == sorted(n for n in names if "/" not in n) + sorted(n for n in names if "/" in n)


@pytest.mark.parametrize("info", BUILTINS, ids=[b.name for b in BUILTINS])
def test_every_builtin_validates(info):
    assert [d.headline() for d in check_ruleset(info.name)] == []
    ruleset = load_ruleset(info.name)
    assert isinstance(ruleset.rules, Rules)
    assert ruleset.name == ruleset.rules.name
    assert info.description, "a builtin needs a one-line description for `list`"


def _side(index: int, pips: int) -> SideTally:
    seat = SeatTally(index, pips, 1, 0)
    return SideTally(index, (seat,), pips, 1, 0)


def test_load_pagat_compiles_every_field():
    rs = load_ruleset("pagat")
    assert isinstance(rs, Ruleset)
    assert rs.name == "pagat" and rs.path.endswith("pagat.yaml") and rs.chain == (rs.path,)
    r = rs.rules
    assert [r.hand_size(n) for n in (2, 3, 4)] == [7, 7, 6]
    assert [r.target(n, n, False) for n in (2, 3, 4)] == [100, 61, 61]
    assert r.target(4, 2, True) == 100
    assert r.tile_value(6, 6) == 12 and r.tile_value(0, 0) == 0
    assert (r.min_players, r.max_players, r.partnerships, r.reserve) == (2, 4, False, 2)
    assert (r.first_leader, r.later_leader, r.opening_tile) == ("lot", "rotate", "any")
    assert r.voluntary_draw is True and r.draw_limit is None and r.draw_cost(3) == 0
    sides = (_side(0, 3), _side(1, 8), _side(2, 10))
    ctx = ScoreContext(sides[0], sides[1:], sides, tuple(s.players[0] for s in sides), 3)
    assert r.domino_points(ctx) == 18
    assert r.blocked_points(ctx) == 15
    examples = load_ruleset("pagat").examples
    assert examples[0] == Example("points", "A domino against hands of 0 and 8 scores 8",
                                  examples[0].data, examples[0].line)
    assert examples[0].data["expect_points"] == [8, 0, 0] and examples[0].line > 1


def test_data_has_schema_defaults_filled_in():
    data = load_ruleset("house/empty-boneyard").data
    assert data["name"] == "house/empty-boneyard"
    assert data["drawing"]["reserve"] == 0
    assert set(data) >= {"set", "players", "deal", "lead", "opening", "drawing", "scoring",
                         "match", "examples", "description", "source"}


def test_specific_opening_tile_becomes_a_tuple():
    assert load_ruleset("mexican").rules.opening_tile == (6, 6)


def test_check_player_count():
    pagat = load_ruleset("pagat")
    assert check_player_count(pagat, 3) is None
    d = check_player_count(pagat, 5)
    assert (d.code, d.message) == ("players", "pagat allows 2 to 4 players, not 5")
    assert check_player_count(load_ruleset("mexican"), 3).message == \
        "mexican allows exactly 4 players, not 3"


def test_unknown_ref_suggests_a_builtin():
    [d] = check_ruleset("pagatt")
    assert (d.code, d.message, d.hint) == (
        "not-found", "no builtin ruleset or file named 'pagatt'",
        "did you mean 'pagat'? (`dominorules list` shows them all)")
    with pytest.raises(DiagnosticError) as err:
        load_ruleset("pagatt")
    assert err.value.diagnostics == [d]


def test_missing_path_and_directory(tmp_path):
    [d] = check_ruleset(str(tmp_path / "mine.yaml"))
    assert d.message == f"no such file: {tmp_path / 'mine.yaml'}"
    [d] = check_ruleset(str(tmp_path))
    assert d.message == f"{tmp_path} is a directory, not a ruleset file"


def test_binary_and_non_utf8_files(tmp_path):
    (tmp_path / "a.yaml").write_bytes(b"title: x\0\1\2")
    (tmp_path / "b.yaml").write_bytes(b"title: caf\xe9\n")
    assert [d.message for d in check_ruleset(str(tmp_path / "a.yaml"))] == [
        f"{tmp_path / 'a.yaml'} is a binary file, not YAML text"]
    assert [d.message for d in check_ruleset(str(tmp_path / "b.yaml"))] == [
        f"{tmp_path / 'b.yaml'} is not UTF-8 text (bad byte at offset 10)"]


@pytest.mark.parametrize("ref, is_path", [
    ("pagat", False), ("house/pay-per-draw", False), ("mine.yaml", True), ("mine.yml", True),
    ("./mine", True), ("../up", True), ("dir/mine", True), ("/abs/mine", True),
])
def test_when_a_ref_is_a_path(ref, is_path):
    from dominorules.rules.load import looks_like_path

    assert looks_like_path(ref) is is_path


def test_a_builtin_given_by_path_keeps_its_builtin_name():
    [info] = [b for b in BUILTINS if b.name == "house/pay-per-draw"]
    rs = load_ruleset(str(info.path))
    assert rs.name == "house/pay-per-draw"
