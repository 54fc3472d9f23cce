"""Hidden hands played from the front of a row (``deal.blind``) on the JIT, in numba.

``engine.mechanisms.blind`` over the kernel's arrays: each seat's row is a ring in
``ROWS[seat]`` (its front at ``head[seat]``, ``count[seat]`` tiles long), held to the
mechanism by ``tests/test_kernel_jit_deal.py``. The ``GEN`` lines of ``jit_loop``
ask it under the switch ``BLIND`` (``jit_house.params``) only, so a ruleset without it
pays a test of a constant a turn.
"""

from __future__ import annotations

from .jit import njit


@njit
def rows_of(deck, N: int, size: int, ROWS, head, count) -> None:
    """The rows as dealt: seat ``s`` holds ``deck[s * size:(s + 1) * size]`` in order,
    front first (``blind.rows_of``)."""
    for s in range(N):
        for i in range(size):
            ROWS[s, i] = deck[s * size + i]
        head[s] = 0
        count[s] = size


@njit
def front(ROWS, head, s: int) -> int:
    """The tile seat ``s`` turns up this turn: its row's first (``blind.front``)."""
    return ROWS[s, head[s]]


@njit
def pop_front(ROWS, head, count, s: int) -> None:
    """The front tile was placed: the row goes on from the next."""
    head[s] = head[s] + 1 if head[s] + 1 < ROWS.shape[1] else 0
    count[s] -= 1


@njit
def to_back(ROWS, head, count, s: int) -> None:
    """A front tile that does not fit goes face down to the back (``blind.to_back``)."""
    size = ROWS.shape[1]
    back = head[s] + count[s]
    ROWS[s, back - size if back >= size else back] = ROWS[s, head[s]]
    head[s] = head[s] + 1 if head[s] + 1 < size else 0

