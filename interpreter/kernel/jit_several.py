"""Moves of several tiles (``play.several``) in numba, for the JIT's GEN lines.

``engine.mechanisms.several`` is the rule; this module mirrors its pieces one for one on
a line's two ends (the end numbers and the sets of tiles the kernel keeps, each named by
an array and an index as ``jit_masks`` reads them: one int64 mask on a set of at most 62
tiles, a row of words on a larger one, the same source for both), so the GEN lines offer
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
sets are ``jit_several_arms``' (the same kinds of move, its own search and pick, over
``jit_masks`` sets as here: both widths);
``jit_house.reason`` refuses hidden rows (which validate refuses beside play.several)
and a rule whose moves at one turn could outgrow ``MOST_MOVES`` (``move_rows``: the
bound the kernel's ``MV`` is sized by);
``tests/test_kernel_jit_several.py`` and ``tests/test_kernel_jit_chain.py`` hold each
piece to the mechanism, ``tests/test_kernel_jit_wide_facts.py`` on a set of words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .jit import njit
from .jit_formula import FACT, run
from .jit_masks import after, copy, count, count_and_or, join, kth, meet, nonempty, put_fact, take
from .jit_strategist import seat_word

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
# the scratch rows of a search for moves (SD), a column a depth: the ends, the placement
# chosen; and its sets (jit_masks), a block of most + 1 a depth: the tiles still to try on
# the left and right ends, the hand, its playable tiles
_S_LEFT, _S_RIGHT, _S_TILE = range(3)
SCRATCH = 24   # (jit_several_arms' search, on four ends, takes more rows: its ROWS)
_CAND, _CAND_R, _HAND_SET, _PLAY = range(4)
SET_BLOCKS = 12   # (jit_several_arms' search, on four ends, takes more sets: its BLOCKS)
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


@njit(refcounts=False)
def holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, t, v, hand, playable, L, R):
    """Whether the condition whose program starts at ``at`` (``several.tile_allowed`` /
    ``alone_allowed``; -1: none, always) holds for tile ``t`` on an end showing ``v``,
    the seat holding ``hand`` (``playable`` of it fitting an end), the ends ``L``, ``R``
    (``several.placement_env``). ``hand`` and ``playable`` as ``jit_masks.put_fact``
    gives them: a narrow set's mask, or where in ``F`` a wide set's words are."""
    if at < 0:
        return True
    F[_TILE], F[_END], F[_HAND], F[_PLAYABLE] = t, v, hand, playable
    F[_END_L], F[_END_R] = L, R
    return run(CODE, at, F, TAB, TEAMS, sides, N, deck, stack) != 0


@njit(refcounts=False)
def _playable(S, j, H, hi, PM, L, R):
    """``S[j]``: the tiles of the hand ``H[hi]`` fitting an end showing ``L`` or ``R``."""
    copy(S, j, PM, L)
    join(S, j, PM, R)
    meet(S, j, S, j, H, hi)


@njit(refcounts=False)
def keep_alone(M, i, v, at, hand, playable, L, R, CODE, F, TAB, TEAMS, sides, N, deck, stack):
    """``M[i]`` (the tiles fitting an end showing ``v``) narrowed to those ``alone`` lets
    go down alone."""
    t = after(M, i, -1)
    while t >= 0:
        if not holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, t, v, hand, playable,
                     L, R):
            take(M, i, t)
        t = after(M, i, t)


@njit(refcounts=False)
def alone(M, iL, iR, H, hi, L, R, PM, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack, S):
    """``several.alone_masks``: the single placements of ``M[iL]``/``M[iR]`` (the tiles
    fitting the left and right ends), narrowed in place to those ``alone`` lets go down
    on their own (all when it has none); the hand ``H[hi]``, ``S[0]`` scratch (sets as
    ``jit_masks`` names them)."""
    at = CODE[SEV + ALONE_AT]
    if at < 0:
        return
    _playable(S, 0, H, hi, PM, L, R)
    hand = put_fact(F, _HAND, 0, H, hi)
    playable = put_fact(F, _PLAYABLE, 1, S, 0)
    keep_alone(M, iL, L, at, hand, playable, L, R, CODE, F, TAB, TEAMS, sides, N, deck, stack)
    keep_alone(M, iR, R, at, hand, playable, L, R, CODE, F, TAB, TEAMS, sides, N, deck, stack)


@njit(refcounts=False)
def line_moves(H, hi, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack, MV,
               S):
    """``several.line_moves`` on a line (the default move, ``most`` of two or more): every
    tile for the left end, then every tile the right end takes once it lies, each meeting
    ``tiles`` in the position it is laid in; row k of ``MV`` the k-th move's codes
    (``tile << 2 | end``). The hand ``H[hi]``; ``S``: four scratch sets (``jit_masks``).
    How many moves."""
    if CODE[SEV + MOST] < 2:
        return 0
    at = CODE[SEV + TILES_AT]
    n = 0
    meet(S, 0, H, hi, PM, L)   # the left end's tiles, then the right's (the first not again)
    meet(S, 1, H, hi, PM, R)
    hand = playable = hand1 = playable1 = 0
    t = after(S, 0, -1)
    while t >= 0:
        if at >= 0:   # the position before t lies (the search below wrote F's sets)
            _playable(S, 3, H, hi, PM, L, R)
            hand = put_fact(F, _HAND, 0, H, hi)
            playable = put_fact(F, _PLAYABLE, 1, S, 3)
        if holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, t, L, hand, playable, L, R):
            L1 = PIPS[t] - L   # the left end once t lies there (Board.place on a line)
            if at >= 0:   # the position once it lies
                copy(S, 2, H, hi)
                take(S, 2, t)
                _playable(S, 3, S, 2, PM, L1, R)
                hand1 = put_fact(F, _HAND, 0, S, 2)
                playable1 = put_fact(F, _PLAYABLE, 1, S, 3)
            u = after(S, 1, -1)
            while u >= 0:
                if u != t and holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, u, R,
                                    hand1, playable1, L1, R):
                    MV[n, 0] = t << 2
                    MV[n, 1] = u << 2 | 1
                    n += 1
                u = after(S, 1, u)
        t = after(S, 0, t)
    return n


@njit(refcounts=False)
def _open(S, D, d, H, hi, lv, rv, SD, PM, at):
    """Depth ``d`` of a search opens on the hand ``H[hi]`` and the ends ``lv``, ``rv``: its
    hand, ends, the tiles each end takes and (for a ``tiles`` program at ``at``) the
    playable ones, in ``S``'s blocks of ``D`` sets (``_CAND``...) and ``SD``'s rows."""
    h = _HAND_SET * D + d
    copy(S, h, H, hi)
    SD[_S_LEFT, d], SD[_S_RIGHT, d] = lv, rv
    meet(S, _CAND * D + d, S, h, PM, lv)
    meet(S, _CAND_R * D + d, S, h, PM, rv)
    if at >= 0:
        _playable(S, _PLAY * D + d, S, h, PM, lv, rv)


@njit(refcounts=False)
def _allowed(S, D, d, SD, t, v, at, CODE, F, TAB, TEAMS, sides, N, deck, stack):
    """Whether tile ``t`` on an end showing ``v`` meets ``tiles`` at depth ``d``."""
    if at < 0:
        return True
    return holds(CODE, at, F, TAB, TEAMS, sides, N, deck, stack, t, v,
                 put_fact(F, _HAND, 0, S, _HAND_SET * D + d),
                 put_fact(F, _PLAYABLE, 1, S, _PLAY * D + d), SD[_S_LEFT, d],
                 SD[_S_RIGHT, d])


@njit(refcounts=False)
def _after_laid(S, D, d, t):
    """Depth ``d + 1``'s hand: depth ``d``'s without ``t`` (where ``_open`` reads it)."""
    h = _HAND_SET * D + d + 1
    copy(S, h, S, h - 1)
    take(S, h, t)
    return h


@njit(refcounts=False)
def chain_line(H, hi, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack, MV, MN,
               SD, S):
    """``several.moves`` for ``move: chain`` on a line: on the left end, then the right,
    every run of two to ``most`` tiles, each on the one before (the end then shows its
    other half), each meeting ``tiles`` in the position it is laid in, listed depth first
    as ``several.moves``' ``run`` lists them (a run before the runs it begins); row k of
    ``MV`` the k-th move's codes (``tile << 2 | end``), ``MN[k]`` its tile count. ``SD``:
    scratch, a column per depth (``_S_``); ``S``: scratch sets, ``_CAND``... blocks of
    ``most + 1`` (``jit_masks``). How many moves."""
    most = CODE[SEV + MOST]
    at = CODE[SEV + TILES_AT]
    D = most + 1
    n = 0
    for e in range(2):
        d = 0
        _open(S, D, 0, H, hi, L, R, SD, PM, at)
        c = (_CAND_R if e else _CAND) * D   # the end's candidates, a set a depth
        while d >= 0:
            t = after(S, c + d, -1)
            if t < 0:
                d -= 1
                continue
            take(S, c + d, t)
            lv, rv = SD[_S_LEFT, d], SD[_S_RIGHT, d]
            v = rv if e else lv
            if not _allowed(S, D, d, SD, t, v, at, CODE, F, TAB, TEAMS, sides, N, deck, stack):
                continue
            SD[_S_TILE, d] = t
            if d >= 1:   # a run of two or more: a move
                for i in range(d + 1):
                    MV[n, i] = SD[_S_TILE, i] << 2 | e
                MN[n] = d + 1
                n += 1
            if d + 1 < most:   # the run goes on from the number t leaves
                w = PIPS[t] - v
                h = _after_laid(S, D, d, t)
                d += 1
                _open(S, D, d, S, h, lv if e else w, w if e else rv, SD, PM, at)
    return n


@njit(refcounts=False)
def _next_of(S, D, d):
    """The placement of depth ``d``'s candidates to try next, the left end's first, as
    its code, -1 when none is left; the candidates lose it."""
    t = after(S, _CAND * D + d, -1)
    if t >= 0:
        take(S, _CAND * D + d, t)
        return t << 2
    t = after(S, _CAND_R * D + d, -1)
    if t >= 0:
        take(S, _CAND_R * D + d, t)
        return t << 2 | 1
    return -1


@njit(refcounts=False)
def after_double(H, hi, L, R, PM, PIPS, TL, TH, CODE, SEV, F, TAB, TEAMS, sides, N, deck,
                 stack, MV, MN, SD, S):
    """``several.moves`` for ``move: after_double`` on a line: a double on either end, then
    another tile on either end, the move going on after each double, up to ``most``
    tiles, in ``several.moves``' order (end by end, tile by tile, depth first); into
    ``MV`` and ``MN``; how many moves. ``TL``, ``TH``: the tiles' halves (a double's are
    one number); ``SD``, ``S``: as ``chain_line``'s."""
    most = CODE[SEV + MOST]
    at = CODE[SEV + TILES_AT]
    D = most + 1
    n = 0
    d = 0
    _open(S, D, 0, H, hi, L, R, SD, PM, at)
    while d >= 0:
        c = _next_of(S, D, d)
        if c < 0:
            d -= 1
            continue
        t, e = c >> 2, c & 3
        if d == 0 and TL[t] != TH[t]:   # the first tile: a double
            continue
        lv, rv = SD[_S_LEFT, d], SD[_S_RIGHT, d]
        v = rv if e else lv
        if not _allowed(S, D, d, SD, t, v, at, CODE, F, TAB, TEAMS, sides, N, deck, stack):
            continue
        SD[_S_TILE, d] = c
        if d >= 1:   # two tiles or more: a move
            for i in range(d + 1):
                MV[n, i] = SD[_S_TILE, i]
            MN[n] = d + 1
            n += 1
        if d + 1 < most and TL[t] == TH[t]:   # a double: the move goes on
            w = PIPS[t] - v
            h = _after_laid(S, D, d, t)
            d += 1
            _open(S, D, d, S, h, lv if e else w, w if e else rv, SD, PM, at)
    return n


