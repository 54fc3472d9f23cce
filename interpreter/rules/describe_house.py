"""The rule sheet's sentences for the house-rule mechanisms (spinner, restrictions, events,
opening conditions, redeal, settlement and match options).

Each rule here is optional: its writer returns None while the ruleset leaves the key at its
default, so a plain ruleset's sheet reads exactly as it did before these mechanisms existed.
Writers still read their keys then (``_View.read``), which is how the tests know every
schema field has a sentence. Rules spelled inside existing sentences (direction, lead
formula, blocked rank/among/tie, match end and winner) live in ``describe``.
"""

from __future__ import annotations

from typing import Any

from ..expr import ExprError, ast, format_expression, parse
from .sheet import RuleLine, _plural, _rule, _side_noun, _View, opening_sentence

_OPENING_KEYS = ("tile", "opener", "if_unheld", "allow", "explain", "if_lacking")


def _quote(text: str) -> str:
    return f"\u201c{text}\u201d"


def _condition(view: _View, dotted: str) -> str | bool:
    """A boolean field: True / False when written as such, else its canonical formula."""
    raw = view.get(dotted)
    if isinstance(raw, bool):
        return raw
    return view.formula(dotted) or str(raw)


@_rule("board.spinner", "A turn", "Spinner", optional=True)
def _spinner(view: _View) -> str | None:
    if view.opt("board.spinner", "none") == "none":
        return None
    return ("The first double placed is a spinner: once both its sides are played on, it "
            "opens two more ends (up to four).")


@_rule("matching.fits", "A turn", "Fit", optional=True)
def _fits(view: _View) -> str | None:
    if view.opt("matching.fits", None) is None:
        return None
    fits = _condition(view, "matching.fits")
    if fits is True:
        return "A tile fits any open end with either half; the other half is left open."
    if fits is False:
        return "No tile fits an open end (only wild tiles can be placed)."
    return (f"A tile goes on an open end with one half against it when {fits} (end: the "
            "end's value; half: the half against it; other: the half then left open). A "
            "tile that fits an end either way round, leaving different numbers, is placed "
            "naming the half against the end (6-1 left 6).")


@_rule("matching.wild", "A turn", "Wild tiles", optional=True)
def _wild(view: _View) -> str | None:
    wild = view.opt("matching.wild", None)
    leaves = view.opt("matching.wild_leaves", "far_half")
    if wild is None:
        return None
    if isinstance(wild, list):
        named = ", ".join(w.strip("[]").replace("|", "-") for w in wild)
        which = f"The wild tiles {named} fit" if len(wild) > 1 else f"The wild tile {named} fits"
    else:
        which = f"Every tile for which {_condition(view, 'matching.wild')} is wild: it fits"
    tail = ("either way round, its far half left open" if leaves == "far_half"
            else "the end keeping the number it showed")
    return f"{which} any open end, whatever it shows, {tail}."


@_rule("matching.doubles", "A turn", "Doubles in the ends' count", optional=True)
def _doubles(view: _View) -> str | None:
    if view.opt("matching.doubles", "across") == "across":
        return None
    return ("A double lies in line, not across: at an open end it counts one number in the "
            "ends' total (end_total), like any tile.")


