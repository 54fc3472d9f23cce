"""The rule sheet: a merged ruleset told in full sentences a player can read at the table.

Every sentence is generated from the ruleset's data (and its compiled ``Rules``, to
evaluate formulas for each allowed player count); nothing here knows a variant.
Each rule is one function registered with ``@_rule(key, section, title)``: a new
schema field gets its sentence by adding one such function, and ``diff`` (which
compares sheets rule by rule) picks it up with no further change.

>>> from dominorules.rules import load_ruleset
>>> print(rule_sheet(load_ruleset("house/draw-one")).rule("drawing.limit").text)
At most 1 tile may be drawn in one turn; a player who still cannot place then passes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.mechanisms.set_tiles import set_tiles
from ..engine.tiles import Tile, parse_pair, parse_tiles, tile_count
from ..expr import ast, parse
from ..textlayout import DEFAULT_WIDTH
from ..textlayout import wrap as fill
from .resources import builtin_name_of
from .sheet import (
    _SPECS,
    SECTIONS,
    RuleLine,
    _opening_tile,
    _plural,
    _rule,
    _side_noun,
    _Spec,
    _View,
    opening_sentence,
)

FORMATS = ("text", "markdown", "json")


@dataclass(frozen=True)
class Section:
    title: str
    rules: tuple[RuleLine, ...]


@dataclass(frozen=True)
class RuleSheet:
    """A whole ruleset as sections of sentences, in table order."""

    name: str
    title: str
    description: str
    source: str
    sections: tuple[Section, ...]
    chain: tuple[str, ...] = field(default=())
    based_on: str = ""     # the ruleset it extends, as users type it

    def rule(self, key: str) -> RuleLine:
        """The rule with this key (``KeyError`` if there is none)."""
        for section in self.sections:
            for line in section.rules:
                if line.key == key:
                    return line
        raise KeyError(key)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "title": self.title, "description": self.description,
            "source": self.source, "based_on": self.based_on, "chain": list(self.chain),
            "sections": [{"title": s.title,
                          "rules": [{"key": r.key, "title": r.title, "text": r.text,
                                     "formulas": list(r.formulas)} for r in s.rules]}
                         for s in self.sections],
        }


# --- small wording helpers --------------------------------------------------------

_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen twenty").split()


def _word(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _join(items: list[str], last: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def _counts_phrase(counts: list[int]) -> str:
    """``[2, 3]`` -> "2 or 3"; ``[2, 3, 4, 5]`` -> "2 to 5"; ``[2, 4]`` -> "2 or 4"."""
    runs: list[list[int]] = []
    for c in counts:
        if runs and runs[-1][-1] == c - 1:
            runs[-1].append(c)
        else:
            runs.append([c])
    parts: list[str] = []
    for run in runs:
        parts += [f"{run[0]} to {run[-1]}"] if len(run) >= 3 else [str(c) for c in run]
    return _join(parts, "or")


def _by_players(values: dict[int, int], unit: str, units: str | None = None) -> str:
    """Values per player count, grouped: "7 tiles with 2 or 3 players, 6 with 4"."""
    groups: dict[int, list[int]] = {}
    for players, value in values.items():
        groups.setdefault(value, []).append(players)
    parts = []
    for i, (value, counts) in enumerate(groups.items()):
        amount = _plural(value, unit, units) if i == 0 else str(value)
        who = _counts_phrase(counts)
        if i == 0:
            who += " player" if counts == [1] else " players"
        parts.append(f"{amount} with {who}")
    return ", ".join(parts)


def _per_players(view: _View, fn: Callable[[int], int], unit: str,
                 units: str | None = None) -> str:
    values = {p: fn(p) for p in view.counts}
    if len(set(values.values())) == 1:
        return _plural(next(iter(values.values())), unit, units)
    return _by_players(values, unit, units)


def _with_formula(sentence: str, formula: str | None) -> str:
    """Append the formula in readable form before the sentence's final full stop."""
    return f"{sentence[:-1]} (formula: {formula})." if formula else sentence


def _tile(tile: tuple[int, int]) -> str:
    """A tile as players type and see it everywhere else: the higher half first, "6-4"."""
    return str(Tile(*tile))


def _tiles(spec: str) -> str:
    """An example's hand, "0-0 3-5" -> "0-0 5-3"; "" -> "empty"."""
    return " ".join(map(str, parse_tiles(spec))) or "empty"


# --- what a scoring formula says, in words -----------------------------------------

_OWNERS = {"opponents": "the opponents'", "sides": "all sides'", "seats": "all players'",
           "winner": "the winner's own"}
