"""The JIT's records of moves of several tiles, declarations and the showdown
(``kernel/jit_record.py``'s items from ``K_PART``, ``kernel/jit_trace.py``): byte for byte
the Python engine's.

Each builtin ruleset using them, at every player count it takes, with the random, greedy
and strategist bots (and a table of all three), writes the same text on both engines,
each round within the log's bound, and ``verify`` accepts the JIT's file; the lines they
add are there (a ``place`` with its ``part``, a ``declare``, a ``claim``, a ``penalty``).
The kernel is the house rules' (``test_kernel_jit_house.py``'s): this file compiles none of
its own (records are a run-time switch).
"""

from __future__ import annotations

import pytest
from jit_record_checks import (
    on_every_bot_table,
    player_counts,
    same_on_both_engines,
    same_trace_files,
)

from dominorules import api
from dominorules.kernel import engines

pytest.importorskip("numba")

from dominorules.kernel import jit_kernel, jit_trace  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

RULESETS = ("house/double-draw", "house/doubles-together", "house/muggins-called",
            "house/partner-sets", "house/passed-and-could-play")


CASES = [(name, n) for name in RULESETS for n in player_counts(api.load_game(name))]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_jit_records_these_rulesets_byte_for_byte(name, players):
    game = api.load_game(name)
    assert jit_trace.reason(game) is None
    assert engines.choose(game, players, "random", "jit", trace=True) == "jit"
    seeds = [api.match_seed(23, i) for i in range(2)]
    on_every_bot_table(game, players, seeds, trace=True)


def _kinds(events: list[dict]) -> set[str]:
    """Each line's kind: its event, a placement of a move's part as ``place/part``."""
    return {e["event"] + ("/part" if "part" in e else "") for e in events}


def test_their_lines_are_written_on_the_jit():
    seen = {}
    for name, players in (("house/double-draw", 2), ("house/doubles-together", 3),
                          ("house/muggins-called", 2), ("house/partner-sets", 4),
                          ("house/passed-and-could-play", 2)):
        seeds = [api.match_seed(5, i) for i in range(3)]
        seen[name] = _kinds(same_on_both_engines(api.load_game(name), players, seeds, "random"))
    assert {"place/part", "turn_up"} <= seen["house/double-draw"]
    assert "place/part" in seen["house/doubles-together"]
    assert "claim" in seen["house/muggins-called"]
    assert "declare" in seen["house/partner-sets"]
    assert "penalty" in seen["house/passed-and-could-play"]


def test_simulate_trace_on_the_jit_writes_the_python_engines_file_and_verify_accepts_it(
        tmp_path):
    for ref, players, bots in (("house/double-draw", 3, "strategist"),
                               ("house/muggins-called", 2, "greedy"),
                               ("house/partner-sets", 4, "random"),
                               ("house/passed-and-could-play", 3, "random")):
        game = api.load_game(ref)
        same_trace_files(tmp_path, game, players, 6, 3, bots)
