"""Chains of tiles on the JIT (``play.several`` with ``move: chain``: ``jit_several.chain_line``
on a line, ``kernel/jit_several_shaped.py`` on a shaped board's trains).

Each numba piece answers as the general loop (``GeneralLoop._several`` and
``_several_shaped``, over ``engine.mechanisms.several``) on positions of real matches:
the same single tiles, the same moves in the same order, and each bot's pick the Python
bot's own (``RandomBot.choose``, ``GreedyBot.choose``, ``StrategistBot._shaped``) on the
same seat stream, word for word. Then the GEN kernel plays a double-nine Mexican Train
(``tests/rulesets/house/mexican-train-nine.yaml``: house/mexican-train's first-turn runs
on one's own train, without its event, which the JIT does not play on a shaped board yet),
a variant whose runs go anywhere, its runs under placement restrictions (each later tile
asked them on the board the tiles before leave: ``tests/rulesets/house/runs-restricted.yaml``)
and chains on a line, at every player count, with every builtin bot: the same results
and the same record text as the Python engine.
The kernel is the one GEN kernel every house ruleset shares.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from jit_record_checks import on_every_bot_table
from several_checks import line_moves_are_the_loops, seat_words

from dominorules import api

pytest.importorskip("numba")

from dominorules.kernel import jit_kernel  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

NINE = str(Path(__file__).parent / "rulesets" / "house" / "mexican-train-nine.yaml")
RESTRICTED = str(Path(__file__).parent / "rulesets" / "house" / "runs-restricted.yaml")
# a run may go on any end open to the seat, at any turn: deeper runs, on every train
ANYWHERE = (f"title: Runs anywhere\nextends: {NINE}\nplay:\n  several:\n"
            "    tiles: \"tile.pips + end >= count(hand) or own_train\"\n"
            "    alone: \"count(playable) > 1 or boneyard < 20\"\n    explain: a test\n")
# chains on a line, reading first_turn
LINE = ("title: Line chains\ndescription: a test\nsource: a test\nextends: pagat\nplay:\n"
        "  several:\n    move: chain\n    most: 3\n"
        "    tiles: \"first_turn or tile.is_double or tile.pips + end > 6\"\n")


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("chain")
    (folder / "anywhere.yaml").write_text(ANYWHERE, encoding="utf-8")
    (folder / "line.yaml").write_text(LINE, encoding="utf-8")
    return {"nine": api.load_game(NINE), "anywhere": api.load_game(str(folder / "anywhere.yaml")),
            "line": api.load_game(str(folder / "line.yaml")),
            "restricted": api.load_game(RESTRICTED)}


def _arrays(game, players, state):
    """What the GEN lines hand the pieces at ``state``'s decision: the programs, F with the
    turn's facts (boneyard, round, first_turn), the formula tables, the restrictions
    (``jit_several_shaped._steps``' R: their program, the tiles sure, waive)."""
    import numpy as np

    from dominorules.kernel import jit_formula, jit_house, jit_template

    code, starts = jit_house.programs(game)
    ts = game.tileset
    T = ts.tile_count
    core = state._core
    F = np.zeros(len(jit_template.FACTS) + len(jit_template.PLAY_FACTS) + code[0], np.int64)
    fact = jit_formula.FACT
    F[fact["round"]], F[fact["players"]] = core.round, players
    F[fact["boneyard"]] = len(core.deck) - state.decision().pos
    F[fact["first_turn"]] = int(core.seat_turns[state.current_player] == 1)
    tab = jit_formula.TAB
    TAB = np.zeros((len(jit_template.TABLES), max(T, players, 2)), np.int64)
    for t in range(T):
        TAB[tab["TL"], t], TAB[tab["TH"], t] = ts.low[t], ts.high[t]
        TAB[tab["PIPS"], t], TAB[tab["VALUES"], t] = ts.pips[t], game.values[t]
    R = np.array([starts["F_RESTRICT"], starts["R_SURE"],
                  game.rules.if_none_allowed == "waive"], np.int64)
    return (np.array(code, np.int64), starts["SEVERAL"], F, TAB,
            np.array(game.teams(players), np.int64), R)


def _board(game, players, record):
    """``jit_layout``'s board of the round under way, replayed from its record lines."""
    import numpy as np

    from dominorules.kernel import jit_layout
    from dominorules.kernel.jit_house import _layout

    ts = game.tileset
    index = {(t.low, t.high): i for i, t in enumerate(ts.tiles)}
    SH = np.zeros(jit_layout.SHAPE_N, np.int64)
    jit_layout.unpack(_layout(game), SH)
    LB = np.zeros(jit_layout.BOARD_SIZE, np.int64)
    start = max(i for i, e in enumerate(record) if e["event"] == "deal")
    for e in record[start:]:
        if e["event"] == "place":
            t = index[tuple(e["tile"])]
            if e["end"] is None:
                jit_layout.place_open(SH, LB, t, ts.low[t], ts.high[t], players)
                continue
            ids = [i for i in range(int(LB[jit_layout.NEXT])) if LB[jit_layout.OPEN] >> i & 1
                   and jit_layout.name_of(int(LB[jit_layout.NAME + i]), ts.low, ts.high,
                                          game.rules.layout.shared_train) == e["end"]]
            jit_layout.place(SH, LB, t, ts.low[t], ts.high[t], ids[0], e["player"])
        elif e["event"] == "pass":
            jit_layout.passed(SH, LB, e["player"])
    return SH, LB


def _decisions(game, players, seed, limit):
    """The match's play decisions on a shaped board with two or more legal actions (a
    random walk through them, by ``seed``), as (state, decision) at each."""
    from dominorules.engine.decision import PLAY
    from dominorules.engine.state import State

    state = State(game, players, seed)
    rng = random.Random(seed)
    seen = 0
    while not state.is_terminal and seen < limit:
        legal = state.legal_actions()
        d = state.decision()
        if d.phase == PLAY and d.names and len(legal) > 1:
            seen += 1
            yield state, d
        state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("name", ["nine", "anywhere", "restricted"])
def test_the_runs_and_tiles_alone_on_trains_are_the_general_loops(games, name):
    """Under restrictions the single tiles are the turn's (``jit_layout.allowed``), each
    later tile of a run asked them again on the board the tiles before leave."""
    import numpy as np

    from dominorules.kernel import jit_formula, jit_layout, jit_several, jit_several_shaped

    game = games[name]
    ts = game.tileset
    T = ts.tile_count
    most = game.rules.several.most
    found = depth = 0
    for players in (2, 4):
        PM = np.array(game.setup(players).value_mask, np.int64)
        rows = jit_several.move_rows(game, players) + 1
        MV, MN = np.zeros((rows, most), np.int64), np.zeros(rows, np.int64)
        SLB = np.zeros((most + 1, jit_layout.BOARD_SIZE), np.int64)
        SPE, PE, FM, FK, RM, RK = (np.zeros(jit_layout.MAXID, np.int64) for _ in range(6))
        SD, TT = np.zeros(3 * (most + 1), np.int64), np.zeros(most + 1, np.int64)
        H, LF, LS = (np.zeros(2, np.int64) for _ in range(3))   # (jit_masks' sets)
        stack = np.zeros(64, np.int64)
        deck = np.arange(T, dtype=np.int64)
        TL, TH = np.array(ts.low, np.int64), np.array(ts.high, np.int64)
        for state, d in _decisions(game, players, 11 + players, 60):
            p = d.player
            SH, LB = _board(game, players, state.record)
            CODE, SEV, F, TAB, TEAMS, R = _arrays(game, players, state)
            H[0] = d.hand
            ne, _, _ = jit_layout.fits(SH, LB, p, H, 0, PM, PE, FM, LF, 0)
            names = [jit_layout.name_of(int(LB[jit_layout.NAME + PE[k]]), ts.low, ts.high,
                                        game.rules.layout.shared_train) for k in range(ne)]
            assert names == list(d.names)
            if R[0] >= 0:   # the turn's restrictions (jit_loop's allowed_ends)
                F[jit_formula.FACT["hand"]], F[jit_formula.FACT["playable"]] = H[0], LF[0]
                jit_layout.allowed(FM, FK, PE, ne, LB, R[2], CODE, R[0], R[1], F, TAB, TEAMS,
                                   2, players, deck, stack, LF, 0)
            jit_several_shaped.alone(p, FM, PE, ne, H, 0, LB, PM, CODE, SEV, F, TAB, TEAMS,
                                     2, players, deck, stack, LF, 0, LS)
            n = jit_several_shaped.chain(p, H, 0, ne, PE, SH, LB, PM, TL, TH, CODE, SEV, R, F,
                                         TAB, TEAMS, 2, players, deck, stack, MV, MN, SLB, SPE,
                                         SD, TT, RM, RK)
            assert [int(FM[k]) for k in range(ne)] == list(d.masks)
            assert [tuple(int(c) for c in MV[k, :MN[k]]) for k in range(n)] == list(d.several)
            found += n
            depth = max([depth, *(len(m) for m in d.several)])
    assert found > 10 and depth == most   # runs reached, the longest too


@pytest.mark.parametrize("kind", [0, 1, 2])
def test_each_bots_pick_on_trains_is_the_python_bots_word_for_word(games, kind):
    import numpy as np

    from dominorules.bots.greedy import GreedyBot
    from dominorules.bots.random_bot import RandomBot
    from dominorules.bots.strategist import StrategistBot
    from dominorules.engine.streams import seat_streams
    from dominorules.kernel import jit_layout, jit_several, jit_several_shaped

    game = games["anywhere"]
    ts = game.tileset
    T, players, seed = ts.tile_count, 3, 5
    most = game.rules.several.most
    PM = np.array(game.setup(players).value_mask, np.int64)
    VALUES = np.array(game.values, np.int64)
    TL, TH = np.array(ts.low, np.int64), np.array(ts.high, np.int64)
    rows = jit_several.move_rows(game, players) + 1
    MV, MN = np.zeros((rows, most), np.int64), np.zeros(rows, np.int64)
    TIE = np.zeros(rows + jit_layout.MAXID * T, np.int64)
    SLB = np.zeros((most + 1, jit_layout.BOARD_SIZE), np.int64)
    AFTER = np.zeros(jit_layout.BOARD_SIZE, np.int64)
    SPE, PE, FM, PE2, RM, RK = (np.zeros(jit_layout.MAXID, np.int64) for _ in range(6))
    SD, TT = np.zeros(3 * (most + 1), np.int64), np.zeros(most + 1, np.int64)
    H, LF, LS = (np.zeros(2, np.int64) for _ in range(3))   # (jit_masks' sets)
    stack = np.zeros(64, np.int64)
    deck = np.arange(T, dtype=np.int64)
    WS = seat_words(seed, players)
    streams = seat_streams(seed, players)
    bots = [(RandomBot, GreedyBot, StrategistBot)[kind](s, streams[s]) for s in range(players)]
    picked = set()
    for state, d in _decisions(game, players, 21 + kind, 80):
        p = d.player
        SH, LB = _board(game, players, state.record)
        CODE, SEV, F, TAB, TEAMS, R = _arrays(game, players, state)
        H[0] = d.hand
        ne, _, _ = jit_layout.fits(SH, LB, p, H, 0, PM, PE, FM, LF, 0)
        jit_several_shaped.alone(p, FM, PE, ne, H, 0, LB, PM, CODE, SEV, F, TAB, TEAMS, 2,
                                 players, deck, stack, LF, 0, LS)
        n = jit_several_shaped.chain(p, H, 0, ne, PE, SH, LB, PM, TL, TH, CODE, SEV, R, F,
                                     TAB, TEAMS, 2, players, deck, stack, MV, MN, SLB, SPE, SD,
                                     TT, RM, RK)
        legal = state.legal_actions()
        obs = state.observation(p)
        want = (bots[p]._shaped(obs, legal).action if kind == 2
                else bots[p].choose(obs, legal))
        code = jit_several_shaped.pick(kind, p, seed, players, WS, FM, PE, ne, n, 0, MV, MN,
                                       H, 0, SH, LB, AFTER, PE2, PM, TL, TH, VALUES, TIE, LS)
        singles = sum(bin(int(FM[k])).count("1") for k in range(ne))
        if code >= jit_several.MOVE:
            index = singles + code - jit_several.MOVE
        else:
            k, t = code & 255, code >> 8
            index = sum(bin(int(FM[j])).count("1") for j in range(k)) + bin(
                int(FM[k]) & ((1 << t) - 1)).count("1")
        assert legal[index] == want, (legal, want)
        picked.add(want.kind)
    assert picked == {"several", "place"}


def test_the_runs_on_a_line_are_the_general_loops(games):
    found, depth = line_moves_are_the_loops(games["line"], random.Random(3), 300, 9)
    assert found > 50 and depth == 3


CASES = [("nine", 2), ("nine", 3), ("nine", 4), ("anywhere", 2), ("anywhere", 4),
         ("restricted", 2), ("restricted", 4), ("line", 2), ("line", 3), ("line", 4)]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_kernel_plays_and_records_them_as_the_python_engine(games, name, players):
    from dominorules.kernel import jit_trace

    game = games[name]
    assert jit_trace.reason(game) is None
    seeds = [api.match_seed(31, i) for i in range(2)]
    events = on_every_bot_table(game, players, seeds, trace=True)
    kinds = {e["part"][1] for e in events if "part" in e}
    assert max(kinds) >= 2   # moves of several tiles were played and written


def test_simulate_on_the_jit_is_simulate_on_the_python_engine(games):
    drop = ("engine", "seconds", "time", "elapsed")
    for name, players in (("nine", 3),):
        jit = api.simulate(games[name], players, 3, 4, "strategist", engine="jit")
        py = api.simulate(games[name], players, 3, 4, "strategist", engine="python")
        assert (jit["engine"], py["engine"]) == ("jit", "python")
        assert {k: v for k, v in jit.items() if k not in drop} == {
            k: v for k, v in py.items() if k not in drop}


def test_what_it_does_not_play_it_refuses_in_a_sentence(tmp_path, games):
    from dominorules.kernel import jit_several

    cases = {
        # runs of four on a double-fifteen's nine trains: more moves than the kernel lists
        "extends: house/mexican-train\nset:\n  max_pip: 15\nevents: []\nexamples: []\n":
            f"may number more than {jit_several.MOST_MOVES} at one turn",
        f"extends: {NINE}\nplay:\n  several:\n    tiles: \"max(ends) > 3\"\n":
            "play.several.tiles reading ends, every open end of a shaped board",
        # a chain on a spinner plays (test_kernel_jit_several_arms.py), but not one whose
        # tiles read the ends, which the kernel keeps as the line's two
        "extends: pagat\nboard:\n  spinner: first_double\nplay:\n  several:\n"
        "    move: chain\n    tiles: \"max(ends) > 3\"\n":
            "play.several.tiles reading ends, a spinner's four",
    }
    for i, (text, words) in enumerate(cases.items()):
        file = tmp_path / f"r{i}.yaml"
        file.write_text(f"title: t{i}\n{text}", encoding="utf-8")
        why = jit_kernel.jit_reason(api.load_game(str(file)), 2, need_numba=False)
        assert why is not None and words in why, why
    assert jit_several.move_rows(games["nine"], 4) == 5 * (10 ** 2 + 10 ** 3 + 10 ** 4)
    twelve = tmp_path / "twelve.yaml"   # house/mexican-train's set, eight seats: listed
    twelve.write_text("title: t\nextends: house/mexican-train\nevents: []\nexamples: []\n",
                      encoding="utf-8")
    game = api.load_game(str(twelve))
    assert jit_several.move_rows(game, 8) == 9 * (13 ** 2 + 13 ** 3 + 13 ** 4)
    assert jit_kernel.jit_reason(game, 8, need_numba=False) is None   # (listed, and played)
