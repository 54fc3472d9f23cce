"""The other kinds of move of several tiles on the JIT's line (``jit_several``:
``after_double``, a double then another tile, going on after each double; ``whole_hand``,
the whole hand shown and laid down at once).

Each search answers as the general loop's (``GeneralLoop._several`` over
``engine.mechanisms.several``) on random positions: the same moves in the same order
(the whole hand: the first order found). Then the GEN kernel plays both kinds at every
player count with every builtin bot: the same results and the same record text as the
Python engine (each tile of a move a ``place`` line with its ``part``). The kernel is the
one GEN kernel every house ruleset shares.
"""

from __future__ import annotations

import random

import pytest
from jit_record_checks import on_every_bot_table
from several_checks import line_moves_are_the_loops

from dominorules import api

pytest.importorskip("numba")

from dominorules.kernel import jit_kernel  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

RULESETS = {
    "after-double": "  several:\n    move: after_double\n    most: 3\n"
                    "    tiles: \"first_turn or tile.pips + end != 7\"\n",
    "whole-hand": "  several:\n    move: whole_hand\n"
                  "    tiles: \"tile.pips >= 2 or boneyard < 8\"\n",
}


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kinds")
    out = {}
    for name, several in RULESETS.items():
        path = folder / f"{name}.yaml"
        path.write_text(f"title: {name}\ndescription: a test\nsource: a test\nextends: pagat\n"
                        f"play:\n{several}", encoding="utf-8")
        out[name] = api.load_game(str(path))
    return out


@pytest.mark.parametrize("name", list(RULESETS))
def test_the_moves_are_the_general_loops(games, name):
    found, depth = line_moves_are_the_loops(games[name], random.Random(name), 400, 7)
    assert found > 20 and depth >= 3   # moves found, of three tiles and more


CASES = [(name, n) for name in RULESETS for n in (2, 3, 4)]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_kernel_plays_and_records_them_as_the_python_engine(games, name, players):
    from dominorules.kernel import jit_trace

    game = games[name]
    assert jit_trace.reason(game) is None
    seeds = [api.match_seed(41, i) for i in range(2)]
    events = on_every_bot_table(game, players, seeds, trace=True)
    parts = {e["part"][1] for e in events if "part" in e}
    assert parts and min(parts) >= 2   # moves of several tiles were played and written