@_rule("board.layout", "A turn", "Board shape", optional=True)
def _layout(view: _View) -> str | None:
    if view.opt("board.layout") is None:
        return None
    get = view.opt
    one = get("board.layout.ends", "both") == "one"
    spins = get("board.layout.spins", "none")
    sides = get("board.layout.sides", 2)
    opening = get("board.layout.opening_sides") or sides
    through = get("board.layout.through", True)
    at_once = get("board.layout.arms_open", "after_sides") == "at_once"
    first = get("board.layout.answer_first", False)
    dead = get("board.layout.dead_arms", False)
    answer_doubles = (" A double laid at an end must be covered (answered) before a tile "
                      "goes on any other end, whoever owns that end; a player who cannot "
                      "cover it draws or passes as usual." if get("board.layout.answer_doubles",
                                                                  False) else "")
    if get("board.layout.trains", False):
        return _trains(get) + answer_doubles
    line = ("The line grows at one end only: the opening tile's higher half stays open, and "
            "every tile goes on the line's far end." if one else
            "A line opened by a tile that does not spin grows at both ends.")
    if spins == "none":
        return line + " No double spins: doubles lie crosswise in the line." + answer_doubles
    which = {"first_double": "The first double placed in a round",
             "every_double": "Every double"}.get(spins) or f"The {_tile_words(spins)}"
    arms = _plural(sides, "arm")
    if through:
        grow = (f"{which} spins: it lies crosswise in the line, the line goes on beyond it, "
                f"and it opens {arms} of its own")
        when = (" at once" if at_once else
                ", once each of its sides along the line has a tile on it")
    else:
        grow = (f"{which} spins: it ends the line or arm it was played on, and {arms} grow "
                f"from it")
        when = f" (a double that opens the round: {_plural(opening, 'arm')})"
        if opening == sides:
            when = ""
    answer = (" Every arm of a spinning double must have a tile on it before a tile goes on "
              "any other end." if first else "")
    if dead:
        return (f"{line} {grow}{when}. Its arms never take a tile, but each counts the "
                "double's value in end totals.")
    return (f"{line} {grow}{when}. Arms are named by their double and number (5-5/3 is arm "
            f"3 of the 5-5); an arm counts in end totals once a tile lies on it.{answer}"
            f"{answer_doubles}")


def _trains(get) -> str:
    """``board.layout.trains``: a board of several lines, who may play on which."""
    out = ("The opening double is a station: every player's own train grows from it at one "
           "end, named by its owner's seat (train 0, train 1, ...)")
    shared = get("board.layout.shared_train", "")
    if shared:
        out += f", and so does one shared train, named {shared}, which any player may play on"
    out += ". A player may play on their own train"
    if shared:
        out += f" and on the {shared} train"
    if get("board.layout.markers", False):
        out += (", and on any train whose owner's marker is down: a player who passes puts "
                "their marker on their own train, and takes it up when they next play on it. "
                "A marker put down opens a train, so the passes before it do not block the "
                "round")
    else:
        out += "; nobody else may"
    return out + ". Doubles lie crosswise on a train and do not branch."


def _tile_words(text: str) -> str:
    """``"[6|6]"`` as players write it: ``6-6``."""
    a, b = (int(x) for x in text.strip("[]").split("|"))
    return f"{max(a, b)}-{min(a, b)}"


def _restriction_line(view: _View, i: int) -> RuleLine:
    view.formulas = []
    allow = _condition(view, f"play.restrictions.{i}.allow")
    explain = view.get(f"play.restrictions.{i}.explain")
    if allow is True:
        text = "Every placement is allowed."
    elif allow is False:
        text = "No placement is allowed."
    else:
        text = f"A placement must meet: {allow} \u2014 otherwise: {_quote(explain)}."
    return RuleLine(f"play.restrictions[{i}]", f"Placement rule {i + 1}", text,
                    tuple(view.formulas))


@_rule("play.restrictions", "A turn", "Placement rules", optional=True)
def _restrictions(view: _View) -> list[RuleLine]:
    return [_restriction_line(view, i) for i in range(len(view.opt("play.restrictions", [])))]


@_rule("play.if_none_allowed", "A turn", "Nothing allowed", optional=True)
def _if_none_allowed(view: _View) -> str | None:
    how = view.opt("play.if_none_allowed", "stuck")
    if not view.opt("play.restrictions", []) and how == "stuck":
        return None
    if how == "stuck":
        return ("A player whose playable tiles the placement rules all forbid counts as "
                "having no playable tile.")
    if how == "pass":
        return ("A player whose playable tiles the placement rules all forbid passes, "
                "without drawing.")
    return ("When the placement rules forbid every playable tile a player holds, they are "
            "lifted for that turn.")


@_rule("drawing.exactly", "A turn", "Exact draws", optional=True)
def _exactly(view: _View) -> str | None:
    n = view.opt("drawing.exactly")
    if n is None:
        return None
    then = ("." if view.opt("drawing.ends_turn", False)
            else ", and only then plays a tile if able, else passes.")
    if n == 1:
        return f"A player who draws draws one tile only{then}"
    return (f"A player who draws draws {n} tiles in a row, even when one of them "
            f"fits (fewer only when the boneyard runs out){then}")


