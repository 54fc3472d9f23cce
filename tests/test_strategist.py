"""The ``strategist`` bot: exact choices and reasons in constructed positions, no peeking,
and a measured edge over ``random``."""

from __future__ import annotations

import dataclasses
import random

import pytest

from dominorules import api
from dominorules.bots import make_bot
from dominorules.bots.strategist import StrategistBot

# Mexican: the whole set is dealt, seats 0 and 2 against 1 and 3.
PASS_DEAL = ["6-6 3-1 6-1 1-0 5-5 2-2 0-0", "5-4 5-3 5-2 5-1 5-0 4-1 3-2",
             "6-4 4-4 4-2 4-0 3-3 2-1 2-0", "4-3 6-5 6-3 6-2 6-0 3-0 1-1"]
PARTNER_DEAL = ["3-2 6-2 1-0 4-1 5-4 5-0 1-1", "0-0 2-0 3-0 4-0 2-1 3-1 5-1",
                "6-6 2-2 3-3 4-4 5-5 6-1 4-2", "6-3 6-0 5-2 4-3 5-3 6-4 6-5"]


def start(ruleset: str, players: int, hands, moves=(), boneyard=(), leader=None):
    state = api.load_game(ruleset).new_match(
        players, deals=[api.Deal.of(hands, boneyard, leader)])
    for move in moves:
        state.apply(move)
    return state


def explain(state, rng_seed: int = 0, obs=None):
    seat = state.current_player
    bot = StrategistBot(seat, random.Random(rng_seed))
    action, why = bot.explain(obs or state.observation(seat), state.legal_actions())
    return str(action), why


def test_registered_under_its_name():
    bot = make_bot("strategist", 1, random.Random(0))
    assert isinstance(bot, StrategistBot) and bot.seat == 1


def test_opens_the_double_of_its_strongest_suit():
    state = start("pagat", 2, ["6-6 6-5 6-4 6-1 2-2 3-1 0-0", "5-5 4-4 3-3 2-1 5-0 4-0 3-0"],
                  leader=0)
    assert explain(state) == ("6-6", "6-6: opens your strongest suit, sixes (4 tiles), "
                                     "with its double")


def test_opens_its_strongest_suit_without_the_double_backed_by_the_next_suit():
    # sixes (3 tiles) are strongest; 6-5 and 6-1 both lead to a 2-tile suit: 6-5 is heavier
    state = start("pagat", 2, ["6-5 6-4 6-1 5-5 2-1 3-0 0-0", "4-4 3-3 2-2 1-1 5-0 4-0 3-1"],
                  leader=0)
    assert explain(state) == ("6-5", "6-5: opens your strongest suit, sixes (3 tiles)")


def test_a_required_opening_tile_is_the_only_choice():
    state = start("mexican", 4, PASS_DEAL)
    assert state.current_player == 0
    assert explain(state) == ("6-6", "6-6: the only tile that may open")


def test_keeps_open_a_suit_an_opponent_passed_on():
    # seat 1 passed at 6|6; now 3-1 left keeps the sixes open, 6-1 right would close them
    state = start("mexican", 4, PASS_DEAL, ["6-6", "pass", "6-4 left", "4-3 left"])
    assert [str(a) for a in state.legal_actions()] == ["3-1 left", "6-1 right"]
    assert explain(state) == ("3-1 left", "3-1 left: leaves sixes open, which seat 1 lacks "
                                          "(it passed on sixes)")
    # the same position without the pass in the history: the heavier 6-1 goes
    obs = state.observation(0)
    forgotten = tuple(e for e in obs.history if e["event"] != "pass")
    action, _ = explain(state, obs=dataclasses.replace(obs, history=forgotten))
    assert action == "6-1 right"


def test_keeps_open_a_suit_an_opponent_drew_on():
    # pagat: seat 1 drew twice at 5|5 before it could play 5-4
    state = start("pagat", 2, ["5-5 5-3 4-2 6-6 6-2 1-1 0-0", "6-4 4-3 3-2 2-0 1-0 3-3 4-1"],
                  ["5-5", "draw", "draw", "5-4 left"], boneyard="6-0 5-4", leader=0)
    assert [str(a) for a in state.legal_actions()] == ["4-2 left", "5-3 right", "draw"]
    assert explain(state) == (
        "4-2 left", "4-2 left: leaves fives open, which seat 1 lacks (it drew on fives); "
                    "leaves you 2 tiles that fit next turn")


