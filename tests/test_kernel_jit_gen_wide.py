"""House rules on sets over 62 tiles on the JIT (``jit_loop``'s ``GEN`` and ``WIDE`` lines
together, ``kernel/jit_gen_wide.py``): the Python engine's matches and records.

house/matador-twelve (a fit rule with wild tiles) and five double-twelve test rulesets
(tests/rulesets/house/wide-*.yaml: fives events played to the right with the winner
leading; a spinner with extra turns, skips and draw events; a placement restriction with
if_none_allowed: pass; a duty to answer a double; a double to open, drawn for) at every
player count they allow, and hidden rows and two sets at 2 players and 8, with
each builtin bot and a mixed table: the JIT's results and record text equal the Python
engine's for the same seeds. Every one is a double-twelve set, two words a hand (two
sets: two double-nine ones, 110 tiles, two words still), and the player count and bots
are run-time values, so the file costs one compile (the GEN lines' kernel with ``W = 2``).
What stays refused on a big set is named, mechanism by mechanism.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dominorules import api

pytest.importorskip("numba")

from jit_record_checks import (  # noqa: E402
    on_every_bot_table,
    same_on_both_engines,
    same_results,
    same_summary,
)

from dominorules.kernel import jit_kernel  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

HOUSE = Path(__file__).resolve().parent / "rulesets" / "house"
RULESETS = ["house/matador-twelve", *(str(HOUSE / f"wide-{n}.yaml") for n in (
    "fives-twelve", "fives-spinner", "restricted-twelve", "answer-twelve",
    "doubles-open-twelve"))]
BOTS = ("random", "greedy", "strategist")


def _cases():
    for name in RULESETS:
        game = api.load_game(name)
        for players in range(game.rules.min_players, game.rules.max_players + 1):
            yield pytest.param(name, players, id=f"{Path(name).stem}-{players}")


@pytest.mark.parametrize(("name", "players"), list(_cases()))
def test_house_rules_on_a_double_twelve_set_play_the_python_engines_matches(name, players):
    game = api.load_game(name)
    assert game.tileset.tile_count == 91
    seeds = [api.match_seed(17, i) for i in range(2)]
    mixed = (["strategist", "random", "greedy"] * 3)[:players]
    for bots in (*BOTS, mixed):
        assert jit_kernel.jit_reason(game, players, bots) is None
        same_on_both_engines(game, players, seeds, bots)   # records and results


def test_unrecorded_matches_and_simulate_agree_too():
    game = api.load_game("house/matador-twelve")
    seeds = [api.match_seed(5, i) for i in range(12)]
    same_results(game, 3, seeds, BOTS)
    same_summary(game, 2, 60, 7, "greedy")


def _wide(tmp_path: Path, base: str) -> str:
    path = tmp_path / "wide.yaml"
    path.write_text(f"extends: {base}\nset: {{max_pip: 12}}\n"
                    "deal: {hand_size: \"min(12, (tile_count - 19) // players)\"}\n")
    return str(path)


@pytest.mark.parametrize(("base", "deal", "players"), [
    ("house/side-out", "{hand_size: \"min(12, (tile_count - 19) // players)\"}", 4),
    ("house/leftover-to-leader", "{hand_size: \"tile_count // players\"}", 3),
])
def test_a_side_out_and_the_tiles_left_over_play_on_a_big_set(tmp_path, base, deal, players):
    """Play until a side is out (a seat out passed over, its partner playing on) and the
    tiles the hands leave dealt to the leader (30 tiles each, the 91st the leader's), over
    words: the Python engine's matches and records."""
    path = tmp_path / "wide.yaml"
    path.write_text(f"extends: {base}\nset: {{max_pip: 12}}\ndeal: {deal}\nexamples: []\n",
                    encoding="utf-8")
    game = api.load_game(str(path))
    assert game.tileset.tile_count == 91
    seeds = [api.match_seed(11, i) for i in range(2)]
    events = []
    for bots in (*BOTS, ["strategist", "random", "greedy", "random"][:players]):
        assert jit_kernel.jit_reason(game, players, bots) is None
        events += same_on_both_engines(game, players, seeds, bots)
    if base == "house/side-out":
        assert any(e["event"] == "out" for e in events)
    else:
        deals = [e for e in events if e["event"] == "deal"]
        assert deals and all(sorted(len(h) for h in e["hands"]) == [30, 30, 31] for e in deals)
        assert all(len(e["hands"][e["leader"]]) == 31 for e in deals)


@pytest.mark.parametrize("players", [2, 8])
def test_hidden_rows_play_on_a_big_set(players):
    """deal.blind over words (wide-blind-twelve): only a row's front tile goes down
    (jit_blind), a pass shows it and puts it at the back, the strategist weighs the ends
    by the rows' shown tiles (jit_strategist_blind over words), as the Python engine plays."""
    game = api.load_game(str(HOUSE / "wide-blind-twelve.yaml"))
    assert game.tileset.tile_count == 91
    events = on_every_bot_table(game, players, [api.match_seed(19, i) for i in range(2)])
    assert sum(e["event"] == "pass" and e.get("tile") is not None for e in events) > 20


@pytest.mark.parametrize("players", [2, 8])
def test_two_sets_play_on_a_big_set(players):
    """set.copies over words (wide-copies-nine: two double-nine sets, 110 tiles, still two
    words a hand, so the same kernel): a tile held twice is one move at the opening and at
    each end (jit_copies.canonical_at), the strategist over every end, as the Python
    engine plays."""
    game = api.load_game(str(HOUSE / "wide-copies-nine.yaml"))
    assert game.tileset.tile_count == 110
    events = on_every_bot_table(game, players, [api.match_seed(21, i) for i in range(2)])
    twice = [h for e in events if e["event"] == "deal" for h in e["hands"]
             if len(set(map(tuple, h))) < len(h)]
    assert len(twice) > 3   # hands holding both copies of a tile


def test_events_making_the_next_player_draw_play_on_a_big_set(tmp_path):
    """events.next_draws over words (jit_events.pay_draws into a hand of words): the
    drawer's tiles and the strategist's reading of them, as the Python engine plays."""
    game = api.load_game(_wide(tmp_path, str(HOUSE / "next-draws.yaml")))
    seeds = [api.match_seed(13, i) for i in range(2)]
    events = []
    for players, bots in ((2, "strategist"), (3, ["strategist", "random", "greedy"]),
                          (4, "random")):
        assert jit_kernel.jit_reason(game, players, bots) is None
        events += same_on_both_engines(game, players, seeds, bots)
    assert sum(e["event"] == "draw" and "rule" in e for e in events) > 10


def test_only_a_big_sets_house_kernel_has_the_wide_lines():
    small = jit_kernel.kernel_source(api.load_game("house/all-fives"))
    wide = jit_kernel.kernel_source(api.load_game("house/matador-twelve"))
    assert "jit_gen_wide" not in small and "jit_bits" not in small
    assert "jit_gen_wide" in wide and "\nW = 2\n" in wide
    assert jit_kernel.kernel_source(api.load_game(RULESETS[1])) == wide   # one kernel
