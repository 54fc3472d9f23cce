"""The JIT on settlement formulas reading the board as the round left it (``ends``,
``end_total``, ``both_ends``: ``jit_loop``'s ``SETTLE_BOARD`` switch, which writes the
board's facts as its events read them and keeps the last placement's ``both_ends``):
byte for byte the Python engine's records.

The two strict rulesets the JIT once refused for them (``every_side`` reading
``both_ends`` with partners; a domino formula reading ``end_total`` and ``both_ends`` on
a spinner), at every player count they take, and one test ruleset for each other board
(a line under a fit rule, a spinner's ends as a list of two or four, a shaped board, a
set of 91 tiles), at their fewest and most players: each builtin bot at every seat, then
the three in turn, the same records and results on both engines.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from jit_record_checks import on_every_bot_table
from player_counts import played_counts

from dominorules import api

pytest.importorskip("numba")

from dominorules.kernel import jit_house, jit_kernel  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

RULESETS = Path(__file__).parent / "rulesets"
STRICT = ("partners-as-blocked", "right-spinner")
BOARDS = ("settle-board-fit", "settle-board-spinner", "settle-board-shaped",
          "wide-settle-board-twelve")


def _strict():
    """The strict rulesets at every player count they take."""
    for name in STRICT:
        game = api.load_game(str(RULESETS / "strict" / f"{name}.yaml"))
        for players in range(game.rules.min_players, game.rules.max_players + 1):
            yield pytest.param(f"strict/{name}", players, id=f"{name}-{players}")


def _boards():
    """The test rulesets of the other boards at their fewest and most players."""
    for name in BOARDS:
        counts = played_counts(api.load_game(str(RULESETS / "house" / f"{name}.yaml")))
        for players in sorted({counts[0], counts[-1]}):
            yield pytest.param(f"house/{name}", players, id=f"{name}-{players}")


def _same_records(name: str, players: int) -> None:
    game = api.load_game(str(RULESETS / f"{name}.yaml"))
    assert jit_house.settle_reads_board(game.rules)
    on_every_bot_table(game, players, [api.match_seed(21, i) for i in range(4)], trace=True)


@pytest.mark.parametrize(("name", "players"), list(_strict()))
def test_the_rulesets_once_refused_give_the_python_engines_records(name, players):
    _same_records(name, players)


@pytest.mark.parametrize(("name", "players"), list(_boards()))
def test_a_settlement_reading_each_board_gives_the_python_engines_records(name, players):
    _same_records(name, players)
