"""Tiles left over after the deal go to a named player (``deal.leftover``).

When the hands do not take the whole set and the game never draws (the Block game),
the plain rule sets the tiles left over aside, out of play (``boneyard``). Some tables
give them to a player instead: the round's leader (``leader``), or the seat before
the leader, the one that plays last in the first turn order (``before_leader``). The
leader must be known before the deal is looked at (a lot, a rotation, a formula):
``validate`` refuses a lead chosen from the hands, and a ruleset that draws.

Written once: the match loop (``engine.general_loop``) and the rulebook
(``engine.rulebook``) both ask ``receiver`` and ``sizes``. The record's ``deal``
lists the receiving seat's hand with the tiles left over in it, and an empty
boneyard, as today's hands are written (docs/records.md).

>>> receiver("before_leader", 0, lambda s: (s + 1) % 3, 3), receiver("leader", 2, None, 3)
(2, 2)
>>> receiver("boneyard", 0, None, 3) is None
True
>>> sizes(9, 3, 28, 1)
[9, 10, 9]

``receiver_piece`` is the same rule for the JIT kernel (a kernel piece, ``engine.pieces``):
the rule a code (``LEFTOVER_CODES``); the kernel's ``GEN`` lines ask it under the switch
``LEFT_TO`` only and put the tiles after the hands into that seat's hand
(``jit_masks.put_each``, either width). ``tests/test_kernel_jit_deal.py`` holds it to
``receiver``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..pieces import piece
from .turn_up import before_piece

# deal.leftover as a code (LEFT_TO): set aside, to the leader, to the seat before the leader
LEFT_BONEYARD, LEFT_LEADER, LEFT_BEFORE_LEADER = 0, 1, 2
LEFTOVER_CODES = {"boneyard": LEFT_BONEYARD, "leader": LEFT_LEADER,
                  "before_leader": LEFT_BEFORE_LEADER}


def receiver(rule: str, leader: int, next_seat: Callable[[int], int] | None,
             players: int) -> int | None:
    """The seat the tiles left over go to, or None when they stay in the boneyard."""
    if rule == "leader":
        return leader
    if rule == "before_leader":
        assert next_seat is not None
        return next(s for s in range(players) if next_seat(s) == leader)
    return None


def sizes(size: int, players: int, tiles: int, seat: int | None) -> list[int]:
    """Each seat's hand as dealt: ``size`` tiles, and the receiving seat the rest of the
    ``tiles`` of the set too (none when ``seat`` is None)."""
    out = [size] * players
    if seat is not None:
        out[seat] += tiles - size * players
    return out


@piece
def receiver_piece(code: int, leader: int, N: int, RIGHT: int) -> int:
    """The seat the tiles left over go to, or -1 when they stay out of play
    (``leftover.receiver``)."""
    if code == LEFT_LEADER:
        return leader
    if code == LEFT_BEFORE_LEADER:
        return before_piece(leader, N, RIGHT)
    return -1

