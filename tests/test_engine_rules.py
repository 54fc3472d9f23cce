"""Scenario tests: one constructed deal per rule of docs/variants.md, exact legal actions,
events and scores. Positions are built with ``tests/rules_factory.py``."""

from __future__ import annotations

import pytest
from rules_factory import events, make_game, opponents_pips, play, start, texts

from dominorules.engine import leaders
from dominorules.engine.actions import AmbiguousActionError, IllegalActionError
from dominorules.engine.game import Deal
from dominorules.engine.positions import points_for
from dominorules.engine.results import RoundStats
from dominorules.engine.tiles import TileSet, parse_tiles


def deal_ev(round_, leader):
    return {"event": "deal", "round": round_, "leader": leader}


def place(p, tile, end):
    return {"event": "place", "player": p, "tile": tile, "end": end}


def draw(p, tile):
    return {"event": "draw", "player": p, "tile": tile}


def pass_(p):
    return {"event": "pass", "player": p}


# -- opening, voluntary and forced draws ----------------------------------------------

def test_leader_opens_with_any_tile_or_draws_first_and_draws_keep_the_turn():
    state = start(make_game(), ["6-6 1-2", "3-4 5-5"], "0-0 0-1 4-6", leader=0)
    assert state.current_player == 0
    assert texts(state) == ["2-1", "6-6", "draw"]
    play(state, "draw")
    assert state.current_player == 0
    assert texts(state) == ["0-0", "2-1", "6-6", "draw"]
    play(state, "6-6")
    assert state.current_player == 1
    assert texts(state) == ["draw"]          # stuck: must draw, may not pass
    with pytest.raises(IllegalActionError, match="you may still draw, so you may not pass"):
        state.apply("pass")
    play(state, "draw")                      # 0-1 does not fit 6
    assert texts(state) == ["draw"]
    play(state, "draw")                      # 4-6 fits both ends (both show 6): listed twice
    assert texts(state) == ["6-4 left", "6-4 right", "draw"]
    with pytest.raises(AmbiguousActionError, match="6-4 fits both ends"):
        state.parse_action("6-4")
    play(state, "6-4 left")
    assert events(state, 1) == [
        deal_ev(1, 0), draw(0, [0, 0]), place(0, [6, 6], None), draw(1, [0, 1]),
        draw(1, [4, 6]), place(1, [4, 6], "left")]
    assert state.observation(0).ends == (4, 6)


def test_reserve_is_never_drawn_stuck_player_passes_and_domino_scores_opponents():
    game = make_game(max_pip=2)
    state = start(game, ["2-2 0-2", "1-1"], "0-1 0-0 1-2", leader=0)
    assert texts(state) == ["2-0", "2-2", "draw"]
    play(state, "2-2", "draw")
    assert texts(state) == ["pass"]
    with pytest.raises(IllegalActionError,
                       match="the last 2 tiles of the boneyard are never drawn"):
        state.apply("draw")
    play(state, "pass")
    assert texts(state) == ["2-0 left", "2-0 right"]
    play(state, "2-0 left")
    assert events(state, 1)[1:6] == [
        place(0, [2, 2], None), draw(1, [0, 1]), pass_(1), place(0, [0, 2], "left"),
        {"event": "round_end", "round": 1, "result": "domino", "winner": 0, "pips": [0, 3],
         "points": [3, 0], "scores": [3, 0]}]
    assert state.rounds[0] == RoundStats(
        round=1, leader=0, result="domino", winner=0, winner_seat=0, tied_block=False,
        points=(3, 0), scores=(3, 0), turns=3, placements=2, draws=1, passes=1, decisions=4,
        choice_points=2, redeals=0)
    assert events(state, 7)[0] == deal_ev(2, 1)   # the lead rotates to seat 1


def test_voluntary_draws_forbidden_and_draw_limit_per_turn():
    game = make_game(voluntary_draw=False, draw_limit=2)
    state = start(game, ["6-6 1-2", "6-4 5-5"], "0-0 0-1 0-2", leader=0)
    assert texts(state) == ["2-1", "6-6"]
    play(state, "6-6")
    assert texts(state) == ["6-4 left", "6-4 right"]
    with pytest.raises(IllegalActionError,
                       match="voluntary draws are not allowed: you can place 6-4"):
        state.apply("draw")
    play(state, "6-4 left", "draw", "draw")      # seat 0 holds 1-2: stuck, draws 0-0, 0-1
    assert state.current_player == 0
    assert texts(state) == ["pass"]
    with pytest.raises(IllegalActionError,
                       match="you have drawn 2 tiles this turn, the most the rules allow"):
        state.apply("draw")


