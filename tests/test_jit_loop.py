"""The JIT kernel's source is real Python (``kernel/jit_loop.py``), specialised by its
syntax tree: each kernel keeps the lines of its switches, with its numbers and formulas
put in, and nothing else (no numba needed: these read sources only)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dominorules import api
from dominorules.kernel import jit_house, jit_kernel, jit_template
from dominorules.kernel.specialise_kernel import specialised_module

LOOP = Path(jit_kernel.__file__).with_name("jit_loop.py")


def _tree() -> ast.Module:
    return ast.parse(LOOP.read_text(encoding="utf-8"))


def _names(tree: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def test_play_batch_reads_every_parameter_by_its_place_in_Q():
    """``N = Q[Q_N]``, one a line in PARAMS' order, then PLAY_PARAMS' under ``if GEN:``:
    the array jit_kernel fills by those tuples is read by the same names."""
    play = next(f for f in _tree().body if isinstance(f, ast.FunctionDef)
                and f.name == "play_batch")

    def reads(body: list[ast.stmt]) -> list[str]:
        return [st.targets[0].id for st in body if isinstance(st, ast.Assign)
                and ast.unparse(st.value) == f"Q[Q_{ast.unparse(st.targets[0])}]"]

    assert reads(play.body) == list(jit_template.PARAMS)
    gen = next(st for st in play.body if isinstance(st, ast.If)
               and ast.unparse(st.test) == "GEN" and reads(st.body))
    assert reads(gen.body) == list(jit_template.PLAY_PARAMS)


def test_each_placeholder_is_an_index_a_switch_or_a_formula():
    """The module's ``A = B = 0`` placeholders are the names its specialisation writes in:
    every index it reads (jit_template.INDEXES, PLAY_INDEXES), W, the switches GEN,
    WIDE and CONT (the expert's playouts) and the formulas DOMINO and BLOCKED."""
    tree = _tree()
    placed = set()
    top = [*tree.body, *(st for node in tree.body if isinstance(node, ast.If)
                         for st in node.body + node.orelse)]   # the module's own lines
    for node in top:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) \
                and all(isinstance(t, ast.Name) and t.id.isupper() for t in node.targets):
            placed |= {t.id for t in node.targets}
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Load)}
    indexes = {*jit_template.INDEXES, *jit_template.PLAY_INDEXES}
    assert placed == {*(indexes & read), "W", "GEN", "WIDE", "CONT", "DOMINO", "BLOCKED"}


@pytest.mark.parametrize("name, gen, wide", [
    ("house/all-fives", True, False), ("pagat", False, False),
    ("house/double-twelve", False, True)])
def test_each_kernel_is_its_switches_lines_with_its_numbers_put_in(name, gen, wide):
    game = api.load_game(name)
    source = jit_kernel.kernel_source(game)
    tree = ast.parse(source)
    names = _names(tree)
    assert not names & {"GEN", "WIDE", "DOMINO", "BLOCKED"}   # folded, put in
    numbers = {st.targets[0].id: st.value.value for st in tree.body
               if isinstance(st, ast.Assign) and isinstance(st.value, ast.Constant)}
    assert numbers["Q_TARGET"] == jit_template.INDEXES["Q_TARGET"] == 8
    assert ("Q_RIGHT" in numbers) == gen and ("run" in names) == gen   # GEN: its lines
    assert ("W" in numbers) == wide and ("jit_bits" in names) == wide
    if wide:
        assert numbers["W"] == 2   # 91 tiles: two words a hand
    if not gen:   # the domino formula, as kernel.formulas emits it, where it is scored
        domino, _ = jit_kernel._formulas(game)
        assert f"points[w] = {ast.unparse(ast.parse(domino, mode='eval'))}" in source
    assert source.startswith('"""A JIT kernel: kernel/jit_loop.py specialised')


def test_a_settlement_reading_the_board_is_a_switch_of_the_one_house_kernel():
    """A settlement formula reading the board (``ends``, ``end_total``, ``both_ends``:
    ``jit_house.settle_reads_board``) turns on the ``SETTLE_BOARD`` switch (jit_template's
    PLAY_PARAMS, a run-time value in Q): the kernel keeps the last placement's
    ``both_ends`` and writes the board's facts before the round is scored. The module is
    the one every house ruleset of its width plays (no compile of its own); the switch is
    on for those rulesets alone."""
    strict = Path(__file__).parent / "rulesets" / "strict"
    plain = jit_kernel.kernel_source(api.load_game("house/all-fives"))
    assert "last_both = both" in plain and "F[X_BOTH_ENDS] = last_both" in plain
    for name in ("partners-as-blocked", "right-spinner"):
        game = api.load_game(str(strict / f"{name}.yaml"))
        assert jit_kernel.kernel_source(game) == plain
        assert jit_house.params(game, game.rules.min_players)["SETTLE_BOARD"] == 1, name
    for name in ("house/all-fives", "house/muggins", "house/equal-ends-bonus"):
        game = api.load_game(name)
        assert jit_house.params(game, game.rules.min_players)["SETTLE_BOARD"] == 0, name


def test_a_placeholder_read_without_a_value_is_refused():
    source = ("GEN = False\nX = Y = 0\n\n\ndef f():\n    if GEN:\n        return X\n    else:\n"
              "        return Y\n")
    kept = specialised_module(source, {"GEN": True}, {"X": 3}, frozenset({"GEN", "X", "Y"}),
                              "doc")
    assert kept == "\"\"\"doc\"\"\"\nX = 3\n\ndef f():\n    return X\n"
    with pytest.raises(ValueError, match="kernel: no value for Y"):
        specialised_module(source, {"GEN": False}, {"X": 3}, frozenset({"GEN", "X", "Y"}), "")
    with pytest.raises(TypeError, match="kernel: X is a list, not a number"):
        specialised_module(source, {"GEN": False}, {"X": [3]}, frozenset({"GEN", "X", "Y"}), "")