@_rule("drawing.ends_turn", "A turn", "Drawing ends the turn", optional=True)
def _ends_turn(view: _View) -> str | None:
    if not view.opt("drawing.ends_turn", False):
        return None
    tiles = ("the tiles" if view.opt("drawing.exactly") is not None else "a tile")
    return (f"Drawing {tiles} ends the player's turn, even when a tile drawn fits: it is "
            "kept for a later turn. The leader's draws before the opening tile keep the turn.")


# What a several-tile condition's parts say, as a clause (and its negation), keyed by
# their canonical text: the rule sheet says a condition built of these, ``and``, ``or``
# and ``not`` in words, and quotes any other formula as written.
_SEVERAL_WORDS = {
    "first_turn": ("it is the player's first turn of the round",
                   "it is not the player's first turn of the round"),
    "own_train": ("it goes on the player's own train", "it does not go on the player's own train"),
    "tile.is_double": ("it is a double", "it is not a double"),
    "boneyard == 0": ("the boneyard is empty", "the boneyard is not empty"),
    "count(hand) == 1": ("it is the player's last tile", "it is not the player's last tile"),
}


def _clause(node: ast.Node, text: str, negated: bool = False) -> str | None:
    """A condition's syntax tree in words (``_SEVERAL_WORDS``), or None when some part of it
    has none."""
    if isinstance(node, ast.Unary) and node.op == "not":
        return _clause(node.operand, text, not negated)
    if isinstance(node, ast.Binary) and node.op in ("and", "or"):
        left, right = _clause(node.left, text, negated), _clause(node.right, text, negated)
        if left is None or right is None:
            return None
        both = (node.op == "and") != negated   # not (a and b) is (not a) or (not b)
        return f"{left} and {right}" if both else f"either {left} or {right}"
    part = format_expression(text[node.offset:node.offset + node.length])
    said = _SEVERAL_WORDS.get(part)
    return None if said is None else said[negated]


def _condition_words(view: _View, dotted: str) -> str | None:
    """A ``play.several`` condition in plain words, when every part of it has some."""
    text = str(view.get(dotted))
    try:
        return _clause(parse(text), text)
    except ExprError:
        return None


@_rule("play.several", "A turn", "Several tiles at once", optional=True)
def _several(view: _View) -> str | None:
    if view.opt("play.several") is None:
        return None
    chain = view.opt("play.several.move", "each_end") == "chain"
    most = view.opt("play.several.most", 4 if chain else 2)
    if chain:
        text = ("A move may lay a run of up to "
                f"{most} tiles on one end (one train or arm), each tile on the one before it "
                "and each a legal placement once those before it lie")
    elif view.opt("play.several.move", "each_end") == "after_double":
        text = ("A player who lays a double may go on in the same move with another tile, on "
                "any end (the same end again too), and after another double again, up to "
                f"{most} tiles, each a legal placement once those before it lie")
    elif view.opt("play.several.move", "each_end") == "whole_hand":
        text = ("A player who can lay every tile left, one after another (each on any end, "
                "the same end again too), may show the hand and lay it all down as one move, "
                "each tile a legal placement once those before it lie")
    else:
        text = ("A move may lay several tiles at once: one on each of "
                + ("the two ends" if most == 2 else f"up to {most} ends")
                + ", in end order (left first), each a legal placement once those before it "
                  "lie")
    tiles = view.opt("play.several.tiles")
    if tiles is not None and tiles is not True:
        words = _condition_words(view, "play.several.tiles")
        text += (f", and each tile only when {words}" if words else
                 f", each meeting {_condition(view, 'play.several.tiles')}")
    text += ". Each tile's placement events follow it" + (
        ", but a turn earned by a tile before the run's last lapses: the run going on is "
        "that turn." if chain else ".")
    alone = view.opt("play.several.alone")
    if alone is False:
        text += " A single tile alone is not a move."
    elif alone is not None and alone is not True:
        alone_text = (_condition_words(view, "play.several.alone")
                      or _condition(view, "play.several.alone"))
        text += f" A single tile alone is a move only when {alone_text}"
        explain = view.opt("play.several.explain")
        text += f" ({_quote(explain)})." if explain else "."
    return text


