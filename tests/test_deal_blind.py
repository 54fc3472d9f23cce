"""``deal.blind`` (engine/mechanisms/blind.py): hidden hands in a row, played from the
front, as house/blind-hughie plays them."""

from __future__ import annotations

import json

import pytest

from dominorules import api, records
from dominorules.bots.strategist import StrategistBot
from dominorules.engine.actions import IllegalActionError
from dominorules.engine.game import Deal
from dominorules.engine.mechanisms import blind
from dominorules.kernel import generate, jit_kernel, jit_trace
from dominorules.rules import check_ruleset

HUGHIE = "house/blind-hughie"
ROWS = ["5-6 0-0 1-1 2-2 3-3 4-4 0-1", "0-2 6-6 0-3 0-4 0-5 0-6 1-2"]


def test_the_rule_once():
    row = [(1, 2), (3, 4)]
    assert blind.front(row) == (1, 2)
    blind.to_back(row)
    assert row == [(3, 4), (1, 2)]
    assert blind.only_front(row, ["a", "b"], {"a": (3, 4), "b": (1, 2)}.get) == ["a"]
    assert blind.rows_of(list(range(10)), 2, 4) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_a_row_is_played_from_the_front_and_a_tile_that_does_not_fit_goes_back():
    game = api.load_game(HUGHIE)
    state = game.new_match(2, seed=0, deals=[Deal.of(ROWS, (), leader=0)])
    deal = state.record[-1]
    # the record lists each hand front first, as dealt
    assert deal["hands"][1][:2] == [[0, 2], [6, 6]]
    assert [str(a) for a in state.legal_actions()] == ["6-5"]   # the front tile opens
    assert state.observation(0).hand == ()   # hidden even from its owner
    with pytest.raises(IllegalActionError, match="only your row's front tile"):
        state.apply("0-0")   # held, but not in front: and play says so in these words
    state.apply("6-5")
    assert [str(a) for a in state.legal_actions()] == ["pass"]   # [0|2] fits neither 5 nor 6
    state.apply("pass")
    assert state.record[-1] == {"event": "pass", "player": 1, "tile": [0, 2]}
    # seat 0's front is now [0|0]: no fit, a pass; then seat 1's [6|6] comes to the front
    assert [str(a) for a in state.legal_actions()] == ["pass"]
    state.apply("pass")
    assert state.current_player == 1
    assert [str(a) for a in state.legal_actions()] == ["6-6 right"]
    state.apply("6-6 right")
    assert state.record[-1] == {"event": "place", "player": 1, "tile": [6, 6], "end": "right"}


def test_a_failed_front_tile_is_no_stuck_pass_while_the_row_holds_a_fit():
    """Two players, each failing in turn with a row that holds a fitting tile further
    back: the plain game would block after both pass; here play goes on."""
    game = api.load_game(HUGHIE)
    rows = ["5-6 0-0 0-1 0-2 0-3 0-4 1-1", "1-2 1-3 1-4 2-2 2-3 2-4 6-6"]
    state = game.new_match(2, seed=0, deals=[Deal.of(rows, (), leader=0)])
    state.apply("6-5")
    for _ in range(6):   # seat 1 needs six failed fronts before its [6|6]; seat 0 fails too
        assert [str(a) for a in state.legal_actions()] == ["pass"]
        state.apply("pass")
        state.apply("pass")
    assert state.current_player == 1 and not state.is_terminal
    assert [str(a) for a in state.legal_actions()] == ["6-6 right"]


