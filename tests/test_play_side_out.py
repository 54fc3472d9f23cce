"""``play.until: side_out`` (engine/mechanisms/side_out.py): a player who empties the
hand is out and the round goes on until a whole side is out. house/side-out is
partnership Draw so played; the constructed deals below give each seat two tiles."""

from __future__ import annotations

import json

import pytest

from dominorules import api, records
from dominorules.engine.game import Deal
from dominorules.engine.mechanisms import side_out
from dominorules.kernel import generate, jit_kernel, jit_trace
from dominorules.rules import check_ruleset, rule_warnings

SIDE_OUT = "house/side-out"
HANDS = ["6-6 5-6", "4-6 0-1", "3-4 2-2", "0-3 4-4"]
MOVES = ["6-6", "6-4 left", "4-3 left", "3-0 left", "6-5 right", "1-0 left", "draw",
         "5-2 right", "draw", "4-1 left", "2-2 right"]


def _two_each(tmp_path):
    path = tmp_path / "two-each.yaml"
    path.write_text("title: Two each\nextends: house/side-out\ndeal:\n  hand_size: 2\n",
                    encoding="utf-8")
    return api.load_game(str(path))


def test_the_rule_once():
    assert side_out.goes_on("side_out", (0, 2), lambda s: s == 2)
    assert not side_out.goes_on("side_out", (0, 2), lambda s: False)   # the side is out
    assert not side_out.goes_on("first_out", (0, 2), lambda s: True)   # the plain game
    assert side_out.next_in(lambda s: (s + 1) % 4, 3, {0, 1}) == 2
    assert side_out.next_table([1, 2, 3, 0], {0}) == [1, 2, 3, 1]


def test_the_round_goes_on_until_both_partners_are_out(tmp_path):
    game = _two_each(tmp_path)
    state = game.new_match(4, seed=0, deals=[Deal.of(HANDS, ("2-5", "1-4"), leader=0)])
    turns = []
    for move in MOVES:
        turns.append(state.current_player)
        assert move in [str(a) for a in state.legal_actions()]
        state.apply(move)
    # seat 0 out after its 5th move, seat 1 after its 6th: both are passed over
    assert turns == [0, 1, 2, 3, 0, 1, 2, 2, 3, 3, 2]
    kinds = [(e["event"], e.get("player")) for e in state.record[2:15]]
    assert kinds == [("place", 0), ("place", 1), ("place", 2), ("place", 3), ("place", 0),
                     ("out", 0), ("place", 1), ("out", 1), ("draw", 2), ("place", 2),
                     ("draw", 3), ("place", 3), ("place", 2)]
    end = next(e for e in state.record if e["event"] == "round_end")
    # seat 2 completes side 0: a domino; the out seats hold nothing, seat 3 holds 4-4
    assert end == {"event": "round_end", "round": 1, "result": "domino", "winner": 0,
                   "pips": [0, 0, 0, 8], "points": [8, 0], "scores": [8, 0]}


def test_first_out_is_unchanged(tmp_path):
    path = tmp_path / "plain.yaml"
    path.write_text("title: Plain\nextends: house/side-out\ndeal:\n  hand_size: 2\nplay:\n"
                    "  until: first_out\n", encoding="utf-8")
    state = api.load_game(str(path)).new_match(
        4, seed=0, deals=[Deal.of(HANDS, ("2-5", "1-4"), leader=0)])
    for move in MOVES[:5]:
        state.apply(move)
    end = state.record[-1] if state.record[-1]["event"] == "round_end" else next(
        e for e in state.record if e["event"] == "round_end")
    # the first out ends it: seat 1's 0-1 and seat 3's 4-4
    assert end["result"] == "domino" and end["winner"] == 0 and end["points"] == [9, 0]
    assert not any(e["event"] == "out" for e in state.record)


@pytest.mark.parametrize("bots", [None, ["greedy", "strategist", "greedy", "expert"]])
def test_playouts_conserve_tiles_and_both_readers_accept_them(tmp_path, bots):
    game = api.load_game(SIDE_OUT)
    T = game.tileset.tile_count
    blocked_with_out = 0   # rounds blocked while a player was out: settled as blocked
    for seed in range(2 if bots else 4):
        kwargs = {"bots": bots} if bots else {}
        result = api.play_match(game, 4, seed, trace=True, **kwargs)
        again = api.play_match(game, 4, seed, trace=True, **kwargs)
        assert again.events == result.events   # same seed, same record
        events = result.events
        out: set[int] = set()
        held = [0] * 4
        for e in events:
            kind = e["event"]
            if kind == "deal":
                out, held = set(), [len(h) for h in e["hands"]]
                count = {"line": 0, "yard": len(e["boneyard"])}
            elif kind in ("place", "draw", "pass"):
                assert e["player"] not in out   # an out seat never acts again
                if kind == "place":
                    held[e["player"]] -= 1
                    count["line"] += 1
                elif kind == "draw":
                    held[e["player"]] += 1
                    count["yard"] -= 1
            elif kind == "out":
                assert held[e["player"]] == 0
                partner = (e["player"] + 2) % 4
                assert partner not in out and held[partner] > 0
                out.add(e["player"])
            elif kind == "round_end":
                assert count["line"] + sum(held) + count["yard"] == T
                if e["result"] == "domino":   # a whole side out
                    assert any(held[s] == 0 and held[s + 2] == 0 for s in (0, 1))
                    assert held[e["winner"]] == 0 and held[e["winner"] + 2] == 0
                for s in out:
                    assert e["pips"][s] == 0
                blocked_with_out += e["result"] == "blocked" and bool(out)
        rounds = [e for e in events if e["event"] == "round_end"]
        assert list(result.scores) == [sum(r["points"][i] for r in rounds) for i in (0, 1)]
        path = tmp_path / f"{seed}.jsonl"
        records.write_records(str(path), events)
        assert records.verify_file(str(path)) == []
        assert records.check_file_strict(str(path)) == []
    assert blocked_with_out > 0