# In partnerships the scoring names stand for sides, so say so.
_SIDE_OWNERS = {**_OWNERS, "opponents": "the opposing side's", "winner": "the winning side's own"}
_ATTRS = {"value": "hand values", "pips": "pips in hand", "tiles": "tiles left in hand",
          "drawn": "tiles drawn", "players": "players"}
_ATTR = {"value": "hand value", "pips": "pips in hand", "tiles": "tiles left in hand",
         "drawn": "tiles drawn"}
_OPS = {"+": "plus", "-": "minus", "*": "times"}


def _gloss(node: ast.Node, owners: dict[str, str]) -> str | None:
    """Plain words for the simple shapes scoring formulas take; None for anything else
    (the sheet then shows the formula alone)."""
    match node:
        case ast.Int(value=v):
            return str(v)
        case ast.Call(func="sum", args=[ast.Attribute(obj=ast.Name(name=owner), attr=attr)]) \
                if owner in owners and attr in _ATTRS and owner != "winner":
            return f"the sum of {owners[owner]} {_ATTRS[attr]}"
        case ast.Attribute(obj=ast.Name(name="winner"), attr=attr) if attr in _ATTR:
            return f"{owners['winner']} {_ATTR[attr]}"
        case ast.Binary(op=op, left=left, right=right) if op in _OPS:
            a, b = _gloss(left, owners), _gloss(right, owners)
            return f"{a} {_OPS[op]} {b}" if a and b else None
    return None


def _points(view: _View, dotted: str) -> str:
    """What a scoring field awards: "N points", or its words and formula."""
    raw = view.get(dotted)
    formula = view.formula(dotted)
    if formula is None:
        return _plural(int(raw), "point")
    words = _gloss(parse(formula), _SIDE_OWNERS if view.partnerships else _OWNERS)
    return f"{words} (formula: {formula})" if words else f"the points given by {formula}"


# --- the rules, in table order -----------------------------------------------------


@_rule("set", "Equipment", "Set")
def _set(view: _View) -> str:
    n = view.get("set.max_pip")
    count = tile_count(n)
    whole = (f"A double-{_word(n)} set: one tile for each pair of values from 0 to {n}, "
             f"0-0 to {n}-{n}, {count} tiles in all.")
    named = view.opt("set.without", [])
    keep = view.opt("set.keep")
    removed = view.rules.removed_tiles
    copies = view.opt("set.copies", 1)
    if copies > 1:   # set.copies: two sets shuffled together
        whole = (f"Two double-{_word(n)} sets shuffled together, every tile twice: each pair "
                 f"of values from 0 to {n}, 0-0 to {n}-{n}, on two tiles alike (the same "
                 f"name and pips), {count * copies} tiles in all.")
    if not removed:   # nothing named, or a keep that keeps every tile
        return whole
    out = [_tile(parse_pair(t)) for t in named]
    by_keep = [t for t in removed if _tile(t) not in out]
    said = []
    if out:
        said.append(_join(out))
    if keep is not None:
        rule = view.formula("set.keep") or str(keep).lower()
        shown = _join([_tile(t) for t in by_keep[:8]] + (
            [f"{len(by_keep) - 8} more"] if len(by_keep) > 8 else []))
        said.append(f"every tile failing the condition {rule} ({shown or 'none'})")
    each = " from each set" if copies > 1 else ""
    return (f"{whole} Taken out{each} before play, and never dealt, drawn or counted: "
            f"{'; and '.join(said)}. {_plural((count - len(removed)) * copies, 'tile')} "
            "are played.")


@_rule("players", "Players and sides", "Players")
def _players(view: _View) -> str:
    low, high = view.get("players.min"), view.get("players.max")
    return f"Exactly {low} players." if low == high else f"{low} to {high} players."


@_rule("seats", "Players and sides", "Seats")
def _seats(view: _View) -> str:
    if view.clockwise == "clockwise":
        return "Seats are numbered clockwise from 0, and play goes clockwise: each seat is " \
            "followed by the next."
    return ("Seats are numbered clockwise from 0. Play goes to the right, counter-clockwise: "
            "each seat is followed by the one before it, seat 0 by the last; the lead passes "
            "the same way.")


@_rule("players.sides", "Players and sides", "Sides")
def _sides(view: _View) -> str:
    if not view.partnerships:
        return "Each player plays for themself and keeps their own score."
    low, high = view.get("players.min"), view.get("players.max")
    if low == high:
        even = _join([str(s) for s in range(0, low, 2)])
        odd = _join([str(s) for s in range(1, low, 2)])
        teams = f"seats {even} against seats {odd}"
    else:
        teams = "even seats (0, 2, ...) against odd seats (1, 3, ...)"
    return (f"Two partnerships, seats alternating: {teams}; partners sit opposite "
            "and share one score.")