@njit(refcounts=False)
def _hash(A, i, ends):
    """A position's slot in a dead table (``dead_at``): its hand ``A[i]`` and ends mixed."""
    if A.ndim == 1:
        return (A[i] * 0x9E3779B1 + ends) & (DEAD - 1)
    x = ends
    for w in range(A.shape[1]):
        x = x * 0x9E3779B1 + A[i, w]
    return x & (DEAD - 1)


@njit(refcounts=False)
def _same_hand(DT, k, A, i):
    """Whether slot ``k`` of a dead table keeps the hand ``A[i]`` (its words' rows)."""
    if A.ndim == 1:
        return DT[0, k] == A[i]
    for w in range(A.shape[1]):
        if DT[w, k] != A[i, w]:
            return False
    return True


@njit(refcounts=False)
def _keep_hand(DT, k, A, i):
    """Slot ``k`` of a dead table keeps the hand ``A[i]``."""
    if A.ndim == 1:
        DT[0, k] = A[i]
    else:
        for w in range(A.shape[1]):
            DT[w, k] = A[i, w]


@njit(refcounts=False)
def search(DT):
    """A new search's number in the dead table ``DT`` (``dead_at``: positions kept by an
    older search are not this one's)."""
    g = DT.shape[0] - 1
    DT[g, DEAD] += 1
    return DT[g, DEAD]


