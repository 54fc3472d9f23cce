"""The JIT on what it used to leave to the Python engine: events making the next player
draw (``events.next_draws``: ``jit_events.fire`` owes, ``pay_draws`` draws), events and
declarations after a placement reading a spinner's ends as a list and the tiles at them
(``jit_formula.Spun`` over ``jit_events.arm_facts``) or the ends a fit rule leaves
(doubles in line counting once: ``end_total``'s ``across``), and the record of a tile
turned up before the round's first declarations.

Each test ruleset (``tests/rulesets/house/``, each extending a builtin) at every player
count, with the random, greedy, strategist and mixed bots: the same results and the same
record text on both engines (``jit_record_checks.same_on_both_engines``), the lines the
mechanism adds present. The new pieces are held to the mechanisms position by position:
``pay_draws`` to ``GeneralLoop._pay_draws``, the ends and end totals of a random walk
on a spinner's board to ``Board`` and the formula language. The kernels are one GEN
kernel per player count (records are a run-time switch).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from jit_record_checks import same_on_both_engines

from dominorules import api
from dominorules.engine.board import Board
from dominorules.expr import compile_expression

pytest.importorskip("numba")

from dominorules.kernel import jit_house, jit_kernel, jit_trace  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

import numpy as np  # noqa: E402 - with numba

from dominorules.kernel import jit_board, jit_events, jit_formula  # noqa: E402

HOUSE = Path(__file__).resolve().parent / "rulesets" / "house"
BOTS = ("random", "greedy", "strategist")
# (ruleset, seeds a player count for the strategist and the mixed bots): next-draws'
# need six to meet a voluntary draw weighed after an event's draws (jit_loop's carry
# from owed_draws: without it one of those 36 matches differs)
RULESETS = (("next-draws", 6), ("spinner-ends", 3), ("matador-fives", 3),
            ("turned-up-declared", 2), ("called-spinner", 2), ("matador-called", 2))


def _game(name: str, tmp_path: Path | None = None, across: bool = False):
    if not across:
        return api.load_game(str(HOUSE / f"{name}.yaml"))
    path = tmp_path / f"{name}-across.yaml"   # the same with doubles across (ACROSS)
    path.write_text(f"title: Across\nextends: {HOUSE / name}.yaml\nmatching:\n"
                    "  doubles: across\n", encoding="utf-8")
    return api.load_game(str(path))


def _kinds(events: list[dict]) -> set[str]:
    """Each line's kind, a draw a rule made as ``draw/RULE``."""
    return {f"draw/{e['rule']}" if e["event"] == "draw" and "rule" in e else e["event"]
            for e in events}


def _played(game, seeds: int) -> list[dict]:
    """Every player count, every bot and a mix of them: the same on both engines (the
    random and greedy bots on two of the seeds)."""
    events = []
    for players in (2, 3, 4):
        assert jit_kernel.jit_reason(game, players, "strategist") is None
        assert engines_choose(game, players) == "jit"
        chosen = [api.match_seed(23, i) for i in range(seeds)]
        for bots in (*BOTS, [BOTS[(s + 2) % 3] for s in range(players)]):
            events += same_on_both_engines(game, players,
                                           chosen[:2] if bots in BOTS[:2] else chosen, bots)
    return events


def engines_choose(game, players: int) -> str:
    from dominorules.kernel import engines

    return engines.choose(game, players, "random", "jit", trace=True)


@pytest.mark.parametrize(("name", "seeds"), RULESETS)
def test_the_jit_plays_and_records_them_as_the_python_engine(name, seeds):
    game = _game(name)
    assert jit_house.reason(game) is None and jit_trace.reason(game) is None
    kinds = _kinds(_played(game, seeds))
    want = {"next-draws": {"draw/1", "draw/2", "score"},   # both rules' draws
            "spinner-ends": {"draw/4", "score", "pass"},
            "matador-fives": {"score"},
            "turned-up-declared": {"turn_up", "declare"},
            "called-spinner": {"claim"},
            "matador-called": {"claim"}}[name]
    assert want <= kinds, kinds


