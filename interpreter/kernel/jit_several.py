"""Moves of several tiles (``play.several``) in numba, for the JIT's GEN lines.

``engine.mechanisms.several`` is the rule; this module mirrors its pieces one for one on
a line's two ends (the masks and end numbers the kernel keeps), so the GEN lines offer
the moves the general loop offers, in its order, and each builtin bot picks among them
as it does in the Python engine:

- ``alone``: ``several.alone_masks`` (the single placements ``alone`` lets go down);
- ``line_moves``: ``several.line_moves`` for the default move (one tile on each end, in
  end order: the left end's tile first, each tile judged once the tiles before it lie,
  and ``tiles`` met), each move a row of ``MV``; ``chain_line`` for ``move: chain`` (every
  run of two to ``most`` tiles on one end, each on the one before, in ``several.moves``'
  order: end by end, depth first); ``moves`` asks the one the rule names, each move's
  tile count in ``MN``; on a shaped board, ``jit_several_shaped``;
- ``pick``: the seat's choice among the single placements and the moves, as
  ``RandomBot.choose`` (uniform over all of them, a move one option, a pass at will
  last), ``GreedyBot.choose`` (the most shed, a move its tiles' sum) and
  ``StrategistBot._several`` (``strategist._weigh_line``, term for term) take it;
- ``block``: what the GEN lines read of the rule, laid in the kernel's ``CODE`` (its
  ``tiles`` and ``alone`` conditions as ``jit_formula`` programs).

A move's tiles are laid one by one through the kernel's single placement, as the loop
lays them (``several.start``): the first now, the second at the next pass of the turn
loop, which grants no new turn. A spinner's four ends, a fit rule, restrictions and two
sets are ``jit_several_arms``' (the same kinds of move, its own search and pick);
``jit_house.reason`` refuses hidden rows (which validate refuses beside play.several)
and a rule whose moves at one turn could outgrow ``MOST_MOVES`` (``move_rows``: the
bound the kernel's ``MV`` is sized by);
``tests/test_kernel_jit_several.py`` and ``tests/test_kernel_jit_chain.py`` hold each
piece to the mechanism.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .jit import njit
from .jit_formula import FACT, run
from .jit_strategist import seat_word
from .jit_support import low_index, popcount

if TYPE_CHECKING:
    from ..engine.game import Game

# the block's places in CODE, from the parameter SEVERAL: the most tiles a move lays (the
# set's for a whole hand), where
# the tiles and alone programs start (-1: none), the strategist's weights in half points,
# the kind of move (KINDS), the rows of MV (the most moves at one turn) and of TIE
MOST, TILES_AT, ALONE_AT, W_PLAYABLE2, W_DOMINO2, KIND, ROWS, TIES = range(8)
# KIND: one tile on each end (the default), move: chain, after_double, whole_hand
EACH_END, CHAIN, AFTER_DOUBLE, WHOLE_HAND = range(4)
MOST_MOVES = 1 << 19   # the most moves of several tiles the kernel lists at one turn
# the scratch rows of a search for moves (SD), a column a depth: the tiles still to try on
# the left and right ends, the hand, the ends, the placement chosen
_S_CAND, _S_CAND_R, _S_HAND, _S_LEFT, _S_RIGHT, _S_TILE = range(6)
SCRATCH = 24   # (jit_several_arms' search, on four ends, takes more rows: its ROWS)
DEAD = 1 << 12   # whole_hand's dead positions kept (an open-addressed table)
# a move's code among a seat's options: MOVE + its row in MV (engine.actions.SEVERAL's role)
MOVE = 1 << 26
_TILE, _END, _HAND, _PLAYABLE = FACT["tile"], FACT["end"], FACT["hand"], FACT["playable"]
_END_L, _END_R, _BONEYARD = FACT["end_l"], FACT["end_r"], FACT["boneyard"]
_FIRST_TURN, _OWN_TRAIN = FACT["first_turn"], FACT["own_train"]


def move_rows(game: Game, players: int) -> int:
    """The most moves of several tiles a turn of ``game`` at ``players`` seats may offer
    (``MV``'s rows): one tile on each of a line's two ends, at most ``T * T``; a chain of
    up to ``most`` tiles on one of ``ends`` ends, each tile among the ``d`` that show the
    number it goes on (the most tiles of the set showing one number), at most
    ``ends * (d**2 + ... + d**most)``; after each double (one on each end shows the end's
    number), ``2 * d * (2 + 4 + ... + 2**(most - 1))``; the whole hand, one. On a
    spinner's four ends or under a fit rule (a tile fitting two ways is two placements,
    and a number may be shown by more doubles), ``_arm_rows``."""
    rule = game.rules.several
    T = game.tileset.tile_count
    d = max(m.bit_count() for m in game.setup(players).value_mask)
    if rule.whole_hand:   # one move, the whole hand
        return 1
    if game.rules.spinner != "none" or game.fit is not None:
        return _arm_rows(game, players, d)
    if rule.after_double:   # a double on either end (one shows each number), then any tile
        return sum(2 ** (k - 1) * 2 * d for k in range(2, rule.most + 1))
    if not rule.chain:
        return T * T
    return _ends(game, players) * sum(d ** k for k in range(2, rule.most + 1))


def _arm_rows(game: Game, players: int, d: int) -> int:
    """``move_rows`` on ``e`` ends (four on a spinner) with ``c`` placements at most at one
    end (``d`` tiles, each two ways under a fit rule) and ``dd`` doubles at most fitting
    one end: one tile on each of k ends, ``C(e, k) * c**k``; a chain, ``e * c**k`` a
    length; after each double, ``(e * dd)**(k - 1) * e * c`` (jit_several_arms)."""
    from math import comb

    rule = game.rules.several
    e = 4 if game.rules.spinner != "none" else 2
    ways = 2 if game.fit is not None else 1
    c = d * ways
    doubles = game.tileset.doubles_mask
    dd = max((m & doubles).bit_count() for m in game.setup(players).value_mask) * ways
    lengths = range(2, rule.most + 1)
    if rule.after_double:
        return sum((e * dd) ** (k - 1) * e * c for k in lengths)
    if rule.chain:
        return e * sum(c ** k for k in lengths)
    return sum(comb(e, k) * c ** k for k in lengths if k <= e)


def _ends(game: Game, players: int) -> int:
    """The most ends open at once: a line's two, or a shaped board's (jit_layout)."""
    layout = game.rules.layout
    if layout is None:
        return 2
    from .jit_layout import most_ends

    return most_ends(layout, players, len(game.tileset.doubles_desc))


def block(game: Game, code: list[int], names: dict[str, Any], lists: dict[str, int],
          tiles: dict[tuple[int, int], int]) -> int:
    """Appends the rule's block (and its programs) to ``code``; where it starts, -1 for a
    ruleset without ``play.several``. ``names``/``lists``: a placement's names for
    ``jit_formula.program``; raises ``formulas.Unsupported`` for one the kernel lacks."""
    from ..bots.strategist import W_PLAYABLE
    from ..bots.strategy import W_DOMINO
    from ..expr import ast
    from . import jit_formula
    from .formulas import Unsupported

    rule = game.rules.several
    if rule is None:
        return -1
    if (2 * W_PLAYABLE) % 1 or (2 * W_DOMINO) % 1:   # scores are kept in half points
        raise ValueError("the strategist's weights are no longer half points")
    at = len(code)
    rows = move_rows(game, game.rules.max_players)
    singles = _ends(game, game.rules.max_players) * game.tileset.tile_count
    if game.rules.spinner != "none" or game.fit is not None:   # (jit_several_arms.pick)
        singles = 4 * 2 * game.tileset.tile_count
    kind = (CHAIN if rule.chain else AFTER_DOUBLE if rule.after_double
            else WHOLE_HAND if rule.whole_hand else EACH_END)
    most = game.tileset.tile_count if rule.whole_hand else rule.most   # (the hand: any size)
    code += [most, -1, -1, int(2 * W_PLAYABLE), int(2 * W_DOMINO), kind, rows + 1,
             rows + singles + 1]
    trees = game.rules.several_trees or {}
    # the turn's names (first_turn, own_train: F's facts, set by the GEN lines); on a
    # shaped board ``ends`` is every open end's number, which the kernel does not list
    names = {**names, "first_turn": "first_turn", "own_train": "own_train"}
    if game.rules.layout is not None:
        lists = {k: v for k, v in lists.items() if k != "ends"}
    for slot, key in ((TILES_AT, "tiles"), (ALONE_AT, "alone")):
        if getattr(rule, key) is None:
            continue
        tree = trees.get(key)
        if tree is None:
            raise Unsupported(f"play.several.{key} without its tree")
        if "ends" not in lists and "ends" in ast.names_read(tree):
            raise Unsupported(f"play.several.{key} reading ends, every open end of a shaped "
                              "board")
        if game.rules.spinner != "none" and "ends" in ast.names_read(tree):
            # (the kernel's ends list is the line's two: jit_several_arms reads no arms)
            raise Unsupported(f"play.several.{key} reading ends, a spinner's four")
        code[at + slot] = len(code)
        code += jit_formula.program(tree, names, lists, tiles)
    return at


@njit
def holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, t, v, hand, playable, L, R):
    """Whether the condition whose program starts at ``at`` (``several.tile_allowed`` /
    ``alone_allowed``; -1: none, always) holds for tile ``t`` on an end showing ``v``,
    the seat holding ``hand`` (``playable`` of it fitting an end), the ends ``L``, ``R``
    (``several.placement_env``)."""
    if at < 0:
        return True
    F[_TILE], F[_END], F[_HAND], F[_PLAYABLE] = t, v, hand, playable
    F[_END_L], F[_END_R] = L, R
    return run(CODE, at, F, TAB, TEAMS, sides, N, deck, stack) != 0


@njit
def alone(mL, mR, h, L, R, PM, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack):
    """``several.alone_masks``: the single placements of ``mL``/``mR`` that ``alone``
    lets go down on their own (all when it has none)."""
    at = CODE[SEV + ALONE_AT]
    if at < 0:
        return mL, mR
    playable = h & (PM[L] | PM[R])
    kL = kR = 0
    m = mL
    while m:
        b = m & -m
        m ^= b
        if holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, low_index(b), L, h,
                 playable, L, R):
            kL |= b
    m = mR
    while m:
        b = m & -m
        m ^= b
        if holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, low_index(b), R, h,
                 playable, L, R):
            kR |= b
    return kL, kR


@njit
def line_moves(h, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack, MV):
    """``several.line_moves`` on a line (the default move, ``most`` of two or more): every
    tile for the left end, then every tile the right end takes once it lies, each meeting
    ``tiles`` in the position it is laid in; row k of ``MV`` the k-th move's codes
    (``tile << 2 | end``). How many moves."""
    if CODE[SEV + MOST] < 2:
        return 0
    at = CODE[SEV + TILES_AT]
    n = 0
    first = h & PM[L]
    playable = first | (h & PM[R])
    while first:
        b = first & -first
        first ^= b
        t = low_index(b)
        if not holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, t, L, h, playable, L, R):
            continue
        h1 = h ^ b
        L1 = PIPS[t] - L   # the left end once t lies there (Board.place on a line)
        second = h1 & PM[R]
        playable1 = (h1 & PM[L1]) | second
        while second:
            c = second & -second
            second ^= c
            u = low_index(c)
            if holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, u, R, h1, playable1,
                     L1, R):
                MV[n, 0] = t << 2
                MV[n, 1] = u << 2 | 1
                n += 1
    return n


@njit
def chain_line(h, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack, MV, MN,
               SD):
    """``several.moves`` for ``move: chain`` on a line: on the left end, then the right,
    every run of two to ``most`` tiles, each on the one before (the end then shows its
    other half), each meeting ``tiles`` in the position it is laid in, listed depth first
    as ``several.moves``' ``run`` lists them (a run before the runs it begins); row k of
    ``MV`` the k-th move's codes (``tile << 2 | end``), ``MN[k]`` its tile count. ``SD``:
    scratch, a row per depth (``_S_``). How many moves."""
    most = CODE[SEV + MOST]
    at = CODE[SEV + TILES_AT]
    n = 0
    for e in range(2):
        d = 0
        SD[_S_HAND, 0], SD[_S_LEFT, 0], SD[_S_RIGHT, 0] = h, L, R
        SD[_S_CAND, 0] = h & PM[R if e else L]
        while d >= 0:
            m = SD[_S_CAND, d]
            if not m:
                d -= 1
                continue
            b = m & -m
            SD[_S_CAND, d] = m ^ b
            t = low_index(b)
            hd, lv, rv = SD[_S_HAND, d], SD[_S_LEFT, d], SD[_S_RIGHT, d]
            v = rv if e else lv
            if at >= 0 and not holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, t, v, hd,
                                     hd & (PM[lv] | PM[rv]), lv, rv):
                continue
            SD[_S_TILE, d] = t
            if d >= 1:   # a run of two or more: a move
                for i in range(d + 1):
                    MV[n, i] = SD[_S_TILE, i] << 2 | e
                MN[n] = d + 1
                n += 1
            if d + 1 < most:   # the run goes on from the number t leaves
                w = PIPS[t] - v
                d += 1
                SD[_S_HAND, d] = hd ^ b
                SD[_S_LEFT, d], SD[_S_RIGHT, d] = (lv, w) if e else (w, rv)
                SD[_S_CAND, d] = (hd ^ b) & PM[w]
    return n


@njit
def _next_of(SD, d):
    """The placement of depth ``d``'s candidates to try next, the left end's first, as
    (code, bit), (-1, 0) when none is left; the candidates lose it."""
    m = SD[_S_CAND, d]
    if m:
        b = m & -m
        SD[_S_CAND, d] = m ^ b
        return low_index(b) << 2, b
    m = SD[_S_CAND_R, d]
    if m:
        b = m & -m
        SD[_S_CAND_R, d] = m ^ b
        return low_index(b) << 2 | 1, b
    return -1, 0


@njit
def _down(SD, d, hd, lv, rv, PM, only):
    """Depth ``d`` opens: its hand, ends and the tiles each end takes (of ``only``)."""
    SD[_S_HAND, d], SD[_S_LEFT, d], SD[_S_RIGHT, d] = hd, lv, rv
    SD[_S_CAND, d] = hd & PM[lv] & only
    SD[_S_CAND_R, d] = hd & PM[rv] & only


@njit
def after_double(h, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack, MV, MN,
                 SD, DOUBLES):
    """``several.moves`` for ``move: after_double`` on a line: a double on either end, then
    another tile on either end, the move going on after each double, up to ``most``
    tiles, in ``several.moves``' order (end by end, tile by tile, depth first); into
    ``MV`` and ``MN``; how many moves. ``DOUBLES``: the set's doubles, a mask."""
    most = CODE[SEV + MOST]
    at = CODE[SEV + TILES_AT]
    n = 0
    d = 0
    _down(SD, 0, h, L, R, PM, DOUBLES)   # the first tile: a double
    while d >= 0:
        hd, lv, rv = SD[_S_HAND, d], SD[_S_LEFT, d], SD[_S_RIGHT, d]
        c, b = _next_of(SD, d)
        if c < 0:
            d -= 1
            continue
        t, e = c >> 2, c & 3
        v = rv if e else lv
        if at >= 0 and not holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, t, v, hd,
                                 hd & (PM[lv] | PM[rv]), lv, rv):
            continue
        SD[_S_TILE, d] = c
        if d >= 1:   # two tiles or more: a move
            for i in range(d + 1):
                MV[n, i] = SD[_S_TILE, i]
            MN[n] = d + 1
            n += 1
        if d + 1 < most and (DOUBLES >> t) & 1:   # a double: the move goes on
            w = PIPS[t] - v
            d += 1
            _down(SD, d, hd ^ b, lv if e else w, w if e else rv, PM, -1)
    return n


