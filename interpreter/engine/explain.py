"""Why an action is illegal, in the rules' own terms (the ``play`` UI shows this)."""

from __future__ import annotations

from .actions import Action
from .board import END_NAMES
from .decision import DECLARE, OPEN, PLAY, SEEK
from .mechanisms.declarations import why_not
from .mechanisms.layout import arm_words
from .mechanisms.matching import FitRule, placements
from .mechanisms.opening import rule_of as opening_rule_of
from .tiles import Tile, bits


def explain_illegal(state, action: Action) -> str:
    """One sentence saying why ``action`` is not allowed for the player to act."""
    d = state.decision()
    if d is None:
        return "the match is over"
    game = state.game
    rules = game.rules
    ts = game.tileset
    hand, phase, drawn, pos = d.hand, d.phase, d.drawn, d.pos
    mL = d.left_mask
    held = ts.tiles_of(hand)
    every = 0   # the tiles the decision lets the player place, at any end (a spinner's too)
    for m in d.masks:
        every |= m
    playable = [ts.tiles[t] for t in bits(every)]
    # play.several: the moves may all be of several tiles, which no single mask holds
    move = str(playable[0]) if playable else next(
        (str(a) for a in state.legal_actions() if a.kind == "several"), None) \
        if d.several else None
    if phase == DECLARE or action.kind in ("declare", "claim"):   # in the rule's words
        return why_not(d.declaration if phase == DECLARE else None, rules, action)
    if phase == SEEK:
        return _explain_seek(state, rules)
    if action.kind == "pass":
        if playable:
            return f"you hold a playable tile ({playable[0]}), so you may not pass"
        if move is not None:
            return f"you can play {move}, so you may not pass"
        return "you may still draw, so you may not pass"
    if action.kind == "draw":
        if phase == OPEN and mL.bit_count() == 1 and opening_rule_of(
                rules, state.round).tile != "any":
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
        if move is not None and not rules.voluntary_draw:
            return f"voluntary draws are not allowed: you can place {move}"
        if phase == OPEN:
            return "you must open now"
        return "a player with no playable tile passes at once under these rules"
    if action.kind == "several":
        return _explain_several(state, d, action, held)
    tile = action.tile
    if rules.blind and not (playable and tile == playable[0]):   # deal.blind: a hidden row
        if playable:
            return (f"only your row's front tile may be played, and it is {playable[0]}: "
                    "the rest of the row stays face down")
        return "your row's front tile fits nowhere: you must pass, and it goes to the back"
    if tile not in held:
        return f"you do not hold {tile}"
    if phase == OPEN:
        if action.end is not None:
            return f"the opening tile is placed without an end: write just {tile}"
        op = opening_rule_of(rules, state.round)   # the round's own (mechanisms.opening)
        if op.explain and op.allow is not None:
            return op.explain
        required = op.tile
        if mL.bit_count() == 1:
            return f"the round must open with {ts.tiles[bits(mL)[0]]}"
        return f"{tile} may not open this round ({_tile_name(required)} must)"
    assert phase == PLAY
    # the copy the action means: the lowest one held (set.copies), as the loop lists it
    return _explain_place(state, d, action, tile, state.game.tileset.held_index(tile, d.hand))


