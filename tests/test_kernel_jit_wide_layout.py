"""A shaped board on a set over 62 tiles on the JIT: house/mexican-train on its 91 tiles.

jit_loop's ``GEN and WIDE`` turn plays the trains (``jit_layout``), the first turn's runs
of several tiles (``jit_several_shaped``) and the strategist's weighing of the board
(``jit_strategist_layout``) over hands of two words: the same pieces the narrow turn
calls, each set of tiles read through ``jit_masks``; the opening double by the round is
a table of each round's tiles as words (``O_ROUNDS``). Every player count the ruleset
allows, with each builtin bot and a mixed table, gives the Python engine's results and
record text for the same seed; a match of two rounds keeps the file short (the round's
double goes from 12-12 to 11-11), and the whole thirteen rounds are played too. Moves of
several tiles on a big spinner or from two big sets, once left to Python, are the JIT's.
One compile: the wide house-rule kernel (``W = 2``) that ``tests/test_kernel_jit_gen_wide.py``
plays as well.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dominorules import api

pytest.importorskip("numba")

from jit_record_checks import same_on_both_engines, same_results, same_summary  # noqa: E402

from dominorules.kernel import jit_kernel  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

NAME = "house/mexican-train"
HOUSE = Path(__file__).resolve().parent / "rulesets" / "house"
BOTS = ("random", "greedy", "strategist")


@pytest.fixture(scope="module")
def short(tmp_path_factory) -> str:
    """house/mexican-train in two rounds: 12-12 opens the first, 11-11 the second."""
    path = tmp_path_factory.mktemp("wide") / "two-rounds.yaml"
    path.write_text(f"extends: {NAME}\nmatch:\n  target: 2\nexamples: []\n", encoding="utf-8")
    return str(path)


def _mixed(players: int) -> list[str]:
    return (["strategist", "random", "greedy"] * 3)[:players]


@pytest.mark.parametrize("players", range(2, 9))
def test_every_player_count_and_bot_plays_the_python_engines_matches(short, players):
    game = api.load_game(short)
    assert game.tileset.tile_count == 91 and game.rules.max_players == 8
    for bots in (*BOTS, _mixed(players)):
        assert jit_kernel.jit_reason(game, players, bots) is None
        events = same_on_both_engines(game, players, [api.match_seed(17, players)], bots)
        rounds = [e for e in events if e["event"] == "deal"]
        assert [e["round"] for e in rounds][-1] == 2
        opened = [e["tile"] for e in events if e["event"] == "place" and e["end"] is None]
        assert opened == [[12, 12], [11, 11]]   # each round's own double
        if bots == "strategist" or players == 2:   # the first turn's runs were played
            assert any(e.get("part") == [2, 2] or e.get("part", [0, 0])[1] > 2
                       for e in events if e["event"] == "place"), bots


def test_the_whole_thirteen_rounds_play_the_python_engines_matches():
    game = api.load_game(NAME)
    assert jit_kernel.jit_reason(game, 4, "random") is None
    for players, bots in ((3, _mixed(3)), (8, "strategist")):
        events = same_on_both_engines(game, players, [api.match_seed(3, players)], bots)
        opened = [e["tile"] for e in events if e["event"] == "place" and e["end"] is None]
        assert opened == [[k, k] for k in range(12, -1, -1)]
        assert sum(e["event"] == "extra_turn" for e in events) > 13   # doubles answered


def test_a_double_inside_a_run_grants_no_turn_on_a_narrow_set_either(tmp_path):
    """The chain goes on from the double (``several.again_lapses``): its event's extra turn
    lapses, on the narrow kernel as on the wide one (house/mexican-train on a double-nine
    set, its events kept)."""
    path = tmp_path / "nine.yaml"
    path.write_text(f"title: t\nextends: {NAME}\nset: {{max_pip: 9}}\nplayers: {{max: 4}}\n"
                    "deal: {hand_size: \"12 - players\"}\nmatch: {target: 4}\nexamples: []\n",
                    encoding="utf-8")
    game = api.load_game(str(path))
    assert game.tileset.tile_count == 55
    events = same_on_both_engines(game, 3, [api.match_seed(17, 0)], "strategist")
    inside = [e for e in events if e["event"] == "place" and e.get("part")
              and e["part"][0] < e["part"][1] and e["tile"][0] == e["tile"][1]]
    assert len(inside) == 2


def test_unrecorded_matches_and_simulate_agree_too(short):
    game = api.load_game(short)
    seeds = [api.match_seed(5, i) for i in range(3)]
    same_results(game, 4, seeds, BOTS)
    same_summary(game, 3, 12, 7, "greedy")


@pytest.mark.parametrize("text", [
    f"extends: {HOUSE / 'wide-fives-spinner.yaml'}\nplay:\n  several: {{move: chain, most: 2}}\n",
    f"extends: {HOUSE / 'wide-copies-nine.yaml'}\nplay:\n  several: {{move: chain, most: 2}}\n",
])
def test_a_big_set_leaves_moves_of_several_tiles_on_a_spinner_or_two_sets_to_no_one(tmp_path,
                                                                                   text):
    # (they were refused beside a shaped board's; jit_several_arms plays them over words,
    # tests/test_kernel_jit_wide_several.py against the Python engine)
    path = tmp_path / "wide.yaml"
    path.write_text(f"title: t\n{text}examples: []\n", encoding="utf-8")
    game = api.load_game(str(path))
    assert game.tileset.tile_count in (91, 110)
    assert jit_kernel.jit_reason(game, 2, "random", need_numba=False) is None


def test_the_narrow_and_wide_house_kernels_call_the_same_shaped_board_pieces():
    small = jit_kernel.kernel_source(api.load_game("house/one-train"))
    wide = jit_kernel.kernel_source(api.load_game(NAME))
    assert "\nW = 2\n" in wide and "\nW = 2\n" not in small
    for call in ("fits(LSH, LB, p, hands, up, PM, PE, FM,", "jit_several_shaped.chain(",
                 "choose_layout(p, FM, PE, ne, hands, up,", "open_layout(p,",
                 # (and on a line: jit_several's pieces over the same sets)
                 "alone(FITS, FIT_L, FIT_R, hands, up, L, R, PM, CODE, SEVERAL,",
                 "moves(hands, up, L, R, PM, PIPS, TL, TH, CODE, SEVERAL, F,",
                 "pick(kinds[p], p, seed, N, WS, FITS, FIT_L, FIT_R, nm,",
                 # (beyond a plain line: jit_several_arms over the same sets)
                 "jit_several_arms.alone(", "jit_several_arms.moves(",
                 "jit_several_arms.pick("):
        assert call in small and call in wide, call
    assert Path(jit_kernel.__file__).with_name("jit_masks.py").exists()
