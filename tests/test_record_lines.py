"""Records encoded fast are the very bytes ``json.dumps`` writes, with or without orjson."""

from __future__ import annotations

import json

import pytest

from dominorules import api, record_lines
from dominorules.record_lines import dumps, encode_events, encode_standard

# rulesets whose records hold every kind of event: redeals (deal with leader null),
# seeking the opening tile, score / extra_turn / skip events, a spinner's up and down
# ends, partnerships, a file's source path
CASES = [("pagat", 3, "random"), ("mexican", 4, "strategist,random,greedy,random"),
         ("dutch", 2, "greedy"), ("house/all-fives", 2, "strategist"),
         ("house/doubles-play-again", 3, "random"), ("house/double-blank-skips", 4, "random"),
         ("house/spinner", 2, "strategist"), ("house/four-doubles-redeal", 4, "greedy"),
         ("house/first-round-highest-double", 3, "random")]


def reference(events) -> str:
    """The format as documented: one ``json.dumps(e, separators=(",", ":"))`` a line."""
    return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)


def records(ruleset, players, bots, seeds=range(4)):
    game = api.load_game(ruleset)
    names = bots.split(",")
    return [api.play_match(game, players, seed, names if len(names) > 1 else bots,
                           trace=True).events for seed in seeds]


@pytest.mark.parametrize("ruleset,players,bots", CASES)
def test_every_encoder_writes_the_documented_bytes(ruleset, players, bots):
    for events in records(ruleset, players, bots):
        want = reference(events)
        assert encode_standard(events) == want
        assert encode_events(events) == want
        assert [dumps(e) for e in events] == want.splitlines()


def test_the_records_hold_the_events_the_cases_mean_to_cover():
    kinds = {e["event"] for case in CASES for events in records(*case) for e in events}
    assert kinds == {"match_start", "deal", "draw", "place", "pass", "round_end", "score",
                     "extra_turn", "skip", "match_end"}


ODD = [
    [{"event": "score", "player": 0, "side": 0, "points": 5, "rule": "Fünf à la fin"}],
    [{"event": "score", "player": 0, "side": 0, "points": 5, "rule": "tab\tDEL\x7f\x00"}],
    [{"event": "match_end", "winner": None, "scores": [2 ** 70, -(2 ** 64)]}],
    [{"event": "match_start", "ruleset": "mine", "players": 2, "teams": [[0], [1]],
      "seed": 1, "source": "/tmp/é/},{\"x\".yaml"}],
    [],
    # shapes the templates must leave to json: a bool, a tuple, an unknown end, another
    # key order, an extra key, a float, a huge or negative int
    [{"event": "place", "player": True, "tile": [1, 2], "end": "left"},
     {"event": "place", "player": 0, "tile": (1, 2), "end": "left"},
     {"event": "place", "player": 0, "tile": [1, 2], "end": "middle"},
     {"event": "place", "tile": [1, 2], "player": 0, "end": None},
     {"event": "draw", "player": 0, "tile": [1, 2, 3]},
     {"event": "draw", "player": 0, "tile": [1.0, 2]},
     {"event": "pass", "player": 2 ** 80},
     {"event": "pass", "player": -1},
     {"event": "skip", "player": 1},
     {"event": "place", "player": 1, "tile": [0, 0], "end": "down"}],
]


@pytest.mark.parametrize("events", ODD)
def test_what_orjson_would_write_differently_is_written_as_json_does(events):
    assert encode_standard(events) == reference(events)
    assert encode_events(events) == reference(events)


def test_the_orjson_path_itself_writes_the_documented_bytes():
    pytest.importorskip("orjson")
    for case in CASES[:3]:
        for events in records(*case):
            assert record_lines._encode_orjson(events) == reference(events)
    for events in ODD:
        assert record_lines._encode_orjson(events) == reference(events)


def test_simulate_writes_the_documented_bytes(tmp_path):
    game = api.load_game("house/all-fives")
    path = tmp_path / "r.jsonl"
    api.simulate(game, 3, 5, 11, "random", str(path))
    want = "".join(reference(api.play_match(game, 3, api.match_seed(11, i), "random",
                                            trace=True).events) for i in range(5))
    assert path.read_text(encoding="utf-8") == want