def test_draw_stops_when_a_drawn_tile_fits_and_must_be_placed():
    game = make_game(voluntary_draw=False, draw_limit=2)
    state = start(game, ["6-6 1-2", "3-4 5-5"], "2-6 0-0", leader=0)
    play(state, "6-6", "draw")
    assert texts(state) == ["6-2 left", "6-2 right"]


def test_stuck_player_passes_at_once_when_the_rules_say_so():
    game = make_game(when_stuck="pass")
    state = start(game, ["6-6 1-2", "3-4 5-5"], "0-0", leader=0)
    play(state, "6-6")
    assert texts(state) == ["pass"]
    with pytest.raises(IllegalActionError, match="passes at once under these rules"):
        state.apply("draw")


def test_pass_is_illegal_while_holding_a_playable_tile():
    state = start(make_game(), ["6-6 1-2", "6-4 5-5"], "0-0", leader=0)
    play(state, "6-6")
    with pytest.raises(IllegalActionError,
                       match=r"you hold a playable tile \(6-4\), so you may not pass"):
        state.apply("pass")


# -- blocked rounds -------------------------------------------------------------------

def test_blocked_round_lowest_hand_scores_others_minus_own():
    game = make_game(max_pip=2)
    state = start(game, ["0-0 1-1", "2-2 1-2"], "0-1 0-2", leader=0)
    assert texts(state) == ["0-0", "1-1"]            # the boneyard is all reserve
    play(state, "0-0", "pass", "pass")
    assert events(state, 2) == [
        place(0, [0, 0], None), pass_(1), pass_(0),
        {"event": "round_end", "round": 1, "result": "blocked", "winner": 0, "pips": [2, 7],
         "points": [5, 0], "scores": [5, 0]}, deal_ev(2, 1)]


@pytest.mark.parametrize("tie, points", [("nothing", [0, 0]), ("each", [6, 6])])
def test_blocked_tie_for_lowest_scores_nothing_or_each(tie, points):
    game = make_game(max_pip=3, reserve=6, blocked_tie=tie, blocked_points=opponents_pips)
    state = start(game, ["0-0 3-3", "2-2 1-1"], leader=0)
    play(state, "0-0", "pass", "pass")
    end = state.record[5]
    assert end["result"] == "blocked" and end["pips"] == [6, 6]
    assert end["points"] == points and end["winner"] is None
    assert state.rounds[0].tied_block and state.rounds[0].winner is None


def test_a_draw_after_a_pass_restarts_the_count_of_passes():
    game = make_game(max_pip=3, reserve=5, voluntary_draw=False, draw_limit=1)
    state = start(game, ["3-3 0-0", "1-1"], "0-1 1-2", leader=0)
    play(state, "3-3", "draw", "pass", "draw", "pass")
    assert not state.record[-1]["event"] == "round_end"
    assert state.current_player == 1 and texts(state) == ["pass"]
    play(state, "pass")
    assert events(state, 2) == [
        place(0, [3, 3], None), draw(1, [0, 1]), pass_(1), draw(0, [1, 2]), pass_(0),
        pass_(1),
        {"event": "round_end", "round": 1, "result": "blocked", "winner": None,
         "pips": [3, 3], "points": [0, 0], "scores": [0, 0]}, deal_ev(2, 1)]


# -- leaders and openings -------------------------------------------------------------

def test_highest_double_leads_and_opens_and_no_double_means_redeal():
    game = make_game(max_pip=3, reserve=0, first_leader="highest_double",
                     later_leader="highest_double", opening_tile="highest_double")
    redeal = Deal.of(["0-1 1-1", "2-2 0-2"], "")
    state = start(game, ["0-1 0-2", "1-2 0-3"], more=[redeal])
    assert [e["leader"] for e in state.record if e["event"] == "deal"] == [None, 1]
    assert state.current_player == 1
    assert texts(state) == ["2-2"]                  # no draw before the required tile
    with pytest.raises(IllegalActionError, match="the round opens with 2-2 at once"):
        state.apply("draw")
    with pytest.raises(IllegalActionError, match="the round must open with 2-2"):
        state.apply("2-0")