def test_a_round_with_no_fitting_tile_anywhere_is_blocked():
    game = api.load_game(HUGHIE)
    # after [6|6] opens, no other tile with a 6 is in play: the rows hold none
    rows = ["6-6 0-0 0-1 0-2 0-3 0-4 1-1", "1-2 1-3 1-4 2-2 2-3 2-4 3-3"]
    state = game.new_match(2, seed=0, deals=[Deal.of(rows, (), leader=0)])
    state.apply("6-6")
    state.apply("pass")
    state.apply("pass")
    end = next(e for e in state.record if e["event"] == "round_end")
    assert end["result"] == "blocked"
    # seat 0 holds 0+1+2+3+4+2 = 12, seat 1 holds 3+4+5+4+5+6+6 = 33: 33 - 12 = 21
    assert end["pips"] == [12, 33] and end["points"] == [21, 0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playouts_conserve_tiles_and_both_readers_accept_them(tmp_path, players):
    game = api.load_game(HUGHIE)
    size = game.hand_size(players)
    for seed in range(3):
        result = api.play_match(game, players, seed, trace=True)
        assert api.play_match(game, players, seed, trace=True).events == result.events
        rows = None
        for e in result.events:
            if e["event"] == "deal":
                rows = [list(map(tuple, h)) for h in e["hands"]]
                assert all(len(r) == size for r in rows)
            elif e["event"] == "place":   # always the row's front tile
                assert tuple(e["tile"]) == rows[e["player"]].pop(0)
            elif e["event"] == "pass":
                assert tuple(e["tile"]) == rows[e["player"]][0]
                blind.to_back(rows[e["player"]])
            elif e["event"] == "round_end":
                assert e["pips"] == [sum(a + b for a, b in r) for r in rows]
            assert e["event"] != "draw"
        path = tmp_path / f"{players}-{seed}.jsonl"
        records.write_records(str(path), result.events)
        assert records.verify_file(str(path)) == []
        assert records.check_file_strict(str(path)) == []


def test_a_pass_that_shows_another_tile_than_the_front_is_rejected(tmp_path):
    events = api.play_match(api.load_game(HUGHIE), 3, 1, trace=True).events
    i = next(i for i, e in enumerate(events) if e["event"] == "pass")
    deal = next(e for e in reversed(events[:i]) if e["event"] == "deal")
    events[i]["tile"] = deal["hands"][events[i]["player"]][-1]
    path = tmp_path / "planted.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    strict = records.check_file_strict(str(path))
    assert strict and "front of the row" in strict[0].message, strict
    assert records.verify_file(str(path))


def test_the_python_kernel_refuses_it_and_the_strategist_says_its_row_is_hidden():
    game = api.load_game(HUGHIE)
    assert not generate.covers(game)
    assert jit_kernel.jit_reason(game, 2, need_numba=False) is None   # (blind.py)
    assert jit_trace.reason(game) is None   # its records too (test_kernel_jit_records_deal)
    state = game.new_match(2, seed=0, deals=[Deal.of(ROWS, (), leader=0)])
    import random
    _, why = StrategistBot(0, random.Random(0)).explain(state.observation(0),
                                                        state.legal_actions())
    assert why == "6-5: your row's front tile, the only tile you may lay (deal.blind)"


@pytest.mark.parametrize("extra, path, words", [
    ("", "deal.blind", "drawing.when_stuck cannot go"),   # pagat's draw, inherited
    ("drawing:\n  when_stuck: pass\n  voluntary: forbidden\nplay:\n  passing: at_will\n",
     "play.passing", "cannot go with deal.blind"),
])
def test_validate_refuses_what_would_draw_into_a_row_or_choose_among_it(tmp_path, extra,
                                                                          path, words):
    file = tmp_path / "bad.yaml"
    file.write_text("title: Bad\nextends: pagat\ndeal:\n  hand_size: 5\n  blind: true\n"
                    + extra, encoding="utf-8")
    problems = check_ruleset(str(file))
    assert problems and words in problems[0].message, [p.message for p in problems]
    assert problems[0].path == path and problems[0].file == str(file) and problems[0].hint


def test_with_a_tile_turned_up_the_leaders_front_tile_plays_on_it(tmp_path):
    """domino-play.com's three-player deal: nine each, the 28th turned up to start."""
    file = tmp_path / "three.yaml"
    file.write_text("title: Three blind\nextends: house/blind-hughie\nplayers:\n  min: 3\n"
                    "  max: 3\ndeal:\n  hand_size: 9\n  turn_up: true\n", encoding="utf-8")
    game = api.load_game(str(file))
    rows = ["0-5 0-0 0-1 0-2 0-3 0-4 0-6 1-1 1-2", "1-3 1-4 1-5 1-6 2-2 2-3 2-4 2-5 2-6",
            "3-3 3-4 3-6 4-4 4-5 4-6 5-5 5-6 6-6"]
    state = game.new_match(3, seed=0, deals=[Deal.of(rows, ("3-5",), leader=0)])
    assert state.record[-1] == {"event": "turn_up", "tile": [3, 5]}
    assert [str(a) for a in state.legal_actions()] == ["5-0 right"]   # [0|5] on the 5
    events = api.play_match(game, 3, 2, trace=True).events
    path = tmp_path / "three.jsonl"
    records.write_records(str(path), events)
    assert records.check_file_strict(str(path)) == []