@_rule("deal.hand_size", "Deal", "Hand size")
def _hand_size(view: _View) -> str:
    formula = view.formula("deal.hand_size")
    dealt = _with_formula(
        f"Each player is dealt {_per_players(view, view.rules.hand_size, 'tile')}.", formula)
    n = view.get("set.max_pip")
    total = (tile_count(n) - len(view.rules.removed_tiles)) * view.rules.copies
    left = {p: total - p * view.rules.hand_size(p) for p in view.counts}
    if not any(left.values()):
        return f"{dealt} All the tiles are dealt: there is no boneyard."
    if view.opt("deal.leftover", "boneyard") != "boneyard":   # describe_house says to whom
        return f"{dealt} Dealt face down; the tiles left over go to a player (below)."
    if len(set(left.values())) == 1:
        rest = f"the other {_plural(next(iter(left.values())), 'tile')}"
        return f"{dealt} Dealt face down; {rest} form the boneyard."
    return f"{dealt} Dealt face down; the other tiles form the boneyard: " \
           f"{_by_players(left, 'tile')}."


_CHOOSERS = {
    "lot": "chosen by a fair lot",
    "seat_zero": "seat 0",
    "highest_double": "the player holding the highest double dealt",
    "draw_highest_tile": ("chosen by each player drawing a tile from the whole set, shuffled: "
                          "the highest pips leads, tied players draw again, and the tiles "
                          "are returned before the deal"),
    "rotate": "the next seat clockwise from the previous round's leader (not the winner)",
    "same": "the previous round's leader again",
    "winner": ("the player who won the previous round (the dominoer, or the lowest hand of "
               "a blocked round); when nobody won, the previous round's leader again"),
}


def _nobody(view: _View, first: bool, tile: str) -> str:
    """What a lead reading the deal says when nobody holds its tile: the opening's heaviest
    tile where that wins (``rules.precedence``), else a redeal."""
    from .precedence import governing

    case = governing(view.data, first)
    if case is not None and case.kind == "heaviest":
        return (f"; if nobody holds {tile}, the player holding the heaviest tile dealt, who "
                "opens with it")
    if tile == "it":    # the opening's own sentence says what happens
        return ""
    return f"; if nobody holds {tile}, the tiles are shuffled and dealt again"


def _chooser(view: _View, how: str, first: bool = False) -> str:
    if how == "highest_double":
        return _CHOOSERS[how] + _nobody(view, first, "a double")
    if how == "formula":
        formula = view.formula("lead.later")
        return (f"the seat given by {formula}, counted round the table from seat 0 (modulo "
                "the number of players)")
    if how == "opening_tile_holder":   # the round's own opening tile (first_round's in round 1)
        raw = view.opt("opening.first_round.tile") if first else None
        tile = _opening_tile(view, raw)
        return f"the player holding {tile}" + _nobody(view, first, "it")
    if how == "exposed_tiles":
        start = ("seat 0" if view.get("lead.count_from") == "seat_zero"
                 else "the previous round's leader")
        return view.turn_way(
            "chosen by exposed tiles: each player shows a random tile, and the total "
            "of their pips modulo the number of players, plus 1, is the leader's "
            f"number, counting clockwise from 1 at {start}")
    return view.turn_way(_CHOOSERS[how])


@_rule("lead", "Leader and opening", "Leader")
def _lead(view: _View) -> str:
    first, later = view.get("lead.first"), view.get("lead.later")
    if view.rules.later_leader == "formula":
        later = "formula"
    one, other = _chooser(view, first, True), _chooser(view, later)
    if one == other:
        return f"Every round, the leader is {one}."
    return (f"The first round's leader is {one}. "
            f"In later rounds the leader is {other}.")


@_rule("opening", "Leader and opening", "Opening")
def _opening(view: _View) -> str:
    rounds = ("later",) if view.opt("opening.first_round") else ("first", "later")
    return opening_sentence(view, {key: view.get(f"opening.{key}")
                                   for key in ("tile", "opener", "if_unheld")}, rounds)


