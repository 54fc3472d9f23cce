"""The JIT's shaped boards (``board.layout``) beside the rules that read them (issue 21):
play-time events, whose end totals are the layout's (``jit_layout.end_total``, as
``Layout.end_total`` counts them) and whose ``both_ends`` counts the ends open to the
placer; placement restrictions, judged end by end with the shaped board's own names
(``arm``, ``spinners_complete``, ``doubles_down``: ``jit_layout.allowed``). Each test
ruleset at every player count it allows, with the random, greedy and strategist bots
(``jit_strategist_layout``) and a mixed table: the JIT's results and record text are
the Python engine's (``tests/jit_record_checks.py``). The pieces beside them are held to
the mechanism position by position: the largest total the events' tables are built for
(``jit_house._most_total``) bounds every total a round of random placements on each
shape reaches, and ``jit_layout.allowed`` keeps the tiles ``general_loop.allowed_at``
keeps, end by end, in random rounds.

The kernel is the house rules' shared one (``test_kernel_jit_layout`` compiles it too);
one match a table keeps the file to seconds.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from jit_record_checks import every_player_count, need_jit, on_every_bot_table

from dominorules import api
from dominorules.engine.general_loop import allowed_at
from dominorules.engine.mechanisms.layout import Layout, Shape
from dominorules.kernel import jit, jit_formula, jit_house, jit_kernel, jit_layout

HERE = Path(__file__).resolve().parent / "rulesets" / "house"
FIVES = str(HERE / "chicken-foot-fives.yaml")    # place, draw and pass events, end totals
TRAINS = str(HERE / "trains-doubles-again.yaml")  # a turn granted, both_ends on trains
TOES = str(HERE / "chicken-foot-toes.yaml")      # arm, spinners_complete, doubles_down; pass
HEAVY = str(HERE / "trains-restricted.yaml")     # hand, playable, end, boneyard; waive
UP_TRAINS = str(HERE / "trains-turned-up.yaml")  # deal.turn_up: the station turned up
UP_FEET = str(HERE / "feet-turned-up.yaml")      # and the first foot's double, or a line
TWO_TRAINS = str(HERE / "trains-two-sets.yaml")  # set.copies: 2 on trains
TWO_LINE = str(HERE / "line-two-sets.yaml")      # and a first double's three arms
def _both(game, players: int) -> list[dict]:
    """Every bot table's match on both engines alike (results and record text): the
    Python engine's events."""
    return on_every_bot_table(game, players, [api.match_seed(23, 0)])


@pytest.mark.parametrize(("path", "players"), list(every_player_count(FIVES, TRAINS)))
def test_events_on_a_shaped_board_play_and_record_as_the_python_engine(path, players):
    """Every rule of the ruleset fires in the matches, on both engines alike."""
    need_jit()
    fired: Counter = Counter()
    for e in _both(api.load_game(path), players):
        if e["event"] == "score":
            fired[e["rule"]] += 1
        elif e["event"] == "extra_turn":
            fired["again"] += 1
    if path == FIVES:
        assert {0, 1, 2} <= set(fired)
    else:
        assert fired["again"] > 0 and 1 in fired


@pytest.mark.parametrize(("path", "players"), list(every_player_count(TOES, HEAVY)))
def test_restrictions_on_a_shaped_board_play_and_record_as_the_python_engine(path, players):
    """The restrictions hold in the matches both engines play alike: no tile of odd pips
    on a middle toe, none under seven pips while ten tiles are left, unless waived."""
    need_jit()
    events = _both(api.load_game(path), players)
    places = [e for e in events if e["event"] == "place" and e["end"] is not None]
    if path == TOES:
        toes = [e for e in places if e["end"].endswith("/2")]
        assert toes and all(sum(e["tile"]) % 2 == 0 for e in toes)
    else:
        assert any(sum(e["tile"]) >= 7 for e in places)
        assert any(sum(e["tile"]) < 7 for e in places)


SHAPES = [
    Shape(spins="every_double", sides=3, opening_sides=6, through=False, arms_open="at_once",
          answer_first=True),
    Shape(ends=1),
    Shape(spins="every_double", sides=2),
    Shape(trains=True, shared_train="shared", markers=True, answer_doubles=True),
    Shape(spins="every_double", sides=2, through=False, dead_arms=True),
    Shape(spins="every_double", sides=3, answer_first=True, answer_doubles=True),
]


