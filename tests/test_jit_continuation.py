"""The expert's playouts on the JIT (``kernel.jit_continuation``) give exactly what
``engine.continuation.continue_round`` gives: the same ``Outcome`` for every imagined deal
and candidate, the same refusals (``Inconsistent``), so the same decisions and matches.

One continuation kernel serves every player count of a plain ruleset (the player count is
data), and one every house ruleset of at most 62 tiles, each compiled once for the module;
matches and playouts are kept few."""

from __future__ import annotations

import random

import pytest

from dominorules import api
from dominorules.bots import belief
from dominorules.bots import expert as expert_module
from dominorules.bots.expert import ExpertBot, _position, _rollout
from dominorules.bots.strategist import StrategistBot
from dominorules.engine.continuation import Inconsistent, code_of, continue_round
from dominorules.engine.game import Deal
from dominorules.kernel import engines, jit_kernel

pytestmark = pytest.mark.skipif(not jit_kernel.available(), reason="needs numba (the JIT)")


def test_the_twister_is_pythons():
    """The rollouts' stream: CPython's random.seed(int) and random(), number for number."""
    import numpy as np

    from dominorules.kernel import jit_continue

    S = np.zeros(1 + jit_continue.MT_SIZE, np.int64)
    for seed in (0, 1, 4_000_000_007 % 2 ** 32, 2 ** 32 - 1):
        jit_continue.mt_seed(S, seed)
        want = random.Random(seed)
        assert [jit_continue.mt_random(S) for _ in range(700)] == [
            want.random() for _ in range(700)]   # past one refill of 624 words


def _scrambled(deal: Deal, rng: random.Random) -> Deal:
    """``deal`` with two tiles swapped between an opponent's hand and another place: most
    such deals cannot have produced the round seen (the engine must refuse them alike)."""
    places = [list(h) for h in deal.hands] + [list(deal.boneyard)]
    a, b = rng.randrange(1, len(places)), rng.randrange(len(places))
    if places[a] and places[b]:
        i, j = rng.randrange(len(places[a])), rng.randrange(len(places[b]))
        places[a][i], places[b][j] = places[b][j], places[a][i]
    return Deal(tuple(tuple(h) for h in places[:-1]), tuple(places[-1]), deal.leader)


def _decisions(game, players: int, seed: int, every: int = 1):
    """(observation, legal) at every ``every``-th real choice of a strategists' match."""
    state = game.new_match(players, seed=seed)
    bots = [StrategistBot(s, api.bot_rng(seed, s)) for s in range(players)]
    k = 0
    while not state.is_terminal:
        seat = state.current_player
        obs, legal = state.observation(seat), state.legal_actions()
        if len([a for a in legal if a.kind != "pass"]) > 1:
            k += 1
            if k % every == 0:
                yield obs, legal
        state.apply(bots[seat].choose(obs, legal))


def _held_to_continue_round(name: str, players: int, rollout: str, seeds) -> tuple[int, int]:
    """Every candidate of every third real choice of strategists' matches, on sampled deals
    and on scrambled ones: the JIT's Outcome (before, scores, winner, decided) or refusal
    is continue_round's, with the rollouts sharing one seeded stream (greedy and random
    picking by its words: expert._Words); (playouts checked, refused)."""
    game = api.load_game(name)
    kernel = engines.expert_playouts(game, players, rollout=rollout)
    assert kernel is not None
    checked = refused = 0
    for seed in seeds:
        for obs, legal in _decisions(game, players, seed, every=3):
            seen = belief.read(game, obs)
            position = _position(game, obs, seen)
            if not kernel.follows(position):   # (the expert plays these on Python)
                continue
            rng = random.Random(seed * 1000 + len(obs.history))
            stream = random.Random() if rollout == "strategist" else expert_module._Words()
            after = _rollout(rollout, game, players, stream)
            decks, codes, seeds, want = [], [], [], []
            for k in range(4):
                deal = belief.sample(game, obs, seen, rng).deal
                if k % 2:
                    deal = _scrambled(deal, rng)
                s = rng.randrange(2 ** 32)
                for action in legal:
                    if action.kind == "pass":
                        continue
                    stream.seed(s)
                    try:
                        out = continue_round(game, position, deal, code_of(game, action), after,
                                             seed=s)
                    except Inconsistent:
                        out = None
                    decks.append(kernel.deck(deal))
                    codes.append(code_of(game, action))
                    seeds.append(s)
                    want.append(out)
            assert kernel.play(position, decks, codes, seeds) == want
            checked += len(want)
            refused += want.count(None)
    return checked, refused


