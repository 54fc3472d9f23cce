"""Moves that lay several tiles (``play.several``, engine.mechanisms.several): offered by
the match loop beside the single placements, laid tile by tile with every placement's
events, recorded as ``part: [i, n]``, re-read by ``verify`` and the rulebook
(``verify --strict``), refused by the kernels, and chosen by every bot."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dominorules import api, records
from dominorules.engine import positions
from dominorules.engine.actions import Action, MalformedActionError
from dominorules.engine.explain import explain_illegal
from dominorules.engine.game import Deal
from dominorules.engine.mechanisms import several
from dominorules.engine.tiles import parse_tiles
from dominorules.kernel import generate, jit_kernel
from dominorules.rules import check_ruleset, rule_warnings

RULESETS = ("house/double-draw", "house/doubles-together")
# 2 players, seat 1 leads [6|4]; seat 0 holds [4|4] and [6|6], one for each end
HANDS = ("6-6 4-4 0-1 0-2 0-3 1-2 1-3", "6-4 0-0 1-5 2-3 2-5 3-5 0-5")


def _state(name: str, boneyard: str = "5-5 2-2", hands=HANDS, leader: int = 1):
    game = api.load_game(name)
    return game.new_match(2, seed=0, deals=[Deal.of(hands, boneyard, leader=leader)])


def _legal(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def _write(tmp_path: Path, events: list[dict]) -> str:
    path = tmp_path / "m.jsonl"
    records.write_records(str(path), events)
    return str(path)


def _strict(tmp_path: Path, events: list[dict]) -> list:
    return records.check_file_strict(_write(tmp_path, events))


def _findings(tmp_path: Path, events: list[dict]) -> tuple[list, list]:
    """What ``verify`` and the rulebook (``verify --strict``) find in the record."""
    path = _write(tmp_path, events)
    return records.verify_file(path), records.check_file_strict(path)


def _game(tmp_path: Path, name: str, text: str, checked: bool = False):
    """The game of the ruleset ``text``, written as the file ``name`` (``checked``: which
    validates clean)."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    if checked:
        assert check_ruleset(str(path)) == []
    return api.load_game(str(path))


def _in_pairs(title: str, parent: str) -> str:
    """``parent`` with moves of a tile on each end (``play.several.move: each_end``)."""
    return f"title: {title}\nextends: {parent}\nplay:\n  several:\n    move: each_end\n"


# -- the move, its text ------------------------------------------------------------------

def test_a_move_of_several_tiles_has_one_text_that_parses_back():
    move = Action.parse("6-1 left + 1-1 right")
    assert move.kind == "several" and [str(p) for p in move.parts] == ["6-1 left", "1-1 right"]
    assert str(move) == "6-1 left + 1-1 right" and Action.parse(str(move)) == move
    for bad in ("6-1 left +", "draw + 6-1 left"):
        with pytest.raises(MalformedActionError):
            Action.parse(bad)


def test_moves_walks_the_ends_in_order_one_tile_each_up_to_most():
    def steps(pos, end):
        return [((t, end), pos | {t}) for t in "ab" if t not in pos]

    rule = several.SeveralRule(2, None, None, "")
    assert several.moves(rule, ["left", "right"], frozenset(), steps) == [
        (("a", "left"), ("b", "right")), (("b", "left"), ("a", "right"))]
    three = several.moves(rule._replace(most=3), ["l", "r", "u"], frozenset(), steps)
    assert max(len(m) for m in three) == 2   # only two tiles to lay


# -- a constructed deal: the exact legal moves -------------------------------------------

def test_doubles_together_offers_each_double_alone_and_both_at_once():
    state = _state("house/doubles-together", "5-5 2-2 3-3")
    state.apply("6-4")
    assert _legal(state) == ["4-4 left", "6-6 right", "4-4 left + 6-6 right", "draw"]
    state.apply("4-4 + 6-6")   # the ends may be left out when the order says them
    assert state.current_player == 1
    assert [(e["tile"], e["end"], e.get("part")) for e in state.record[-2:]] == [
        ([4, 4], "left", [1, 2]), ([6, 6], "right", [2, 2])]