@njit
def dead_at(DT, hd, ends, gen, put):
    """Whether the position (hand ``hd``, ``ends``: its ends as one number, > 0) is known
    dead in search ``gen`` (``several.whole_hand``'s ``dead``: an open-addressed table of
    (hand, ends, search) rows); with ``put``, it is from now on (while the table has
    room). A line's search and ``jit_several_arms``' both keep their positions here."""
    k = (hd * 0x9E3779B1 + ends) & (DEAD - 1)
    for _ in range(DEAD):
        if DT[2, k] != gen:
            if put:
                DT[0, k], DT[1, k], DT[2, k] = hd, ends, gen
            return False
        if DT[0, k] == hd and DT[1, k] == ends:
            return True
        k = (k + 1) & (DEAD - 1)
    return False


@njit
def whole_hand(h, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack, MV, MN, SD,
               DT):
    """``several.whole_hand`` on a line: the first order (end by end, tile by tile, depth
    first) in which every tile of ``h`` goes down, each on either end; a position found
    dead is tried once (``DT``: (hand, ends, search) rows, ``DT[2, DEAD]`` the search's
    number). Into ``MV[0]`` and ``MN[0]``; 1, or 0 when there is none."""
    size = popcount(h)
    if size < 2:
        return 0
    at = CODE[SEV + TILES_AT]
    gen = DT[2, DEAD] + 1
    DT[2, DEAD] = gen
    d = 0
    _down(SD, 0, h, L, R, PM, -1)
    while d >= 0:
        hd, lv, rv = SD[_S_HAND, d], SD[_S_LEFT, d], SD[_S_RIGHT, d]
        c, b = _next_of(SD, d)
        if c < 0:   # every order from here fails: dead
            dead_at(DT, hd, lv * 64 + rv + 1, gen, True)
            d -= 1
            continue
        t, e = c >> 2, c & 3
        v = rv if e else lv
        if at >= 0 and not holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, t, v, hd,
                                 hd & (PM[lv] | PM[rv]), lv, rv):
            continue
        SD[_S_TILE, d] = c
        if d + 1 == size:   # the hand is out: the move
            for i in range(size):
                MV[0, i] = SD[_S_TILE, i]
            MN[0] = size
            return 1
        w = PIPS[t] - v
        nl, nr = (lv, w) if e else (w, rv)
        if dead_at(DT, hd ^ b, nl * 64 + nr + 1, gen, False):
            continue
        d += 1
        _down(SD, d, hd ^ b, nl, nr, PM, -1)
    return 0


