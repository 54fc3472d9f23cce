"""The strategist's own policy under a fit rule (``matching``), hidden rows (``deal.blind``)
and two sets shuffled together (``set.copies``): exact choices and reasons in constructed
positions, and its two implementations (``bots.strategist``, the reference, and
``bots.strategist_fast``) making the same choices in seeded matches, bound to the match as
a policy and answering decision tuples alike. The JIT's port does not play it: refused."""

from __future__ import annotations

import random

import pytest
from test_strategist_pinned import play_by_decisions

from dominorules import api
from dominorules.bots.strategist import StrategistBot
from dominorules.engine.game import Deal
from dominorules.kernel import jit_kernel

FIT, FIT9, COPIES, BLIND = ("house/matador", "house/matador-nine", "house/two-sets",
                            "house/blind-hughie")


def start(name: str, hands: list[str], leader: int = 0):
    return api.load_game(name).new_match(len(hands), 0, deals=[Deal.of(hands, (), leader)])


def explain(state, seat: int):
    bot = StrategistBot(seat, random.Random(0))
    action, why = bot.explain(state.observation(seat), state.legal_actions())
    return str(action), why


def test_under_a_fit_rule_it_keeps_the_tiles_that_meet_the_ends_as_the_rule_says():
    """Ends 1 and 6 under sevens: 5-1 on the 6 leaves a 5, which 4-2, 2-2 and the wild 6-1
    meet (3 tiles for next turn); greedy would lay the heavier 6-1."""
    state = start(FIT, ["6-6 4-2 1-5 6-1 3-3 2-2 0-4", "5-5 1-1 2-3 0-1 0-2 0-3 0-5"])
    state.apply("6-6")
    state.apply("1-1 left")
    assert [str(a) for a in state.legal_actions()] == [
        "6-1 left 1", "6-1 left 6", "5-1 right", "6-1 right 1", "6-1 right 6", "draw"]
    action, why = explain(state, 0)
    assert action == "5-1 right"
    assert why == ("5-1 right: leaves you 3 tiles that fit next turn; keeps a 5 on an end, "
                   "which 3 of your tiles meet")
    bot = StrategistBot(0, random.Random(0))
    _, ranked, _ = bot._decide(state.observation(0), state.legal_actions())
    # each way of the wild 6-1 weighed on what it leaves (6-1 left 1: the 1 meets the 1,
    # leaving a 6 beside the 6)
    # (shed: 0.08 a point, ten times over under a fit rule: strategy.FIT_SHED)
    assert [(str(s.action), s.ends, round(s.score, 9)) for s in ranked] == [
        ("5-1 right", (1, 5), 9.8), ("6-1 left 1", (6, 6), 7.6), ("6-1 left 6", (1, 6), 7.1),
        ("6-1 right 1", (1, 6), 7.1), ("6-1 right 6", (1, 1), 5.6)]


def test_under_a_fit_rule_it_opens_with_its_heaviest_tile():
    state = start(FIT, ["6-3 4-2 1-5 6-1 3-3 2-2 0-4", "5-5 1-1 2-3 0-1 0-2 0-3 0-5"])
    assert explain(state, 0) == ("6-3", "6-3: your heaviest tile: under a fit rule rounds "
                                 "mostly block, and what a hand holds then decides")


def test_with_two_sets_it_counts_both_copies_of_a_tile_it_holds_and_the_unseen_ones():
    """Both 6-5s in hand count as two fives and two sixes; every suit has 14 tiles, less
    the hand's and the line's: what the others may hold."""
    hands = ["6-5 6-5 3-1 0-0 2-2 4-4 1-1", "5-5 2-1 2-3 3-0 4-0 6-0 6-6"]
    state = start(COPIES, hands, leader=1)
    state.apply("5-5")
    bot = StrategistBot(0, random.Random(0))
    best, ranked, ctx = bot._decide(state.observation(0), state.legal_actions())
    assert ctx.count[5] == 2 and ctx.count[6] == 2 and ctx.tables.suit_size[5] == 14
    assert ctx.unseen[5] == 14 - 2 - 1 and ctx.unseen[6] == 14 - 2
    assert [str(s.action) for s in ranked] == ["6-5 left", "6-5 right"]   # a move, not two


