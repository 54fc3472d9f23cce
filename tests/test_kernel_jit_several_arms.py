"""Moves of several tiles on the JIT beyond a plain line (``kernel/jit_several_arms.py``,
``play.several``): on a spinner's four ends, under a fit rule, with placement restrictions
and with two sets.

Each piece answers as the general loop's (``GeneralLoop._fits`` over
``engine.mechanisms.several``) on random positions, every kind of move under each
mechanism, on a narrow set (its sets int64 masks) and on a set over 62 tiles (its sets
rows of words, ``jit_masks``: the same source): the same single tiles left alone, the
same moves in the same order (a tile fitting an end two ways gives two; two sets' moves
by the other copies listed once). Then the GEN kernel plays the test rulesets
(``tests/rulesets/house/several-*``) at every player count with every builtin bot: the
same results and the same record text as the Python engine, with moves of several tiles
on a spinner's arms, parts naming the half that meets their end and doubles laid within
a run that goes on (which earn no extra turn: ``several.again_lapses``) among them. The
kernel is the one GEN kernel every house ruleset shares; the pieces run uncompiled when
``DOMINORULES_NO_JIT`` is set.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from jit_record_checks import same_on_both_engines

from dominorules import api
from dominorules.engine.actions import FLIP as LOOP_FLIP
from dominorules.engine.board import Board
from dominorules.engine.general_loop import GeneralLoop, allowed_at
from dominorules.engine.mechanisms import several

pytest.importorskip("numba")

HOUSE = Path(__file__).parent / "rulesets" / "house"
# each mechanism's builtin ruleset, and what it adds (restrictions: waived when none allows);
# then each on a set over 62 tiles (double-twelve, two double-nine sets: two words a set)
BASES = {"spinner": ("house/spinner", ""), "fit": ("house/matador", ""),
         "restricted": ("house/double-blank-last", "  if_none_allowed: waive\n"),
         "copies": ("house/two-sets", ""),
         "wide-spinner": (HOUSE / "wide-fives-spinner.yaml", ""),
         "wide-fit": ("house/matador-twelve", ""),
         "wide-restricted": (HOUSE / "wide-hand-restricted-twelve.yaml",
                             "  if_none_allowed: waive\n"),
         "wide-copies": (HOUSE / "wide-copies-nine.yaml", "")}
# every kind of move, with conditions reading the hand, the playable tiles, the boneyard
# and the seat's first turn
KINDS = {
    "each_end": "    most: 3\n    tiles: \"tile.pips != 5 or count(playable) > 2\"\n"
                "    alone: \"count(hand) <= 3 or end == tile.high\"\n    explain: x\n",
    "chain": "    move: chain\n    most: 3\n    tiles: \"first_turn or boneyard > 3 or "
             "tile.pips > 2\"\n",
    "after_double": "    move: after_double\n    most: 3\n",
    "whole_hand": "    move: whole_hand\n",
}
# the most tiles a random hand holds: on a big set twelve, as double-twelve deals, twenty
# after a double (which goes on only from two doubles that fit) and five for the whole
# hand (a random hand of more rarely goes down whole on 91 tiles)
LARGEST = {**{(False, kind): 8 for kind in KINDS}, **{(True, kind): 12 for kind in KINDS},
           (True, "after_double"): 20, (True, "whole_hand"): 5}
RULESETS = ["several-spinner", "several-matador", "several-restricted", "several-two-sets",
            "several-chain-again"]


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("arms")
    out = {}
    for base, (name, play) in BASES.items():
        for kind, rule in KINDS.items():
            path = folder / f"{base}-{kind}.yaml"
            path.write_text(f"title: {base} {kind}\nextends: {name}\nplay:\n{play}"
                            f"  several:\n{rule}", encoding="utf-8")
            out[base, kind] = api.load_game(str(path))
    return out


def _board(game, rng):
    """A random board of the ruleset: on a spinner, before it (two ends), with one or both
    of its sides bare, or with its arms open (four ends)."""
    spins = game.rules.spinner != "none"
    top = game.tileset.max_pip
    board = Board(spins, game.rules.doubles == "across")
    L, R = rng.randint(0, top), rng.randint(0, top)
    board.open_with(L, R, False)
    board.tiles = rng.randint(2, 9)
    mode = rng.randrange(4) if spins else 0
    if mode == 1:   # a spinner at one end, its outer side bare
        e = rng.randrange(2)
        board.spin_need, board.spin_value = 1 << e, board.values[e]
    elif mode == 2:   # the opening double, both sides bare
        board.values[1] = L
        board.spin_need, board.spin_value = 3, L
    elif mode == 3:   # its arms open
        board.values[2], board.values[3] = rng.randint(0, top), rng.randint(0, top)
        board.count, board.spin_need, board.spin_value = 4, 0, rng.randint(0, top)
        board.used = [True, True, rng.random() < 0.5, rng.random() < 0.5]
    return board


def _arrays(game, players, rnd, boneyard, first):
    """What the GEN lines hand the pieces: the programs, the switches, the facts, the
    formula tables, the searches' scratch; on a set over 62 tiles its sets as rows of
    ``W`` words (``W`` 0: one mask a set)."""
    import numpy as np

    from dominorules.kernel import (
        jit_bits,
        jit_formula,
        jit_house,
        jit_several,
        jit_several_arms,
        jit_template,
    )

    code, starts = jit_house.programs(game)
    switches = jit_house.params(game, players)
    ts = game.tileset
    T = ts.tile_count
    W = jit_bits.words(T) if T > jit_house.WIDE_AFTER else 0
    F = np.zeros(len(jit_template.FACTS) + len(jit_template.PLAY_FACTS) + code[0] + 2 * W,
                 np.int64)   # (over words, the hand's and the playable tiles' at its end)
    fact = jit_formula.FACT
    F[fact["round"]], F[fact["players"]], F[fact["boneyard"]] = rnd, players, boneyard
    F[fact["first_turn"]] = int(first)
    tab = jit_formula.TAB
    TAB = np.zeros((len(jit_template.TABLES), max(T, players, 2)), np.int64)
    for t in range(T):
        TAB[tab["TL"], t], TAB[tab["TH"], t] = ts.low[t], ts.high[t]
        TAB[tab["PIPS"], t], TAB[tab["VALUES"], t] = ts.pips[t], game.values[t]
    CODE = np.array(code, np.int64)
    SEV = starts["SEVERAL"]
    most = int(CODE[SEV + jit_several.MOST])
    rows = int(CODE[SEV + jit_several.ROWS])
    masks = game.setup(players).value_mask
    sets = jit_several.SET_BLOCKS * (most + 1)
    assert jit_several.SET_BLOCKS >= jit_several_arms.BLOCKS
    assert jit_several.SCRATCH >= jit_several_arms.ROWS
    return dict(
        W=W, sets=(lambda ms: jit_bits.wide(ms, W)) if W else
        (lambda ms: np.array(ms, np.int64)),
        PM=jit_bits.wide(masks, W) if W else np.array(masks, np.int64), VN=len(masks),
        PIPS=np.array(ts.pips, np.int64), TL=np.array(ts.low, np.int64),
        TH=np.array(ts.high, np.int64), CODE=CODE, SEV=SEV, RES=starts["F_RESTRICT"],
        RSURE=starts["R_SURE"], WAIVE=switches["WAIVE"], FIT=switches["FIT"],
        FIT_AT=starts["FIT_AT"], SPIN=switches["SPIN"], SECONDS=switches["SECONDS"], F=F,
        TAB=TAB, TEAMS=np.array(game.teams(players), np.int64),
        deck=np.arange(T, dtype=np.int64), stack=np.zeros(64, np.int64),
        MV=np.zeros((rows, max(most, 2)), np.int64), MN=np.zeros(rows, np.int64),
        SD=np.zeros((jit_several.SCRATCH, most + 1), np.int64),
        S=np.zeros((sets, W) if W else sets, np.int64),
        LS=np.zeros((2, W) if W else 2, np.int64),
        DT=np.zeros((max(W, 1) + 2, jit_several.DEAD + 1), np.int64))


def _mask(A, i, W) -> int:
    """The set ``A[i]`` as a Python int mask (bit t: tile t), of either width."""
    from dominorules.kernel.jit_bits import BITS

    if not W:
        return int(A[i])
    return sum(int(A[i, w]) << (w * BITS) for w in range(W))


def _jit_code(code: int) -> int:
    """The loop's placement code in a move as the kernel writes it (its FLIP, no
    TWO_WAYS)."""
    from dominorules.kernel.jit_matching import FLIP

    return code & several.CODE | (FLIP if code & LOOP_FLIP else 0)


# (uncompiled, numpy warns when the dead table's hash of a hand's words wraps past 64 bits;
# the slot is its low bits, the same wrapped or not, and compiled it wraps silently)
@pytest.mark.filterwarnings("ignore:overflow encountered in scalar multiply:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:overflow encountered in scalar add:RuntimeWarning")
@pytest.mark.parametrize("base", list(BASES))
def test_the_moves_and_the_tiles_alone_are_the_general_loops(games, base):
    from dominorules.kernel import jit_several_arms as arms

    found = {}
    for kind in KINDS:
        game = games[base, kind]
        ts = game.tileset
        T = ts.tile_count
        wide = T > 62
        assert wide == base.startswith("wide-")
        rng = random.Random(f"{base} {kind}")
        n_found = longest = 0
        for _ in range(120):
            players = rng.choice((2, 3, 4))
            hand = sum(1 << t for t in rng.sample(range(T), rng.randint(1, LARGEST[wide, kind])))
            boneyard, rnd, turns = rng.randrange(T - 8), rng.randint(1, 5), rng.randint(1, 2)
            loop = GeneralLoop(game, players, 1, [None] * players)
            loop.board = board = _board(game, rng)
            loop.deck = list(range(T))
            loop.seat_turns = [turns] * players
            pos = T - boneyard
            _, count, want_fit, _, _, want, _, _ = loop._fits(0, hand, pos, rnd, [])
            a = _arrays(game, players, rnd, boneyard, turns == 1)
            W, masks = a["W"], game.setup(players).value_mask
            vals = board.values
            # the single placements before play.several's alone (the loop's own narrowing)
            fit = [hand & masks[vals[e]] for e in range(count)]
            if game.rules.restrictions:
                fit = allowed_at(game, loop._tuples, fit, vals, board.ends(), hand, boneyard,
                                 rnd, players, game.rules.if_none_allowed == "waive")
            fit = [ts.canonical(m) for m in fit] + [0] * (4 - count)
            H, M = a["sets"]([hand]), a["sets"]([*fit, 0, 0, 0, 0])   # (the rows of FITS)
            some = arms.alone(M, (0, 1, 2, 3), count, H, 0, *vals, a["PM"], a["CODE"],
                              a["SEV"], a["F"], a["TAB"], a["TEAMS"], len(a["TEAMS"]),
                              players, a["deck"], a["stack"], a["LS"])
            assert [_mask(M, e, W) for e in range(4)] == list(want_fit) + [0] * (4 - count)
            assert some == int(any(want_fit))
            n = arms.moves(H, 0, *vals, count, board.spin_need, board.spin_value, a["PM"],
                           a["PIPS"], a["TL"], a["TH"], a["CODE"], a["SEV"], a["RES"],
                           a["RSURE"], a["WAIVE"], a["FIT"], a["FIT_AT"], a["VN"], T,
                           a["SPIN"], a["SECONDS"], a["F"], a["TAB"], a["TEAMS"],
                           len(a["TEAMS"]), players, a["deck"], a["stack"], a["MV"], a["MN"],
                           a["SD"], a["S"], a["DT"])
            got = [tuple(int(c) for c in a["MV"][k, :a["MN"][k]]) for k in range(n)]
            assert got == [tuple(_jit_code(c) for c in move) for move in want], (kind, hand)
            n_found += n
            longest = max([longest, *(len(m) for m in want)])
        found[kind] = (n_found, longest)
    # the positions reach moves of every kind, of three tiles and more (one on each end:
    # of two on a line's two ends, of three on a spinner's four); on a big set a whole
    # hand goes down from few of them
    assert all(n > (1 if kind == "whole_hand" and base.startswith("wide-") else 5)
               and most >= (2 if kind == "each_end" and "spinner" not in base else 3)
               for kind, (n, most) in found.items()), found


def test_the_bound_on_moves_holds_a_spinners_and_a_fit_rules(games):
    from dominorules.kernel import jit_several

    # four ends, each taking at most the 7 tiles showing its number: pairs and triples
    assert jit_several.move_rows(games["spinner", "each_end"], 4) == 6 * 7 ** 2 + 4 * 7 ** 3
    # a chain on one of four ends; under sevens a pair on the line's two ends, each of the
    # 10 tiles at most fitting an end counted two ways
    assert jit_several.move_rows(games["spinner", "chain"], 4) == 4 * (7 ** 2 + 7 ** 3)
    assert jit_several.move_rows(games["fit", "each_end"], 4) == (2 * 10) ** 2


@pytest.fixture(scope="module")
def played():
    return {name: api.load_game(str(HOUSE / f"{name}.yaml")) for name in RULESETS}


CASES = [(name, n) for name in RULESETS for n in range(2, 9)
         if n <= (8 if name == "several-two-sets" else 4)]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_kernel_plays_and_records_them_as_the_python_engine(played, name, players):
    from dominorules.kernel import engines, jit_kernel, jit_trace

    if not jit_kernel.available():   # numba installed, but switched off for this run
        pytest.skip("DOMINORULES_NO_JIT is set")

    game = played[name]
    assert jit_trace.reason(game) is None
    seeds = [api.match_seed(41, i) for i in range(2)]
    lines = []
    for bots in ("random", "greedy", "strategist",
                 ["strategist", "greedy", "random", "strategist"] * 2):
        bots = bots if isinstance(bots, str) else bots[:players]
        assert engines.jit_reason(game, players, bots, trace=True) is None
        lines += [e for e in same_on_both_engines(game, players, seeds, bots) if "part" in e]
    assert lines   # moves of several tiles were played and written
    if name == "several-spinner" and players == 2:   # on the arms too
        assert {e["end"] for e in lines} == {"left", "right", "up", "down"}
    if name == "several-matador" and players == 2:   # a part naming the half meeting its end
        assert any("meets" in e for e in lines)
    if name == "several-chain-again" and players == 2:   # a double within a run: no turn
        assert any(e["tile"][0] == e["tile"][1] and e["part"][0] < e["part"][1] for e in lines)
