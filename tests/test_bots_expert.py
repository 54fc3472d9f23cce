"""The ``expert`` search bot: legal on every ruleset, blind to hidden tiles, reproducible,
and its sampler deals only what the seat's view allows."""

from __future__ import annotations

import pickle
import random

import pytest
from click.testing import CliRunner

from dominorules import api
from dominorules.bots import belief, make_bot, resolve
from dominorules.bots.expert import ExpertBot
from dominorules.bots.greedy import GreedyBot
from dominorules.bots.strategist import StrategistBot
from dominorules.bots.turn import bot_turn
from dominorules.cli import main
from dominorules.engine import Deal
from dominorules.engine.continuation import Inconsistent, code_of, continue_round
from dominorules.engine.game import Game
from dominorules.rules import builtin_rulesets

RULESETS = [b.name for b in builtin_rulesets()]


def first_round(name: str, seed: int, expert: ExpertBot, others: str = "greedy") -> int:
    """Play round 1 with the expert in seat 0 (every move through the engine's checks);
    the expert's choices made."""
    game = api.load_game(name)
    n = game.rules.min_players
    state = game.new_match(n, seed=seed)
    bots = [expert] + [make_bot(others, s, api.bot_rng(seed, s)) for s in range(1, n)]
    chosen = 0
    while not state.is_terminal and not state.rounds:
        seat = state.current_player
        if seat == 0 and len(state.legal_actions()) > 1:
            chosen += 1
        bot_turn(state, bots[seat], "expert" if seat == 0 else others, seat)
    return chosen


@pytest.mark.parametrize("name", RULESETS)
def test_expert_plays_only_legal_moves_on_every_builtin_ruleset(name):
    # bot_turn raises on any answer that is not a legal action; two seeds, a round each,
    # few playouts; the expert really chose (two legal actions or more) in each ruleset.
    # Where choices are rare (house/blind-hughie: only a front tile fitting both ends is
    # one) a few more seeds are played until one comes
    chosen = 0
    for seed in range(1, 9):
        chosen += first_round(name, seed, ExpertBot(0, api.bot_rng(seed, 0), playouts=3))
        if seed >= 2 and chosen:
            break
    assert chosen > 0


def test_expert_searches_real_choices():
    """It is asked at real choices and answers with one of the legal actions it analysed."""
    game = api.load_game("pagat")
    state = game.new_match(2, seed=3)
    bot = ExpertBot(0, random.Random(1), playouts=8)
    analysed = 0
    while not state.is_terminal and analysed < 5:
        seat = state.current_player
        legal = state.legal_actions()
        if seat == 0 and len(legal) > 1:
            analysis = bot.analyse(state.observation(0), legal)
            assert {c.action for c in analysis.candidates} <= set(legal)
            assert analysis.playouts > 0
            assert all(c.playouts == analysis.playouts for c in analysis.candidates)
            analysed += 1
        state.apply(GreedyBot(seat, random.Random(seat)).choose(state.observation(seat), legal))
    assert analysed == 5


def twins():
    """Two matches whose seat 0 sees the same thing (its hand, the board, the sizes) while
    seat 1's hand and the boneyard differ; seat 0 to act after 6-6 and 6-1."""
    mine = "6-6 6-5 5-5 4-4 3-3 2-2 2-1"
    a = Deal.of([mine, "6-1 0-0 0-1 0-2 0-3 0-4 0-5"], "1-1 3-4 4-5", leader=0)
    b = Deal.of([mine, "6-1 3-4 4-5 2-3 2-4 2-5 3-5"], "0-0 0-1 1-1", leader=0)
    states = []
    for deal in (a, b):
        state = api.load_game("dutch").new_match(2, seed=9, deals=[deal])
        state.apply("6-6")
        state.apply("6-1 left")
        states.append(state)
    return states


def test_expert_never_reads_hidden_tiles():
    one, two = twins()
    assert one.hand(1) != two.hand(1)
    obs = one.observation(0)
    assert obs == two.observation(0)
    for seed in range(3):
        picks = [ExpertBot(0, api.bot_rng(seed, 0), playouts=12).analyse(
            s.observation(0), s.legal_actions()) for s in (one, two)]
        assert picks[0] == picks[1]


def test_with_one_playout_the_expert_plays_the_strategists_pick():
    """No challenger is 'clearly better' on one deal, so the prior's pick stands."""
    one = twins()[0]
    obs, legal = one.observation(0), one.legal_actions()
    for seed in range(3):
        pick = StrategistBot(0, random.Random(seed)).choose(obs, legal)
        expert = ExpertBot(0, api.bot_rng(seed, 0), playouts=1)
        assert expert.choose(obs, legal) == pick


