"""Two sets shuffled together (``set.copies: 2``) on the JIT, in numba.

A tile's two copies sit side by side (indexes ``2k`` and ``2k + 1``: ``engine.tiles``),
each a tile of its own to the deal, the hands and the settlement, so the kernel needs
one rule of its own: a tile held twice is one move, its first copy
(``TileSet.canonical``), held to it by ``tests/test_kernel_jit_deal.py``. The ``GEN``
lines of ``jit_loop`` ask it under the switch ``SECONDS`` (the second copies' mask,
0 for a single set: ``jit_house.params``), one test of a constant a turn otherwise. On a
set over 62 tiles the mask is ``W`` words in ``CODE`` (``SECONDS`` says where) and
``canonical_at`` asks the same rule of a ``jit_masks`` set word by word: a word holds
an even number of tiles (``jit_bits.BITS``), so a tile's two copies share one.
"""

from __future__ import annotations

from .jit import njit


@njit
def canonical(m: int, seconds: int) -> int:
    """``m`` with one copy of each tile it holds twice, the first: the tiles a seat's
    moves are listed from (``TileSet.canonical``)."""
    return m ^ ((m & (m >> 1)) << 1 & seconds)


@njit
def canonical_at(A, i: int, CODE, seconds: int) -> None:
    """``canonical`` of the set ``A[i]`` in place, the second copies as the kernel's
    ``SECONDS`` gives them: a narrow kernel's mask itself, a wide one's place in ``CODE``
    (``W`` words there)."""
    if A.ndim == 1:
        A[i] = canonical(A[i], seconds)
    else:
        for w in range(A.shape[1]):
            A[i, w] = canonical(A[i, w], CODE[seconds + w])