def _explain_place(state, d: tuple, action: Action, tile: Tile, t: int) -> str:
    """Why a held tile may not go where ``action`` puts it, from what decides it: the
    decision's open ends and masks, the tables of the tiles each value fits (the fit
    rule's, if any), and the loop's own restriction check (``why_forbidden``), for any
    board and rules; a shaped board's layout says it in its own words."""
    core = state._core
    if d.names:   # a shaped board: its layout says why, in the rule's words
        return _explain_shaped(core, d, action, tile, t)
    ends = [v for v in d.ends if v is not None]
    value_mask = state.game.setup(state.players).value_mask   # the fit rule's, if any
    fits = [e for e, v in enumerate(ends) if value_mask[v] >> t & 1]
    fit = state.game.rules.fit
    if action.end is not None:
        if action.end not in END_NAMES[:len(ends)]:
            return (f"there is no {action.end} end yet: the open ends are "
                    + ", ".join(END_NAMES[:len(ends)]))
        e = END_NAMES.index(action.end)
        if e not in fits:
            if fit is not None:
                return f"{tile} does not fit the {action.end} end ({ends[e]}): {_fit_rule(fit)}"
            return f"{tile} does not match the {action.end} end ({ends[e]})"
        if fit is not None and action.meets is not None:
            halves = [h for h, _ in placements((tile.low, tile.high), ends[e], fit)]
            if action.meets not in halves:
                return (f"the {action.meets} of {tile} cannot meet the {action.end} end "
                        f"({ends[e]}): {_fit_rule(fit)}; the {halves[0]} can")
        fits = [e]
    if not fits:
        if fit is not None:
            shown = ", ".join(str(v) for v in ends)
            return f"{tile} fits no open end ({shown}): {_fit_rule(fit)}"
        if len(ends) == 2:
            return f"{tile} matches neither open end ({ends[0]} and {ends[1]})"
        return f"{tile} matches no open end ({', '.join(str(v) for v in ends)})"
    for e in fits:
        why = core.why_forbidden(d.player, t, e)
        if why:
            return why
    rule = state.game.rules.several
    if rule is not None and not any(d.masks[e] >> t & 1 for e in fits):   # play.several.alone
        return rule.explain or f"{tile} may not go down alone now: lay several tiles at once"
    allowed = [e for e in fits if d.masks[e] >> t & 1]
    if action.end is None and len(allowed) > 1:
        return ambiguous(tile, [END_NAMES[e] for e in allowed])
    return f"{tile} may not be placed now"


def _explain_several(state, d: tuple, action: Action, held) -> str:
    """Why a typed move of several tiles (``6-1 left + 5-2 right``) is not allowed: the
    shape of the move (``mechanisms.several``), a tile's own placement, or ``tiles``."""
    rule = state.game.rules.several
    if rule is None:
        return "a move lays one tile under these rules: write one placement, like 6-4 left"
    if d.phase != PLAY:
        return "the round opens with one tile: write it alone"
    parts = action.parts
    for p in parts:
        if p.tile not in held:
            return f"you do not hold {p.tile}"
    if len({p.tile for p in parts}) < len(parts):
        return "a tile goes down once: the move names one twice"
    if rule.whole_hand:   # play.several.move: whole_hand
        offered = [str(a) for a in state.legal_actions() if a.kind == "several"]
        if len(parts) != len(held):
            return (f"a move of several tiles lays the whole hand ({len(held)} tiles), "
                    "shown and laid down at once")
        if offered:
            return "your whole hand goes down in this order: write " + offered[0]
        return "your hand cannot all go down one tile after another now"
    if rule.after_double:   # play.several.move: after_double
        if len(parts) > rule.most:
            return f"a move lays at most {rule.most} tiles"
        plain = next((p.tile for p in parts[:-1] if p.tile.low != p.tile.high), None)
        if plain is not None:
            return (f"a move goes on only after a double: {plain} is not one, so it must be "
                    "the move's last tile")
        offered = [str(a) for a in state.legal_actions() if a.kind == "several"]
        return ("each tile must fit where it goes once those before it lie; the moves "
                "allowed now are " + (", ".join(offered) or "none"))
    if rule.chain:   # play.several.move: chain, a run on one end
        if len(parts) > rule.most:
            return f"a run lays at most {rule.most} tiles"
        if len({p.end for p in parts}) > 1:
            return "a run lays its tiles on one end, each on the one before"
        offered = [str(a) for a in state.legal_actions() if a.kind == "several"]
        why = (f"every tile of a run must meet {rule.tiles_text} and fit the tile before it"
               if rule.tiles_text else "every tile of a run must fit the tile before it")
        return why + "; the runs allowed now are " + (", ".join(offered) or "none")
    if len(parts) > rule.most:
        return f"a move lays at most {rule.most} tiles, one on each end"
    ends = [p.end for p in parts]
    if None in ends:   # no legal move lays these tiles in this order (State._resolve_several)
        same = [str(a) for a in state.legal_actions() if a.kind == "several"
                and sorted(p.tile for p in a.parts) == sorted(p.tile for p in parts)]
        if same:
            return "the tiles of a move go down in end order, left first: write " + same[0]
        return "name each tile's end in a move of several tiles, like 6-1 left + 5-2 right"
    if len(set(ends)) < len(ends):
        return "a move of several tiles lays one tile on each end, never two on one end"
    ways = state.halves(action)   # a fit rule's tile named without the half it turns
    if len(ways) > 1:
        return ("a tile of this move fits its end either way round: write "
                + " or ".join(str(a) for a in ways) + " (the half against the end)")
    if all(e in END_NAMES for e in ends) and ends != sorted(ends, key=END_NAMES.index):
        laid = sorted(parts, key=lambda p: END_NAMES.index(p.end))
        return ("the tiles of a move go down in end order, left first: write "
                + " + ".join(str(p) for p in laid))
    ts = state.game.tileset
    first = parts[0]
    if first.end is not None and not any(
            m >> ts.index[first.tile] & 1 for m in d.masks) and not any(
            a.parts[0] == first for a in state.legal_actions() if a.kind == "several"):
        why = _explain_place(state, d, first, first.tile, ts.index[first.tile])
        if why != rule.explain:
            return why
    if rule.tiles_text:
        return (f"every tile of a move of several must meet {rule.tiles_text}, and each must "
                "fit where it goes once those before it lie")
    offered = [str(a) for a in state.legal_actions() if a.kind == "several"]
    if offered:
        return "the moves of several tiles allowed now are " + ", ".join(offered)
    return "no move of several tiles fits now: each tile must fit where it goes"