def test_challengers_behind_the_prior_get_fewer_playouts():
    """Pruning: the prior's pick is played on every deal; a candidate behind it after a
    look is dropped, so search time goes to the close calls."""
    state = api.load_game("pagat").new_match(2, seed=3)
    expert = ExpertBot(0, random.Random(2), playouts=33)
    prior = StrategistBot(0, random.Random(2))
    pruned = 0
    while not state.is_terminal and not state.rounds and not pruned:
        seat, legal = state.current_player, state.legal_actions()
        if seat == 0 and len(legal) > 2:
            obs = state.observation(0)
            analysis = expert.analyse(obs, legal)
            counts = {c.action: c.playouts for c in analysis.candidates}
            assert max(counts.values()) == analysis.playouts
            pruned += min(counts.values()) < analysis.playouts
            state.apply(analysis.best)
        else:
            state.apply(prior.choose(state.observation(seat), legal) if seat == 0
                        else GreedyBot(seat, random.Random(seat)).choose(
                            state.observation(seat), legal))
    assert pruned > 0


def test_expert_matches_are_reproducible_from_the_seed():
    bots = ["expert:playouts=4", "greedy"]
    first = api.play_match("pagat", 2, seed=11, bots=bots, trace=True)
    again = api.play_match("pagat", 2, seed=11, bots=bots, trace=True)
    assert first.events == again.events
    other = api.play_match("pagat", 2, seed=12, bots=bots, trace=True)
    assert other.events != first.events


def test_a_pickled_expert_chooses_as_the_original():
    """compare's workers get their bot specs by pickling: the copy must choose the same."""
    state = twins()[0]
    spec = resolve("expert:playouts=6")
    original = spec(0, api.bot_rng(5, 0))
    copy = pickle.loads(pickle.dumps(spec))(0, api.bot_rng(5, 0))
    obs, legal = state.observation(0), state.legal_actions()
    assert original.analyse(obs, legal) == copy.analyse(obs, legal)


@pytest.mark.parametrize("spec, message", [
    ("expert:playouts=abc", "expert playouts must be a whole number from 1 to 100,000, not 'abc'"),
    ("expert:speed=3", "expert has no option 'speed' (options: playouts, rollout, "
                       "prior, trust)"),
    ("expert:rollout=smart", "expert rollout must be one of greedy, random, strategist, "
                             "not 'smart'"),
    ("expert:prior=oracle", "expert prior must be one of strategist, none, not 'oracle'"),
    ("expert:trust=-1", "expert trust must be a number from 0 to 10, not '-1'"),
    ("greedy:playouts=3", "bot 'greedy' takes no options, so 'greedy:playouts=3' names no bot"),
])
def test_bad_expert_options_get_one_line(spec, message):
    result = CliRunner().invoke(main, ["simulate", "pagat", "--bots", f"{spec},random",
                                       "--matches", "2"])
    assert result.exit_code == 2
    assert f"error: {message}" in result.output
    assert "Traceback" not in result.output


# -- the sampler ---------------------------------------------------------------------------

def positions(name: str, seeds: range, players: int = 2):
    """(game, observation, state) at seat 0's choices (two legal actions or more) in greedy
    matches, once something is revealed: an opponent passed or drew after the opening."""
    game = api.load_game(name)
    for seed in seeds:
        state = game.new_match(players, seed=seed)
        bots = [GreedyBot(s, api.bot_rng(seed, s)) for s in range(players)]
        while not state.is_terminal:
            seat = state.current_player
            obs = state.observation(seat)
            if seat == 0 and len(state.legal_actions()) > 1 and belief.read(game, obs).lacks:
                yield game, obs, state
            state.apply(bots[seat].choose(obs, state.legal_actions()))


def known_lacks(game, obs, seen) -> dict[int, int]:
    """Per opponent, the tiles it surely lacks now: a sure lack with no draw of its after."""
    out: dict[int, int] = {}
    for i, seat, mask, sure in seen.lacks:
        later = seen.events[i + 1:] if seen.events[i]["event"] == "pass" else seen.events[i:]
        if sure and not any(e["event"] == "draw" and e.get("player") == seat for e in later):
            out[seat] = out.get(seat, 0) | mask
    return out


