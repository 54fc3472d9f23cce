"""``--engine auto`` says once when a seat's bot keeps a long run on the Python engine
although the JIT plays the ruleset (issue 21: "where a plug-in bot is used, the Python
engine plays, and --engine auto says so once")."""

from __future__ import annotations

import pytest

from dominorules import api
from dominorules.explore.compare import CompareSettings, engine_notes
from dominorules.explore.worker import Pairing
from dominorules.kernel import engines, jit_kernel

pytestmark = pytest.mark.skipif(not jit_kernel.available(), reason="needs numba (the JIT)")

# the expert's playouts run on the JIT where its continuation kernel plays the ruleset
SAID = ("engine auto: the python engine plays this run's match loop, though the JIT plays the "
        "ruleset: seat 1 plays 'expert{}', whose playouts run on the JIT")
# ... and stay on Python where the expert plays as the strategist (board.layout)
KEPT = ("engine auto: the python engine plays this run, though the JIT plays the ruleset: "
        "seat 1 plays 'expert{}', which only the python engine plays (the JIT kernel plays "
        "random, greedy, strategist)")


def test_auto_names_the_seat_whose_bot_keeps_python():
    game = api.load_game("pagat")
    mixed = ["random", "expert", "random"]
    greedy = ["random", "expert:rollout=greedy", "random"]
    assert engines.bots_keep_python(game, 3, mixed, "auto", 20_000) == SAID.format("")
    assert engines.bots_keep_python(api.load_game("house/all-fives"), 3, mixed, "auto",
                                    20_000) == SAID.format("")   # (house rules' playouts too)
    assert engines.bots_keep_python(game, 3, greedy, "auto", 20_000) == SAID.format(
        ":rollout=greedy")   # (every rollout bot's playouts: jit_continuation)
    assert engines.bots_keep_python(game, 3, "random", "auto", 20_000) is None  # the JIT plays
    # the expert's playouts run on the JIT however short the run; a plug-in's is too short
    assert engines.bots_keep_python(game, 3, mixed, "auto", 100) == SAID.format("")
    assert engines.bots_keep_python(game, 3, greedy, "auto", 100) == SAID.format(
        ":rollout=greedy")
    assert engines.bots_keep_python(game, 3, ["random", "my.bot", "random"], "auto",
                                    100) is None
    assert engines.bots_keep_python(game, 3, mixed, "python", 20_000) is None   # as asked
    # the JIT plays runs of several tiles on trains on a double-twelve set too, so the
    # expert seat is named there as well: it plays as the strategist there (no playouts)
    assert engines.bots_keep_python(api.load_game("house/mexican-train"), 3, mixed, "auto",
                                    20_000) == KEPT.format("")


def test_compare_says_it_once_in_its_notes():
    settings = CompareSettings(("pagat", "dutch"), 3, 20_000, bots=("random", "expert", "random"))
    main = Pairing("main", ("pagat", "dutch"), 3, ("random", "expert", "random"))
    assert engine_notes(main, settings) == [SAID.format("")]
    assert engine_notes(Pairing("main", ("pagat", "dutch"), 3, ("random",) * 3), settings) == []