def test_double_draw_lays_pairs_only_and_a_stuck_player_draws_one_tile():
    # [6|4] is turned up from the boneyard to start the line (deal.turn_up): the leader
    # lays the first pair on it
    state = _state("house/double-draw", "6-4 2-2 3-3 4-5 1-1", leader=0,
                   hands=("6-6 4-4 0-1 0-2 0-3 1-2", "5-5 0-0 1-5 2-3 2-5 3-5"))
    assert _legal(state) == ["4-4 left + 6-6 right"]
    state.apply("4-4 left + 6-6 right")
    assert state.current_player == 1 and _legal(state) == ["draw"]   # nothing fits 4 or 6
    state.apply("draw")
    assert state.current_player == 0   # the draw ends the turn (drawing.ends_turn)


def test_a_single_tile_the_pair_rule_forbids_is_refused_in_its_words():
    state = _state("house/double-draw", "6-4 2-2 3-3 4-5 1-1", leader=0,
                   hands=("6-6 4-4 0-1 0-2 0-3 1-2", "5-5 0-0 1-5 2-3 2-5 3-5"))
    assert explain_illegal(state, Action.parse("6-6 right")).startswith("tiles go down in pairs")
    assert explain_illegal(state, Action.parse("6-6 right + 4-4 left")) == (
        "the tiles of a move go down in end order, left first: write 4-4 left + 6-6 right")
    assert explain_illegal(state, Action.parse("4-4 left + 4-4 right")) == (
        "a tile goes down once: the move names one twice")


def test_a_tile_that_is_not_a_double_is_refused_with_the_tiles_condition():
    state = _state("house/doubles-together", hands=("6-6 4-1 0-1 0-2 0-3 1-2 1-3", HANDS[1]))
    state.apply("6-4")
    why = explain_illegal(state, Action.parse("4-1 left + 6-6 right"))
    assert "tile.is_double" in why


def test_the_events_fire_after_each_tile_of_the_move(tmp_path):
    path = tmp_path / "fives.yaml"
    path.write_text("title: t\nextends: house/doubles-together\nevents:\n  - after: place\n"
                    "    if: \"end_total % 5 == 0\"\n    points: end_total\n", encoding="utf-8")
    game = api.load_game(str(path))
    state = game.new_match(2, seed=0, deals=[Deal.of(("5-5 0-0 1-2 1-3 1-4 2-2 2-4",
                                                       "5-0 3-3 3-4 3-6 4-4 4-6 6-6"),
                                                      "1-1 2-3", leader=1)])
    state.apply("5-0")                   # ends 0 and 5: total 5 scores for seat 1
    state.apply("0-0 left + 5-5 right")  # 0-0 on the 0: 0 + 5 = 5; then 5-5: 0 + 10 = 10
    kinds = [(e["event"], e.get("points")) for e in state.record[-4:]]
    assert kinds == [("place", None), ("score", 5), ("place", None), ("score", 10)]


# -- playouts: tiles conserved, the record verified both ways, the same seed the same ----

