"""House-rule events at the table and in replay: scores during play, extra turns, skips, arms."""

from __future__ import annotations

import json
from pathlib import Path

from dominorules import api
from dominorules.play import PlaySettings, ScriptedTerminal, play
from dominorules.play.render import Seating, arms_view, event_text
from dominorules.play.replay import Replayer, rule_titles
from dominorules.play.timeline import snapshots

HOUSE = str(Path(__file__).resolve().parent / "rulesets" / "house" / "fives-spinner.yaml")
SEATING = Seating(((0,), (1,), (2,)), ("", "", ""))
TITLES = ("Fives at the ends", "", "")


def test_score_extra_turn_and_skip_read_as_sentences():
    score = {"event": "score", "player": 1, "side": 1, "points": 10, "rule": 0}
    assert event_text(score, SEATING, rule_titles=TITLES) == "Seat 1 scores 10 (Fives at the ends)"
    untitled = dict(score, rule=1)
    assert event_text(untitled, SEATING, rule_titles=TITLES) == "Seat 1 scores 10 (event rule 2)"
    assert event_text({"event": "extra_turn", "player": 0}, SEATING) == "Seat 0 plays again"
    assert event_text({"event": "skip", "player": 2}, SEATING) == "Seat 2 is skipped"
    up = {"event": "place", "player": 1, "tile": [5, 6], "end": "up"}
    assert event_text(up, SEATING) == "Seat 1 plays 6-5 on the up arm"


def test_arms_are_drawn_from_the_spinner_out_with_their_open_ends():
    assert arms_view((((6, 5), (5, 2)), ()), (2, 6)).plain == (
        "  up arm from the spinner 6-6: 6-5 5-2 ▶ 2 up\n"
        "down arm from the spinner 6-6: (empty) ▶ 6 down")


def record(seed: int = 1):
    return api.play_match(api.load_game(HOUSE), 3, seed, trace=True).events


def test_replay_timeline_keeps_arms_and_adds_play_points_to_the_scores():
    events = record()
    steps = snapshots(events)
    for event, snap in zip(events, steps, strict=True):
        if event["event"] == "round_end":
            before = steps[snap.index - 1].scores
            assert [b + p for b, p in zip(before, event["points"], strict=True)] == \
                list(event["scores"])                   # play points already counted
    first_up = next(s for s in steps if s.event.get("end") == "up")
    spinner = first_up.spinner
    assert first_up.arms[0][0][0] == spinner and first_up.ends[2] == first_up.arms[0][-1][1]
    assert all(s.event.get("end") not in ("up", "down") or
               Tile_in(s.event["tile"], s.arms[0] + s.arms[1]) for s in steps)


def Tile_in(tile, arm):  # noqa: N802 - reads as a predicate
    return any(sorted(t) == sorted(tile) for t in arm)


def test_replay_names_the_scoring_rule(tmp_path):
    events = record()
    path = tmp_path / "h.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    assert rule_titles(events) == TITLES
    steps = snapshots(events)
    score = next(i for i, e in enumerate(events) if e["event"] == "score") + 1
    up = next(i for i, e in enumerate(events) if e.get("end") == "up") + 1
    term = ScriptedTerminal([str(score), "q"])
    Replayer(steps, term, titles=TITLES).run()
    assert "(Fives at the ends)" in term.text and "arm from the spinner" not in term.text
    term = ScriptedTerminal([str(up), "q"])
    Replayer(steps, term, titles=TITLES).run()
    assert "on the up arm" in term.text and "up arm from the spinner" in term.text


def test_the_table_tells_house_rule_events_as_they_happen(tmp_path):
    trace = tmp_path / "t.jsonl"
    term = ScriptedTerminal(["1"] * 2000)
    assert play(PlaySettings(HOUSE, players=3, seed=4, fast=True, trace=str(trace)), term) == 0
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    for e in events:
        if e["event"] == "extra_turn":
            assert f"Seat {e['player']}" in term.text
    kinds = {e["event"] for e in events}
    if "score" in kinds:
        assert "(Fives at the ends)" in term.text
    if "extra_turn" in kinds:
        assert " plays again" in term.text
    if "skip" in kinds:
        assert " is skipped" in term.text
    assert "score" in kinds and "extra_turn" in kinds


def test_a_move_on_an_arm_is_typed_with_its_name():
    from dominorules.engine.actions import Action
    from dominorules.play.commands import interpret

    game = api.load_game(HOUSE)
    state = game.new_match(3, seed=1)
    while not any(a.kind == "place" and "up" in str(a) for a in state.legal_actions()):
        state.apply(state.legal_actions()[0])
    move = next(a for a in state.legal_actions() if a.kind == "place" and "up" in str(a))
    typed = f"{move.tile} up"
    assert interpret(typed, state) == move and isinstance(move, Action)


def test_a_hint_for_a_spinner_arm_reads_the_end_it_names(tmp_path):
    """``why`` finds the value a placement leaves by the end's name: on the up arm it is
    the up end's, not the right end's (it read the right end for anything but left)."""
    from dominorules.engine.actions import Action
    from dominorules.play.hint import why

    path = tmp_path / "spinner.yaml"
    path.write_text("title: A spinner\nextends: pagat\nboard: {spinner: first_double}\n")
    deal = api.Deal.of(["5-5 5-1 4-4", "5-2 3-5 3-3 0-0"], "6-0 6-1 6-2 6-3", 0)
    state = api.load_game(str(path)).new_match(2, 0, deals=[deal])
    for move in ("5-5", "5-2 left", "5-1 right"):
        state.apply(move)
    obs = state.observation(1)
    assert obs.ends == (2, 1, 5, 5)
    text = why(obs, state.legal_actions(), Action.place("5-3", "up"))
    assert "it leaves a 3 open and you hold 1 more tile with a 3" in text


def test_the_replay_shows_the_ends_the_board_has(tmp_path):
    """The timeline's ends are the board's own: a spinner's up and down open once both
    its sides are played on (not only once an arm is used), as the players saw them; the
    same moves without a spinner leave two ends."""
    path = tmp_path / "spinner.yaml"
    path.write_text("title: A spinner\nextends: pagat\nboard: {spinner: first_double}\n")
    deal = api.Deal.of(["5-5 5-1 4-4", "5-2 3-5 3-3 0-0"], "6-0 6-1 6-2 6-3", 0)
    for ruleset, ends in ((str(path), (2, 1, 5, 5)), ("pagat", (2, 1))):
        state = api.load_game(ruleset).new_match(2, 0, deals=[deal])
        for move in ("5-5", "5-2 left", "5-1 right"):
            state.apply(move)
        assert state.observation(0).ends == ends
        assert snapshots(state.record)[-1].ends == ends
