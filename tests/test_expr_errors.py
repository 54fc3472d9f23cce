"""Every kind of formula problem, with its exact message, offset, length and hint."""

from __future__ import annotations

import pytest

from dominorules.expr import ExprError, ExprProblem, compile_expression


def problems(source, field="hand_size"):
    with pytest.raises(ExprError) as err:
        compile_expression(source, field)
    return err.value.problems


def only(source, field="hand_size"):
    found = problems(source, field)
    assert len(found) == 1, found
    return found[0]


# syntax

@pytest.mark.parametrize("source, message, offset, hint", [
    ("", "the expression is empty", 0, "write a number or a formula, e.g. 7"),
    ("players +", "the expression ends too early; expected a name, a number, '(', '-', "
     "'[', 'false' or 'true'", 9, "write what comes after '+', or remove it"),
    ("(players + 1", "the expression ends too early; expected ')'", 12,
     "close every '(' with ')'"),
    ("7 if players <= 3", "the expression ends too early; expected 'else' or 'or'", 17,
     "a conditional is written 'A if condition else B'"),
    ("7 if players <= 3 6", "unexpected number 6; expected '%', '*', '+', '-', '.', '//', "
     "'[', 'and', 'else' or 'or'", 18, "a conditional is written 'A if condition else B'"),
    ("1 2", "unexpected number 2; expected a comparison, '%', '*', '+', '-', '.', '//', "
     "'[', 'and', 'if', 'or' or the end of the expression", 2, "is an operator missing?"),
    ("1 < players < 3", "unexpected '<'; expected '+', '-', 'and', 'if', 'or' or the end "
     "of the expression", 12, "comparisons do not chain: write 'a < b and b < c'"),
    ("2 ** players", "unexpected '*'; expected a name, a number, '(', '-', '[', 'false' or "
     "'true'", 3, "'**' (powers) is not part of the language; multiply with '*'"),
    ("players / 2", "unexpected character '/'", 8,
     "division is '//' (whole numbers, rounded down)"),
    ("players && 2", "unexpected character '&'", 8,
     "use 'and', 'or', 'not'; compare with '==' and '!='"),
    ("players = 2", "unexpected character '='", 8,
     "use 'and', 'or', 'not'; compare with '==' and '!='"),
    ("[1|]", "unexpected ']'; expected a number", 3, "a tile has two numbers: [6|4]"),
    ("players.", "the expression ends too early; expected a name", 8,
     "name an attribute after the '.', e.g. tile.pips"),
    ("sum(,)", "unexpected ','; expected a name, a number, '(', ')', '-', '[', 'false', "
     "'not' or 'true'", 4, "write a value (a name or a number) before ','"),
    ("players if", "the expression ends too early; expected a name, a number, '(', '-', "
     "'[', 'false', 'not' or 'true'", 10, "write what comes after 'if', or remove it"),
    ("max(1,", "the expression ends too early; expected a name, a number, '(', '-', "
     "'[', 'false', 'not' or 'true'", 6, "write what comes after ',', or remove it"),
    ("players)", "unexpected ')'; expected the end of the expression", 7,
     "remove the ')', or open it with '(' earlier"),
    ("__import__('os')", "unexpected character \"'\"", 11,
     "formulas have no text values; a tile is written [6|4]"),
    ("players ≤ 3", "unexpected character '≤'", 8, "write '<='"),
    ("players > 2 ? 1 : 2", "unexpected character '?'", 12, "write 'A if condition else B'"),
])
def test_syntax_errors(source, message, offset, hint):
    assert only(source) == ExprProblem("expr-syntax", message, offset, 1, hint)


def test_operator_without_left_operand():
    assert only("== 3") == ExprProblem(
        "expr-syntax", "unexpected '=='; expected a name, a number, '(', '-', '[', 'false', "
        "'not' or 'true'", 0, 2, "write a value (a name or a number) before '=='")


