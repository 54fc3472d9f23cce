"""Game records: writing, reading, and verify catching one planted fault at its line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dominorules import api, records

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def record(tmp_path):
    """A two-match pagat record (2 players) as a list of events, and where to write it."""
    game = api.load_game("pagat")
    events = api.play_match(game, 2, 3, trace=True).events
    events += api.play_match(game, 2, 4, trace=True).events
    return events, tmp_path / "rec.jsonl"


def write(path, events):
    records.write_records(str(path), events)
    return str(path)


def first(events, kind, pred=lambda e: True):
    return next(i for i, e in enumerate(events) if e["event"] == kind and pred(e))


def verify(path):
    return [(d.line, d.message) for d in records.verify_file(path)]


def test_every_line_is_one_compact_event_and_reads_back(record):
    events, path = record
    write(path, events)
    lines = path.read_text().splitlines()
    assert len(lines) == len(events) and json.loads(lines[0]) == events[0]
    assert [e for _, e in records.read_records(str(path))] == events
    assert verify(str(path)) == []


def test_a_wrong_draw_is_reported_with_the_tile_that_should_come(record):
    events, path = record
    i = first(events, "draw")
    right = events[i]["tile"]
    events[i] = {**events[i], "tile": [6, 6] if right != [6, 6] else [0, 0]}
    assert verify(write(path, events)) == [
        (i + 1, f"player {events[i]['player']} draws {events[i]['tile']} but the "
                f"boneyard's first tile is {right}")]


def test_an_illegal_pass_is_reported_with_the_rule(record):
    events, path = record
    i = first(events, "place", lambda e: e["end"] is not None)
    player = events[i]["player"]
    events[i] = {"event": "pass", "player": player}
    (line, message), = verify(write(path, events))
    assert line == i + 1
    assert message.startswith(f"player {player} may not pass: you hold a playable tile (")


def test_a_misplaced_tile_is_reported(record):
    events, path = record
    ends, i = None, None
    for j, e in enumerate(events):           # the first left placement that misfits the right
        if e["event"] == "deal":
            ends = None
        elif e["event"] == "place":
            if ends is None:
                ends = list(e["tile"])
                continue
            k = 0 if e["end"] == "left" else 1
            if k == 0 and ends[1] not in e["tile"]:
                i = j
                break
            ends[k] = sum(e["tile"]) - ends[k]
    e = events[i]
    events[i] = {**e, "end": "right"}
    (line, message), = verify(write(path, events))
    assert line == i + 1
    assert message.startswith(f"player {e['player']} may not place ")
    assert "at the right end: " in message and "does not match the right end" in message


def test_a_wrong_score_is_reported(record):
    events, path = record
    i = first(events, "round_end")
    good = events[i]["points"]
    events[i] = {**events[i], "points": [good[0] + 1, good[1]]}
    assert verify(write(path, events)) == [
        (i + 1, f"round 1: round_end points should be {good}, not {events[i]['points']}")]


def test_a_tile_placed_by_the_wrong_player(record):
    events, path = record
    i = first(events, "place", lambda e: e["end"] is not None)
    right = events[i]["player"]
    events[i] = {**events[i], "player": 1 - right}
    assert verify(write(path, events)) == [
        (i + 1, f"it is player {right}'s turn, not player {1 - right}'s")]


def test_a_truncated_record_and_bad_lines(record, tmp_path):
    events, path = record
    cut = first(events, "round_end")
    assert verify(write(path, events[:cut])) == [
        (cut, "the record ends before the match is over")]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"event": "match_start"}\n')
    assert verify(str(bad)) == [(1, "match_start lacks ruleset, players, teams, seed")]
    bad.write_text('{"event": "nope"}\n')
    assert verify(str(bad))[0][1].startswith("unknown event 'nope'")
    bad.write_text("{oops\n")
    assert verify(str(bad))[0][0] == 1


def test_a_redeal_that_the_rules_do_not_call_for(tmp_path):
    events = api.play_match(api.load_game("hoyle"), 2, 9, trace=True).events
    i = first(events, "deal")
    events.insert(i, {**events[i], "leader": None})      # claim a redeal of a good deal
    path = write(tmp_path / "r.jsonl", events)
    (line, message), = verify(path)
    assert line == i + 1
    assert message == (f"round 1: this deal can be opened (seat {events[i + 1]['leader']} "
                       "leads); it is not redealt")


def test_a_record_of_a_ruleset_file_finds_the_file_again(tmp_path):
    source = tmp_path / "mine.yaml"
    source.write_text("name: mine\nextends: pagat\ndeal:\n  hand_size: 5\n")
    game = api.load_game(str(source))
    events = api.play_match(game, 3, 1, trace=True).events
    assert events[0]["ruleset"] == "mine" and events[0]["source"] == str(source)
    path = write(tmp_path / "m.jsonl", events)
    assert verify(path) == []


def test_cli_verify_exit_codes(record):
    events, path = record
    write(path, events)
    ok = subprocess.run([sys.executable, str(ROOT / "cli.py"), "verify", str(path)],
                        capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0 and ok.stdout.strip() == f"{path}: ok"
    i = first(events, "round_end")
    events[i] = {**events[i], "scores": [-1, -1]}
    write(path, events)
    bad = subprocess.run([sys.executable, str(ROOT / "cli.py"), "verify", str(path)],
                         capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 1
    assert bad.stderr.startswith(f"{path}:{i + 1}: round 1: round_end ")


def test_events_after_the_match_end_and_a_round_end_too_early(record):
    events, path = record
    end = first(events, "match_end")
    extra = events[:end + 1] + [events[end]]
    assert verify(write(path, extra)) == [(end + 2, "the match is over; match_end is not allowed")]
    i = first(events, "place", lambda e: e["end"] is not None)
    early = events[:i] + [{"event": "round_end", "round": 1, "result": "blocked", "winner": None,
                           "pips": [0, 0], "points": [0, 0], "scores": [0, 0]}] + events[i:]
    (line, message), = verify(write(path, early))
    assert line == i + 1
    assert message == f"round_end comes too early: player {events[i]['player']} is still to act"


def test_a_record_that_stops_early_has_its_own_code_only_when_its_last_match_does(record):
    events, path = record
    second = first(events, "match_start", lambda e: e["seed"] != events[0]["seed"])
    cut = second + 5  # the second (last) match stops after a few events
    problems = records.verify_file(write(path, events[:cut]))
    assert [(d.code, d.line, d.message) for d in problems] == [
        (records.TRUNCATED, cut, "the record ends before the match is over")]
    # the first match stopping early, another after it: a broken record, not a quit one
    problems = records.verify_file(write(path, events[:5] + events[second:]))
    assert [(d.code, d.line, d.message) for d in problems] == [
        ("record", 5, "the record ends before the match is over")]


@pytest.mark.parametrize("line, message", [
    (b'{"event":"draw"}\n', ":1: draw lacks player, tile"),
    (b'{"event":["deal"]}\n', ":1: unknown event ['deal']: expected one of match_start, deal, "
                              "draw, place, pass, round_end, score, set, duty, duty_met, "
                              "duty_failed, extra_turn, out, turn_up, skip, declare, claim, "
                              "penalty, match_end"),
    (b'{"event":"match_start","ruleset":"pagat","players":"two","teams":[[0],[1]],"seed":1}\n',
     ':1: match_start players must be a whole number, not "two"'),
    (b'{"event":"match_start","ruleset":["x"],"players":2,"teams":[[0],[1]],"seed":1}\n',
     ':1: match_start ruleset must be a ruleset name or file, not ["x"]'),
    (b'\x00\xff garbage\n', ": {path} is a binary file, not a JSON Lines game record"),
])
def test_malformed_lines_are_one_diagnostic_not_an_exception(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(line)
    problems = records.verify_file(str(path))
    assert [f"{d.file}:{d.line}: {d.message}" if d.line else f"{d.file}: {d.message}"
            for d in problems] == [f"{path}" + message.format(path=path)]


def test_a_drawn_tile_that_is_not_a_tile_is_a_mismatch(record):
    events, path = record
    k = first(events, "draw")
    events[k] = {**events[k], "tile": [0, "a"]}
    [(line, message)] = verify(write(path, events))
    assert line == k + 1 and message.startswith(f"player {events[k]['player']} draws [0, 'a']")


def test_a_record_whose_ruleset_file_moved_names_the_missing_file(tmp_path):
    """It was checked against the builtin of the same name instead ('player 1 may not
    pass'), a different ruleset."""
    import json

    from dominorules.records import verify_file

    mine = tmp_path / "pagat.yaml"       # a user's own variant, named as the builtin
    mine.write_text("extends: pagat\ndrawing:\n  when_stuck: pass\n")
    record = tmp_path / "r.jsonl"
    events = api.play_match(api.load_game(str(mine)), 2, 3, trace=True).events
    record.write_text("".join(json.dumps(e) + "\n" for e in events))
    assert verify_file(str(record)) == []
    mine.unlink()
    problems = verify_file(str(record))
    assert [p.message for p in problems] == [
        f"ruleset 'pagat': cannot read {mine}: no such file (the record was played with "
        "that file: put it back, or correct its source)"]
