"""Board shapes in numba: ``engine.mechanisms.layout``'s ``Layout`` for the JIT kernel's GEN lines.

A ``board.layout`` board is one int64 array (``LB``, ``BOARD_SIZE`` long): every end the
round opened has an id, given in the order ends open, so ascending ids are the order
``Layout.ends`` keeps (a dict: an end laid on keeps its place, a closed one leaves it);
per id its value, whether a double lies there, whether it was covered, whether it is an
arm, the seat owning it (a train; -1 nobody's), its name as a code (``name_of``) and the
tile lying there (``Table.at_end``: the last laid on it, an untouched arm or train its
double; ``end_tiles`` in events).
Beside them: the open ids as bits, the ends to cover first in the order they were laid
(``Layout.answer``), the spinners waiting for bare sides (``Layout.waiting``), the
doubles that spun (by their number: a set's doubles are at most 21, so one int64 holds
them on a set of any size, and both copies of a double with ``set.copies: 2``, as
``Layout.spun`` holds tiles by value), what dead arms count, the seats whose marker is
down. The shape is one number (``code``, the kernel's ``LAYOUT`` parameter) read into
``SH`` by ``unpack``.

Each function here ports the ``Layout`` method of its name, one for one; ``Layout``
stays the truth and ``tests/test_kernel_jit_layout.py`` holds these to it, placement by
placement, and whole matches to the Python engine's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .jit import njit
from .jit_formula import FACT, run
from .jit_masks import after, copy, has, join, meet, nonempty, put
from .jit_masks import clear as clear_set
from .jit_template import SHAPED_ENDS

if TYPE_CHECKING:
    from ..engine.mechanisms.layout import Shape

MAXID = SHAPED_ENDS            # ends a round may open (their ids are bits of one int64)
WAITS = 16                     # spinners waiting for their bare sides at once, at most
# LB's fields: per id (MAXID each) value, double, covered, arm, owner, name, tile; then
VAL, DBL, COV, ARM, OWN, NAME, TIL = (k * MAXID for k in range(7))
OPEN = 7 * MAXID               # the open ends' ids, as bits
NEXT = OPEN + 1                # the next id
ANS_N = OPEN + 2               # Layout.answer: how many, then the ids in order
ANS = OPEN + 3
WAIT_N = ANS + MAXID           # Layout.waiting: how many, then tile, value and bare ids
WAIT_T = WAIT_N + 1
WAIT_V = WAIT_T + WAITS
WAIT_B = WAIT_V + WAITS
SPUN = WAIT_B + WAITS          # len(Layout.spun), then the spun doubles' numbers as bits
SPUN_M = SPUN + 1
DEAD = SPUN + 2                # sum(Layout.dead.values())
MARKED = SPUN + 3              # Layout.marked, as bits
TILES = SPUN + 4               # len(Layout.tiles), then the first tile's pips, doubles down
FIRST_PIPS = SPUN + 5
DOUBLES = SPUN + 6
BOARD_SIZE = SPUN + 7
# SH's fields (unpack)
(S_ONE_END, S_SPINS, S_SIDES, S_OPENING_SIDES, S_THROUGH, S_AT_ONCE, S_ANSWER_FIRST, S_DEAD,
 S_TRAINS, S_SHARED, S_MARKERS, S_ANSWER_DOUBLES, S_LISTS, S_TWICE) = range(14)
SHAPE_N = 14
# and beside the shape: formulas read the open ends as lists (S_LISTS: list_facts after each
# placement), and the set holds every tile twice (S_TWICE: copies 2k and 2k + 1)
# Shape.spins as S_SPINS: these, or the one spinning tile's index
SPINS_NONE, SPINS_FIRST, SPINS_EVERY = -1, -2, -3
# NAME's codes: the line's ends, the shared train, seat s's train (TRAIN - s); an arm
# k of the double t is t * 64 + k
LEFT, RIGHT, SHARED, TRAIN = -1, -2, -3, -10


def code(shape: Shape, index: dict, lists: bool = False, twice: bool = False) -> int:
    """``shape`` as one number (the ``LAYOUT`` parameter; 0: no layout): ``index`` maps a
    tile (low, high) to its index (its first copy's), for a shape whose spinner is one
    tile; ``lists``: some
    formula reads the open ends as lists (``list_facts``); ``twice``: ``set.copies: 2``
    (a double spins only while no copy of it has: ``Shape.spins_tile``)."""
    spins = {"none": SPINS_NONE, "first_double": SPINS_FIRST, "every_double": SPINS_EVERY}
    s = spins.get(shape.spins) if isinstance(shape.spins, str) else None
    if s is None:
        s = index[tuple(sorted(shape.spins))]
    flags = (shape.through, shape.arms_open == "at_once", shape.answer_first, shape.dead_arms,
             shape.trains, bool(shape.shared_train), shape.markers, shape.answer_doubles,
             lists, twice)
    packed = 1 | (shape.ends == 1) << 1 | (s + 4) << 2 | shape.sides << 10 \
        | shape.opening_sides << 16
    for k, flag in enumerate(flags):
        packed |= int(flag) << (22 + k)
    return packed


def most_ends(shape: Shape, players: int, doubles: int) -> int:
    """The most ends a round under ``shape`` may open, ``doubles`` the set's: a train a
    seat and the shared one, or the line's two and each double's arms (the opening
    double's ``opening_sides`` when the line does not go through it)."""
    if shape.trains:
        return players + 1
    return max(2 + doubles * shape.sides,
               (shape.opening_sides or shape.sides) + (doubles - 1) * shape.sides)


@njit
def unpack(packed, SH):
    """The shape's fields from its number (``code``) into ``SH``."""
    SH[S_ONE_END] = (packed >> 1) & 1
    SH[S_SPINS] = ((packed >> 2) & 255) - 4
    SH[S_SIDES] = (packed >> 10) & 63
    SH[S_OPENING_SIDES] = (packed >> 16) & 63
    for k in range(10):
        SH[S_THROUGH + k] = (packed >> (22 + k)) & 1


@njit
def clear(LB):
    """An empty board: a new round's."""
    for i in range(BOARD_SIZE):
        LB[i] = 0


@njit
def spins_tile(SH, LB, t, low, high):
    """``Shape.spins_tile``: whether tile ``t`` spins, laid now (not a double whose number
    spun already: with ``S_TWICE`` its other copy)."""
    if low != high or (LB[SPUN_M] >> low) & 1:
        return False
    s = SH[S_SPINS]
    if s == SPINS_EVERY:
        return True
    if s == SPINS_FIRST:
        return LB[SPUN] == 0
    return s == (t & -2 if SH[S_TWICE] else t)   # (either copy: s is the first's index)


@njit
def _new_end(LB, value, double, arm, owner, name, tile):
    """An end opens (it is listed after every end open before it), ``tile`` lying there:
    its id."""
    i = LB[NEXT]
    LB[NEXT] = i + 1
    LB[VAL + i], LB[DBL + i], LB[COV + i], LB[ARM + i] = value, double, 0, arm
    LB[OWN + i], LB[NAME + i], LB[TIL + i] = owner, name, tile
    LB[OPEN] |= 1 << i
    return i


@njit
def _answer(LB, i):
    """``answer.append``: end ``i`` is to be covered before the others."""
    LB[ANS + LB[ANS_N]] = i
    LB[ANS_N] += 1


@njit
def _open_arms(SH, LB, t, value, count):
    """``Layout._open_arms``: the spinning double ``t`` (of number ``value``) opens
    ``count`` arms."""
    if not (LB[SPUN_M] >> value) & 1:
        LB[SPUN] += 1
        LB[SPUN_M] |= 1 << value
    if SH[S_DEAD]:   # attachments: never played on, counted in end totals
        LB[DEAD] += value * count
        return
    for k in range(1, count + 1):
        i = _new_end(LB, value, 1, 1, -1, t * 64 + k, t)
        if SH[S_ANSWER_FIRST]:
            _answer(LB, i)


@njit
def _spin(SH, LB, t, value, bare):
    """``Layout._spin``: its arms wait for the sides ``bare`` (ids as bits), or open."""
    if SH[S_AT_ONCE]:
        _open_arms(SH, LB, t, value, SH[S_SIDES])
        return
    LB[SPUN] += 1
    LB[SPUN_M] |= 1 << value
    k = LB[WAIT_N]
    LB[WAIT_T + k], LB[WAIT_V + k], LB[WAIT_B + k] = t, value, bare
    LB[WAIT_N] = k + 1


@njit
def place_open(SH, LB, t, low, high, N):
    """``Layout.place(tile, None)``: the opening tile ``t`` (``low``, ``high``), for ``N``
    seats (one train each, with trains)."""
    double = 1 if low == high else 0
    spins = spins_tile(SH, LB, t, low, high)
    LB[TILES] += 1
    LB[FIRST_PIPS] = low + high
    LB[DOUBLES] += double
    if SH[S_TRAINS]:   # the station: every train starts from it
        for s in range(N):
            _new_end(LB, high, double, 1, s, TRAIN - s, t)
        if SH[S_SHARED]:
            _new_end(LB, high, double, 1, -1, SHARED, t)
        return
    if spins and not SH[S_THROUGH]:
        _open_arms(SH, LB, t, low, SH[S_OPENING_SIDES] or SH[S_SIDES])
        return
    bare = 0
    if not SH[S_ONE_END]:
        bare |= 1 << _new_end(LB, low, double, 0, -1, LEFT, t)
    bare |= 1 << _new_end(LB, high, double, 0, -1, RIGHT, t)
    if spins:
        _spin(SH, LB, t, low, bare)


@njit
def place(SH, LB, t, low, high, at, seat):
    """``Layout.place(tile, at, seat=seat)``: tile ``t`` on the open end of id ``at`` by
    ``seat`` (its own train: its marker comes up)."""
    double = 1 if low == high else 0
    spins = spins_tile(SH, LB, t, low, high)
    LB[TILES] += 1
    LB[DOUBLES] += double
    value = low + high - LB[VAL + at]
    n = LB[ANS_N]
    for k in range(n):   # answer.remove(at)
        if LB[ANS + k] == at:
            for j in range(k, n - 1):
                LB[ANS + j] = LB[ANS + j + 1]
            LB[ANS_N] = n - 1
            break
    if seat >= 0 and LB[OWN + at] == seat:
        LB[MARKED] &= ~(1 << seat)   # its owner plays on it again: the marker comes up
    k = 0
    while k < LB[WAIT_N]:   # the spinners this side was bare for, in the order they spun
        bare = LB[WAIT_B + k]
        if (bare >> at) & 1:
            bare &= ~(1 << at)
            LB[WAIT_B + k] = bare
            if not bare:
                spinner, v = LB[WAIT_T + k], LB[WAIT_V + k]
                for j in range(k, LB[WAIT_N] - 1):
                    LB[WAIT_T + j] = LB[WAIT_T + j + 1]
                    LB[WAIT_V + j] = LB[WAIT_V + j + 1]
                    LB[WAIT_B + j] = LB[WAIT_B + j + 1]
                LB[WAIT_N] -= 1
                _open_arms(SH, LB, spinner, v, SH[S_SIDES])
                continue
        k += 1
    if spins and not SH[S_THROUGH]:   # the double ends this end; its arms grow from it
        LB[OPEN] &= ~(1 << at)
        _open_arms(SH, LB, t, low, SH[S_SIDES])
        return
    LB[VAL + at], LB[DBL + at], LB[COV + at], LB[TIL + at] = value, double, 1, t
    if double and SH[S_ANSWER_DOUBLES]:   # the double waits to be covered
        _answer(LB, at)
    if spins:
        _spin(SH, LB, t, low, 1 << at)


@njit
def open_to(LB, i, seat):
    """``Layout.open_to``: whether ``seat`` may play on end ``i``."""
    owner = LB[OWN + i]
    return owner < 0 or owner == seat or (LB[MARKED] >> owner) & 1 == 1


@njit
def playable(SH, LB, seat, PE):
    """``Layout.playable(seat)`` into ``PE`` (the ends' ids, in its order): their count.
    ``seat`` -1: any seat."""
    n = LB[ANS_N]
    if n:
        for k in range(n):
            PE[k] = LB[ANS + k]
        return n
    m = LB[OPEN]
    while m:
        b = m & -m
        m ^= b
        i = 0
        while (b >> i) != 1:
            i += 1
        if not SH[S_TRAINS] or seat < 0 or open_to(LB, i, seat):
            PE[n] = i
            n += 1
    return n


@njit
def fits(SH, LB, seat, H, hi, PM, PE, FM, FT, ft):
    """``GeneralLoop._fits`` on a shaped board: the ends open to ``seat`` into ``PE``, the
    tiles of the hand ``H[hi]`` each takes into ``FM`` (a set a row: ``jit_masks``), all
    of them into ``FT[ft]``; (their count, whether any fits, whether more than one end
    takes some)."""
    n = playable(SH, LB, seat, PE)
    ends = 0
    clear_set(FT, ft)
    for k in range(n):
        if meet(FM, k, H, hi, PM, LB[VAL + PE[k]]):
            join(FT, ft, FM, k)
            ends += 1
    return n, ends > 0, ends > 1


@njit
def pick(word, greedy, at_will, FM, n, VALUES, ties):
    """A bot's placement among ``FM``'s (a set a row: ``jit_masks``), coded ``t << 8 | k``
    (``k`` the end's place in ``playable``): the uniform pick among all of them and a
    pass at will (-2, the last option: ``kth_placement``), or ``greedy``'s most valuable
    tile, ties broken by the seat's word in that same order (``GreedyBot.choose``)."""
    count = 0
    best = -(1 << 62)
    for k in range(n):
        t = after(FM, k, -1)
        while t >= 0:
            if greedy:
                v = VALUES[t]
                if v > best:
                    best = v
                    count = 0
                if v == best:
                    ties[count] = t << 8 | k
                    count += 1
            else:
                ties[count] = t << 8 | k
                count += 1
            t = after(FM, k, t)
    if greedy:
        return ties[(word * count) >> 32]
    j = (word * (count + at_will)) >> 32
    return -2 if j == count else ties[j]


@njit
def passed(SH, LB, seat):
    """``Layout.passed``: with markers, ``seat``'s goes down; True when it was not down."""
    if not SH[S_MARKERS] or (LB[MARKED] >> seat) & 1:
        return False
    LB[MARKED] |= 1 << seat
    return True


@njit
def end_total(LB):
    """``Layout.end_total``: a lone tile its pips, a double at an end both halves, an arm
    nothing until a tile lies on it, dead arms their double's number each."""
    if LB[TILES] == 1:
        return LB[FIRST_PIPS]
    total = LB[DEAD]
    m = LB[OPEN]
    while m:
        b = m & -m
        m ^= b
        i = 0
        while (b >> i) != 1:
            i += 1
        if LB[COV + i] or not LB[ARM + i]:
            total += LB[VAL + i] * (2 if LB[DBL + i] else 1)
    return total


_SHAPED_N, _SHAPED_END, _SHAPED_TILE = FACT["shaped_n"], FACT["shaped_end0"], FACT["shaped_tile0"]


@njit
def list_facts(LB, F):
    """The open ends as events read them (``ends``, ``end_tiles``: ``Layout.values`` and
    ``Table.end_tiles``) into ``F`` for ``jit_formula``'s lists over them: how many, then
    each one's value and the tile lying there, in the order they opened (ids ascending)."""
    n = 0
    m = LB[OPEN]
    while m:
        b = m & -m
        m ^= b
        i = 0
        while (b >> i) != 1:
            i += 1
        F[_SHAPED_END + n] = LB[VAL + i]
        F[_SHAPED_TILE + n] = LB[TIL + i]
        n += 1
    F[_SHAPED_N] = n


@njit
def arm_of(LB, i):
    """``Layout.arm_of``: which arm the end of id ``i`` is (0 the line or a train, k arm
    k of its double)."""
    name = LB[NAME + i]
    return name & 63 if name >= 0 else 0


@njit
def spinners_complete(LB):
    """``Layout.spinners_complete``: no spinner waits for a side or an arm."""
    return LB[WAIT_N] == 0 and LB[ANS_N] == 0


_TILE, _END, _ARM = FACT["tile"], FACT["end"], FACT["arm"]
_COMPLETE, _DOUBLES_DOWN = FACT["spinners_complete"], FACT["doubles_down"]


@njit
def _sure(FK, k, FM, CODE, at):
    """``FK[k] = FM[k] & CODE[at:at + W]`` (``W`` the words of a set, 1 for a mask): the
    end's tiles allowed whatever else holds, ``W`` words per end number in ``CODE``."""
    if FM.ndim == 1:
        FK[k] = FM[k] & CODE[at]
    else:
        for w in range(FM.shape[1]):
            FK[k, w] = FM[k, w] & CODE[at + w]


@njit
def allowed(FM, FK, PE, n, LB, waive, CODE, at, sure, F, TAB, TEAMS, sides, N, deck, stack,
            FT, ft):
    """``general_loop.allowed_at`` on a shaped board (its ``shaped`` facts: each end's
    ``arm``, ``spinners_complete``, ``doubles_down``): the tiles of each of the ``n`` ends'
    ``FM`` (a set a row: ``jit_masks``) that every placement restriction (the program at
    ``CODE[at]``; ``sure``: per end number, the tiles allowed whatever else holds, a set's
    words each) allows there, in place, or all of them again with ``waive`` when none is;
    their union into ``FT[ft]``; (whether any fits, whether two or more ends take some).
    ``F`` holds the turn's hand, playable tiles and boneyard already."""
    F[_COMPLETE] = 1 if spinners_complete(LB) else 0
    F[_DOUBLES_DOWN] = LB[DOUBLES]
    W = 1 if FM.ndim == 1 else FM.shape[1]
    kept = 0
    for k in range(n):
        v = LB[VAL + PE[k]]
        _sure(FK, k, FM, CODE, sure + v * W)
        asked = 0
        t = after(FM, k, -1)
        while t >= 0:
            if not has(FK, k, t):
                if not asked:
                    F[_END] = v
                    F[_ARM] = arm_of(LB, PE[k])
                    asked = 1
                F[_TILE] = t
                if run(CODE, at, F, TAB, TEAMS, sides, N, deck, stack):
                    put(FK, k, t)
            t = after(FM, k, t)
        kept |= nonempty(FK, k)
    if kept or not waive:   # if_none_allowed: waive keeps them all
        for k in range(n):
            copy(FM, k, FK, k)
    clear_set(FT, ft)
    ends = 0
    for k in range(n):
        if nonempty(FM, k):
            join(FT, ft, FM, k)
            ends += 1
    return ends > 0, ends > 1


def name_of(name: int, TL, TH, shared: str) -> str:
    """An end's ``NAME`` code as ``Layout`` names it: ``left``, ``train 2``, ``5-5/3``."""
    if name == LEFT:
        return "left"
    if name == RIGHT:
        return "right"
    if name == SHARED:
        return shared
    if name <= TRAIN:
        return f"train {TRAIN - name}"
    t, k = divmod(name, 64)
    return f"{TH[t]}-{TL[t]}/{k}"