@_rule("turn", "A turn", "Placing")
def _placing(view: _View) -> str:
    if view.opt("board.layout") is not None:
        return ("On their turn a player places one tile at an open end the board's shape "
                "allows (Board shape), matching one of its halves to that end's value (a "
                "blank matches only a blank). Placing a tile ends the turn.")
    matching = view.opt("matching", None) or {}
    if "fits" in matching or "wild" in matching:   # the fit rule's own lines say how
        ends = "open ends" if view.opt("board.spinner", "none") != "none" else "two open ends"
        lie = ("lengthwise in the line, showing one number like any tile"
               if matching.get("doubles") == "in_line" else "crosswise in the line")
        return (f"On their turn a player places one tile at one of the line's {ends}, "
                "where the fit rule below allows it (not by matching numbers). Doubles lie "
                f"{lie}. Placing a tile ends the turn.")
    if view.opt("board.spinner", "none") != "none":
        return ("On their turn a player places one tile at one of the line's open ends, "
                "matching one of its halves to that end's value (a blank matches only a "
                "blank). Doubles lie crosswise in the line. Placing a tile ends the turn.")
    return ("On their turn a player places one tile at one of the line's two open ends, "
            "matching one of its halves to that end's value (a blank matches only a "
            "blank). Doubles lie crosswise in the line and open no branches. Placing a "
            "tile ends the turn.")


@_rule("drawing.reserve", "A turn", "Boneyard reserve")
def _reserve(view: _View) -> str:
    n = view.get("drawing.reserve")
    if n == 0:
        return "The whole boneyard may be drawn."
    last = "The last tile" if n == 1 else f"The last {_word(n)} tiles"
    return f"{last} of the boneyard {'is' if n == 1 else 'are'} never drawn."


@_rule("drawing.voluntary", "A turn", "Voluntary draws")
def _voluntary(view: _View) -> str:
    if view.get("drawing.voluntary") == "allowed":
        if view.opt("drawing.ends_turn", False) or view.opt("drawing.exactly") is not None:
            # the turn's draws are told under Exact draws and Drawing ends the turn
            return "A player may draw from the boneyard even when holding a playable tile."
        return ("A player may draw from the boneyard, one tile at a time, even when holding "
                "a playable tile; drawing keeps the turn, and the player may then place "
                "any playable tile.")
    return "A player who holds a playable tile must place: they may not draw."


@_rule("drawing.when_stuck", "A turn", "No playable tile")
def _stuck(view: _View) -> str:
    if view.get("drawing.when_stuck") == "draw":
        at_will = view.opt("play.passing", "forced") == "at_will"
        if at_will or view.opt("drawing.exactly") is not None \
                or view.opt("drawing.ends_turn", False):
            # the number drawn is told under Exact draws; a pass at will under Passing
            return ("A player with no playable tile must draw while drawing is allowed"
                    + (" (or pass at will)" if at_will else "") + ", and passes when it is not."
                    + ("" if at_will else " Nobody may pass while a placement or a draw is "
                       "possible."))
        return ("A player with no playable tile must draw, one tile at a time, while drawing "
                "is allowed, and passes when it is not. Nobody may pass while a placement "
                "or a draw is possible.")
    return "A player with no playable tile passes at once, without drawing."


@_rule("drawing.limit", "A turn", "Draw limit")
def _limit(view: _View) -> str:
    n = view.get("drawing.limit")
    exactly = view.opt("drawing.exactly")
    if n is None and exactly is not None:
        return f"A turn draws no more than its exact draw ({_plural(exactly, 'tile')})."
    if n is None:
        return "There is no limit to the tiles drawn in one turn."
    return (f"At most {_plural(n, 'tile')} may be drawn in one turn; a player who still "
            "cannot place then passes.")


@_rule("drawing.cost", "A turn", "Cost of drawing")
def _cost(view: _View) -> str:
    values = {p: view.rules.draw_cost(p) for p in view.counts}
    if not any(values.values()):
        return "Drawing costs no points."
    formula = view.formula("drawing.cost")
    cost = _per_players(view, view.rules.draw_cost, "point")
    to = ("the points are simply lost" if view.get("drawing.cost_to") == "nobody"
          else "the points go to the round's winner")
    return _with_formula(f"Each tile drawn costs the drawer {cost}.", formula)[:-1] + f"; {to}."


@_rule("round.end", "End of round", "End of round")
def _round_end(view: _View) -> str:
    ends = ("A round ends at once when a player places their last tile (dominoes)."
            if view.opt("play.until", "first_out") == "first_out" else
            "A round ends when every player of one side has placed their last tile (that "
            "side dominoes); a player out before then sits the rest of the round out.")
    return (f"{ends} It is blocked, and ends, when every player in turn has passed, with "
            "no placement and no draw between those passes.")


