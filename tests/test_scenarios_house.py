"""Scenarios for the house rules of docs/variants.md (``rulesets/house/``), each under its real
ruleset. The lead rules (4 to 7) are in ``test_scenarios_leaders.py``."""

from __future__ import annotations

import pytest
from deals import (
    FOUR,
    FOUR_BLOCKED_MOVES,
    FOUR_BONEYARD,
    THREE,
    THREE_BONEYARD,
    THREE_MOVES,
    TIE,
    TIE_BONEYARD,
    TIE_MOVES,
)
from scenarios import deal, legal, log, moves_of, play, round_log

from dominorules import api
from dominorules.diagnostics import DiagnosticError


def first_hand_sizes(ruleset: str, players: int) -> list[int]:
    state = api.load_game(ruleset).new_match(players, seed=2)
    return [len(h) for h in state.record[1]["hands"]]


# 1. South American: 8 - players tiles each
@pytest.mark.parametrize("players, size", [(2, 6), (3, 5), (4, 4)])
def test_south_american_deals_eight_minus_the_players(players, size):
    assert first_hand_sizes("house/south-american", players) == [size] * players


# 2. Britannica: the winner scores only the others' hands, to 50
def test_britannica_blocked_winner_keeps_its_own_hand_and_plays_to_50():
    state = deal("house/britannica", FOUR, FOUR_BONEYARD, leader=3)
    play(state, *FOUR_BLOCKED_MOVES)
    # 37 + 23 + 17 = 77 (pagat would subtract the winner's 15)
    assert log(state)[-2:] == [
        "end blocked winner 2 pips [37, 23, 15, 17] points [0, 0, 77, 0] scores [0, 0, 77, 0]",
        "match_end winner 2 scores [0, 0, 77, 0]"]
    assert state.outcome.target == 50


def test_britannica_tie_for_lowest_still_scores_nothing():
    state = deal("house/britannica", TIE, TIE_BONEYARD, leader=2)
    play(state, *TIE_MOVES)
    assert round_log(state)[-1].endswith("points [0, 0, 0] scores [0, 0, 0]")


# 3. One point per round won, to 5
@pytest.mark.parametrize("hands, boneyard, leader, moves, end", [
    (FOUR, FOUR_BONEYARD, 3, FOUR_BLOCKED_MOVES,
     "end blocked winner 2 pips [37, 23, 15, 17] points [0, 0, 1, 0] scores [0, 0, 1, 0]"),
    (THREE, THREE_BONEYARD, 2, THREE_MOVES,
     "end domino winner 2 pips [7, 10, 0] points [0, 0, 1] scores [0, 0, 1]"),
    (TIE, TIE_BONEYARD, 2, TIE_MOVES,
     "end blocked winner None pips [21, 53, 21] points [0, 0, 0] scores [0, 0, 0]"),
])
def test_one_point_per_round_won(hands, boneyard, leader, moves, end):
    state = deal("house/one-point-per-round", hands, boneyard, leader=leader)
    play(state, *moves)
    assert round_log(state)[-1] == end
    assert state.observation(0).target == 5


def test_one_point_per_round_the_fifth_win_ends_the_match():
    state = deal("house/one-point-per-round", THREE, THREE_BONEYARD, leader=2,
                 scores=[3, 4, 4])
    play(state, *THREE_MOVES)
    assert log(state)[-1] == "match_end winner 2 scores [3, 4, 5]"


# 8. The highest double leads and, separately, [6|6] must open
def test_highest_double_six_six_holder_of_6_6_leads_and_opens():
    state = deal("house/highest-double-six-six",
                 ["5-5 1-0 2-0 3-0 4-0", "2-1 3-1 4-1 5-1 6-6", "3-2 4-2 5-2 6-2 4-3"])
    assert log(state) == ["deal 1 leader 1"] and legal(state) == ["6-6"]


def test_highest_double_six_six_the_leader_starts_drawing_in_turn_for_6_6():
    state = deal("house/highest-double-six-six",
                 ["5-5 1-0 2-0 3-0 4-0", "2-1 3-1 4-1 5-1 6-1", "3-2 4-2 5-2 6-2 4-3"],
                 "6-0 6-6")
    # 5-5 is the highest double dealt: seat 0 leads, but [6|6] is in the boneyard
    assert log(state) == ["deal 1 leader 0"] and legal(state) == ["draw"]
    play(state, "draw")
    assert state.current_player == 1 and legal(state) == ["draw"]
    play(state, "draw")
    assert legal(state) == ["6-6"]
    play(state, "6-6")
    assert log(state) == ["deal 1 leader 0", "0 draw 6-0", "1 draw 6-6", "1 6-6"]
    assert state.current_player == 2                     # the opener's left
    assert legal(state) == ["6-2 left", "6-2 right", "draw"]


def test_highest_double_six_six_no_double_dealt_is_a_redeal():
    redeal = api.Deal.of(["5-5 1-0 2-0 3-0 4-0", "2-1 3-1 4-1 5-1 6-6",
                          "3-2 4-2 5-2 6-2 4-3"])
    state = deal("house/highest-double-six-six",
                 ["1-0 2-0 3-0 4-0 5-0", "2-1 3-1 4-1 5-1 6-1", "3-2 4-2 5-2 6-2 4-3"],
                 more=[redeal])
    assert log(state) == ["deal 1 leader None", "deal 1 leader 1"]


# 9. The boneyard may be emptied
def test_empty_boneyard_every_tile_may_be_drawn():
    state = deal("house/empty-boneyard",
                 ["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0 4-4"], leader=0)
    for _ in range(14):
        assert legal(state)[-1] == "draw"
        play(state, "draw")
    obs = state.observation(0)
    assert (obs.boneyard, len(obs.hand)) == (0, 21) and "draw" not in legal(state)