def test_plays_to_the_partners_suit():
    # seat 2, the partner, led 6-6; 3-2 right keeps a six open, 6-2 left would close it
    state = start("mexican", 4, PARTNER_DEAL, ["6-6", "6-3 right"])
    assert state.current_player == 0
    assert [str(a) for a in state.legal_actions()] == ["6-2 left", "3-2 right"]
    assert explain(state) == ("3-2 right", "3-2 right: plays to your partner's suit, sixes")
    # seen as individual play (seat 2 an opponent), the heavier 6-2 goes
    obs = state.observation(0)
    alone = dataclasses.replace(obs, teams=((0,), (1,), (2,), (3,)))
    assert explain(state, obs=alone)[0] == "6-2 left"


def test_sheds_heavy_tiles_when_the_round_may_block():
    # pagat with 4 players: seat 2 drew the last 2 drawable tiles, so no more can come
    state = start("pagat", 4, ["2-1 4-2 3-3 6-3 5-5 6-5", "1-0 5-0 1-1 5-1 5-3 5-4",
                               "3-0 4-0 6-0 2-2 6-2 4-4", "0-0 4-1 6-1 3-2 4-3 6-4"],
                  ["5-1", "draw", "draw", "pass", "4-1 left"], boneyard="6-6 2-0 5-2 3-1",
                  leader=1)
    assert [str(a) for a in state.legal_actions()] == ["4-2 left", "5-5 right", "6-5 right"]
    assert explain(state) == ("5-5 right", "5-5 right: sheds 10 points while the round may "
                                           "block; places a double while it still fits")
    # were 12 tiles still to come, it would keep its options instead
    obs = dataclasses.replace(state.observation(0), drawable=12, boneyard=14)
    assert explain(state, obs=obs)[0] == "4-2 left"


def test_draws_when_every_placement_opens_the_next_players_suit():
    # seat 0 led 5-4; seat 1's only placement, 4-4, reopens fours and leaves no follow-up
    state = start("pagat", 2, ["5-4 6-6 6-5 0-0 1-1 2-2 3-3", "4-4 1-0 2-1 3-2 3-1"], ["5-4"],
                  leader=0)
    assert [str(a) for a in state.legal_actions()] == ["4-4 left", "draw"]
    assert explain(state) == ("draw", "draw: every placement would open fours, which seat 0 "
                                      "(next to play) is known to hold, and 14 tiles may "
                                      "still be drawn")
    state.apply("draw")  # one voluntary draw a turn at most
    assert explain(state) == ("4-4 left", "4-4 left: the only placement")


def test_forced_actions_are_taken_and_said():
    state = start("pagat", 2, ["5-5 5-3 4-2 6-6 6-2 1-1 0-0", "6-4 4-3 3-2 2-0 1-0 3-3 4-1"],
                  ["5-5"], boneyard="6-0 5-4", leader=0)
    assert explain(state) == ("draw", "draw: no tile fits an end, so you must draw")
    seek = start("vietnamese", 2, ["5-5", "4-4"], boneyard="1-0 6-6", leader=0)
    assert explain(seek) == ("draw", "draw: the opening tile is in no hand yet, so you draw "
                                     "in turn for it")


def test_explain_and_choose_agree_and_ties_use_the_seat_rng():
    # after a 6-6 opening, 6-5 left and 6-5 right are the same move: a tie
    hands = ["0-0 2-0 5-1 6-1 2-2 4-4 6-5", "2-1 4-1 4-2 3-3 6-3 6-4 6-6"]
    chosen = set()
    for seed in range(16):
        state = start("pagat", 2, hands, ["6-6"], leader=1)
        obs, legal = state.observation(0), state.legal_actions()
        a = StrategistBot(0, random.Random(seed)).choose(obs, legal)
        b, why = StrategistBot(0, random.Random(seed)).explain(obs, legal)
        assert a == b
        assert why == f"{a}: sheds 11 points"
        chosen.add(str(a))
    assert chosen == {"6-5 left", "6-5 right"}


