"""Scenarios for ``pagat`` (docs/variants.md "pagat"): the deal, the reserve of 2, voluntary
draws on every turn, forced draws and passes, the lot and the rotating lead, scoring."""

from __future__ import annotations

from collections import Counter

import pytest
from deals import FOUR, FOUR_BONEYARD, THREE, THREE_BONEYARD, THREE_MOVES
from scenarios import deal, legal, log, moves_of, play, round_log

from dominorules import api


@pytest.mark.parametrize("players, hand, boneyard, target", [(2, 7, 14, 100), (3, 7, 7, 61),
                                                             (4, 6, 4, 61)])
def test_deal_and_target_by_player_count(players, hand, boneyard, target):
    state = api.load_game("pagat").new_match(players, seed=1)
    first = state.record[1]
    assert [len(h) for h in first["hands"]] == [hand] * players
    assert len(first["boneyard"]) == boneyard
    assert state.observation(0).target == target


def test_voluntary_draws_on_the_opening_turn_keep_the_turn_and_stop_at_the_reserve():
    state = deal("pagat", ["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0 4-4"],
                 leader=0)
    assert legal(state) == ["6-0", "6-1", "6-2", "6-3", "6-4", "6-5", "6-6", "draw"]
    for _ in range(12):                     # 14 in the boneyard, the last 2 never drawn
        assert state.current_player == 0 and legal(state)[-1] == "draw"
        play(state, "draw")
    obs = state.observation(0)
    assert (obs.boneyard, obs.drawable, len(obs.hand)) == (2, 0, 19)
    # the rest of the set came in ascending order, 0-0 first; 3-3 and 4-3 stay undrawn
    assert legal(state) == ["0-0", "1-0", "2-0", "3-0", "4-0", "6-0", "1-1", "2-1", "3-1",
                            "4-1", "6-1", "2-2", "3-2", "4-2", "6-2", "6-3", "6-4", "6-5",
                            "6-6"]


def test_a_draw_is_allowed_mid_round_while_holding_a_playable_tile_and_keeps_the_turn():
    state = deal("pagat", THREE, THREE_BONEYARD, leader=2)
    play(state, "3-1")
    assert legal(state) == ["1-0 left", "3-0 right", "3-3 right", "4-3 right", "5-3 right",
                            "draw"]
    play(state, "draw")
    assert state.current_player == 0 and log(state)[-1] == "0 draw 6-3"
    assert legal(state)[-2:] == ["6-3 right", "draw"]


def test_a_stuck_player_must_draw_until_a_tile_fits_and_never_passes_meanwhile():
    state = deal("pagat", FOUR, FOUR_BONEYARD, leader=3)
    assert legal(state) == ["0-0", "4-0", "2-1", "5-1", "6-2", "6-4", "draw"]
    play(state, "0-0")
    assert legal(state) == ["draw"]          # seat 0 has no blank: it must draw
    play(state, "draw")
    assert legal(state) == ["draw"]          # 5-5 does not fit
    play(state, "draw")
    assert legal(state) == ["5-0 left", "5-0 right"]   # 5-0 fits; the reserve is reached
    play(state, "5-0 left")
    # seat 1 holds 5-3 for the five and 3-0, 2-0 for the blank; no draw is left
    assert legal(state) == ["5-3 left", "2-0 right", "3-0 right"]


def test_the_lead_is_drawn_by_lot_then_rotates_from_the_leader_not_the_winner():
    state = deal("pagat", THREE, THREE_BONEYARD, leader=2)
    play(state, *THREE_MOVES)
    # seat 2 led and won the round: the next lead is seat 0, one seat clockwise
    assert round_log(state)[-1].startswith("end domino winner 2")
    assert log(state)[-1] == "deal 2 leader 0"
    # the first lead is a fair lot: over many matches every seat leads about equally often
    game = api.load_game("pagat")
    leads = Counter(game.new_match(3, seed=s).record[1]["leader"] for s in range(600))
    assert set(leads) == {0, 1, 2} and all(150 <= n <= 250 for n in leads.values())


def test_domino_scores_all_opponents_hands():
    state = deal("pagat", THREE, THREE_BONEYARD, leader=2)
    play(state, *THREE_MOVES)
    # seat 0 keeps 4-3 (7), seat 1 keeps 5-5 (10): the dominoer scores 17
    assert round_log(state)[-1] == (
        "end domino winner 2 pips [7, 10, 0] points [0, 0, 17] scores [0, 0, 17]")


