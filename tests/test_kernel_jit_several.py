"""Moves of several tiles on the JIT (``kernel/jit_several.py``, ``play.several``).

Each numba piece answers as the general loop's (``GeneralLoop._several``, over
``engine.mechanisms.several``) on random positions: the same single tiles left alone,
the same moves in the same order; each bot's pick is the Python bot's own
(``RandomBot.choose``, ``GreedyBot.choose``, ``StrategistBot._several``) over the same
legal actions, on the same seat stream, word for word. Then the GEN kernel plays both
builtin rulesets and one whose conditions read every placement name, at their fewest
and most seats, with every builtin bot: ``api.simulate`` and the matches are the Python
engine's. The kernel is the one GEN kernel every house ruleset shares.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from several_checks import seat_words

from dominorules import api
from dominorules.engine.actions import Action
from dominorules.engine.board import Board
from dominorules.engine.general_loop import GeneralLoop

pytest.importorskip("numba")

from dominorules.kernel import jit_house, jit_kernel  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

# conditions reading every name a several condition offers the JIT (tile, end, hand,
# playable, ends, boneyard, round, players)
CONDITIONS = ("title: Reads all\ndescription: a test\nsource: a test\nextends: pagat\n"
              "play:\n  several:\n    most: 2\n"
              "    tiles: \"tile.pips + end >= count(playable) or max(ends) == 6 "
              "or boneyard < round + players\"\n"
              "    alone: \"count(hand) <= 3 or end == tile.high or sum(ends) % 3 == 0\"\n"
              "    explain: a test\n")


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    path = tmp_path_factory.mktemp("several") / "reads-all.yaml"
    path.write_text(CONDITIONS, encoding="utf-8")
    return {name: api.load_game(name) for name in ("house/double-draw",
                                                   "house/doubles-together")} | {
        "reads-all": api.load_game(str(path))}


def _position(game, players, rng):
    """A random position on a line: a seat's hand, the ends, the boneyard, the round."""
    T = game.tileset.tile_count
    tiles = rng.sample(range(T), T)
    hand = 0
    for t in tiles[:rng.randint(1, 9)]:
        hand |= 1 << t
    return hand, rng.randrange(7), rng.randrange(7), rng.randrange(T - 2), rng.randint(1, 5)


def _kernel_arrays(game, players, rnd, boneyard):
    """What the GEN lines hand the pieces: the programs, the facts, the formula tables."""
    import numpy as np

    from dominorules.kernel import jit_formula, jit_template

    code, starts = jit_house.programs(game)
    ts = game.tileset
    T = ts.tile_count
    F = np.zeros(len(jit_template.FACTS) + len(jit_template.PLAY_FACTS) + code[0], np.int64)
    F[jit_formula.FACT["round"]], F[jit_formula.FACT["players"]] = rnd, players
    F[jit_formula.FACT["boneyard"]] = boneyard
    tab = jit_formula.TAB
    TAB = np.zeros((len(jit_template.TABLES), max(T, players, 2)), np.int64)
    for t in range(T):
        TAB[tab["TL"], t], TAB[tab["TH"], t] = ts.low[t], ts.high[t]
        TAB[tab["PIPS"], t], TAB[tab["VALUES"], t] = ts.pips[t], game.values[t]
    return (np.array(code, np.int64), starts["SEVERAL"], F, TAB,
            np.array(game.teams(players), np.int64))


def _loop_at(game, players, L, R, boneyard):
    """A general loop stood at a position on the line ``L``, ``R``."""
    loop = GeneralLoop(game, players, 1, [None] * players)
    loop.board = Board()
    loop.board.open_with(L, R, L == R)
    loop.deck = list(range(game.tileset.tile_count))
    return loop, game.tileset.tile_count - boneyard


