"""``random``: the policy statistics across projects are compared under -- keep it exact.

Placements are (tile, end) pairs in canonical order: every tile fitting the left
end in ascending tile order ((low, high) ascending), then every tile fitting the
right end the same way; a tile fitting both ends is listed twice, also when both
ends show the same value. For the opening: each tile that may open, ascending.
With ``n`` placements it picks index ``int(rng.random() * n)``. It draws only
when it has no placement and a draw is allowed, and passes only when it must --
except under ``play.passing: at_will``, where a pass allowed beside its placements is
one more option, after them: index ``n`` of ``n + 1`` (a stuck player still draws
when it may). A declaration (``declarations:``) is a decision of its own: each of its
options one choice, index ``int(rng.random() * options)``; its bitmask policy is never
asked one (the engine makes that pick on the seat's words; without them a fast policy
seat takes the fixed policy's option). Under ``play.several`` each move of several tiles
is one option, listed after the single placements (``6-1 left + 5-2 right``), and the
pick is uniform over them all: a move's count is that of complete moves, not tiles.
Under every other rule a pass never stands beside a placement, so the pick is the same
as before.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.actions import DRAW, PASS, Action
from ..engine.observation import Observation
from .base import draw_or_pass

_PASS = Action("pass")


class RandomBot:
    """Uniform among placements (and a pass at will); draw or pass only when no placement
    exists."""

    name = "random"
    uniform_pick = True  # simulation may skip this class: the engine makes the same pick

    def __init__(self, seat: int, rng: random.Random):
        self.seat = seat
        self.rng = rng

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        if legal and legal[0].kind in ("declare", "claim"):   # each option one choice
            return legal[int(self.rng.random() * len(legal))]
        # a move of several tiles (play.several) is one option, as a single placement is
        places = [a for a in legal if a.kind in ("place", "several")]
        if places:
            if _PASS in legal:   # passing at will: the pass is the last option
                places.append(_PASS)
            return places[int(self.rng.random() * len(places))]
        return draw_or_pass(legal)

    def policy(self, game):
        """The same choice over bitmasks (``engine.general_loop`` policy).

        On a seat stream (``engine.streams``) ``int(rng.random() * n)`` is
        ``(rng.next32() * n) >> 32`` exactly: the policy picks on the words, and the
        engine inlines that pick (``uniform_bits``), a pass at will included. The policy
        itself is also asked for the opening tile, where no pass is allowed, and cannot
        tell the two apart: it never passes at will (a seat stream always gives the
        inlined pick, which does, as ``choose`` does).
        """
        bits = getattr(self.rng, "next32", None)
        rnd = self.rng.random

        def choose(mL: int, mR: int, can_draw: bool, mU: int = 0, mD: int = 0) -> int:
            # mU, mD: a spinner's arms, once open (engine.general_loop)
            nL = mL.bit_count()
            n = nL + mR.bit_count() + mU.bit_count() + mD.bit_count()
            if n:
                k = (bits() * n) >> 32 if bits is not None else int(rnd() * n)
                end = 0
                for m in (mL, mR, mU, mD):
                    c = m.bit_count()
                    if k < c:
                        break
                    k -= c
                    end += 1
                while k:
                    m &= m - 1
                    k -= 1
                return ((m & -m).bit_length() - 1) << 2 | end
            return DRAW if can_draw else PASS

        if bits is not None:
            choose.uniform_bits = bits  # the engine inlines this exact pick (engine.general_loop)
        return choose
