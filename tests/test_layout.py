"""Board shapes (``board.layout``, ``engine.mechanisms.layout``): the one rule of where a
tile may go, as the match loop, the rulebook, examples, records, bots, the rule sheet and
the terminal table all ask it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

from dominorules import api, records
from dominorules.diagnostics import DiagnosticError
from dominorules.engine.actions import Action, IllegalActionError
from dominorules.engine.mechanisms.layout import Layout, Shape
from dominorules.engine.state import State
from dominorules.kernel.generate import covers, kernel_for
from dominorules.kernel.jit_kernel import jit_reason
from dominorules.play.render import Seating, table_view
from dominorules.play.timeline import snapshots
from dominorules.rules import check_ruleset, load_ruleset
from dominorules.rules.describe import rule_sheet

ROOT = Path(__file__).resolve().parent.parent
SHAPED = ("chicken-foot", "sebastopol", "every-double-spins", "one-train")
ARM = re.compile(r"^\d-\d/\d$")
CHICKEN = Shape(spins="every_double", sides=3, opening_sides=6, through=False,
                arms_open="at_once", answer_first=True)


# -- the mechanism ---------------------------------------------------------------------------

def test_a_chicken_foot_is_answered_before_any_other_end():
    board = Layout(CHICKEN)
    board.place((9, 9), None)
    assert board.open_ends() == [f"9-9/{k}" for k in range(1, 7)]
    for k, other in enumerate((1, 2, 3, 4, 5, 6), 1):
        board.place((other, 9), f"9-9/{k}")
    assert board.playable() == [(f"9-9/{k}", k) for k in range(1, 7)]
    board.place((1, 1), "9-9/1")          # the double ends arm 1 and grows its own foot
    assert board.playable() == [("1-1/1", 1), ("1-1/2", 1), ("1-1/3", 1)]
    assert "9-9/1" not in board.ends and board.ends_fitting((2, 4)) == []
    assert "must be covered" in board.why_not((2, 4), "9-9/2")
    board.place((1, 5), "1-1/2")
    assert board.playable() == [("1-1/1", 1), ("1-1/3", 1)]
    assert not board.spinners_complete() and board.doubles_down() == 2
    board.place((1, 0), "1-1/1")
    board.place((1, 8), "1-1/3")
    assert board.spinners_complete() and len(board.playable()) == 8
    # arms count once covered: 2+3+4+5+6 on the 9-9's toes, 0+5+8 on the 1-1's
    assert board.end_total() == 20 + 13


def test_a_spinner_in_the_line_opens_its_arms_once_both_sides_are_played_on():
    board = Layout(Shape(spins="first_double"))
    board.place((2, 5), None)
    board.place((5, 5), "right")          # the first double, at an end: its far side waits
    assert board.open_ends() == ["left", "right"]
    board.place((5, 3), "right")
    assert board.open_ends() == ["left", "right", "5-5/1", "5-5/2"]
    assert board.end_total() == 2 + 3     # the new arms count nothing until covered
    board.place((2, 2), "left")
    assert board.open_ends() == ["left", "right", "5-5/1", "5-5/2"]   # only the first spins


def test_a_named_tile_spins_and_a_one_end_line_grows_rightwards():
    board = Layout(Shape(ends=1, spins=(6, 6), sides=3, arms_open="at_once"))
    board.place((3, 6), None)
    assert board.open_ends() == ["right"] and board.values() == [6]
    assert board.why_not((3, 4), "left") == "the line grows at its right end only"
    board.place((6, 6), "right")
    assert board.open_ends() == ["right", "6-6/1", "6-6/2", "6-6/3"]
    board.place((4, 4), "right")          # not the named tile: lies in the line
    assert board.open_ends() == ["right", "6-6/1", "6-6/2", "6-6/3"]


# -- the loop, the rulebook and the records -------------------------------------------------

def _record(tmp_path, name: str, players: int, seed: int, bots="random"):
    result = api.play_match(api.load_game(f"house/{name}"), players, seed, bots=bots,
                            trace=True)
    path = tmp_path / f"{name}-{players}-{seed}.jsonl"
    records.write_records(str(path), result.events)
    return result, path


@pytest.mark.parametrize("name, players", [("chicken-foot", 3), ("sebastopol", 4),
                                           ("every-double-spins", 2), ("one-train", 3)])
def test_shaped_matches_conserve_tiles_name_their_arms_and_verify_both_ways(
        tmp_path, name, players):
    game = api.load_game(f"house/{name}")
    result, path = _record(tmp_path, name, players, 2)
    schema = jsonschema.Draft202012Validator(
        json.loads((ROOT / "schemas" / "trace.schema.json").read_text()))
    full = sorted((t.low, t.high) for t in game.tileset.tiles)
    board: list = []
    for e in result.events:
        schema.validate(e)
        if e["event"] == "deal":
            hands, bone, board = ([sorted(map(tuple, h)) for h in e["hands"]],
                                  [tuple(t) for t in e["boneyard"]], [])
        elif e["event"] == "draw":
            assert tuple(e["tile"]) == bone.pop(0)
            hands[e["player"]].append(tuple(e["tile"]))
        elif e["event"] == "place":
            hands[e["player"]].remove(tuple(e["tile"]))
            board.append(tuple(e["tile"]))
            assert e["end"] in (None, "left", "right") or ARM.match(e["end"]), e
        elif e["event"] == "round_end":
            assert sorted([t for h in hands for t in h] + bone + board) == full
    assert records.verify_file(str(path)) == []
    assert records.check_file_strict(str(path)) == []
    again = api.play_match(game, players, 2, trace=True)
    assert again.events == result.events, "the same seed gives the same record"


def _plant(path: Path, change) -> Path:
    events = [json.loads(line) for line in path.read_text().splitlines()]
    change(events)
    out = path.with_name("planted.jsonl")
    out.write_text("".join(json.dumps(e) + "\n" for e in events))
    return out


def test_a_tile_played_elsewhere_before_a_foot_is_answered_is_refused_by_both(tmp_path):
    result, path = _record(tmp_path, "chicken-foot", 3, 1)
    events = result.events
    at = next(i for i, e in enumerate(events) if e["event"] == "place" and e["end"]
              and e["tile"][0] == e["tile"][1])
    after = next(i for i in range(at + 1, len(events)) if events[i]["event"] == "place")
    foot = events[at]["tile"][0]

    def elsewhere(evs):
        evs[after]["end"] = "9-9/6" if events[at]["end"] != "9-9/6" else "9-9/5"
    planted = _plant(path, elsewhere)
    engine = records.verify_file(str(planted))
    assert len(engine) == 1 and f"every arm of the {foot}-{foot} must be covered" in \
        engine[0].message
    assert records.check_file_strict(str(planted)) != []

    def nowhere(evs):
        evs[after]["end"] = "8-8/9"
    assert "not an open end" in records.verify_file(str(_plant(path, nowhere)))[0].message


def test_state_lists_every_arm_and_explains_a_refused_one_in_the_rules_words():
    game = api.load_game("house/sebastopol")
    state = State(game, 4, 3)
    state.apply(state.legal_actions()[0])          # the 6-6 by its holder
    legal = state.legal_actions()
    places = [a for a in legal if a.kind == "place"]
    assert places and {a.end for a in places} <= {f"6-6/{k}" for k in range(1, 5)}
    assert len(places) == 4 * len({a.tile for a in places})   # every six fits all four
    tile = places[0].tile
    state.apply(Action.place(tile, "6-6/2"))
    nxt = [a for a in state.legal_actions() if a.kind == "place"]
    assert all(a.end != "6-6/2" for a in nxt)
    held = state.hand(state.current_player)[0]
    with pytest.raises(IllegalActionError, match="every arm of the 6-6 must be covered before "
                       r"a tile goes anywhere else \(6-6/1, 6-6/3, 6-6/4 still open\)"):
        state.apply(Action.place(held, "6-6/2"))


# -- what refuses the shapes, and what falls back ---------------------------------------------

def test_the_python_kernel_refuses_a_shaped_board_with_a_reason_and_the_bots_still_play(
        tmp_path):
    """The generated Python kernel leaves a shaped board to the general loop (the JIT plays
    it: tests/test_kernel_jit_layout.py)."""
    game = api.load_game("house/chicken-foot")
    assert not covers(game)
    assert jit_reason(game, 3, need_numba=False) is None
    with pytest.raises(DiagnosticError, match="board.layout"):
        kernel_for(game, 3)
    for bots in ("greedy", "strategist", ["expert:playouts=2", "random", "greedy"]):
        _, path = _record(tmp_path, "chicken-foot", 3, 4, bots)
        assert records.verify_file(str(path)) == []
    state = State(game, 3, 4)
    while not any(a.kind == "place" and "/" in (a.end or "") for a in state.legal_actions()):
        state.apply(state.legal_actions()[0])
    import random

    from dominorules.bots.strategist import StrategistBot
    seat = state.current_player
    action, why = StrategistBot(seat, random.Random(1)).explain(
        state.observation(seat), state.legal_actions())
    assert action in state.legal_actions() and "board.layout" in why


def test_a_plain_ruleset_plays_exactly_as_before():
    """The layout costs nothing when absent: the spinner keeps its own board and names."""
    game = api.load_game("house/spinner")
    assert game.rules.layout is None and covers(game)
    events = api.play_match(game, 3, 5, trace=True, engine="loop").events
    assert {e["end"] for e in events if e["event"] == "place"} <= {
        None, "left", "right", "up", "down"}
    assert events == api.play_match(game, 3, 5, trace=True).events


# -- validate, the rule sheet, the table ----------------------------------------------------

def test_validate_names_the_line_and_column_of_a_bad_layout(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("title: bad\ndescription: bad\nsource: a test\nextends: pagat\n"
                    "board:\n  spinner: first_double\n  layout:\n    spins: \"[6|5]\"\n"
                    "    opening_sides: 3\n    sides: 9\n")
    found = {d.path: (d.line, d.column, d.message) for d in check_ruleset(str(path))}
    assert found["board.spinner"][:2] == (6, 12)
    assert "not a double" in found["board.layout.spins"][2]
    assert found["board.layout.opening_sides"][0] == 9
    assert "at most 8" in found["board.layout.sides"][2]


def test_an_example_board_that_breaks_the_layout_is_reported(tmp_path):
    text = (ROOT / "rulesets" / "house" / "chicken-foot.yaml").read_text()
    text = text.replace('board: ["9-9", "9-4 9-9/1", "9-8 9-9/2"]',
                        'board: ["9-9", "9-4 9-9/1", "4-2 9-9/1", "9-8 9-9/2"]')
    path = tmp_path / "cf.yaml"
    path.write_text(text.replace("extends: pagat", "extends: pagat\nname: cf"))
    problems = [d.message for d in check_ruleset(str(path))]
    assert any("board[2] '4-2 9-9/1' cannot be placed: every arm of the 9-9 must be "
               "covered" in m for m in problems), problems


@pytest.mark.parametrize("name", SHAPED)
def test_every_shaped_house_file_is_clean_and_says_its_shape(name):
    assert check_ruleset(f"house/{name}") == []
    text = rule_sheet(load_ruleset(f"house/{name}")).rule("board.layout").text
    assert ("grows at one end only" in text) == (name == "one-train")
    assert ("must have a tile on it before" in text) == (name in ("chicken-foot", "sebastopol"))


def test_the_table_draws_every_arm_within_80_columns(tmp_path):
    game = api.load_game("house/chicken-foot")
    result, _ = _record(tmp_path, "chicken-foot", 2, 6)
    console = Console(width=80, record=True, force_terminal=False)
    from dominorules.play.render import snapshot_view
    seating = Seating(game.teams(2), ("you", "random"))
    for snap in snapshots(result.events[:200], shape=game.rules.layout)[::20]:
        console.print(snapshot_view(snap, seating, snap.index, 200, 80))
    state = State(game, 2, 6)
    for _ in range(40):
        state.apply(state.legal_actions()[0])
    console.print(table_view(state.observation(state.current_player), seating,
                             state.legal_actions(), 80))
    screen = console.export_text()
    assert max(len(line) for line in screen.splitlines()) <= 80
    assert re.search(r"^  9-9/1  9-\d", screen, re.M) and "▶" in screen


# -- placement rules that know the board -----------------------------------------------------

WAITING = """\
title: No double while a spinner waits
description: a test
source: a test
extends: pagat
board:
  layout:
    spins: first_double
    sides: 2