@pytest.mark.parametrize(("players", "rollout"), [
    (2, "strategist"), (3, "strategist"), (2, "greedy"), (3, "greedy"), (2, "random"),
    (3, "random")])
def test_jit_outcomes_are_continue_rounds(players, rollout):
    checked, refused = _held_to_continue_round("pagat", players, rollout,
                                               (1, 2) if players == 2 else (1,))
    assert checked > 100 and 10 < refused < checked - 50   # both kinds, many of each


# house rules: scores during play (all-fives, muggins), a spinner, turns granted (doubles
# play again) and skipped (the double blank skips), a variable set by events and reset
# each round (headers raise the stake), a lead by rule and a match of rounds won
@pytest.mark.parametrize(("name", "players", "rollout"), [
    ("house/all-fives", 2, "strategist"), ("house/all-fives", 3, "strategist"),
    ("house/all-fives", 2, "greedy"), ("house/spinner", 2, "strategist"),
    ("house/spinner", 3, "random"), ("house/doubles-play-again", 3, "strategist"),
    ("house/double-blank-skips", 2, "strategist"), ("house/headers-raise-stake", 2, "strategist"),
    ("house/muggins", 3, "strategist"), ("house/first-to-three", 2, "strategist")])
def test_jit_outcomes_of_house_rules_are_continue_rounds(name, players, rollout):
    checked, refused = _held_to_continue_round(name, players, rollout, (1,))
    assert checked > 40 and 5 < refused < checked - 20   # both kinds, many of each


def _analyses(game, players: int, seeds, playouts: int, on_jit: bool,
              rollout: str = "strategist") -> list:
    """Every expert Analysis at the real choices of strategists' matches, the JIT's
    continuations on or off (one expert per seat, as a match keeps it)."""
    saved = list(expert_module._jit_playouts)
    if not on_jit:
        expert_module._jit_playouts.clear()
    try:
        out = []
        experts = [ExpertBot(s, random.Random(), playouts=playouts, rollout=rollout)
                   for s in range(players)]
        for seed in seeds:
            for obs, legal in _decisions(game, players, seed, every=3):
                experts[obs.seat].rng.seed(seed * 7 + len(obs.history))
                out.append(experts[obs.seat].analyse(obs, legal))
        return out
    finally:
        expert_module._jit_playouts[:] = saved


@pytest.mark.parametrize("players", [2, 3])
def test_expert_decisions_are_the_same_with_and_without_the_jit(players):
    """Each candidate's value, margin, wins and playouts, and the order: pruning every 16
    playouts and the deals refused included (a batch draws the sampler's deals in the
    python path's order)."""
    game = api.load_game("pagat")
    jit = _analyses(game, players, (3,), 24 if players == 2 else 17, True)
    assert len(jit) >= 5
    assert jit == _analyses(game, players, (3,), 24 if players == 2 else 17, False)


@pytest.mark.parametrize("rollout", ["greedy", "random"])
def test_expert_decisions_by_other_rollouts_are_the_same_with_and_without_the_jit(rollout):
    """The same with greedy and random rollouts: their word picks on the JIT are the
    Python bots' picks on the expert's stream of words."""
    game = api.load_game("pagat")
    jit = _analyses(game, 2, (3,), 24, True, rollout)
    assert len(jit) >= 5
    assert jit == _analyses(game, 2, (3,), 24, False, rollout)


def test_the_rollouts_words_are_their_picks():
    """expert._Words: random() is a word over 2**32, so int(random() * n) is the word pick
    (next32() * n) >> 32 the JIT makes, for any n; the words are getrandbits(32)."""
    a, b, c = expert_module._Words(7), expert_module._Words(7), random.Random(7)
    for n in (1, 2, 3, 7, 28, 55, 1000):
        assert int(a.random() * n) == (b.next32() * n) >> 32
    assert [a.next32() for _ in range(5)] == [c.getrandbits(32) for _ in range(12)][7:]


