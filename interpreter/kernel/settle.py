"""The general settlement and match end as code: ``GeneralLoop._settle`` and ``_match_over``
written out for one ruleset, its switches resolved and its formulas emitted inline.

The general loop builds a ``Tally`` per seat and side, a ``Facts`` dict and calls formula
closures at every round's end; a kernel that plays the moves in a few microseconds spends
most of its round there. Here the same settlement is one function over per-seat and
per-side arrays (``formulas``' ``V``, ``SV``... plus doubles, scores and rounds won), each
array or round fact computed only when a formula of the ruleset reads it.

``GeneralLoop._settle`` / ``_match_over`` stay the truth (the step-by-step ``State`` and
``verify`` run them); ``tests/test_kernel.py`` plays every ruleset both ways and compares.
A formula reading something not written here raises ``Unsupported``: ``settlement_for`` /
``match_over_for`` then return None and the caller keeps the loop's own methods.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine.general_loop import RoundEnd
from ..expr import ast
from ..expr.runtime import floordiv, mod
from ..expr.types import PLAYER, SIDE, TILE, Type
from ..generated import compile_named, label
from .formulas import Unsupported, _Emitter

if TYPE_CHECKING:
    from ..engine.game import Game

# a side's / a seat's attribute -> the array holding it per index
_SIDE = {"pips": "SP", "value": "SV", "tiles": "ST", "drawn": "SD", "doubles": "SQ",
         "score": "scores", "rounds_won": "rounds_won"}
_SEAT = {"pips": "P", "value": "V", "tiles": "C", "drawn": "DB", "doubles": "Q"}
# a side array -> the seat array it sums
_SUMS = {"SP": "P", "SV": "V", "ST": "C", "SD": "DB", "SQ": "Q"}
# a round fact -> (its local, the line computing it; None: an argument already)
_FACTS = {
    "blocked": ("blocked", "blocked = domino is None"),
    "round": ("rnd", None),
    "last_tile": ("last_t", "last_t = TT[last_tile]"),
    "last_player": ("last_player", None),
    "both_ends": ("last_both", None),
    "passes": ("passes", None),
    "drawn": ("drawn", "drawn = sum(drawn_by)"),
    "ends": ("ends", "ends = board.ends()"),
    "end_total": ("end_total", "end_total = board.end_total()"),
    "boneyard": ("boneyard", "boneyard = len(deck) - pos"),
    "boneyard_value": ("boneyard_value", "boneyard_value = sum([VALS[t] for t in deck[pos:]])"),
    "boneyard_pips": ("boneyard_pips", "boneyard_pips = sum([PIPS[t] for t in deck[pos:]])"),
    "sides": ("SIDES", None),
    "seats": ("SEATS", None),
}
_LOCAL = re.compile(r"[A-Za-z_]\w*")


class _FactEmitter(_Emitter):
    """``formulas``' emitter over a field's names: round facts become locals, sides and
    seats also offer their doubles, score and rounds won; what is used is noted."""

    def __init__(self, names: dict[str, str], side_attrs: dict[str, str],
                 seat_attrs: dict[str, str], won: Callable[[str], str] | None = None) -> None:
        super().__init__("python")
        self.names_of = names
        self.side_attrs, self.seat_attrs = side_attrs, seat_attrs
        self.won = won          # side index source -> its ``won``; None: not offered here
        self.used: set[str] = set()

    def emit(self, node: ast.Node) -> str:
        match node:
            case ast.Name(name=name):
                if name not in self.names_of:
                    raise Unsupported(f"Name {name}")
                self.used.add(name)
                return self.names_of[name]
            case ast.Tile():
                return super(_Emitter, self).emit(node)
        return super().emit(node)

    def attribute(self, typ: Type | None, obj: str, attr: str) -> str:
        if typ == TILE:
            if _LOCAL.fullmatch(obj):       # a local: read its halves directly
                return {"low": f"{obj}[0]", "high": f"{obj}[1]",
                        "pips": f"({obj}[0] + {obj}[1])",
                        "is_double": f"({obj}[0] == {obj}[1])"}[attr]
            return super(_Emitter, self).attribute(typ, obj, attr)
        if typ == SIDE and attr == "won":
            if self.won is None:
                raise Unsupported("won")
            return self.won(obj)
        return super().attribute(typ, obj, attr)

    def table(self, typ: Type, attr: str) -> str | None:
        found = (self.side_attrs if typ == SIDE else self.seat_attrs if typ == PLAYER
                 else {}).get(attr)
        if found is not None:
            self.used.add(found)
        return found


def _code(source: str, name: str, game: Game, players: int) -> Any:
    return compile_named(source, label(name, game.rules.name, f"{players}p"))


def _namespace(game: Game, players: int) -> dict[str, Any]:
    ts = game.tileset
    teams = game.teams(players)
    return {
        "__builtins__": {"sum": sum, "min": min, "max": max, "len": len, "abs": abs,
                         "any": any, "all": all, "map": map, "list": list},
        "_floordiv": floordiv, "_mod": mod,
        "VALUE_OF": game.hand_value, "PIPS_OF": game.hand_pips,
        "LO": game._chunks[0], "HI": game._chunks[-1],
        "DMASK": ts.doubles_mask, "bit_count": int.bit_count,
        "TT": tuple(zip(ts.low, ts.high, strict=True)), "VALS": game.values, "PIPS": ts.pips,
        "TEAMS": teams, "SIDE_OF": game.side_of(players),
        "SEATS": tuple(range(players)), "SIDES": tuple(range(len(teams))),
        "OPP": tuple(tuple(j for j in range(len(teams)) if j != i) for i in range(len(teams))),
    }


def _seat_line(name: str, game: Game) -> str:
    if name == "V":
        if len(game._chunks) == 2:
            return "V = [LO[h & 16383] + HI[h >> 14] for h in hands]"
        return "V = list(map(VALUE_OF, hands))"
    if name == "P":
        return "P = V" if game.hand_pips is game.hand_value else "P = list(map(PIPS_OF, hands))"
    if name == "C":
        return "C = list(map(bit_count, hands))"
    if name == "DB":
        return "DB = drawn_by"
    return "Q = [bit_count(h & DMASK) for h in hands]"


class SettleSource:
    """The settlement function's source, whether it reads the board (``ends``,
    ``end_total``: only then must a caller make one) and whether it reads ``both_ends``
    (only then must a kernel keep whether the last tile fitted both ends)."""

    def __init__(self, text: str, reads_board: bool, reads_both_ends: bool) -> None:
        self.text, self.reads_board = text, reads_board
        self.reads_both_ends = reads_both_ends


def settlement_source(game: Game, players: int) -> SettleSource:  # noqa: C901 - one switch each
    """``settle(...)``'s source for ``game`` at ``players`` (see ``settlement_for``); raises
    ``Unsupported`` when a formula reads what is not written here."""
    rules = game.rules
    if rules.variables:   # their values live on the loop (GeneralLoop.values)
        raise Unsupported("the ruleset's variables")
    teams = game.teams(players)
    S = len(teams)
    individual = S == players
    target = game.target(players)
    setup = game.setup(players)
    facts = {k: v[0] for k, v in _FACTS.items()}
    facts.update({"target": str(target), "players": str(players)})
    used: set[str] = set()

    def formula(tree: Any, extra: dict[str, str], won: Callable[[str], str] | None = None
                ) -> str:
        if tree is None:
            raise Unsupported("a formula without its tree")
        e = _FactEmitter({**facts, **extra}, _SIDE, _SEAT, won)
        text = e.emit(tree)
        used.update(e.used)
        return text

    scoring = {"winner": "w", "opponents": "OPP[w]"}
    dom = formula(rules.domino_tree, scoring)
    blk = formula(rules.blocked_tree, scoring)
    how = rules.blocked_winner
    body: list[str] = []
    add = body.append

    # -- who wins the round
    def rank_of(i: int) -> str:
        if how == "lowest_hand":
            used.add("V")
            members = [f"V[{s}]" for s in teams[i]]
            return f"min({', '.join(members)})" if len(members) > 1 else members[0]
        if how == "lowest_side" or rules.blocked_rank is None:
            used.add("SV")
            return f"SV[{i}]"
        return formula(rules.blocked_rank_tree, {"side": str(i)})

    def seat_of_winner(ind: str) -> list[str]:
        if individual:
            return [f"{ind}wseat = TEAMS[wside][0]"]
        used.add("V")
        return [f"{ind}wseat = min(TEAMS[wside], key=V.__getitem__)"]

    def compare(ind: str) -> None:
        add(f"{ind}R = [{', '.join(rank_of(i) for i in range(S))}]")
        pick = {"last_player": "SIDE_OF[last_player]",
                "next_player": "SIDE_OF[NEXT[last_player]]"}.get(rules.blocked_tie)
        if rules.blocked_among == "last_two":
            add(f"{ind}a, b = SIDE_OF[last_player], SIDE_OF[NEXT[last_player]]")
            add(f"{ind}among = (a,) if a == b else (a, b) if a < b else (b, a)")
            add(f"{ind}best = {'max' if how == 'highest' else 'min'}([R[k] for k in among])")
            add(f"{ind}lowest = [k for k in among if R[k] == best]")
        else:
            add(f"{ind}best = {'max' if how == 'highest' else 'min'}(R)")
            add(f"{ind}lowest = [k for k in SIDES if R[k] == best] if R.count(best) > 1 "
                "else [R.index(best)]")
        if pick is not None:
            add(f"{ind}if len(lowest) > 1 and {pick} in lowest:")
            add(f"{ind}    lowest = [{pick}]")
        add(f"{ind}if len(lowest) == 1:")
        add(f"{ind}    wside = lowest[0]")
        if rules.domino_winner == "dominoer":
            body.extend(seat_of_winner(ind + "    "))
        else:
            add(f"{ind}    if domino is not None and SIDE_OF[domino] == wside:")
            add(f"{ind}        wseat = domino")
            add(f"{ind}    else:")
            body.extend(seat_of_winner(ind + "        "))
        add(f"{ind}else:")
        add(f"{ind}    tied = True")

    def score(ind: str, text: str) -> None:
        add(f"{ind}if wside is not None:")
        add(f"{ind}    w = wside")
        add(f"{ind}    points[w] = {text}")
        if rules.blocked_tie == "each":
            add(f"{ind}else:")
            add(f"{ind}    for w in lowest:")
            add(f"{ind}        points[w] = {text}")

    add(f"points = [{', '.join(['0'] * S)}]")
    add("wside = wseat = None")
    add("tied = False")
    if rules.domino_winner == "dominoer":
        add("if domino is not None:")
        add("    wseat = domino")
        add("    wside = w = SIDE_OF[domino]")
        add(f"    points[w] = {dom}")
        add("else:")
        compare("    ")
        score("    ", blk)
    else:
        compare("")
        score("", dom if dom == blk else f"({dom} if domino is not None else {blk})")
    # -- points for every side
    if rules.every_side is not None:
        def won(side: str) -> str:   # the loop marks each side as it reaches it
            return f"({side} == wside)"
        for i in range(S):
            add(f"points[{i}] += {formula(rules.every_side_tree, {'side': str(i)}, won)}")
    if setup.draw_cost:
        cost = setup.draw_cost
        add("paid = 0")
        for s in range(players):
            add(f"if drawn_by[{s}]:")
            add(f"    points[{game.side_of(players)[s]}] -= {cost} * drawn_by[{s}]")
            add(f"    paid += {cost} * drawn_by[{s}]")
        if rules.draw_cost_to == "round_winner":
            add("if wside is not None:")
            add("    points[wside] += paid")
    exact = rules.exact_target and rules.match_end == "points"
    for i in range(S):
        if rules.minimum_to_start:
            add(f"if scores[{i}] == 0 and points[{i}] < {rules.minimum_to_start}:")
            add(f"    points[{i}] = 0")
        if exact:
            add(f"if scores[{i}] + points[{i}] > {target}:")
            add(f"    points[{i}] = 0")
    add("return V, wside, wseat, tied, points")

    # -- what the formulas read, computed first
    head: list[str] = []
    sides = {k for k in used if k in _SUMS}
    seats = {"V"} | {k for k in used if k in _SUMS.values()} | {_SUMS[k] for k in sides}
    if "P" in seats:
        seats.add("V")
    for name in ("V", "P", "C", "DB", "Q"):
        if name in seats:
            head.append(_seat_line(name, game))
    for name in ("SP", "SV", "ST", "SD", "SQ"):
        if name in sides:
            seat = _SUMS[name]
            if individual:
                head.append(f"{name} = {seat}")
            else:
                sums = [" + ".join(f"{seat}[{s}]" for s in t) for t in teams]
                head.append(f"{name} = [{', '.join(sums)}]")
    for fact, (_, line) in _FACTS.items():
        if fact in used and line is not None:
            head.append(line)
    unpack = textwrap.fill("(" + ", ".join(RoundEnd._fields) + ") = ended", 92,
                           subsequent_indent=" " * 8)   # the record's own field order
    text = ("def settle(ended):\n"
            + "".join(f"    {line}\n" for line in [unpack, *head, *body]))
    return SettleSource(text, "ends" in used or "end_total" in used, "both_ends" in used)


def settlement_for(game: Game, players: int) -> Callable[..., tuple] | None:
    """The general settlement of ``game`` at ``players`` as one generated function, or None
    when a formula reads what the generator does not write (keep ``GeneralLoop._settle``).

    ``settle(ended) -> (pips, winner side, winner seat, tied, points)`` of a
    ``general_loop.RoundEnd`` (its ``board`` read only when ``settle.reads_board``; else
    None will do; ``scores``/``rounds_won`` read, not changed). ``pips`` is the record's:
    each seat's hand value; ``points`` per side, as ``GeneralLoop._settle``'s.
    """
    found = game.__dict__.setdefault("_settlements", {})
    if players not in found:
        try:
            src = settlement_source(game, players)
        except Unsupported:
            found[players] = None
        else:
            namespace = _namespace(game, players)
            namespace["NEXT"] = _next(game, players)
            exec(_code(src.text, "settle", game, players), namespace)  # noqa: S102 - from checked trees
            fn = namespace["settle"]
            fn.reads_board = src.reads_board
            fn.reads_both_ends = src.reads_both_ends
            fn.source = src.text
            found[players] = fn
    return found[players]


def _next(game: Game, players: int) -> tuple[int, ...]:
    step = -1 if game.rules.direction == "right" else 1
    return tuple((s + step) % players for s in range(players))


def match_over_source(game: Game, players: int) -> str:
    """``match_over(rnd, scores, rounds_won) -> (over, winner side)``'s source, as
    ``GeneralLoop._match_over``; raises ``Unsupported`` as ``settlement_source``."""
    rules = game.rules
    if rules.variables:
        raise Unsupported("the ruleset's variables")
    target = game.target(players)
    play_on = game.setup(players).play_on
    body: list[str] = []
    add = body.append
    if rules.match_end == "rounds_won":
        add("top = max(rounds_won)")
        add(f"if top >= {target}:")
        add("    return True, rounds_won.index(top)")
    else:
        due = f"rnd >= {target}" if rules.match_end == "rounds" else f"max(scores) >= {target}"
        add(f"if {due}:")
        add(f"    best = {'min' if rules.match_winner == 'lowest' else 'max'}(scores)")
        add("    if scores.count(best) == 1:")
        add("        return True, scores.index(best)")
        if not play_on:
            add("    return True, None")
    if rules.draw_if is not None:
        if rules.draw_if_tree is None:
            raise Unsupported("a formula without its tree")
        names = {"sides": "SIDES", "round": "rnd", "players": str(players),
                 "target": str(target)}
        side = {"score": "scores", "rounds_won": "rounds_won"}
        add(f"if {_FactEmitter(names, side, {}).emit(rules.draw_if_tree)}:")
        add("    return True, None")
    add("return False, None")
    return "def match_over(rnd, scores, rounds_won):\n" + "".join(f"    {x}\n" for x in body)


def match_due(game: Game, players: int) -> str:
    """An expression over ``rnd_no``, ``scores``, ``rounds_won`` that is false only when
    ``match_over`` would say the match goes on: a kernel skips the call then."""
    rules = game.rules
    target = game.target(players)
    if rules.draw_if is not None:
        return "True"
    if rules.match_end == "rounds_won":
        return f"max(rounds_won) >= {target}"
    if rules.match_end == "rounds":
        return f"rnd_no >= {target}"
    return f"max(scores) >= {target}"


def match_over_for(game: Game, players: int) -> Callable[..., tuple] | None:
    """``GeneralLoop._match_over`` of ``game`` at ``players`` as one generated function,
    ``match_over(rnd, scores, rounds_won) -> (over, winner side or None)``, or None when
    the drawn-match condition reads what the generator does not write."""
    found = game.__dict__.setdefault("_match_overs", {})
    if players not in found:
        try:
            text = match_over_source(game, players)
        except Unsupported:
            found[players] = None
        else:
            namespace = _namespace(game, players)
            exec(_code(text, "match_over", game, players), namespace)  # noqa: S102 - from checked trees
            fn = namespace["match_over"]
            fn.source = text
            found[players] = fn
    return found[players]