play:
  restrictions:
    - allow: "spinners_complete or not tile.is_double"
      explain: "no double may be played while a spinner waits for its sides"
    - allow: "arm != 2 or doubles_down < 3"
      explain: "arm 2 closes once three doubles are down"
"""


def test_placement_rules_read_the_arm_the_spinners_and_the_doubles_down(tmp_path):
    path = tmp_path / "waiting.yaml"
    path.write_text(WAITING)
    game = api.load_game(str(path))
    from dominorules.engine import positions
    from dominorules.engine.tiles import parse_tiles

    def legal(board, hand):
        data = {"board": board, "hands": [hand, "6-6"], "boneyard": 2, "turn": 0}
        return sorted(map(str, positions.legal(game, data, [parse_tiles(hand),
                                                            parse_tiles("6-6")])))
    assert legal(["5-5", "5-2 left"], "5-3 2-2") == ["5-3 right"]
    assert legal(["5-5", "5-2 left", "5-3 right"], "5-1 2-2") == [
        "2-2 left", "5-1 5-5/1", "5-1 5-5/2"]
    three = ["5-5", "5-2 left", "5-3 right", "2-2 left", "3-3 right"]
    assert legal(three, "5-1") == ["5-1 5-5/1"]          # arm 2 closed by the third double
    for seed in (1, 2):
        result = api.play_match(game, 3, seed, trace=True)
        out = tmp_path / f"{seed}.jsonl"
        records.write_records(str(out), result.events)
        assert records.verify_file(str(out)) == [] and records.check_file_strict(str(out)) == []


def test_board_names_on_a_line_without_a_layout_are_refused_where_written(tmp_path):
    path = tmp_path / "line.yaml"
    path.write_text(WAITING.replace("board:\n  layout:\n    spins: first_double\n"
                                    "    sides: 2\n", ""))
    found = [d for d in check_ruleset(str(path)) if d.path.startswith("play.restrictions")]
    assert [(d.path, d.line, d.column) for d in found] == [
        ("play.restrictions[0].allow", 7, 14), ("play.restrictions[1].allow", 9, 14)]
    assert "spinners_complete is known on a shaped board only" in found[0].message
    assert "arm, doubles_down are known" in found[1].message


# -- play at the terminal ---------------------------------------------------------------------

def test_play_draws_the_arms_in_80_columns_explains_a_refused_arm_and_takes_one_by_name(
        tmp_path):
    import os
    import sys

    import pexpect
    from children import default_sigint

    env = {**os.environ, "TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "80", "LINES": "50"}
    trace = tmp_path / "match.jsonl"
    child = pexpect.spawn(sys.executable, [str(ROOT / "cli.py"), "play", "house/sebastopol",
                                           "--bots", "random", "--seed", "5", "--fast",
                                           "--trace", str(trace)],
                          cwd=str(ROOT), env=env, dimensions=(50, 80), encoding="utf-8",
                          timeout=30, preexec_fn=default_sigint)
    child.delaybeforesend = None
    # seed 5: seat 2 sets the 6-6, seat 3 starts arm 3, then seat 0 is to play
    child.expect(r"Seat 0 > ")
    screen = child.before
    moves = re.findall(r"\d+\) (\S+ 6-6/\d)", screen.split("Moves:")[-1])
    assert moves and {m.split()[1] for m in moves} <= {"6-6/1", "6-6/2", "6-6/4"}
    tile, end = moves[0].split()
    child.sendline(f"{tile} 6-6/3")       # an arm already started, while three wait
    child.expect(r"Seat 0 > ")
    assert ("every arm of the 6-6 must be covered before a tile goes anywhere else "
            "(6-6/1, 6-6/2, 6-6/4 still open)") in " ".join(child.before.split())
    child.sendline(f"{tile} {end}")
    child.expect(r"plays \S+ on arm \d of the 6-6")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert re.search(r"^  6-6/3  6-\d ▶ \d", screen.replace("\r", ""), re.M)
    assert max(len(line.rstrip()) for line in screen.replace("\r", "").split("\n")) <= 80
    placed = [e for e in (json.loads(x) for x in trace.read_text().splitlines())
              if e["event"] == "place" and e["player"] == 0]
    assert placed[0]["end"] == end and sorted(placed[0]["tile"]) == sorted(
        int(x) for x in tile.split("-"))


FIVES_ON_ARMS = """\
title: Fives on every double's arms
description: a test
source: a test
extends: house/all-fives
board:
  layout:
    spins: every_double
    sides: 2
