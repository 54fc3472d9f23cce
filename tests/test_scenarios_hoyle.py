"""Scenarios for ``hoyle`` (docs/variants.md "hoyle"): the highest double leads and opens every
round, no double dealt means a redeal, the whole boneyard may be drawn, and the winner
scores all other hands without subtracting its own."""

from __future__ import annotations

import pytest
from scenarios import deal, legal, log, moves_of, play, round_log

from dominorules import api

TWO = ["5-0 2-1 3-3 4-3 5-3 6-3 6-6", "0-0 4-0 6-0 3-1 2-2 5-4 6-4"]
TWO_BONEYARD = "1-1 4-2 5-5 4-1 5-2 6-5 4-4 6-2 3-2 5-1 3-0 6-1 2-0 1-0"
NO_DOUBLE = api.Deal.of(["1-0 2-0 3-0 4-0 5-0 6-0 2-1", "3-1 4-1 5-1 6-1 3-2 4-2 5-2"])


@pytest.mark.parametrize("players, hand", [(2, 7), (3, 5), (4, 5)])
def test_deal_sizes(players, hand):
    state = api.load_game("hoyle").new_match(players, seed=3)
    deals = [e for e in state.record if e["event"] == "deal"]
    assert [len(h) for h in deals[-1]["hands"]] == [hand] * players


def test_the_highest_double_leads_and_is_set_at_once():
    state = deal("hoyle", TWO, TWO_BONEYARD)
    assert state.current_player == 0 and log(state) == ["deal 1 leader 0"]
    assert legal(state) == ["6-6"]                      # no other tile, no draw first


def test_no_double_dealt_means_a_redeal_recorded_as_a_second_deal():
    game = api.load_game("hoyle")
    state = game.new_match(2, deals=[NO_DOUBLE, api.Deal.of(TWO, TWO_BONEYARD)])
    assert log(state) == ["deal 1 leader None", "deal 1 leader 0"]
    assert state.record[1]["hands"][0] == [[0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6],
                                           [1, 2]]
    assert legal(state) == ["6-6"]
    assert state.rounds == () and state.round == 1


def test_drawing_with_a_playable_tile_is_allowed_and_domino_scores_the_others():
    state = deal("hoyle", TWO, TWO_BONEYARD)
    play(state, "6-6")
    assert legal(state) == ["6-0 left", "6-4 left", "6-0 right", "6-4 right", "draw"]
    play(state, *moves_of("6-4 right, 6-3 left, 5-4 right, 5-3 right, 3-1 left, 3-3 right, "
                          "draw, 1-1 left, 4-3 right, 4-0 right, 2-1 left, 2-2 left, 5-0 right"))
    # seat 1 keeps 0-0 and 6-0: 6 points to the dominoer
    assert round_log(state)[-3:] == [
        "1 2-2 left", "0 5-0 right",
        "end domino winner 0 pips [0, 6] points [6, 0] scores [6, 0]"]


def test_blocked_lowest_hand_scores_all_others_and_the_whole_boneyard_is_drawn():
    hands = ["6-0 3-1 5-2 4-3 4-4", "5-0 4-1 5-1 5-3 5-5", "0-0 4-0 2-1 4-2 6-5"]
    state = deal("hoyle", hands, "3-3 2-0 6-3 6-2 3-2 5-4 6-6 6-1 1-0 3-0 1-1 2-2 6-4")
    assert log(state) == ["deal 1 leader 1"]            # 5-5 is the highest double dealt
    assert legal(state) == ["5-5"]
    play(state, *moves_of("5-5, 6-5 right, 6-0 right, 5-0 right, draw, draw, draw, draw, "
                          "draw, draw, 5-4 right, 4-3 right, 5-1 left, 2-1 left, 5-2 left, "
                          "5-3 right, draw, draw, draw, draw, draw, draw, draw"))
    obs = state.observation(2)
    assert (obs.boneyard, obs.drawable) == (0, 0)       # all 13 drawn: no reserve
    assert legal(state) == ["pass"]
    play(state, "pass", "pass", "pass")
    # seat 1 (5 left: 4-1) is lowest and scores 12 + 79, its own 5 not subtracted
    assert round_log(state)[-1] == (
        "end blocked winner 1 pips [12, 5, 79] points [0, 91, 0] scores [0, 91, 0]")


def test_blocked_tie_for_lowest_scores_nothing():
    hands = ["2-1 5-1 3-2 5-2 4-3", "4-1 2-2 4-4 6-4 6-6", "4-0 5-0 6-0 6-2 5-3"]
    state = deal("hoyle", hands, "4-2 3-3 5-4 6-5 3-1 3-0 6-3 1-1 2-0 1-0 0-0 5-5 6-1")
    play(state, *moves_of(
        "6-6, 6-0 left, draw, draw, draw, draw, 6-5 right, draw, draw, 3-0 left, 5-3 left, "
        "5-1 left, 4-1 left, 4-0 left, 5-2 right, 2-2 right, 5-0 left, 4-2 right, "
        "4-4 right, draw, draw, draw, draw, draw, draw, 5-5 left, 5-4 right, draw, "
        "pass, pass, pass"))
    assert round_log(state)[-1] == (
        "end blocked winner None pips [21, 21, 22] points [0, 0, 0] scores [0, 0, 0]")


def test_target_is_100():
    assert api.load_game("hoyle").new_match(3, seed=1).observation(0).target == 100
