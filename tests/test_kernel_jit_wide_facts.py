"""What a formula reads of a hand or the playable tiles on a set over 62 tiles, on the JIT:
a program's folds over a set of words (``jit_formula.SET_FOLD``, the words in ``F`` by
``jit_masks.put_fact``), the placement restrictions, the opening condition and the moves
of several tiles reading them (``jit_opening_allow``, ``jit_several_shaped`` over words).

The folds against the formulas themselves on random hands; then four double-twelve test
rulesets (tests/rulesets/house/: wide-hand-restricted-twelve, restrictions reading the
hand and the playable tiles; wide-hand-opens-twelve, an opening condition reading the
hand, a leader lacking a tile drawing for one; wide-hand-turns-twelve, one passing the
opening on, the players drawing in turn; wide-trains-hand-twelve, Mexican Train's
first-turn runs and single tiles by conditions reading the hand) at 2 players and at the
most, with each builtin bot and a mixed table: the Python engine's matches and records.
One compile (the wide GEN kernel).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from dominorules import api
from dominorules.expr import compile_expression
from dominorules.expr.types import TILE, list_of
from dominorules.kernel import jit, jit_bits, jit_formula, jit_house, jit_masks
from dominorules.kernel.jit_template import PLAY_FACTS

HOUSE = Path(__file__).resolve().parent / "rulesets" / "house"
FORMULAS = ["count(hand)", "sum(hand.pips)", "max(playable.pips)", "min(hand.pips)",
            "count(hand, t -> t.is_double)", "1 if any(playable, t -> t.high > 10) else 2",
            "1 if all(hand, t -> t.low < 9) else 2", "count(playable) * 100 + sum(playable.pips)"]
# (a declaration's value reads the hand as a number; the playable tiles beside it)
PLAYABLE = {"playable": list_of(TILE)}


@pytest.mark.parametrize("text", FORMULAS)
def test_a_program_folds_a_hand_of_words_as_the_formula_reads_it(text):
    game = api.load_game("house/double-twelve")
    ts = game.tileset
    T = ts.tile_count
    W = jit_bits.words(T)
    formula = compile_expression(text, "declare", PLAYABLE)
    code = np.array(jit_formula.program(formula.ast, jit_house._PLACEMENT,
                                        {"hand": jit_formula.TILES,
                                         "playable": jit_formula.TILES},
                                        jit_house.tile_names(ts)), np.int64)
    assert jit_formula.SET_FOLD in code.tolist()
    TAB = jit_formula.tables(T + 1)
    for row, name in (("TL", "low"), ("TH", "high"), ("PIPS", "pips")):
        TAB[jit_formula.TAB[row], :T] = getattr(ts, name)
    F = np.zeros(len(jit_formula.FACT) + 2 * W, np.int64)
    stack = np.zeros(jit_formula.STACK, np.int64)
    fn = formula.fn
    masks, run = jit.plain(jit_masks), jit.plain(jit_formula).run
    rng = random.Random(text)
    for _ in range(60):
        hand = rng.sample(range(T), rng.randrange(1, 30))
        playable = [t for t in hand if rng.random() < 0.5] or hand[:1]
        rows = jit_bits.wide([sum(1 << t for t in hand), sum(1 << t for t in playable)], W)
        masks.put_fact(F, jit_formula.FACT["hand"], 0, rows, 0)
        masks.put_fact(F, jit_formula.FACT["playable"], 1, rows, 1)
        want = fn({"hand": [(ts.low[t], ts.high[t]) for t in sorted(hand)],   # (runtime tiles)
                   "playable": [(ts.low[t], ts.high[t]) for t in sorted(playable)]})
        assert run(code, 0, F, TAB, np.zeros((1, 1), np.int64), 2, 2,
                   np.zeros(1, np.int64), stack) == int(want), (hand, playable)
    assert "hand" in PLAY_FACTS


pytest.importorskip("numba")

from jit_record_checks import same_on_both_engines  # noqa: E402

from dominorules.kernel import jit_kernel  # noqa: E402 - needs numba

RULESETS = [*(str(HOUSE / f"wide-hand-{n}-twelve.yaml") for n in ("restricted", "opens", "turns")),
            str(HOUSE / "wide-trains-hand-twelve.yaml")]


@pytest.mark.parametrize("name", RULESETS, ids=lambda n: Path(n).stem)
@pytest.mark.parametrize("players", [2, 8])
def test_the_hand_read_on_a_double_twelve_set_plays_the_python_engines_matches(name, players):
    if not jit_kernel.available():   # numba installed, but switched off for this run
        pytest.skip("DOMINORULES_NO_JIT is set")
    game = api.load_game(name)
    assert game.tileset.tile_count == 91 and game.rules.max_players == 8
    seeds = [api.match_seed(31, i) for i in range(1 if "trains" in name else 2)]
    mixed = (["strategist", "random", "greedy"] * 3)[:players]
    for bots in ("random", "greedy", "strategist", mixed):
        assert jit_kernel.jit_reason(game, players, bots) is None
        same_on_both_engines(game, players, seeds, bots)   # records and results
