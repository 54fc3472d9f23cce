"""The JIT's records of shaped boards (``board.layout``: ``kernel/jit_record.at_item``,
``kernel/jit_trace.RecordText``): byte for byte the Python engine's.

Each layout builtin at its fewest, 4 and most players (tests/player_counts.py), with the
random, greedy and strategist bots and a mixed table: the JIT writes the Python engine's
lines (a placement naming its end: ``right`` on a one-end line, ``9-9/5`` on a chicken
foot's toe, ``6-6/2`` on sebastopol's arms) and ``MatchResult``; a ``simulate --trace``
file from the JIT is the Python engine's and ``verify`` (``--strict`` too) accepts it. A
board of trains (seats' own, a shared one, markers, doubles answered) is recorded the
same. The kernel is the house rules' shared one ``test_kernel_jit_layout`` compiles
(records are a run-time switch).
"""

from __future__ import annotations

import pytest
from jit_record_checks import same_trace_files
from player_counts import played_counts

from dominorules import api
from dominorules.kernel import engines
from dominorules.record_lines import encode_events
from dominorules.records import check_file_strict

pytest.importorskip("numba")

from dominorules.kernel import jit_kernel, jit_trace  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

LAYOUTS = ("house/one-train", "house/sebastopol", "house/every-double-spins",
           "house/chicken-foot", "house/chicken-foot-tap")
BOTS = ("random", "greedy", "strategist")
# a board of trains (no builtin plays one without moves of several tiles): the 9-9 is
# the station, each seat's train and the shared one grow from it
TRAINS = ("title: Trains\ndescription: a test\nsource: a test\nextends: pagat\n"
          "set:\n  max_pip: 9\nplayers:\n  min: 2\n  max: 6\n"
          "lead:\n  first: highest_double\n"
          "board:\n  layout:\n    trains: true\n    shared_train: mexican\n"
          "    markers: true\n    answer_doubles: true\n")


def _counts():
    for name in LAYOUTS:
        for players in played_counts(api.load_game(name)):   # (tests/player_counts.py)
            yield name, players


def _written(game) -> None:
    """The JIT writes this ruleset's records; declarations (chicken-foot-tap's tap) are
    another mechanism's lines, not yet written by the JIT: skipped until they are."""
    why = jit_trace.reason(game)
    if why is not None and "declarations" in why:
        pytest.skip(why)
    assert why is None


def _same_records(game, players: int, seeds: list[int], bots) -> list:
    got = engines.jit_results(game, players, seeds, bots, trace=True)
    for seed, match in zip(seeds, got, strict=True):
        want = api.play_match(game, players, seed, bots, trace=True)
        assert encode_events(match.events) == encode_events(want.events), (bots, seed)
        assert match == want, (bots, seed)
    return got


@pytest.mark.parametrize(("name", "players"), list(_counts()))
def test_the_jits_record_of_a_shaped_board_is_the_python_engines_byte_for_byte(name, players):
    game = api.load_game(name)
    _written(game)
    # (a chicken foot match is ten rounds: one is enough)
    seeds = [api.match_seed(17, i) for i in range(1 if game.rules.match_end == "rounds" else 2)]
    mixed = [BOTS[s % 3] for s in range(players)]
    named = set()
    for bots in (*BOTS, mixed):
        assert engines.jit_reason(game, players, bots, trace=True) is None
        for match in _same_records(game, players, seeds, bots):
            named |= {e["end"] for e in match.events if e["event"] == "place"}
    # the ends by their layout's names (the opening tile's end: null)
    shape = game.rules.layout
    if shape.ends == 1:
        assert named == {None, "right"}
    elif shape.through:
        assert {None, "left", "right"} <= named
        assert any(n is not None and "/" in n for n in named)
    else:   # every placement on a spinner's arm
        assert None in named and all(n is None or "/" in n for n in named) and len(named) > 4


def test_a_board_of_trains_is_recorded_as_the_python_engine_does(tmp_path):
    path = tmp_path / "trains.yaml"
    path.write_text(TRAINS, encoding="utf-8")
    game = api.load_game(str(path))
    assert jit_trace.reason(game) is None
    seeds = [api.match_seed(5, i) for i in range(2)]
    for players in (2, 4):
        named = set()
        for bots in (*BOTS, ["greedy", "random", "strategist", "random"][:players]):
            assert engines.jit_reason(game, players, bots, trace=True) is None
            for match in _same_records(game, players, seeds, bots):
                named |= {e["end"] for e in match.events if e["event"] == "place"}
        assert named >= {None, "mexican", *(f"train {s}" for s in range(players))}


@pytest.mark.parametrize(("name", "players", "bots"), [
    ("house/chicken-foot", 3, "strategist"), ("house/sebastopol", 4, "greedy"),
    ("house/one-train", 2, "random"), ("house/every-double-spins", 4, "greedy")])
def test_simulate_trace_on_the_jit_writes_the_python_engines_file_and_verify_accepts_it(
        tmp_path, name, players, bots):
    game = api.load_game(name)
    jit = same_trace_files(tmp_path, game, players, 3, 5, bots)
    assert check_file_strict(str(jit)) == []


def test_auto_takes_the_jit_for_a_shaped_boards_records():
    for name in LAYOUTS[:4]:
        game = api.load_game(name)
        assert engines.choose(game, 4, "random", "auto", trace=True,
                              matches=50_000) == "jit", name
