"""A set of tiles read one way whatever holds it, in numba: one int64 mask or a row of words.

A kernel for a set of at most 62 tiles keeps a hand, the tiles fitting an end and the
like as one int64 mask (bit t: tile t); a kernel for a larger set keeps each as a row of
``W`` words (``jit_bits``: tile t is bit ``t % 62`` of word ``t // 62``). A piece that
walks tile sets (``jit_layout.fits``, the strategist's weighing of a shaped board, the
chains of ``jit_several_shaped``) is written once over these helpers, so the narrow kernel
and the wide one run the same source: a set is named by an array and an index (``A, i``),
``A`` one-dimensional (``A[i]`` is the mask) or two-dimensional (``A[i]`` is the row of
words). numba compiles each helper for the array it is given and cuts the other branch
(``A.ndim`` is a constant to it), so a narrow caller pays what its inline mask code cost;
a row of words is ``jit_bits``' own function.
Both ways walk the tiles in index order, the order the Python engine counts its picks in.
``tests/test_kernel_jit_masks.py`` holds both to plain Python sets.
"""

from __future__ import annotations

from . import jit_bits
from .jit import njit
from .jit_bits import BITS
from .jit_support import low_index, popcount


@njit(refcounts=False)
def has(A, i: int, t: int) -> int:
    """1 when tile ``t`` is in the set ``A[i]``, else 0."""
    if A.ndim == 1:
        return (A[i] >> t) & 1
    return jit_bits.has(A, i, t)


@njit(refcounts=False)
def put(A, i: int, t: int) -> None:
    """Add tile ``t`` to ``A[i]``."""
    if A.ndim == 1:
        A[i] |= 1 << t
    else:
        jit_bits.put(A, i, t)


@njit(refcounts=False)
def put_each(A, i: int, deck, lo: int, hi: int) -> None:
    """Add the tiles ``deck[lo:hi]`` to ``A[i]`` (the tiles a deal leaves, into a hand)."""
    for k in range(lo, hi):
        put(A, i, deck[k])


@njit(refcounts=False)
def take(A, i: int, t: int) -> None:
    """Take tile ``t`` out of ``A[i]``."""
    if A.ndim == 1:
        A[i] &= ~(1 << t)
    else:
        jit_bits.take(A, i, t)


@njit(refcounts=False)
def clear(A, i: int) -> None:
    """Empty ``A[i]``."""
    if A.ndim == 1:
        A[i] = 0
    else:
        jit_bits.clear(A, i)


@njit(refcounts=False)
def copy(A, i: int, B, j: int) -> None:
    """``A[i] = B[j]``."""
    if A.ndim == 1:
        A[i] = B[j]
    else:
        jit_bits.copy(A, i, B, j)


@njit(refcounts=False)
def meet(A, i: int, B, j: int, C, k: int) -> int:
    """``A[i] = B[j] & C[k]``; 1 when it holds a tile, else 0."""
    if A.ndim == 1:
        x = B[j] & C[k]
        A[i] = x
        return 1 if x else 0
    return jit_bits.meet(A, i, B, j, C, k)


@njit(refcounts=False)
def meet_code(A, i: int, B, j: int, CODE, at: int, v: int) -> int:
    """``A[i] = B[j] &`` the ``v``-th of the sets laid one after another in ``CODE`` from
    ``at`` (a table per end number: a narrow set's mask each, ``A``'s ``W`` words each over
    words); 1 when it holds a tile, else 0."""
    if A.ndim == 1:
        x = B[j] & CODE[at + v]
        A[i] = x
        return 1 if x else 0
    W = A.shape[1]
    any_ = 0
    for w in range(W):
        x = B[j, w] & CODE[at + v * W + w]
        A[i, w] = x
        any_ |= x
    return 1 if any_ else 0


@njit(refcounts=False)
def words_of(A) -> int:
    """The words a set of ``A`` takes: 1 for a narrow set's mask, ``W`` for a row of words
    (what a table of sets laid in ``CODE`` steps by: ``meet_code``)."""
    if A.ndim == 1:
        return 1
    return A.shape[1]