@pytest.mark.parametrize("name", RULESETS)
def test_playouts_conserve_tiles_and_verify_at_every_player_count(name, tmp_path):
    game = api.load_game(name)
    full = sorted((t.low, t.high) for t in game.tileset.tiles)
    for players in range(game.rules.min_players, game.rules.max_players + 1):
        for seed, bots in ((1, "random"), (2, "greedy"), (3, "strategist")):
            result = api.play_match(game, players, seed, bots=bots, trace=True)
            events = result.events
            hands = bone = board = None
            for e in events:
                if e["event"] == "deal":
                    hands = [sorted(map(tuple, h)) for h in e["hands"]]
                    bone, board = [tuple(t) for t in e["boneyard"]], []
                elif e["event"] == "turn_up":   # deal.turn_up: the stock's first tile
                    board.append(bone.pop(0))
                    assert board[-1] == tuple(e["tile"])
                elif e["event"] == "draw":
                    assert tuple(e["tile"]) == bone.pop(0)
                    hands[e["player"]].append(tuple(e["tile"]))
                elif e["event"] == "place":
                    hands[e["player"]].remove(tuple(e["tile"]))
                    board.append(tuple(e["tile"]))
                elif e["event"] == "round_end":
                    assert sorted([t for h in hands for t in h] + bone + board) == full
            again = api.play_match(game, players, seed, bots=bots, trace=True)
            assert [json.dumps(e) for e in again.events] == [json.dumps(e) for e in events]
            assert _findings(tmp_path, events) == ([], []), (players, seed)
    assert any("part" in e for e in events)


def _with_pair(name: str = "house/doubles-together") -> list[dict]:
    for seed in range(1, 40):
        events = api.play_match(api.load_game(name), 2, seed, bots="greedy",
                                trace=True).events
        if any(e.get("part") == [1, 2] for e in events):
            return events
    raise AssertionError("no seeded match lays a pair")


def test_verify_and_the_rulebook_reject_a_planted_fault_in_a_move(tmp_path):
    events = _with_pair()
    assert _strict(tmp_path, events) == []
    i = next(i for i, e in enumerate(events) if e.get("part") == [1, 2])
    j = next(j for j in range(i + 1, len(events)) if events[j].get("part") == [2, 2])
    dropped = events[:j] + events[j + 1:]           # the move's second tile left out
    assert records.verify_file(_write(tmp_path, dropped)) != []
    assert _strict(tmp_path, dropped) != []
    alone = [dict(e) for e in events]               # the pair written as two single moves
    del alone[i]["part"], alone[j]["part"]
    assert _strict(tmp_path, alone) != []
    assert records.verify_file(_write(tmp_path, alone)) != []


def test_the_rulebook_names_the_line_of_a_tile_the_move_may_not_hold(tmp_path):
    events = _with_pair()
    i = next(i for i, e in enumerate(events) if e.get("part") == [1, 2])
    j = next(j for j in range(i + 1, len(events)) if events[j].get("part") == [2, 2])
    planted = [dict(e) for e in events]
    planted[j]["end"] = planted[i]["end"]           # both tiles on one end
    found = _strict(tmp_path, planted)
    assert [d.line for d in found] == [j + 1]
    assert "tile 2 of this move may be" in found[0].message


# -- the fast paths refuse, the sheet and validate say it --------------------------------

def test_the_kernels_refuse_and_the_general_loop_plays():
    game = api.load_game("house/double-draw")
    assert not generate.covers(game)
    # the JIT plays it and writes its record (tests/test_kernel_jit_several.py,
    # test_kernel_jit_rec_several.py)
    assert jit_kernel.jit_reason(game, 2, need_numba=False) is None
    with pytest.raises(Exception, match="play.several"):
        generate.kernel_for(game, 2)
    plain = api.load_game("pagat")
    assert plain.rules.several is None and several.rule_of(plain.rules) is None


def test_both_rulesets_are_clean_with_their_examples():
    for name in RULESETS:
        assert check_ruleset(name) == []
        assert rule_warnings(name) == []