@pytest.mark.parametrize("name", ["house/double-draw", "house/doubles-together", "reads-all"])
def test_the_moves_and_the_tiles_alone_are_the_general_loops(games, name):
    import numpy as np

    from dominorules.kernel import jit_several

    game = games[name]
    rng = random.Random(name)
    PM = np.array(game.setup(2).value_mask, np.int64)
    PIPS = np.array(game.tileset.pips, np.int64)
    MV = np.zeros((game.tileset.tile_count ** 2 + 1, 2), np.int64)
    S = np.zeros(4, np.int64)   # (line_moves' scratch sets)
    stack = np.zeros(64, np.int64)
    found = 0
    for _ in range(400):
        players = rng.choice((2, 4))
        hand, L, R, boneyard, rnd = _position(game, players, rng)
        loop, pos = _loop_at(game, players, L, R, boneyard)
        fit = [hand & int(PM[L]), hand & int(PM[R])]
        want_fit, _, want = loop._several([], list(fit), fit[0] | fit[1], hand, pos, rnd, 0)
        CODE, SEV, F, TAB, TEAMS = _kernel_arrays(game, players, rnd, boneyard)
        deck = np.arange(game.tileset.tile_count, dtype=np.int64)
        M, H = np.array(fit, np.int64), np.array([hand], np.int64)   # (jit_masks' sets)
        jit_several.alone(M, 0, 1, H, 0, L, R, PM, CODE, SEV, F, TAB, TEAMS, 2, players, deck,
                          stack, S)
        n = jit_several.line_moves(H, 0, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, 2,
                                   players, deck, stack, MV, S)
        assert list(M) == list(want_fit)
        assert [tuple(MV[k]) for k in range(n)] == list(want)
        found += n
    assert found > 10   # the positions reach moves (of doubles only, too), not none


def _legal(game, fit, moves, at_will):
    """The decision's legal placements as ``engine.state.legal_pairs`` lists them."""
    out = [game.placements[t][e] for e, m in enumerate(fit) for t in range(64) if m >> t & 1]
    out += [Action.several([game.placements[c >> 2][c & 3] for c in move]) for move in moves]
    return out + ([Action("pass")] if at_will else [])


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_each_bots_pick_is_the_python_bots_word_for_word(games, kind):
    import numpy as np

    from dominorules.bots.greedy import GreedyBot
    from dominorules.bots.random_bot import RandomBot
    from dominorules.bots.strategist import StrategistBot
    from dominorules.engine.streams import seat_streams
    from dominorules.kernel import jit_several

    game = games["house/doubles-together"]
    players, seat, seed = 3, 1, 77
    rng = random.Random(kind)
    PM = np.array(game.setup(players).value_mask, np.int64)
    PIPS = np.array(game.tileset.pips, np.int64)
    VALUES = np.array(game.values, np.int64)
    T = game.tileset.tile_count
    MV = np.zeros((T * T + 1, 2), np.int64)
    MN = np.full(T * T + 1, 2, np.int64)   # (each move two tiles: one on each end)
    TIE = np.zeros(T * T + 2 * T + 1, np.int64)
    S = np.zeros(4, np.int64)   # (the pieces' scratch sets)
    stack = np.zeros(64, np.int64)
    WS = seat_words(seed, players)
    bot = (RandomBot, GreedyBot, StrategistBot)[kind](seat, seat_streams(seed, players)[seat])
    tiles = game.tileset.tiles
    picked = set()
    for i in range(300):
        hand, L, R, boneyard, rnd = _position(game, players, rng)
        at_will = kind == 0 and i % 3 == 0
        CODE, SEV, F, TAB, TEAMS = _kernel_arrays(game, players, rnd, boneyard)
        deck = np.arange(T, dtype=np.int64)
        M, H = np.array([hand & PM[L], hand & PM[R]], np.int64), np.array([hand], np.int64)
        jit_several.alone(M, 0, 1, H, 0, L, R, PM, CODE, SEV, F, TAB, TEAMS, 2, players, deck,
                          stack, S)
        mL, mR = int(M[0]), int(M[1])
        n = jit_several.line_moves(H, 0, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, 2,
                                   players, deck, stack, MV, S)
        if not (mL or mR or n):
            continue
        moves = [tuple(MV[k]) for k in range(n)]
        legal = _legal(game, [mL, mR], moves, at_will)
        obs = SimpleNamespace(ends=(L, R), tile_values=dict(zip(tiles, game.values,
                                                                 strict=True)),
                              hand=[tiles[t] for t in range(T) if hand >> t & 1],
                              rules=game.rules)
        want = (bot._several(obs, legal).action if kind == 2 else bot.choose(obs, legal))
        code = jit_several.pick(kind, seat, seed, players, WS, M, 0, 1, n, int(at_will), MV,
                                MN, H, 0, L, R, PM, PIPS, VALUES, CODE, SEV, TIE, S)
        singles = bin(mL).count("1") + bin(mR).count("1")
        index = (len(legal) - 1 if code == -2 else singles + code - jit_several.MOVE
                 if code >= jit_several.MOVE else legal.index(game.placements[code >> 2][
                     code & 3]))
        assert legal[index] == want, (i, legal, want)
        picked.add(want.kind)
    assert "several" in picked and "place" in picked