examples:
  - title: "Arms count once covered: 5-0 on the 5-5's arm 1 makes 2 + 3 + 0 = 5"
    kind: events
    players: 2
    board: ["5-5", "5-2 left", "5-3 right"]
    hands: ["5-0 1-2", "3-4"]
    boneyard: 10
    turn: 0
    action: "5-0 5-5/1"
    expect_points: [5, 0]
  - title: "A double at an arm's end counts both halves: 3-3 makes 4 + 0 + 6 = 10"
    kind: events
    players: 2
    board: ["5-5", "5-4 left", "5-0 right", "5-3 5-5/1"]
    hands: ["3-3 1-2", "3-4"]
    boneyard: 10
    turn: 0
    action: "3-3 5-5/1"
    expect_points: [10, 0]
"""


def test_events_examples_score_the_arms_of_a_shaped_board(tmp_path):
    """kind events on a shaped board: the action names its arm, end_total counts arms
    once covered and a double at an arm's end twice (all-fives' fives, every double
    spinning)."""
    path = tmp_path / "fives.yaml"
    path.write_text(FIVES_ON_ARMS)
    assert check_ruleset(str(path)) == []
    path.write_text(FIVES_ON_ARMS.replace("expect_points: [10, 0]", "expect_points: [11, 0]"))
    assert ["the rules give [10, 0]" in d.message for d in check_ruleset(str(path))] == [True]


def test_dead_arms_count_in_end_totals_and_never_take_a_tile(tmp_path):
    board = Layout(Shape(spins="first_double", arms_open="at_once", dead_arms=True))
    board.place((5, 5), None)
    board.place((5, 2), "left")
    assert board.open_ends() == ["left", "right"] and board.dead == {"5-5/1": 5, "5-5/2": 5}
    # the 5-5 still bare at the right end counts both halves, as a double at an end does
    assert board.end_total() == 2 + 10 + 10 and board.why_not((5, 0), "5-5/1")
    path = tmp_path / "dead.yaml"
    path.write_text((ROOT / "docs" / "house-rules.md").read_text().split(
        "```yaml\ntitle: Counted sides\n")[1].split("```")[0].join(
        ["title: Counted sides\ndescription: a test\nsource: a test\n", ""]))
    assert check_ruleset(str(path)) == []
    game = api.load_game(str(path))
    result = api.play_match(game, 3, 1, trace=True)
    assert not any(e["event"] == "place" and "/" in (e["end"] or "") for e in result.events)
    out = tmp_path / "dead.jsonl"
    records.write_records(str(out), result.events)
    assert records.verify_file(str(out)) == [] and records.check_file_strict(str(out)) == []