def test_hidden_tiles_do_not_change_its_choice():
    """Two deals differing only in what seat 0 cannot see (seat 1's hand, the boneyard)
    give equal observations and equal choices through the same public moves."""
    mine = "6-6 6-5 6-4 6-1 2-2 3-1 0-0"
    a = start("pagat", 2, [mine, "5-5 4-4 3-3 2-1 5-0 4-0 1-1"], boneyard="1-0 6-3", leader=0)
    b = start("pagat", 2, [mine, "5-5 4-4 3-3 2-1 5-0 4-0 1-0"], boneyard="1-1 6-3", leader=0)
    for moves in ([], ["6-6", "draw", "draw", "6-3 right"]):
        for m in moves:
            a.apply(m)
            b.apply(m)
        assert a.record[1:] != b.record[1:]   # the hidden facts differ ...
        assert a.observation(0) == b.observation(0)
        bot_a, bot_b = StrategistBot(0, random.Random(3)), StrategistBot(0, random.Random(3))
        assert bot_a.explain(a.observation(0), a.legal_actions()) == \
            bot_b.explain(b.observation(0), b.legal_actions())   # ... the choice does not


def test_it_only_ever_receives_observations():
    seen = []

    class Spy(StrategistBot):
        def choose(self, obs, legal):
            seen.append((type(obs), {type(x) for x in legal}))
            return super().choose(obs, legal)

    api.play_match("pagat", 2, seed=5, bots=[Spy, "random"])
    assert seen and {t for t, _ in seen} == {api.Observation}
    assert set().union(*(k for _, k in seen)) == {api.Action}


@pytest.mark.parametrize("ruleset, engine", [("pagat", "python"), ("pagat", "loop"),
                                             ("house/spinner", "python")])
def test_bound_to_a_match_it_reads_its_seat_view_never_the_engine(monkeypatch, ruleset,
                                                                   engine):
    """The simulation path binds each strategist to a ``SeatView`` (its own hand and the
    match record), never to the loop or the kernel, which play the same match."""
    from dominorules.bots.strategist_fast import Decider
    from dominorules.engine.observation import SeatView

    views = []
    bind = Decider.bind

    def spy(self, view):
        views.append(view)
        return bind(self, view)

    monkeypatch.setattr(Decider, "bind", spy)
    result = api.play_match(ruleset, 3, seed=4, bots="strategist", engine=engine, trace=True)
    assert [type(v) for v in views] == [SeatView] * 3
    assert [v.seat for v in views] == [0, 1, 2]
    assert {name for name in dir(views[0]) if not name.startswith("__")} == {
        "_match", "hand", "record", "seat"}
    assert views[0].record == result.events
    alone = api.play_match(ruleset, 3, seed=4, bots="strategist", engine="loop", trace=True)
    assert alone.events == result.events


def test_same_seed_same_record():
    one = api.play_match("pagat", 3, seed=11, bots="strategist", trace=True)
    two = api.play_match("pagat", 3, seed=11, bots="strategist", trace=True)
    assert one.events == two.events


def test_plays_every_builtin_ruleset_at_every_player_count_with_verified_records(tmp_path):
    from dominorules.records import verify_file, write_records
    from dominorules.rules import builtin_rulesets

    events = []
    for ruleset in builtin_rulesets():
        game = api.load_game(ruleset.name)
        for players in range(game.rules.min_players, game.rules.max_players + 1):
            if game.hand_size(players) * players > game.tileset.tile_count:
                continue
            result = api.play_match(game, players, seed=players, bots="strategist", trace=True)
            assert result.events[-1]["event"] == "match_end"
            events += result.events
    path = tmp_path / "strategist.jsonl"
    write_records(str(path), events)
    assert verify_file(str(path)) == []


def test_beats_random_clearly_over_300_pagat_matches():
    """Seats alternate. A bot no better than random wins about half: the chance that it
    wins more than 70% of 300 fair matches is below 1e-11."""
    game = api.load_game("pagat")
    wins = 0
    for i in range(300):
        seat = i % 2
        bots = ["random", "random"]
        bots[seat] = "strategist"
        wins += api.play_match(game, 2, seed=api.match_seed(2026, i), bots=bots).winner == seat
    assert wins / 300 > 0.70, wins
