"""Scenarios for ``mexican`` (docs/variants.md "mexican"): two partnerships sitting opposite,
the whole set dealt, the [6|6] holder leads every round, passes instead of draws, and
side scoring on a domino and on a blocked round."""

from __future__ import annotations

from scenarios import deal, legal, log, moves_of, play, round_log

from dominorules import api

DOMINO = ["0-0 2-0 5-1 6-1 2-2 4-4 6-5", "2-1 4-1 4-2 3-3 6-3 6-4 6-6",
          "3-0 4-0 3-1 3-2 5-2 6-2 5-5", "1-0 5-0 6-0 1-1 4-3 5-3 5-4"]
DOMINO_MOVES = moves_of(
    "6-6, 6-2 right, 6-0 left, 2-2 right, 2-1 right, 3-1 right, 4-3 right, 0-0 left, "
    "4-1 right, 4-0 left, 1-0 right, 4-4 left, 4-2 left, 3-2 left, 5-3 left, 6-5 left, "
    "6-4 left, 3-0 right, 5-4 left, 5-1 left, 3-3 right, pass, 1-1 left, 6-1 left, "
    "6-3 right")


def test_the_6_6_holder_leads_every_round_and_partners_sit_opposite():
    second = api.Deal.of(["0-0 1-0 1-1 2-0 2-1 2-2 3-0", "3-1 3-2 3-3 4-0 4-1 4-2 4-3",
                          "4-4 5-0 5-1 5-2 5-3 5-4 5-5", "6-0 6-1 6-2 6-3 6-4 6-5 6-6"])
    state = deal("mexican", DOMINO, more=[second])
    assert state.teams == ((0, 2), (1, 3))
    assert log(state) == ["deal 1 leader 1"] and legal(state) == ["6-6"]
    assert state.record[1]["boneyard"] == []             # 4 x 7: the whole set is dealt
    play(state, *DOMINO_MOVES)
    assert log(state)[-1] == "deal 2 leader 3"
    assert legal(state) == ["6-6"]


def test_a_player_who_cannot_place_passes_and_may_not_pass_otherwise():
    state = deal("mexican", DOMINO)
    play(state, *DOMINO_MOVES[:21])
    assert state.observation(2).ends == (1, 3)
    assert legal(state) == ["pass"]                       # seat 2 holds 5-2 5-5
    play(state, "pass")
    assert legal(state) == ["1-1 left"]                    # seat 3 can place: no pass


def test_domino_scores_both_opponents_hands_not_the_partners():
    state = deal("mexican", DOMINO)
    play(state, *DOMINO_MOVES)
    # seat 1 goes out; opponents seats 0 (2-0 = 2) and 2 (5-2 5-5 = 17): 19 for side 1;
    # seat 3, the partner, keeps 5-0 (5), which does not count
    assert round_log(state)[-1] == (
        "end domino winner 1 pips [2, 0, 17, 5] points [0, 19] scores [0, 19]")


def test_blocked_the_lower_side_total_scores_the_other_sides_total():
    hands = ["2-0 6-0 6-1 6-2 3-3 4-3 5-5", "4-0 5-0 1-1 2-1 4-2 5-2 6-4",
             "0-0 1-0 4-1 5-1 3-2 4-4 6-5", "3-0 3-1 2-2 5-3 6-3 5-4 6-6"]
    state = deal("mexican", hands)
    play(state, *moves_of("6-6, 6-2 right, 4-2 right, 4-1 right, 3-1 right, 4-3 right, "
                          "6-4 right, 6-5 right, 5-4 right, 6-0 left, 4-0 left, 4-4 right"))
    play(state, "pass", "pass", "pass", "pass")
    # ends 4|4 and every four is placed. Seat 0 keeps 2-0 6-1 3-3 5-5 = 25, seat 1
    # 5-0 1-1 2-1 5-2 = 17, seat 2 0-0 1-0 5-1 3-2 = 12, seat 3 3-0 2-2 5-3 6-3 = 24.
    # Sides: 25 + 12 = 37 against 17 + 24 = 41: side 0 scores 41
    assert round_log(state)[-5:] == [
        "3 pass", "0 pass", "1 pass", "2 pass",
        "end blocked winner 0 pips [25, 17, 12, 24] points [41, 0] scores [41, 0]"]


def test_blocked_with_equal_side_totals_scores_nothing():
    hands = ["0-0 5-0 1-1 4-2 5-2 5-3 5-5", "1-0 2-0 2-2 4-3 4-4 5-4 6-6",
             "3-0 4-0 2-1 5-1 6-1 6-4 6-5", "6-0 3-1 4-1 3-2 6-2 3-3 6-3"]
    state = deal("mexican", hands)
    play(state, *moves_of("6-6, 6-4 right, 6-0 left, 4-2 right, 2-0 right, 3-0 right, "
                          "6-3 right, 0-0 left, 1-0 left, 6-5 right, 4-1 left, 5-0 right, "
                          "4-4 left, 4-0 left, pass, pass, pass, pass"))
    # sides: 27 + 16 = 43 and 20 + 23 = 43
    assert round_log(state)[-1] == (
        "end blocked winner None pips [27, 20, 16, 23] points [0, 0] scores [0, 0]")


def test_target_is_100_for_a_side():
    result = api.play_match("mexican", 4, seed=4, bots="random")
    assert result.target == 100
    assert [max(r.scores) >= 100 for r in result.rounds] == [False] * (
        len(result.rounds) - 1) + [True]
