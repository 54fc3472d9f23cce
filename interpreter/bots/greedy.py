"""``greedy``: place the tile worth most by the ruleset's tile values.

Ties between equally valued placements (the same canonical order as ``random``)
are broken by ``int(rng.random() * ties)``; it draws and passes like ``random``.
Under ``play.several`` a move of several tiles is worth the sum of its tiles' values,
so the move shedding most goes down (such rulesets play without the bitmask policy).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.actions import DRAW, PASS, Action
from ..engine.observation import Observation
from .base import declaring, draw_or_pass


def shed(obs: Observation, action: Action) -> int:
    """What a placement sheds: its tile's value, or a several-tile move's tiles' sum."""
    if action.kind == "several":
        return sum(obs.tile_values[p.tile] for p in action.parts)
    return obs.tile_values[action.tile]


class GreedyBot:
    """Sheds the most valuable tile first, so a blocked hand counts least."""

    name = "greedy"

    def __init__(self, seat: int, rng: random.Random):
        self.seat = seat
        self.rng = rng

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        declared = declaring(obs, legal)
        if declared is not None:   # a declaration: the fixed policy (claim the true worth)
            return declared[0]
        # a tile that fits an end either way round (a fit rule) is placed the first way, as
        # the policy over masks places it: the way round does not change what it sheds
        places = [a for a in legal if a.kind == "place"
                  and (a.meets is None or a.meets == a.tile.low)]
        places += [a for a in legal if a.kind == "several"]   # play.several: a whole move
        if places:
            best = max(shed(obs, a) for a in places)
            ties = [a for a in places if shed(obs, a) == best]
            return ties[int(self.rng.random() * len(ties))]
        return draw_or_pass(legal)

    def policy(self, game):
        """The same choice over bitmasks."""
        rnd = self.rng.random
        values = game.values

        def choose(mL: int, mR: int, can_draw: bool, mU: int = 0, mD: int = 0) -> int:
            ties: list[int] = []
            best = None
            for end, m in enumerate((mL, mR, mU, mD)):   # up, down: a spinner's arms
                while m:
                    low = m & -m
                    m ^= low
                    t = low.bit_length() - 1
                    v = values[t]
                    if best is None or v > best:
                        best, ties = v, [t << 2 | end]
                    elif v == best:
                        ties.append(t << 2 | end)
            if ties:
                return ties[int(rnd() * len(ties))]
            return DRAW if can_draw else PASS

        return choose
