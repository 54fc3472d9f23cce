"""Events that read the table (board, line, end_tiles), index ordered lists and set
variables (``events[].set``): the mechanism module, exact scenarios, playout invariants
over the Bergen house rulesets, and verify / verify --strict rejecting planted faults."""

from __future__ import annotations

import pytest

from dominorules import api, records
from dominorules.engine.mechanisms.table import Table
from dominorules.expr import ExprError, compile_expression
from dominorules.kernel.generate import covers
from dominorules.records import check_file_strict

NEW = ("house/bergen-headers", "house/bergen-near-game", "house/headers-raise-stake",
       "house/cover-the-double")


def test_the_table_keeps_placement_order_line_order_and_end_tiles():
    table = Table()
    for tile, end in (((6, 6), None), ((2, 6), "left"), ((6, 4), "right"), ((4, 2), "right")):
        table.place(tile, end)
    assert table.board() == ((6, 6), (2, 6), (4, 6), (2, 4))
    assert table.line_tiles() == ((2, 6), (6, 6), (4, 6), (2, 4))
    assert table.end_tiles([("left", None), ("right", None)]) == ((2, 6), (2, 4))
    # an arm nobody played on shows its double; a name never seen and no double: nothing
    assert table.end_tiles([("up", (6, 6)), ("down", None)]) == ((6, 6), (-1, 0))


@pytest.mark.parametrize(("source", "env", "value"), [
    ("line[0].pips + line[-1].high", {"line": ((2, 6), (6, 6), (2, 4))}, 12),
    ("ends[5] + ends[-3]", {"ends": (3, 4)}, 0),              # past either end: 0
    ("board[0].pips", {"board": ()}, -1),                     # an empty list: no tile
    ("end_tiles[9].is_double or end_tiles[9] == [0|0]", {"end_tiles": ((1, 1),)}, False),
])
def test_an_index_reads_in_range_and_gives_nothing_past_either_end(source, env, value):
    kind = "event_place_condition" if value is False else "event_place"
    assert compile_expression(source, kind).fn(env) == value


@pytest.mark.parametrize(("source", "message"), [
    ("hand[0].pips", "hand has no order to index by"),
    ("sides[0].score", "an index reads integers, booleans or tiles"),
    ("ends[ends[0] == 1]", "an index must be an integer"),
    ("players[0]", "only a list can be indexed"),
])
def test_a_bad_index_is_caught_at_load(source, message):
    with pytest.raises(ExprError) as err:
        compile_expression(source, "event_place")
    assert message in err.value.problems[0].message


def _record(name: str, players: int, seed: int):
    return api.play_match(api.load_game(name), players, seed, bots="random", trace=True)


def test_a_header_raises_the_stake_line_by_line():
    """Every set line follows a placement leaving equal ends, raises the stake by one
    within the round, and the round's points are pagat's times the stake it reached."""
    sets = 0
    for seed in range(1, 6):
        result = _record("house/headers-raise-stake", 2, seed)
        stake = 1
        for prev, e in zip(result.events, result.events[1:], strict=False):
            if e["event"] == "deal":
                stake = 1
            if e["event"] == "set":
                sets += 1
                assert prev["event"] == "place" and prev["end"] is not None
                assert e == {"event": "set", "player": prev["player"], "variable": "stake",
                             "value": stake + 1, "rule": 0}
                stake += 1
            if e["event"] == "round_end":
                assert e["variables"] == {"stake": 1}
                if e["winner"] is not None and e["result"] == "domino":
                    assert sum(e["points"]) % stake == 0
    assert sets > 0   # the rule fires in these matches


@pytest.mark.parametrize("name", NEW)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_playouts_conserve_tiles_score_the_sum_and_verify(name, players, tmp_path):
    events = []
    for seed in (1,):
        a, b = _record(name, players, seed), _record(name, players, seed)
        assert a.events == b.events   # same seed, same record
        scores = [0] * len(a.teams)
        for e in a.events:
            if e["event"] == "deal":
                held = sum(len(h) for h in e["hands"]) + len(e["boneyard"])
                assert held == 28
            if e["event"] == "round_end":
                scores = [s + p for s, p in zip(scores, e["points"], strict=True)]
                scores = [s + p for s, p in zip(scores, e["play_points"], strict=True)]
        assert list(a.scores) == scores or a.capped
        events += a.events
    path = tmp_path / "r.jsonl"
    records.write_records(str(path), events)
    assert list(records.verify_file(str(path))) == []
    assert list(check_file_strict(str(path))) == []