def test_a_match_with_an_expert_is_the_same_with_and_without_the_jit():
    game = api.load_game("pagat")
    bots = ["expert:playouts=12", "strategist"]
    on = api.play_match(game, 2, 5, bots, trace=True)
    saved = list(expert_module._jit_playouts)
    expert_module._jit_playouts.clear()
    try:
        off = api.play_match(game, 2, 5, bots, trace=True)
    finally:
        expert_module._jit_playouts[:] = saved
    assert on.events == off.events
    assert on == off


@pytest.mark.parametrize(("name", "players"), [("house/all-fives", 2), ("house/spinner", 3)])
def test_expert_decisions_of_house_rules_are_the_same_with_and_without_the_jit(name, players):
    """House rules: the same analyses, the positions the JIT's playouts do not follow
    (a round's first tile, a draw seen before it) played on Python in both."""
    game = api.load_game(name)
    jit = _analyses(game, players, (3,), 17, True)
    assert len(jit) >= 5
    assert jit == _analyses(game, players, (3,), 17, False)


def test_house_rule_playouts_follow_a_round_once_its_first_tile_is_down():
    """Under house rules the continuation kernel replays a round from its first tile:
    before it (the candidate would open) or with a draw seen before it, Python plays."""
    from dominorules.engine.continuation import Round

    kernel = engines.expert_playouts(api.load_game("house/all-fives"), 2)
    at = Round(2, 1, 0, (0, 0), (0, 0), (), 0)
    assert not kernel.follows(at)
    assert kernel.follows(Round(2, 1, 0, (0, 0), (0, 0), (("place", 0, 8), ("draw", 1, 0)),
                                1, (("x", 1),)))
    assert not kernel.follows(Round(2, 1, 0, (0, 0), (0, 0), (("draw", 0, 0),
                                                              ("place", 0, 8)), 1))
    assert engines.expert_playouts(api.load_game("pagat"), 2).follows(at)


def test_the_rules_the_expert_does_not_search_are_named():
    """House rules play on the JIT's continuations but for those the expert plays as the
    strategist (no playouts), each named; every rollout bot's playouts run there."""
    want = {
        "house/mexican-train": "board.layout",
        "house/muggins-called": "declarations or a showdown",
        "house/turned-up-starter": "deal.turn_up",
        "house/blind-hughie": "deal.blind",
        "house/two-sets": "set.copies",
        "house/side-out": "play.until: side_out",
    }
    for name, what in want.items():
        game = api.load_game(name)
        assert engines.expert_playouts(game, 2 if name != "house/side-out" else 4) is None
        assert engines.expert_playouts_reason(game, 2 if name != "house/side-out" else 4) == (
            f"{name}'s {what}: the expert plays as the strategist there, with no playouts "
            "to run"), name
    assert engines.expert_playouts(api.load_game("house/all-fives"), 2) is not None
    assert engines.expert_seats_on_jit(api.load_game("pagat"), 2,
                                       ["expert:rollout=greedy", "random"]) == [
        (0, "expert:rollout=greedy")]
    assert engines.expert_seats_on_jit(api.load_game("pagat"), 2,
                                       ["expert:rollout=fast", "random"]) == []
    assert engines.expert_seats_on_jit(api.load_game("pagat"), 2, ["expert", "random"]) == [
        (0, "expert")]


def test_the_sampled_deck_is_the_sampled_deal():
    """``belief.sample_deck`` (what the JIT's playouts read) draws as ``sample`` draws and
    lays its deal out as the loop deals it: the same hands, the same boneyard order."""
    game = api.load_game("pagat")
    kernel = engines.expert_playouts(game, 3)
    hand = game.setup(3).hand_size
    checked = 0
    for obs, _ in _decisions(game, 3, 4, every=2):
        seen = belief.read(game, obs)
        a, b = random.Random(checked), random.Random(checked)
        for _ in range(3):
            want = kernel.deck(belief.sample(game, obs, seen, a).deal)
            got = belief.sample_deck(game, obs, seen, b)
            assert [sorted(got[s * hand:(s + 1) * hand]) for s in range(3)] == [
                sorted(want[s * hand:(s + 1) * hand]) for s in range(3)]
            assert got[3 * hand:] == want[3 * hand:]
            checked += 1
        assert a.random() == b.random()
    assert checked > 10
