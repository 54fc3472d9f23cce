"""The JIT beside three rules of issue 21 it used to leave to the Python engine:

- formulas reading a shaped board's open ends as lists (``ends``, ``end_tiles`` with
  ``board.layout``): ``jit_layout.list_facts`` keeps every open end in ``F`` and
  ``jit_formula``'s ``Shaped`` lists fold, index and loop over them (``x -> ...``);
- two sets on a shaped board where several doubles spin: ``Shape.spins_tile`` spins a
  double once a round (its arms are named by its value, ``Layout.arm_name``: the second
  copy of a spinning double lies as any double), ``jit_layout.spins_tile`` the same;
- more than 62 event rules after a placement, some laying a duty: ``jit_events.fire``
  lists the rules laying a duty that fired (``fired_at``) for ``jit_duties.lay``.

Each test ruleset at every player count it allows, with the random, greedy and strategist
bots and a mixed table, plays and records alike on both engines
(``tests/jit_record_checks.py``); the pieces are held to the mechanisms position by
position (as plain Python and compiled). One match a table and the house rules' shared
kernel keep the file lean.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from jit_record_checks import every_player_count, need_jit, on_every_bot_table

from dominorules import api
from dominorules.engine.mechanisms import table as table_rules
from dominorules.engine.mechanisms.layout import Layout, Shape
from dominorules.expr import compile_expression
from dominorules.expr.compiler import compile_tree
from dominorules.kernel import jit, jit_formula, jit_layout

HERE = Path(__file__).resolve().parent / "rulesets" / "house"
FOOT = str(HERE / "chicken-foot-ends.yaml")        # ends and end_tiles after every action
TRAINS = str(HERE / "mexican-train-ends.yaml")     # a duty met reading end_tiles, on trains
TAP = str(HERE / "chicken-foot-tap-ends.yaml")     # a declaration due by ends and end_tiles
TWICE = str(HERE / "every-double-two-sets.yaml")   # every double spins, two sets
MANY = str(HERE / "many-rules-duty.yaml")          # 66 rules after a placement, two duties
def _both(game, players: int) -> list[dict]:
    """Every bot table's match on both engines alike (results and record text): the
    Python engine's events."""
    return on_every_bot_table(game, players, [api.match_seed(23, 0)])


def _lines(events: list[dict]) -> Counter:
    return Counter((e["event"], e.get("rule")) for e in events)


@pytest.mark.parametrize(("path", "players"), list(every_player_count(FOOT, TRAINS, TAP)))
def test_events_reading_a_shaped_boards_ends_play_and_record_as_the_python_engine(
        path, players):
    """Every rule fires in the matches (on the chicken foot's toes, on trains, a duty laid,
    met and failed by what lies at the ends; a declaration due by them: main's kernel
    read the line's two ends there), on both engines alike."""
    need_jit()
    events = _both(api.load_game(path), players)
    seen = _lines(events)
    if path == FOOT:
        assert all(seen["score", k] for k in (0, 3)), seen
    elif path == TRAINS:
        assert seen["duty", 0] and seen["duty_met", 0] and seen["score", 3], seen
    else:
        assert any(e["event"] == "declare" for e in events)


@pytest.mark.parametrize(("path", "players"), list(every_player_count(TWICE)))
def test_two_sets_where_every_double_spins_play_and_record_as_the_python_engine(
        path, players):
    """Both engines alike; a double's second copy is laid after its first spun."""
    need_jit()
    events = _both(api.load_game(path), players)
    again = 0
    for e in events:
        if e["event"] == "deal":
            laid: Counter = Counter()
        elif e["event"] == "place" and e["tile"][0] == e["tile"][1]:
            laid[e["tile"][0]] += 1
            again += laid[e["tile"][0]] == 2
    assert again > 0


