"""Hidden rows (``deal.blind``) at a turn of the JIT kernel, over ``jit_masks`` sets, in numba.

The rows themselves are ``engine.mechanisms.blind``'s pieces (a ring a seat, its front
tile at its head); what a turn asks of them beside is here: only the row's front tile
may go down (``blind.only_front``), and a seat whose row has no tile fitting any end is
stuck (``blind.counts_as_stuck``). Written over ``jit_masks`` (a set is an array and an
index), so a set of any width runs it; the narrow turn keeps its four ends' masks in
locals and does the same inline. ``tests/test_kernel_jit_gen_wide.py`` holds the wide
kernel to the Python engine on hidden rows.
"""

from __future__ import annotations

from .jit import njit
from .jit_masks import clear, has, nonempty, put


@njit
def front_only(M, rows, ne: int, t: int) -> int:
    """Keep tile ``t``, the row's front, alone in each open end's set ``M[rows[e]]``
    (the first ``ne``); 1 when no tile of the row fitted an end (the seat is stuck),
    else 0."""
    fitted = 0
    for e in range(ne):
        fitted |= nonempty(M, rows[e])
        held = has(M, rows[e], t)
        clear(M, rows[e])
        if held:
            put(M, rows[e], t)
    return 0 if fitted else 1
