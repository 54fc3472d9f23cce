"""Moves of several tiles beyond a plain line on a set over 62 tiles, on the JIT: the wide
turn asks ``jit_several_arms`` (its sets ``jit_masks``': rows of words here, the same
source as the narrow kernel's masks) on a spinner's four ends, under a fit rule, under
placement restrictions and with two sets shuffled together.

Four test rulesets (tests/rulesets/house/): wide-several-spinner-twelve, up to three
tiles one on each of a double-twelve spinner's ends, the arms too; wide-several-matador-
twelve, runs under Matador's sevens of thirteen, a wild tile's two ways and a part naming
the half that meets its end; wide-several-restricted-twelve, doubles and the tile after
under restrictions reading the hand and the playable tiles; wide-several-two-sets-twelve,
pairs from two double-twelve sets (182 tiles, three words a set), a move by the other
copies offered once. Each at 2 players and at the most, with each builtin bot and a mixed
table: the Python engine's matches and records, byte for byte. No whole_hand here: a draw
game lets a hand grow past twenty tiles and the Python engine lists every order of it
(``tests/test_kernel_jit_several_arms.py`` holds that search to the loop's on words).
Two compiles: the wide GEN kernel of two words a set and the one of three.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from jit_record_checks import need_jit, on_every_bot_table

from dominorules import api

HOUSE = Path(__file__).resolve().parent / "rulesets" / "house"
RULESETS = ["spinner", "matador", "restricted", "two-sets"]


@pytest.mark.parametrize("players", [2, 8])
@pytest.mark.parametrize("name", RULESETS)
def test_moves_of_several_tiles_beyond_a_line_on_a_big_set_play_the_python_engines_matches(
        name, players):
    need_jit()
    game = api.load_game(str(HOUSE / f"wide-several-{name}-twelve.yaml"))
    assert game.tileset.tile_count == (182 if name == "two-sets" else 91)
    assert game.rules.max_players == 8
    events = on_every_bot_table(game, players, [api.match_seed(47, 0)], trace=True)
    parts = [e for e in events if "part" in e]
    assert parts and max(e["part"][1] for e in parts) >= 2   # moves were played and written
    if name == "spinner" and players == 2:   # on the arms too, three tiles at once
        assert {e["end"] for e in parts} == {"left", "right", "up", "down"}
        assert max(e["part"][1] for e in parts) == 3
    if name == "matador":   # a part naming the half that meets its end
        assert any("meets" in e for e in parts)