@pytest.mark.parametrize(("path", "players"), list(every_player_count(MANY)))
def test_duties_after_more_than_62_rules_play_and_record_as_the_python_engine(path, players):
    """The last rule's duty (rule 65, past any 64-bit mask) is laid and met or failed, and
    rules past the 62nd score, on both engines alike."""
    need_jit()
    seen = _lines(_both(api.load_game(path), players))
    assert seen["duty", 65] and seen["duty", 0], seen
    assert any(seen["score", k] for k in range(62, 65)), seen


@pytest.fixture(params=["plain", "jit"])
def kl(request):
    """jit_layout and jit_formula as plain Python, or compiled."""
    if request.param == "plain":
        return jit.plain(jit_layout), jit.plain(jit_formula)
    pytest.importorskip("numba")
    if not jit.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    return jit_layout, jit_formula


TOP = 6
TILES = [(a, b) for b in range(TOP + 1) for a in range(b + 1)]
FORMULAS = [
    "count(ends, x -> x == 5) + 10 * count(ends) + 100 * sum(ends)",
    "min(ends) + 10 * max(ends) + 100 * ends[0] + 1000 * ends[-1] + 10000 * ends[9]",
    "sum(end_tiles, t -> t.pips) + 100 * count(end_tiles, t -> t.is_double)",
    "sum(end_tiles.pips) + 100 * max(end_tiles.high) + 10000 * min(end_tiles, t -> t.low)",
    "end_tiles[-1].pips + 100 * end_tiles[12].pips + 10000 * end_tiles[1].low",
    "count(ends, x -> any(end_tiles, t -> t.high == x and all(ends, y -> y <= t.pips)))",
    "(1 if any(end_tiles, t -> t == [5|5]) else 0) + (2 if all(ends, x -> x > 0) else 0)",
    "sum(ends, x -> x * count(ends, y -> y == x))",
]


def test_folds_and_loops_over_a_shaped_boards_ends_are_the_formulas_value(kl):
    """Each formula's program over ``Shaped`` lists of random open ends (none to twelve;
    a tile twice to a set holding two copies, read past the ends as (-1, 0)) gives what
    the formula gives (``expr.compiler``)."""
    _, kf = kl
    rng = random.Random(5)
    for copies in (1, 2):
        index = {t: copies * i for i, t in enumerate(TILES)}
        T = copies * len(TILES)
        names = jit_formula.Twice(index) if copies > 1 else index
        TAB = jit_formula.tables(T + 1)
        for t, i in index.items():
            for c in range(copies):
                TAB[jit_formula.TAB["TL"], i + c], TAB[jit_formula.TAB["TH"], i + c] = t
                TAB[jit_formula.TAB["PIPS"], i + c] = sum(t)
        TAB[jit_formula.TAB["TL"], T] = TAB[jit_formula.TAB["PIPS"], T] = -1
        lists = {"ends": jit_formula.Shaped("shaped_end0", 0),
                 "end_tiles": jit_formula.Shaped("shaped_tile0", T)}
        for text in FORMULAS:
            tree = compile_expression(text, "event_place").ast
            code = np.array(jit_formula.program(tree, {}, lists, names), np.int64)
            for _ in range(60):
                at = [rng.choice(TILES) for _ in range(rng.randrange(13))]
                ends = [rng.choice(t) for t in at]
                F = np.zeros(len(jit_formula.FACT), np.int64)
                F[jit_formula.FACT["shaped_n"]] = len(at)
                for k, (v, t) in enumerate(zip(ends, at, strict=True)):
                    F[jit_formula.FACT["shaped_end0"] + k] = v
                    F[jit_formula.FACT["shaped_tile0"] + k] = index[t] + rng.randrange(copies)
                got = kf.run(code, 0, F, TAB, np.zeros((1, 1), np.int64), 2, 2,
                             np.zeros(1, np.int64), np.zeros(64, np.int64))
                want = compile_tree(tree)({"ends": tuple(ends), "end_tiles": tuple(at)})
                assert got == int(want), (text, ends, at)


SHAPES = [
    Shape(spins="every_double", sides=3, opening_sides=6, through=False, arms_open="at_once",
          answer_first=True),
    Shape(spins="every_double", sides=2),
    Shape(trains=True, shared_train="shared", markers=True, answer_doubles=True),
    Shape(spins=(5, 5), sides=3, through=False, arms_open="at_once"),
]