def test_misspelt_keyword():
    assert only("7 if players <= 3 els 6") == ExprProblem(
        "expr-syntax", "unexpected name 'els'; expected '%', '*', '+', '-', '.', '//', '[', "
        "'and', 'else' or 'or'", 18, 3, "did you mean 'else'?")


def test_syntax_error_underlines_the_whole_token():
    p = only("players players")
    assert (p.message, p.offset, p.length) == (
        "unexpected name 'players'; expected a comparison, '%', '(', '*', '+', '-', '.', "
        "'//', '[', 'and', 'if', 'or' or the end of the expression", 8, 7)
    assert p.hint == "is an operator missing?"


# names

def test_unknown_name_suggests_the_closest():
    assert only("8 - playrs") == ExprProblem(
        "expr-name", "unknown name 'playrs'; hand_size offers: max_pip, players, tile_count",
        4, 6, "did you mean 'players'?")


def test_unknown_name_offered_by_another_field():
    assert only("sum(opponents.pips)", "tile_value") == ExprProblem(
        "expr-name", "unknown name 'opponents'; tile_value offers: tile", 4, 9,
        "only claim, duty_met, event_draw, event_pass, event_place and scoring formulas offer "
        "'opponents'")


def test_unknown_name_with_nothing_close():
    assert only("zebra", "draw_cost") == ExprProblem(
        "expr-name", "unknown name 'zebra'; draw_cost offers: players", 0, 5,
        "use one of the names listed")
    assert only("zebra", "scoring").hint == \
        "use one of the names listed, or declare it under variables:"


def test_python_spellings_get_a_hint():
    assert only("True", "target").hint == "write true in lower case"
    assert only("sum", "scoring").hint == "'sum' is a function: call it, e.g. sum(...)"


def test_unknown_function():
    assert only("summ(opponents.pips)", "scoring") == ExprProblem(
        "expr-name", "unknown function 'summ'; the functions are: abs, all, any, count, max, "
        "min, sum", 0, 4, "did you mean 'sum'?")


def test_python_builtins_are_not_reachable():
    for source in ("len(seats)", "eval(players)", "getattr(winner, players)"):
        assert only(source, "scoring").code == "expr-name"


def test_a_name_is_not_a_function():
    assert only("players(2)") == ExprProblem(
        "expr-name", "'players' is not a function; the functions are: abs, all, any, count, "
        "max, min, sum", 0, 7, "'players' is a value: write it without (...)")


# attributes

def test_unknown_attribute_lists_the_types_attributes():
    assert only("winner.pip", "scoring") == ExprProblem(
        "expr-attribute", "a side has no attribute 'pip'; its attributes are: doubles, drawn, "
        "index, pips, players, rounds_won, score, tiles, value, won", 7, 3, "did you mean 'pips'?")


def test_unknown_attribute_through_a_list():
    assert only("sum(winner.players.index)", "scoring") == ExprProblem(
        "expr-attribute", "a player has no attribute 'index'; its attributes are: doubles, drawn, "
        "pips, seat, tiles, value", 19, 5, "'index' is an attribute of a side, not of a player")


def test_python_internals_are_not_attributes():
    p = only("tile.__class__", "tile_value")
    assert (p.code, p.message, p.offset) == (
        "expr-attribute", "a tile has no attribute '__class__'; its attributes are: high, "
        "is_double, low, pips", 5)


def test_integers_have_no_attributes():
    assert only("players.seat") == ExprProblem(
        "expr-attribute", "an integer has no attributes", 8, 4,
        "an integer is read as it is: only tiles, sides and players have attributes")


# arguments

@pytest.mark.parametrize("source, message, hint", [
    ("sum(opponents.pips, seats.pips)", "sum takes one list of integers, it was given 2 "
     "arguments", "e.g. sum(list) or sum(list, x -> number)"),
    ("count()", "count takes one list, it was given 0 arguments",
     "e.g. count(list) or count(list, x -> condition)"),
    ("abs(1, 2)", "abs takes one integer, it was given 2 arguments", "e.g. abs(a - b)"),
    ("max()", "max takes a list of integers, or two or more integers, it was given 0 "
     "arguments", "e.g. max(a, b) or max(list)"),
])
def test_wrong_argument_count(source, message, hint):
    assert only(source, "scoring") == ExprProblem("expr-args", message, 0, 3 if
                                                  source[:3] != "cou" else 5, hint)