def test_blocked_tie_for_lowest_scores_nothing():
    hands = ["1-1 3-1 4-2 5-2 3-3 5-3 6-5", "3-0 5-0 6-0 5-1 3-2 5-4 5-5",
             "1-0 4-0 2-1 4-1 6-1 6-3 4-4"]
    state = deal("pagat", hands, "0-0 6-6 2-2 2-0 6-4 4-3 6-2", leader=2)
    play(state, *moves_of(
        "6-1, 3-1 left, 3-0 left, 1-0 left, 6-5 right, 5-5 right, 4-1 left, 4-2 left, "
        "5-1 right, 2-1 left, 1-1 right"))
    assert state.observation(0).ends == (1, 1) and state.current_player == 1
    play(state, "draw", "draw", "draw", "draw", "draw", "pass", "pass", "pass")
    # ends 1|1 and every one is placed. Seat 0 keeps 5-2 3-3 5-3 = 21; seat 1 keeps
    # 5-0 6-0 3-2 5-4 and drew 0-0 6-6 2-2 2-0 6-4: 53; seat 2 keeps 4-0 6-3 4-4 = 21
    assert round_log(state)[-5:] == [
        "1 draw 6-4", "1 pass", "2 pass", "0 pass",
        "end blocked winner None pips [21, 53, 21] points [0, 0, 0] scores [0, 0, 0]"]


# Seed 000's worked examples, each played out in full from a constructed deal.
@pytest.mark.parametrize("hands, boneyard, leader, moves, end", [
    # a domino against [0|0] (worth 0) and [4|4] (8) scores 8
    (["2-0 1-1 6-1 4-2 5-2 5-5 6-6", "0-0 4-0 3-2 6-2 3-3 6-3 6-5",
      "1-0 5-0 2-1 3-1 4-1 4-4 5-4"], "6-0 5-1 6-4 3-0 5-3 4-3 2-2", 0,
     "6-6, 6-5 right, 5-4 right, 6-1 left, 4-0 right, 4-1 left, 4-2 left, 6-2 left, "
     "5-0 right, 5-5 right, 6-3 left, 3-1 left, 5-2 right, 3-2 right, 2-1 left, 2-0 left, "
     "3-3 right, 1-0 left, 1-1 left",
     "end domino winner 0 pips [0, 0, 8] points [8, 0, 0] scores [8, 0, 0]"),
    # blocked with 3 ([3|0]), 8 ([0|0] [1|1] [2|0] [2|2]) and 10: 8 + 10 - 3 = 15
    (["3-0 5-0 3-1 6-1 5-4 6-4 6-6", "1-1 4-1 5-1 2-2 5-2 4-4 5-5",
      "1-0 4-0 2-1 4-2 6-2 3-3 6-3"], "3-2 6-5 2-0 0-0 4-3 6-0 5-3", 1,
     "5-5, draw, draw, 6-5 left, 6-6 left, 5-2 right, 6-3 left, 3-1 left, 5-1 left, "
     "6-2 right, 6-4 right, 4-4 right, 4-2 right, 5-4 left, 4-1 left, 3-2 right, 6-1 left, "
     "draw, draw, draw, 4-3 right, 4-0 right, 5-0 right, pass, pass, pass",
     "end blocked winner 0 pips [3, 8, 10] points [15, 0, 0] scores [15, 0, 0]"),
    # blocked with 3 ([1|0] [1|1]), 3 ([3|0]) and 10: tied lowest hands score nothing
    (["1-0 4-1 6-1 3-2 6-2 6-3 4-4", "3-0 4-0 5-1 2-2 5-3 6-4 5-5",
      "5-0 6-0 3-1 4-2 3-3 4-3 6-6"], "2-1 5-4 6-5 1-1 2-0 0-0 5-2", 2,
     "6-6, 6-3 right, 6-4 left, 4-3 left, 3-2 right, 5-3 left, 4-2 right, 4-4 right, "
     "5-5 left, 5-0 left, 4-1 right, 5-1 right, 6-0 left, 6-2 left, 2-2 left, draw, "
     "2-1 left, 6-1 left, draw, 5-4 right, draw, 6-5 left, draw, draw, pass, 4-0 right, "
     "pass, 2-0 right, pass, pass, pass",
     "end blocked winner None pips [3, 3, 10] points [0, 0, 0] scores [0, 0, 0]"),
])
def test_seed_000_worked_examples(hands, boneyard, leader, moves, end):
    state = deal("pagat", hands, boneyard, leader=leader)
    play(state, *moves_of(moves))
    assert round_log(state)[-1] == end