@pytest.mark.parametrize("k", range(len(SHAPES)))
def test_the_events_tables_cover_every_total_a_shaped_board_reaches(k):
    """``_most_total`` on each shape: random rounds of a double-six set laid through
    ``Layout`` never pass it (a total past it would find no bit in the events' tables)."""
    shape = SHAPES[k]
    top = 6
    tiles = [(a, b) for b in range(top + 1) for a in range(b + 1)]

    class R:   # the two fields _most_total reads of Rules
        layout, max_players = shape, 8

    most = jit_house._most_total(R, top, top + 1)
    rng = random.Random(k)
    seen = 0
    for _ in range(40):
        board = Layout(shape, seats=8)
        pool = list(tiles)
        rng.shuffle(pool)
        board.place(pool.pop(), None)
        while True:
            options = [(t, n) for t in pool for n in board.ends_fitting(t, rng.randrange(8))]
            if not options:
                break
            t, name = rng.choice(options)
            pool.remove(t)
            board.place(t, name)
            seen = max(seen, board.end_total())
            assert board.end_total() <= most
    assert 0 < seen <= most


@pytest.mark.parametrize(("path", "players"), list(every_player_count(UP_TRAINS, UP_FEET)))
def test_a_turned_up_tile_on_a_shaped_board_plays_and_records_as_the_python_engine(
        path, players):
    """Every round opens from a tile turned up, placed by nobody; the leader's first
    tile goes on the board it opened (an end, never the opening's null)."""
    need_jit()
    events = _both(api.load_game(path), players)
    deals = sum(1 for e in events if e["event"] == "deal")
    ups = [i for i, e in enumerate(events) if e["event"] == "turn_up"]
    assert len(ups) == deals
    firsts = [next(e for e in events[i:] if e["event"] == "place") for i in ups]
    assert all(e["end"] is not None for e in firsts)


@pytest.mark.parametrize(("path", "players"), list(every_player_count(TWO_TRAINS, TWO_LINE)))
def test_every_tile_twice_on_a_shaped_board_plays_and_records_as_the_python_engine(
        path, players):
    """Both copies of a tile go down in one round (each one move, its first copy while
    both are held: ``jit_copies.canonical`` at every end)."""
    need_jit()
    events = _both(api.load_game(path), players)
    twice = 0
    for e in events:
        if e["event"] == "deal":
            laid: Counter = Counter()
        elif e["event"] == "place":
            laid[tuple(sorted(e["tile"]))] += 1
            twice += laid[tuple(sorted(e["tile"]))] == 2
    assert twice > 0


@pytest.mark.parametrize("path", [UP_TRAINS, UP_FEET])
def test_the_strategists_board_replays_a_turned_up_tile(path):
    """``Layout.replay`` (the strategist's shaped board, from the record) opens with the
    turned-up tile, so every placement of a round goes on an end its board has open to
    the placer."""
    game = api.load_game(path)
    match = api.play_match(game, 3, api.match_seed(4, 0), "random", trace=True)
    checked = 0
    for i, e in enumerate(match.events):
        if e["event"] == "deal":
            start = i
        elif e["event"] == "place":
            board = Layout.replay(game.rules.layout, 3, match.events[start:i])
            assert e["end"] in [name for name, _ in board.playable(e["player"])]
            checked += 1
    assert checked > 20


@pytest.fixture(params=["plain", "jit"])
def kl(request):
    if request.param == "plain":
        return jit.plain(jit_layout)
    need_jit()
    return jit_layout