@pytest.mark.parametrize("k", range(len(SHAPES)))
@pytest.mark.parametrize("copies", [1, 2])
def test_the_lists_and_the_spinning_doubles_are_the_layouts_and_the_tables(kl, k, copies):
    """Random rounds laid through ``Layout`` (and a ``Table``) and through ``jit_layout``:
    after each placement ``list_facts`` holds ``Layout.values`` and the table's
    ``end_tiles`` in order, and the doubles that spun are the same (with two sets a
    double spins once a round)."""
    klay, _ = kl
    shape = SHAPES[k]
    tiles = [t for t in TILES for _ in range(copies)]
    index = {t: copies * i for i, t in enumerate(TILES)}
    TL = [t[0] for t in tiles]
    TH = [t[1] for t in tiles]
    SH = np.zeros(jit_layout.SHAPE_N, np.int64)
    klay.unpack(jit_layout.code(shape, index, lists=True, twice=copies > 1), SH)
    LB = np.zeros(jit_layout.BOARD_SIZE, np.int64)
    F = np.zeros(len(jit_formula.FACT), np.int64)
    rng = random.Random(10 * k + copies)
    placed = second = 0
    for _ in range(16):
        board, table = Layout(shape, seats=4), table_rules.Table()
        klay.clear(LB)
        pool = list(range(len(tiles)))
        rng.shuffle(pool)
        first = pool.pop()
        board.place(tiles[first], None)
        table.place(tiles[first], None)
        klay.place_open(SH, LB, first, TL[first], TH[first], 4)
        while True:
            seat = rng.randrange(4)
            klay.list_facts(LB, F)
            n = F[jit_formula.FACT["shaped_n"]]
            got = [int(v) for v in F[jit_formula.FACT["shaped_end0"]:][:n]]
            assert got == board.values()
            want = table_rules.names(table, [(name, end.root)
                                             for name, end in board.ends.items()])["end_tiles"]
            assert [tiles[i] for i in F[jit_formula.FACT["shaped_tile0"]:][:n]] == list(want)
            spun = [(d, d) for d in range(21) if LB[jit_layout.SPUN_M] >> d & 1]
            assert sorted(spun) == sorted(board.spun) and LB[jit_layout.SPUN] == len(spun)
            ends = [i for i in range(jit_layout.MAXID) if LB[jit_layout.OPEN] >> i & 1]
            names = [jit_layout.name_of(int(LB[jit_layout.NAME + i]), TL, TH, "shared")
                     for i in ends]
            assert names == board.open_ends()
            options = [(t, i) for t in pool for i, name in zip(ends, names, strict=True)
                       if name in board.ends_fitting(tiles[t], seat)]
            if not options:
                break
            t, i = rng.choice(options)
            pool.remove(t)
            second += tiles[t][0] == tiles[t][1] and tiles[t] in board.spun
            name = names[ends.index(i)]
            board.place(tiles[t], name, seat=seat)
            table.place(tiles[t], name)
            klay.place(SH, LB, t, TL[t], TH[t], i, seat)
            placed += 1
    assert placed > 100
    assert copies == 1 or shape.trains or second > 0


def test_a_doubles_second_copy_lies_as_any_double_where_every_double_spins():
    """``Layout``: the second 5-5, laid on an arm of the first, closes that arm and opens
    none of its own (the first's arms keep their tiles: a second set of arms of the same
    names would have covered them)."""
    board = Layout(Shape(spins="every_double", sides=3, through=False, arms_open="at_once"))
    board.place((5, 5), None)
    board.place((5, 2), "5-5/1")
    board.place((5, 5), "5-5/2")
    assert board.open_ends() == ["5-5/1", "5-5/2", "5-5/3"]
    assert board.values() == [2, 5, 5] and board.spun == [(5, 5)]
    assert board.ends["5-5/2"].double and board.ends["5-5/2"].covered
