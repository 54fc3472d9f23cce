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


# the kinds of move of several tiles on a double-twelve line: the pairs ruleset's own (one
# tile on each end), and the others as its variants, each with a condition reading the hand
PAIRS = HOUSE / "wide-several-pairs-twelve.yaml"
KINDS = {
    "chain": "    move: chain\n    most: 3\n"
             "    tiles: \"tile.pips + end != 12 and count(hand) > 1\"\n",
    "after_double": "    move: after_double\n    most: 3\n"
                    "    tiles: \"first_turn or sum(hand.pips) > 2 * tile.pips\"\n",
    "whole_hand": "    move: whole_hand\n    tiles: \"tile.pips >= 2 or count(hand) < 4\"\n",
}


@pytest.fixture(scope="module")
def several_kinds(tmp_path_factory):
    """Each kind of move on the double-twelve line by name: the pairs, then KINDS'."""
    folder = tmp_path_factory.mktemp("wide-several")
    out = {"each_end": api.load_game(str(PAIRS))}
    for kind, several in KINDS.items():
        path = folder / f"wide-{kind}.yaml"
        path.write_text(f"title: {kind}\ndescription: a test\nsource: a test\n"
                        f"extends: house/double-twelve\nplay:\n  several:\n{several}",
                        encoding="utf-8")
        out[kind] = api.load_game(str(path))
    return out


# the most tiles a random hand holds (12, as double-twelve deals; 20 after a double, which
# goes on only from two doubles that fit), the moves each kind reaches, the most tiles in one
SEARCHES = {"each_end": (12, 100, 2), "chain": (12, 300, 3), "after_double": (20, 50, 3),
            "whole_hand": (12, 3, 9)}


# (uncompiled, numpy warns when the dead table's hash of a hand's words wraps past 64 bits;
# the slot is its low bits, the same wrapped or not, and compiled it wraps silently)
@pytest.mark.filterwarnings("ignore:overflow encountered in scalar multiply:RuntimeWarning")
@pytest.mark.parametrize("kind", list(SEARCHES))
def test_the_moves_of_several_tiles_on_a_line_of_words_are_the_general_loops(several_kinds,
                                                                                kind):
    from several_checks import line_moves_are_the_loops

    from dominorules.kernel import jit_several

    game = several_kinds[kind]
    assert game.tileset.tile_count == 91
    hand, least, deepest = SEARCHES[kind]
    found, depth = line_moves_are_the_loops(game, random.Random(kind), 300, hand,
                                            jit.plain(jit_several))
    assert found >= least and depth >= deepest


pytest.importorskip("numba")

from jit_record_checks import on_every_bot_table, same_on_both_engines  # noqa: E402

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


# (not whole_hand: a draw game on double-twelve lets a hand grow past twenty tiles, and the
# Python engine lists every order of a whole hand's run; one match did not end in minutes.
# The search itself is held to the loop's above, on hands of up to 12 tiles)
@pytest.mark.parametrize("kind", ["each_end", "chain", "after_double"])
@pytest.mark.parametrize("players", [2, 8])
def test_moves_of_several_tiles_on_a_double_twelve_line_play_the_python_engines_matches(
        several_kinds, kind, players):
    if not jit_kernel.available():   # numba installed, but switched off for this run
        pytest.skip("DOMINORULES_NO_JIT is set")
    game = several_kinds[kind]
    events = on_every_bot_table(game, players, [api.match_seed(47, 0)], trace=True)
    parts = {e["part"][1] for e in events if "part" in e}
    assert parts and max(parts) >= 2   # moves of several tiles were played and written