def test_the_kernel_plays_every_bot_as_the_python_engine(games):
    from dominorules.kernel import engines

    seeds = [api.match_seed(9, i) for i in range(3)]
    for name, game in games.items():
        low, high = game.rules.min_players, game.rules.max_players
        for players in (low, high):
            for bots in ("random", "greedy", "strategist",
                         ["strategist", "greedy", "random", "strategist"][:players]):
                assert jit_kernel.jit_reason(game, players, bots) is None
                got = engines.jit_results(game, players, seeds, bots)
                for seed, match in zip(seeds, got, strict=True):
                    assert match == api.play_match(game, players, seed, bots), (
                        name, players, bots)


@pytest.mark.parametrize("bots", ["random", "greedy", "strategist"])
def test_simulate_on_the_jit_is_simulate_on_the_python_engine(games, bots):
    for name in ("house/double-draw", "house/doubles-together"):
        game = games[name]
        drop = ("engine", "seconds", "time", "elapsed")
        jit = api.simulate(game, 2, 8, 3, bots, engine="jit")
        py = api.simulate(game, 2, 8, 3, bots, engine="python")
        assert jit["engine"] == "jit" and py["engine"] == "python"
        assert {k: v for k, v in jit.items() if k not in drop} == {
            k: v for k, v in py.items() if k not in drop}


def test_what_it_does_not_play_it_refuses_in_a_sentence(tmp_path):
    # every kind of move and first_turn are played now (test_kernel_jit_several_kinds.py,
    # test_kernel_jit_chain.py)
    for i, extra in enumerate(("move: whole_hand", "move: after_double", "move: chain",
                               "tiles: \"first_turn\"")):
        file = tmp_path / f"r{i}.yaml"
        file.write_text(f"title: t\nextends: house/double-draw\nplay:\n  several:\n"
                        f"    {extra}\n", encoding="utf-8")
        assert jit_kernel.jit_reason(api.load_game(str(file)), 2, need_numba=False) is None
    spin = tmp_path / "spin.yaml"
    spin.write_text("title: t\nextends: house/doubles-together\nboard:\n  spinner: "
                    "first_double\n", encoding="utf-8")
    # two doubles at once on a spinner: played (jit_several_arms)
    assert jit_kernel.jit_reason(api.load_game(str(spin)), 2, need_numba=False) is None
    from dominorules.kernel import jit_trace

    assert jit_trace.reason(api.load_game("house/double-draw")) is None   # records: written


def test_the_kernel_command_prints_the_jit_kernel_that_plays_it():
    from dominorules.kernel import listing

    game = api.load_game("house/double-draw")
    text = listing.kernel_listing(game, 2, "jit")
    assert f"switch SEVERAL = {jit_house.programs(game)[1]['SEVERAL']}" in text
    assert "pick(kinds[p]" in text
