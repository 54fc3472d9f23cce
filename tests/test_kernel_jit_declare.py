"""The JIT engine on declarations and the showdown (``kernel/jit_declare.py``): each njit
function held to ``engine.mechanisms.declarations`` on random positions, and every
builtin ruleset using them, at its fewest and most players with each builtin bot, held
to the Python engine's matches, counters and simulate summary.

Records of declarations are not the JIT's (``jit_trace.reason`` refuses them), so the
matches here are played untraced.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from jit_record_checks import same_results, same_summary

from dominorules import api
from dominorules.engine.mechanisms import declarations
from dominorules.kernel import engines

pytest.importorskip("numba")

from dominorules.kernel import jit_declare, jit_house, jit_kernel, jit_trace  # noqa: E402
from dominorules.kernel.jit_formula import FACT, STACK  # noqa: E402

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

import numpy as np  # noqa: E402 - with numba

from dominorules.kernel.jit_template import INDEXES, TABLES  # noqa: E402

BUILTIN = ("house/muggins-called", "house/partner-sets", "house/passed-and-could-play")
# every piece at once: options setting a variable, a lead, a due call whose silence
# draws a tile, claims with the default score, a showdown reading the seat's tally
MIXED = """title: Declarations, all of them
extends: house/passing
variables:
  stake:
    initial: 1
    after_round: "1"
scoring:
  domino: "stake * sum(opponents.value)"
declarations:
  - name: stake
    when: round_start
    options:
      - name: low
        value: "count(hand, t -> t.is_double)"
      - name: high
        set: {stake: "stake + 1"}
        value: "count(hand, t -> t.pips > 8) + round % 3"
      - name: over
        lead: "seat + 1"
        value: "1"
  - name: call
    when: after_place
    due: "count(hand) == 1"
    options:
      - name: call
        value: "1"
      - name: silent
        draw: 1
  - name: count
    when: after_place
    claims: [0, 5, 10]
    worth: "end_total if end_total % 5 == 0 else 0"
showdown:
  penalty: "passes + player.tiles"
  each_opponent: "10 * passes"