def test_with_two_sets_both_copies_of_a_held_tile_count_for_the_next_turn():
    """Ends 3 and 5: 3-1 on the 3 leaves 1 and 5, which both 6-5s and 1-1 meet (3 tiles
    for next turn, 3.82); counting the 6-5s once (2 tiles, 2.32) would lay 6-5 (2.88)."""
    state = start(COPIES, ["6-5 6-5 3-1 0-0 2-2 4-4 1-1", "5-3 2-1 2-3 3-0 4-0 6-0 6-6"],
                  leader=1)
    state.apply("5-3")
    bot = StrategistBot(0, random.Random(0))
    _, ranked, _ = bot._decide(state.observation(0), state.legal_actions())
    assert [(str(s.action), s.terms["options"], s.terms["control"], s.score)
            for s in ranked] == [("3-1 left", 3.0, 1.5, 3.82), ("6-5 right", 2.0, 1.0, 2.88)]
    assert explain(state, 0) == ("3-1 left", "3-1 left: leaves you 3 tiles that fit next turn")


ROWS = ["2-3 5-5 2-4 0-0 1-1 3-3 6-6", "1-4 3-4 0-1 0-2 0-3 0-4 0-5"]


def test_with_hidden_rows_it_chooses_the_front_tiles_end_by_the_tiles_shown():
    """Seat 1 showed 4-1 (a pass): it is still in its row. Seat 0's front 2-4 fits both
    ends of 2 and 4; on the 4 it leaves 2 and 2, which 4-1 does not meet."""
    state = start(BLIND, ROWS)
    assert [str(a) for a in state.legal_actions()] == ["3-2"]
    assert explain(state, 0) == ("3-2", "3-2: your row's front tile, the only tile you may "
                                 "lay (deal.blind)")
    state.apply("3-2")
    assert explain(state, 1) == ("pass", "pass: your front tile fits no end; it goes to the "
                                 "back of your row")
    state.apply("pass")
    state.apply("pass")     # seat 0's 5-5 shown
    state.apply("4-3 right")
    assert [str(a) for a in state.legal_actions()] == ["4-2 left", "4-2 right"]
    for seed in range(4):   # no tie: the same end whatever the seat's RNG
        bot = StrategistBot(0, random.Random(seed))
        assert str(bot.choose(state.observation(0), state.legal_actions())) == "4-2 right"
    assert explain(state, 0)[1] == (
        "4-2 right: your row is hidden even from you (deal.blind), so the end is your only "
        "choice; the ends it leaves fit 0 tiles your passes showed, 0 tiles of your "
        "partners' and 0 tiles of your opponents' (shown tiles come to the front again)")


CASES = [(FIT, 2), (FIT, 3), (FIT9, 4), (COPIES, 3), (COPIES, 6), (BLIND, 2), (BLIND, 4)]


@pytest.mark.parametrize("ruleset,players", CASES)
def test_the_fast_strategist_and_the_reference_choose_alike(ruleset, players):
    game = api.load_game(ruleset)
    mixed = ["strategist", "random", "strategist", "greedy", "strategist", "random"][:players]
    for seed in range(8):
        bots = mixed if seed % 2 else "strategist"
        fast = api.play_match(game, players, seed, bots, trace=True)
        slow = api.play_match(game, players, seed, bots, trace=True, fast=False)
        assert fast.events == slow.events and fast.rounds == slow.rounds


@pytest.mark.parametrize("ruleset,players", CASES[::2])
def test_decision_tuples_and_the_bound_policy_choose_alike(ruleset, players):
    game = api.load_game(ruleset)
    for seed in range(3):
        assert (play_by_decisions(game, players, seed).events
                == api.play_match(game, players, seed, "strategist", trace=True).events)


@pytest.mark.parametrize("ruleset", [FIT, COPIES, BLIND])
def test_the_jit_plays_the_strategist_there(ruleset):
    """(Its matches: tests/test_kernel_jit_strategist_rules.py.)"""
    game = api.load_game(ruleset)
    assert jit_kernel.jit_reason(game, 2, "strategist", need_numba=False) is None
    assert jit_kernel.jit_reason(game, 2, "greedy", need_numba=False) is None


def test_under_a_fit_rule_a_move_of_several_tiles_is_weighed_on_what_the_rule_leaves(tmp_path):
    """Ends 5 and 6 under sevens, two tiles a move: 2-2 on the 5 leaves a 2, the wild 4-3
    with its 3 on the 6 leaves a 4; 5-0 meets the 2 and 0-3 the 4 (2 tiles playable)."""
    path = tmp_path / "two.yaml"
    path.write_text(f"title: T\nextends: {FIT}\nplay:\n  several:\n    most: 2\n",
                    encoding="utf-8")
    state = start(str(path), ["1-1 2-2 6-6 0-3 4-3 5-0 1-0", "6-5 2-1 2-3 3-3 4-0 6-0 0-2"],
                  leader=1)
    state.apply("6-5")
    action, why = explain(state, 0)
    assert action == "2-2 left + 4-3 right 3"
    assert why == ("2-2 left + 4-3 right 3: sheds 11, leaves 2 of your tiles an end to go on "
                   "(each move, several tiles too, weighed on the ends it leaves: play.several)")