@_rule("scoring.tile_value", "Scoring", "Tile values")
def _tile_value(view: _View) -> str:
    n = view.get("set.max_pip")
    formula = view.formula("scoring.tile_value")
    value = view.rules.tile_value
    tiles = set_tiles(n, view.rules.removed_tiles)
    odd = [t for t in tiles if value(*t) != t[0] + t[1]]
    head = "A hand is worth the sum of its tiles' values"
    if not odd:
        doubles = [t for t in tiles if t[0] == t[1]] or tiles
        top, low = doubles[-1], doubles[0]
        return (f"{head}; a tile is worth its pips, both halves added "
                f"({_tile(top)} is {sum(top)}, {_tile(low)} is {sum(low)}).")
    values = {value(*t) for t in tiles}
    if len(values) == 1:
        return _with_formula(f"{head}; every tile is worth {_plural(values.pop(), 'point')}.",
                             formula)
    if len(odd) <= 4:
        except_ = _join([f"{_tile(t)}, worth {value(*t)}" for t in odd])
        return _with_formula(f"{head}; a tile is worth its pips, both halves added, "
                             f"except {except_}.", formula)
    return _with_formula(f"{head}; {n}-{n} is worth {value(n, n)} and 0-0 "
                         f"{value(0, 0)}.", formula)


@_rule("scoring.domino", "Scoring", "Domino")
def _domino(view: _View) -> str:
    who = "The side of a player who dominoes" if view.partnerships else "A player who dominoes"
    return f"{who} scores {_points(view, 'scoring.domino')}."


_BLOCKED_TIES = {
    "nothing": "nobody scores",
    "each": "each of them scores",
    "last_player": "{who} made the last placement wins if {pronoun} among them; otherwise "
                   "nobody scores",
    "next_player": "{who} follows the last placement in turn wins if {pronoun} among them; "
                   "otherwise nobody scores",
}


@_rule("scoring.blocked", "Scoring", "Blocked round")
def _blocked(view: _View) -> str:
    winner = view.get("scoring.blocked.winner")
    rank, among = view.opt("scoring.blocked.rank"), view.opt("scoring.blocked.among", "all")
    noun = _side_noun(view)
    most = "highest" if winner == "highest" else "lowest"
    if winner == "lowest_hand":
        who = "the player with the lowest hand"
        tied = "players tie"
    elif winner == "lowest_side":
        who = "the side whose hands add up to the lowest total"
        tied = "sides tie"
    else:
        measure = view.formula("scoring.blocked.rank") or str(rank)
        who = f"the {noun} whose rank, {measure}, is {most}"
        tied = f"{noun}s tie"
    tie = _BLOCKED_TIES[view.get("scoring.blocked.tie")].format(
        who="the side of the player who" if view.partnerships else "the player who",
        pronoun="it is" if view.partnerships else "they are")
    text = (f"In a blocked round {who} wins and scores "
            f"{_points(view, 'scoring.blocked.points')}; if two or more {tied} for {most}, "
            f"{tie}.")
    if among == "last_two":
        pair = ("the side of the player who made the last placement and the side of the "
                "next player" if view.partnerships else
                "the player who made the last placement and the next player")
        text += f" Only {pair} are compared."
    return text


@_rule("match.target", "Match", "Target")
def _target(view: _View) -> str:
    partnerships = view.partnerships

    def target(players: int) -> int:
        return view.rules.target(players, 2 if partnerships else players, partnerships)

    formula = view.formula("match.target")
    end = view.opt("match.end", "points")
    if end == "rounds":
        rounds = _with_formula(f"{_per_players(view, target, 'round')}.", formula)
        return f"The match ends after {rounds}"
    if end == "rounds_won":
        rounds = _with_formula(f"{_per_players(view, target, 'round')}.", formula)
        return f"The match is won by the first {_side_noun(view)} to win {rounds}"
    who = "a side" if partnerships else "a player"
    reach = _with_formula(f"{_per_players(view, target, 'point')}.", formula)[:-1]
    return (f"The match ends after the round in which {who} reaches or passes {reach}; "
            "excess points are kept.")


@_rule("match.tie", "Match", "Winner")
def _match_tie(view: _View) -> str:
    if view.opt("match.end", "points") == "rounds_won":
        return "Points are kept, but only rounds won decide the match."
    most = "lowest" if view.opt("match.winner", "highest") == "lowest" else "highest"
    if view.get("match.tie") == "draw":
        return f"The {most} score wins; a tie for the {most} score is a drawn match."
    return f"The {most} score wins; if the {most} scores tie, another round is played."


def _ends(ends: list[int] | None) -> str:
    if not ends:
        return "before the opening"
    return "the open ends show " + _join([str(e) for e in ends])


def _boneyard(value: Any) -> str:
    if isinstance(value, str):
        return f"boneyard {_tiles(value)}"
    return f"{_plural(value, 'tile')} in the boneyard"


def _values(values: dict[str, Any]) -> str:
    """Variables by name, as an example gives them: "run_side 0 and run 3"."""
    return _join([f"{name} {value}" for name, value in values.items()])


