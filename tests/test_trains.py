"""Boards of several lines (``board.layout.trains``, ``engine.mechanisms.layout``): each
seat's own train, the shared Mexican train, markers that open a stuck seat's train, and
a double that must be answered -- as the mechanism, the match loop, the rulebook, the
records, the rule sheet and the terminal table all have it (house/mexican-train)."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

from dominorules import api, records
from dominorules.engine.actions import Action, IllegalActionError
from dominorules.engine.game import Deal
from dominorules.engine.mechanisms.layout import Layout, Shape
from dominorules.engine.state import State
from dominorules.kernel.generate import covers
from dominorules.kernel.jit_kernel import jit_reason
from dominorules.play.render import Seating, table_view
from dominorules.rules import check_ruleset, load_ruleset
from dominorules.rules.describe import rule_sheet

ROOT = Path(__file__).resolve().parent.parent
NAME = "house/mexican-train"
TRAINS = Shape(trains=True, shared_train="mexican", markers=True, answer_doubles=True)
END = re.compile(r"^(train [0-7]|mexican)$")


# -- the mechanism ---------------------------------------------------------------------------

def test_a_seat_plays_on_its_own_train_the_shared_one_and_the_marked_ones():
    board = Layout(TRAINS, seats=3)
    board.place((12, 12), None)
    assert board.open_ends() == ["train 0", "train 1", "train 2", "mexican"]
    assert [n for n, _ in board.playable(1)] == ["train 1", "mexican"]
    assert "seat 2's own train" in board.why_not((12, 4), "train 2", seat=1)
    assert board.passed(2) and not board.passed(2)     # down once; no news the second time
    assert [n for n, _ in board.playable(1)] == ["train 1", "train 2", "mexican"]
    board.place((12, 4), "train 2", seat=1)            # another seat: the marker stays
    assert board.marked == {2}
    board.place((4, 6), "train 2", seat=2)             # its owner: the marker comes up
    assert board.marked == set() and board.playable(1) == [("train 1", 12), ("mexican", 12)]


def test_a_double_is_answered_before_anything_else_whoever_owns_its_train():
    board = Layout(TRAINS, seats=2)
    board.place((12, 12), None)
    board.place((12, 5), "train 0", seat=0)
    board.place((5, 5), "train 0", seat=0)
    assert board.playable(1) == [("train 0", 5)]       # seat 1 must cover seat 0's double
    assert "double on seat 0's train must be covered" in board.why_not((12, 3), "train 1", 1)
    board.place((5, 2), "train 0", seat=1)
    assert board.playable(1) == [("train 1", 12), ("mexican", 12)]
    assert board.marked == set()


def test_a_double_is_answered_on_a_plain_line_too(tmp_path):
    board = Layout(Shape(answer_doubles=True))
    board.place((5, 2), None)
    board.place((2, 2), "left")
    assert board.playable() == [("left", 2)]
    assert "double on the left end must be covered" in board.why_not((5, 6), "right")
    path = tmp_path / "answer.yaml"
    path.write_text("title: Answer doubles\ndescription: a test\nsource: a test\n"
                    "extends: pagat\nboard:\n  layout:\n    answer_doubles: true\n")
    assert check_ruleset(str(path)) == []
    text = rule_sheet(load_ruleset(str(path))).rule("board.layout").text
    assert "grows at both ends" in text and "must be covered (answered)" in text


def test_markers_do_nothing_unless_the_shape_has_them():
    board = Layout(Shape(trains=True), seats=2)
    board.place((9, 9), None)
    assert not board.passed(0) and [n for n, _ in board.playable(1)] == ["train 1"]


# -- a constructed deal: exact legal moves ----------------------------------------------------

def _deal() -> Deal:
    """Seat 0 holds the 12-12; the fillers carry no 12, 5, 3 or 4 (the numbers the trains
    show in the scene), so the legal moves are exactly the scene's."""
    keys = [["12-12", "12-5", "5-5", "3-1"], ["12-3", "5-4"], ["6-4"]]
    drawn = ["9-8", "10-9"]
    fill = [f"{a}-{b}" for a, b in itertools.combinations_with_replacement(
        (0, 1, 2, 6, 7, 8, 9, 10, 11), 2) if f"{b}-{a}" not in drawn and (a, b) != (1, 1)]
    hands = []
    for key in keys:
        hands.append(key + [fill.pop() for _ in range(15 - len(key))])
    return Deal.of([" ".join(h) for h in hands], " ".join(drawn), leader=0)


