"""Duties on several players (``events[].duty.on``, ``engine.mechanisms.duties``): who a
duty falls on, a constructed deal with its exact record, playouts read by verify and the
rulebook alike, a planted fault, and the load-time refusal of a duty on nobody."""

from __future__ import annotations

import pytest

from dominorules import api, records
from dominorules.engine.mechanisms.duties import bearers
from dominorules.records import check_file_strict
from dominorules.rules import check_ruleset


@pytest.mark.parametrize(("on", "actor", "step", "seats"), [
    ("next", 0, 1, [1]),
    ("others", 0, 1, [1, 2, 3]),
    ("opponents", 0, 1, [1, 3]),
    ("partner", 0, 1, [2]),
    ("others", 2, 1, [3, 0, 1]),          # in turn order from the seat after the actor
    ("opponents", 1, -1, [0, 2]),         # play to the right: seat 0 is next
    ("partner", 3, -1, [1]),
])
def test_the_seats_a_duty_falls_on(on, actor, step, seats):
    assert bearers(on, actor, lambda s: (s + step) % 4, lambda s: s % 2) == seats


def test_individual_play_has_no_partner_and_every_other_seat_is_an_opponent():
    assert bearers("partner", 1, lambda s: (s + 1) % 3, lambda s: s) == []
    assert bearers("opponents", 1, lambda s: (s + 1) % 3, lambda s: s) == [2, 0]


def test_answer_the_double_binds_each_other_player_on_their_own():
    """house/answer-the-double at three: [3|3] lays a duty on seats 1 and 2; seat 1 meets
    it with a 3, seat 2 passes and fails it (one pick, and it lapses: one_turn)."""
    game = api.load_game("house/answer-the-double")
    deal = api.Deal.of(["6-3 3-3 0-0 0-1 0-2 0-4 0-5", "3-1 1-1 1-2 1-4 1-5 1-6 2-2",
                        "2-4 2-5 2-6 4-4 4-5 4-6 5-5"], "5-6 6-6 0-6 3-4 3-5 2-3 0-3",
                       leader=0)
    state = game.new_match(3, 0, deals=[deal])
    for move in ("6-3", "6-1 right", "pass", "3-3 left", "3-1 left", "pass"):
        state.apply(move)
    keep = ("place", "pass", "draw", "duty", "duty_met", "duty_failed")
    assert [e for e in state.record if e["event"] in keep][3:] == [
        {"event": "place", "player": 0, "tile": [3, 3], "end": "left"},
        {"event": "duty", "player": 1, "rule": 0, "tile": [3, 3]},
        {"event": "duty", "player": 2, "rule": 0, "tile": [3, 3]},
        {"event": "place", "player": 1, "tile": [1, 3], "end": "left"},
        {"event": "duty_met", "player": 1, "rule": 0},
        {"event": "pass", "player": 2},
        {"event": "duty_failed", "player": 2, "rule": 0, "next": None},
        {"event": "draw", "player": 2, "tile": [5, 6], "rule": 0},
    ]


def _record(players: int, seed: int):
    return api.play_match(api.load_game("house/answer-the-double"), players, seed,
                          bots="random", trace=True)


def test_playouts_lay_several_duties_and_verify(tmp_path):
    result = _record(3, 2)
    assert result.events == _record(3, 2).events   # the same seed, the same record
    laid = [i for i, e in enumerate(result.events) if e["event"] == "duty"]
    assert any(result.events[i + 1]["event"] == "duty" for i in laid)   # two at once
    assert result.counters["duties_laid"] == len(laid)   # compare's counter, a seat each
    path = tmp_path / "r.jsonl"
    records.write_records(str(path), result.events)
    assert list(records.verify_file(str(path))) == []
    assert list(check_file_strict(str(path))) == []


def test_verify_and_the_rulebook_reject_a_duty_on_the_wrong_seat(tmp_path):
    events = [dict(e) for e in _record(3, 2).events]
    at = next(i for i, e in enumerate(events) if e["event"] == "duty")
    events[at]["player"] = events[at - 1]["player"]   # on the actor, not the others
    path = tmp_path / "bad.jsonl"
    records.write_records(str(path), events)
    assert list(records.verify_file(str(path))) and list(check_file_strict(str(path)))


def test_a_duty_on_a_partner_without_partnerships_is_refused_at_load(tmp_path):
    path = tmp_path / "nobody.yaml"
    path.write_text("title: nobody\nextends: pagat\nevents:\n  - after: place\n"
                    "    duty:\n      on: partner\n      met: \"tile.is_double\"\n",
                    encoding="utf-8")
    with pytest.raises(Exception) as err:
        api.load_game(str(path))
    assert "falls on nobody" in str(err.value) and "nobody.yaml:6:" in str(err.value)


def test_an_example_naming_the_wrong_bearers_fails(tmp_path):
    path = tmp_path / "wrong.yaml"
    path.write_text("title: wrong\nextends: house/answer-the-double\nexamples:\n"
                    "  - title: wrong seats\n    kind: events\n    players: 3\n"
                    "    hands: [\"3-3 0-1\", \"2-5\", \"4-4\"]\n    board: [\"6-3\"]\n"
                    "    boneyard: 5\n    turn: 0\n    action: \"3-3 left\"\n"
                    "    expect_duties: 2\n    expect_duty_seats: [2, 1]\n", encoding="utf-8")
    found = check_ruleset(str(path))   # validate runs the examples
    assert [d.line for d in found] == [4]
    assert "expected duties on seats [2, 1], the rules lay them on [1, 2]" in found[0].message
