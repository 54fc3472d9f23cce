"""The JIT's records of the deal's house rules and of big sets (``kernel/jit_trace.py``,
``kernel/jit_record.py``): byte for byte the Python engine's.

A blind deal (each hand its row, a pass showing the front tile), a tile turned up from the
stock, the tiles left over in the leader's hand, two sets shuffled together (a tile's
name twice) and sets over 62 tiles (a hand logged as its words: ``deal_item_words``), each
at its fewest and most players with the random, greedy and strategist bots and a mixed
table: the JIT writes the Python engine's lines and ``MatchResult``; a ``simulate --trace``
file from the JIT is the Python engine's and ``verify`` (``--strict`` too) accepts it; an
untraced ``simulate`` gives the same summary; the rules combined (a tile turned up with draws,
events or hidden rows, the tiles left over to the seat before the leader, to the right)
are recorded the same too. The kernels are those ``test_kernel_jit_deal``
and ``test_kernel_jit_wide`` compile (records are a run-time switch).
"""

from __future__ import annotations

import pytest
from jit_record_checks import same_trace_files

from dominorules import api
from dominorules.kernel import engines
from dominorules.record_lines import encode_events
from dominorules.records import check_file_strict

pytest.importorskip("numba")

from dominorules.kernel import jit_kernel, jit_trace  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

# each ruleset at its fewest and most players (and the count that leaves a stock to turn
# up or a tile left over: three)
CASES = {"house/blind-hughie": (2, 3, 4), "house/turned-up-starter": (2, 3, 4),
         "house/leftover-to-leader": (2, 3, 4), "house/two-sets": (2, 8),
         "house/double-twelve": (2, 8), "house/double-fifteen": (2, 8),
         "house/double-eighteen": (2, 8)}
BOTS = ("random", "greedy", "strategist")


def _tables(players: int, game=None) -> list:
    """Every bot alone and a mixed table (the strategist's own policies on hidden rows and
    two sets: jit_strategist_blind, jit_strategist_arms)."""
    if game is not None:
        assert jit_kernel.jit_reason(game, players, "strategist") is None
    return [*BOTS, [BOTS[s % len(BOTS)] for s in range(players)]]


@pytest.mark.parametrize(("name", "players"),
                         [(n, p) for n, counts in CASES.items() for p in counts])
def test_the_jits_record_is_the_python_engines_byte_for_byte(name, players):
    game = api.load_game(name)
    assert jit_trace.reason(game) is None
    bound = jit_kernel.kernel(game, players).record_text.log_round
    seeds = [api.match_seed(17, i) for i in range(2)]
    for bots in _tables(players, game):
        assert engines.jit_reason(game, players, bots, trace=True) is None
        got = engines.jit_results(game, players, seeds, bots, trace=True)
        for seed, match in zip(seeds, got, strict=True):
            want = api.play_match(game, players, seed, bots, trace=True)
            assert encode_events(match.events) == encode_events(want.events), (bots, seed)
            assert match == want, (bots, seed)
            counts = [0]
            for e in match.events:   # each deal and its round within the log's bound
                if e["event"] == "deal":
                    counts.append(0)
                counts[-1] += 1
            assert max(counts) <= bound


def _events(name: str, players: int, matches: int = 3) -> list[dict]:
    game = api.load_game(name)
    seeds = [api.match_seed(3, i) for i in range(matches)]
    return [e for m in engines.jit_results(game, players, seeds, "random", trace=True)
            for e in m.events]


