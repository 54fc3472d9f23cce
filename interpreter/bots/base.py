"""The bot protocol: a bot sees one seat's ``Observation`` and the legal actions, nothing else.

``choose(obs, legal) -> Action`` is all a bot must offer. Builtin bots may also
offer ``policy(game)``: the same choice as a fast callable over bitmasks
(``policy(left_mask, right_mask, can_draw) -> int action``, see ``engine.general_loop``),
which simulation uses instead of building Observations. Both must consume the
bot's RNG identically, so a match gives the same record either way. The engine
does not call a policy when the only legal action is a draw or a pass, so a bot
offering ``policy`` must not use its RNG then. A policy carrying ``uniform_bits``
(the ``random`` bot's, on a seat stream) is the uniform pick itself, which the
engine inlines. A builtin bot that reads the public history (the strategist) offers
``decider(game, players)`` instead: ``decide(decision, record) -> int action`` over
the engine's decision tuple and the match record, asked at every decision of its
seat, forced ones included; a decider with ``bind(loop)`` answers as a policy of the
match loop instead, reading the record itself (see ``api.play_match``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from ..engine.actions import Action
from ..engine.observation import Observation


@runtime_checkable
class Bot(Protocol):
    """Anything with ``choose``; constructed per seat as ``Bot(seat, rng)``."""

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action: ...


class FunctionBot:
    """Wraps a plain function ``fn(obs, legal) -> Action`` as a bot."""

    def __init__(self, fn: Callable[[Observation, Sequence[Action]], Action], seat: int = 0,
                 rng: random.Random | None = None):
        self.fn = fn
        self.seat = seat
        self.rng = rng

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        return self.fn(obs, legal)

    def __repr__(self) -> str:
        return f"FunctionBot({getattr(self.fn, '__qualname__', self.fn)!r})"


def declaring(obs: Observation, legal: Sequence[Action]) -> tuple[Action, str] | None:
    """At a declaration (``phase`` declare, ``engine.mechanisms.declarations``): the fixed
    policy's option and why, which greedy, strategist, drawer and expert all take; None at
    any other decision."""
    if not legal or legal[0].kind not in ("declare", "claim"):
        return None
    action = legal[obs.best_option]
    if action.kind == "claim":
        return action, "it claims what the placement is worth"
    return action, "it takes the option that looks best (the first listed on a tie)"


def draw_or_pass(legal: Sequence[Action]) -> Action:
    """What a bot that never draws by choice does with no placement: draw if it may, else pass."""
    for a in legal:
        if a.kind == "draw":
            return a
    return Action("pass")