def test_their_rules_are_met_in_those_matches():
    """The lines the test rulesets' rules write where they matter: four ends read as a
    list and an untouched arm's spinner, a blank's draws counted from the score just
    scored, a claim on four ends, a turned-up tile before the declaration."""
    events = same_on_both_engines(_game("spinner-ends"), 2,
                                  [api.match_seed(23, i) for i in range(3)], "random")
    assert any(e["event"] == "score" and e["rule"] == 1 for e in events)   # count(ends) == 4
    draws = same_on_both_engines(_game("next-draws"), 3,
                                 [api.match_seed(23, i) for i in range(3)], "greedy")
    assert any(e["event"] == "draw" and e.get("rule") == 2 for e in draws)
    up = same_on_both_engines(_game("turned-up-declared"), 3, [api.match_seed(23, 0)],
                              "random")
    kinds = [e["event"] for e in up]
    assert kinds[kinds.index("deal") + 1:kinds.index("deal") + 3] == ["turn_up", "declare"]


def test_a_simulation_of_spinner_ends_is_the_same_on_both_engines():
    """``simulate``'s summary (wins, rounds, blocked rounds, draws, their squares) and each
    match's result, every round's statistics (turns, placements, draws, passes,
    decisions, choices, play points) included, at 2 players with random bots."""
    from dominorules.kernel import engines

    game = _game("spinner-ends")
    seeds = [api.match_seed(1, i) for i in range(40)]
    assert engines.jit_results(game, 2, seeds, "random") == [
        api.play_match(game, 2, s, "random") for s in seeds]
    jit, python = (api.simulate(game, 2, 40, 1, "random", engine=e) for e in ("jit", "python"))
    assert (jit.pop("engine"), python.pop("engine")) == ("jit", "python")
    assert jit == python