@njit(refcounts=False)
def dead_at(DT, A, i, ends, gen, put):
    """Whether the position (the hand ``A[i]``, a set as ``jit_masks`` names it; ``ends``:
    its ends as one number, > 0) is known dead in search ``gen`` (``several.whole_hand``'s
    ``dead``: an open-addressed table whose rows are the hand's words, 1 on a narrow set,
    then its ends and search: ``W + 2`` rows); with ``put``, it is from now on (while the
    table has room). A line's search and ``jit_several_arms``' both keep their positions
    here."""
    g = DT.shape[0] - 1
    k = _hash(A, i, ends)
    for _ in range(DEAD):
        if DT[g, k] != gen:
            if put:
                _keep_hand(DT, k, A, i)
                DT[g - 1, k], DT[g, k] = ends, gen
            return False
        if DT[g - 1, k] == ends and _same_hand(DT, k, A, i):
            return True
        k = (k + 1) & (DEAD - 1)
    return False


@njit(refcounts=False)
def whole_hand(H, hi, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack, MV, MN,
               SD, S, DT):
    """``several.whole_hand`` on a line: the first order (end by end, tile by tile, depth
    first) in which every tile of ``H[hi]`` goes down, each on either end; a position
    found dead is tried once (``DT``: ``dead_at``'s table). Into ``MV[0]`` and ``MN[0]``;
    1, or 0 when there is none. ``SD``, ``S``: as ``chain_line``'s."""
    size = count(H, hi)
    if size < 2:
        return 0
    at = CODE[SEV + TILES_AT]
    D = CODE[SEV + MOST] + 1
    gen = search(DT)
    d = 0
    _open(S, D, 0, H, hi, L, R, SD, PM, at)
    while d >= 0:
        lv, rv = SD[_S_LEFT, d], SD[_S_RIGHT, d]
        c = _next_of(S, D, d)
        if c < 0:   # every order from here fails: dead
            dead_at(DT, S, _HAND_SET * D + d, lv * 64 + rv + 1, gen, True)
            d -= 1
            continue
        t, e = c >> 2, c & 3
        v = rv if e else lv
        if not _allowed(S, D, d, SD, t, v, at, CODE, F, TAB, TEAMS, sides, N, deck, stack):
            continue
        SD[_S_TILE, d] = c
        if d + 1 == size:   # the hand is out: the move
            for i in range(size):
                MV[0, i] = SD[_S_TILE, i]
            MN[0] = size
            return 1
        w = PIPS[t] - v
        nl, nr = (lv, w) if e else (w, rv)
        h = _after_laid(S, D, d, t)
        if dead_at(DT, S, h, nl * 64 + nr + 1, gen, False):
            continue
        d += 1
        _open(S, D, d, S, h, nl, nr, SD, PM, at)
    return 0


