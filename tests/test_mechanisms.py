"""The rulebook's mechanisms one by one, on constructed positions with exact expectations."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dominorules.engine.game_rules import Restriction
from dominorules.engine.mechanisms import deal, events, lead, match, opening, settle, turn
from dominorules.engine.mechanisms.board import Board
from dominorules.engine.mechanisms.matching import fits, left_open
from dominorules.engine.mechanisms.position import LastRound, Position
from dominorules.engine.mechanisms.turn import DRAW, PASS, Action
from dominorules.rules import load_ruleset


def position(name: str, hands: list[list[tuple[int, int]]], boneyard=(), scores=None,
             opening_tiles=(), round_no: int = 1) -> Position:
    """A round of ``name`` with these hands, the board built by ``opening_tiles``: the
    first opens, each next one is (tile, end)."""
    rules = load_ruleset(name).rules
    players = len(hands)
    sides = ((tuple(range(0, players, 2)), tuple(range(1, players, 2))) if rules.partnerships
             else tuple((s,) for s in range(players)))
    pos = Position(rules, players, sides, rules.target(players, len(sides), rules.partnerships),
                   list(scores or [0] * len(sides)), [0] * len(sides), round=round_no)
    pos.hands = [list(h) for h in hands]
    pos.boneyard = list(boneyard)
    pos.drawn = [0] * players
    pos.play_points = [0] * len(sides)
    pos.board = Board(spins=rules.spinner == "first_double")
    for i, step in enumerate(opening_tiles):
        tile, end = (step, None) if i == 0 else step
        pos.board.place(tile, end)
        pos.last_tile = tile
    return pos


def place(tile, end):
    return Action("place", tile, end)


# -- matching and the board ------------------------------------------------------------------

def test_a_half_fits_an_end_and_leaves_the_other_open():
    assert fits((2, 5), 5) and not fits((2, 5), 3) and fits((0, 0), 0)
    assert left_open((2, 5), 5) == 2 and left_open((2, 5), 2) == 5 and left_open((4, 4), 4) == 4


def test_the_opening_tile_leaves_its_low_half_left_and_end_total_counts_doubles_twice():
    board = Board()
    board.place((5, 5), None)
    assert board.values() == [5, 5] and board.end_total() == 10   # a lone tile: its pips
    board.place((0, 5), "right")
    assert board.values() == [5, 0] and board.end_total() == 10   # 5 + 5 for the double, 0
    board.place((3, 5), "left")
    assert board.values() == [3, 0] and board.end_total() == 3
    assert board.ends_fitting((0, 3)) == ["left", "right"]


def test_a_spinner_opens_its_arms_once_both_sides_are_played_on():
    board = Board(spins=True)
    board.place((3, 5), None)
    board.place((5, 5), "right")                 # the first double: the spinner
    assert board.open_ends() == ["left", "right"]
    board.place((5, 6), "right")                 # its outer side played on: arms open
    assert board.open_ends() == ["left", "right", "up", "down"]
    assert board.values() == [3, 6, 5, 5]
    assert board.end_total() == 9                 # the bare arms do not count yet
    board.place((1, 5), "up")
    assert board.values() == [3, 6, 1, 5] and board.end_total() == 10
    board.place((4, 4), "left")  # a later double is no spinner
    assert board.open_ends() == ["left", "right", "up", "down"]


def test_an_opening_spinner_opens_its_arms_after_a_tile_on_each_side():
    board = Board(spins=True)
    board.place((6, 6), None)
    board.place((4, 6), "left")
    assert "up" not in board.ends and board.end_total() == 4 + 12
    board.place((2, 6), "right")
    assert board.values() == [4, 2, 6, 6] and board.end_total() == 6


# -- a turn ------------------------------------------------------------------------------------

def test_pagat_a_player_places_or_draws_voluntarily_down_to_the_reserve():
    pos = position("pagat", [[(1, 2), (3, 3), (2, 6)], [(0, 0)]], boneyard=[(4, 4), (5, 5), (0, 1)],
                   opening_tiles=[(2, 3)])
    assert turn.legal_actions(pos) == [place((1, 2), "left"), place((2, 6), "left"),
                                       place((3, 3), "right"), DRAW]
    pos.boneyard = pos.boneyard[:2]               # the last two are never drawn
    assert DRAW not in turn.legal_actions(pos)


def test_dutch_a_stuck_player_draws_at_most_two_then_passes():
    pos = position("dutch", [[(0, 0)], [(1, 1)]], boneyard=[(4, 4)] * 5, opening_tiles=[(5, 6)])
    assert turn.legal_actions(pos) == [DRAW]
    pos.drawn_this_turn = 2
    assert turn.legal_actions(pos) == [PASS]
    pos = position("dutch", [[(0, 5)], [(1, 1)]], boneyard=[(4, 4)] * 5, opening_tiles=[(5, 6)])
    assert turn.legal_actions(pos) == [place((0, 5), "left")]   # no voluntary draw


def test_block_a_stuck_player_passes_at_once():
    pos = position("house/block", [[(0, 0)], [(1, 1)]], boneyard=[(4, 4)] * 5,
                   opening_tiles=[(5, 6)])
    assert turn.legal_actions(pos) == [PASS]


def test_a_restriction_forbids_and_if_none_allowed_decides_when_it_forbids_everything():
    # house/double-blank-last (dutch): [0|0] only as the only playable tile
    pos = position("house/double-blank-last", [[(0, 0), (0, 4)], [(1, 1)]],
                   boneyard=[(6, 6)] * 5, opening_tiles=[(0, 3)])
    assert turn.legal_actions(pos) == [place((0, 4), "left")]
    pos.hands[0] = [(0, 0), (2, 2)]
    assert turn.legal_actions(pos) == [place((0, 0), "left")]
    # no going out on a double (docs/house-rules.md 14), each if_none_allowed
    pos = position("house/double-blank-last", [[(0, 0)], [(1, 1)]], boneyard=[(6, 6)] * 5,
                   opening_tiles=[(0, 3)])
    no_double_out = Restriction(lambda env: not env["tile"][0] == env["tile"][1]
                                or len(env["hand"]) > 1, "no domino on a double")
    for choice, legal in (("stuck", [DRAW]), ("pass", [PASS]), ("waive", [place((0, 0), "left")])):
        pos.rules = replace(pos.rules, restrictions=(no_double_out,), if_none_allowed=choice)
        assert turn.legal_actions(pos) == legal, choice


# -- the lead and the opening ------------------------------------------------------------------

def test_later_leads_rotate_stay_follow_the_winner_or_a_formula():
    pos = position("pagat", [[], [], []])
    pos.previous = LastRound(leader=2, winner_seat=None, winner_side=None, last_player=1,
                             blocked=True)
    assert lead.leader(pos, "rotate", None) == 0
    assert lead.leader(pos, "same", None) == 2
    assert lead.leader(pos, "winner", None) == 2          # nobody won: the previous leader
    right = position("house/play-to-the-right", [[], [], []])
    right.previous = pos.previous
    assert lead.leader(right, "rotate", None) == 1
    blocker = position("house/blocker-leads", [[], [], [], []])
    blocker.previous = LastRound(leader=0, winner_seat=3, winner_side=1, last_player=1,
                                 blocked=False)
    assert lead.formula_leader(blocker) == 1              # the last placer's side won
    blocker.previous = LastRound(0, 2, 0, 3, False)
    assert lead.formula_leader(blocker) == 0              # it lost: the seat after it


def test_hoyle_the_highest_double_opens_and_no_double_means_a_redeal():
    pos = position("hoyle", [[(1, 1), (2, 5)], [(4, 4), (0, 1)]], boneyard=[(6, 6)])
    assert lead.highest_double_holder(pos) == 1
    assert opening.plan(pos, 1) == opening.Plan("place", 1, ((4, 4),))
    pos = position("hoyle", [[(1, 2)], [(0, 1)]], boneyard=[(6, 6)])
    assert lead.highest_double_holder(pos) is None


def test_heaviest_opens_when_no_double_was_dealt():
    pos = position("house/heaviest-opens", [[(1, 2), (4, 6)], [(0, 1), (5, 6)]], boneyard=[])
    assert opening.plan(pos, 0) == opening.Plan("place", 1, ((5, 6),))
    pos = position("house/heaviest-opens", [[(4, 6)], [(5, 5)]], boneyard=[])  # 10 pips each
    assert opening.heaviest(pos) == opening.Plan("place", 0, ((4, 6),))   # the higher half


def test_double_opening_passes_the_opening_on_or_redeals():
    pos = position("house/double-opening", [[(1, 2)], [(0, 1)], [(3, 3), (0, 6)]])
    assert opening.plan(pos, 0) == opening.Plan("place", 2, ((3, 3),), free=True)
    pos = position("house/double-opening", [[(1, 2)], [(0, 1)], [(3, 4)]])
    assert opening.plan(pos, 0) == opening.Plan("redeal")


def test_vietnamese_an_unheld_six_six_is_drawn_for_in_turn_from_the_leader():
    pos = position("vietnamese", [[(1, 2)], [(0, 1)]], boneyard=[(0, 0), (6, 6)])
    assert opening.plan(pos, 1) == opening.Plan("draw_in_turn", 1)
    pos = position("vietnamese", [[(1, 2)], [(6, 6)]], boneyard=[(0, 0)])
    assert opening.plan(pos, 0) == opening.Plan("place", 1, ((6, 6),))


def test_first_round_highest_double_then_any_tile():
    hands = [[(1, 1), (2, 5)], [(4, 4), (0, 1)]]
    first = position("house/first-round-highest-double", hands, boneyard=[(6, 6)])
    assert opening.plan(first, 1) == opening.Plan("place", 1, ((4, 4),))
    later = position("house/first-round-highest-double", hands, boneyard=[(6, 6)], round_no=2)
    assert opening.plan(later, 0) == opening.Plan("place", 0, ((1, 1), (2, 5)), free=True)


# -- the deal ------------------------------------------------------------------------------------

def test_a_deal_must_give_each_seat_its_hand_size_from_the_set_once():
    pos = position("house/one-point-per-round", [[], []])
    tiles = deal.full_set(6)
    assert len(tiles) == 28 and tiles[:3] == [(0, 0), (0, 1), (1, 1)]
    assert deal.deal_problem(pos, [tiles[:7], tiles[7:14]], tiles[14:]) is None
    assert deal.deal_problem(pos, [tiles[:6], tiles[7:14]], tiles[14:]) == (
        "the rules deal 7 tiles to each seat; the record deals seat 0 6")
    assert deal.deal_problem(pos, [tiles[:7], tiles[7:14]], tiles[13:]) == (
        "the deal must hold each of the set's 28 tiles once; the record holds 28 different "
        "tiles in 29")


def test_four_doubles_in_a_hand_throw_the_deal_in():
    pos = position("house/four-doubles-redeal", [[(0, 0), (1, 1), (2, 2), (3, 3)], [(0, 1)]])
    assert deal.redeal_asked(pos)
    pos.hands[0][3] = (3, 4)
    assert not deal.redeal_asked(pos)


# -- play-time events ------------------------------------------------------------------------------

def test_all_fives_scores_the_ends_at_once():
    pos = position("house/all-fives", [[(0, 5)], [(1, 1)]], opening_tiles=[(5, 5)])
    pos.board.place((0, 5), "right")
    env = events.environment(pos, 0, "place", (0, 5))
    fired = events.fire(pos, 0, "place", env)
    assert fired.scores == ((0, 0, 10),) and not fired.again and fired.skips == 0
    assert pos.scores == [10, 0] and pos.play_points == [10, 0]


def test_a_double_plays_again_and_the_double_blank_skips():
    pos = position("house/doubles-play-again", [[(3, 3)], [(1, 1)]], opening_tiles=[(3, 4)])
    assert events.fire(pos, 0, "place", events.environment(pos, 0, "place", (3, 3))).again
    pos = position("house/double-blank-skips", [[(0, 0)], [(1, 1)], [(2, 2)]],
                   opening_tiles=[(0, 4)])
    assert events.fire(pos, 0, "place", events.environment(pos, 0, "place", (0, 0))).skips == 1


def test_a_forced_draw_pays_every_opponent_and_a_free_one_nothing():
    pos = position("house/pay-per-forced-draw", [[(1, 2)], [(1, 1)], [(2, 2)]],
                   opening_tiles=[(0, 4)])
    env = events.environment(pos, 0, "draw", (6, 6), forced=True)
    assert events.fire(pos, 0, "draw", env).scores == ((0, 1, 1), (0, 2, 1))
    env = events.environment(pos, 0, "draw", (6, 6), forced=False)
    assert events.fire(pos, 0, "draw", env).scores == ()


# -- settling a round ------------------------------------------------------------------------------

def test_pagat_a_domino_scores_the_opponents_hands():
    pos = position("pagat", [[], [(0, 0)], [(3, 5)]], opening_tiles=[(1, 2)])
    pos.last_player = 0
    done = settle.settle(pos, blocked=False, dominoer=0)
    assert (done.result, done.winner, done.pips, done.points) == ("domino", 0, [0, 0, 8],
                                                                  [8, 0, 0])


def test_pagat_blocked_the_unique_lowest_hand_scores_the_others_minus_its_own():
    pos = position("pagat", [[(1, 2)], [(3, 3)], [(5, 6)]], opening_tiles=[(0, 0)])
    pos.last_player = 2
    done = settle.settle(pos, blocked=True, dominoer=None)
    assert (done.winner, done.points) == (0, [6 + 11 - 3, 0, 0])
    pos.hands[1] = [(0, 3)]                                   # a tie for lowest
    assert settle.settle(pos, blocked=True, dominoer=None).points == [0, 0, 0]


def test_dutch_double_blank_counts_thirteen():
    pos = position("dutch", [[], [(0, 0), (1, 2)]], opening_tiles=[(4, 4)])
    assert settle.settle(pos, blocked=False, dominoer=0).points == [16, 0]


def test_mexican_blocked_the_lower_side_total_scores_the_other_side():
    pos = position("mexican", [[(0, 1)], [(6, 6)], [(0, 2)], [(1, 1)]], opening_tiles=[(3, 3)])
    done = settle.settle(pos, blocked=True, dominoer=None)
    assert (done.winner, done.points) == (0, [14, 0])


def test_every_side_reads_which_side_won_from_every_side():
    """docs/language.md: ``side.won`` says whether it won; ``sides.won`` too (issue 19
    item 2: the winner is known before any side is scored)."""
    pos = position("pagat", [[(1, 2)], [], [(5, 6)]], opening_tiles=[(0, 0)])
    pos.rules = replace(pos.rules, every_side=lambda env: 1 if any(s.won for s in env["sides"])
                        else 0)
    assert settle.settle(pos, blocked=False, dominoer=1).points == [1, 3 + 11 + 1, 1]


def test_pay_per_draw_and_minimum_to_start_and_exact_target():
    pos = position("house/pay-per-draw", [[], [(1, 2)]], opening_tiles=[(4, 4)])
    pos.drawn = [2, 3]
    assert settle.settle(pos, blocked=False, dominoer=0).points == [3 - 2, -3]
    pos = position("house/minimum-to-start", [[], [(1, 2)]], opening_tiles=[(4, 4)])
    assert settle.settle(pos, blocked=False, dominoer=0).points == [0, 0]   # 3 < 10 on 0
    pos.scores = [5, 0]
    assert settle.settle(pos, blocked=False, dominoer=0).points == [3, 0]
    pos = position("house/exact-target", [[], [(5, 6)]], scores=[95, 0], opening_tiles=[(4, 4)])
    assert settle.settle(pos, blocked=False, dominoer=0).points == [0, 0]   # 10 passes 100
    pos.hands[1] = [(2, 3)]
    assert settle.settle(pos, blocked=False, dominoer=0).points == [5, 0]


def test_last_two_block_compares_the_blocker_and_the_next_and_the_blocker_wins_a_tie():
    pos = position("house/last-two-block", [[(0, 1)], [(2, 3)], [(2, 3)]], opening_tiles=[(6, 6)])
    pos.last_player = 1                                     # seat 0 is lower, but not compared
    done = settle.settle(pos, blocked=True, dominoer=None)
    assert (done.winner, done.points) == (1, [0, 1 + 5 - 5, 0])


# -- the match -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, scores, rounds, expect", [
    ("pagat", [61, 20, 3], 3, (True, 0)),
    ("pagat", [60, 20, 3], 3, (False, None)),
    ("pagat", [70, 70, 3], 3, (True, None)),           # a tie for highest: a drawn match
    ("house/low-score-wins", [100, 20, 30], 3, (True, 1)),
    ("house/fixed-rounds", [10, 20, 30], 6, (True, 2)),
    ("house/fixed-rounds", [10, 20, 30], 5, (False, None)),
])
def test_when_the_match_ends_and_who_wins(name, scores, rounds, expect):
    pos = position(name, [[], [], []], scores=scores, round_no=rounds)
    assert match.decided(pos) == expect


def test_first_to_three_rounds_and_its_safety_net():
    pos = position("house/first-to-three", [[], []], scores=[90, 10], round_no=7)
    pos.rounds_won = [2, 3]
    assert match.decided(pos) == (True, 1)              # points do not matter
    pos.rounds_won = [2, 2]
    assert match.decided(pos) == (False, None)
    pos.round = 25
    assert match.decided(pos) == (True, None)           # draw_if: round >= 25


def test_a_shutout_pays_double():
    pos = position("house/shutout-pays-double", [[], []], scores=[100, 0])
    assert match.final_scores(pos, 0) == [200, 0]
    pos.scores = [100, 5]
    assert match.final_scores(pos, 0) == [100, 5]


def test_a_domino_settled_as_blocked_goes_to_the_lower_side():
    # house/lowest-side-takes-round: seat 0 went out, but side 1's hands are lower
    pos = position("house/lowest-side-takes-round", [[], [(0, 1)], [(5, 6)], [(0, 0)]],
                   opening_tiles=[(3, 3)])
    done = settle.settle(pos, blocked=False, dominoer=0)
    assert (done.winner, done.winner_seat, done.points) == (1, 3, [0, 11])


def test_blocked_ties_each_next_player_and_a_highest_rank():
    rules = load_ruleset("pagat").rules
    pos = position("pagat", [[(1, 2)], [(0, 3)], [(5, 6)]], opening_tiles=[(0, 0)])
    pos.last_player = 0
    pos.rules = replace(rules, blocked_tie="each")
    done = settle.settle(pos, blocked=True, dominoer=None)
    assert (done.winner, done.points) == (None, [3 + 11 - 3, 3 + 11 - 3, 0])
    pos.rules = replace(rules, blocked_tie="next_player")       # seat 1, among the tied
    assert settle.settle(pos, blocked=True, dominoer=None).winner == 1
    pos.last_player = 1                                          # seat 2: not tied
    assert settle.settle(pos, blocked=True, dominoer=None).points == [0, 0, 0]
    pos.rules = replace(rules, blocked_winner="highest", blocked_rank=lambda env: env["side"].value)
    assert settle.settle(pos, blocked=True, dominoer=None).winner == 2


def test_a_drawn_tile_paid_to_the_round_winner():
    rules = load_ruleset("house/pay-per-draw").rules
    pos = position("house/pay-per-draw", [[], [(1, 2)]], opening_tiles=[(4, 4)])
    pos.rules = replace(rules, draw_cost_to="round_winner")
    pos.drawn = [1, 4]
    assert settle.settle(pos, blocked=False, dominoer=0).points == [3 - 1 + 5, -4]


def test_a_tie_at_the_target_plays_on_when_the_rules_say_so():
    pos = position("pagat", [[], [], []], scores=[70, 70, 3], round_no=3)
    pos.rules = replace(pos.rules, match_tie="play_on")
    assert match.decided(pos) == (False, None)
    pos.round = match.MAX_ROUNDS
    assert match.decided(pos) == (True, None)       # stopped undecided at the cap


def test_the_leader_by_seat_or_by_the_opening_tile():
    pos = position("mexican", [[(0, 1)], [(2, 2)], [(6, 6)], [(3, 4)]])
    assert lead.leader(pos, "seat_zero", None) == 0
    assert lead.leader(pos, "opening_tile_holder", (6, 6)) == 2
    assert opening.plan(pos, 2) == opening.Plan("place", 2, ((6, 6),))


def test_a_leader_without_an_allowed_tile_draws_for_one_or_lacks_the_required_tile():
    rules = load_ruleset("house/double-opening").rules
    pos = position("house/double-opening", [[(1, 2)], [(3, 3)]])
    pos.rules = replace(rules, if_lacking="draw")
    assert opening.plan(pos, 0) == opening.Plan("draw_until", 0)
    # opener: leader, and another seat holds [6|6]: the docs are silent; thrown in
    pos = position("pagat", [[(1, 2)], [(6, 6)]])
    pos.rules = replace(pos.rules, opening_tile=(6, 6), opener="leader", if_lacking="pass_on")
    assert opening.plan(pos, 0) == opening.Plan("redeal")
    assert opening.plan(pos, 1) == opening.Plan("place", 1, ((6, 6),))


def test_a_placement_restriction_is_given_every_name_its_kind_offers_and_no_other():
    """The loop, its why-not and the rulebook all build a restriction's names through
    ``restrictions.placement_env``: a name the ``placement`` kind offers but the env
    lacked would be a KeyError in the middle of a match."""
    from dominorules.engine.mechanisms import restrictions
    from dominorules.expr.fields import FIELDS

    env = restrictions.placement_env([(1, 2)], [(1, 2)], [1, 4], 3, 2, 4, (True, 1))
    restrictions.at(env, (1, 2), 1, 0)
    assert set(env) == set(FIELDS["placement"].names)
    plain = restrictions.at(restrictions.placement_env([], [], [1, 4], 0, 1, 2), (1, 2), 1)
    assert set(FIELDS["placement"].names) - set(plain) == {"arm", "spinners_complete",
                                                           "doubles_down"}
    rule = Restriction(allow=lambda e: e["tile"] != (1, 2), explain="not the 2-1",
                       text="tile != [1|2]")
    assert restrictions.forbidding([rule], env) == "not the 2-1"
    assert restrictions.forbidding([rule], restrictions.at(env, (0, 1), 1)) is None
