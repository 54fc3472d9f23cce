"""The strategist plays exactly as it did before it was made fast: the records of a few
hundred seeded matches (every seat, or mixed with other bots; individual, partnership,
spinner, play-time events, seeking the opening tile) hash to the values measured with the
straightforward implementation. A faster strategist must make the same choices."""

from __future__ import annotations

import hashlib

import pytest

from dominorules import api
from dominorules.engine.general_loop import GeneralLoop
from dominorules.record_lines import encode_standard

# (ruleset, players, bots, matches) -> sha256 of the concatenated records
PINNED = {
    ("pagat", 2, "strategist", 60):
        "6308be724f69092c1915634d473bdd17f839f411e6bb2cb39fb4caccf971dd5e",
    ("pagat", 3, "strategist", 40):
        "7fa5a9614b49ef9cb0f62e50c6d76ee11d5d0d933db5ca4d09ca557ec76ccbcc",
    ("pagat", 4, "strategist,random,strategist,greedy", 30):
        "8abd495bb9693d4dee7156dedbc9a6edba2799264814d9f9891fdda9da486844",
    ("mexican", 4, "strategist", 30):
        "1f1a5a7bada34aec65e0e46791c9ac0165cc6d9834b8c6bee7e114b128f2fb36",
    ("hoyle", 3, "strategist,random,random", 30):
        "5375b4d999cf4f5c1b90dadcc06061a1e4f3745b0d3565d6831fa4ff7595cb6b",
    ("dutch", 2, "strategist", 30):
        "d9505bc1b939c9ad6b7b21259740a7d3e56d25b4e8cb68704c54c1cb5f503aa7",
    ("house/spinner", 2, "strategist", 30):
        "5c28bef079e60552f978130da1fe957cc9458bfac8a418788df747b1f28a95ad",
    ("house/all-fives", 3, "strategist", 20):
        "5ccb84c19baeb79d1f78abcbd7ebd20845cc70d4a57bece058f49edf36e2d9d4",
    ("house/play-to-the-right", 3, "strategist", 20):
        "7e715dc509052d891c2080212ded8c3674f3dd7fe4fb7bbf800a3673471ccf2d",
    ("house/first-round-highest-double", 4, "strategist", 20):
        "6a357260655d7011573a8083bb2488be43cd0980e694900f65aa938158a1da45",
    ("house/doubles-play-again", 2, "strategist,greedy", 20):
        "f22626fa0222bebac3dda11bc35631e2a914554de81a70a642e9cbcb6dbb6f94",
}


def digest(ruleset: str, players: int, bots: str, matches: int) -> str:
    game = api.load_game(ruleset)
    names = bots.split(",")
    h = hashlib.sha256()
    for i in range(matches):
        result = api.play_match(game, players, api.match_seed(4, i),
                                names if len(names) > 1 else bots, trace=True)
        h.update(encode_standard(result.events).encode())
    return h.hexdigest()


@pytest.mark.parametrize("case", PINNED, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_the_strategist_makes_the_pinned_choices(case):
    assert digest(*case) == PINNED[case]


CASES = [("pagat", 3), ("pagat", 4), ("mexican", 4), ("hoyle", 2), ("vietnamese", 4),
         ("house/spinner", 3), ("house/all-fives", 2), ("house/play-to-the-right", 4),
         ("house/double-opening", 3), ("house/first-round-highest-double", 2),
         ("house/partnership-draw", 4)]


@pytest.mark.parametrize("ruleset,players", CASES)
def test_the_decider_and_the_observation_path_choose_alike(ruleset, players):
    """Simulations use ``decider`` (bound to the match loop as a policy, reading the
    public record); play, explain and plug-in comparisons use ``choose`` (an
    Observation): the same match either way, every seat a strategist or mixed."""
    game = api.load_game(ruleset)
    mixed = ["strategist", "random", "strategist", "strategist"][:players]
    for seed in range(6):
        bots = mixed if seed % 2 else "strategist"
        fast = api.play_match(game, players, seed, bots, trace=True)
        slow = api.play_match(game, players, seed, bots, trace=True, fast=False)
        assert fast.events == slow.events and fast.rounds == slow.rounds


def play_by_decisions(game, players: int, seed: int):
    """A match whose strategists answer the loop's decision tuples (``decide(decision,
    record)``, the decider protocol without ``bind``), as a caller of the protocol would."""
    shared: dict = {}
    deciders = [bot.decider(game, players, shared)
                for bot in api.make_bots("strategist", players, seed)]
    core = GeneralLoop(game, players, seed, [None] * players, record=True)
    run = core.run()
    try:
        decision = next(run)
        while True:
            decision = run.send(deciders[decision.player](decision, core.rec))
    except StopIteration:
        pass
    return core.result


@pytest.mark.parametrize("ruleset,players", CASES[:6])
def test_decision_tuples_and_the_bound_policy_choose_alike(ruleset, players):
    game = api.load_game(ruleset)
    for seed in range(4):
        assert (play_by_decisions(game, players, seed).events
                == api.play_match(game, players, seed, "strategist", trace=True).events)


def test_the_weights_are_whole_half_points():
    """The fast path sums every term but ``shed`` as an int of half points: exact in any
    order only while each weight is a whole number of half points."""
    from dominorules.bots import strategy as s

    for w in (s.W_OPTIONS, s.W_CONTROL, s.W_LOCK, s.W_BLOCK, s.W_BLOCK_NEXT, s.W_SHUTOUT,
              s.W_PARTNER, s.W_PARTNER_LACKS, s.W_OPP_SUIT, s.W_DOUBLE):
        assert (2 * w).is_integer()