def _fit_rule(fit: FitRule) -> str:
    """The fit rule in its own words: its formula, and the wild tiles."""
    said = (f"a half must meet an end so that {fit.text}" if fit.text
            else "a half must show the end's number")
    if fit.wild:
        wild = ", ".join(str(Tile(*w)) for w in sorted(fit.wild))
        said += f", and only the wild tiles ({wild}) go anywhere"
    return said


def _explain_shaped(core, d: tuple, action: Action, tile: Tile, t: int) -> str:
    """Why ``action`` may not go where it says on a ``board.layout`` board: the layout's
    words, else the placement rule's ``explain``."""
    layout = core.board.layout
    pair = (tile.low, tile.high)
    if action.end is not None:
        why = layout.why_not(pair, action.end, d.player) or core.why_forbidden_on(
            d.player, t, action.end)
        if why:
            return why
        return f"{tile} may not be placed on {arm_words(action.end)} now"
    allowed = [name for e, name in enumerate(d.names) if d.masks[e] >> t & 1]
    if len(allowed) > 1:
        return f"{tile} fits " + ", ".join(allowed) + ": say which end"
    shown = ", ".join(f"{name} ({value})" for name, value in layout.playable(d.player))
    return f"{tile} matches no end a tile may go on now: {shown}"


def ambiguous(tile: Tile, ends: list[str]) -> str:
    """The one wording of a tile written without an end that fits several: ``State``
    refuses with it, and ``explain_illegal`` says it."""
    if len(ends) == 2:
        return f"{tile} fits both ends: write {tile} {ends[0]} or {tile} {ends[1]}"
    shown = [f"{tile} {end}" for end in ends]
    return f"{tile} fits {len(ends)} ends: write " + ", ".join(shown[:-1]) + f" or {shown[-1]}"


def _explain_seek(state, rules) -> str:
    """Why only a draw is allowed while nobody holds the tile that opens the round: the
    tile named, or (an ``allow`` over any tile) the opening rule's own explanation."""
    op = opening_rule_of(rules, state.round)   # the round's own (mechanisms.opening)
    if op.tile != "any":
        return ("nobody can open yet: players draw in turn until "
                f"{_tile_name(op.tile)} is found, so you must draw")
    explain = op.explain
    return ("nobody can open yet: players draw in turn until a tile that may open is found"
            + (f" ({explain})" if explain else "") + ", so you must draw")


def _tile_name(required) -> str:
    if isinstance(required, str):
        return "the highest double" if required == "highest_double" else "any tile"
    return str(Tile(*required))
