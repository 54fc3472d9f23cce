"""Scenarios for who leads (docs/variants.md: pagat's lot and rotation, hoyle's highest double,
mexican's [6|6] holder, house rules 4-7: draw for the lead, the same leader, the winner
leads, exposed tiles), under the real rulesets.

Exposed and drawn tiles are not part of the record, so two tests script them: they
replace the engine's tile sampler for the lead (``leaders.sample``) and check the leader
the rules then give."""

from __future__ import annotations

import pytest
from deals import TIE, TIE_BONEYARD, TIE_MOVES
from scenarios import deal, log, moves_of, play, round_log

from dominorules import api
from dominorules.engine import leaders
from dominorules.engine.tiles import Tile

# pagat, 3 players, leader 1: seat 0 goes out and scores 12 + 6 -- neither the leader
# nor the next seat
WIN = ["1-1 2-1 3-1 5-1 3-2 5-3 4-4", "4-0 6-1 5-2 6-3 6-4 5-5 6-6",
       "0-0 2-0 5-0 4-1 4-2 5-4 6-5"]
WIN_BONEYARD = "3-3 3-0 6-0 6-2 2-2 1-0 4-3"
WIN_MOVES = moves_of(
    "6-4, 5-4 left, 5-3 left, 6-1 right, 4-1 right, 4-4 right, 4-0 right, 2-0 right, "
    "2-1 right, 6-3 left, 6-5 left, 1-1 right, 5-5 left, 5-0 left, 3-1 right, draw, "
    "3-3 right, 0-0 left, 3-2 right, 5-2 right, draw, 3-0 left, 5-1 right")


@pytest.mark.parametrize("ruleset, first, later, count_from", [
    ("pagat", "lot", "rotate", "seat_zero"),
    ("house/draw-for-lead", "draw_highest_tile", "draw_highest_tile", "seat_zero"),
    ("house/same-leader", "lot", "same", "seat_zero"),
    ("house/winner-leads", "lot", "winner", "seat_zero"),
    ("house/exposed-tiles-lead", "exposed_tiles", "exposed_tiles", "seat_zero"),
    ("hoyle", "highest_double", "highest_double", "seat_zero"),
    ("mexican", "opening_tile_holder", "opening_tile_holder", "seat_zero"),
])
def test_each_ruleset_names_its_leader_rule(ruleset, first, later, count_from):
    rules = api.load_game(ruleset).rules
    assert (rules.first_leader, rules.later_leader, rules.lead_count_from) == (
        first, later, count_from)


@pytest.mark.parametrize("ruleset, expected", [
    ("pagat", ["deal 1 leader 2", "deal 2 leader 0"]),
    ("house/same-leader", ["deal 1 leader 2", "deal 2 leader 2"]),
    ("house/winner-leads", ["deal 1 leader 2", "deal 2 leader 2"]),   # tied: leader again
])
def test_after_a_tied_block(ruleset, expected):
    state = deal(ruleset, TIE, TIE_BONEYARD, leader=2)
    play(state, *TIE_MOVES)
    assert round_log(state)[-1].startswith("end blocked winner None")
    assert [x for x in log(state) if x.startswith("deal")] == expected


@pytest.mark.parametrize("ruleset, leader", [("pagat", 2), ("house/same-leader", 1),
                                             ("house/winner-leads", 0)])
def test_after_a_round_won_by_another_seat(ruleset, leader):
    state = deal(ruleset, WIN, WIN_BONEYARD, leader=1)
    play(state, *WIN_MOVES)
    # seat 1 keeps 6-6 (12), seat 2 keeps 4-2 (6)
    assert round_log(state)[-1] == (
        "end domino winner 0 pips [0, 12, 6] points [18, 0, 0] scores [18, 0, 0]")
    assert log(state)[-1] == f"deal 2 leader {leader}"


@pytest.mark.parametrize("ruleset, follows", [("pagat", "rotate"),
                                              ("house/same-leader", "same"),
                                              ("house/winner-leads", "winner")])
def test_every_later_round_of_a_whole_match_follows_the_rule(ruleset, follows):
    checked = 0
    for seed in range(6):
        result = api.play_match(ruleset, 3, seed=seed, bots="random")
        for before, now in zip(result.rounds, result.rounds[1:], strict=False):
            expected = {"rotate": (before.leader + 1) % 3, "same": before.leader,
                        "winner": before.leader if before.winner_seat is None
                        else before.winner_seat}[follows]
            assert now.leader == expected
            checked += 1
    assert checked >= 5


def test_hoyle_the_holder_of_the_highest_double_leads_every_round():
    checked = 0
    for seed in range(4):
        result = api.play_match("hoyle", 3, seed=seed, bots="random", trace=True)
        deals = [e for e in result.events if e["event"] == "deal" and e["leader"] is not None]
        assert len(deals) == len(result.rounds)
        for d in deals:
            doubles = [(t[0], seat) for seat, h in enumerate(d["hands"]) for t in h
                       if t[0] == t[1]]
            assert d["leader"] == max(doubles)[1]
            checked += 1
    assert checked >= 5


def _script(monkeypatch, game, *draws):
    """Make the lead's tile sampler show these tiles, one list per call."""
    index = game.tileset.index
    queue = [[index[Tile.parse(t)] for t in d.split()] for d in draws]
    monkeypatch.setattr(leaders, "sample", lambda rng, count, k: queue.pop(0))
    return queue


def test_exposed_tiles_total_modulo_players_plus_one_counted_from_seat_0(monkeypatch):
    game = api.load_game("house/exposed-tiles-lead")
    # round 1: 6-6 5-5 1-0 show 23 pips; 23 % 3 + 1 = 3: player 3 is seat 2.
    # round 2: 0-0 1-0 2-0 show 3; 3 % 3 + 1 = 1: seat 0, counted from seat 0 again
    queue = _script(monkeypatch, game, "6-6 5-5 1-0", "0-0 1-0 2-0")
    state = game.new_match(3, deals=[api.Deal.of(TIE, TIE_BONEYARD)])
    assert log(state) == ["deal 1 leader 2"]
    play(state, *TIE_MOVES)
    assert log(state)[-1] == "deal 2 leader 0" and queue == []


def test_draw_for_the_lead_highest_pips_leads_and_the_tied_draw_again(monkeypatch):
    game = api.load_game("house/draw-for-lead")
    # round 1: 0-0 1-0 6-6: seat 2 draws the most pips and leads.
    # round 2, drawn afresh: 6-4 and 5-5 tie on 10 over 0-0; seats 0 and 1 draw again,
    # 1-1 against 3-2: seat 1 leads
    queue = _script(monkeypatch, game, "0-0 1-0 6-6", "6-4 5-5 0-0", "1-1 3-2")
    state = game.new_match(3, deals=[api.Deal.of(TIE, TIE_BONEYARD)])
    assert log(state) == ["deal 1 leader 2"]
    play(state, *TIE_MOVES)
    assert log(state)[-1] == "deal 2 leader 1" and queue == []

