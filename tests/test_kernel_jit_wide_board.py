"""Board mechanisms and a turned-up tile on a set over 62 tiles on the JIT: the wide turn.

jit_loop's ``GEN and WIDE`` turn plays, over hands of two words, what its narrow lines
play by the same pieces: doubles that spin on a shaped board (``jit_layout``: the doubles
that spun kept by their number, which a set of any size holds in one int64), placement
restrictions on a shaped board (``jit_layout.allowed`` over ``jit_masks``), events
reading a spinner's four ends and the tiles at them (``jit_events.arm_facts``) or a
shaped board's open ends as lists (``jit_layout.list_facts``), events under a fit rule,
passing at will on a spinner or under a fit rule, and a turned-up tile starting the line
(``know_turn_up`` over the knowledge's words). Each test ruleset
(tests/rulesets/house/wide-*-twelve.yaml, 91 tiles) plays at two players and at its
most, with each builtin bot, the Python engine's results and record text for the same
seeds, and shows its mechanism at work. One compile: the wide house-rule kernel
(``W = 2``) that ``tests/test_kernel_jit_gen_wide.py`` plays as well.
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

HOUSE = Path(__file__).resolve().parent / "rulesets" / "house"
BOTS = ("random", "greedy", "strategist")


def _arms(events: list[dict]) -> bool:   # a tile laid on a double's arm (its toes: 5-5/2)
    return any(e["event"] == "place" and "/" in str(e.get("end")) for e in events)


def _fired(rule: int):   # the event rule of that index scored
    return lambda events: any(e["event"] == "score" and e.get("rule") == rule
                              for e in events)


def _turned_up(events: list[dict]) -> bool:
    return any(e["event"] == "turn_up" for e in events)


# the ruleset, what shows its mechanism played in the records of its matches
CASES = {
    "wide-chicken-foot-twelve": _arms,                # every double grows a foot
    "wide-chicken-foot-ends-twelve": _fired(0),       # count(ends, ...): its ends as a list
    "wide-feet-restricted-twelve": _arms,             # and restrictions read its toes
    "wide-feet-playable-twelve": _arms,               # a restriction reading what fits it
    "wide-trains-restricted-twelve": lambda events: any(
        e["event"] == "place" and str(e.get("end")).startswith("train") for e in events),
    "wide-spinner-ends-twelve": _fired(1),            # "Four ends open": count(ends) == 4
    "wide-matador-fives-twelve": _fired(3),           # "Ends apart": ends after a draw
    "wide-turned-up-twelve": _turned_up,
    "wide-feet-turned-up-twelve": lambda events: _turned_up(events) and _arms(events),
}


@pytest.mark.parametrize("name", CASES)
def test_each_board_mechanism_plays_the_python_engines_matches(name):
    game = api.load_game(str(HOUSE / f"{name}.yaml"))
    assert game.tileset.tile_count == 91
    for players in sorted({2, game.rules.max_players}):
        for bots in BOTS:
            assert jit_kernel.jit_reason(game, players, bots) is None
            seeds = [api.match_seed(11, players), api.match_seed(12, players)]
            events = same_on_both_engines(game, players, seeds, bots)
            assert CASES[name](events), (players, bots)


def test_a_pass_at_will_on_a_spinner_is_the_random_bots_last_option():
    """The uniform pick offers a pass beside every placement on four ends (the general
    loop's ``nfit + pass_ok``): the random bot passes holding tiles that fit."""
    game = api.load_game(str(HOUSE / "wide-spinner-ends-twelve.yaml"))
    events = same_on_both_engines(game, 3, [api.match_seed(4, 3)], "random")
    passed = [e["player"] for e in events if e["event"] == "pass"]
    drew = {e["player"] for e in events if e["event"] == "draw"}
    assert passed and len(passed) > len(drew)   # more passes than a stuck seat's


def test_runs_under_restrictions_on_a_shaped_board_play_as_the_python_engine(tmp_path):
    """A first-turn run's later tiles are asked the restrictions on the board the tiles
    before leave (``jit_several_shaped.chain``, as the loop's ``several.moves``), over
    words: the same records as the Python engine, runs played."""
    path = tmp_path / "runs.yaml"
    path.write_text("title: t\nextends: house/mexican-train\nmatch: {target: 2}\n"
                    "play:\n  restrictions:\n    - {allow: \"tile.pips + end >= 12 or "
                    "boneyard < 20\", explain: heavy first}\n  if_none_allowed: waive\n"
                    "examples: []\n", encoding="utf-8")
    game = api.load_game(str(path))
    assert game.tileset.tile_count == 91
    assert jit_kernel.jit_reason(game, 2, "random") is None
    events = same_on_both_engines(game, 2, [api.match_seed(13, 2), api.match_seed(14, 2)],
                                  "random")
    assert any(e.get("part", (1, 1))[1] >= 2 for e in events)   # a run of two or more