@pytest.mark.parametrize("name", ["dutch", "house/spinner"])
def test_sampler_deals_no_seat_a_tile_it_is_known_to_lack(name):
    checked = 0
    for game, obs, _ in positions(name, range(1, 9)):
        seen = belief.read(game, obs)
        lacks = known_lacks(game, obs, seen)
        rng = random.Random(checked)
        for _ in range(10):
            sample = belief.sample(game, obs, seen, rng)
            for seat, mask in lacks.items():
                assert not sample.hands[seat] & mask
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("name", ["pagat", "dutch", "house/spinner", "house/all-fives"])
def test_sampler_conserves_tiles_and_matches_the_view(name):
    ts = api.load_game(name).tileset
    every = (1 << ts.tile_count) - 1
    for game, obs, _ in positions(name, range(1, 4)):
        seen = belief.read(game, obs)
        sample = belief.sample(game, obs, seen, random.Random(7))
        dealt = [ts.mask(h) for h in sample.deal.hands]
        yard = ts.mask(sample.deal.boneyard)
        assert sum(m.bit_count() for m in dealt) + yard.bit_count() == ts.tile_count
        assert (yard | sum(dealt)) == every                     # each tile once
        assert sample.hands[0] == ts.mask(obs.hand)
        assert [h.bit_count() for h in sample.hands] == list(obs.hand_sizes)
        assert len(sample.boneyard) == obs.boneyard
        on_board = every & ~(sum(sample.hands) | ts.mask([ts.tiles[t] for t in sample.boneyard]))
        assert on_board.bit_count() == ts.tile_count - sum(obs.hand_sizes) - obs.boneyard


@pytest.mark.parametrize("name", ["pagat", "dutch", "vietnamese"])
def test_the_engine_accepts_the_deals_sampled_where_nothing_restricts_play(name):
    """Where passes and draws reveal exactly what the sampler reads, every deal it makes
    replays the round seen (the engine refuses any other)."""
    tried = 0
    for game, obs, state in positions(name, range(1, 4)):
        seen = belief.read(game, obs)
        position = expert_position(game, obs, seen)
        legal = state.legal_actions()
        after = [GreedyBot(s, random.Random(0)).policy(game) for s in range(obs.players)]
        for k in range(5):
            deal = belief.sample(game, obs, seen, random.Random(k)).deal
            try:
                continue_round(game, position, deal, code_of(game, legal[0]), after)
            except Inconsistent as exc:
                pytest.fail(f"seed {state.seed}: {exc}")
            tried += 1
    assert tried > 20


def expert_position(game, obs, seen):
    from dominorules.bots.expert import _position
    return _position(game, obs, seen)


def test_a_continuation_replays_the_real_deal_to_the_real_scores():
    """Given the true deal, continuing with the move actually played and the same bots
    reproduces the match's own round: the engine, not a model, plays it."""
    game = api.load_game("house/all-fives")
    seed = 4
    state = game.new_match(2, seed=seed)
    bots = [GreedyBot(s, random.Random(s)) for s in range(2)]
    for _ in range(6):
        seat = state.current_player
        state.apply(bots[seat].choose(state.observation(seat), state.legal_actions()))
    obs = state.observation(state.current_player)
    seen = belief.read(Game(obs.rules), obs)
    dealt = next(e for e in reversed(state.record) if e["event"] == "deal")
    deal = Deal.of([[tuple(t) for t in h] for h in dealt["hands"]],
                   [tuple(t) for t in dealt["boneyard"]], dealt["leader"])
    seat = state.current_player
    action = bots[seat].choose(obs, state.legal_actions())
    def rest():
        return [GreedyBot(s, random.Random(10 + s)) for s in range(2)]
    out = continue_round(game, expert_position(game, obs, seen), deal, code_of(game, action),
                         [b.policy(game) for b in rest()])
    assert out.before == list(state.scores)
    state.apply(action)
    rest = rest()
    while not state.rounds:
        s = state.current_player
        state.apply(rest[s].choose(state.observation(s), state.legal_actions()))
    assert tuple(state.rounds[0].scores) == out.scores


def test_plays_hint_comes_from_the_expert_with_its_numbers():
    import re

    from dominorules.play.hint import suggest

    state = twins()[0]
    hint = suggest(state, 0)
    assert hint.bot == "expert" and hint.action in state.legal_actions()
    assert re.fullmatch(r"expert would play \S+( left| right)?: it wins the round in \d+% of "
                        r"\d+ playouts \(points margin [+-]\d+\.\d\), against \d+% for the next "
                        r"best, \S+( left| right)? \([+-]\d+\.\d\)(; the strategist.s choice, "
                        r"which the playouts do not clearly beat)?", str(hint)), str(hint)


@pytest.mark.parametrize("rollout", ["random", "greedy", "strategist"])
def test_every_rollout_policy_plays_legal_moves(rollout):
    expert = resolve(f"expert:playouts=2:rollout={rollout}")(0, api.bot_rng(3, 0))
    assert first_round("house/spinner", 3, expert) > 0


def test_compare_skill_names_the_skilled_bot_and_the_summary_answers():
    result = CliRunner().invoke(main, ["compare", "pagat", "dutch", "--matches", "2",
                                       "--skill", "expert:playouts=1", "--workers", "1"])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "Skill (expert:playouts=1 in one seat against random):" in flat
    assert "skill gap" in flat and "95% interval" in flat
    bad = CliRunner().invoke(main, ["compare", "pagat", "dutch", "--skill", "expret"])
    assert bad.exit_code == 2 and "unknown bot 'expret'" in bad.output
