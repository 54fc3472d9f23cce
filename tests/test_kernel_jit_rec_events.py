"""The JIT's records of events that set variables and lay duties, of events reading the
table, of a match won mid-round and of players going out (``kernel/jit_record.py``'s
items from ``K_SET``, ``kernel/jit_trace.py``): byte for byte the Python engine's.

Each of those builtin rulesets, at its fewest and most players, with the random, greedy
and strategist bots, writes the same text on both engines, each round within the log's
bound, and ``verify`` accepts the JIT's file; the lines they add are there (a ``set``, a
``duty``, ``duty_met``, ``duty_failed`` and its ``score`` and ``draw``, an ``out``, a
``round_end`` stopped at the target). A duty never met, failing every turn, keeps its
rounds within the bound too. The kernels are ``test_kernel_jit_house.py``'s: this file
compiles none of its own (records are a run-time switch).
"""

from __future__ import annotations

import pytest
from jit_record_checks import (
    BOTS,
    on_every_bot_table,
    player_counts,
    round_lines,
    same_on_both_engines,
    same_trace_files,
)

from dominorules import api
from dominorules.kernel import engines

pytest.importorskip("numba")

from dominorules.kernel import jit_kernel, jit_record, jit_trace  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

RULESETS = ("house/answer-the-double", "house/cover-the-double",
            "house/headers-raise-stake", "house/bergen-headers", "house/bergen-near-game",
            "house/muggins-wins-in-play", "house/side-out")


def _counts(game) -> list[int]:
    """The fewest and the most players the ruleset takes, of 2 to 4."""
    takes = player_counts(game)
    return sorted({takes[0], takes[-1]})


CASES = [(name, n) for name in RULESETS for n in _counts(api.load_game(name))]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_jit_records_these_rulesets_byte_for_byte(name, players):
    game = api.load_game(name)
    assert jit_trace.reason(game) is None
    assert engines.choose(game, players, "random", "jit", trace=True) == "jit"
    seeds = [api.match_seed(17, i) for i in range(3)]
    on_every_bot_table(game, players, seeds, trace=True)


def _kinds(events: list[dict]) -> set[str]:
    """Each line's kind: its event, a draw a rule made as ``draw/rule``, a round's end
    with its result."""
    out = set()
    for e in events:
        kind = e["event"]
        if kind == "draw" and "rule" in e:
            kind = "draw/rule"
        elif kind == "round_end":
            kind = f"round_end/{e['result']}"
        out.add(kind)
    return out


def test_their_lines_are_written_on_the_jit():
    seen = {}
    for name, players in (("house/answer-the-double", 3), ("house/cover-the-double", 2),
                          ("house/headers-raise-stake", 2), ("house/bergen-headers", 2),
                          ("house/muggins-wins-in-play", 2), ("house/side-out", 4)):
        seeds = [api.match_seed(5, i) for i in range(4)]
        seen[name] = _kinds(same_on_both_engines(api.load_game(name), players, seeds, "random"))
    assert {"duty", "duty_met", "duty_failed", "draw/rule"} <= seen["house/answer-the-double"]
    assert {"duty", "duty_met", "duty_failed", "draw/rule"} <= seen["house/cover-the-double"]
    assert "set" in seen["house/headers-raise-stake"]
    assert "score" in seen["house/bergen-headers"]
    assert {"score", "round_end/target"} <= seen["house/muggins-wins-in-play"]
    assert "out" in seen["house/side-out"]


RULES = """title: Test
extends: house/block
variables:
  doubles: {initial: 0, after_round: "doubles"}
events:
  - title: A double scores, is counted and must be answered by the others
    after: place
    if: "tile.is_double"
    points: 1
    set: {doubles: "doubles + 1"}
    duty:
      on: others
      met: "MET"
      fail_points: 1
      fail_draws: 1
      lasts: until_met
match:
  target: 50
"""


@pytest.mark.parametrize(("met", "players"), [("tile.high == duty_tile.high", 3),
                                              ("tile.low == 6", 2), ("tile.low == 6", 4)])
def test_a_duty_failing_with_points_and_draws_is_recorded_within_the_bound(
        tmp_path, met, players):
    """A rule scoring, setting a variable and laying a duty at once (their lines in the
    general loop's order), its failures scoring and drawing a tile; a duty met by the
    [6|6] alone fails at nearly every turn of its bearers till the round ends, the most
    lines a round of duties writes: within the log's bound."""
    path = tmp_path / "duty.yaml"
    path.write_text(RULES.replace("MET", met))
    game = api.load_game(str(path))
    assert jit_trace.reason(game) is None
    seeds = [api.match_seed(3, i) for i in range(3 if players < 4 else 6)]
    events = []
    for bots in BOTS:
        events += same_on_both_engines(game, players, seeds, bots)
    assert {"score", "set", "duty", "duty_failed", "draw/rule"} <= _kinds(events)
    fails = [e for e in events if e["event"] == "duty_failed"]
    assert any(e["next"] is not None for e in fails)
    # a failure's score line follows its duty_failed line: the bearer's side scores 1
    assert any(e["event"] == "duty_failed" and after["event"] == "score"
               and after["player"] == e["player"] and after["points"] == 1
               for e, after in zip(events, events[1:], strict=False))
    if "6" in met:   # duties pass on, failing turn after turn
        count = [e["event"] for e in events].count
        assert count("duty_failed") > 5 * count("duty")
    if players == 4:   # a round the log would overflow without the duties' bound
        without = jit_record.log_bound(4, 28) + jit_record.event_bound(
            4, 28, {"place": 1 + 1 + 3})   # a score, a set, three duties a placement
        assert max(round_lines(events)) > without


def test_simulate_trace_on_the_jit_writes_the_python_engines_file_and_verify_accepts_it(
        tmp_path):
    for ref, players, bots in (("house/cover-the-double", 3, "greedy"),
                               ("house/headers-raise-stake", 2, "strategist"),
                               ("house/muggins-wins-in-play", 2, "random"),
                               ("house/side-out", 4, "random")):
        game = api.load_game(ref)
        same_trace_files(tmp_path, game, players, 8, 3, bots)