def _example(data: dict[str, Any], sides: str) -> str:
    players = data.get("players", len(data.get("hands", [])))
    hands = _join([f"seat {i} {_tiles(h)}" for i, h in enumerate(data.get("hands", []))])
    kind = data.get("kind")
    if kind == "points":
        points = _join([str(p) for p in data.get("expect_points", [])])
        ends = "in a domino" if data.get("result") == "domino" else "blocked"
        facts = [f"{players} players, the round ends {ends}", f"hands: {hands}"]
        if "last_tile" in data:
            by = f" by seat {data['last_player']}" if "last_player" in data else ""
            facts.append(f"last tile {_tiles(data['last_tile'])}{by}")
        if data.get("both_ends"):
            facts.append("the last tile fitted both ends")
        if data.get("ends"):
            facts.append(_ends(data["ends"]))
        if "boneyard" in data:
            facts.append(_boneyard(data["boneyard"]))
        if data.get("passes"):
            facts.append(f"{_plural(data['passes'], 'pass', 'passes')} in the round")
        if "scores" in data:
            facts.append("scores before the round " + _join([str(s) for s in data["scores"]]))
        if data.get("variables"):
            facts.append("played with " + _values(data["variables"]))
        after = (f" Next round: {_values(data['expect_variables'])}."
                 if data.get("expect_variables") else "")
        return "; ".join(facts) + f". Points per {sides}: {points}.{after}"
    if kind == "dealt":
        return _dealt_example(data, sides, players, hands)
    where = (("the board laid " + ", ".join(str(t) for t in data["board"]))
             if data.get("board") else _ends(data.get("ends")))
    facts = [f"{players} players, seat {data.get('turn', 0)} to act, {where}",
             f"hands: {hands}"]
    if "boneyard" in data:
        facts.append(_boneyard(data["boneyard"]))
    if data.get("drawn_this_turn"):
        facts.append(f"{_plural(data['drawn_this_turn'], 'tile')} drawn this turn")
    if data.get("first_turn"):
        facts.append("the seat's first turn of the round")
    if data.get("passes_in_row"):
        facts.append(f"{_plural(data['passes_in_row'], 'pass', 'passes')} in a row before it")
    if data.get("variables"):
        facts.append("played with " + _values(data["variables"]))
    if kind == "events":
        fired = []
        points = data.get("expect_points")
        if points and any(points):
            fired.append(f"points per {sides} " + _join([str(p) for p in points]))
        if data.get("expect_again"):
            fired.append("the player plays again")
        if data.get("expect_skips"):
            fired.append(f"{_plural(data['expect_skips'], 'player')} skipped")
        if data.get("expect_next_draws"):
            fired.append(f"the next player draws {_plural(data['expect_next_draws'], 'tile')}")
        if data.get("expect_duties"):
            seats = data.get("expect_duty_seats")   # events[].duty.on
            fired.append(f"{_plural(data['expect_duties'], 'duty', 'duties')} on "
                         + ("the next player" if seats is None
                            else _join([f"seat {s}" for s in seats])))
        if data.get("expect_variables"):
            fired.append("then " + _values(data["expect_variables"]))
        return "; ".join(facts) + f". Action {data.get('action')}: " \
            + (_join(fired) if fired else "nothing fires") + "."
    legal = ", ".join(str(a) for a in data.get("expect_legal", []))
    return "; ".join(facts) + f". Legal: {legal}."


def _dealt_example(data: dict[str, Any], sides: str, players: int, hands: str) -> str:
    """A dealt example: the deal, the decisions played, then what the rules give."""
    facts = [f"{players} players dealt {hands}"]
    if data.get("hand_size"):
        facts.append(f"a short deal of {data['hand_size']} tiles each")
    if isinstance(data.get("boneyard"), str):
        facts.append(f"boneyard drawn from {_tiles(data['boneyard'])} first")
    if "leader" in data:
        facts.append(f"seat {data['leader']} chosen to lead")
    if data.get("scores"):
        facts.append("scores before " + _join([str(s) for s in data["scores"]]))
    if data.get("play"):
        facts.append("played: " + ", ".join(str(a) for a in data["play"]))
    told = []
    if "expect_redeal" in data:
        told.append("the deal is thrown in and dealt again" if data["expect_redeal"]
                    else "the deal stands")
    if "expect_leader" in data:
        told.append(f"seat {data['expect_leader']} leads")
    if "expect_opening" in data:
        told.append(f"the round opens with {_tiles(data['expect_opening'])}")
    if "expect_turn" in data:
        told.append(f"seat {data['expect_turn']} is to act")
    if "expect_legal" in data:
        told.append("legal: " + (", ".join(str(a) for a in data["expect_legal"]) or "none"))
    if "expect_points" in data:
        told.append(f"round points per {sides} " + _join([str(p) for p in data["expect_points"]]))
    if "expect_scores" in data:
        told.append("scores after the round " + _join([str(s) for s in data["expect_scores"]]))
    if "expect_next_leader" in data:
        told.append(f"seat {data['expect_next_leader']} leads round 2")
    if "expect_scores_now" in data:
        told.append("scores then " + _join([str(s) for s in data["expect_scores_now"]]))
    return "; ".join(facts) + ". Then " + "; ".join(told) + "."


