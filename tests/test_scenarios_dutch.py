"""Scenarios for ``dutch`` (docs/variants.md "dutch"): no voluntary draws, at most two drawn
tiles a turn (stopping at the first that fits), the reserve of 2, [0|0] worth 13."""

from __future__ import annotations

from scenarios import deal, legal, moves_of, play, round_log

HANDS = ["2-0 3-0 5-1 3-2 5-3 4-4 6-4", "1-0 4-0 6-0 2-1 6-1 4-2 3-3"]
BONEYARD = "2-2 0-0 5-0 6-3 5-4 6-6 5-5 1-1 4-3 6-5 5-2 3-1 4-1 6-2"


def test_no_draw_while_a_tile_fits_not_even_on_the_opening_turn():
    state = deal("dutch", HANDS, BONEYARD, leader=0)
    assert legal(state) == ["2-0", "3-0", "5-1", "3-2", "5-3", "4-4", "6-4"]
    assert state.observation(0).drawable == 12          # 14 in the boneyard, 2 kept back
    play(state, "5-3")
    assert legal(state) == ["3-3 left"]                  # seat 1 can place: it must


def test_a_stuck_player_draws_at_most_two_then_passes_and_0_0_counts_13():
    state = deal("dutch", HANDS, BONEYARD, leader=0)
    play(state, *moves_of("5-3, 3-3 left, 5-1 right, 2-1 right, 3-2 right"))
    assert state.observation(1).ends == (3, 3) and state.current_player == 1
    assert legal(state) == ["draw"]
    play(state, "draw")                                  # 2-2: no three
    assert legal(state) == ["draw"]
    play(state, "draw")                                  # 0-0: no three, and that was two
    assert legal(state) == ["pass"]
    play(state, *moves_of("pass, 3-0 left, 6-0 left, 6-4 left, 4-0 left, 2-0 left, "
                          "4-2 left, 4-4 left"))
    # seat 0 went out; seat 1 keeps 1-0 6-1 2-2 and 0-0: 1 + 7 + 4 + 13 = 25
    assert round_log(state)[6:9] == ["1 draw 2-2", "1 draw 0-0", "1 pass"]
    assert round_log(state)[-1] == (
        "end domino winner 0 pips [0, 25] points [25, 0] scores [25, 0]")


def test_drawing_stops_at_the_first_tile_that_fits():
    state = deal("dutch", ["6-6 0-0 1-1 2-2 3-3 4-4 5-5", "1-0 2-0 3-0 4-0 5-0 2-1 3-1"],
                 "6-1 5-1", leader=0)
    play(state, "6-6", "draw")
    assert legal(state) == ["6-1 left", "6-1 right"]