# types

def test_arithmetic_on_a_boolean():
    assert only("players + (players > 2)") == ExprProblem(
        "expr-type", "'+' needs integers, the right operand is a boolean", 11, 11,
        "turn the condition into a number, e.g. '1 if players > 2 else 0'")


def test_arithmetic_on_a_list():
    assert only("opponents.pips - winner.pips", "scoring") == ExprProblem(
        "expr-type", "'-' needs integers, the left operand is a list of integers", 0, 14,
        "add the list up with sum(opponents.pips), or take min(opponents.pips) or "
        "max(opponents.pips)")


def test_ordering_needs_integers():
    tile = "read a number from a tile: tile.pips, tile.high or tile.low"
    assert only("1 if tile < 3 else 0", "tile_value") == ExprProblem(
        "expr-type", "'<' compares integers, the left operand is a tile", 5, 4, tile)
    assert problems("1 if tile < [3|3] else 0", "tile_value") == [
        ExprProblem("expr-type", "'<' compares integers, the left operand is a tile", 5, 4,
                    tile),
        ExprProblem("expr-type", "'<' compares integers, the right operand is a tile", 12, 5,
                    "read a number from a tile: [3|3].pips, [3|3].high or [3|3].low")]


def test_equality_needs_one_type():
    assert only("1 if tile == 0 else 0", "tile_value") == ExprProblem(
        "expr-type", "'==' compares values of one type, this compares a tile with an integer",
        5, 9, "compare a number of the tile, e.g. 'tile.high == 0', or the tile with a tile "
        "such as [6|6]")
    assert only("1 if true == players else 0").hint == (
        "compare like with like: make the number a condition ('players > 0') or the "
        "condition a number ('1 if true else 0')")


def test_equality_of_sides_is_not_offered():
    assert only("1 if winner == 2 else 0", "scoring") == ExprProblem(
        "expr-type", "'==' compares integers, booleans or tiles, the left operand is a side",
        5, 6, "read a number from a side: winner.score, winner.pips or winner.index")
    assert [p.offset for p in problems("1 if winner == winner else 0", "scoring")] == [5, 15]


def test_logic_needs_booleans():
    assert only("1 if players and true else 0") == ExprProblem(
        "expr-type", "'and' needs booleans, the left operand is an integer", 5, 7,
        "compare it to make a condition, e.g. 'players == 6' or 'players > 0'")
    assert only("1 if not players else 0") == ExprProblem(
        "expr-type", "'not' needs a boolean, its operand is an integer", 9, 7,
        "compare it to make a condition, e.g. 'players == 6' or 'players > 0'")
    assert only("-true", "target") == ExprProblem(
        "expr-type", "'-' needs an integer, its operand is a boolean", 1, 4,
        "turn the condition into a number, e.g. '1 if true else 0'")


def test_condition_must_be_a_boolean():
    assert only("7 if players else 6") == ExprProblem(
        "expr-type", "the condition after 'if' must be a boolean, this is an integer", 5, 7,
        "compare it to make a condition, e.g. 'players == 6' or 'players > 0'")


def test_branches_must_agree():
    assert only("7 if partnerships else partnerships", "target") == ExprProblem(
        "expr-type", "both branches of 'if ... else' must have one type, the first is an "
        "integer, the second a boolean", 23, 12, "make the second branch an integer too: "
        "turn the condition into a number, e.g. '1 if partnerships else 0'")


