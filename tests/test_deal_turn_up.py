"""``deal.turn_up`` (engine/mechanisms/turn_up.py): the stock's first tile starts the line,
placed by nobody, and the leader plays the first turn on it. house/turned-up-starter deals
every tile, so only three players leave one to turn up."""

from __future__ import annotations

import json

import pytest

from dominorules import api, records
from dominorules.engine.game import Deal
from dominorules.engine.mechanisms import turn_up
from dominorules.kernel import generate, jit_kernel, jit_trace
from dominorules.rules import check_ruleset

STARTER = "house/turned-up-starter"
THREE = ["0-0 0-1 0-2 0-3 0-4 0-5 0-6 1-1 1-2", "1-3 1-4 1-5 1-6 2-2 2-3 2-4 2-5 2-6",
         "3-3 3-4 3-6 4-4 4-5 4-6 5-5 5-6 6-6"]
DRAW = ("title: Turned up in Draw\nextends: pagat\ndeal:\n  hand_size: 5\n  turn_up: true\n"
        "board:\n  spinner: first_double\nevents:\n  - after: place\n"
        "    if: \"end_total % 5 == 0\"\n    points: \"end_total\"\n")


def _draw_game(tmp_path):
    path = tmp_path / "draw-turn-up.yaml"
    path.write_text(DRAW, encoding="utf-8")
    return api.load_game(str(path))


def test_the_rule_once():
    assert turn_up.turned_up(True, [(3, 5), (0, 0)]) == (3, 5)
    assert turn_up.turned_up(True, []) is None          # every tile dealt: the hand opens
    assert turn_up.turned_up(False, [(3, 5)]) is None
    assert turn_up.stand_in(0, lambda s: (s + 1) % 3, 3) == 2
    assert turn_up.stand_in(0, lambda s: (s - 1) % 3, 3) == 1   # play to the right


def test_the_28th_tile_starts_the_line_and_the_leader_plays_on_it():
    game = api.load_game(STARTER)
    state = game.new_match(3, seed=0, deals=[Deal.of(THREE, ("3-5",), leader=0)])
    record = state.record
    assert [e["event"] for e in record] == ["match_start", "deal", "turn_up"]
    assert record[-1] == {"event": "turn_up", "tile": [3, 5]}
    assert state.current_player == 0
    assert [str(a) for a in state.legal_actions()] == ["3-0 left", "5-0 right"]
    state.apply("5-0 right")
    assert state.current_player == 1
    assert [str(a) for a in state.legal_actions()] == ["3-1 left", "3-2 left"]   # ends 3, 0


def test_a_deal_of_every_tile_opens_from_the_leaders_hand():
    game = api.load_game(STARTER)
    four = ["0-0 0-1 0-2 0-3 0-4 0-5 0-6", "1-1 1-2 1-3 1-4 1-5 1-6 2-2",
            "2-3 2-4 2-5 2-6 3-3 3-4 3-5", "3-6 4-4 4-5 4-6 5-5 5-6 6-6"]
    state = game.new_match(4, seed=0, deals=[Deal.of(four, (), leader=2)])
    assert [e["event"] for e in state.record] == ["match_start", "deal"]
    assert state.current_player == 2
    assert len(state.legal_actions()) == 7   # any tile of the hand opens


def test_in_draw_the_leader_plays_on_it_and_only_placements_score(tmp_path):
    game = _draw_game(tmp_path)
    hands = ["0-1 0-2 0-5 1-2 2-2", "3-3 3-4 4-4 6-6 0-0"]
    state = game.new_match(2, seed=0, deals=[Deal.of(hands, ("5-5", "5-6"), leader=0)])
    record = state.record
    # [5|5] turned up: its 10 at the ends is nobody's score
    assert [e["event"] for e in record] == ["match_start", "deal", "turn_up"]
    assert state.scores == (0, 0) and state.current_player == 0
    assert {str(a) for a in state.legal_actions()} == {"5-0 left", "5-0 right", "draw"}
    state.apply("draw")   # a voluntary draw takes the boneyard's next tile, [5|6]
    assert record[-1] == {"event": "draw", "player": 0, "tile": [5, 6]}
    state.apply("5-0 left")   # ends 0 and the double 5-5 across: 10
    assert record[-2:] == [{"event": "place", "player": 0, "tile": [0, 5], "end": "left"},
                           {"event": "score", "player": 0, "side": 0, "points": 10,
                            "rule": 0}]
    assert state.scores == (10, 0) and state.current_player == 1


