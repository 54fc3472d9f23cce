"""Sets over 62 tiles on the JIT (``jit_template``'s ``WIDE`` lines, ``kernel/jit_bits.py``,
the strategist over words: ``kernel/jit_strategist.py``): the Python engine's matches.

A double-twelve set (91 tiles, two words a hand) at 2, 3 and 4 players, with the random,
greedy and strategist bots and mixed tables: the JIT's ``MatchResult`` equals the Python
engine's field for field for the same seeds, and ``simulate`` gives the same summary from
either. All of it runs on one compiled kernel (the player count and bots are run-time
values), so this file costs one new compile. A set of at most 62 tiles keeps its kernel
source as it was: no word of the wide lines reaches it.
"""

from __future__ import annotations

import pytest
from jit_record_checks import same_summary

from dominorules import api
from dominorules.kernel import engines

pytest.importorskip("numba")

from dominorules.kernel import jit_kernel  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

NAME = "house/double-twelve"


def _tables(players: int) -> list:
    return ["random", "greedy", "strategist", (["strategist", "random", "greedy"] * 2)[:players],
            (["greedy", "strategist"] * 2)[:players]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_double_twelve_set_plays_the_python_engines_matches(players):
    game = api.load_game(NAME)
    seeds = [api.match_seed(21, i) for i in range(80)]
    for bots in _tables(players):
        assert jit_kernel.jit_reason(game, players, bots) is None
        jit = engines.jit_results(game, players, seeds, bots)
        for seed, got in zip(seeds, jit, strict=True):
            assert got == api.play_match(game, players, seed, bots), (bots, seed)


def test_simulate_gives_the_same_summary_from_either_engine():
    game = api.load_game(NAME)
    same_summary(game, 5, 1500, 7, "greedy")


def test_bigger_sets_play_too_and_what_the_jit_leaves_to_python_is_said():
    for name in ("house/double-fifteen", "house/double-eighteen"):
        game = api.load_game(name)
        assert jit_kernel.jit_reason(game, 4, "strategist") is None
        assert engines.choose(game, 4, "random", "auto", matches=50_000) == "jit"
    game = api.load_game(NAME)   # its records too (tests/test_kernel_jit_records_deal.py)
    assert engines.jit_reason(game, 2, "random", trace=True) is None
    assert engines.choose(game, 2, "random", "auto", trace=True, matches=50_000) == "jit"
    matador = api.load_game("house/matador-twelve")   # house rules too, over words
    assert jit_kernel.jit_reason(matador, 2, "random") is None   # (test_kernel_jit_gen_wide)
    assert engines.choose(matador, 2, "random", "auto", matches=50_000) == "jit"


def test_a_smaller_sets_kernel_has_no_wide_lines():
    small = jit_kernel.kernel_source(api.load_game("house/double-nine"))
    wide = jit_kernel.kernel_source(api.load_game(NAME))
    assert "jit_bits" not in small and "jit_bits" in wide and "\nW = 2\n" in wide
    assert jit_kernel.kernel_source(api.load_game("house/double-eighteen")) != wide