@_rule("play.until", "A turn", "Playing on until a side is out", optional=True)
def _until(view: _View) -> str | None:
    if view.opt("play.until", "first_out") == "first_out":
        return None
    return ("A player who plays the last tile is out, and the round goes on without them: "
            "their turns are skipped until every player of one side is out. That side wins "
            "the round as a domino (its last player out is the dominoer), and the hands are "
            "counted as they are then: the players out hold none. A turn the last tile would "
            "earn is lost. A round nobody can go on with is blocked, as ever.")


@_rule("play.passing", "A turn", "Passing", optional=True)
def _passing(view: _View) -> str | None:
    if view.opt("play.passing", "forced") == "forced":
        return None
    return ("A player may pass at any turn after the opening, even holding a playable tile "
            "or able to draw. The round is blocked once every player has passed with nothing "
            "else allowed, or after two full turns of the table in which nobody placed or "
            "drew.")


_AFTER = {"place": "After a placement", "draw": "After each tile drawn", "pass": "After a pass"}


def _gain(view: _View, dotted: str, who: str) -> str | None:
    """``who`` scores what the field gives; None when it is 0."""
    raw = view.get(dotted)
    formula = view.formula(dotted)
    if formula is not None:
        return f"{who} scores {formula}"
    value = int(raw)
    if value == 0:
        return None
    if value < 0:
        return f"{who} loses {_plural(-value, 'point')}"
    return f"{who} scores {_plural(value, 'point')}"


# who an event's duty falls on (events[].duty.on), as the sheet says it
_DUTY_ON = {"next": "the next player", "opponents": "every opponent, each on their own,",
            "others": "every other player, each on their own,",
            "partner": "the player's partner"}


def _duty_words(duty: dict[str, Any], met: str | None) -> str:
    """An event's duty in words: who must do what, what failing it costs."""
    who = _DUTY_ON[duty.get("on", "next")]
    text = f"{who} must make a placement where {met or duty.get('met')}"
    cost = []
    if duty.get("fail_points"):
        cost.append(f"their side scores {duty['fail_points']}")
    if duty.get("fail_draws"):
        cost.append(f"they draw {_plural(int(duty['fail_draws']), 'tile')}")
    text += " on their turn; if they do not, " + (" and ".join(cost) if cost else "nothing is paid")
    if duty.get("lasts", "until_met") == "until_met":
        text += ", and the duty passes to the player after them until someone meets it"
    else:
        text += ", and the duty lapses"
    return text


def _event_line(view: _View, i: int) -> RuleLine:
    view.formulas = []
    here = f"events.{i}"
    event = view.get(here)
    partnerships = view.partnerships
    effects: list[str] = []
    if "points" in event:
        effects.append(_gain(view, f"{here}.points",
                             "the player's side" if partnerships else "the player"))
    if "each_opponent" in event:
        effects.append(_gain(view, f"{here}.each_opponent",
                             "the other side" if partnerships else "each opponent"))
    if "again" in event:
        again = _condition(view, f"{here}.again")
        if again is True:
            effects.append("the player plays again")
        elif again is not False:
            effects.append(f"the player plays again if {again}")
    if "skip" in event:
        formula = view.formula(f"{here}.skip")
        n = int(event["skip"]) if formula is None else None
        if formula is not None:
            effects.append(f"the next {formula} players lose their turn")
        elif n == 1:
            effects.append("the next player loses their turn")
        elif n and n > 1:
            effects.append(f"the next {n} players lose their turn")
    if "next_draws" in event:
        formula = view.formula(f"{here}.next_draws")
        n = int(event["next_draws"]) if formula is None else None
        if formula is not None:
            effects.append(f"the next player draws {formula} tiles")
        elif n:
            effects.append(f"the next player draws {_plural(n, 'tile')}")
    duty = event.get("duty")
    if duty is not None:   # events[].duty (engine.mechanisms.duties)
        effects.append(_duty_words(duty, view.formula(f"{here}.duty.met")))
    for name in event.get("set") or {}:   # events[].set: a variable from then on
        formula = view.formula(f"{here}.set.{name}")
        effects.append(f"{name} becomes {formula if formula is not None else event['set'][name]}")
    done = [e for e in effects if e]
    what = ", ".join(done[:-1]) + " and " + done[-1] if len(done) > 1 else \
        (done[0] if done else "nothing happens")
    condition = _condition(view, f"{here}.if") if "if" in event else True
    if condition is False:
        text = f"{_AFTER[event['after']]}: never (the condition is false)."
    elif condition is True:
        text = f"{_AFTER[event['after']]}: {what}."
    else:
        text = f"{_AFTER[event['after']]}, if {condition}: {what}."
    title = event.get("title") or f"Play-time rule {i + 1}"
    return RuleLine(f"events[{i}]", title, text, tuple(view.formulas))


