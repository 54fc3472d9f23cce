"""Declarations and the showdown on a set over 62 tiles on the JIT (``jit_declare`` over a
hand of words, ``jit_masks.put_fact``; a program folding a hand of words,
``jit_formula.SET_FOLD``): the Python engine's matches and records.

tests/rulesets/house/wide-declared-twelve.yaml, on a double-twelve set: a declaration at
the round's start reading the leader's hand (who sets the first tile), claims after every
placement (the count the ends make) and options reading the placer's hand, one drawing a
tile at once, and a showdown of the passes made while a tile fitted. At 2 players and at
the most, with each builtin bot and a mixed table; one compile (the wide GEN kernel).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dominorules import api

pytest.importorskip("numba")

from jit_record_checks import same_on_both_engines  # noqa: E402

from dominorules.kernel import jit_kernel  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

RULESET = str(Path(__file__).resolve().parent / "rulesets" / "house" / "wide-declared-twelve.yaml")


@pytest.mark.parametrize("players", [2, 4])
def test_declarations_and_the_showdown_on_a_double_twelve_set_play_the_python_engines(players):
    game = api.load_game(RULESET)
    assert game.tileset.tile_count == 91 and players in (2, game.rules.max_players)
    seeds = [api.match_seed(23, i) for i in range(2)]
    events = []
    for bots in ("random", "greedy", "strategist",
                 ["strategist", "random", "greedy", "random"][:players]):
        assert jit_kernel.jit_reason(game, players, bots) is None
        events += same_on_both_engines(game, players, seeds, bots)   # records and results
    kinds = {e["event"] for e in events}
    assert {"declare", "claim", "penalty"} <= kinds, kinds
    assert any(e["event"] == "draw" and e.get("rule") == "more" for e in events)
    # the leader kept the first tile, or handed it on, by the doubles in its hand
    setters = {e["option"] for e in events if e["event"] == "declare"
               and e["declaration"] == "setter"}
    assert setters == {"me", "next"}, setters


# claims after each placement on a double-twelve set where the ends are not a line's two:
# a spinner's four (the count reads the ends as a list and the tiles at them), a shaped
# board's total and lists (Chicken Foot, with the tap of the last domino), a fit rule's
# ends with doubles in line (Matador); the one turn passes each its facts over words
BOARDS = ("wide-called-spinner-twelve", "wide-tap-feet-twelve", "wide-matador-called-twelve")


@pytest.mark.parametrize("name", BOARDS)
def test_claims_after_a_placement_on_four_ends_a_shaped_board_or_a_fit_rule_over_words(name):
    game = api.load_game(str(Path(RULESET).with_name(f"{name}.yaml")))
    assert game.tileset.tile_count == 91
    seeds = [api.match_seed(29, i) for i in range(2)]
    most = game.rules.max_players
    events = []
    for players, bots in ((2, "random"), (2, "greedy"), (2, "strategist"),
                          (most, ["strategist", "random", "greedy"] * (most // 3 + 1))):
        bots = bots if isinstance(bots, str) else bots[:players]
        assert jit_kernel.jit_reason(game, players, bots) is None
        events += same_on_both_engines(game, players, seeds, bots)   # records and results
    kinds = {e["event"] for e in events}
    assert "claim" in kinds, kinds