def test_validate_refuses_a_shaped_board_and_warns_when_the_rule_can_never_apply(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: t\nextends: pagat\nboard:\n  layout:\n    spins: every_double\n"
                   "play:\n  several:\n    most: 2\n", encoding="utf-8")
    found = check_ruleset(str(bad))
    assert any("board.layout" in d.message and d.line == 8 for d in found)
    never = tmp_path / "never.yaml"
    never.write_text("title: t\nextends: pagat\nplay:\n  several:\n    most: 3\n"
                     "    tiles: false\n", encoding="utf-8")
    assert check_ruleset(str(never)) == []
    warned = rule_warnings(str(never))
    assert [(d.severity, d.line) for d in warned] == [("warning", 6), ("warning", 5)]
    spun = tmp_path / "spun.yaml"   # four ends once the spinner opens: most 3 can apply
    spun.write_text("title: t\nextends: house/spinner\nplay:\n  several:\n    most: 3\n",
                    encoding="utf-8")
    assert check_ruleset(str(spun)) == [] and rule_warnings(str(spun)) == []


SPUN = """title: Doubles first, a tile on every end
extends: pagat
board:
  spinner: first_double
play:
  several:
    most: 4
  restrictions:
    - allow: "tile.is_double or not any(playable.is_double)"
      explain: "you hold a playable double, so you must play one"
events:
  - after: place
    if: "end_total % 5 == 0"
    points: end_total
  - after: place
    if: "tile.is_double"
    again: true
    next_draws: "1 if end_total == 0 else 0"
"""


def test_a_spinner_restrictions_and_events_judged_tile_by_tile_verify_both_ways(tmp_path):
    """The restriction reads the hand left after each tile (a double laid first frees the
    next tile), the spinner opens mid-move, fives score after each tile: the loop and the
    rulebook must agree on every move; a double plays again once the move is laid, and a
    placement leaving the ends at 0 makes the next seat draw a tile at once."""
    game = _game(tmp_path, "spun.yaml", SPUN)
    longest = 0
    for players, bots in ((2, "random"), (3, "greedy"), (4, "random")):
        events = api.play_match(game, players, 7, bots=bots, trace=True).events
        longest = max([longest] + [e["part"][1] for e in events if "part" in e])
        assert _findings(tmp_path, events) == ([], [])
    assert longest >= 3   # moves on three or four ends were laid


# -- move: whole_hand: a hand shown and laid down at once --------------------------------

WHOLE = """title: Whole hand
extends: pagat
play:
  several:
    move: whole_hand
"""


def test_a_whole_hand_that_goes_down_tile_after_tile_is_one_move(tmp_path):
    game = _game(tmp_path, "whole.yaml", WHOLE)
    other = "6-5 3-3 3-4 4-4 4-6 2-6 2-4"
    stuck = game.new_match(2, seed=0, deals=[Deal.of(("6-1 1-2 5-5 0-0 0-1 0-2 0-3", other),
                                                     "1-1 2-2", leader=1)])
    stuck.apply("6-5")   # ends 5 and 6: [0|1] [0|2] [0|3] cannot all follow
    assert not any("+" in a for a in _legal(stuck))
    state = game.new_match(2, seed=0, deals=[Deal.of(("6-1 1-2 5-5 2-0 0-0 0-3 3-5", other),
                                                     "1-1 2-2", leader=1)])
    state.apply("6-5")
    # one move, in the first order found: the left end first, the same end again
    assert _legal(state)[-2:] == [
        "5-5 left + 5-3 left + 3-0 left + 0-0 left + 2-0 left + 2-1 left + 6-1 left", "draw"]
    assert explain_illegal(state, Action.parse("5-5 left + 5-3 left")) == (
        "a move of several tiles lays the whole hand (7 tiles), shown and laid down at once")
    state.apply(_legal(state)[-2])
    assert state.rounds[-1].result == "domino" and state.rounds[-1].winner == 0
    assert [e.get("part") for e in state.record if e["event"] == "place"][-7:] == \
        several.parts(7)
    assert several.whole_hand(["left"], frozenset(), lambda pos, end: [], 3) is None


def test_whole_hand_playouts_verify_both_ways(tmp_path):
    game = _game(tmp_path, "whole.yaml", WHOLE)
    laid = False
    for players in (2, 3, 4):
        events = api.play_match(game, players, 5, bots="greedy", trace=True).events
        laid = laid or any(e.get("part", [0, 0])[1] >= 3 for e in events)
        assert _findings(tmp_path, events) == ([], [])
    assert laid