def test_holder_of_the_required_tile_opens_it_and_may_domino_at_once():
    game = make_game(opening_tile=(6, 6), opener="holder", if_unheld="draw_in_turn",
                     reserve=0, hand_size=lambda n: 1)
    state = start(game, ["1-2", "6-6", "0-5"], "", leader=0)
    assert state.current_player == 1 and texts(state) == ["6-6"]
    play(state, "6-6")
    assert state.record[3] == {"event": "round_end", "round": 1, "result": "domino",
                               "winner": 1, "pips": [3, 0, 5], "points": [0, 8, 0],
                               "scores": [0, 8, 0]}


def test_nobody_holds_the_opening_tile_players_draw_in_turn_from_the_leader():
    game = make_game(opening_tile=(6, 6), opener="holder", if_unheld="draw_in_turn",
                     reserve=0, hand_size=lambda n: 1)
    state = start(game, ["1-2", "3-4", "0-5"], "0-0 5-6 6-6", leader=1)
    assert state.current_player == 1 and texts(state) == ["draw"]
    with pytest.raises(IllegalActionError, match="players draw in turn"):
        state.apply("pass")
    play(state, "draw", "draw", "draw")
    assert state.current_player == 0 and texts(state) == ["6-6"]
    play(state, "6-6")
    assert state.current_player == 1             # play goes on from the opener's left
    assert events(state, 1) == [
        deal_ev(1, 1), draw(1, [0, 0]), draw(2, [5, 6]), draw(0, [6, 6]),
        place(0, [6, 6], None)]
    assert texts(state) == ["draw"]              # seat 1 holds 3-4 and 0-0: stuck


def test_opening_tile_among_the_reserve_is_never_found_so_the_deal_is_redealt():
    game = make_game(opening_tile=(6, 6), opener="holder", if_unheld="draw_in_turn",
                     reserve=2, hand_size=lambda n: 1)
    # the rest of the set follows in ascending order, so 6-6 is the last boneyard tile
    state = start(game, ["1-2", "3-4"], "", leader=0,
                  more=[Deal.of(["6-6", "3-4"], "", leader=0)])
    assert [e["leader"] for e in state.record if e["event"] == "deal"] == [None, 0]
    assert texts(state) == ["6-6"]


def test_opening_tile_holder_leads_and_partnerships_sit_opposite():
    game = make_game(partnerships=True, min_players=4, hand_size=lambda n: 7, reserve=0,
                     opening_tile=(6, 6), opener="holder", first_leader="opening_tile_holder",
                     later_leader="opening_tile_holder", blocked_winner="lowest_side",
                     blocked_points=opponents_pips)
    state = start(game, ["0-0 0-1 0-2 0-3 0-4 0-5 0-6", "1-1 1-2 1-3 1-4 1-5 1-6 2-2",
                         "6-6 2-3 2-4 2-5 2-6 3-3 3-4", "3-5 3-6 4-4 4-5 4-6 5-5 5-6"])
    assert state.teams == ((0, 2), (1, 3))
    assert state.record[0]["teams"] == [[0, 2], [1, 3]]
    assert state.record[1]["leader"] == 2 and texts(state) == ["6-6"]
    ts = TileSet(6)
    # a domino scores both opponents' hands (3 + 4), not the partner's (6)
    assert points_for(game, [[], parse_tiles("1-2"), parse_tiles("3-3"), parse_tiles("0-4")],
                      "domino") == [7, 0]
    # blocked: sides 0+2 hold 3 + 0, sides 1+3 hold 6 + 4: the lower side scores 10
    hands = [parse_tiles(h) for h in ("1-2", "3-3", "0-0", "0-4")]
    assert points_for(game, hands, "blocked") == [10, 0]
    hands = [parse_tiles(h) for h in ("1-2", "3-3", "0-3", "0-0")]
    assert points_for(game, hands, "blocked") == [0, 0]
    assert ts.tile_count == 28


class Fixed:
    """A stand-in RNG giving the floats it was built with."""

    def __init__(self, *values):
        self.values = list(values)

    def random(self):
        return self.values.pop(0)


