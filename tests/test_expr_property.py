"""Property: random well-typed formulas compile, never raise, and agree with the tree walker.

Formulas are generated as text (with random spacing and extra parentheses) from
typed building blocks, for the scoring, tile_value and target fields; scoring's lists
are also read element by element (``count(seats, x -> x.pips > 3)``, nested too) and
indexed (``sides.pips[i]``, any integer formula as the index, in range or not).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominorules.engine.game_rules import SeatTally, SideTally
from dominorules.expr import (
    compile_expression,
    compile_tree,
    evaluate_tree,
    format_expression,
    parse,
)

SMALL = st.integers(min_value=0, max_value=30)


def _paren(text: str) -> st.SearchStrategy[str]:
    return st.sampled_from([text, f"({text})", f"( {text} )"])


LEAVES = {
    "scoring": (["players", "winner.pips", "winner.tiles", "winner.drawn", "winner.index",
                 "sum(opponents.pips)", "sum(winner.players.seat)", "count(seats)",
                 "max(sides.tiles)", "min(seats.drawn)", "max(opponents.pips)",
                 "count(opponents)", "sum(seats.pips) - winner.pips"],
                ["true", "false"]),
    "tile_value": (["tile.low", "tile.high", "tile.pips"],
                   ["tile.is_double", "(tile == [0|0])", "([6|3] != tile)", "true"]),
    "target": (["players", "side_count"], ["partnerships", "false"]),
}


def formula(field: str, typ: str = "int", depth: int = 4) -> st.SearchStrategy[str]:
    """Text of a well-typed ``typ`` formula for ``field``, ``depth`` deep.

    ``typ`` is "int", "bool" or (for tile_value only) "tile".
    """
    int_leaves, bool_leaves = LEAVES[field]
    if typ == "int":
        leaf = st.one_of(SMALL.map(str), st.sampled_from(int_leaves))
    elif typ == "tile":
        leaf = st.one_of(st.just("tile"), st.tuples(st.integers(0, 9), st.integers(0, 9)).map(
            lambda t: f"[{t[0]}|{t[1]}]"))
    else:
        leaf = st.sampled_from(bool_leaves)
    if depth == 0:
        return leaf
    ints, bools = formula(field, "int", depth - 1), formula(field, "bool", depth - 1)
    if typ == "tile":
        tiles = formula(field, "tile", depth - 1)
        compound = st.tuples(tiles, bools, tiles).map(
            lambda t: f"({t[0]} if {t[1]} else {t[2]})")
    elif typ == "int":
        compound = st.one_of(
            st.tuples(ints, st.sampled_from(["+", "-", "*", "//", "%"]), ints).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"),
            ints.map(lambda a: f"-({a})"),
            st.tuples(ints, bools, ints).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
            st.lists(ints, min_size=2, max_size=3).map(lambda xs: "max(" + ", ".join(xs) + ")"),
            st.lists(ints, min_size=2, max_size=3).map(lambda xs: "min(" + ", ".join(xs) + ")"),
            ints.map(lambda a: f"abs({a})"),
            *_each_ints(field, depth),
            *_indexed(field, ints),
        )
    else:
        compound = st.one_of(
            st.tuples(ints, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), ints).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(bools, st.sampled_from(["and", "or", "==", "!="]), bools).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"),
            bools.map(lambda b: f"(not {b})"),  # `a == not b` is no formula (nor Python)
            st.tuples(bools, bools, bools).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
            *_each_bools(field, depth),
        )
        if field == "tile_value":
            tiles = formula(field, "tile", depth - 1)
            compound = st.one_of(compound, st.tuples(
                tiles, st.sampled_from(["==", "!="]), tiles).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"))
    return st.one_of(leaf, compound.flatmap(_paren))


# Lists a field offers, each with an element formula over the element ``x`` (nested lists
# read element by element too): ``count(seats, x -> x.pips > 3)``.
EACH_LISTS = {
    "scoring": ("seats", "sides", "opponents", "winner.players"),
    "tile_value": (), "target": (),
}
_INT_OF = {"seats": ["x.pips", "x.tiles", "x.drawn", "x.seat"],
           "sides": ["x.pips", "x.tiles", "x.index", "count(x.players)",
                     "sum(x.players, y -> y.pips)"],
           "opponents": ["x.pips", "x.index", "max(x.players, y -> y.tiles)"],
           "winner.players": ["x.pips", "x.seat"]}


def _element(field: str, items: str, typ: str, depth: int) -> st.SearchStrategy[str]:
    """A formula over the element ``x`` of ``items`` (and the field's own names)."""
    own = st.sampled_from(_INT_OF[items])
    outer = formula(field, "int", 0)   # a leaf: no second x inside the element
    ints = st.one_of(own, st.tuples(own, st.sampled_from(["+", "-", "*"]), outer).map(
        lambda t: f"{t[0]} {t[1]} {t[2]}"))
    if typ == "int":
        return ints
    return st.tuples(ints, st.sampled_from(["==", "<", ">="]), ints).map(
        lambda t: f"{t[0]} {t[1]} {t[2]}")


# Ordered lists of integers a field may index (``sides.pips[i]``): the index any integer
# formula, so past either end (and negative, from the end) is drawn as often as not.
INDEXED = {"scoring": ("sides.pips", "seats.tiles", "opponents.pips", "seats.drawn"),
           "tile_value": (), "target": ()}


def _indexed(field: str, ints: st.SearchStrategy[str]) -> list:
    return [st.tuples(st.sampled_from(INDEXED[field]), ints).map(lambda t: f"{t[0]}[{t[1]}]")
            ] if INDEXED[field] else []


def _each_ints(field: str, depth: int) -> list:
    return [st.tuples(st.sampled_from(["count"]), st.just(items),
                      _element(field, items, "bool", depth)).map(
                lambda t: f"{t[0]}({t[1]}, x -> {t[2]})")
            for items in EACH_LISTS[field]] + [
            st.tuples(st.sampled_from(["sum", "min", "max"]), st.just(items),
                      _element(field, items, "int", depth)).map(
                lambda t: f"{t[0]}({t[1]}, x -> {t[2]})")
            for items in EACH_LISTS[field]]


def _each_bools(field: str, depth: int) -> list:
    return [st.tuples(st.sampled_from(["any", "all"]), st.just(items),
                      _element(field, items, "bool", depth)).map(
                lambda t: f"{t[0]}({t[1]}, x -> {t[2]})")
            for items in EACH_LISTS[field]]


@st.composite
def scoring_env(draw):
    n = draw(st.integers(min_value=2, max_value=4))
    seats = tuple(SeatTally(seat=i, pips=draw(SMALL), tiles=draw(st.integers(0, 7)),
                            drawn=draw(st.integers(0, 7))) for i in range(n))
    if draw(st.booleans()) and n == 4:
        groups = [(seats[0], seats[2]), (seats[1], seats[3])]
    else:
        groups = [(s,) for s in seats]
    sides = tuple(SideTally(index=i, players=g, pips=sum(s.pips for s in g),
                            tiles=sum(s.tiles for s in g), drawn=sum(s.drawn for s in g))
                  for i, g in enumerate(groups))
    w = draw(st.integers(0, len(sides) - 1))
    return {"winner": sides[w], "opponents": sides[:w] + sides[w + 1:], "sides": sides,
            "seats": seats, "players": n}


@st.composite
def tile_env(draw):
    a, b = draw(st.integers(0, 9)), draw(st.integers(0, 9))
    return {"tile": (min(a, b), max(a, b))}


@st.composite
def target_env(draw):
    return {"players": draw(st.integers(2, 6)), "partnerships": draw(st.booleans()),
            "side_count": draw(st.integers(2, 6))}


CASES = {"scoring": scoring_env(), "tile_value": tile_env(), "target": target_env()}
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _agree(field: str, source: str, env: dict) -> None:
    compiled = compile_expression(source, field)
    value = compiled.fn(env)
    assert type(value) is int
    assert value == evaluate_tree(compiled.ast, env)
    assert value == compile_tree(compiled.ast)(env)   # the closures agree with the source
    # the canonical text says the same thing and computes the same value
    text = format_expression(compiled.ast)
    assert parse(text) == compiled.ast
    assert compile_expression(text, field).fn(env) == value


@FAST
@given(formula("scoring"), scoring_env())
def test_scoring_formulas_agree(source, env):
    _agree("scoring", source, env)


@FAST
@given(formula("tile_value"), tile_env())
def test_tile_value_formulas_agree(source, env):
    _agree("tile_value", source, env)


@FAST
@given(formula("target"), target_env())
def test_target_formulas_agree(source, env):
    _agree("target", source, env)