def test_a_move_of_several_tiles_counts_as_one_turn_and_one_decision():
    state = _state("house/doubles-together", "5-5 2-2 3-3")
    state.apply("6-4")
    state.apply("4-4 left + 6-6 right")
    while not state.rounds:   # the round played out by drawing and placing what fits
        state.apply(state.legal_actions()[0])
    stats = state.rounds[0]
    placed = sum(e["event"] == "place" for e in state.record)
    moves = placed - sum(1 for e in state.record if e.get("part", [1])[0] > 1)
    assert stats.placements == placed and stats.turns == moves + stats.passes
    assert stats.decisions == moves + stats.draws + stats.passes


def test_the_rule_sheet_and_diff_say_the_rule_in_plain_words():
    from click.testing import CliRunner

    from dominorules.cli import main

    sheet = CliRunner().invoke(main, ["rules", "house/doubles-together"])
    assert sheet.exit_code == 0
    flat = " ".join(sheet.output.split())
    assert ("A move may lay several tiles at once: one on each of the two ends, in end order "
            "(left first), each a legal placement once those before it lie, and each tile "
            "only when it is a double.") in flat
    diff = CliRunner().invoke(main, ["diff", "pagat", "house/double-draw"])
    flat = " ".join(diff.output.split())
    assert "Several tiles at once: pagat No such rule." in flat
    assert ("A single tile alone is a move only when the boneyard is empty and it is the "
            "player's last tile") in flat
    sheet = CliRunner().invoke(main, ["rules", "house/mexican-train"])
    flat = " ".join(sheet.output.split())
    assert ("each tile only when it is the player's first turn of the round and it goes on "
            "the player's own train.") in flat and "first_turn" not in flat


@pytest.mark.parametrize("formula, said", [
    ("first_turn and own_train", "it is the player's first turn of the round and it goes on "
     "the player's own train"),
    ("not (first_turn and tile.is_double)", "either it is not the player's first turn of the "
     "round or it is not a double"),
    ("own_train or  count( hand )==1", "either it goes on the player's own train or it is the "
     "player's last tile"),
    ("first_turn and tile.high == 6", None),   # a part without words: the formula is quoted
])
def test_a_several_condition_in_words(formula, said):
    from dominorules.expr import parse
    from dominorules.rules.describe_house import _clause

    assert _clause(parse(formula), formula) == said


def test_every_bot_takes_the_move_shedding_most_and_the_strategist_says_why():
    import random

    from dominorules.bots.expert import ExpertBot
    from dominorules.bots.greedy import GreedyBot
    from dominorules.bots.random_bot import RandomBot
    from dominorules.bots.strategist import StrategistBot

    state = _state("house/doubles-together", "5-5 2-2 3-3")
    state.apply("6-4")
    obs, legal = state.observation(0), state.legal_actions()
    best = "4-4 left + 6-6 right"   # 8 + 12 pips against 12 or 8 alone
    assert str(GreedyBot(0, random.Random(1)).choose(obs, legal)) == best
    action, why = StrategistBot(0, random.Random(1)).explain(obs, legal)
    assert str(action) == best and why.startswith(f"{best}: sheds 20, leaves ") \
        and "play.several" in why
    action, why = ExpertBot(0, random.Random(1), playouts=4).explain(obs, legal)
    assert str(action) == best and "moves of several tiles" in why
    # random: each whole move one option beside the single ones (three here)
    picks = {str(RandomBot(0, random.Random(s)).choose(obs, legal)) for s in range(60)}
    assert picks == {"4-4 left", "6-6 right", best}


# -- move: after_double: a double, and the move goes on ----------------------------------

AFTER = """title: After a double, go on
extends: pagat
play:
  several:
    move: after_double
    most: 3
"""


