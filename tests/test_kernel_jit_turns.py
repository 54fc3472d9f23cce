"""The JIT on the turn rules it once left to the Python engine (issue 21): passing at will
on a spinner and under a fit rule (``jit_matching.uniform_pick``'s last option), play on
until a side is out with turns granted, skipped or passed at will and with hidden rows
(the GEN lines' turn order passing over the seats out: ``side_out.next_in_piece``), events
and placement restrictions with every tile twice (``jit_formula.Twice``: a tile's copies
are one tile to a formula), a lead formula reading the last round's seats and sides
(the settlement's tallies, kept until the next round's lead) and an opening condition
reading the hand or the round of a match of points (``jit_opening_allow``).

Each new piece is held to its mechanism's reference position by position (the uniform
pick to ``general_loop.kth_placement``: ``tests/test_kernel_jit_board.py``; a formula
over two copies to the expression evaluator; the lead to ``GeneralLoop._lead_by_formula``;
the opening to ``GeneralLoop._allowed``, ``_draws_one`` and ``_open``),
then whole matches on rulesets that reach them, at every player count, with every builtin
bot: the same results and the same record text on both engines. All share the one
compiled GEN kernel.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from dominorules import api
from dominorules.engine.general_loop import GeneralLoop
from dominorules.expr import compile_expression
from dominorules.kernel import jit, jit_formula, jit_house, jit_kernel, jit_settle

RULESETS = {
    # the uniform pick over a spinner's four ends, then a pass at will; a pass's events
    "spin-pass": ("extends: house/passing\nboard:\n  spinner: first_double\n"
                  "events:\n  - after: pass\n    if: \"passes_in_row >= 2\"\n    points: 1\n"),
    # a tile fitting an end two ways is two options, then a pass at will (on a spinner too)
    "fit-pass": ("extends: house/matador\nboard:\n  spinner: first_double\n"
                 "play:\n  passing: at_will\n"),
    # seats out passed over by turns, skips and passes at will (partnerships); two extra
    # turns a double: one still owed when its seat goes out is played (the general loop's)
    "side-turns": ("extends: house/side-out\nplay:\n  passing: at_will\nevents:\n"
                   "  - after: place\n    if: \"tile.is_double\"\n    again: true\n"
                   "  - after: place\n    if: \"tile.is_double or tile.pips == 7\"\n"
                   "    again: true\n"
                   "  - after: place\n    if: \"tile.pips == 5\"\n    skip: 1\n"),
    # seats out beside hidden rows (a pass is stuck only when no tile of the row fits)
    "side-blind": ("extends: house/side-out\ndeal:\n  blind: true\n"
                   "drawing:\n  reserve: 0\n  when_stuck: pass\n  voluntary: forbidden\n"),
    # two sets: events on the tile and the ends, a restriction naming a tile and counting
    # the hand's doubles, a settlement naming the last tile
    "copies-events": (
        "extends: house/two-sets\nevents:\n"
        "  - after: place\n    if: \"end_total > 0 and end_total % 5 == 0\"\n"
        "    points: \"end_total\"\n"
        "  - after: place\n    if: \"tile == [0|0] or tile == [3|3]\"\n    skip: 1\n"
        "  - after: place\n    if: \"tile.is_double and tile != [6|6]\"\n    again: true\n"
        "play:\n  restrictions:\n"
        "    - allow: \"tile != [5|5] or count(hand, t -> t.is_double) > 1 or boneyard < 4\"\n"
        "      explain: the double five goes down beside another double\n"
        "scoring:\n  domino: \"sum(opponents.pips) + (10 if last_tile == [6|5] else 0)\"\n"),
    # the lead by the last round's hands and scores (individual play, then partnerships)
    "lead-seats": ("extends: house/all-fives\nlead:\n  later: \"leader + 1 if max(seats.pips)"
                   " >= 15 else (leader + 2 if max(sides.score) > 60 else winner)\"\n"),
    "lead-sides": ("extends: house/partnership-draw\nlead:\n  later: \"leader + 1 if "
                   "min(sides.pips) > 4 * sum(seats.drawn) else winner_side + 2\"\n"),
    # opening conditions asked of each hand (jit_opening_allow): the round of a match of
    # points and max_pip; a leader lacking one draws for it; players drawing in turn
    "open-hand": ("extends: house/all-fives\nopening:\n  allow: \"count(hand, t -> "
                  "t.is_double) > 1 or tile.pips >= max_pip + round % 3\"\n"
                  "  if_lacking: pass_on\n"),
    "open-draw": ("extends: house/double-opening\nopening:\n  allow: \"tile.is_double and "
                  "(count(hand, t -> t.is_double) >= 2 or round > 1)\"\n  if_lacking: draw\n"),
    "open-turns": ("extends: house/double-opening\nopening:\n  allow: \"tile.is_double and "
                   "(tile.pips >= 8 or count(hand, t -> t.is_double) >= 3)\"\n"
                   "  if_lacking: pass_on\n  if_unheld: draw_in_turn\n"),
}


def _write(folder, name: str, text: str):
    path = folder / f"{name}.yaml"
    path.write_text(f"title: {name}\ndescription: a test\nsource: a test\n{text}",
                    encoding="utf-8")
    return api.load_game(str(path))


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("turns")
    return {name: _write(folder, name, text) for name, text in RULESETS.items()}


@pytest.mark.parametrize("name", list(RULESETS))
def test_the_jit_plays_them_at_every_player_count(games, name):
    game = games[name]
    for players in range(game.rules.min_players, game.rules.max_players + 1):
        for bots in ("random", "strategist"):
            assert jit_kernel.jit_reason(game, players, bots, need_numba=False) is None


def _formula_machine(ts):
    """The tables a program reads of the set ``ts``, its facts and its stack."""
    TAB = jit_formula.tables(ts.tile_count)
    for row, name in (("TL", "low"), ("TH", "high"), ("PIPS", "pips")):
        TAB[jit_formula.TAB[row]] = getattr(ts, name)
    return TAB, np.zeros(len(jit_formula.FACT), np.int64), np.zeros(jit_formula.STACK,
                                                                     np.int64)


@pytest.fixture(params=["plain", "jit"])
def run(request):
    if request.param == "plain":
        return jit.plain(jit_formula).run
    pytest.importorskip("numba")
    if not jit.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    return jit_formula.run


@pytest.mark.parametrize(("text", "kind"), [
    ("tile == [6|5]", "placement"),
    ("count(hand, t -> t.is_double or t == [6|5]) > 2", "placement"),
    ("all(hand, t -> t != [1|0]) and tile != [3|3]", "placement"),
    ("tile == duty_tile", "duty_met"),
    ("(tile if tile.is_double else duty_tile) != [0|0]", "duty_met")])
def test_a_formula_over_two_sets_answers_as_the_evaluator_for_every_copy(run, text, kind):
    """A tile's two copies are two indexes to the kernel, one tile to a formula: pairs
    of copies (tile, duty_tile) and hands over both copies give the evaluator's value."""
    ts = api.load_game("house/two-sets").tileset
    assert ts.copies == 2
    compiled = compile_expression(text, kind)
    code = np.array(jit_formula.program(
        compiled.ast, {"tile": "tile", "duty_tile": "end_lt", "hand": "hand"},
        {"hand": jit_formula.TILES}, jit_house.tile_names(ts)), np.int64)
    TAB, F, stack = _formula_machine(ts)
    deck, teams = np.zeros(1, np.int64), np.zeros((1, 1), np.int64)
    fact = jit_formula.FACT
    rng = random.Random(4)
    T = ts.tile_count
    pairs = list(itertools.product(range(T), repeat=2))[::5] + [
        (2 * k + c, 2 * k + d) for k in range(T // 2) for c in (0, 1) for d in (0, 1)]
    values = set()
    for t, other in pairs:
        hand = rng.getrandbits(T) & rng.getrandbits(T) | 1 << t
        F[fact["tile"]], F[fact["end_lt"]], F[fact["hand"]] = t, other, hand
        want = int(compiled.fn({
            "tile": (ts.low[t], ts.high[t]), "duty_tile": (ts.low[other], ts.high[other]),
            "hand": tuple((ts.low[i], ts.high[i]) for i in range(T) if hand >> i & 1)}))
        assert run(code, 0, F, TAB, teams, 2, 2, deck, stack) == want, (text, t, other)
        values.add(want)
    assert values == {0, 1}


def test_an_events_tile_masks_hold_both_copies(games):
    """The head of an event block (``_may_fire``) and an ``if`` on the tile alone tabled
    (``jit_formula.MASK``) mark both copies of a tile the rule may fire on, and no other."""
    from dominorules.kernel import jit_events

    game = games["copies-events"]
    ts = game.tileset
    code, at = jit_house.programs(game)
    head = at["EV_PLACE"]
    mask = code[head + 1]   # the tiles some rule's if may hold for (all: the first rule
    assert mask == (1 << ts.tile_count) - 1   # reads the ends' total)
    # the skip rule alone: its if tabled over every index of the set
    rules = code[head + jit_events.RULES]
    skip_if = code[rules + 1 + jit_events.WIDTH * 1 + jit_events.FIELDS.index("if")]
    assert code[skip_if] == jit_formula.MASK
    bits = code[skip_if + 2]
    want = sum(1 << i for i, t in enumerate(ts.tiles) if (t.low, t.high) in ((0, 0), (3, 3)))
    assert bits == want and bin(want).count("1") == 4


def test_the_lead_formula_reads_the_tallies_the_loop_keeps(games):
    """Random last rounds (hands, draws, scores, rounds won, the winner): the F_LEAD
    program over the settlement's tallies (``jit_settle.tallies``) names the seat
    ``GeneralLoop._lead_by_formula`` names from the seats and sides it kept."""
    game = games["lead-sides"]
    n = 4
    loop = GeneralLoop(game, n, 1, [None] * n)
    code, at = jit_house.programs(game)
    CODE = np.array(code, np.int64)
    ts = game.tileset
    T = ts.tile_count
    TAB = jit_formula.tables(max(T, n))
    for row, name in (("TL", "low"), ("TH", "high"), ("PIPS", "pips")):
        TAB[jit_formula.TAB[row], :T] = getattr(ts, name)
    TAB[jit_formula.TAB["VALUES"], :T] = [game.hand_value(1 << t) for t in range(T)]
    F = np.zeros(len(jit_formula.FACT) + len(game.rules.variables), np.int64)
    stack = np.zeros(jit_formula.STACK, np.int64)
    teams = np.array(loop.teams, np.int64)
    deck = np.zeros(T, np.int64)
    fact = jit_formula.FACT
    tab = jit_formula.TAB
    rng = random.Random(9)
    seen = set()
    for _ in range(300):
        deal = rng.sample(range(T), T)
        hands = [sum(1 << t for t in deal[s::n][:rng.randrange(8)]) for s in range(n)]
        drawn = [rng.randrange(4) for _ in range(n)]
        loop.hands = hands
        loop.scores = [rng.randrange(80) for _ in range(2)]
        loop.rounds_won = [rng.randrange(3) for _ in range(2)]
        wside = rng.choice([None, 0, 1])
        prev = (rng.randrange(n), None if wside is None else wside + 2 * rng.randrange(2),
                wside, rng.randrange(n), wside is None)
        seats = loop._seat_tallies(drawn)
        loop.last_views = {"seats": tuple(seats),
                           "sides": tuple(loop._side_tallies(seats, wside))}
        want = loop._lead_by_formula(prev)
        with np.errstate(over="ignore"):   # popcount's multiply wraps, as numba's does
            jit_settle.tallies(np.array(hands, np.int64), n, TAB[tab["VALUES"]],
                               TAB[tab["PIPS"]], ts.doubles_mask, np.array(drawn, np.int64),
                               teams, 0, *(TAB[tab[k]] for k in (
                                   "P", "V", "C", "DB", "DQ", "SP", "SV", "ST", "SD", "SQ")))
        TAB[tab["scores"], :2], TAB[tab["rounds_won"], :2] = loop.scores, loop.rounds_won
        F[fact["leader"]] = prev[0]
        F[fact["lead_winner"]] = -1 if prev[1] is None else prev[1]
        F[fact["winner_side"]] = -1 if wside is None else wside
        F[fact["lead_last"]], F[fact["lead_blocked"]] = prev[3], prev[4]
        got = jit_formula.run(CODE, at["F_LEAD"], F, TAB, teams, 2, n, deck, stack) % n
        assert got == want, (hands, drawn, prev)
        seen.add(want)
    assert len(seen) == n


@pytest.fixture(params=["plain", "jit"])
def opening_k(request):
    from dominorules.kernel import jit_opening_allow

    if request.param == "plain":
        return jit.plain(jit_opening_allow)
    pytest.importorskip("numba")
    if not jit.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    return jit_opening_allow


@pytest.mark.filterwarnings("ignore:overflow encountered")   # (popcount wraps, as numba's)
@pytest.mark.parametrize("name", ["open-hand", "open-draw", "open-turns"])
def test_an_opening_asked_of_each_hand_is_the_loops(games, opening_k, name):
    """Random deals, every leader and round: ``allowed_of`` is ``GeneralLoop._allowed``,
    ``draws_one`` its ``_draws_one`` and ``open_any`` its ``_open`` (opener, opening
    mask, free, the seek's kind)."""
    from dominorules.engine.general_loop import _opening_rules
    from dominorules.kernel import jit_opening

    game = games[name]
    seeks = {None: jit_opening.SEEK_NONE, "leader": jit_opening.SEEK_LEADER,
             "turns": jit_opening.SEEK_TURNS, "out": jit_opening.SEEK_OUT}
    ts = game.tileset
    T = ts.tile_count
    seen = set()
    for n in (2, 4):
        loop = GeneralLoop(game, n, 1, [None] * n)
        setup = game.setup(n)
        code, at = jit_house.programs(game, n)
        CODE = np.array(code, np.int64)
        TAB, F, stack = _formula_machine(ts)
        F = np.zeros(len(jit_formula.FACT) + len(game.rules.variables), np.int64)
        fact = jit_formula.FACT
        F[fact["players"]], F[fact["target"]] = n, game.target(n)
        teams = np.array(loop.teams, np.int64)
        heavy = np.array(jit_house.heavy_order(game), np.int64)
        rng = random.Random(n)
        for _ in range(150):
            deck = rng.sample(range(T), T)
            hands = [sum(1 << t for t in deck[s * setup.hand_size:(s + 1) * setup.hand_size])
                     for s in range(n)]
            loop.hands = hands
            deck_a = np.array(deck, np.int64)
            for rnd, op in ((1, _opening_rules(game.rules)[0]), (2, _opening_rules(game.rules)[1]),
                            (3, _opening_rules(game.rules)[1])):
                prog = CODE[at["O_ALLOW"] + (rnd > 1)]
                assert prog >= 0
                F[fact["round"]] = rnd
                H = np.array(hands, np.int64)
                M = np.zeros(2, np.int64)   # the tiles allowed, and a scratch hand
                for s, h in enumerate(hands):
                    opening_k.allowed_of(M, 0, H, s, CODE, prog, F, TAB, teams, 2, n, deck_a,
                                         stack)
                    assert M[0] == loop._allowed(op, h, rnd)
                    assert opening_k.draws_one(H, s, deck_a, setup.dealt, setup.draw_end, CODE,
                                               prog, F, TAB, teams, 2, n, stack, M, 0, M, 1) \
                        == loop._draws_one(op, h, deck[setup.dealt:setup.draw_end], rnd)
                leader = rng.randrange(n)
                want = loop._open(op, hands, leader, deck, setup.dealt, setup.draw_end, rnd,
                                  loop.next_seat)
                got = opening_k.open_any(prog, jit_house._opening(game, n, op, rnd)[2],
                                         jit_house._opening(game, n, op, rnd)[3],
                                         H, leader, deck_a,
                                         setup.dealt, setup.draw_end, n, heavy,
                                         int(game.rules.direction == "right"), CODE, F, TAB,
                                         teams, 2, stack, M, 0, M, 1)
                kind = want[3][0] if want[3] is not None else None
                assert (got[0], got[1], bool(got[2]), got[3]) == (
                    -1 if want[0] is None else want[0], want[1], want[2], seeks[kind])
                seen.add(kind if want[0] is None or want[0] == leader else "passed on")
    # what the deals reached: the leader opening (None), the opening passed on, the
    # leader drawing for a tile, drawn out in vain, players drawing in turn
    assert seen == {"open-hand": {None, "passed on"}, "open-draw": {None, "leader", "out"},
                    "open-turns": {None, "passed on", "turns"}}[name]


SEATS = {"side-turns": (4,), "side-blind": (4,), "lead-sides": (4,)}
BOTS = ("random", "greedy", "strategist", ["strategist", "greedy", "random", "strategist",
                                           "random", "greedy", "strategist", "random"])


@pytest.mark.parametrize("name", list(RULESETS))
def test_both_engines_play_the_same_matches_and_write_the_same_records(games, name):
    pytest.importorskip("numba")
    if not jit_kernel.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    from jit_record_checks import same_on_both_engines

    game = games[name]
    seeds = [api.match_seed(21, i) for i in range(3)]
    events = []
    for players in range(game.rules.min_players, game.rules.max_players + 1):
        for bots in BOTS if players <= 4 else BOTS[3:]:   # (5 to 8 seats: the bots mixed)
            seats = bots if isinstance(bots, str) else bots[:players]
            assert jit_kernel.jit_reason(game, players, seats) is None
            events += same_on_both_engines(game, players, seeds, seats)
    kinds = {e["event"] for e in events}
    assert {"place", "pass"} <= kinds
    if name.startswith("side"):   # seats went out and the round went on
        assert "out" in kinds
    if name == "side-turns":
        assert {"extra_turn", "skip"} <= kinds
        out: set[int] = set()   # a turn owed to a seat out: it acts (it passes or draws)
        owed = 0
        for e in events:
            if e["event"] == "deal":
                out = set()
            elif e["event"] == "out":
                out.add(e["player"])
            elif e["event"] in ("pass", "draw") and e["player"] in out:
                owed += 1
        assert owed