@pytest.mark.parametrize("name", ["matador-fives", "matador-called"])
def test_with_doubles_across_under_a_fit_rule_too(tmp_path, name):
    game = _game(name, tmp_path, across=True)
    assert jit_house.params(game, 2)["ACROSS"] == 1
    assert jit_house.params(_game(name), 2)["ACROSS"] == 0
    for players in (2, 4):
        chosen = [api.match_seed(29, i) for i in range(2)]
        for bots in (*BOTS, ["greedy", "strategist"] * (players // 2)):
            same_on_both_engines(game, players, chosen, bots)


def test_pay_draws_takes_what_general_loop_pay_draws_takes():
    """Rules owing tiles in the order they fired, each capped by what the boneyard holds
    above its reserve (``events.tiles_taken``): the same tiles, hands, draw counts and
    deck position as ``GeneralLoop._pay_draws``, its record lines as items."""
    from dominorules.engine.general_loop import GeneralLoop
    from dominorules.kernel.jit_record import K_RULE_DRAW, LINE

    rng = random.Random(4)
    T, N = 28, 3
    owed_at = jit_events.VARS + 2   # two variables before the owed pairs
    for _ in range(200):
        deck = list(range(T))
        rng.shuffle(deck)
        pos, end = rng.randrange(10, 26), rng.randrange(20, 29)
        pos = min(pos, end)
        owed = [(rng.randrange(5), rng.randrange(1, 4)) for _ in range(rng.randrange(1, 4))]
        actor = rng.randrange(N)
        loop = GeneralLoop.__new__(GeneralLoop)
        loop.next_seat = [(s + 1) % N for s in range(N)]
        loop.deck, loop.hands, loop._owed = deck, [0] * N, list(owed)
        loop._tuples = [(t, t) for t in range(T)]
        loop.rec = []
        drawn_by = [0] * N
        want = loop._pay_draws(actor, pos, end, drawn_by)
        F = np.zeros(owed_at + 2 * len(owed), np.int64)
        F[jit_formula.FACT["owed"]] = len(owed)
        for j, (rule, n) in enumerate(owed):
            F[owed_at + 2 * j], F[owed_at + 2 * j + 1] = rule, n
        CODE = np.array([2], np.int64)   # the header: two variables
        hands, jit_drawn = np.zeros(N, np.int64), np.zeros(N, np.int64)
        EVL = np.zeros(1 + LINE * T, np.int64)
        got = jit_events.pay_draws(CODE, F, (actor + 1) % N, np.array(deck, np.int64), pos,
                                   end, hands, jit_drawn, EVL)
        assert got == want
        assert list(hands) == loop.hands and list(jit_drawn) == drawn_by
        assert F[jit_formula.FACT["owed"]] == 0
        lines = [EVL[1 + LINE * k:1 + LINE * (k + 1)].tolist() for k in range(EVL[0])]
        assert lines == [[K_RULE_DRAW, e["player"], e["tile"][0], e["rule"], 0]
                         for e in loop.rec]


# readings of the ends as a list, held to the formula language on Board's own ends
READINGS = ("sum(ends)", "min(ends)", "max(ends)", "count(ends)", "ends[0]", "ends[1]",
            "ends[2]", "ends[3]", "ends[-1]", "ends[-3]", "ends[4]",
            "count(end_tiles, t -> t.is_double)", "sum(end_tiles, t -> t.pips)",
            "count(end_tiles, t -> t == [5|5])", "max(end_tiles, t -> t.high) + end_total",
            "end_tiles[2].pips", "end_tiles[3].low + 10 * end_tiles[-3].high",
            "end_tiles[-1].pips + end_tiles[4].pips")


def test_a_spinners_ends_and_totals_are_the_boards_placement_by_placement():
    """A random walk of placements on a spinner's board, doubles across and in line: the
    kernel's ends (L, R, U, D as jit_loop keeps them, the arms by ``jit_board``), its
    totals (``end_total``, ``arms_total``) and each reading of ``ends`` and
    ``end_tiles`` as a program over ``arm_facts`` equal ``Board``'s and the formula
    language's at every step."""
    from dominorules.engine.mechanisms import table as table_rules

    tiles = [(a, b) for a in range(7) for b in range(a, 7)]
    index = {t: i for i, t in enumerate(tiles)}
    TL = np.array([a for a, _ in tiles], np.int64)
    TH = np.array([b for _, b in tiles], np.int64)
    PIPS = TL + TH
    TAB = jit_formula.tables(len(tiles) + 1)   # then the tile read past a list's ends
    for row, values in (("TL", TL), ("TH", TH), ("PIPS", PIPS)):
        TAB[jit_formula.TAB[row], :len(tiles)] = values
    TAB[jit_formula.TAB["TL"], -1] = TAB[jit_formula.TAB["PIPS"], -1] = -1   # (-1, 0)
    lists = jit_house.spun_lists(len(tiles))
    names = {"end_total": "end_total"}
    kinds = {r: compile_expression(r, "event_place") for r in READINGS}
    programs = {r: np.array(jit_formula.program(k.ast, names, lists, index), np.int64)
                for r, k in kinds.items()}
    rng = random.Random(8)
    seen = set()
    for walk in range(60):
        across = walk % 2 == 0
        board, table = Board(True, across), table_rules.Table()
        first = rng.choice(tiles)
        board.open_with(*first, first[0] == first[1])
        table.place(first, None)
        L, R, U, D, NE = first[0], first[1], 0, 0, 2
        lt = rt = index[first]
        ut = dt = spt = -1
        need, sval = jit_board.spin_open(L, R, 1)
        down = {first}
        for _ in range(12):
            ends = board.ends()
            fits = [(t, e) for t in tiles if t not in down for e in range(len(ends))
                    if ends[e] in t]
            if not fits:
                break
            t, e = rng.choice(fits)
            down.add(t)
            v = ends[e]
            board.place(e, t[0], t[1], t[0] == t[1])
            table.place(t, ("left", "right", "up", "down")[e])
            i, w = index[t], t[0] + t[1] - v
            if e == 0:
                L, lt = w, i
            elif e == 1:
                R, rt = w, i
            elif e == 2:
                U, ut = w, i
            else:
                D, dt = w, i
            if need > 0 or (need < 0 and t[0] == t[1]):
                need, sval, opened = jit_board.spin_place(need, sval, e, t[0], t[0] == t[1])
                if opened:
                    U = D = sval
                    NE = 4
                    spt = jit_board.double_of(sval, TL, TH)
            assert (L, R, U, D)[:NE] == board.ends()
            total = (jit_events.end_total(L, R, lt, rt, TL, TH, PIPS, across) if NE == 2
                     else jit_events.arms_total(L, R, U, D, lt, rt, ut, dt, TL, TH, PIPS,
                                                across))
            assert total == board.end_total()
            F = np.zeros(len(jit_formula.FACT), np.int64)
            jit_events.event_facts(F, L, R, total, 0, 0, 0)
            F[jit_formula.FACT["end_lt"]], F[jit_formula.FACT["end_rt"]] = lt, rt
            jit_events.arm_facts(F, U, D, NE, ut, dt, spt)
            spinner = (board.spin_value, board.spin_value)
            env = {"ends": board.ends(), "end_total": board.end_total(),
                   **table_rules.names(table, [(n, spinner) for n in
                                               ("left", "right", "up", "down")[:NE]])}
            for r, k in kinds.items():
                got = jit_formula.run(programs[r], 0, F, TAB, np.zeros((1, 1), np.int64), 1,
                                      1, np.zeros(1, np.int64), np.zeros(64, np.int64))
                assert got == int(k.fn(env)), (r, board.ends(), env["end_tiles"])
            seen.add(NE)
    assert seen == {2, 4}


def test_a_tile_read_past_a_spinners_open_ends_is_nothing_on_both_engines(tmp_path):
    """``end_tiles[2]`` while two ends are open (and ``[4]`` ever) reads (-1, 0), as
    ``runtime.NOTHING`` has it: pips -1, low -1 (the JIT once read the set's first tile,
    [0|0], there: a point a placement the Python engine does not score)."""
    path = tmp_path / "past-the-ends.yaml"
    path.write_text(f"title: Past the ends\nextends: {HOUSE / 'spinner-ends'}.yaml\nevents:\n"
                    "  - {after: place, if: \"end_tiles[2].low < 0 and end_tiles[4].pips < 0\","
                    " points: \"10 + end_tiles[3].pips\"}\n", encoding="utf-8")
    game = api.load_game(str(path))
    assert jit_kernel.jit_reason(game, 2, "random") is None
    events = same_on_both_engines(game, 2, [api.match_seed(5, i) for i in range(4)],
                                  "random")
    rule = len(game.rules.events) - 1
    assert {e["points"] for e in events if e["event"] == "score" and e["rule"] == rule} == {9}


def test_counting_the_tiles_at_the_lines_ends_is_a_number_the_jit_writes_in(tmp_path):
    """``count(end_tiles)`` without ``x -> ...``: the line's two ends, a constant in the
    program (it once left the list's facts as a tuple in the kernel's CODE); the same
    matches and records as the Python engine."""
    path = tmp_path / "count-end-tiles.yaml"
    path.write_text("title: Count end tiles\nextends: pagat\nevents:\n"
                    "  - {after: place, if: \"tile.is_double\", points: \"count(end_tiles)\"}\n",
                    encoding="utf-8")
    game = api.load_game(str(path))
    assert jit_kernel.jit_reason(game, 2, "random") is None
    code, _ = jit_house.programs(game, 2)
    assert all(isinstance(c, int) for c in code)
    events = same_on_both_engines(game, 2, [api.match_seed(5, i) for i in range(6)],
                                  "random")
    assert {e["points"] for e in events if e["event"] == "score"} == {2}