def _planted(name: str, kind: str, change, tmp_path) -> tuple[list, list]:
    events = [dict(e) for e in _record(name, 2, 3).events]
    at = next(i for i, e in enumerate(events) if e["event"] == kind)
    change(events[at])
    path = tmp_path / "bad.jsonl"
    records.write_records(str(path), events)
    return list(records.verify_file(str(path))), list(check_file_strict(str(path)))


def test_verify_and_the_rulebook_reject_a_wrong_set_value(tmp_path):
    loose, strict = _planted("house/headers-raise-stake", "set",
                             lambda e: e.update(value=e["value"] + 5), tmp_path)
    assert loose and strict
    assert "value" in strict[0].message


def test_verify_and_the_rulebook_reject_a_wrong_header_score(tmp_path):
    loose, strict = _planted("house/bergen-headers", "score",
                             lambda e: e.update(points=e["points"] + 1), tmp_path)
    assert loose and strict


def test_the_fast_paths_refuse_the_table_and_set():
    for name in NEW:
        assert not covers(api.load_game(name))   # the general loop plays them


def _duty_lines(state) -> list[dict]:
    keep = ("place", "pass", "draw", "duty", "duty_met", "duty_failed", "score")
    return [e for e in state.record if e["event"] in keep]


def test_a_double_must_be_covered_failed_passed_on_and_met():
    """house/cover-the-double on a constructed deal: the duty laid by [3|3], failed by a
    pass (a pick), passed to the layer, failed by a placement elsewhere (a pick), met."""
    game = api.load_game("house/cover-the-double")
    deal = api.Deal.of(["6-3 3-3 0-1 0-2 0-4 0-5 0-6", "1-1 1-2 1-4 1-5 2-2 2-4 2-5"],
                       "3-1 4-4", leader=0)
    state = game.new_match(2, 0, deals=[deal])
    for move in ("6-3", "pass", "3-3 left", "pass", "6-0 right", "3-1 left"):
        state.apply(move)
    assert _duty_lines(state) == [
        {"event": "place", "player": 0, "tile": [3, 6], "end": None},
        {"event": "pass", "player": 1},
        {"event": "place", "player": 0, "tile": [3, 3], "end": "left"},
        {"event": "duty", "player": 1, "rule": 0, "tile": [3, 3]},
        {"event": "pass", "player": 1},
        {"event": "duty_failed", "player": 1, "rule": 0, "next": 0},
        {"event": "draw", "player": 1, "tile": [1, 3], "rule": 0},
        {"event": "place", "player": 0, "tile": [0, 6], "end": "right"},
        {"event": "duty_failed", "player": 0, "rule": 0, "next": 1},
        {"event": "draw", "player": 0, "tile": [4, 4], "rule": 0},
        {"event": "place", "player": 1, "tile": [1, 3], "end": "left"},
        {"event": "duty_met", "player": 1, "rule": 0},
    ]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_duty_playouts_verify_and_keep_the_tiles(players, tmp_path):
    result = _record("house/cover-the-double", players, 5)
    assert result.events == _record("house/cover-the-double", players, 5).events
    kinds = [e["event"] for e in result.events]
    assert "duty" in kinds
    for e in result.events:
        if e["event"] == "deal":
            assert sum(len(h) for h in e["hands"]) + len(e["boneyard"]) == 28
    path = tmp_path / "r.jsonl"
    records.write_records(str(path), result.events)
    assert list(records.verify_file(str(path))) == []
    assert list(check_file_strict(str(path))) == []


@pytest.mark.parametrize(("kind", "change"), [
    ("duty_failed", lambda e: e.update(next=None)),
    ("duty", lambda e: e.update(player=(e["player"] + 1) % 2)),
])
def test_verify_and_the_rulebook_reject_a_planted_duty_fault(kind, change, tmp_path):
    loose, strict = _planted("house/cover-the-double", kind, change, tmp_path)
    assert loose and strict


