"""The formula language evaluates as documented in docs/language.md."""

from __future__ import annotations

import pytest

from dominorules.engine.game_rules import SeatTally, SideTally
from dominorules.expr import FIELDS, ExprError, ast, compile_expression, format_expression, parse
from dominorules.expr.types import BOOL, INT, TILE, list_of


def run(source, field="hand_size", **env):
    return compile_expression(source, field).fn(env)


def scoring_env():
    """Three seats in two partnerships: side 0 = seats 0 and 2, side 1 = seat 1."""
    s0 = SeatTally(seat=0, pips=0, tiles=0, drawn=2)
    s1 = SeatTally(seat=1, pips=9, tiles=3, drawn=0)
    s2 = SeatTally(seat=2, pips=4, tiles=1, drawn=5)
    side0 = SideTally(index=0, players=(s0, s2), pips=4, tiles=1, drawn=7)
    side1 = SideTally(index=1, players=(s1,), pips=9, tiles=3, drawn=0)
    return {"winner": side0, "opponents": (side1,), "sides": (side0, side1),
            "seats": (s0, s1, s2), "players": 3}


@pytest.mark.parametrize("source, value", [
    ("2 + 3 * 4", 14),
    ("(2 + 3) * 4", 20),
    ("10 - 4 - 3", 3),
    ("100 // 10 // 3", 3),
    ("7 % 4 * 2", 6),
    ("-2 * 3", -6),
    ("--4", 4),
    ("-7 // 2", -4),          # rounds down, like Python
    ("-7 % 3", 2),
    ("2 - -3", 5),
    ("players * 2 + 1", 7),
    ("8 - players", 5),
])
def test_arithmetic_precedence_like_python(source, value):
    assert run(source, players=3) == value


@pytest.mark.parametrize("source, value", [
    ("1 if not players > 2 and players < 5 else 0", 0),
    ("1 if not (players > 2 and players < 5) else 0", 0),
    ("1 if true or false and false else 0", 1),
    ("1 if (true or false) and false else 0", 0),
    ("1 if players + 1 == 4 else 0", 1),
    ("1 if players != 3 or players >= 3 else 0", 1),
    ("1 if not not true else 0", 1),
])
def test_logic_precedence_like_python(source, value):
    assert run(source, players=3) == value


@pytest.mark.parametrize("players, hand", [(2, 7), (3, 7), (4, 6)])
def test_conditional(players, hand):
    assert run("7 if players <= 3 else 6", players=players) == hand


def test_conditional_nests_to_the_right():
    source = "9 if players == 2 else 7 if players == 3 else 5"
    assert [run(source, players=n) for n in (2, 3, 4)] == [9, 7, 5]
    tree = parse(source)
    assert isinstance(tree, ast.Conditional) and isinstance(tree.orelse, ast.Conditional)


def test_conditional_binds_loosest():
    # the whole sum is the branch, as in Python
    assert run("1 + 1 if players > 5 else 2 + 2", players=3) == 4


@pytest.mark.parametrize("tile, value", [((0, 0), 13), ((0, 6), 6), ((6, 6), 12), ((2, 5), 7)])
def test_tile_value(tile, value):
    assert run("13 if tile == [0|0] else tile.pips", "tile_value", tile=tile) == value


def test_tile_literals_are_normalized():
    assert parse("[6|0]") == ast.Tile(0, 6)
    assert run("1 if tile == [6|0] else 0", "tile_value", tile=(0, 6)) == 1
    assert run("1 if [6|0] == [0|6] else 0", "tile_value", tile=(1, 1)) == 1
    assert run("1 if tile != [6|0] else 0", "tile_value", tile=(1, 6)) == 1


@pytest.mark.parametrize("source, value", [
    ("tile.low", 2), ("tile.high", 5), ("tile.pips", 7),
    ("1 if tile.is_double else 0", 0),
    ("tile.high * 10 + tile.low", 52),
])
def test_tile_attributes(source, value):
    assert run(source, "tile_value", tile=(2, 5)) == value


def test_double_attribute():
    assert run("2 * tile.pips if tile.is_double else tile.pips", "tile_value",
               tile=(4, 4)) == 16


@pytest.mark.parametrize("source, value", [
    ("sum(opponents.pips) - winner.pips", 5),
    ("sum(opponents.pips)", 9),
    ("sum(sides.pips)", 13),
    ("sum(seats.pips)", 13),
    ("sum(winner.players.pips)", 4),
    ("sum(winner.players.drawn)", 7),
    ("max(seats.pips)", 9),
    ("min(seats.pips)", 0),
    ("max(winner.players.seat)", 2),
    ("count(winner.players)", 2),
    ("count(opponents)", 1),
    ("count(seats)", 3),
    ("max(winner.pips, 10, players)", 10),
    ("min(winner.pips, players)", 3),
    ("abs(winner.pips - 10)", 6),
    ("winner.index", 0),
    ("players", 3),
    ("1", 1),
    ("sum(opponents.tiles) * 2 if winner.tiles == 0 else 0", 0),
])
def test_scoring_lists_and_aggregates(source, value):
    assert run(source, "scoring", **scoring_env()) == value


