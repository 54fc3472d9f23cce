"""A match won during play, in numba: ``engine.mechanisms.match.reached_in_play`` for the
JIT kernel's GEN lines (``match.ends_in_play``).

``jit_events.fire`` asks ``reached_in_play`` after each event rule's points, as the match
loop asks the mechanism; when a side has won, the round stops unsettled (its result
``target``: ``jit_loop``'s ``R_RESULT`` 2). The mechanism stays the truth:
``tests/test_kernel_jit_table.py`` holds this function to it.
"""

from __future__ import annotations

from .jit import njit


@njit
def reached_in_play(scores, sides, target):
    """The side alone at the highest of ``scores[:sides]``, at or over ``target``; -1:
    none (nobody there yet, or a tie at the top)."""
    best = scores[0]
    at = 0
    for s in range(1, sides):
        if scores[s] > best:
            best = scores[s]
            at = s
    if best < target:
        return -1
    for s in range(sides):
        if s != at and scores[s] == best:
            return -1
    return at
