"""``hint``: the strongest available bot's move for the player to act, and why.

The bot sees exactly what the player sees (their Observation), through the same
bot API as in simulation. ``expert`` is preferred (its reason gives its playouts'
numbers), then ``strategist``; when neither can be loaded ``greedy`` stands in. A bot
may explain itself with ``explain(obs, legal) -> (action, reason)``; otherwise the
reason is built from facts of the position (the tile's value, the number it leaves
open and how many of the player's tiles match it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..bots import make_bot, resolve
from ..diagnostics import DiagnosticError
from ..engine.actions import Action
from ..engine.board import END_NAMES

PREFERRED = ("expert", "strategist", "greedy")


@dataclass(frozen=True)
class Hint:
    bot: str
    action: Action
    reason: str

    def __str__(self) -> str:
        return f"{self.bot} would play {self.action}: {self.reason}"


def strongest_bot() -> str:
    """The first preferred bot that loads."""
    for name in PREFERRED:
        try:
            resolve(name)
            return name
        except DiagnosticError:
            continue
    return "random"


def suggest(state, seat: int) -> Hint:
    """Ask the strongest bot what ``seat`` (the player to act) should do now."""
    name = strongest_bot()
    # Its own RNG stream: asking for a hint never changes the match.
    rng = random.Random(f"{state.seed}:hint{seat}:{len(state.record)}")
    bot = make_bot(name, seat, rng)
    obs = state.observation(seat)
    legal = state.legal_actions()
    explain = getattr(bot, "explain", None)
    if callable(explain):  # the bot tells its own reason: explain(obs, legal) -> (action, why)
        action, reason = explain(obs, legal)
    else:
        action, reason = bot.choose(obs, legal), ""
    if isinstance(action, str):
        action = state.parse_action(action)
    reason = reason.removeprefix(f"{action}: ")  # the hint names the move once
    return Hint(name, action, reason or why(obs, legal, action))


def why(obs, legal: Sequence[Action], action: Action) -> str:
    """Plain facts that make ``action`` sensible in this position."""
    places = [a for a in legal if a.kind == "place"]
    if action.kind == "pass":
        return "you can neither place a tile nor draw"
    if action.kind == "draw":
        if places:
            return "it would rather see another tile than play one of these now"
        return "none of your tiles fits an open end"
    if action.kind == "several":   # play.several: a move of several tiles
        worth = sum(obs.tile_values[p.tile] for p in action.parts)
        return (f"it lays {len(action.parts)} tiles at once, worth {worth} together, so they "
                "will not count against you if the round blocks")
    if not places:
        return "it is the only way to play"
    tile = action.tile
    facts = []
    value = obs.tile_values[tile]
    best = max(obs.tile_values[a.tile] for a in places)
    if value == best and len({a.tile for a in places}) > 1:
        facts.append(f"{tile} is worth {value}, the most of your playable tiles, "
                     "so it will not count against you if the round blocks")
    elif len({a.tile for a in places}) == 1:
        facts.append(f"{tile} is your only playable tile")
    rest = [t for t in obs.hand if t != tile]
    if action.end is None and obs.ends is None:
        opened = {tile.low, tile.high}
    else:
        # the end it goes on, by name (a spinner's up and down too), shows its other half
        matched = obs.ends[END_NAMES.index(action.end)] if action.end else obs.ends[0]
        opened = {tile.pips - matched}
    for value_open in sorted(opened, reverse=True):
        n = sum(1 for t in rest if value_open in (t.low, t.high))
        if n:
            facts.append(f"it leaves a {value_open} open and you hold {n} more "
                         f"tile{'s' * (n != 1)} with a {value_open}")
    if tile.is_double:
        facts.append("it gets a double out of your hand (a double fits only one number)")
    if not facts:
        facts.append(f"{tile} is worth {value}")
    return "; ".join(facts)
