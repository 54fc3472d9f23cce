"""What the JIT's tests of moves of several tiles (``play.several``) build and check on a
line, written once: a seat's words as the kernel reads them, and the kernel's search for
moves on random positions of a line against the general loop's (``GeneralLoop._several``
over ``engine.mechanisms.several``). The callers skip without numba."""

from __future__ import annotations

import random


def seat_words(seed: int, players: int) -> tuple:
    """A seat's words as the kernel reads them (``kernel.shake``): the ``WS`` the bots'
    picks take."""
    import numpy as np

    from dominorules.kernel import shake

    WS = (np.zeros((shake.FIRST + shake.CHUNK) * players, np.uint32),
          *(np.zeros(players, np.int64) for _ in range(4)), np.zeros(1, np.int64),
          np.empty(25, np.uint64), np.empty((players, 25), np.uint64),
          np.empty(shake.MSG, np.uint8))
    WB, wpos, wend, wblock, _, wshared, wfirst, _, msg = WS
    shake.seat_words_start(seed, players, WB, wpos, wend, wblock, wshared, wfirst, msg)
    return WS


def line_moves_are_the_loops(game, rng: random.Random, positions: int, most_hand: int,
                             pieces=None) -> tuple[int, int]:
    """The kernel's moves at ``positions`` random positions on a line (hands of 1 to
    ``most_hand`` tiles, 2 or 4 players, any boneyard, round and first turn) are the
    general loop's, in its order: (moves found, the most tiles in one). On a set over 62
    tiles the kernel's sets are rows of words (``jit_masks``), the hand, the tiles each
    number takes and the search's sets alike. ``pieces``: ``jit_several`` as it runs
    (``jit.plain(jit_several)`` to check it uncompiled), the compiled module if None."""
    import numpy as np

    from dominorules.engine.board import Board
    from dominorules.engine.general_loop import GeneralLoop
    from dominorules.kernel import jit_bits, jit_formula, jit_house, jit_several, jit_template

    pieces = pieces or jit_several

    ts = game.tileset
    T = ts.tile_count
    W = jit_bits.words(T) if T > jit_house.WIDE_AFTER else 0   # (0: one mask a set)
    masks = game.setup(2).value_mask
    PM = jit_bits.wide(masks, W) if W else np.array(masks, np.int64)
    PIPS = np.array(ts.pips, np.int64)
    TL, TH = np.array(ts.low, np.int64), np.array(ts.high, np.int64)
    code, starts = jit_house.programs(game)
    CODE, SEV = np.array(code, np.int64), starts["SEVERAL"]
    most = int(CODE[SEV + jit_several.MOST])
    rows = jit_several.move_rows(game, 4) + 1
    MV, MN = np.zeros((rows, most), np.int64), np.zeros(rows, np.int64)
    SD = np.zeros((jit_several.SCRATCH, most + 1), np.int64)
    sets = jit_several.SET_BLOCKS * (most + 1)
    S = np.zeros((sets, W) if W else sets, np.int64)
    DT = np.zeros((max(W, 1) + 2, jit_several.DEAD + 1), np.int64)
    stack = np.zeros(64, np.int64)
    tab, fact = jit_formula.TAB, jit_formula.FACT
    found = depth = 0
    for _ in range(positions):
        players = rng.choice((2, 4))
        hand = sum(1 << t for t in rng.sample(range(T), rng.randint(1, most_hand)))
        H = jit_bits.wide([hand], W) if W else np.array([hand], np.int64)
        ends = len(masks)
        L, R, boneyard, rnd, turns = (rng.randrange(ends), rng.randrange(ends),
                                      rng.randrange(T - 2), rng.randint(1, 5),
                                      rng.randint(1, 2))
        loop = GeneralLoop(game, players, 1, [None] * players)
        loop.board = Board()
        loop.board.open_with(L, R, L == R)
        loop.deck = list(range(T))
        loop.seat_turns = [turns] * players
        fit = [hand & masks[L], hand & masks[R]]
        _, _, want = loop._several([], list(fit), fit[0] | fit[1], hand, T - boneyard, rnd, 0)
        F = np.zeros(len(jit_template.FACTS) + len(jit_template.PLAY_FACTS) + code[0] + 2 * W,
                     np.int64)   # (over words, the hand's and the playable tiles' at its end)
        F[fact["round"]], F[fact["players"]], F[fact["boneyard"]] = rnd, players, boneyard
        F[fact["first_turn"]] = int(turns == 1)
        TAB = np.zeros((len(jit_template.TABLES), max(T, players)), np.int64)
        for t in range(T):
            TAB[tab["TL"], t], TAB[tab["TH"], t] = ts.low[t], ts.high[t]
            TAB[tab["PIPS"], t], TAB[tab["VALUES"], t] = ts.pips[t], game.values[t]
        n = pieces.moves(H, 0, L, R, PM, PIPS, TL, TH, CODE, SEV, F, TAB,
                              np.array(game.teams(players), np.int64), 2, players,
                              np.arange(T, dtype=np.int64), stack, MV, MN, SD, S, DT)
        assert [tuple(int(c) for c in MV[k, :MN[k]]) for k in range(n)] == list(want)
        found += n
        depth = max([depth, *(len(m) for m in want)])
    return found, depth