@pytest.mark.parametrize("path", [TOES, HEAVY])
def test_the_restrictions_keep_what_the_loops_allowed_at_keeps_end_by_end(kl, path):
    """Random rounds laid through ``Layout`` and ``jit_layout`` alike; at each step a
    random hand for a random seat: ``jit_layout.allowed`` over the restrictions' program
    (``jit_house.programs``) keeps, at each end open to the seat, the tiles
    ``allowed_at`` keeps with the layout's facts (waived or not as the ruleset says),
    and says whether two ends take some as the loop's masks do."""
    game = api.load_game(path)
    rules, ts = game.rules, game.tileset
    T = ts.tile_count
    code, at = jit_house.programs(game)
    CODE = np.array(code, np.int64)
    tuples = tuple((ts.low[t], ts.high[t]) for t in range(T))
    index = {tile: t for t, tile in enumerate(tuples)}
    PM = ts.value_mask
    TEAMS, deck = np.zeros((1, 1), np.int64), np.zeros(T, np.int64)
    TAB = np.zeros((len(jit_formula.TAB), T), np.int64)
    TAB[jit_formula.TAB["TL"]], TAB[jit_formula.TAB["TH"]] = ts.low, ts.high
    TAB[jit_formula.TAB["PIPS"]] = [a + b for a, b in tuples]
    F = np.zeros(len(jit_formula.FACT) + 1, np.int64)
    stack = np.zeros(jit_formula.STACK, np.int64)
    SH = np.zeros(jit_layout.SHAPE_N, np.int64)
    kl.unpack(jit_layout.code(rules.layout, index), SH)
    LB = np.zeros(jit_layout.BOARD_SIZE, np.int64)
    PE, FM, FK = (np.zeros(jit_layout.MAXID, np.int64) for _ in range(3))
    FT = np.zeros(1, np.int64)   # the ends' tiles allowed, together
    waive = rules.if_none_allowed == "waive"
    rng = random.Random(path)
    judged = narrowed = 0
    for rnd in range(12):
        seats = rng.randrange(2, 7)
        board = Layout(rules.layout, seats=seats)
        kl.clear(LB)
        pool = list(range(T))
        rng.shuffle(pool)
        first = pool.pop()
        board.place(tuples[first], None)
        kl.place_open(SH, LB, first, *tuples[first], seats)
        while pool:
            seat = rng.randrange(seats)
            h = sum(1 << t for t in rng.sample(pool, min(len(pool), rng.randrange(1, 9))))
            here = board.playable(seat)
            n = kl.playable(SH, LB, seat, PE)
            assert [int(LB[jit_layout.VAL + i]) for i in PE[:n]] == [v for _, v in here]
            fit = [h & PM[v] for _, v in here]
            playable = 0
            for m in fit:
                playable |= m
            boneyard = len(pool) // 2
            want = allowed_at(game, tuples, fit, [v for _, v in here], board.ends_tuple(), h,
                              boneyard, rnd + 1, seats, waive, board.facts(here))
            FM[:n] = fit
            F[jit_formula.FACT["hand"]], F[jit_formula.FACT["playable"]] = h, playable
            F[jit_formula.FACT["boneyard"]] = boneyard
            F[jit_formula.FACT["round"]], F[jit_formula.FACT["players"]] = rnd + 1, seats
            if playable:
                fits, many = kl.allowed(FM, FK, PE, n, LB, waive, CODE, at["F_RESTRICT"],
                                        at["R_SURE"], F, TAB, TEAMS, 1, seats, deck, stack,
                                        FT, 0)
                assert list(FM[:n]) == want
                assert FT[0] == _union(want) and fits == (FT[0] != 0)
                assert many == (sum(1 for m in want if m) > 1)
                judged += 1
                narrowed += want != fit
            options = [(t, name) for t in pool for name in board.ends_fitting(tuples[t], seat)]
            if not options:
                break
            t, name = rng.choice(options)
            pool.remove(t)
            i = next(i for i in PE[:n] if jit_layout.name_of(
                int(LB[jit_layout.NAME + i]), ts.low, ts.high, rules.layout.shared_train) == name)
            board.place(tuples[t], name, seat=seat)
            kl.place(SH, LB, t, *tuples[t], i, seat)
    assert judged > 100 and narrowed > 10


def _union(masks: list[int]) -> int:
    total = 0
    for m in masks:
        total |= m
    return total


def test_two_sets_where_several_doubles_spin_are_the_jits(tmp_path):
    """Two copies of a spinning double no longer open arms of the same names: a double
    spins once a round (``Shape.spins_tile``), so the JIT plays every shape on two sets
    (``tests/test_kernel_jit_layout_lists.py`` plays them)."""
    path = tmp_path / "r.yaml"
    path.write_text(Path(TWO_LINE).read_text(encoding="utf-8").replace(
        "first_double", "every_double"), encoding="utf-8")
    game = api.load_game(str(path))
    assert jit_kernel.jit_reason(game, 2, "random", need_numba=False) is None
    assert jit_kernel.jit_reason(api.load_game(TWO_LINE), 2, "random", need_numba=False) is None