# 10. Paying for each drawn tile
def test_pay_per_draw_costs_one_point_a_tile_in_the_rounds_points():
    state = deal("house/pay-per-draw", TIE, TIE_BONEYARD, leader=2)
    play(state, *TIE_MOVES)
    # a tied block scores nothing, but seat 1 drew 5 tiles and loses 5
    assert round_log(state)[-1] == (
        "end blocked winner None pips [21, 53, 21] points [0, -5, 0] scores [0, -5, 0]")


def test_pay_per_draw_the_winner_scores_as_pagat_and_the_drawer_pays_nobody():
    state = deal("house/pay-per-draw", FOUR, FOUR_BONEYARD, leader=3)
    play(state, *FOUR_BLOCKED_MOVES)
    assert round_log(state)[-1] == (
        "end blocked winner 2 pips [37, 23, 15, 17] points [-2, 0, 62, 0] "
        "scores [-2, 0, 62, 0]")


# 11. Draw one tile when stuck; play it if it fits, otherwise pass
def test_draw_one_when_stuck_then_pass_or_place():
    hands = ["0-0 3-0 4-0 6-0 5-1 5-4 6-6", "1-0 1-1 2-1 4-1 4-2 5-2 6-5"]
    state = deal("house/draw-one", hands,
                 "6-1 5-3 5-5 4-4 6-3 2-2 3-2 6-4 2-0 6-2 3-3 5-0 4-3 3-1", leader=0)
    assert "draw" not in legal(state)                    # no voluntary draw
    play(state, *moves_of("6-6, 6-5 right, 6-0 left, 5-2 right, 0-0 left, 4-2 right, "
                          "4-0 right, 1-0 right, 3-0 left, 4-1 right, 5-4 right"))
    assert state.observation(1).ends == (3, 5) and legal(state) == ["draw"]
    play(state, "draw")                                  # 6-1 does not fit: one draw only
    assert legal(state) == ["pass"]
    play(state, "pass", "5-1 right")
    # seat 1 keeps 1-1 2-1 6-1: 2 + 3 + 7
    assert round_log(state)[-4:] == [
        "1 draw 6-1", "1 pass", "0 5-1 right",
        "end domino winner 0 pips [0, 12] points [12, 0] scores [12, 0]"]


def test_draw_one_a_drawn_tile_that_fits_must_be_placed():
    hands = ["0-0 3-0 4-0 6-0 5-1 5-4 6-6", "1-0 1-1 2-1 4-1 4-2 5-2 6-5"]
    state = deal("house/draw-one", hands, "5-3 6-1", leader=0)
    play(state, *moves_of("6-6, 6-5 right, 6-0 left, 5-2 right, 0-0 left, 4-2 right, "
                          "4-0 right, 1-0 right, 3-0 left, 4-1 right, 5-4 right, draw"))
    assert legal(state) == ["5-3 left", "5-3 right"]      # it fits both ends 3|5


# 12. Larger sets
@pytest.mark.parametrize("ruleset, tiles, sizes", [
    ("house/double-nine", 55, {2: 7, 5: 7, 6: 6, 7: 5, 8: 5}),
    ("house/double-twelve", 91, {2: 12, 6: 12, 7: 10, 8: 9}),
])
def test_larger_sets_and_their_hand_sizes(ruleset, tiles, sizes):
    game = api.load_game(ruleset)
    assert game.tileset.tile_count == tiles
    for players, size in sizes.items():
        assert first_hand_sizes(ruleset, players) == [size] * players
    with pytest.raises(DiagnosticError, match="is played by 2 to 8 players, not 9"):
        game.new_match(9)


def test_double_nine_round_scores_with_nines():
    hands = ["1-0 7-1 6-3 8-3 9-5 9-6 8-7", "3-0 2-1 3-1 5-1 9-2 3-3 8-4",
             "2-0 6-1 5-2 8-2 6-4 6-5 7-6", "9-0 4-2 6-2 7-4 8-6 9-7 9-8",
             "5-0 6-0 7-0 2-2 5-3 5-5 7-7"]
    state = deal("house/double-nine", hands, "4-1 4-4 7-3 6-6 7-5", leader=1)
    play(state, *moves_of(
        "3-0, 2-0 left, 6-2 left, 5-3 right, 9-6 left, 5-1 right, 6-1 right, 9-7 left, "
        "7-7 left, 7-1 left, 2-1 left, 6-5 right, 4-2 left, 5-5 right, 9-5 right, "
        "8-4 left, 8-2 left, 9-8 right, 2-2 left, 8-7 right, 9-2 left, 7-6 right, "
        "9-0 left, 5-0 left, 6-3 right, 3-3 right, 5-2 left, draw, draw, draw, 7-3 right, "
        "7-0 right, 1-0 right, 3-1 right"))
    # left: 8-3 (11); -; 6-4 (10); 4-1 4-4 7-4 8-6 (5 + 8 + 11 + 14 = 38); 6-0 (6)
    assert round_log(state)[-1] == (
        "end domino winner 1 pips [11, 0, 10, 38, 6] points [0, 65, 0, 0, 0] "
        "scores [0, 65, 0, 0, 0]")


# 13. Four-player Draw in partnerships
def test_partnership_draw_sides_and_blocked_side_totals():
    state = deal("house/partnership-draw", FOUR, FOUR_BONEYARD, leader=3)
    assert state.teams == ((0, 2), (1, 3)) and state.observation(0).target == 100
    play(state, *FOUR_BLOCKED_MOVES)
    # sides: 37 + 15 = 52 against 23 + 17 = 40: side 1 scores 52 - 40 = 12
    assert round_log(state)[-1] == (
        "end blocked winner 1 pips [37, 23, 15, 17] points [0, 12] scores [0, 12]")