@_rule("events", "A turn", "Play-time rules", optional=True)
def _events(view: _View) -> list[RuleLine]:
    return [_event_line(view, i) for i in range(len(view.opt("events", [])))]


@_rule("deal.redeal_if", "Deal", "Redeal", optional=True)
def _redeal(view: _View) -> str | None:
    if view.opt("deal.redeal_if") is None:
        return None
    condition = _condition(view, "deal.redeal_if")
    if condition is False:
        return None
    if condition is True:
        return "The tiles are always shuffled and dealt again."  # the checks refuse it
    return f"If {condition} after the deal, the tiles are shuffled and dealt again."


@_rule("deal.turn_up", "Deal", "Tile turned up", optional=True)
def _turn_up(view: _View) -> str | None:
    if not view.opt("deal.turn_up", False):
        return None
    return ("After the deal the stock's first tile is turned face up and starts the line; "
            "the leader plays the first turn on it as an ordinary turn, and nobody opens from "
            "a hand. A deal that leaves no stock turns nothing up: the leader opens as usual.")


@_rule("deal.leftover", "Deal", "Tiles left over", optional=True)
def _leftover(view: _View) -> str | None:
    rule = view.opt("deal.leftover", "boneyard")
    if rule == "boneyard":
        return None
    who = ("the round's leader" if rule == "leader"
           else "the player before the leader (who plays last in the first round of turns)")
    return (f"The tiles the hands leave are not set aside: they go into the hand of {who}, "
            "who starts the round with that many more tiles.")


@_rule("deal.blind", "Deal", "Hidden hands", optional=True)
def _blind(view: _View) -> str | None:
    if not view.opt("deal.blind", False):
        return None
    return ("Every hand lies face down in a row that even its owner cannot see. At a turn "
            "the player turns up the front tile: it is played if it fits (the player "
            "chooses the end when it fits both), else it is shown, turned face down again "
            "and put at the back of the row, and the turn passes. The leader's front tile "
            "opens the round. The round is blocked when no tile of any row fits.")


_IF_LACKING = {
    "redeal": "If the leader holds no such tile, the tiles are shuffled and dealt again.",
    "draw": "A leader holding no such tile draws until they hold one, drawing the boneyard "
            "out if need be; if none comes, {unheld}.",
    "pass_on": "If the leader holds no such tile, the next player in turn holding one opens; "
               "if nobody does, {unheld}.",
}
_UNHELD = {
    "redeal": "the tiles are shuffled and dealt again",
    "draw_in_turn": ("each player in turn, starting with the leader, draws one tile until "
                     "someone draws such a tile, and opens with it"),
    "heaviest": "the heaviest tile dealt opens, played by its holder",
}


# after the leader drew the boneyard out (if_lacking: draw): nothing is left to draw in turn
_UNHELD_DRAWN_OUT = {
    **_UNHELD,
    "draw_in_turn": _UNHELD["redeal"],
    "heaviest": "the heaviest tile in any hand (the leader's draws included) opens, played "
                "by its holder",
}


def _allow_sentence(view: _View, rules: dict[str, Any], dotted: str) -> str:
    allow = _condition(view, dotted)
    if allow is True:
        return "Any tile may open."
    text = f"The opening tile must meet: {allow}"
    if rules.get("explain"):
        text += f" \u2014 otherwise: {_quote(rules['explain'])}"
    how = rules.get("if_lacking", "redeal")
    unheld = (_UNHELD_DRAWN_OUT if how == "draw" else _UNHELD)[rules["if_unheld"]]
    return f"{text}. " + _IF_LACKING[how].format(unheld=unheld)


