"""``deal.leftover`` (engine/mechanisms/leftover.py): the tiles the hands leave go to a
named seat. house/leftover-to-leader is the Block game dealing 14, 9 or 7 each: only
three players leave a tile, the 28th, and the leader takes it."""

from __future__ import annotations

import json

import pytest

from dominorules import api, records
from dominorules.diagnostics import DiagnosticError
from dominorules.engine.game import Deal
from dominorules.engine.mechanisms import leftover
from dominorules.kernel import generate, jit_kernel, jit_trace
from dominorules.rules import check_ruleset

LEADER = "house/leftover-to-leader"
NINE = ["0-0 0-1 0-2 0-3 0-4 0-5 0-6 1-1 1-2", "1-3 1-4 1-5 1-6 2-2 2-3 2-4 2-5 2-6",
        "3-3 3-4 3-5 3-6 4-4 4-5 4-6 5-5 5-6"]


def _before(tmp_path):
    path = tmp_path / "before.yaml"
    path.write_text("title: Before\nextends: house/leftover-to-leader\ndeal:\n"
                    "  leftover: before_leader\n", encoding="utf-8")
    return api.load_game(str(path))


def test_the_rule_once():
    assert leftover.receiver("leader", 1, None, 3) == 1
    assert leftover.receiver("before_leader", 0, lambda s: (s + 1) % 3, 3) == 2
    assert leftover.receiver("before_leader", 0, lambda s: (s - 1) % 3, 3) == 1   # to the right
    assert leftover.receiver("boneyard", 0, None, 3) is None
    assert leftover.sizes(9, 3, 28, 0) == [10, 9, 9]
    assert leftover.sizes(7, 4, 28, None) == [7, 7, 7, 7]


def test_a_shuffled_deal_gives_the_28th_tile_to_the_leader():
    game = api.load_game(LEADER)
    for seed in range(4):
        state = game.new_match(3, seed=seed)
        deal = state.record[1]
        sizes = [len(h) for h in deal["hands"]]
        assert deal["boneyard"] == [] and sorted(sizes) == [9, 9, 10]
        assert sizes[deal["leader"]] == 10
        assert state.current_player == deal["leader"]


def test_before_the_leader_in_a_constructed_deal(tmp_path):
    game = _before(tmp_path)
    hands = [NINE[0] + " 6-6", NINE[1], NINE[2]]   # leader 1: seat 0 plays before it
    state = game.new_match(3, seed=0, deals=[Deal.of(hands, (), leader=1)])
    assert state.record[1]["hands"][0][-1] == [6, 6] and state.record[1]["boneyard"] == []
    assert state.current_player == 1
    state.apply("1-3")
    assert state.current_player == 2 and [str(a) for a in state.legal_actions()] == [
        "3-3 right", "4-3 right", "5-3 right", "6-3 right"]
    state.apply("6-3 right")
    assert state.current_player == 0   # the tenth tile, 6-6, fits the 6 now
    assert [str(a) for a in state.legal_actions()] == [
        "1-0 left", "1-1 left", "2-1 left", "6-0 right", "6-6 right"]


def test_a_constructed_deal_with_the_tile_in_the_wrong_hand_is_refused(tmp_path):
    game = _before(tmp_path)
    hands = [NINE[0], NINE[1] + " 6-6", NINE[2]]   # the leader's, not the seat before
    with pytest.raises(DiagnosticError) as err:
        game.new_match(3, seed=0, deals=[Deal.of(hands, (), leader=1)])
    assert "seat 0" in err.value.diagnostics[0].message


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playouts_conserve_tiles_and_both_readers_accept_them(tmp_path, players):
    game = api.load_game(LEADER)
    for seed in range(2):
        result = api.play_match(game, players, seed, trace=True)
        assert api.play_match(game, players, seed, trace=True).events == result.events
        events = result.events
        for e in events:
            if e["event"] == "deal" and e["leader"] is not None:
                sizes = [len(h) for h in e["hands"]]
                assert sum(sizes) == 28 and e["boneyard"] == []
                assert sizes == leftover.sizes(28 // players, players, 28, e["leader"]
                                               if players == 3 else None)
            assert e["event"] != "draw"
        rounds = [e for e in events if e["event"] == "round_end"]
        assert list(result.scores) == [sum(r["points"][i] for r in rounds)
                                       for i in range(players)]
        path = tmp_path / f"{players}-{seed}.jsonl"
        records.write_records(str(path), events)
        assert records.verify_file(str(path)) == []
        assert records.check_file_strict(str(path)) == []


def _plant(tmp_path, change) -> str:
    events = api.play_match(api.load_game(LEADER), 3, 1, trace=True).events
    change(events[1])
    path = tmp_path / "planted.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return str(path)


def test_the_tile_in_another_hand_is_rejected(tmp_path):
    def move(deal):
        taker = deal["leader"]
        deal["hands"][(taker + 1) % 3].append(deal["hands"][taker].pop())
    path = _plant(tmp_path, move)
    strict, replay = records.check_file_strict(path), records.verify_file(path)
    assert strict and "deal.leftover" in strict[0].message and strict[0].line == 2
    assert replay and "deal.leftover" in replay[0].message and replay[0].line == 2


def test_the_tile_left_in_the_boneyard_is_rejected(tmp_path):
    def keep(deal):
        deal["boneyard"].append(deal["hands"][deal["leader"]].pop())
    path = _plant(tmp_path, keep)
    strict, replay = records.check_file_strict(path), records.verify_file(path)
    assert strict and "deal.leftover" in strict[0].message
    assert replay and "deal.leftover" in replay[0].message


def test_the_python_kernel_refuses_it_the_jit_plays_and_records_it():
    game = api.load_game(LEADER)
    assert not generate.covers(game)   # the general loop plays it on the Python engine
    assert jit_kernel.jit_reason(game, 3, need_numba=False) is None   # (leftover's pieces)
    assert jit_trace.reason(game) is None   # and records it (test_kernel_jit_records_deal)


@pytest.mark.parametrize("extra, path, words", [
    ("drawing:\n  when_stuck: draw\n", "drawing.when_stuck", "draw from a boneyard"),
    ("lead:\n  first: highest_double\n", "lead.first", "chooses the leader from the hands"),
    ("deal:\n  turn_up: true\n", "deal.turn_up", "turned up"),
])
def test_validate_refuses_what_cannot_go_with_it(tmp_path, extra, path, words):
    file = tmp_path / "bad.yaml"
    file.write_text("title: Bad\nextends: house/leftover-to-leader\n" + extra, encoding="utf-8")
    problems = check_ruleset(str(file))
    assert problems and words in problems[0].message, [p.message for p in problems]
    assert problems[0].path == path and problems[0].line == 4 and problems[0].hint


def test_a_ruleset_without_it_pays_nothing():
    from dominorules.kernel.specialise_loop import general_kernel

    assert "_leftover" not in general_kernel(api.load_game("house/all-fives"), 3, True).source
    assert "_leftover" in general_kernel(api.load_game(LEADER), 3, True).source
