"""The fit rule in numba: ``engine.mechanisms.matching``'s tables as the JIT kernel reads them.

A ruleset with ``matching`` (a fit formula, wild tiles) compiles its rule once into
``Game.fit`` (``matching.fit_tables``): per end value the tiles that fit it (the kernel's
``PM``, as the match loop's), those that fit it two ways, and per tile the number each
way leaves open. ``tables`` lays the last three out flat at the end of the GEN lines'
``CODE`` array, never writing the rule again; the kernel reads them with ``left_open``
and picks the uniform bot's placement with ``uniform_pick``, in the loop's canonical
order (``general_loop.kth_placement``: end by end, tile by tile, a tile's first way
before its second, then a pass at will when ``play.passing`` allows one).
``tests/test_kernel_jit_board.py`` holds both to the loop's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.actions import PASS  # the uniform pick's pass at will (the GEN lines' -2)
from .jit import njit
from .jit_support import low_index, popcount

if TYPE_CHECKING:
    from ..engine.game import Game

# a placement's code ``tile << 2 | end`` with this bit: the tile's second way round
FLIP = 1 << 32


def tables(game: Game, words: int = 0) -> list[int]:
    """``Game.fit``'s tables, flat: per end value the tiles fitting it two ways (a mask;
    ``words``: a wide kernel's, ``jit_bits``, as that many words), then for each way
    (first, second), per end value, per tile the number left open (-1: it does not fit
    that way); ``[]`` for the same-number rule."""
    if game.fit is None:
        return []
    _, two, first, second = game.fit
    if words:
        from .jit_bits import wide
        out = [int(x) for x in wide(list(two), words).reshape(-1)]
    else:
        out = list(two)
    for way in (first, second):
        for row in way:
            out += row
    return out


@njit
def left_open(CODE, at, values, tiles, end, t, flip):
    """The number tile ``t`` leaves open on an end showing ``end``, laid its first way
    round (``flip`` 0) or its second (1); ``at``: where ``tables`` starts in ``CODE``,
    ``values`` the end values (max_pip + 1), ``tiles`` the set's size."""
    return CODE[at + values + (flip * values + end) * tiles + t]


@njit
def uniform_pick(word, m0, m1, m2, m3, f0, f1, f2, f3, at_will):
    """The uniform bot's placement (``general_loop``: ``(word * options) >> 32``-th) among
    the tiles ``m0..m3`` fitting the four ends and ``f0..f3`` of them fitting two ways:
    ``tile << 2 | end``, with ``FLIP`` for a tile's second way; with ``at_will`` (1: a
    pass at will is allowed, ``turn_options.now``) one more option, the last: ``PASS``."""
    n = (popcount(m0) + popcount(m1) + popcount(m2) + popcount(m3) + popcount(f0)
         + popcount(f1) + popcount(f2) + popcount(f3))
    k = (word * (n + at_will)) >> 32
    if k == n:   # the pass at will, after every placement (general_loop's order)
        return PASS
    return kth_placement(k, m0, m1, m2, m3, f0, f1, f2, f3)


@njit
def kth_placement(k, m0, m1, m2, m3, f0, f1, f2, f3):
    """The ``k``-th placement in the general loop's order: end by end, tile by tile, a
    tile fitting its end two ways (``f0..f3``) then its second way (``FLIP``); -1 past
    the last."""
    for e in range(4):
        m = m0 if e == 0 else m1 if e == 1 else m2 if e == 2 else m3
        f = f0 if e == 0 else f1 if e == 1 else f2 if e == 2 else f3
        while m:
            b = m & -m
            m ^= b
            if not k:
                return low_index(b) << 2 | e
            k -= 1
            if f & b:
                if not k:
                    return low_index(b) << 2 | e | FLIP
                k -= 1
    return -1