def test_function_argument_types():
    assert only("sum(winner.pips)", "scoring") == ExprProblem(
        "expr-type", "sum takes one list of integers, this is an integer", 4, 11,
        "winner.pips is one number already: write it without sum(...)")
    assert only("count(players)", "scoring") == ExprProblem(
        "expr-type", "count needs a list, this is an integer", 6, 7,
        "give it a list, e.g. count(ends); the lists here are: ends, opponents, seats, sides")
    assert only("min(players)", "scoring") == ExprProblem(
        "expr-type", "min takes a list of integers, or two or more integers, this is an "
        "integer", 4, 7, "min of one integer is that integer; give a list or two or more")
    assert only("max(players, seats.pips)", "scoring") == ExprProblem(
        "expr-type", "max takes a list of integers, or two or more integers, this is a list "
        "of integers", 13, 10,
        "write max(seats.pips) alone for the list's largest, or give integers only")


def test_result_must_match_the_field():
    assert only("players <= 3") == ExprProblem(
        "expr-type", "hand_size must be an integer, this expression is a boolean", 0, 12,
        "turn the condition into a number, e.g. '1 if players <= 3 else 0'")
    assert only("opponents.pips", "scoring") == ExprProblem(
        "expr-type", "scoring must be an integer, this expression is a list of integers", 0, 14,
        "add the list up with sum(opponents.pips), or take min(opponents.pips) or "
        "max(opponents.pips)")
    assert only("[0|0]", "tile_value").message == \
        "tile_value must be an integer, this expression is a tile"
    assert only("tile.high", "set_keep") == ExprProblem(
        "expr-type", "set_keep must be a boolean, this expression is an integer", 0, 9,
        "compare it to make a condition, e.g. 'tile.high == 6' or 'tile.high > 0'")


def test_all_problems_are_reported_in_text_order():
    found = problems("playrs + true + summ(1) + tile.x", "hand_size")
    assert [(p.code, p.offset) for p in found] == [
        ("expr-name", 0), ("expr-type", 9), ("expr-name", 16), ("expr-name", 26)]


def test_one_mistake_is_reported_once():
    # the unknown name makes the sum's type unknown: no follow-on type errors
    assert len(problems("7 if playrs + 1 > 2 else 6")) == 1


# limits

def test_too_long():
    source = "players" + " " * 994
    assert only(source) == ExprProblem(
        "expr-limit", "the expression is 1001 characters long; at most 1000 are allowed",
        1000, 1, "split it into simpler parts")
    assert compile_expression(source[:-1], "hand_size").fn({"players": 3}) == 3


def test_a_chain_of_operators_is_nesting():
    assert compile_expression("1" + " + 1" * 48, "hand_size").fn({}) == 49
    assert only("1" + " + 1" * 50).code == "expr-limit"


def test_too_deep():
    source = "(" * 60 + "players" + ")" * 60
    p = only(source)
    assert (p.code, p.message, p.offset) == (
        "expr-limit", "the expression is nested more than 50 levels deep", 50)
    assert compile_expression("(" * 49 + "players" + ")" * 49, "hand_size").fn(
        {"players": 2}) == 2


def test_each_call_is_one_level():
    assert compile_expression("abs(" * 49 + "players" + ")" * 49, "hand_size").fn(
        {"players": -2}) == 2
    assert only("abs(" * 50 + "players" + ")" * 50).code == "expr-limit"


def test_deep_operators_count_too():
    p = only("-" * 400 + "1")
    assert (p.code, p.offset) == ("expr-limit", 50)


def test_deeply_nested_text_near_the_length_limit_is_rejected_cleanly():
    p = only("(" * 499 + "1" + ")" * 499)
    assert p.code == "expr-limit"


def test_only_text_and_whole_numbers_are_formulas():
    assert only(7.5) == ExprProblem(
        "expr-type", "a formula is text or a whole number, not 7.5", 0, 1, "")


def test_errors_survive_pickling():
    import pickle
    with pytest.raises(ExprError) as err:
        compile_expression("playrs + true", "hand_size")
    again = pickle.loads(pickle.dumps(err.value))
    assert again.problems == err.value.problems and str(again) == str(err.value)


def test_error_text_lists_every_message():
    with pytest.raises(ExprError) as err:
        compile_expression("playrs", "hand_size")
    assert str(err.value) == \
        "unknown name 'playrs'; hand_size offers: max_pip, players, tile_count (at 0)"