@njit
def moves(h, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack, MV, MN, SD,
          DT, DOUBLES):
    """The moves of several tiles on a line, of the kind the rule names (``KIND``): into
    ``MV`` and ``MN`` (each move's tile count); how many. ``SD``, ``DT``: the searches'
    scratch; ``DOUBLES``: the set's doubles, a mask."""
    kind = CODE[SEV + KIND]
    if kind == CHAIN:
        return chain_line(h, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack,
                          MV, MN, SD)
    if kind == AFTER_DOUBLE:
        return after_double(h, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck,
                            stack, MV, MN, SD, DOUBLES)
    if kind == WHOLE_HAND:
        return whole_hand(h, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack,
                          MV, MN, SD, DT)
    n = line_moves(h, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack, MV)
    for k in range(n):
        MN[k] = 2
    return n


@njit
def _kth(mL, mR, k):
    """The k-th single placement in the canonical order (left end's tiles, then right's)."""
    n_left = popcount(mL)
    end = 1 if k >= n_left else 0
    m = mR if end else mL
    k -= n_left if end else 0
    while k:
        m &= m - 1
        k -= 1
    return low_index(m) << 2 | end


@njit
def _shed(code, MV, MN, VALUES, shift):
    """What an option sheds (``greedy.shed``): a tile's value, a move's tiles' sum (codes
    ``tile << shift | end``)."""
    if code >= MOVE:
        k = code - MOVE
        total = 0
        for i in range(MN[k]):
            total += VALUES[MV[k, i] >> shift]
        return total
    return VALUES[code >> shift]