@njit(refcounts=False)
def moves(H, hi, L, R, PM, PIPS, TL, TH, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack, MV,
          MN, SD, S, DT):
    """The moves of several tiles on a line for the hand ``H[hi]``, of the kind the rule
    names (``KIND``): into ``MV`` and ``MN`` (each move's tile count); how many. ``SD``,
    ``S``, ``DT``: the searches' scratch (columns a depth; sets, ``SET_BLOCKS`` blocks of
    ``most + 1``: ``jit_masks``; ``dead_at``'s table); ``TL``, ``TH``: the tiles' halves."""
    kind = CODE[SEV + KIND]
    if kind == CHAIN:
        return chain_line(H, hi, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck,
                          stack, MV, MN, SD, S)
    if kind == AFTER_DOUBLE:
        return after_double(H, hi, L, R, PM, PIPS, TL, TH, CODE, SEV, F, TAB, TEAMS, sides,
                            N, deck, stack, MV, MN, SD, S)
    if kind == WHOLE_HAND:
        return whole_hand(H, hi, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck,
                          stack, MV, MN, SD, S, DT)
    n = line_moves(H, hi, L, R, PM, PIPS, CODE, SEV, F, TAB, TEAMS, sides, N, deck, stack, MV,
                   S)
    for k in range(n):
        MN[k] = 2
    return n


