"""Tiles and actions: one text form that parses back; three distinct errors."""

from __future__ import annotations

import pytest
from rules_factory import make_game, start

from dominorules.engine.actions import (
    Action,
    AmbiguousActionError,
    IllegalActionError,
    MalformedActionError,
)
from dominorules.engine.tiles import Tile


def test_tiles_compare_equal_either_way_round_and_print_high_first():
    assert Tile(6, 4) == Tile(4, 6) and hash(Tile(6, 4)) == hash(Tile(4, 6))
    assert str(Tile(4, 6)) == "6-4" and Tile.parse("[4|6]") == Tile(6, 4)
    assert Tile.of([3, 1]).to_json() == [1, 3]


@pytest.mark.parametrize("text", ["6-4 left", "6-4 right", "6-4", "draw", "pass"])
def test_text_form_parses_back(text):
    assert str(Action.parse(text)) == text
    assert Action.parse(str(Action.parse(text))) == Action.parse(text)


def test_placements_are_the_same_action_either_way_round():
    assert Action.parse("4-6 left") == Action.parse("6-4 left")


@pytest.mark.parametrize("text, message", [
    ("", "'' is not an action"),
    ("6-4 sideways", r"'sideways' is not an end: write left or right \(up or down on a spinner\)"),
    ("six-four", "'six-four' is not a tile: write it like 6-4"),
    ("6-4 left now", "is not an action"),
])
def test_malformed_text(text, message):
    with pytest.raises(MalformedActionError, match=message):
        Action.parse(text)


def test_illegal_ambiguous_and_resolved_by_the_one_end_that_fits():
    state = start(make_game(), ["6-6 1-2", "6-4 6-5 3-3"], "0-0", leader=0)
    with pytest.raises(IllegalActionError, match="you do not hold 6-4"):
        state.apply("6-4")
    with pytest.raises(IllegalActionError,
                       match="the opening tile is placed without an end: write just 6-6"):
        state.apply("6-6 left")
    state.apply("6-6")
    with pytest.raises(AmbiguousActionError):
        state.parse_action("6-4")
    state.apply("6-4 left")                  # ends 4 and 6
    with pytest.raises(IllegalActionError, match=r"^2-1 matches neither open end \(4 and 6\)$"):
        state.apply("2-1")
    with pytest.raises(IllegalActionError, match=r"^2-1 does not match the left end \(4\)$"):
        state.apply("2-1 left")


def test_a_tile_alone_is_resolved_to_the_one_end_it_fits():
    state = start(make_game(), ["6-4 1-2", "6-5 3-3"], "0-0", leader=0)
    state.apply("6-4")                       # the opening [4|6]: 4 open left, 6 right
    assert state.parse_action("6-5") == Action.place("6-5", "right")
    state.apply("6-5")
    assert state.record[-1] == {"event": "place", "player": 1, "tile": [5, 6], "end": "right"}


def test_an_action_object_without_an_end_is_resolved_too():
    state = start(make_game(), ["6-4 1-2", "6-5 3-3"], "0-0", leader=0)
    state.apply(Action.place("6-4"))
    state.apply(Action.place("6-5"))
    assert state.record[-1]["end"] == "right"