"""


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    path = tmp_path_factory.mktemp("declare") / "mixed.yaml"
    path.write_text(MIXED)
    return api.load_game(str(path))


def _cases():
    for name in BUILTIN:
        game = api.load_game(name)
        for players in sorted({game.rules.min_players, game.rules.max_players}):
            yield name, players


def test_the_jit_plays_the_builtin_declarations_and_showdown():
    for name, players in _cases():
        assert jit_kernel.jit_reason(api.load_game(name), players, "strategist") is None
    # on a shaped board too (jit_layout: its matches, tests/test_kernel_jit_layout.py)
    assert jit_kernel.jit_reason(api.load_game("house/chicken-foot-tap"), 2, "strategist") \
        is None


def test_the_jit_writes_the_records_of_declarations_with_a_tile_turned_up_too(tmp_path):
    """(their records: ``test_kernel_jit_rec_several.py``; a tile turned up, logged before
    the round's first declarations as the general loop writes it:
    ``test_kernel_jit_rec_draws.py``)"""
    for name in BUILTIN:
        assert jit_trace.reason(api.load_game(name)) is None
    path = tmp_path / "up.yaml"
    path.write_text("title: Up\nextends: pagat\ndeal:\n  turn_up: true\ndeclarations:\n"
                    "  - name: pick\n    when: round_start\n    options:\n"
                    "      - {name: a}\n      - {name: b}\n", encoding="utf-8")
    assert jit_trace.reason(api.load_game(str(path))) is None


@pytest.mark.parametrize(("name", "players"), list(_cases()))
def test_the_jit_gives_the_python_engines_matches_and_counters(name, players):
    game = api.load_game(name)
    seeds = [api.match_seed(6, i) for i in range(6)]
    mixed_bots = (["strategist", "random", "greedy"] * players)[:players]
    for bots in ("random", "greedy", "strategist", mixed_bots):
        for seed, match in zip(seeds, engines.jit_results(game, players, seeds, bots),
                               strict=True):
            python = api.play_match(game, players, seed, bots)
            assert match == python, (bots, seed)
            assert match.counters == python.counters, (bots, seed)


def test_every_piece_at_once_gives_the_same_matches(mixed):
    seeds = [api.match_seed(3, i) for i in range(12)]
    handed = 0
    for players in (2, 4):
        for bots in ("random", "greedy", "strategist", ["random", "strategist"] * (players // 2)):
            for seed, match in zip(seeds, engines.jit_results(mixed, players, seeds, bots),
                                   strict=True):
                python = api.play_match(mixed, players, seed, bots)
                assert match == python, (players, bots, seed)
                assert match.counters == python.counters
                handed += (match.counters or {}).get("leads_handed", 0)
    assert handed > 0   # the lead option was taken (by the random bots)


def test_simulate_gives_the_same_summary_from_either_engine():
    for name, players, bots in (("house/muggins-called", 2, "random"),
                                ("house/partner-sets", 4, "strategist"),
                                ("house/passed-and-could-play", 3, "random")):
        game = api.load_game(name)
        same_summary(game, players, 200, 11, bots)


# -- each function against the mechanism, on random positions --------------------------

def _arrays(game, players, rng):
    """CODE, F, TAB, TEAMS, deck and stack of a kernel of ``game``, with random facts."""
    code, at = jit_house.programs(game)
    T, sides = game.tileset.tile_count, len(game.teams(players))
    F = np.zeros(len(FACT) + len(game.rules.variables), np.int64)
    TAB = np.zeros((len(TABLES), max(T, players, sides)), np.int64)
    ts = game.tileset
    for t in range(T):
        TAB[INDEXES["T_TL"], t], TAB[INDEXES["T_TH"], t] = ts.low[t], ts.high[t]
        TAB[INDEXES["T_PIPS"], t] = ts.pips[t]
    for row in ("T_P", "T_C", "T_DB", "T_DQ"):
        TAB[INDEXES[row], :players] = [rng.randrange(20) for _ in range(players)]
    teams = np.array(game.teams(players), np.int64)
    return (np.array(code, np.int64), at, F, TAB, teams, sides,
            np.arange(T, dtype=np.int64), np.zeros(STACK, np.int64))


def _position(game, players, F, rng):
    """A random position's names, set in ``F`` and given as the mechanism's env."""
    ts = game.tileset
    hand = rng.getrandbits(ts.tile_count)
    seat, et = rng.randrange(players), rng.choice([0, 3, 5, 10, 15, 20, 7])
    t = rng.randrange(ts.tile_count)
    values = {v.name: rng.randrange(-3, 9) for v in game.rules.variables}
    facts = {"seat": seat, "hand": hand, "end_total": et, "tile": t, "round": rng.randrange(
        1, 9), "players": players, "target": 100, "boneyard": rng.randrange(12)}
    for name, v in facts.items():
        F[FACT[name]] = v
    for i, v in enumerate(values.values()):
        F[len(FACT) + i] = v
    tiles = [(ts.low[i], ts.high[i]) for i in range(ts.tile_count) if hand >> i & 1]
    env = {**facts, **values, "hand": tuple(sorted(tiles)),
           "tile": (ts.low[t], ts.high[t]), "scores": (0,) * players}
    return env, values


@pytest.mark.parametrize("which", ["house/muggins-called", "house/partner-sets", "mixed"])
def test_each_function_is_the_mechanisms_on_random_positions(which, mixed):
    game = mixed if which == "mixed" else api.load_game(which)
    players = 4
    rng = random.Random(which)
    CODE, at, F, TAB, TEAMS, sides, deck, stack = _arrays(game, players, rng)
    args = (F, TAB, TEAMS, sides, players, deck, stack)
    for when, key in (("round_start", "DECL_START"), ("after_place", "DECL_PLACE")):
        decls = declarations.at(game.rules, when)
        if not decls:
            assert at[key] == -1
            continue
        for _ in range(40):
            env, values = _position(game, players, F, rng)
            got = jit_declare.asked(CODE, at[key], *args)
            want = declarations.asked(decls, env)
            assert [bool(got >> j & 1) for j in range(len(decls))] == [d in want
                                                                       for d in decls]
            for j, d in enumerate(decls):
                head = CODE[at[key] + 1 + j]
                assert jit_declare.count(CODE, head) == len(declarations.texts(d))
                assert jit_declare.worth(CODE, head, *args) == declarations.worth(d, env)
                assert jit_declare.fixed(CODE, head, *args) == declarations.fixed(d, env)
                word = rng.getrandbits(32)
                assert jit_declare.uniform(CODE, head, word) == declarations.uniform(d, word)
                k = rng.randrange(len(declarations.texts(d)))
                side = rng.randrange(sides)
                scores = np.zeros(sides, np.int64)
                before = F.copy()
                lead, draws = jit_declare.outcome(CODE, head, k, *args, side, scores)
                done = declarations.outcome(d, k, env, values, side, sides)
                assert (lead, draws) == (-1 if done.lead is None else done.lead, done.draws)
                assert scores.tolist() == list(done.points or (0,) * sides)
                assert {n: F[len(FACT) + i] for i, n in enumerate(values)} == done.values
                F[:] = before


@pytest.mark.parametrize("which", ["house/passed-and-could-play", "mixed"])
def test_the_showdown_is_the_mechanisms_on_random_positions(which, mixed):
    game = mixed if which == "mixed" else api.load_game(which)
    rng = random.Random(which)
    for players in (2, 3, 4):
        CODE, at, F, TAB, TEAMS, sides, deck, stack = _arrays(game, players, rng)
        side_of = game.side_of(players)
        for _ in range(20):
            env, _ = _position(game, players, F, rng)
            passes = [rng.choice([0, 0, 1, 3]) for _ in range(players)]
            scores = np.zeros(sides, np.int64)
            shown = jit_declare.penalties(CODE, at["SHOWDOWN"], np.array(passes, np.int64), F,
                                          TAB, TEAMS, sides, players, deck, stack,
                                          np.array(side_of, np.int64), scores,
                                          np.zeros(0, np.int64))   # no record

            def env_of(seat, env=env, TAB=TAB):
                tally = SimpleNamespace(seat=seat, **{
                    name: int(TAB[INDEXES[row], seat]) for name, row in (
                        ("pips", "T_P"), ("tiles", "T_C"), ("drawn", "T_DB"),
                        ("doubles", "T_DQ"))})
                return {**env, "player": tally}

            want = declarations.penalties(game.rules.showdown, passes, env_of,
                                          side_of.__getitem__, sides)
            assert shown == len(want)
            assert scores.tolist() == [sum(p[s] for _, _, p in want) for s in range(sides)]


def test_a_hand_counted_by_a_test_of_the_tile_alone_plays_in_a_restriction_too(tmp_path):
    """count(hand, t -> ...) as a mask (jit_formula's TILE_MASK), as declarations read it."""
    path = tmp_path / "r.yaml"
    path.write_text('title: Test\nextends: pagat\nplay:\n  restrictions:\n'
                    '    - allow: "tile.is_double or count(hand, t -> t.is_double) < 2"\n'
                    '      explain: x\n')
    game = api.load_game(str(path))
    assert jit_kernel.jit_reason(game, 3, "random") is None
    seeds = [api.match_seed(2, i) for i in range(15)]
    for bots in ("random", "greedy"):
        for seed, match in zip(seeds, engines.jit_results(game, 3, seeds, bots), strict=True):
            assert match == api.play_match(game, 3, seed, bots), (bots, seed)


def test_any_of_a_lists_attribute_plays_as_any_of_each_element(tmp_path):
    """``any(playable.is_double)`` (docs/house-rules.md's "Doubles first") is written as
    ``any(playable, t -> t.is_double)``, which the runtime reads alike: the same program,
    and the restriction plays as the Python engine plays it (a double where one fits)."""
    from dominorules.expr.checker import check
    from dominorules.expr.fields import FIELDS
    from dominorules.expr.parser import parse
    from dominorules.kernel import jit_formula

    path = tmp_path / "r.yaml"
    path.write_text('title: Test\nextends: dutch\nplay:\n  restrictions:\n'
                    '    - allow: "tile.is_double or not any(playable.is_double)"\n'
                    '      explain: x\n')
    game = api.load_game(str(path))
    tiles = jit_house.tile_names(game.tileset)

    def program(text):
        tree = parse(text)
        assert check(tree, "placement", FIELDS["placement"], text) == []
        return jit_formula.program(tree, {"tile": "tile", "playable": "playable"},
                                   {"playable": jit_formula.TILES},
                                   tiles)

    assert program("all(playable.is_double)") == program("all(playable, t -> t.is_double)")
    assert program("any(playable.is_double)") == program("any(playable, t -> t.is_double)")
    assert program("any(playable.is_double)") != program("all(playable.is_double)")
    seeds = [api.match_seed(4, i) for i in range(15)]
    for players in (2, 4):
        assert jit_kernel.jit_reason(game, players, "random") is None
        same_results(game, players, seeds, ("random", "greedy", "strategist"))


def test_an_option_setting_a_number_written_as_such_plays_on_the_jit(tmp_path):
    """``set: {stake: 2}``: a number, not a formula (docs/house-rules.md's "The leader's
    stake"); its tree is the number (``rules.compile``), so the JIT writes its program and
    plays it, each stake as the Python engine sets it."""
    path = tmp_path / "stake.yaml"
    path.write_text("title: Stake\nextends: pagat\nvariables:\n  stake: {initial: 1}\n"
                    "declarations:\n  - name: stake\n    when: round_start\n    options:\n"
                    "      - {name: single, set: {stake: 1}}\n"
                    "      - {name: double, set: {stake: 2}, "
                    "value: \"count(hand, t -> t.is_double) - 1\"}\n"
                    "scoring:\n  domino: \"stake * sum(opponents.value)\"\n", encoding="utf-8")
    game = api.load_game(str(path))
    seeds = [api.match_seed(7, i) for i in range(12)]
    for players in (2, 4):
        assert jit_kernel.jit_reason(game, players, "random") is None
        same_results(game, players, seeds, ("random", "greedy", "strategist"))


def test_compares_features_fold_the_leads_handed_the_same():
    from dominorules.explore.metrics import features

    game = api.load_game("house/partner-sets")
    seeds = [api.match_seed(8, i) for i in range(20)]
    rows, round_points, _ = engines.JitBatch(game, 4, seeds, "random").features()
    points: list[int] = []
    assert rows.tolist() == [features(api.play_match(game, 4, s), None, points)
                             for s in seeds]
    assert round_points.tolist() == points
    from dominorules.engine.results import MECHANISM_COUNTERS as COUNTED

    handed = rows[:, rows.shape[1] - len(COUNTED) + COUNTED.index("leads_handed")]
    assert handed.sum() > 0   # compare's lead_handed_rate reads it