@njit
def _weigh(code, MV, MN, h, L, R, PM, PIPS, VALUES, w_play2, w_domino2):
    """``strategist._weigh_line`` in half points: twice the value shed, ``W_PLAYABLE``
    for each tile left that fits an end the move leaves, ``W_DOMINO`` for the last tile."""
    rest = h
    shed = 0
    for i in range(MN[code - MOVE] if code >= MOVE else 1):
        c = MV[code - MOVE, i] if code >= MOVE else code
        t = c >> 2
        if c & 3:
            R = PIPS[t] - R
        else:
            L = PIPS[t] - L
        rest ^= 1 << t
        shed += VALUES[t]
    playable = popcount(rest & (PM[L] | PM[R]))
    return 2 * shed + w_play2 * playable + (w_domino2 if rest == 0 else 0)


@njit
def pick(kind, p, seed, N, WS, mL, mR, nm, at_will, MV, MN, h, L, R, PM, PIPS, VALUES, CODE,
         SEV, TIE):
    """Seat ``p``'s option (``kind``: 0 random, 1 greedy, 2 strategist) among the single
    placements ``mL``/``mR`` and the ``nm`` moves of ``MV``, listed in that order: a
    placement's code, ``MOVE + k`` for the k-th move, or -2 for a pass at will (random's
    last option). Random and greedy read one word of the seat's; the strategist one on a
    tie only (``StrategistBot._several``)."""
    nfit = popcount(mL) + popcount(mR)
    total = nfit + nm
    if kind == 0:
        k = (seat_word(seed, p, N, WS) * (total + at_will)) >> 32
        if k == total:
            return -2
        return _kth(mL, mR, k) if k < nfit else MOVE + k - nfit
    count = 0
    best = -(1 << 62)
    w_play2, w_domino2 = CODE[SEV + W_PLAYABLE2], CODE[SEV + W_DOMINO2]
    for i in range(total):
        code = _kth(mL, mR, i) if i < nfit else MOVE + i - nfit
        if kind == 1:
            v = _shed(code, MV, MN, VALUES, 2)
        else:
            v = _weigh(code, MV, MN, h, L, R, PM, PIPS, VALUES, w_play2, w_domino2)
        if v > best:
            best = v
            count = 0
        if v == best:
            TIE[count] = code
            count += 1
    if kind == 1 or count > 1:   # greedy reads a word always, the strategist on a tie
        return TIE[(seat_word(seed, p, N, WS) * count) >> 32]
    return TIE[0]