@_rule("opening.allow", "Leader and opening", "Opening condition", optional=True)
def _opening_allow(view: _View) -> str | None:
    for key in ("explain", "if_lacking"):
        view.opt(f"opening.{key}")
    if view.opt("opening.allow") is None:
        return None
    return _allow_sentence(view, view.get("opening"), "opening.allow")


@_rule("opening.first_round", "Leader and opening", "First round's opening", optional=True)
def _first_round(view: _View) -> str | None:
    first = {key: view.opt(f"opening.first_round.{key}") for key in _OPENING_KEYS}
    first = {k: v for k, v in first.items() if v is not None}
    if not first:
        return None
    rules = {**view.get("opening"), **first}
    sentence = opening_sentence(view, rules, ("first",))
    text = "The first round opens by its own rule: " + sentence[0].lower() + sentence[1:]
    if "allow" in rules:
        where = "opening.first_round.allow" if "allow" in first else "opening.allow"
        text += " " + _allow_sentence(view, rules, where)
    return text


@_rule("scoring.domino_winner", "Scoring", "Domino winner", optional=True)
def _domino_winner(view: _View) -> str | None:
    if view.opt("scoring.domino_winner", "dominoer") == "dominoer":
        return None
    return ("A player who dominoes does not win the round outright: it is settled like a "
            "blocked round, the dominoer's empty hand counting 0, and the "
            f"{_side_noun(view)} the comparison picks scores the blocked round's points.")


@_rule("scoring.every_side", "Scoring", "Points for everyone", optional=True)
def _every_side(view: _View) -> str | None:
    raw = view.opt("scoring.every_side")
    if raw is None or (not isinstance(raw, str) and int(raw) == 0):
        return None
    who = "every side (the winning side too)" if view.partnerships \
        else "every player (the winner too)"
    formula = view.formula("scoring.every_side")
    points = formula if formula is not None else _plural(int(raw), "point")
    return f"After each round {who} also scores {points}."


@_rule("match.exact", "Match", "Exact target", optional=True)
def _exact(view: _View) -> str | None:
    if not view.opt("match.exact", False):
        return None
    them = "it" if view.partnerships else "them"
    return (f"The target must be reached exactly: a {_side_noun(view)} whose round points "
            f"would take {them} past the target scores nothing that round.")


@_rule("match.minimum_to_start", "Match", "Minimum to start", optional=True)
def _minimum(view: _View) -> str | None:
    n = view.opt("match.minimum_to_start", 0)
    if not n:
        return None
    return (f"A {_side_noun(view)} with no score yet scores a round's points only if they "
            f"are at least {n}.")


@_rule("match.ends_in_play", "Match", "Won during play", optional=True)
def _ends_in_play(view: _View) -> str | None:
    if not view.opt("match.ends_in_play", False):
        return None
    return (f"The match ends the moment points scored during play leave one "
            f"{_side_noun(view)} alone at the highest score, at or over the target, even "
            "in the middle of a round: that round stops there and is not settled.")


@_rule("match.draw_if", "Match", "Drawn match", optional=True)
def _draw_if(view: _View) -> str | None:
    if view.opt("match.draw_if") is None:
        return None
    condition = _condition(view, "match.draw_if")
    if condition is False:
        return None
    if condition is True:
        return "A match not won after its first round ends drawn."
    return f"After each round, if {condition}, a match not yet won ends drawn."


@_rule("match.final", "Match", "Final scores", optional=True)
def _final(view: _View) -> str | None:
    if view.opt("match.final") is None:
        return None
    formula = view.formula("match.final")
    value = formula if formula is not None else str(view.get("match.final"))
    return (f"When the match ends, after its winner is decided, each {_side_noun(view)}'s "
            f"final score is {value}.")


