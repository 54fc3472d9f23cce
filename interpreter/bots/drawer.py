"""``drawer``: ``greedy``, but it takes voluntary draws when its best placement is poor.

``random`` and ``greedy`` draw only when they must, so a rule about voluntary draws
(allowed or forbidden, what a draw costs) never comes into their play; this bot lets
the explorer measure such rules. Its placement is greedy's (the tile worth most, ties
broken by ``int(rng.random() * ties)``), except that a placement *leaves a follow-up*
when some tile left in the hand would fit one of the open ends it leaves. When no
placement does, the rules let it draw now, it still holds ``MIN_HAND`` tiles or more
(early in the round, when a tile more costs least) and the boneyard still holds a
drawable tile for every player, it draws one tile instead (once a turn), then places
greedily. It draws and passes like ``random`` when it has no placement, and reads only
its own hand, the open ends and the boneyard's count.

Measured against ``greedy`` in plain Draw (each seed played with
the drawer in every seat):
drawing whenever no placement leaves a follow-up won 9% of 2-player matches (each tile
drawn late is points for the opponent who goes out); drawing only early, as here, wins
47% at 2 players (142 of 300) and 33% at 3 (149 of 450): a fair share, about even.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.actions import Action
from ..engine.observation import Observation
from .base import declaring, draw_or_pass
from .greedy import shed

MOST_DRAWS = 1          # voluntary draws in one turn: a longer hand costs points
MIN_HAND = 5            # tiles held, at least, for a voluntary draw: only early in a round
ENDS = ("left", "right", "up", "down")


def leaves_follow_up(obs: Observation, action: Action) -> bool:
    """True when, after ``action``, a tile still in the hand fits one of the open ends."""
    tile = action.tile
    ends = list(obs.ends or ())
    if not ends or tile is None:
        return True                          # the opening: any tile may follow it
    at = ENDS.index(action.end) if action.end in ENDS else 0
    ends[at] = tile.low + tile.high - ends[at] if at < len(ends) else tile.high
    rest = list(obs.hand)
    rest.remove(tile)
    return any(t.low in ends or t.high in ends for t in rest)


class DrawerBot:
    """Greedy placements; a voluntary draw instead of a placement that leaves it stuck."""

    name = "drawer"

    def __init__(self, seat: int, rng: random.Random):
        self.seat = seat
        self.rng = rng

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        declared = declaring(obs, legal)
        if declared is not None:
            return declared[0]
        # a move of several tiles (play.several) is weighed as greedy weighs it: what it sheds
        places = [a for a in legal if a.kind in ("place", "several")]
        if not places:
            return draw_or_pass(legal)
        draw = next((a for a in legal if a.kind == "draw"), None)
        if (draw is not None and obs.drawn_this_turn < MOST_DRAWS
                and len(obs.hand) >= MIN_HAND and obs.drawable >= obs.players
                and not any(leaves_follow_up(obs, a) for a in places if a.kind == "place")):
            return draw
        best = max(shed(obs, a) for a in places)
        ties = [a for a in places if shed(obs, a) == best]
        return ties[int(self.rng.random() * len(ties))]