def test_the_lines_these_rules_add_are_written_by_the_jit():
    """What each rule puts in the record, seen in the JIT's: the turned-up tile, a pass
    showing a row's front tile, a leftover hand with no boneyard, a tile twice, a tile past
    the 62nd in a hand."""
    up = _events("house/turned-up-starter", 3)
    deals = [i for i, e in enumerate(up) if e["event"] == "deal"]
    assert all(up[i + 1]["event"] == "turn_up" for i in deals)
    assert up[deals[0] + 1]["tile"] == up[deals[0]]["boneyard"][0]
    blind = _events("house/blind-hughie", 2)
    shown = [e for e in blind if e["event"] == "pass"]
    assert shown and all(len(e["tile"]) == 2 for e in shown)
    left = [e for e in _events("house/leftover-to-leader", 3) if e["event"] == "deal"]
    assert all(e["boneyard"] == [] and sorted(map(len, e["hands"])) == [9, 9, 10]
               for e in left)
    twice = [e for e in _events("house/two-sets", 2) if e["event"] == "deal"]
    assert any(len({tuple(t) for h in e["hands"] for t in h})
               < sum(map(len, e["hands"])) for e in twice)
    wide = [e for e in _events("house/double-eighteen", 8, 1) if e["event"] == "deal"]
    assert any(t[1] > 10 for e in wide for h in e["hands"] for t in h)   # index past 62
    assert sum(map(len, wide[0]["hands"])) + len(wide[0]["boneyard"]) == 190


@pytest.mark.parametrize(("name", "players", "bots"), [
    ("house/blind-hughie", 3, "greedy"), ("house/turned-up-starter", 3, "greedy"),
    ("house/leftover-to-leader", 3, "random"), ("house/two-sets", 5, "greedy"),
    ("house/double-twelve", 2, "strategist")])
def test_simulate_trace_on_the_jit_writes_the_python_engines_file_and_verify_accepts_it(
        tmp_path, name, players, bots):
    game = api.load_game(name)
    jit = same_trace_files(tmp_path, game, players, 6, 5, bots)
    assert check_file_strict(str(jit)) == []


@pytest.mark.parametrize("name", list(CASES))
def test_untraced_simulate_is_the_python_engines(name):
    game = api.load_game(name)
    players = CASES[name][-1]
    a = api.simulate(game, players, 12, 9, "greedy", engine="jit")
    b = api.simulate(game, players, 12, 9, "greedy", engine="python")
    assert (a.pop("engine"), b.pop("engine")) == ("jit", "python")
    assert a == b


def test_auto_takes_the_jit_for_these_records():
    for name in CASES:
        game = api.load_game(name)
        assert engines.choose(game, 2, "random", "auto", trace=True,
                              matches=50_000) == "jit", name


# the same rules combined (as tests/test_kernel_jit_deal.py plays them): a turned-up tile
# with draws, with events, to the right; the tiles left over to the seat before the
# leader; two sets to the right; hidden rows with a tile turned up, and to the right
COMBINED = {
    "up-draw": "extends: pagat\ndeal:\n  turn_up: true\n",
    "up-events": "extends: house/all-fives\ndeal:\n  turn_up: true\n",
    "up-right": "extends: house/turned-up-starter\nplay:\n  direction: right\n",
    "left-before": ("extends: house/leftover-to-leader\ndeal:\n  leftover: before_leader\n"
                    "play:\n  direction: right\n"),
    "copies-right": "extends: house/two-sets\nplay:\n  direction: right\n",
    "blind-up": ("extends: house/blind-hughie\nplayers:\n  min: 3\n  max: 3\n"
                 "deal:\n  hand_size: 9\n  turn_up: true\n"),
    "blind-right": "extends: house/blind-hughie\nplay:\n  direction: right\n",
}


@pytest.mark.parametrize("name", list(COMBINED))
def test_the_rules_combined_are_recorded_as_the_python_engine_does(tmp_path, name):
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"title: {name}\ndescription: a test\nsource: a test\n{COMBINED[name]}",
                    encoding="utf-8")
    game = api.load_game(str(path))
    seeds = [api.match_seed(23, i) for i in range(3)]
    mixed = ["greedy", "random", "strategist"]
    if jit_kernel.jit_reason(game, 3, "strategist") is not None:   # (its own policy there)
        mixed = ["greedy", "random", "greedy"]
    for bots in ("random", mixed):
        got = engines.jit_results(game, 3, seeds, bots, trace=True)
        for seed, match in zip(seeds, got, strict=True):
            want = api.play_match(game, 3, seed, bots, trace=True)
            assert encode_events(match.events) == encode_events(want.events), (bots, seed)