def _examples(view: _View) -> tuple[RuleLine, ...]:
    sides = _side_noun(view)
    return tuple(RuleLine(f"examples[{i}]", str(ex.get("title", f"Example {i + 1}")),
                          _example(ex, sides))
                 for i, ex in enumerate(view.data.get("examples") or []))


# --- the sheet ---------------------------------------------------------------------


def rule_sheet(ruleset: Any, derive: bool = True) -> RuleSheet:
    """The rule sheet of a loaded ruleset (``.name``, ``.data``, ``.rules``, ``.chain``).

    A ruleset that extends another and has no description of its own gets one saying
    what it changes (``derive=False`` leaves it empty: ``diff`` itself uses that).
    """
    view = _View(ruleset)
    lines: dict[str, list[RuleLine]] = {s: [] for s in SECTIONS}
    for spec in _SPECS:
        view.formulas = []
        text = spec.write(view)
        if isinstance(text, list):
            lines[spec.section] += text
        elif text is not None:
            lines[spec.section].append(RuleLine(spec.key, spec.title, text,
                                                tuple(view.formulas)))
    lines["Examples"] += _examples(view)
    data = ruleset.data
    return RuleSheet(
        name=str(getattr(ruleset, "name", data.get("name", ""))),
        title=str(data.get("title", "")),
        description=str(data.get("description") or (changes_line(ruleset) if derive else "")),
        source=str(data.get("source", "")), based_on=parent_name(ruleset) or "",
        sections=tuple(Section(s, tuple(lines[s])) for s in SECTIONS if lines[s]),
        chain=tuple(str(c) for c in getattr(ruleset, "chain", ()) or ()))


# --- comparing sheets, and what a ruleset changes from its parent --------------------

NO_RULE = "No such rule."


@dataclass(frozen=True)
class RuleDiff:
    """One rule told differently: its section, key and title, and each side's line."""

    section: str
    key: str
    title: str
    a: RuleLine
    b: RuleLine


@dataclass(frozen=True)
class SheetDiff:
    a: RuleSheet
    b: RuleSheet
    rules: tuple[RuleDiff, ...]

    def keys(self) -> list[str]:
        return [d.key for d in self.rules]

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": {"name": self.a.name, "title": self.a.title},
            "b": {"name": self.b.name, "title": self.b.title},
            "differences": [{"section": d.section, "key": d.key, "title": d.title,
                             "a": d.a.text, "b": d.b.text} for d in self.rules],
        }


def _lines(sheet: RuleSheet) -> dict[str, tuple[str, RuleLine]]:
    return {line.key: (section.title, line) for section in sheet.sections
            if section.title != "Examples" for line in section.rules}


def diff_sheets(a: RuleSheet, b: RuleSheet) -> SheetDiff:
    """The rules whose sentences differ, in table order; a rule only one sheet tells is
    "No such rule." on the other side."""
    a_lines, b_lines = _lines(a), _lines(b)
    found = []
    for key in sorted(a_lines.keys() | b_lines.keys(), key=rule_order):
        section, line = a_lines.get(key) or b_lines[key]
        a_line = a_lines[key][1] if key in a_lines else RuleLine(key, line.title, NO_RULE)
        b_line = b_lines[key][1] if key in b_lines else RuleLine(key, line.title, NO_RULE)
        if a_line.text != b_line.text:
            found.append(RuleDiff(section, key, line.title, a_line, b_line))
    return SheetDiff(a, b, tuple(found))


def parent_name(ruleset: Any) -> str | None:
    """What a ruleset ``extends``, as users type it (builtin name or file name), or None."""
    chain = tuple(getattr(ruleset, "chain", ()) or ())
    if len(chain) < 2:
        return None
    return builtin_name_of(Path(chain[1])) or Path(chain[1]).name