@njit(refcounts=False)
def join(A, i: int, B, j: int) -> None:
    """``A[i] |= B[j]``."""
    if A.ndim == 1:
        A[i] |= B[j]
    else:
        for w in range(A.shape[1]):
            A[i, w] |= B[j, w]


@njit(refcounts=False)
def nonempty(A, i: int) -> int:
    """1 when ``A[i]`` holds a tile, else 0."""
    if A.ndim == 1:
        return 1 if A[i] else 0
    return jit_bits.nonempty(A, i)


@njit(refcounts=False)
def shares(A, i: int, B, j: int) -> int:
    """1 when ``A[i]`` and ``B[j]`` share a tile, else 0."""
    if A.ndim == 1:
        return 1 if A[i] & B[j] else 0
    return jit_bits.meets(A, i, B, j)


@njit(refcounts=False)
def several(A, i: int) -> int:
    """1 when ``A[i]`` holds two tiles or more, else 0."""
    if A.ndim == 1:
        x = A[i]
        return 1 if x & (x - 1) else 0
    return jit_bits.several(A, i)


@njit(refcounts=False)
def count(A, i: int) -> int:
    """The tiles in ``A[i]``."""
    if A.ndim == 1:
        return popcount(A[i])
    return jit_bits.count(A, i)


@njit(refcounts=False)
def count_and(A, i: int, B, j: int) -> int:
    """The tiles in both ``A[i]`` and ``B[j]``."""
    if A.ndim == 1:
        return popcount(A[i] & B[j])
    return jit_bits.count_and(A, i, B, j)


@njit(refcounts=False)
def count_and_or(A, i: int, B, j: int, C, k: int) -> int:
    """The tiles of ``A[i]`` in ``B[j]`` or ``C[k]``."""
    if A.ndim == 1:
        return popcount(A[i] & (B[j] | C[k]))
    return jit_bits.count_and_or(A, i, B, j, C, k)


@njit(refcounts=False)
def after(A, i: int, t: int) -> int:
    """The lowest tile of ``A[i]`` above ``t`` (-1: its lowest of all), or -1 when none:
    ``t = after(A, i, -1)`` then ``t = after(A, i, t)`` walks the set in index order."""
    t += 1
    if A.ndim == 1:
        if t > BITS:
            return -1
        x = A[i] >> t << t
        return low_index(x) if x else -1
    w = t // BITS
    if w >= A.shape[1]:
        return -1
    x = A[i, w] >> (t % BITS) << (t % BITS)
    while not x:
        w += 1
        if w == A.shape[1]:
            return -1
        x = A[i, w]
    return w * BITS + low_index(x)


@njit(refcounts=False)
def kth(A, i: int, k: int) -> int:
    """The ``k``-th tile of ``A[i]`` (0: its lowest) in index order; -1 when it has fewer."""
    if A.ndim == 1:
        x = A[i]
        if k >= popcount(x):
            return -1
        while k:
            x &= x - 1
            k -= 1
        return low_index(x)
    return jit_bits.kth(A, i, k)


@njit(refcounts=False)
def put_fact(F, x: int, k: int, A, i: int) -> int:
    """``F[x] = A[i]`` as a formula program reads a set (``jit_formula``: a hand, the
    playable tiles a condition folds over); returns ``F[x]``. A narrow set is its mask; a
    set of words is copied into ``F``'s ``k``-th row of ``W`` words counted from its end
    (the kernel leaves ``2 * W`` there: the hand's row 0, the playable tiles' row 1), and
    ``F[x]`` is the place of its first word, which a program's folds over words read
    (``jit_formula.SET_FOLD``)."""
    if A.ndim == 1:
        F[x] = A[i]
    else:
        W = A.shape[1]
        at = F.shape[0] - (k + 1) * W
        for w in range(W):
            F[at + w] = A[i, w]
        F[x] = at
    return F[x]