def test_after_a_double_the_move_goes_on_on_any_end_and_verifies(tmp_path):
    game = _game(tmp_path, "after.yaml", AFTER)
    state = game.new_match(2, seed=0, deals=[Deal.of(("4-4 4-1 6-2 6-6 0-0 0-1 0-2",
                                                       "6-4 3-3 3-4 3-5 5-5 5-6 2-5"),
                                                      "1-1 2-2", leader=1)])
    state.apply("6-4")   # ends 4 and 6
    assert [a for a in _legal(state) if "+" in a] == [
        "4-4 left + 4-1 left", "4-4 left + 6-2 right", "4-4 left + 6-6 right",
        "4-4 left + 6-6 right + 4-1 left", "4-4 left + 6-6 right + 6-2 right",
        "6-6 right + 4-1 left", "6-6 right + 4-4 left", "6-6 right + 4-4 left + 4-1 left",
        "6-6 right + 4-4 left + 6-2 right", "6-6 right + 6-2 right"]
    assert explain_illegal(state, Action.parse("4-1 left + 6-6 right")) == (
        "a move goes on only after a double: 4-1 is not one, so it must be the move's last "
        "tile")
    for players in (2, 3):
        events = api.play_match(game, players, 3, bots="random", trace=True).events
        assert _findings(tmp_path, events) == ([], [])
    assert rule_warnings(str(tmp_path / "after.yaml")) == []


def test_the_draws_before_a_move_count_for_every_tile_of_it(tmp_path):
    path = tmp_path / "drawn.yaml"
    path.write_text("title: t\nextends: house/doubles-together\nevents:\n  - after: place\n"
                    "    points: drawn_this_turn\n", encoding="utf-8")
    game = api.load_game(str(path))
    state = game.new_match(2, seed=0, deals=[Deal.of(HANDS, "5-5 2-2 3-3", leader=1)])
    state.apply("6-4")
    state.apply("draw")   # a voluntary draw, then the move: both tiles read one tile drawn
    state.apply("4-4 left + 6-6 right")
    assert [e["points"] for e in state.record[-4:] if e["event"] == "score"] == [1, 1]
    found = records.check_file_strict(_write(tmp_path, state.record))
    assert len(found) == 1 and "ends before the match is over" in found[0].message


@pytest.mark.parametrize("parent", ["pagat", "house/chicken-foot"])
def test_own_train_on_a_board_without_trains_is_refused_at_its_column(parent, tmp_path):
    path = tmp_path / "runs.yaml"
    path.write_text(f"title: runs\nextends: {parent}\nplay:\n  several:\n    move: chain\n"
                    "    tiles: \"first_turn and own_train\"\n", encoding="utf-8")
    said = [(d.line, d.column, d.length, d.message, d.hint) for d in check_ruleset(str(path))]
    assert said == [(6, 28, 9, "own_train is always false here: the board has no trains, so no "
                     "tile ever goes on the player's own train", "give the board trains "
                     "(board.layout.trains: true), or remove own_train")]
    assert check_ruleset("house/mexican-train") == []   # trains: own_train reads them


PAIRS_WON = """title: fives in pairs, won in play
extends: house/all-fives
match:
  ends_in_play: true
  target: 20
play:
  several:
    move: each_end
"""