def changes_line(ruleset: Any) -> str:
    """A one-line description of a ruleset that extends another and has none of its own:
    which rules it tells differently from its parent (say 'As PARENT, but with a
    different hand size and target.'). Empty for a ruleset that extends nothing."""
    parent = parent_name(ruleset)
    if parent is None:
        return ""
    changed = diff_sheets(rule_sheet(ruleset.parent(), derive=False),
                          rule_sheet(ruleset, derive=False)).rules
    if not changed:
        return f"The same rules as {parent}."
    titles = [r.title[0].lower() + r.title[1:] for r in changed]
    listed = titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]
    return f"As {parent}, but with a different {listed}."


# --- rendering ---------------------------------------------------------------------


def wrap(text: str, indent: str, width: int = DEFAULT_WIDTH,
         keep: Sequence[str] = ()) -> str:
    """``text`` filled to ``width`` at spaces only, each formula of ``keep`` kept whole."""
    return fill(text, indent, width, keep)


def markdown_text(line: RuleLine) -> str:
    """A rule's sentence with its formulas as code spans."""
    text = line.text
    for formula in sorted(set(line.formulas), key=len, reverse=True):
        text = re.sub(rf"(?<!`){re.escape(formula)}(?!`)", f"`{formula}`", text, count=1)
    return text


# The last line of every sheet: where a player reads on (docs of the project, not of a file).
FURTHER = ("The builtin variants, their sources and the decisions taken where the sources "
           "are silent: docs/variants.md. The records `--trace` writes: docs/records.md.")


def _sheet_text(sheet: RuleSheet, width: int = DEFAULT_WIDTH) -> str:
    out = [f"{sheet.title} ({sheet.name})" if sheet.title else sheet.name]
    if sheet.description:
        out.append(wrap(sheet.description, "", width))
    if sheet.based_on:
        out.append(f"Based on {sheet.based_on}.")
    if sheet.source:
        out.append(wrap(f"Source: {sheet.source}", "", width))
    for section in sheet.sections:
        out += ["", section.title, "-" * len(section.title)]
        for line in section.rules:
            out.append(wrap(f"{line.title}. {line.text}", "- ", width, line.formulas))
    out += ["", wrap(FURTHER, "", width)]
    return "\n".join(out) + "\n"


def _sheet_markdown(sheet: RuleSheet) -> str:
    out = [f"# {sheet.title or sheet.name}", "", f"Ruleset `{sheet.name}`."]
    if sheet.description:
        out += ["", f"*{sheet.description}*"]
    if sheet.based_on:
        out += ["", f"Based on `{sheet.based_on}`."]
    if sheet.source:
        out += ["", f"Source: {sheet.source}"]
    for section in sheet.sections:
        out += ["", f"## {section.title}", ""]
        out += [f"- **{line.title}.** {markdown_text(line)}" for line in section.rules]
    out += ["", "---", "", FURTHER.replace("docs/variants.md", "`docs/variants.md`")
            .replace("docs/records.md", "`docs/records.md`")]
    return "\n".join(out) + "\n"


def render_sheet(sheet: RuleSheet, fmt: str = "text", width: int = DEFAULT_WIDTH) -> str:
    """The sheet as plain text (terminal, filled to ``width`` columns), markdown or JSON."""
    if fmt == "json":
        return json.dumps(sheet.to_dict(), indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return _sheet_markdown(sheet)
    if fmt == "text":
        return _sheet_text(sheet, width)
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")


def rule_keys(optional: bool = False) -> Iterable[str]:
    """The keys of every rule every sheet tells (examples aside), in table order; with
    ``optional``, also the house-rule keys a sheet tells only when the ruleset uses them
    (a list rule's key, such as ``events``, stands for its items ``events[0]``, ...)."""
    return [s.key for s in _ordered_specs() if optional or not s.optional]


def _ordered_specs() -> list[_Spec]:
    order = {s: i for i, s in enumerate(SECTIONS)}
    return sorted(_SPECS, key=lambda s: order[s.section])


def rule_order(key: str) -> tuple[int, int]:
    """Where a rule key stands in table order: its spec, then its item (``events[2]``)."""
    base, _, item = key.partition("[")
    index = next(i for i, s in enumerate(_ordered_specs()) if s.key == base)
    return index, int(item.rstrip("]") or 0)


def rule_title(key: str) -> str:
    """A rule's English name, as the sheet and ``diff`` title it ("Voluntary draws"): the
    rule whose key is the longest prefix of ``key`` (a data path such as
    ``drawing.voluntary`` or ``events[0]``), else ``key`` itself."""
    parts = key.replace("[", ".[").split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n]).replace(".[", "[")
        base = prefix.partition("[")[0]
        title = next((s.title for s in _SPECS if s.key == base), None)
        if title is not None:
            return title
    return key


# The house-rule mechanisms register their (optional) rules there, after the plain game's.
from . import describe_house  # noqa: E402, F401
