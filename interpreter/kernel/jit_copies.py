"""Two sets shuffled together (``set.copies: 2``) on the JIT, in numba.

A tile's two copies sit side by side (indexes ``2k`` and ``2k + 1``: ``engine.tiles``),
each a tile of its own to the deal, the hands and the settlement, so the kernel needs
one rule of its own: a tile held twice is one move, its first copy
(``TileSet.canonical``), held to it by ``tests/test_kernel_jit_deal.py``. The ``GEN``
lines of ``jit_loop`` ask it under the switch ``SECONDS`` (the second copies' mask,
0 for a single set: ``jit_house.params``), one test of a constant a turn otherwise.
"""

from __future__ import annotations

from .jit import njit


@njit
def canonical(m: int, seconds: int) -> int:
    """``m`` with one copy of each tile it holds twice, the first: the tiles a seat's
    moves are listed from (``TileSet.canonical``)."""
    return m ^ ((m & (m >> 1)) << 1 & seconds)