def _legal(state: State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def test_a_constructed_round_of_trains_markers_and_an_answered_double():
    state = State(api.load_game(NAME), 3, 0, deals=[_deal()])
    assert _legal(state) == ["12-12"]
    state.apply("12-12")                              # the station's holder plays first
    assert state.current_player == 0   # its first turn: a run on its own train too
    assert _legal(state) == ["12-5 train 0", "12-5 mexican", "12-5 train 0 + 5-5 train 0"]
    state.apply("12-5 train 0")
    assert _legal(state) == ["12-3 train 1", "12-3 mexican"]
    state.apply("12-3 mexican")
    assert _legal(state) == ["draw"]                  # seat 2: no 12 for its train, no 3
    state.apply("draw")                               # 9-8: no use
    assert _legal(state) == ["pass"]
    state.apply("pass")                               # seat 2's marker goes down
    # seat 0: its own train (5), the Mexican train (3), seat 2's marked train (12)
    assert _legal(state) == ["5-5 train 0", "3-1 mexican"]
    state.apply("5-5 train 0")
    assert state.current_player == 0 and _legal(state) == ["draw"]   # no 5 to answer it
    state.apply("draw")                               # 10-9
    state.apply("pass")                               # seat 0's marker goes down too
    assert _legal(state) == ["5-4 train 0"]           # seat 1 must answer the 5-5
    with pytest.raises(IllegalActionError, match="double on seat 0's train must be covered"):
        state.apply("5-4 mexican")
    state.apply("5-4 train 0")
    assert _legal(state) == ["6-4 train 0"]           # seat 2: only seat 0's marked train
    events = state.record
    assert [e["end"] for e in events if e["event"] == "place"] == [
        None, "train 0", "mexican", "train 0", "train 0"]


def test_a_first_turn_run_is_one_move_its_inner_double_answered_and_read_both_ways(tmp_path):
    """play.several move: chain (Mexican Train's first-turn run): one move of several
    tiles on the seat's own train, typed with `` + ``; the 5-5 inside it is answered by the
    tile after it, so it earns no extra turn; the record's parts verify both ways."""
    deal = _deal()
    hands = [list(h) for h in deal.hands]
    hands[0] = [t for t in hands[0] if str(t) != "3-1"] + [Action.parse("5-3").tile]
    game = api.load_game(NAME)
    state = State(game, 3, 0, deals=[Deal.of(hands, deal.boneyard, leader=0)])
    state.apply("12-12")
    assert [a for a in _legal(state) if "+" in a] == [
        "12-5 train 0 + 5-3 train 0", "12-5 train 0 + 5-5 train 0",
        "12-5 train 0 + 5-5 train 0 + 5-3 train 0"]
    with pytest.raises(IllegalActionError):
        state.apply("12-5 mexican + 5-3 mexican")   # a run goes on the seat's own train
    state.apply("12-5 train 0 + 5-5 train 0 + 5-3 train 0")
    assert state.current_player == 1                # the run's 5-5 earned no extra turn
    assert "+" not in " ".join(_legal(state))        # seat 1's first turn: no run to lay
    state.apply("12-3 train 1")
    assert state.current_player == 2
    parts = [(e["tile"], e.get("part")) for e in state.record if e["event"] == "place"]
    assert parts[1:4] == [([5, 12], [1, 3]), ([5, 5], [2, 3]), ([3, 5], [3, 3])]
    start = next(i for i, e in enumerate(state.record) if e.get("part") == [1, 3])
    assert not any(e["event"] == "extra_turn" for e in state.record[start:])
    while not state.is_terminal:   # the match played out, for a whole record
        state.apply(state.legal_actions()[0])
    path = tmp_path / "run.jsonl"
    records.write_records(str(path), state.record)
    assert records.verify_file(str(path)) == [] and records.check_file_strict(str(path)) == []
    # the rulebook does not take the lapse on trust: a planted extra turn is refused
    planted = _plant(path, lambda ev: ev.insert(next(
        i for i, e in enumerate(ev) if e.get("part") == [2, 3]) + 1,
        {"event": "extra_turn", "player": 0}))
    assert records.check_file_strict(str(planted)) != []


def test_a_chain_walks_one_end_tile_on_tile_up_to_most():
    """mechanisms.several.moves, move: chain: every run of two or more on one end."""
    from dominorules.engine.mechanisms.several import SeveralRule, moves
    steps = lambda pos, end: [((t, end), pos | {t}) for t in "abc" if t not in pos]  # noqa
    rule = SeveralRule(3, None, None, "", chain=True)
    found = moves(rule, ["x"], frozenset(), steps)
    assert len(found) == 6 + 6 and all(len(m) in (2, 3) for m in found)   # 3*2 + 3*2*1
    assert found[:2] == [(("a", "x"), ("b", "x")), (("a", "x"), ("b", "x"), ("c", "x"))]
    assert len(moves(rule._replace(most=2), ["x", "y"], frozenset(), steps)) == 12


def test_validate_lifts_the_shaped_board_refusal_for_a_chain_only(tmp_path):
    chain = tmp_path / "chain.yaml"
    chain.write_text("title: t\nextends: house/mexican-train\nplay:\n  several:\n"
                     "    move: chain\n    most: 2\n", encoding="utf-8")
    assert check_ruleset(str(chain)) == []
    each = tmp_path / "each.yaml"
    each.write_text("title: t\nextends: house/mexican-train\nplay:\n  several:\n"
                    "    move: each_end\n", encoding="utf-8")
    found = check_ruleset(str(each))
    assert len(found) == 1 and found[0].line == 5 and found[0].column == 11
    assert "move: each_end and board.layout" in found[0].message
    assert "play.several.move: chain" in found[0].hint


def test_the_strategist_weighs_a_move_by_the_board_it_leaves():
    """On a shaped board the strategist asks the layout for the board after each move:
    the 5-5 sheds more, but no tile of the hand would answer it (a draw, then the
    marker), so it lays 3-1 on the Mexican train, where greedy sheds the 5-5."""
    import random

    from dominorules.bots.greedy import GreedyBot
    from dominorules.bots.strategist import StrategistBot
    state = State(api.load_game(NAME), 3, 0, deals=[_deal()])
    for move in ("12-12", "12-5 train 0", "12-3 mexican", "draw", "pass"):
        state.apply(move)
    legal = state.legal_actions()
    assert [str(a) for a in legal] == ["5-5 train 0", "3-1 mexican"]
    obs = state.observation(0)
    assert str(GreedyBot(0, random.Random(1)).choose(obs, legal)) == "5-5 train 0"
    action, why = StrategistBot(0, random.Random(1)).explain(obs, legal)
    assert str(action) == "3-1 mexican" and "sheds 4" in why
    five = next(a for a in legal if str(a) == "5-5 train 0")
    from dominorules.bots.strategist import _weigh_shaped
    from dominorules.engine.mechanisms.layout import Layout
    board = Layout.replay(TRAINS, 3, [e for e in state.record if e["event"] in ("place",
                                                                              "pass")])
    shed_value, _, closes, unanswered = _weigh_shaped(obs, board, five).values
    assert (shed_value, closes, unanswered) == (10, 0, 1)


# -- the loop, the rulebook and the records: playouts at every player count ------------------

def _record(tmp_path, players: int, seed: int, bots="random"):
    result = api.play_match(api.load_game(NAME), players, seed, bots=bots, trace=True)
    path = tmp_path / f"mt-{players}-{seed}.jsonl"
    records.write_records(str(path), result.events)
    return result, path


@pytest.mark.parametrize("players", range(2, 9))
def test_playouts_conserve_tiles_name_their_trains_and_verify_both_ways(tmp_path, players):
    game = api.load_game(NAME)
    result, path = _record(tmp_path, players, 3)
    schema = jsonschema.Draft202012Validator(
        json.loads((ROOT / "schemas" / "trace.schema.json").read_text()))
    full = sorted((t.low, t.high) for t in game.tileset.tiles)
    starts = []
    for i, e in enumerate(result.events):
        if i < 40 or e["event"] in ("round_end", "match_end"):   # the schema, on a sample
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
            if e["end"] is None:
                starts.append(e["tile"][0])
            else:
                assert END.match(e["end"]), e
        elif e["event"] == "round_end":
            assert sorted([t for h in hands for t in h] + bone + board) == full
            assert e["points"] == [sum(a + b for a, b in h) for h in hands]
    assert starts == list(range(12, -1, -1))           # 12-12 down to 0-0, a round each
    assert records.verify_file(str(path)) == []
    assert records.check_file_strict(str(path)) == []
    assert api.play_match(game, players, 3, trace=True).events == result.events


def test_greedy_and_strategist_play_trains_and_the_jit_plays_them(tmp_path):
    """The Python kernel leaves trains to the general loop; the JIT plays them on a
    double-twelve set too (tests/test_kernel_jit_wide_layout.py: the same records)."""
    game = api.load_game(NAME)
    assert not covers(game) and jit_reason(game, 4, need_numba=False) is None
    _, path = _record(tmp_path, 4, 5, ["greedy", "strategist", "random", "greedy"])
    assert records.verify_file(str(path)) == [] and records.check_file_strict(str(path)) == []


def _plant(path: Path, change) -> Path:
    events = [json.loads(line) for line in path.read_text().splitlines()]
    change(events)
    out = path.with_name("planted.jsonl")
    out.write_text("".join(json.dumps(e) + "\n" for e in events))
    return out


def _walk(events: list[dict]):
    """(index, event, the board before it) for every placement after an opening."""
    board = None
    for i, e in enumerate(events):
        if e["event"] == "deal":
            board = Layout(TRAINS, seats=len(e["hands"]))
        elif e["event"] == "pass":
            board.passed(e["player"])
        elif e["event"] == "place":
            if e["end"] is not None:
                yield i, e, board
            board.place(tuple(sorted(e["tile"])), e["end"], seat=e["player"])


def test_a_tile_on_another_seats_closed_train_is_refused_by_both_readings(tmp_path):
    result, path = _record(tmp_path, 4, 1)
    found = None
    for i, e, board in _walk(result.events):   # a tile that would fit a closed train
        seat, tile = e["player"], tuple(sorted(e["tile"]))
        closed = [name for name, end in board.ends.items() if "part" not in e
                  and not board.answer and not board.open_to(name, seat) and end.value in tile]
        if closed:
            found = i, closed[0]
            break
    assert found

    def elsewhere(evs):
        evs[found[0]]["end"] = found[1]
    planted = _plant(path, elsewhere)
    engine = records.verify_file(str(planted))
    assert len(engine) == 1 and "own train: others may play on it only while" in \
        engine[0].message
    strict = records.check_file_strict(str(planted))
    assert strict and "may " in strict[0].message


def test_a_tile_played_elsewhere_before_a_double_is_answered_is_refused_by_both(tmp_path):
    result, path = _record(tmp_path, 3, 2)
    found = None
    for i, e, board in _walk(result.events):   # a tile of one move (no first-turn run)
        if board.answer and len(board.ends) > 1 and "part" not in e:
            found = i, next(n for n in board.ends if n != board.answer[0])
            break
    assert found

    def elsewhere(evs):
        evs[found[0]]["end"] = found[1]
    planted = _plant(path, elsewhere)
    engine = records.verify_file(str(planted))
    assert len(engine) == 1 and "must be covered before a tile goes anywhere else" in \
        engine[0].message
    assert records.check_file_strict(str(planted)) != []


# -- validate, the rule sheet, the table ----------------------------------------------------

def test_the_house_file_is_clean_and_its_sheet_says_the_trains():
    assert check_ruleset(NAME) == []
    text = rule_sheet(load_ruleset(NAME)).rule("board.layout").text
    assert "own train" in text and "marker" in text and "must be covered" in text


def test_validate_refuses_trains_a_small_set_cannot_start(tmp_path):
    path = tmp_path / "small.yaml"
    path.write_text("title: small\ndescription: a test\nsource: a test\n"
                    "extends: house/mexican-train\nset:\n  max_pip: 6\ndeal:\n"
                    "  hand_size: 3\nopening:\n  allow: \"tile.is_double\"\n"
                    "board:\n  layout:\n    trains: true\n    spins: every_double\n"
                    "examples: []\n")
    found = {d.path: (d.line, d.column, d.message, d.hint) for d in check_ruleset(str(path))}
    line, col, message, hint = found["board.layout.trains"]
    assert (line, col) == (13, 13) and "a train could never start" in message
    assert "max_pip" in hint
    assert "cannot go with trains" in found["board.layout.spins"][2]
    # trains from the file extended: the error points at the set this file made smaller
    path.write_text("title: small\ndescription: a test\nsource: a test\n"
                    "extends: house/mexican-train\nset:\n  max_pip: 6\ndeal:\n"
                    "  hand_size: 3\nopening:\n  allow: \"tile.is_double\"\nexamples: []\n")
    found = {d.path: (d.line, d.column) for d in check_ruleset(str(path))}
    assert found == {"set.max_pip": (6, 12)}


def test_the_table_draws_every_train_and_its_marker_within_80_columns():
    game = api.load_game(NAME)
    state = State(game, 8, 3)
    while not state.is_terminal:
        obs = state.observation(state.current_player)
        if obs.marked and len(state.record) > 300:
            break
        state.apply(state.legal_actions()[0])
    console = Console(width=80, record=True, force_terminal=False)
    seating = Seating(game.teams(8), ("you",) + ("random",) * 7)
    console.print(table_view(obs, seating, state.legal_actions(), 80))
    screen = console.export_text()
    assert max(len(line) for line in screen.splitlines()) <= 80
    assert re.search(r"^  train 7 +(\d+-\d+|\(empty\))", screen, re.M)
    assert "(marker: open to all)" in screen
    assert re.search(r"^  mexican ", screen, re.M)


def test_moves_name_a_train_in_one_spelling():
    for text, end in (("6-4 train 2", "train 2"), ("6-4 t2", "train 2"),
                      ("6-4 train2", "train 2"), ("6-4 mexican", "mexican"),
                      ("6-4 m", "mexican")):
        action = Action.parse(text, ("mexican",))   # the ruleset names its shared train
        assert action.end == end and Action.parse(str(action), ("mexican",)) == action