def _variable_line(view: _View, i: int, name: str) -> RuleLine:
    view.formulas = []
    initial = view.get(f"variables.{name}.initial")
    what = view.opt(f"variables.{name}.description")
    head = f"{name} ({what})" if what else name
    if view.opt(f"variables.{name}.after_round") is None:
        change = "it keeps that value all match"
    else:
        formula = view.formula(f"variables.{name}.after_round")
        value = formula if formula is not None else str(view.get(f"variables.{name}.after_round"))
        change = ("after each round's settlement it becomes " + value + ", worked out from "
                  "the values that round was played with")
    return RuleLine(f"variables[{i}]", f"Variable {name}",
                    f"A number kept from round to round, {head}: it starts the match at "
                    f"{initial}; {change}. The round's formulas read it by its name.",
                    tuple(view.formulas))


@_rule("variables", "Match", "Variables", optional=True)
def _variables(view: _View) -> list[RuleLine]:
    return [_variable_line(view, i, name)
            for i, name in enumerate(view.opt("variables", {}) or {})]


def _value_words(view: _View, dotted: str) -> str:
    """A formula field in words, or its number as written."""
    formula = view.formula(dotted)
    return formula if formula is not None else str(view.get(dotted))


def _declaration_line(view: _View, i: int) -> RuleLine:
    view.formulas = []
    here = f"declarations.{i}"
    decl = view.get(here)
    who = ("Once the deal stands, before the opening tile, the round's leader"
           if decl["when"] == "round_start" else
           "After every placement (the opening included) and its events, the player who placed")
    if decl.get("claims"):
        claims = ", ".join(str(n) for n in decl["claims"])
        worth = _value_words(view, f"{here}.worth") if "worth" in decl else "0"
        score = (_value_words(view, f"{here}.score") if "score" in decl
                 else "the worth when the claim is right, else nothing")
        other = (_value_words(view, f"{here}.each_opponent") if "each_opponent" in decl
                 else "nothing")
        text = (f"{who} claims points: one of {claims}. The placement is worth {worth}; the "
                f"claim earns {score}, and every other {_side_noun(view)} gets {other}.")
    else:
        said = []
        for k, option in enumerate(decl.get("options") or ()):
            sets = [f"{var} to {_value_words(view, f'{here}.options.{k}.set.{var}')}"
                    for var in option.get("set") or {}]
            what = f" ({option['description']})" if option.get("description") else ""
            said.append(f"{option['name']}{what}" + (f", which sets {', '.join(sets)}"
                                                     if sets else ""))
            if option.get("draw"):   # an option's draw (mechanisms.declarations.outcome)
                said[-1] += (f", which makes the player draw {option['draw']} tile"
                             f"{'s' if option['draw'] > 1 else ''} from the boneyard at once")
            if "lead" in option:   # an option's lead (mechanisms.declarations.lead_of)
                said[-1] += (f", which hands the first tile to the seat "
                             f"{_value_words(view, f'{here}.options.{k}.lead')} (modulo the "
                             "players), who then leads the round")
        text = f"{who} declares one of: {'; '.join(said)}."
    if "due" in decl:   # asked only when it holds (mechanisms.declarations.asked)
        text += f" It is asked only when {_value_words(view, f'{here}.due')}."
    if decl.get("explain"):
        text += f" In the players' words: {decl['explain']}."
    return RuleLine(f"declarations[{i}]", decl.get("title") or f"Declaration {decl['name']}",
                    text, tuple(view.formulas))


@_rule("declarations", "A turn", "Declarations", optional=True)
def _declarations(view: _View) -> list[RuleLine]:
    return [_declaration_line(view, i) for i in range(len(view.opt("declarations", []) or []))]


@_rule("showdown", "Scoring", "Hands shown", optional=True)
def _showdown(view: _View) -> str | None:
    if view.opt("showdown") is None:
        return None
    pay = (_value_words(view, "showdown.penalty") if view.opt("showdown.penalty") is not None
           else "nothing")
    gain = (_value_words(view, "showdown.each_opponent")
            if view.opt("showdown.each_opponent") is not None else "nothing")
    said = view.opt("showdown.explain")
    words = f" In the players' words: {said}." if said else ""
    return (f"At the round's end, before it is settled, the hands are shown: a player who "
            f"passed while holding a tile that could be placed loses {pay} (passes: how many "
            f"such passes), and every other {_side_noun(view)} gains {gain}.{words}")