def test_a_match_won_mid_move_ends_there_and_verify_accepts_it(tmp_path):
    game = _game(tmp_path, "pairs.yaml", PAIRS_WON, checked=True)
    hands = ("3-3 4-2 3-1 0-0 0-1 0-5 0-6", "3-2 1-1 5-5 5-6 6-6 4-4 4-5")
    state = game.new_match(2, seed=0, deals=[Deal.of(hands, "", leader=0)],
                           start_scores=[10, 0])
    state.apply("3-3")
    state.apply("3-2 left")      # ends 2 and the 3-3 (6): 8, nothing scores
    assert [str(a) for a in state.legal_actions()] == [
        "4-2 left", "3-1 right", "4-2 left + 3-1 right", "draw"]
    state.apply("4-2 left + 3-1 right")   # 4 + 6 = 10: 20, the target, after the first tile
    assert state.is_terminal and list(state.scores) == [20, 0]
    tail = [{k: e[k] for k in ("event", "tile", "part", "points", "result") if k in e}
            for e in state.record[-4:]]
    assert tail == [{"event": "place", "tile": [2, 4], "part": [1, 2]},
                    {"event": "score", "points": 10},
                    {"event": "round_end", "result": "target", "points": [0, 0]},
                    {"event": "match_end"}]
    assert state.record[-2]["pips"] == [16, 52]   # the 3-1 was never laid
    # a played match whose move was cut short: both verifiers accept it, and refuse it
    # with the cut move's second tile planted
    for seed in range(1, 40):
        events = api.play_match(game, 2, seed, bots="greedy", trace=True).events
        k = next((k for k, e in enumerate(events) if e["event"] == "round_end"
                  and e["result"] == "target" and [x for x in events[:k] if
                  x["event"] == "place"][-1].get("part", [2])[0] == 1), None)
        if k is not None:
            break
    assert k is not None, "no sample match was won mid-move"
    assert _findings(tmp_path, events) == ([], [])
    first = max(i for i in range(k) if events[i]["event"] == "place")
    planted = {**events[first], "tile": [6, 6], "part": [2, 2]}
    verified, strict = _findings(tmp_path, [*events[:k], planted, *events[k:]])
    assert verified and strict


def test_two_sets_list_each_move_of_several_tiles_once_and_verify(tmp_path):
    game = _game(tmp_path, "two.yaml", _in_pairs("two sets in pairs", "house/two-sets"),
                 checked=True)

    def legal(hand: str, ends: list[int]) -> list[str]:
        data = {"ends": ends, "turn": 0, "boneyard": 5}
        return [str(a) for a in positions.legal(game, data, [parse_tiles(hand), [(1, 1)]])]

    assert legal("6-5 6-5 4-4", [5, 4]) == ["6-5 left", "4-4 right", "6-5 left + 4-4 right",
                                           "draw"]
    assert legal("6-5 6-5 4-4", [5, 5]) == ["6-5 left", "6-5 right", "6-5 left + 6-5 right",
                                           "draw"]
    assert legal("5-5 5-5 5-1", [5, 5]) == [
        "5-1 left", "5-5 left", "5-1 right", "5-5 right", "5-1 left + 5-5 right",
        "5-5 left + 5-1 right", "5-5 left + 5-5 right", "draw"]
    both = 0
    for players, bots in ((2, "random"), (5, "greedy")):
        events = api.play_match(game, players, 1, bots=bots, trace=True).events
        both += sum(1 for a, b in zip(events, events[1:], strict=False) if b.get("part") == [2, 2]
                    and a.get("part") == [1, 2] and a["tile"] == b["tile"])
        assert _findings(tmp_path, events) == ([], [])
    assert both   # a move laying both copies of a tile was played and verified


MATADOR_PAIRS = _in_pairs("matador in pairs", "house/matador")


