"""What the JIT kernel writes down of a match for its record, in numba: a log of tokens.

A record (``docs/records.md``) is mostly placements, draws and passes, each one of a few
thousand lines fixed by the seat, the tile and the end: the kernel writes each as one
integer, the index of its text in ``jit_trace``'s table (``place_token``, ``draw_token``
and ``pass_token`` below say which). The few lines that carry numbers (the match's start, a
deal, a round's end, the match's end) are items in a second array ``DAT`` (a kind, then
their numbers); the kernel logs the token ``DYN + j`` for the batch's j-th item, and
``jit_trace`` turns each item into its line with the record encoder. So the record's
format is written once, in Python; the kernel only says what happened.

``LOG`` empty means no records: every write in ``jit_template`` is behind ``if REC``, a
test of one local the kernel reads once a batch.
"""

from __future__ import annotations

from .jit import njit

# the kinds of DAT's items, first number of each
K_START, K_DEAL, K_ROUND, K_END = 0, 1, 2, 3


def log_bound(N: int, T: int, at_will: bool = False) -> int:
    """Tokens one deal and the round it opens may log, with the match's end and the next
    match's start: a deal, every tile drawn (a seek, the turns, or a boneyard drawn out in
    vain) and placed, the passes (fewer than ``N`` between two draws or placements; with
    passing at will, fewer than ``2 * N``: the idle turns that block a round), the
    round's end, the match's end and the next start."""
    return 1 + 2 * T + T + (2 * N if at_will else N) * (2 * T + 2) + 3


def dat_bound(N: int, T: int, sides: int, variables: int) -> int:
    """``DAT``'s numbers for the same: a deal, a round's end, the match's end, a start."""
    return (3 + N + T) + (4 + N + 2 * sides + variables) + (2 + sides) + 2


@njit
def place_token(N, T, p, t, end):
    """A placement's token: ``end`` 0 for the opening tile (end null), 1 left, 2 right."""
    return (p * T + t) * 3 + end


@njit
def draw_token(N, T, p, t):
    return 3 * N * T + p * T + t


@njit
def pass_token(N, T, p):
    return 4 * N * T + p


@njit
def dynamic(N, T):
    """The first token of a line with numbers (``DAT``'s items): after the fixed ones."""
    return 4 * N * T + N


@njit
def start_item(DAT, nd, seed):
    """The match's start: its seed (the rest is the ruleset's)."""
    DAT[nd] = K_START
    DAT[nd + 1] = seed
    return nd + 2


@njit
def deal_item(DAT, nd, rnd, leader, hands, deck, N, T):
    """A deal: its round, leader (-1: none), the hands as masks and the deck's order."""
    DAT[nd] = K_DEAL
    DAT[nd + 1] = rnd
    DAT[nd + 2] = leader
    for s in range(N):
        DAT[nd + 3 + s] = hands[s]
    for i in range(T):
        DAT[nd + 3 + N + i] = deck[i]
    return nd + 3 + N + T


@njit
def round_end_item(DAT, nd, rnd, blocked, wside, pips, points, scores, N, sides):
    """A round's end: its number, result (1: blocked), winning side (-1: none), each seat's
    hand value, each side's points and scores (the variables follow, written by the GEN
    lines)."""
    DAT[nd] = K_ROUND
    DAT[nd + 1] = rnd
    DAT[nd + 2] = blocked
    DAT[nd + 3] = wside
    nd += 4
    for s in range(N):
        DAT[nd + s] = pips[s]
    nd += N
    for i in range(sides):
        DAT[nd + i] = points[i]
        DAT[nd + sides + i] = scores[i]
    return nd + 2 * sides


@njit
def match_end_item(DAT, nd, winner, scores, sides):
    DAT[nd] = K_END
    DAT[nd + 1] = winner
    for i in range(sides):
        DAT[nd + 2 + i] = scores[i]
    return nd + 2 + sides
