"""Lists read element by element (``count(hand, t -> t.is_double)``) and the event
readings they serve (``hand``, ``end_doubles``): exact values, load-time errors, and the
engine and the rulebook reading a match the same way."""

from __future__ import annotations

import pytest

from dominorules import api, records
from dominorules.engine.game import Deal
from dominorules.expr import ExprError, compile_expression, evaluate_tree, format_expression
from dominorules.expr.ast import names_read
from dominorules.kernel import generate
from dominorules.rules import check_ruleset

ENV = {"tile": (1, 2), "hand": [(6, 6), (1, 2), (3, 3), (0, 5)], "playable": [(1, 2)],
       "ends": (6, 1), "end": 1, "boneyard": 3, "round": 1, "players": 2}


@pytest.mark.parametrize("source, value", [
    ("count(hand, t -> t.is_double) == 2", True),
    ("count(hand, t -> t.is_double and t.pips > 6) == 1", True),
    ("any(hand, t -> t.pips == 5)", True),
    ("all(hand, t -> t.pips < 12)", False),
    ("all(playable, t -> not t.is_double)", True),
    ("sum(hand, t -> t.high) == 16", True),
    ("max(hand, t -> t.low) == 6 and min(ends, e -> e * 2) == 2", True),
    ("max(playable, t -> t.pips) - min(hand, t -> t.pips) == 0", True),
    ("count(hand, t -> any(ends, e -> e == t.low or e == t.high)) == 2", True),
    ("count(hand, t -> t.low == end) == 1", True),   # the field's names inside
])
def test_placement_formulas_read_each_tile(source, value):
    compiled = compile_expression(source, "placement")
    assert compiled.fn(ENV) is value
    assert evaluate_tree(compiled.ast, ENV) is value
    assert format_expression(compiled.ast) == source


def test_empty_lists_give_the_documented_values():
    env = {**ENV, "hand": []}
    for source, value in [("count(hand, t -> true) == 0", True), ("any(hand, t -> true)", False),
                          ("all(hand, t -> false)", True), ("max(hand, t -> t.pips) == 0", True),
                          ("sum(hand, t -> t.pips) == 0", True)]:
        assert compile_expression(source, "placement").fn(env) is value, source


@pytest.mark.parametrize("source, code, message", [
    ("count(hand, tile -> tile.is_double) > 0", "expr-name", "'tile' is already a name here"),
    ("count(hand, t -> t.pips) > 0", "expr-type", "after '->', count needs a condition"),
    ("sum(hand, t -> t.is_double) > 0", "expr-type", "after '->', sum needs a number"),
    ("count(hand, t -> t.pip) > 0", "expr-attribute", "a tile has no attribute 'pip'"),
    ("count(boneyard, t -> true) > 0", "expr-type", "count reads a list element by element"),
    ("abs(t -> 1) > 0", "expr-syntax", "'t -> ...' is only the second argument"),
    ("count(hand, t -> count(hand, t -> true) > 0) > 0", "expr-name", "'t' is already"),
    ("count(hand, t -> true, 1) > 0", "expr-args", "count with '->' takes a list"),
])
def test_mistakes_are_told_at_load(source, code, message):
    with pytest.raises(ExprError) as err:
        compile_expression(source, "placement")
    assert any(p.code == code and p.message.startswith(message) for p in err.value.problems)


def test_an_elements_name_is_not_a_name_read():
    tree = compile_expression("count(hand, t -> t.low == end) > 0", "placement").ast
    assert names_read(tree) == {"hand", "end"}


RULES = """title: readings
extends: pagat
events:
  - title: Doubles at both ends
    after: place
    if: "count(end_doubles, d -> d) == 2"
    points: 10
  - title: A light hand after a draw
    after: draw
    if: "all(hand, t -> t.pips < 9)"
    each_opponent: 1
"""


def test_events_read_the_ends_doubles_and_the_hand(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(RULES, encoding="utf-8")
    game = api.load_game(str(path))
    hands = ("6-6 6-4 0-1 0-2 0-3 1-2 1-3", "0-0 0-4 0-5 1-4 1-5 2-4 2-5")
    state = game.new_match(2, seed=0, deals=[Deal.of(hands, "3-4 5-6 2-2", leader=0)])
    state.apply("6-6")                     # both ends show the double: 10
    assert state.record[-1] == {"event": "score", "player": 0, "side": 0, "points": 10,
                                "rule": 0}
    state.apply("draw")                    # [3|4] joins a hand of tiles under 9 pips
    assert state.record[-1] == {"event": "score", "player": 1, "side": 0, "points": 1,
                                "rule": 1}
    state.apply("draw")                    # [5|6]: 11 pips, no point
    assert state.record[-1]["event"] == "draw"
    state.apply("6-5 left")                # one double end left: nothing
    assert state.record[-1]["event"] == "place"
    trace = tmp_path / "t.jsonl"
    records.write_records(str(trace), api.play_match(game, 3, 2, trace=True).events)
    assert records.verify_file(str(trace)) == []
    assert records.check_file_strict(str(trace)) == []


NEXT_DRAWS = """title: next draws
extends: pagat
events:
  - title: A double makes the next player draw two
    after: place
    if: "tile.is_double and not opening"
    next_draws: 2
"""

HANDS = ("6-4 0-1 0-2 0-3 1-2 1-3 2-3", "4-4 0-0 0-4 0-5 1-4 1-5 2-4")


def _next_draws_state(tmp_path):
    path = tmp_path / "n.yaml"
    path.write_text(NEXT_DRAWS, encoding="utf-8")
    game = api.load_game(str(path))
    state = game.new_match(2, seed=0, deals=[Deal.of(HANDS, "3-4 5-6 2-2", leader=0)])
    return game, state


def test_a_double_makes_the_next_player_draw_two_at_once(tmp_path):
    game, state = _next_draws_state(tmp_path)
    state.apply("6-4")
    state.apply("4-4")                    # seat 1 places a double: seat 0 draws two now
    assert state.record[-2:] == [
        {"event": "draw", "player": 0, "tile": [3, 4], "rule": 0},
        {"event": "draw", "player": 0, "tile": [5, 6], "rule": 0}]
    assert state.current_player == 0 and len(state.hand(0)) == 8
    assert not generate.covers(game)


def test_verify_and_the_rulebook_reject_a_dropped_or_invented_effect_draw(tmp_path):
    game, state = _next_draws_state(tmp_path)
    state.apply("6-4")
    state.apply("4-4")
    events = list(state.record)
    path = tmp_path / "p.jsonl"
    records.write_records(str(path), events[:-1])      # one effect draw dropped
    assert records.verify_file(str(path))
    assert records.check_file_strict(str(path))
    wrong = events[:-1] + [{**events[-1], "tile": [2, 2]}]
    records.write_records(str(path), wrong)
    assert "2, 2" in records.verify_file(str(path))[0].message
    invented = events[:3] + [{"event": "draw", "player": 1, "tile": [3, 4], "rule": 0}]
    records.write_records(str(path), invented)
    assert "no event makes a player draw here" in records.check_file_strict(str(path))[0].message


def test_next_draws_only_follow_a_placement(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("title: bad\nextends: pagat\nevents:\n  - after: pass\n    next_draws: 1\n",
                    encoding="utf-8")
    [problem] = check_ruleset(str(path))
    assert problem.line == 5 and "effect of a placement" in problem.message