def test_the_leaders_first_turn_is_an_ordinary_turn_even_a_pass():
    game = api.load_game(STARTER)
    # [6|6] turned up: seats 0 and 1 hold no six and pass; seat 2 holds every other six
    state = game.new_match(3, seed=0, deals=[Deal.of(
        ["0-0 0-1 0-2 0-3 0-4 0-5 1-1 1-2 1-3", "1-4 1-5 2-2 2-3 2-4 2-5 3-3 3-4 3-5",
         "0-6 1-6 2-6 3-6 4-4 4-5 4-6 5-5 5-6"], ("6-6",), leader=0)])
    assert [str(a) for a in state.legal_actions()] == ["pass"]
    state.apply("pass")
    assert state.current_player == 1 and [str(a) for a in state.legal_actions()] == ["pass"]
    state.apply("pass")
    assert state.current_player == 2 and len(state.legal_actions()) == 12   # 6 sixes, 2 ends
    assert turn_up.stand_in(0, lambda s: (s + 1) % 3, 3) == 2   # the round's last player


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playouts_conserve_tiles_and_both_readers_accept_them(tmp_path, players):
    for name, game in ((STARTER, api.load_game(STARTER)), ("draw", _draw_game(tmp_path))):
        T = game.tileset.tile_count
        for seed in range(3):
            result = api.play_match(game, players, seed, trace=True)
            again = api.play_match(game, players, seed, trace=True)
            assert again.events == result.events   # same seed, same record
            events = result.events
            ups = [i for i, e in enumerate(events) if e["event"] == "turn_up"]
            deals = [e for e in events if e["event"] == "deal" and e["leader"] is not None]
            for i in ups:
                assert events[i - 1]["event"] == "deal"
                assert events[i]["tile"] == events[i - 1]["boneyard"][0]
            if name == STARTER:
                assert len(ups) == (len(deals) if players == 3 else 0)
            else:
                assert len(ups) == len(deals)
            # tiles conserved: the line, the hands and the boneyard hold the set, each round
            round_ = None
            for e in events:
                if e["event"] == "deal":
                    round_ = {"line": 0, "hands": sum(map(len, e["hands"])),
                              "yard": len(e["boneyard"])}
                elif e["event"] in ("turn_up",):
                    round_["line"] += 1
                    round_["yard"] -= 1
                elif e["event"] == "place":
                    round_["line"] += 1
                    round_["hands"] -= 1
                elif e["event"] == "draw":
                    round_["hands"] += 1
                    round_["yard"] -= 1
                elif e["event"] == "round_end":
                    assert round_["line"] + round_["hands"] + round_["yard"] == T
                    assert sum(e["pips"]) >= 0
            rounds = [e for e in events if e["event"] == "round_end"]
            totals = [sum(r["points"][i] for r in rounds) + sum(
                r.get("play_points", [0] * len(result.scores))[i] for r in rounds)
                for i in range(len(result.scores))]
            assert list(result.scores) == totals   # scores are the sum of points
            path = tmp_path / f"{players}-{seed}.jsonl"
            records.write_records(str(path), events)
            assert records.verify_file(str(path)) == []
            assert records.check_file_strict(str(path)) == []


def _plant(tmp_path, change) -> str:
    game = api.load_game(STARTER)
    events = api.play_match(game, 3, 1, trace=True).events
    change(events)
    path = tmp_path / "planted.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return str(path)


def test_a_turned_up_tile_that_is_not_the_boneyards_first_is_rejected(tmp_path):
    def swap(events):
        i = next(i for i, e in enumerate(events) if e["event"] == "turn_up")
        events[i]["tile"] = events[i - 1]["hands"][0][0]   # a tile seat 0 holds
    path = _plant(tmp_path, swap)
    strict = records.check_file_strict(path)
    assert strict and "turn_up" in strict[0].message, strict
    assert records.verify_file(path)


def test_a_record_without_its_turn_up_is_rejected(tmp_path):
    def drop(events):
        i = next(i for i, e in enumerate(events) if e["event"] == "turn_up")
        del events[i]
    path = _plant(tmp_path, drop)
    strict = records.check_file_strict(path)
    assert strict and "turn_up" in strict[0].message, strict
    assert records.verify_file(path)


def test_the_python_kernel_refuses_it_the_jit_plays_and_records_it():
    game = api.load_game(STARTER)
    assert not generate.covers(game)   # the general loop plays it on the Python engine
    assert jit_kernel.jit_reason(game, 3, need_numba=False) is None   # (turn_up's piece)
    assert jit_trace.reason(game) is None   # and records it (test_kernel_jit_records_deal)


@pytest.mark.parametrize("extra, path, line, words", [
    ("opening:\n  tile: \"[6|6]\"\n  opener: holder\n", "opening.tile", 9,
     "nobody opens from a hand"),
    ("opening:\n  allow: \"tile.is_double\"\n", "opening.allow", 9, "nobody opens"),
    ("players:\n  min: 4\n  max: 4\n", "deal.turn_up", 5,
     "never turns a tile up"),
])
def test_validate_refuses_what_cannot_go_with_it(tmp_path, extra, path, line, words):
    file = tmp_path / "bad.yaml"
    file.write_text("title: Bad\nextends: pagat\ndeal:\n  hand_size: \"7 if players == 4 else 5\"\n"
                    "  turn_up: true\ndrawing:\n  reserve: 0\n"
                    + extra, encoding="utf-8")
    problems = check_ruleset(str(file))
    assert problems and words in problems[0].message, [p.message for p in problems]
    assert problems[0].path == path and problems[0].line == line and problems[0].hint