def _plant(tmp_path, change) -> str:
    events = api.play_match(api.load_game(SIDE_OUT), 4, 1, trace=True).events
    change(events)
    path = tmp_path / "planted.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return str(path)


def test_a_record_without_its_out_line_is_rejected(tmp_path):
    def drop(events):
        del events[next(i for i, e in enumerate(events) if e["event"] == "out")]
    path = _plant(tmp_path, drop)
    strict = records.check_file_strict(path)
    assert strict and "out" in strict[0].message, strict
    assert records.verify_file(path)


def test_an_out_seat_that_plays_on_is_rejected(tmp_path):
    def wrong(events):
        i = next(i for i, e in enumerate(events) if e["event"] == "out")
        events[i]["player"] = (events[i]["player"] + 1) % 4
    path = _plant(tmp_path, wrong)
    strict = records.check_file_strict(path)
    assert strict and "out player" in strict[0].message, strict
    assert records.verify_file(path)


def test_the_python_kernel_refuses_it_the_jit_plays_it_and_writes_its_records():
    game = api.load_game(SIDE_OUT)
    assert not generate.covers(game)   # the general loop plays it on the Python engine
    assert jit_kernel.jit_reason(game, 4, need_numba=False) is None   # (side_out's pieces)
    assert jit_trace.reason(game) is None   # (tests/test_kernel_jit_rec_events.py)


def test_the_jit_plays_it_with_turns_passed_at_will_too(tmp_path):
    """(its matches and records on both engines: tests/test_kernel_jit_turns.py)"""
    file = tmp_path / "at-will.yaml"
    file.write_text("title: At will\nextends: house/side-out\nplay:\n  passing: at_will\n",
                    encoding="utf-8")
    assert jit_kernel.jit_reason(api.load_game(str(file)), 4, need_numba=False) is None


def test_validate_refuses_events_that_hand_an_out_seat_tiles(tmp_path):
    file = tmp_path / "bad.yaml"
    file.write_text("title: Bad\nextends: house/side-out\nevents:\n  - after: place\n"
                    "    if: \"tile.is_double\"\n    next_draws: 1\n", encoding="utf-8")
    problems = check_ruleset(str(file))
    assert problems and "side_out" in problems[0].message, [p.message for p in problems]
    assert problems[0].path == "events[0].next_draws" and problems[0].line == 6
    assert problems[0].hint


def test_validate_warns_when_every_side_is_one_seat(tmp_path):
    file = tmp_path / "alone.yaml"
    file.write_text("title: Alone\nextends: pagat\nplay:\n  until: side_out\n", encoding="utf-8")
    assert check_ruleset(str(file)) == []
    found = [w for w in rule_warnings(str(file)) if w.path == "play.until"]
    assert found and found[0].line == 4 and "first_out" in found[0].message


def test_the_bots_play_on_and_the_expert_says_it_falls_back(tmp_path):
    import random

    from dominorules.bots.expert import ExpertBot
    from dominorules.bots.random_bot import RandomBot
    from dominorules.bots.strategist import StrategistBot

    state = _two_each(tmp_path).new_match(4, seed=0,
                                          deals=[Deal.of(HANDS, ("2-5", "1-4"), leader=0)])
    for move in MOVES[:4]:
        state.apply(move)
    # seat 0 holds 6-6's partner 5-6 only: its one placement takes it out
    obs, legal = state.observation(0), state.legal_actions()
    assert [str(a) for a in legal] == ["6-5 right", "draw"]
    action, why = ExpertBot(0, random.Random(1), playouts=4).explain(obs, legal)
    assert str(action) == str(StrategistBot(0, random.Random(1)).choose(obs, legal))
    assert "play.until" in why
    picks = {str(RandomBot(0, random.Random(s)).choose(obs, legal)) for s in range(40)}
    assert picks <= {"6-5 right", "draw"}


def test_a_ruleset_without_it_pays_nothing():
    """The switch is resolved once: the specialised loop of a ruleset that ends at the
    first out holds no code for it, and one that plays on does."""
    from dominorules.kernel.specialise_loop import general_kernel

    plain = general_kernel(api.load_game("house/all-fives"), 4, True).source
    played_on = general_kernel(api.load_game(SIDE_OUT), 4, True).source
    assert "_goes_on" not in plain and "side_out_rule" not in plain
    assert "_goes_on" in played_on
