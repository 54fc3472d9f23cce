"""The JIT's shaped boards (``board.layout``) beside the rules that read them (issue 21):
play-time events, whose end totals are the layout's (``jit_layout.end_total``, as
``Layout.end_total`` counts them) and whose ``both_ends`` counts the ends open to the
placer. Each test ruleset at every player count it allows, with the random, greedy and
strategist bots (``jit_strategist_layout``) and a mixed table: the JIT's results and
record text are the Python engine's (``tests/jit_record_checks.py``). The pieces beside
them are held to the mechanism position by position: the largest total the events'
tables are built for (``jit_house._most_total``) bounds every total a round of random
placements on each shape reaches.

The kernel is the house rules' shared one (``test_kernel_jit_layout`` compiles it too);
one match a table keeps the file to seconds.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from jit_record_checks import same_on_both_engines

from dominorules import api
from dominorules.engine.mechanisms.layout import Layout, Shape
from dominorules.kernel import jit_house, jit_kernel

HERE = Path(__file__).resolve().parent / "rulesets" / "house"
FIVES = str(HERE / "chicken-foot-fives.yaml")    # place, draw and pass events, end totals
TRAINS = str(HERE / "trains-doubles-again.yaml")  # a turn granted, both_ends on trains
BOTS = ("random", "greedy", "strategist")


def _jit():
    pytest.importorskip("numba")
    if not jit_kernel.available():
        pytest.skip("DOMINORULES_NO_JIT is set")


def _counts(*paths: str):
    for path in paths:
        rules = api.load_game(path).rules
        for players in range(rules.min_players, rules.max_players + 1):
            yield pytest.param(path, players, id=f"{Path(path).stem}-{players}")


@pytest.mark.parametrize(("path", "players"), list(_counts(FIVES, TRAINS)))
def test_events_on_a_shaped_board_play_and_record_as_the_python_engine(path, players):
    """Every rule of the ruleset fires in the matches, on both engines alike."""
    _jit()
    game = api.load_game(path)
    seeds = [api.match_seed(23, 0)]
    mixed = [BOTS[s % 3] for s in range(players)]
    fired: Counter = Counter()
    for bots in (*BOTS, mixed):
        assert jit_kernel.jit_reason(game, players, bots) is None
        for e in same_on_both_engines(game, players, seeds, bots):
            if e["event"] == "score":
                fired[e["rule"]] += 1
            elif e["event"] == "extra_turn":
                fired["again"] += 1
    if path == FIVES:
        assert {0, 1, 2} <= set(fired)
    else:
        assert fired["again"] > 0 and 1 in fired


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
