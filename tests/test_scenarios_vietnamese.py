"""Scenarios for ``vietnamese`` (docs/variants.md "vietnamese"): one tile each, [6|6] opens,
drawing in turn for it from the leader, play on from the opener's left, and the hand of
[6|6] alone that dominoes with the opening."""

from __future__ import annotations

import pytest
from scenarios import deal, legal, log, play

from dominorules import api


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_tile_each(players):
    state = api.load_game("vietnamese").new_match(players, seed=5)
    assert [len(h) for h in state.record[1]["hands"]] == [1] * players


def test_nobody_holds_6_6_so_players_draw_in_turn_from_the_leader():
    state = deal("vietnamese", ["5-5", "4-4", "3-3"], "1-0 2-0 6-6 6-1 2-1", leader=0)
    assert state.observation(0).phase == "seek"
    for seat in (0, 1, 2):
        assert state.current_player == seat and legal(state) == ["draw"]
        play(state, "draw")
        if seat < 2:   # no pass is recorded: the turn just moves on
            assert log(state)[-1] == f"{seat} draw {['1-0', '2-0'][seat]}"
    # seat 2 drew [6|6]: it opens with it at once
    assert state.current_player == 2 and legal(state) == ["6-6"]
    play(state, "6-6")
    assert log(state) == ["deal 1 leader 0", "0 draw 1-0", "1 draw 2-0", "2 draw 6-6",
                          "2 6-6"]
    # play continues from the opener's left, under pagat's turn rules: seat 0 has no six
    assert state.current_player == 0 and legal(state) == ["draw"]
    play(state, "draw")                                   # 6-1 fits; more draws allowed
    assert legal(state) == ["6-1 left", "6-1 right", "draw"]


def test_the_holder_of_6_6_opens_and_the_leader_is_still_recorded():
    state = deal("vietnamese", ["5-5", "4-4", "6-6"], leader=0)
    assert log(state) == ["deal 1 leader 0"]
    assert state.current_player == 2 and legal(state) == ["6-6"]


def test_a_hand_of_6_6_alone_dominoes_with_the_opening():
    state = deal("vietnamese", ["5-5", "6-6"], leader=0)
    play(state, "6-6")
    assert log(state) == ["deal 1 leader 0", "1 6-6",
                          "end domino winner 1 pips [10, 0] points [0, 10] scores [0, 10]",
                          "deal 2 leader 1"]


def test_the_whole_boneyard_may_be_drawn():
    state = deal("vietnamese", ["5-5", "4-4"], "6-6", leader=0)
    play(state, "draw", "6-6")                           # seat 0 finds [6|6] and opens
    drawn = 0
    while "draw" in legal(state):                        # seat 1: forced, then voluntary
        play(state, "draw")
        drawn += 1
    obs = state.observation(1)
    assert (drawn, obs.boneyard, obs.drawable, len(obs.hand)) == (25, 0, 0, 26)
    assert state.current_player == 1 and "pass" not in legal(state)
