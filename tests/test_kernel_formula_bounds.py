"""The JIT's 64-bit check bounds a formula by interval arithmetic (kernel.formulas.interval):
exact for a constructed formula, sound on random values, tight where min/max clamp."""

from __future__ import annotations

import random

import pytest

from dominorules.expr import compile_expression
from dominorules.expr.types import INT
from dominorules.kernel.formulas import interval, magnitude


def _tree(text: str, field: str = "event_place"):
    return compile_expression(text, field).ast


@pytest.mark.parametrize(("text", "field", "expected"), [
    ("3 - 5", "scoring", (-2, -2)),
    ("-(2 * 3) + 1", "scoring", (-5, -5)),
    ("sum(opponents.value)", "scoring", (-3 * 10, 3 * 10)),   # 3 players, hands of 10
    ("count(opponents)", "scoring", (0, 3)),
    ("round * 2", "scoring", (0, 2000)),
    ("1 if blocked else -4", "scoring", (-4, 1)),
    ("abs(-7 - winner.value)", "scoring", (0, 17)),
    # the score clamps to 1..3 however large it grows (house/bergen-near-game's kind)
    ("min(3, max(1, target - side.score - 1))", "event_place", (1, 3)),
    ("max(2, 5)", "event_place", (5, 5)),
    ("count(hand, t -> t.is_double)", "event_place", (0, 28)),   # a hand's tiles, not the seats
    ("sum(hand, t -> t.pips)", "event_place", (-28 * 10, 28 * 10)),
])
def test_bounds_of_constructed_formulas(text, field, expected):
    got = interval(_tree(text, field), 10, 28, 3, {"target": 100}, 1 << 50)
    assert got == expected
    assert magnitude(_tree(text, field), 10, 28, 3, {"target": 100}, 1 << 50) == \
        max(abs(expected[0]), abs(expected[1]))


def test_a_score_read_without_its_bound_is_a_small_number_and_with_it_as_large():
    tree = _tree("side.score * 2")
    assert magnitude(tree, 10, 28, 3) == 6
    assert magnitude(tree, 10, 28, 3, score=1 << 50) == 1 << 51


def test_the_bounds_hold_for_random_values_of_their_names():
    """Every value the formula takes with its names inside their bounds lies inside the
    interval (the arithmetic the language has: + - * // % min max abs, conditionals)."""
    texts = ["(a - b) * (b + 3) // 2", "a % 5 - b", "min(a, 2 * b) - max(-a, b)",
             "a * a - b * 3 if a > b else abs(b) % 4", "-(a // 3) + b % 7"]
    rng = random.Random(7)
    for text in texts:
        compiled = compile_expression(text, "variable", {"a": INT, "b": INT})
        lo, hi = interval(compiled.ast, 10, 28, 3, {"a": 9, "b": 4})
        for _ in range(300):
            names = {"a": rng.randint(-9, 9), "b": rng.randint(-4, 4)}
            value = compiled.fn(names) if callable(compiled.fn) else None
            assert lo <= value <= hi, (text, names, value, (lo, hi))
