"""Why an action is illegal, in the rules' own terms (the ``play`` UI shows this)."""

from __future__ import annotations

from .actions import Action
from .core import OPEN, PLAY, SEEK
from .tiles import Tile, bits


def explain_illegal(state, action: Action) -> str:
    """One sentence saying why ``action`` is not allowed for the player to act."""
    d = state.decision()
    if d is None:
        return "the match is over"
    game = state.game
    rules = game.rules
    ts = game.tileset
    _, hand, left, right, mL, mR, can_draw, can_pass, phase, drawn, pos = d
    held = ts.tiles_of(hand)
    playable = [ts.tiles[t] for t in bits(mL | mR)]
    if phase == SEEK:
        return ("nobody can open yet: players draw in turn until the opening tile "
                f"{_tile_name(rules.opening_tile)} is found, so you must draw")
    if action.kind == "pass":
        if playable:
            return f"you hold a playable tile ({playable[0]}), so you may not pass"
        return "you may still draw, so you may not pass"
    if action.kind == "draw":
        if phase == OPEN and mL.bit_count() == 1 and rules.opening_tile != "any":
            return f"the round opens with {ts.tiles[bits(mL)[0]]} at once: no draw before it"
        if phase == OPEN and drawn == 0 and not rules.voluntary_draw:
            return "voluntary draws are not allowed: you must open"
        if rules.draw_limit is not None and drawn >= rules.draw_limit:
            return (f"you have drawn {drawn} tile{'s' * (drawn != 1)} this turn, "
                    f"the most the rules allow")
        draw_end = ts.tile_count - rules.reserve
        if pos >= draw_end:
            if pos < ts.tile_count:
                return (f"the last {rules.reserve} tile{'s' * (rules.reserve != 1)} of the "
                        "boneyard are never drawn")
            return "the boneyard is empty"
        if playable and not rules.voluntary_draw:
            return f"voluntary draws are not allowed: you can place {playable[0]}"
        if phase == OPEN:
            return "you must open now"
        return "a player with no playable tile passes at once under these rules"
    tile = action.tile
    if tile not in held:
        return f"you do not hold {tile}"
    if phase == OPEN:
        if action.end is not None:
            return f"the opening tile is placed without an end: write just {tile}"
        required = rules.opening_tile
        if mL.bit_count() == 1:
            return f"the round must open with {ts.tiles[bits(mL)[0]]}"
        return f"{tile} may not open this round ({_tile_name(required)} must)"
    assert phase == PLAY
    t = ts.index[tile]
    if action.end is None:
        if mL >> t & 1 and mR >> t & 1:
            return f"{tile} fits both ends: write {tile} left or {tile} right"
        if (mL | mR) >> t & 1:
            return f"{tile} fits the {'left' if mL >> t & 1 else 'right'} end only"
        return f"{tile} matches neither open end ({left} and {right})"
    value = left if action.end == "left" else right
    return f"{tile} does not match the {action.end} end ({value})"


def _tile_name(required) -> str:
    if isinstance(required, str):
        return "the highest double" if required == "highest_double" else "any tile"
    return str(Tile(*required))