def test_list_attributes_map_element_wise():
    c = compile_expression("1", "scoring")
    assert c.type == INT
    tree = compile_expression("sum(winner.players.pips)", "scoring").ast
    assert tree.args[0].type == list_of(INT)
    assert tree.args[0].obj.type == list_of(FIELDS["scoring"].names["seats"].elem)


def test_any_and_all():
    # no field offers a list of booleans yet, but the functions check and run
    with pytest.raises(ExprError) as err:
        compile_expression("1 if any(seats.pips) else 0", "scoring")
    assert err.value.problems[0].message == \
        "any takes one list of booleans, this is a list of integers"


@pytest.mark.parametrize("source", ["players // 0", "players % 0", "players // (players - 3)",
                                    "min(opponents.pips) + max(opponents.pips)"])
def test_evaluation_never_raises(source):
    env = scoring_env() | {"opponents": ()}
    assert run(source, "scoring", **env) == 0


def test_yaml_scalars_are_expressions():
    c = compile_expression(7, "hand_size")
    assert (c.fn({}), c.type, c.source) == (7, INT, "7")
    assert compile_expression(-2, "draw_cost").fn({}) == -2
    with pytest.raises(ExprError) as err:
        compile_expression(True, "hand_size")
    assert err.value.problems[0].message == \
        "hand_size must be an integer, this expression is a boolean"


def test_target_field():
    c = compile_expression("100 if players == 2 or partnerships else 61", "target")
    assert c.fn({"players": 4, "partnerships": True, "side_count": 2}) == 100
    assert c.fn({"players": 3, "partnerships": False, "side_count": 3}) == 61
    assert run("side_count * 50", "target", side_count=3) == 150


def test_draw_cost_and_hand_size_names():
    assert run("players - 1", "draw_cost", players=4) == 3
    assert run("tile_count // (players + 1)", "hand_size", players=3, tile_count=28,
               max_pip=6) == 7
    assert run("max_pip + 1", "hand_size", max_pip=9) == 10


def test_compiled_carries_type_source_and_tree():
    c = compile_expression("13 if tile == [0|0] else tile.pips", "tile_value")
    assert c.type == INT and c.source == "13 if tile == [0|0] else tile.pips"
    assert c.ast == ast.Conditional(
        ast.Int(13),
        ast.Binary("==", ast.Name("tile"), ast.Tile(0, 0)),
        ast.Attribute(ast.Name("tile"), "pips"))
    assert c.ast.test.type == BOOL and c.ast.test.left.type == TILE


def test_positions_in_tree():
    tree = parse("  sum(opponents.pips) - winner.pips")
    assert (tree.offset, tree.length) == (2, 33)
    assert (tree.op, tree.op_offset) == ("-", 22)
    assert (tree.right.attr, tree.right.attr_offset) == ("pips", 31)


def test_keywords_are_not_names_but_longer_words_are():
    assert parse("iffy + notes - true_") == ast.Binary(
        "-", ast.Binary("+", ast.Name("iffy"), ast.Name("notes")), ast.Name("true_"))
    assert parse("not true") == ast.Unary("not", ast.Bool(True))


@pytest.mark.parametrize("source, text", [
    ("7 if players<=3 else 6", "7 if players <= 3 else 6"),
    ("(2+3)*4", "(2 + 3) * 4"),
    ("2+(3*4)", "2 + 3 * 4"),
    ("(10-4)-3", "10 - 4 - 3"),
    ("10-(4-3)", "10 - (4 - 3)"),
    ("-(players)", "-players"),
    ("-(1+2)", "-(1 + 2)"),
    ("not (true and false)", "not (true and false)"),
    ("(1 if true else 2) + 3", "(1 if true else 2) + 3"),
    ("1 if true else (2 if false else 3)", "1 if true else 2 if false else 3"),
    ("(1 if true else 2) if false else 3", "(1 if true else 2) if false else 3"),
    ("(1 < 2) == true", "(1 < 2) == true"),
    ("[6|0]", "[0|6]"),
    ("sum( opponents.pips )", "sum(opponents.pips)"),
    ("max(1,2 ,3)", "max(1, 2, 3)"),
    ("(winner).pips", "winner.pips"),
    (6, "6"),
    (False, "false"),
])
def test_format_expression(source, text):
    assert format_expression(source) == text
    assert parse(text) == parse(format_expression(source))
