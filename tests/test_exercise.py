"""validate's warning when random bots never exercise a rule (``dominorules.exercise``):
an event that never applies in the sample matches, a duty laid and never met, at the
field's file:line:col; what a record tells of each rule; no sample for a ruleset with
nothing to judge."""

from __future__ import annotations

from collections import Counter

from click.testing import CliRunner

from dominorules import api
from dominorules.cli import main
from dominorules.exercise import exercise_warnings, judges, tally
from dominorules.rules import merged_ruleset

LATE = """title: late
extends: pagat
events:
  - title: A late bonus
    after: place
    if: "round > 40"
    points: 5
"""
NEVER_MET = """title: never met
extends: pagat
events:
  - after: place
    if: "tile.is_double and not opening"
    duty:
      met: "tile == duty_tile and boneyard > 100"
      fail_draws: 1
      lasts: one_turn
"""


def test_an_event_that_never_applies_is_warned_at_its_if(tmp_path):
    path = tmp_path / "late.yaml"
    path.write_text(LATE, encoding="utf-8")
    out = CliRunner().invoke(main, ["validate", str(path)])
    assert (out.exit_code, out.stdout) == (0, f"ok: {path}\n")
    assert out.stderr.splitlines()[0] == (
        f"{path}:6:9: warning: events[0] (A late bonus) never applied in 8 sample matches "
        "of random bots (4 with 2 players and 4 with 4 players): it scored, set, laid or drew "
        "nothing [events[0].if]")


def test_a_duty_laid_and_never_met_is_warned_at_its_met(tmp_path):
    path = tmp_path / "never.yaml"
    path.write_text(NEVER_MET, encoding="utf-8")
    data, marks = merged_ruleset(str(path))
    found = exercise_warnings(api.load_game(str(path)), data, marks)
    assert len(found) == 1 and found[0].severity == "warning"
    assert (found[0].line, found[0].column, found[0].path) == (7, 12, "events[0].duty.met")
    assert "its duty was laid" in found[0].message and "never met" in found[0].message


def test_the_record_tells_what_each_rule_did():
    events = [{"event": "score", "player": 0, "side": 0, "points": 5, "rule": 1},
              {"event": "duty", "player": 1, "rule": 0, "tile": [3, 3]},
              {"event": "duty_met", "player": 1, "rule": 0},
              {"event": "declare", "player": 0, "declaration": "setter", "option": "me"},
              {"event": "place", "player": 0, "tile": [1, 6], "end": "left", "part": [1, 2]},
              {"event": "place", "player": 0, "tile": [1, 1], "end": "right", "part": [2, 2]},
              {"event": "draw", "player": 1, "tile": [0, 0]},
              {"event": "pass", "player": 1}]
    assert tally(events) == {("rule", 1): 1, ("rule", 0): 1, ("laid", 0): 1, ("met", 0): 1,
                             ("asked", "setter"): 1, ("took", "setter", "me"): 1,
                             ("several",): 1, ("pass",): 1}


def test_a_declaration_never_asked_is_warned_at_it():
    data, marks = merged_ruleset("house/partner-sets")
    data = {**data, "declarations": [{**data["declarations"][0], "name": "ghost"}]}
    found = exercise_warnings(api.load_game("house/partner-sets"), data, marks)
    assert [d.path for d in found] == ["declarations[0]"]
    assert "declaration 'ghost' was never asked" in found[0].message
    assert found[0].file.endswith("partner-sets.yaml") and found[0].line == 21


def test_an_option_never_taken_is_warned_at_it():
    data, marks = merged_ruleset("house/partner-sets")
    decl = data["declarations"][0]
    renamed = [decl["options"][0], {**decl["options"][1], "name": "ghost"}]
    data = {**data, "declarations": [{**decl, "options": renamed}]}
    found = exercise_warnings(api.load_game("house/partner-sets"), data, marks)
    assert [(d.path, d.line, d.column) for d in found] == [
        ("declarations[0].options[1]", 29, 9)]
    assert found[0].message == (
        "declaration 'setter': its option 'ghost' was never taken in 4 sample matches of "
        "random bots (4 with 4 players), though the declaration was asked 16 times")


def test_markers_nobody_puts_down_are_warned_at_markers(monkeypatch):
    import dominorules.exercise as exercise

    data, marks = merged_ruleset("house/mexican-train")
    game = api.load_game("house/mexican-train")
    real = exercise.tally
    monkeypatch.setattr(exercise, "SAMPLE_MATCHES", 1)   # a train game's sample is the slow part
    monkeypatch.setattr(exercise, "tally", lambda events: Counter(
        {k: v for k, v in real(events).items() if k != ("pass",)}))
    found = exercise_warnings(game, data, marks)
    assert [(d.path, d.line, d.column) for d in found] == [("board.layout.markers", 71, 14)]
    assert "no marker was ever put down" in found[0].message


def test_nothing_to_judge_plays_no_sample():
    data, _ = merged_ruleset("pagat")
    assert not judges(data)
    data, _ = merged_ruleset("house/doubles-play-again")   # again writes no rule number
    assert not judges(data)