def test_lead_choosers_and_followers():
    ts = TileSet(6)
    before = leaders.before_deal
    assert before("seat_zero", 3, None, ts, 2, 1, "seat_zero") == 0
    assert before("lot", 3, Fixed(0.6), ts, None, None, "seat_zero") == 1
    assert before("rotate", 3, None, ts, 2, 1, "seat_zero") == 0
    assert before("same", 3, None, ts, 2, 1, "seat_zero") == 2
    assert before("winner", 3, None, ts, 2, 1, "seat_zero") == 1
    assert before("winner", 3, None, ts, 2, None, "seat_zero") == 2   # tied block
    # exposed tiles 0-0, 0-1, 0-2 (the first three of the set): 3 pips, 3 % 2 = 1
    assert before("exposed_tiles", 2, Fixed(0, 0), ts, None, None, "seat_zero") == 1
    assert before("exposed_tiles", 2, Fixed(0, 0), ts, 1, None, "previous_leader") == 0
    # draw for the highest tile: 0-2 and 1-1 tie on 2 pips, then 0-0 against 0-1
    rng = Fixed(2.5 / 28, 6.5 / 27, 0, 0)
    assert before("draw_highest_tile", 2, rng, ts, None, None, "seat_zero") == 1
    assert before("highest_double", 2, None, ts, None, None, "seat_zero") is None


@pytest.mark.parametrize("later", ["rotate", "same", "winner"])
def test_later_rounds_follow_the_previous_round(later):
    game = make_game(later_leader=later)
    result = game_result(game, 3, seed=11)
    for before, now in zip(result.rounds, result.rounds[1:], strict=False):
        expected = {"rotate": (before.leader + 1) % 3, "same": before.leader,
                    "winner": before.winner_seat if before.winner_seat is not None
                    else before.leader}[later]
        assert now.leader == expected


def game_result(game, players, seed):
    from dominorules import api
    return api.play_match(game, players, seed)


# -- scoring, draw costs, targets -----------------------------------------------------

@pytest.mark.parametrize("to, points", [("nobody", [3, -1]), ("round_winner", [4, -1])])
def test_paying_for_draws(to, points):
    game = make_game(max_pip=2, draw_cost=lambda n: 1, draw_cost_to=to)
    state = start(game, ["2-2 0-2", "1-1"], "0-1 0-0 1-2", leader=0)
    play(state, "2-2", "draw", "pass", "2-0 left")
    end = state.record[6]
    assert end["points"] == points and end["scores"] == points


def test_tile_values_from_the_ruleset():
    game = make_game(tile_value=lambda a, b: 13 if (a, b) == (0, 0) else a + b)
    assert points_for(game, [[], parse_tiles("0-0 1-2")], "domino") == [16, 0]
    assert points_for(game, [parse_tiles("0-0"), parse_tiles("5-6")], "blocked") == [0, 2]


def test_reaching_the_target_ends_the_match():
    game = make_game(max_pip=2)
    state = start(game, ["2-2 0-2", "1-1"], "0-1 0-0 1-2", leader=0, start_scores=[97, 0])
    play(state, "2-2", "draw", "pass", "2-0 left")
    assert state.is_terminal
    assert state.record[-1] == {"event": "match_end", "winner": 0, "scores": [100, 0]}
    assert state.outcome.winner == 0 and state.outcome.target == 100


@pytest.mark.parametrize("tie, over", [("draw", True), ("play_on", False)])
def test_a_tie_for_highest_over_the_target_draws_or_plays_on(tie, over):
    game = make_game(max_pip=2, match_tie=tie)
    state = start(game, ["2-2 0-2", "1-1"], "0-1 0-0 1-2", leader=0, start_scores=[97, 100])
    play(state, "2-2", "draw", "pass", "2-0 left")
    assert state.is_terminal is over
    if over:
        assert state.record[-1] == {"event": "match_end", "winner": None,
                                    "scores": [100, 100]}
    else:
        assert state.record[-1]["event"] == "deal" and state.record[-1]["round"] == 2


def test_hand_size_formula_and_larger_sets():
    game = make_game(max_pip=9, max_players=8, hand_size=lambda n: 8 - n)
    for players, size in ((2, 6), (5, 3), (7, 1)):
        deal = game.new_match(players, seed=3).record[1]
        assert [len(h) for h in deal["hands"]] == [size] * players
        assert len(deal["boneyard"]) == 55 - size * players
    big = make_game(max_pip=12, max_players=8, hand_size=lambda n: 7)
    deal = big.new_match(8, seed=3).record[1]
    assert [len(h) for h in deal["hands"]] == [7] * 8 and len(deal["boneyard"]) == 91 - 56


def test_player_count_outside_the_ruleset_is_a_diagnostic():
    from dominorules.diagnostics import DiagnosticError
    with pytest.raises(DiagnosticError, match="test is played by 2 to 4 players, not 5"):
        make_game().new_match(5, seed=1)