@njit(refcounts=False)
def _kth(M, iL, iR, k):
    """The k-th single placement in the canonical order (the left end's tiles ``M[iL]``,
    then the right's)."""
    n_left = count(M, iL)
    if k < n_left:
        return kth(M, iL, k) << 2
    return kth(M, iR, k - n_left) << 2 | 1


@njit(refcounts=False)
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


@njit(refcounts=False)
def _weigh(code, MV, MN, H, hi, L, R, PM, PIPS, VALUES, w_play2, w_domino2, S):
    """``strategist._weigh_line`` in half points: twice the value shed, ``W_PLAYABLE``
    for each tile left that fits an end the move leaves, ``W_DOMINO`` for the last tile
    (the hand ``H[hi]``; ``S[0]`` scratch: what is left of it)."""
    copy(S, 0, H, hi)
    shed = 0
    for i in range(MN[code - MOVE] if code >= MOVE else 1):
        c = MV[code - MOVE, i] if code >= MOVE else code
        t = c >> 2
        if c & 3:
            R = PIPS[t] - R
        else:
            L = PIPS[t] - L
        take(S, 0, t)
        shed += VALUES[t]
    playable = count_and_or(S, 0, PM, L, PM, R)
    return 2 * shed + w_play2 * playable + (0 if nonempty(S, 0) else w_domino2)


@njit(refcounts=False)
def pick(kind, p, seed, N, WS, M, iL, iR, nm, at_will, MV, MN, H, hi, L, R, PM, PIPS, VALUES,
         CODE, SEV, TIE, S):
    """Seat ``p``'s option (``kind``: 0 random, 1 greedy, 2 strategist) among the single
    placements ``M[iL]``/``M[iR]`` and the ``nm`` moves of ``MV``, listed in that order: a
    placement's code, ``MOVE + k`` for the k-th move, or -2 for a pass at will (random's
    last option). Random and greedy read one word of the seat's; the strategist one on a
    tie only (``StrategistBot._several``). The hand ``H[hi]``; ``S[0]`` scratch (sets:
    ``jit_masks``)."""
    nfit = count(M, iL) + count(M, iR)
    total = nfit + nm
    if kind == 0:
        k = (seat_word(seed, p, N, WS) * (total + at_will)) >> 32
        if k == total:
            return -2
        return _kth(M, iL, iR, k) if k < nfit else MOVE + k - nfit
    count_ = 0
    best = -(1 << 62)
    w_play2, w_domino2 = CODE[SEV + W_PLAYABLE2], CODE[SEV + W_DOMINO2]
    for i in range(total):
        code = _kth(M, iL, iR, i) if i < nfit else MOVE + i - nfit
        if kind == 1:
            v = _shed(code, MV, MN, VALUES, 2)
        else:
            v = _weigh(code, MV, MN, H, hi, L, R, PM, PIPS, VALUES, w_play2, w_domino2, S)
        if v > best:
            best = v
            count_ = 0
        if v == best:
            TIE[count_] = code
            count_ += 1
    if kind == 1 or count_ > 1:   # greedy reads a word always, the strategist on a tie
        return TIE[(seat_word(seed, p, N, WS) * count_) >> 32]
    return TIE[0]