def test_a_fit_rule_s_moves_of_several_tiles_name_each_tile_s_half_and_verify(tmp_path):
    game = _game(tmp_path, "pairs.yaml", MATADOR_PAIRS, checked=True)
    # ends 3 and 6: a 4 joins the 3 (adding to 7, leaving the 2), a 1 the 6, and the wild
    # 6-1 goes on either end either way round: the half against the end is named
    data = {"ends": [3, 6], "turn": 0, "boneyard": 2}
    legal = positions.legal(game, data, [parse_tiles("4-2 1-5 6-1 3-3"), parse_tiles("2-2")])
    assert sorted(map(str, legal)) == sorted([
        "4-2 left", "6-1 left 1", "6-1 left 6", "5-1 right", "6-1 right 1", "6-1 right 6",
        "6-1 left 1 + 5-1 right", "6-1 left 6 + 5-1 right", "4-2 left + 5-1 right",
        "4-2 left + 6-1 right 1", "4-2 left + 6-1 right 6"])
    # played matches: the parts that name their half verify, and a flipped half does not
    for seed in range(1, 20):
        events = api.play_match(game, 2, seed, bots="random", trace=True).events
        k = next((k for k, e in enumerate(events) if e.get("part") and "meets" in e), None)
        if k is not None:
            break
    assert k is not None, "no move of several tiles named a half"
    assert _findings(tmp_path, events) == ([], [])
    e = events[k]
    other = e["tile"][0] if e["meets"] == e["tile"][1] else e["tile"][1]
    verified, strict = _findings(tmp_path, [*events[:k], {**e, "meets": other}, *events[k + 1:]])
    assert verified and strict


PAIRS = _in_pairs("pairs", "pagat")


def test_the_strategist_weighs_a_move_by_the_ends_it_leaves_where_greedy_sheds(tmp_path):
    import random

    from dominorules.bots.greedy import GreedyBot
    from dominorules.bots.strategist import StrategistBot

    game = _game(tmp_path, "pairs.yaml", PAIRS)
    hands = ("6-3 0-5 0-4 6-1 6-2 4-4 2-2 4-3 2-3 4-1", "3-0 1-1 5-5 5-6 6-6 1-5 0-0")
    state = game.new_match(2, seed=0, deals=[Deal.of(hands, "", leader=0)])
    state.apply("6-3")
    state.apply("3-0 left")      # the ends show 0 and 6
    obs, legal = state.observation(0), state.legal_actions()
    # 5-0 + 6-2 sheds 13 and leaves 5 and 2 (2-2, 2-3 fit); 4-0 + 6-2 sheds 12 and leaves
    # 4 and 2, which five tiles of the hand fit: 12 + 5 x 0.5 > 13 + 2 x 0.5
    assert {str(GreedyBot(0, random.Random(k)).choose(obs, legal)) for k in range(8)} == {
        "5-0 left + 6-2 right"}
    action, why = StrategistBot(0, random.Random(1)).explain(obs, legal)
    assert str(action) == "4-0 left + 6-2 right"
    assert why == ("4-0 left + 6-2 right: sheds 12, leaves 5 of your tiles an end to go on "
                   "(each move, several tiles too, weighed on the ends it leaves: play.several)")


def test_a_move_naming_no_half_for_a_tile_that_fits_either_way_is_asked_to_name_it(
        tmp_path):
    from dominorules.engine.actions import AmbiguousActionError

    game = _game(tmp_path, "pairs.yaml", MATADOR_PAIRS)
    hands = ("6-3 0-0 0-2 0-3 0-4 0-5 2-3", "4-2 1-5 6-1 3-3 5-5 4-4 2-2")
    state = game.new_match(2, seed=0, deals=[Deal.of(hands, "6-6 5-4", leader=0)])
    state.apply("6-3")   # ends 6 and 3: the wild 6-1 fits either end either way round
    with pytest.raises(AmbiguousActionError, match=re.escape(
            "6-1 left + 5-1 right can be laid more than one way round: write "
            "6-1 left 1 + 5-1 right or 6-1 left 6 + 5-1 right")):
        state.parse_action("6-1 left + 5-1 right")
    assert explain_illegal(state, Action.parse("4-2 left + 6-1 right")) == (
        "a tile of this move fits its end either way round: write 4-2 left + 6-1 right 1 or "
        "4-2 left + 6-1 right 6 (the half against the end)")
    # a tile fitting one way only needs no half: the move is the legal one as written
    assert str(state.parse_action("4-2 left + 5-1 right")) == "4-2 left + 5-1 right"
