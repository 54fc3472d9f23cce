"""Scenarios for the rules common to every variant (docs/variants.md, "Common to all"), played
under the real ``pagat`` and ``dutch`` rulesets with fixed deals.

Each long scenario is a deal found by a seeded playout and then written out here; the
expected hands, pips and points are worked out in the comments from the rules."""

from __future__ import annotations

from deals import FOUR, FOUR_BONEYARD, FOUR_MOVES, THREE, THREE_BONEYARD, THREE_MOVES
from scenarios import deal, legal, log, moves_of, play, round_log


def test_a_blank_matches_only_a_blank_and_a_tile_fitting_both_ends_is_listed_twice():
    state = deal("pagat", ["0-0 6-6 5-5 4-4 3-3 2-2 1-1", "3-0 6-0 5-4 6-5 2-1 4-1 3-1"],
                 leader=0)
    play(state, "0-0")
    # both ends show a blank: each blank tile once per end; 5-4, 6-5, 2-1 ... fit nothing
    assert legal(state) == ["3-0 left", "6-0 left", "3-0 right", "6-0 right", "draw"]
    play(state, "3-0 left")
    assert state.observation(0).ends == (3, 0)
    assert legal(state) == ["3-3 left", "draw"]


def test_doubles_lie_in_the_line_and_open_no_branches():
    state = deal("pagat", ["0-0 6-6 5-5 4-4 3-3 2-2 1-1", "3-0 6-0 5-4 6-5 2-1 4-1 3-1"],
                 leader=0)
    play(state, "0-0", "3-0 left", "3-3 left")
    obs = state.observation(1)
    assert obs.line == ((3, 3), (3, 0), (0, 0))
    assert obs.ends == (3, 0)                     # still two ends: the doubles are no spinners
    assert legal(state) == ["3-1 left", "6-0 right", "draw"]


def test_play_goes_clockwise_and_a_domino_ends_the_round_at_once():
    state = deal("pagat", THREE, THREE_BONEYARD, leader=2)
    play(state, *THREE_MOVES)
    players = [e["player"] for e in state.record[2:21]]
    assert players == [2, 0, 1] * 6 + [2]
    # seat 2 places its last tile: the round ends there; 7 + 10 = 17 to the dominoer
    assert round_log(state)[-2:] == [
        "2 4-0 right", "end domino winner 2 pips [7, 10, 0] points [0, 0, 17] scores [0, 0, 17]"]


def test_a_round_is_blocked_by_as_many_passes_in_a_row_as_players():
    state = deal("pagat", FOUR, FOUR_BONEYARD, leader=3)
    play(state, *FOUR_MOVES)
    # ends 5|5: every five is placed or in the 2-tile reserve, the boneyard is down to it
    assert state.observation(1).ends == (5, 5) and state.observation(1).boneyard == 2
    for seat in (1, 2, 3):
        assert state.current_player == seat and legal(state) == ["pass"]
        play(state, "pass")
        assert state.record[-1] == {"event": "pass", "player": seat}   # not over yet
    play(state, "pass")
    # a hand is worth both halves of each tile ([6|6] 12, [0|0] nothing):
    # hands: 2-2 3-3 4-3 4-4 6-6 = 37; 2-0 4-1 6-1 6-3 = 23; 1-0 6-0 1-1 4-2 = 15;
    # 4-0 2-1 6-4 = 17. Seat 2 is the unique lowest: 37 + 23 + 17 - 15 = 62
    assert round_log(state)[-5:] == [
        "1 pass", "2 pass", "3 pass", "0 pass",
        "end blocked winner 2 pips [37, 23, 15, 17] points [0, 0, 62, 0] "
        "scores [0, 0, 62, 0]"]


def test_the_first_of_the_passes_may_have_drawn_earlier_in_its_turn():
    hands = ["1-0 5-0 4-1 5-1 4-2 5-2 4-3", "2-0 3-0 6-0 6-2 5-3 5-5 6-6",
             "0-0 2-1 3-1 6-1 2-2 4-4 5-4"]
    state = deal("pagat", hands, "6-5 6-4 3-3 4-0 6-3 3-2 1-1", leader=0)
    play(state, *moves_of("5-1, 5-3 right, 3-1 right, 4-1 left, draw, draw, 6-4 left, "
                          "6-1 left, 1-0 right, 2-0 right, 2-1 right"))
    # ends 1|1: the only one left, 1-1, is the last tile of the boneyard (the reserve)
    assert state.observation(0).ends == (1, 1) and state.current_player == 0
    play(state, "draw", "draw", "draw")               # seat 0 draws the last drawable tiles
    assert legal(state) == ["pass"]
    play(state, "pass", "pass", "pass")
    # seat 0: 4-0 5-0 4-2 5-2 3-3 4-3 6-3 = 44; seat 1: 3-0 6-0 6-2 5-5 6-5 6-6 = 50;
    # seat 2: 0-0 2-2 4-4 5-4 = 21, the unique lowest: 44 + 50 - 21 = 73
    assert round_log(state)[-7:] == [
        "0 draw 3-3", "0 draw 4-0", "0 draw 6-3", "0 pass", "1 pass", "2 pass",
        "end blocked winner 2 pips [44, 50, 21] points [0, 0, 73] scores [0, 0, 73]"]


def test_a_draw_after_a_pass_restarts_the_count_of_passes():
    # dutch: a stuck player draws at most two tiles, then passes
    state = deal("dutch", ["6-6 0-0 1-1 2-2 3-3 4-4 5-5", "1-0 2-0 3-0 4-0 5-0 2-1 3-1"],
                 "4-1 5-1 3-2 4-2", leader=0)
    play(state, "6-6", "draw", "draw", "pass", "draw", "draw")
    assert legal(state) == ["pass"]
    play(state, "pass")
    # two passes in a row, but seat 0 drew after the first: the round goes on
    assert log(state)[-1] == "0 pass" and state.current_player == 1
    assert legal(state) == ["draw"]
    play(state, "draw")                               # 6-0, the first six in the boneyard
    assert legal(state) == ["6-0 left", "6-0 right"]  # it fits: no second draw


def test_the_match_ends_at_the_target_and_keeps_the_excess():
    state = deal("pagat", THREE, THREE_BONEYARD, leader=2, scores=[0, 0, 50])
    play(state, *THREE_MOVES)
    assert state.is_terminal
    assert log(state)[-2:] == [
        "end domino winner 2 pips [7, 10, 0] points [0, 0, 17] scores [0, 0, 67]",
        "match_end winner 2 scores [0, 0, 67]"]


def test_below_the_target_the_next_round_is_dealt():
    state = deal("pagat", THREE, THREE_BONEYARD, leader=2, scores=[0, 0, 40])
    play(state, *THREE_MOVES)
    assert not state.is_terminal
    assert log(state)[-1] == "deal 2 leader 0"         # 57 < 61; the lead rotates


def test_the_unique_highest_score_wins_even_if_another_also_reached_the_target():
    state = deal("pagat", THREE, THREE_BONEYARD, leader=2, scores=[70, 0, 50])
    play(state, *THREE_MOVES)
    assert log(state)[-1] == "match_end winner 0 scores [70, 0, 67]"


def test_a_tie_for_highest_at_the_target_is_a_drawn_match():
    # scores as if resumed from an earlier session; seat 2 draws level at 67
    state = deal("pagat", THREE, THREE_BONEYARD, leader=2, scores=[67, 0, 50])
    play(state, *THREE_MOVES)
    assert log(state)[-1] == "match_end winner None scores [67, 0, 67]"
    assert state.outcome.winner is None