@pytest.mark.parametrize("met", ["1 > 2", "tile.pips > 12 and tile != duty_tile"])
def test_a_duty_nobody_can_meet_is_refused_at_load(met, tmp_path):
    """A constant false, or a condition on the tiles no pair of the set meets."""
    path = tmp_path / "never.yaml"
    path.write_text("title: never\nextends: pagat\nevents:\n  - after: place\n"
                    f"    duty:\n      met: \"{met}\"\n", encoding="utf-8")
    with pytest.raises(Exception) as err:
        api.load_game(str(path))
    assert "nobody can ever meet" in str(err.value)


def test_validate_warns_of_an_index_past_the_ends_and_an_if_never_true(tmp_path):
    from dominorules.rules import rule_warnings

    path = tmp_path / "w.yaml"
    path.write_text("title: w\nextends: pagat\nevents:\n  - after: place\n"
                    "    if: \"end_tiles[2].is_double\"\n    points: 1\n"
                    "  - after: pass\n    if: \"1 > 2\"\n    points: 1\n", encoding="utf-8")
    found = [(d.line, d.column, d.message) for d in rule_warnings(str(path))
             if d.code == "never-applies"]
    assert found == [
        (5, 10, "end_tiles[2] reads past the 2 open ends this board can ever show: it is "
                "always no tile"),
        (8, 10, "events[1] never applies: its if is false whatever happens")]


def test_set_must_name_a_declared_variable(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("title: s\nextends: pagat\nvariables:\n  stake: {initial: 1}\n"
                    "events:\n  - after: place\n    set: {stak: \"stake + 1\"}\n",
                    encoding="utf-8")
    with pytest.raises(Exception) as err:
        api.load_game(str(path))
    assert "'stak', which is no variable of this ruleset" in str(err.value)


def test_the_kernel_hands_an_indexed_event_to_the_loop_and_agrees(tmp_path):
    """An index is no kernel code (kernel.events refuses it): the template calls
    GeneralLoop._fire, whose record the step-by-step replay accepts."""
    path = tmp_path / "k.yaml"
    path.write_text("title: k\nextends: house/spinner\nevents:\n  - after: place\n"
                    "    if: \"ends[0] == ends[-1]\"\n    points: \"ends[0] * 10 + ends[-1]\"\n",
                    encoding="utf-8")
    game = api.load_game(str(path))
    assert covers(game)
    events = []
    for seed in range(4):
        events += api.play_match(game, 3, seed, bots="random", trace=True).events
    assert any(e["event"] == "score" for e in events)
    out = tmp_path / "k.jsonl"
    records.write_records(str(out), events)
    assert list(records.verify_file(str(out))) == []


def test_the_jit_plays_the_table_set_and_duties_and_writes_their_records():
    """(tests/test_kernel_jit_table.py plays them on both engines,
    tests/test_kernel_jit_rec_events.py compares their records)"""
    from dominorules.kernel.jit_kernel import jit_reason
    from dominorules.kernel.jit_trace import reason as record_reason

    for name in ("house/bergen-headers", "house/cover-the-double"):
        game = api.load_game(name)
        assert jit_reason(game, 2, need_numba=False) is None
        assert record_reason(game) is None


def test_bergen_headers_on_a_constructed_deal():
    """The opening double (2), a double-header (2) and a triple-header (3), exactly."""
    game = api.load_game("house/bergen-headers")
    deal = api.Deal.of(["6-6 6-2 2-2 0-0 0-1 0-3 1-3", "6-4 4-2 1-1 1-5 3-3 3-5 5-5"],
                       leader=0)
    state = game.new_match(2, 0, deals=[deal])
    for move in ("6-6", "6-4 right", "6-2 left", "4-2 right", "2-2 left"):
        state.apply(move)
    scores = [(e["player"], e["side"], e["points"]) for e in state.record
              if e["event"] == "score"]
    assert scores == [(0, 0, 2), (1, 1, 2), (0, 0, 3)]
