"""A ruleset's house-rule formulas for the JIT kernel as small programs, and their
evaluator in numba.

Written into the kernel's source, every ruleset's formulas would make a kernel of its
own, each compiled for seconds. Instead ``program`` turns a checked tree into integers
(postfix operations on a stack), ``run`` evaluates them, and one compiled kernel plays
every ruleset with house rules of the round's end, the match's end, the deal, the lead
or the opening (``jit_loop``'s ``GEN`` lines); a formula runs a few times a round,
so a loop over ten operations costs nothing there.

A program reads the round's facts from ``F`` (by ``FACTS``, filled by the kernel before
it runs) and per-index tables from the rows of ``TAB`` (``TABLES``: sides, seats and
tiles). Lists are only folded (``sum``, ``min``, ``max``, ``count`` of the sides, seats,
opponents or a side's players; a settlement's ``ends``, the board as the round left it,
as an event's). What else a formula reads (``x -> ...`` over the sides or seats, tiles
ordered) raises ``Unsupported``: the Python engine plays that ruleset. A placement
restriction also folds the tiles of its hand and playable tiles (masks in ``F``; on a set
over 62 tiles rows of words at the end of ``F``, the fact their place: ``jit_masks.put_fact``,
folded by ``SET_FOLD``, the program written for the set's size); an event
reads ``ends[k]`` for a written ``k`` (one of the line's two ends) and ``x -> ...`` over a
list of a few facts (``end_tiles``: the tiles at the line's ends), written out once per
element, so a table reading is compiled from its formula like any other; on a spinner
those lists are two facts or four (``Spun``), each reading written for both; on a shaped
board (``board.layout``) they hold every open end (``Shaped``: as many as are open, kept in
``F`` by ``jit_layout.list_facts``), folded, indexed and read element by element by loops
in the program (``EACH_BEGIN`` ... ``EACH_NEXT``, the element in a fact of its own).

>>> from ..expr import compile_expression
>>> tree = compile_expression("sum(opponents.value) + 5", "scoring").ast
>>> program(tree, {"winner": "winner"}, {"opponents": OPPONENTS}, {})
[2, 9, 23, 0, 2, 1, 1, 5, 6, 0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..expr import ast
from ..expr.compiler import compile_tree
from ..expr.types import PLAYER, SIDE, TILE
from .formulas import Unsupported
from .jit import njit
from .jit_bits import BITS, words
from .jit_support import low_index
from .jit_template import EACH_DEPTH, FACTS, PLAY_FACTS, TABLES

# F's places (jit_template.FACTS, then PLAY_FACTS)
FACT = {name: i for i, name in enumerate((*FACTS, *PLAY_FACTS))}
TAB = {name: i for i, name in enumerate(TABLES)}   # TAB's rows (jit_template.TABLES)
_SIDE = {"pips": "SP", "value": "SV", "tiles": "ST", "drawn": "SD", "doubles": "SQ",
         "score": "scores", "rounds_won": "rounds_won"}
_SEAT = {"pips": "P", "value": "V", "tiles": "C", "drawn": "DB", "doubles": "DQ"}
_TILE = {"low": "TL", "high": "TH", "pips": "PIPS"}
STACK = 64          # the deepest a program may reach
_POS, _TL, _TH = FACT["pos"], TAB["TL"], TAB["TH"]
_END_L, _END_R = FACT["end_l"], FACT["end_r"]

(END, CONST, FACT_OP, AT, NEG, NOT, ADD, SUB, MUL, FLOORDIV, MOD, EQ, NE, LT, LE, GT, GE,
 AND, OR, COND, MIN2, MAX2, ABS, FOLD, BONEYARD, IS_DOUBLE, MASK, TILE_MASK, SHAPED_AT,
 SHAPED_FOLD, EACH_BEGIN, EACH_NEXT, SET_FOLD) = range(33)
# MASK fact bits: bit F[fact] of ``bits`` (0 past its 62): a truth read from one fact only,
# tabled by ``jit_house`` from its formula (an event's ``if`` on the ends' total or the tile)
MASK_BITS = 62
_BINARY = {"+": ADD, "-": SUB, "*": MUL, "//": FLOORDIV, "%": MOD, "==": EQ, "!=": NE,
           "<": LT, "<=": LE, ">": GT, ">=": GE, "and": AND, "or": OR}
_FOLDS = {"sum": 0, "min": 1, "max": 2, "count": 3}
# the lists a fold runs over: every side, every seat, the sides but one, a side's seats,
# the tiles of a mask (a fact: a placement's hand or playable tiles), the line's two open
# ends (an event's ``ends``: the facts end_l and end_r)
ALL_SIDES, ALL_SEATS, OPPONENTS, TEAM, TILES, ENDS = 0, 1, 2, 3, 4, 5


class Twice(dict):
    """The tiles by name where the set holds each twice (``set.copies: 2``): a name is its
    first copy's index, its second copy the next one (``engine.tiles``). The loop compares
    tiles by their pips, so a program compares two tiles by their indexes halved (both
    copies are one tile) and a test of the tile alone holds for both copies or neither."""


def every_index(tiles: dict[tuple[int, int], int]) -> list[tuple[tuple[int, int], int]]:
    """Each (tile, index) of the set: both copies' indexes of a tile held twice."""
    if isinstance(tiles, Twice):
        return [pair for tile, i in tiles.items() for pair in ((tile, i), (tile, i + 1))]
    return list(tiles.items())


class Shaped(NamedTuple):
    """A list over a shaped board's open ends (``ends``: their values, ``end_tiles``: the
    tiles lying there), its elements in ``F`` from the fact ``first`` on, ``shaped_n`` of
    them (``jit_layout.list_facts``); ``nothing``: what it reads past either end
    (``runtime.NOTHING``: 0, or the tile (-1, 0), ``TAB``'s column after the set's tiles)."""

    first: str
    nothing: int


@dataclass(frozen=True)
class Doubled:
    """A line's ``end_doubles`` (an event's): whether the tile at each end is a double,
    as ``Board.doubles`` keeps them there (a double lies across its end), each element
    the tile fact of ``tiles`` (``end_tiles``' facts) read through ``IS_DOUBLE``. (Not a
    tuple: a tuple of facts is a list read as they stand.)"""

    tiles: tuple[str, ...]


@dataclass(frozen=True)
class _IsDouble:   # an element of a Doubled list: its tile fact, read as being a double
    tile: str


class Spun(NamedTuple):
    """A list of facts, one an open end, on a spinner: the line's two (``two``) until its
    arms open, then four (``four``: left, right, up, down, as ``Board.ends`` lists them).
    A reading of it is written for both and ``COND`` takes one by the fact ``ends_open``
    (2 or 4) as the program runs: an event's ``ends`` and ``end_tiles``; ``nothing``:
    what it reads past either end, as ``Shaped.nothing``."""

    two: tuple[str, ...]
    four: tuple[str, ...]
    nothing: int = 0


def program(tree: ast.Node, names: dict[str, Any], lists: dict[str, int],
            tiles: dict[tuple[int, int], int], room: int = STACK) -> list[int]:
    """``tree`` as a program ending with ``END``. ``names``: a formula's name -> the fact
    holding it (``FACTS``, or a variable's place in F, or ``(value,)``: a number written
    in; ``boneyard_value`` and ``boneyard_pips`` are summed from the deck);
    ``lists``: a list name -> ``ALL_SIDES``/``ALL_SEATS``/``OPPONENTS`` (the opponents of
    the fact ``winner``); ``tiles``: (low, high) -> the tile's index in the set;
    ``room``: the stack it may fill (less when it runs above another's value)."""
    out: list[int] = []
    depth = _Writer(names, lists, tiles, out).value(tree)
    if depth > room:
        raise Unsupported("a formula too deep for the JIT's stack")
    out.append(END)
    return out


class _Writer:
    """Writes a checked tree's operations; ``value`` returns the stack depth it needs."""

    def __init__(self, names: dict[str, Any], lists: dict[str, int],
                 tiles: dict[tuple[int, int], int], out: list[int], depth: int = 0) -> None:
        self.names, self.lists, self.tiles, self.out = names, lists, tiles, out
        self.depth = depth   # the loops over a Shaped list this one is written inside

    def fact(self, name: str) -> int:
        if name not in self.names:
            raise Unsupported(f"Name {name}")
        found = self.names[name]
        if isinstance(found, tuple):   # a number of the ruleset, written in (max_pip)
            self.out += [CONST, int(found[0])]
        elif isinstance(found, int):   # a variable: its place in F
            self.out += [FACT_OP, found]
        elif isinstance(found, _IsDouble):   # an element of end_doubles (Doubled)
            self.out += [FACT_OP, FACT[found.tile], IS_DOUBLE]
        elif found in ("boneyard_value", "boneyard_pips"):   # summed over the deck from pos
            self.out += [BONEYARD, TAB["VALUES" if found == "boneyard_value" else "PIPS"]]
        else:
            self.out += [FACT_OP, FACT[found]]
        return 1

    def value(self, node: ast.Node) -> int:  # noqa: C901 - one case per node kind
        out = self.out
        match node:
            case ast.Int(value=v):
                out += [CONST, int(v)]
                return 1
            case ast.Bool(value=v):
                out += [CONST, int(bool(v))]
                return 1
            case ast.Tile(low=low, high=high):
                index = self.tiles.get((int(low), int(high)))
                if index is None:
                    raise Unsupported("a tile the set does not hold")
                out += [CONST, int(index)]
                return 1
            case ast.Name(name=name):
                if node.type is not None and node.type.elem is not None:
                    raise Unsupported(f"the list {name} other than folded")
                return self.fact(name)
            case ast.Attribute(obj=obj, attr=attr):
                return self.attribute(obj, attr)
            case ast.Unary(op=op, operand=x):
                depth = self.value(x)
                out.append(NEG if op == "-" else NOT)
                return depth
            case ast.Binary(op=op, left=a, right=b):
                if a.type == TILE and op not in ("==", "!="):
                    raise Unsupported("tiles compared by order")
                if a.type == TILE and isinstance(self.tiles, Twice):   # a copy is the tile
                    depth = max(self.value(a), 2)
                    out += [CONST, 2, FLOORDIV]
                    depth = max(depth, 1 + self.value(b), 3)
                    out += [CONST, 2, FLOORDIV, _BINARY[op]]
                    return depth
                depth = max(self.value(a), 1 + self.value(b))
                out.append(_BINARY[op])
                return depth
            case ast.Conditional(then=then, test=test, orelse=orelse):
                depth = max(self.value(test), 1 + self.value(then), 2 + self.value(orelse))
                out.append(COND)
                return depth
            case ast.Index(obj=ast.Name(name=name), at=at) if self.lists.get(name) == ENDS:
                return self.end_at(name, at)
            case ast.Index(obj=ast.Name(name=name), at=at) if isinstance(self.lists.get(name),
                                                                         Shaped):
                shaped = self.lists[name]
                depth = self.value(at)
                out += [SHAPED_AT, FACT[shaped.first], shaped.nothing]
                return depth
            case ast.Call(func=func, args=[ast.Name(name=name), ast.Each(var=var, body=body)]) \
                    if isinstance(self.lists.get(name), Shaped) and func in _EACH:
                return self.each(func, self.lists[name], var, body)
            case ast.Index(obj=ast.Name(name=name), at=at) if isinstance(self.lists.get(name),
                                                                         Spun):
                k = _constant(at)
                if k is None:
                    raise Unsupported(f"the list {name} indexed by a formula")
                spun = self.lists[name]
                return self.spun(spun, lambda facts: self.item(facts, k, spun.nothing))
            case ast.Call(func=func, args=[ast.Name(name=name), ast.Each(var=var, body=body)]) \
                    if isinstance(self.lists.get(name), Spun) and func in _UNROLLED:
                return self.spun(self.lists[name],
                                 lambda facts: self.unrolled(func, facts, var, body))
            case ast.Index(obj=ast.Name(name=name), at=at) if isinstance(self.lists.get(name),
                                                                         Doubled):
                k = _constant(at)
                if k is None:
                    raise Unsupported(f"the list {name} indexed by a formula")
                return self.item(self.doubles(name), k, 0)
            case ast.Call(func=func, args=[ast.Name(name=name), ast.Each(var=var, body=body)]) \
                    if isinstance(self.lists.get(name), Doubled) and func in _UNROLLED:
                return self.unrolled(func, self.doubles(name), var, body)
            case ast.Index(obj=ast.Name(name=name)):
                raise Unsupported(f"the list {name} indexed")
            case ast.Call(func=func, args=[ast.Name(name=name), ast.Each(var=var, body=body)]) \
                    if isinstance(self.lists.get(name), tuple) and func in _UNROLLED:
                return self.unrolled(func, self.lists[name], var, body)
            case ast.Call(func=func, args=[ast.Name(name=name), ast.Each(var=var, body=body)]) \
                    if self.lists.get(name) == ENDS and func in _UNROLLED:
                # the line's two ends, written out over the facts FOLD reads them from
                return self.unrolled(func, ("end_l", "end_r"), var, body)
            case ast.Call(func=func, args=[ast.Name(name=name), ast.Each(var=var, body=body)]) \
                    if self.lists.get(name) == TILES and func in _MASKED:
                return self.masked(func, name, var, body)
            case ast.Call(args=[_, ast.Each()]):
                raise Unsupported("x -> ...")
            case ast.Call(func=func, args=args):
                return self.call(func, args)
        raise Unsupported(type(node).__name__)

    def end_at(self, name: str, at: ast.Node) -> int:
        """``ends[k]`` for a number ``k`` written in the formula: the line's left or right
        end (``runtime.index``: counted from the end when negative, 0 past either end)."""
        k = _constant(at)
        if k is None:
            raise Unsupported(f"the list {name} indexed by a formula")
        if k in (0, -2):
            self.out += [FACT_OP, _END_L]
        elif k in (1, -1):
            self.out += [FACT_OP, _END_R]
        else:
            self.out += [CONST, 0]
        return 1

    def spun(self, lists: Spun, write: Any) -> int:
        """A reading of a spinner's ends (``Spun``): ``write``'s program over the four
        ends, then over the line's two, and ``COND`` by whether the arms are open."""
        self.out += [FACT_OP, FACT["ends_open"], CONST, 4, EQ]
        four = write(lists.four)
        two = write(lists.two)
        self.out.append(COND)
        return max(2, 1 + four, 2 + two)

    def item(self, facts: tuple[str | _IsDouble, ...], k: int, nothing: int) -> int:
        """The ``k``-th of ``facts`` (``runtime.index``: counted from the end when
        negative, ``nothing`` past either end)."""
        if -len(facts) <= k < len(facts):
            self.fact_of(facts[k])
        else:
            self.out += [CONST, nothing]
        return 1

    def fact_of(self, fact: str | _IsDouble) -> None:
        """An element of a list of facts: the fact, or its tile's being a double."""
        if isinstance(fact, _IsDouble):
            self.out += [FACT_OP, FACT[fact.tile], IS_DOUBLE]
        else:
            self.out += [FACT_OP, FACT[fact]]

    def doubles(self, name: str) -> tuple[_IsDouble, ...]:
        """The elements of a ``Doubled`` list, as ``unrolled`` and ``item`` read them."""
        return tuple(_IsDouble(t) for t in self.lists[name].tiles)

    def folded(self, func: str, facts: tuple[str, ...]) -> int:
        """``sum``, ``min``, ``max`` or ``count`` of ``facts`` themselves (the ends)."""
        if func == "count":
            self.out += [CONST, len(facts)]
            return 1
        for k, fact in enumerate(facts):
            self.out += [FACT_OP, FACT[fact]]
            if k:
                self.out.append(_UNROLLED[func])
        return 2 if len(facts) > 1 else 1

    def unrolled(self, func: str, facts: tuple[str | _IsDouble, ...], var: str,
                 body: ast.Node) -> int:
        """``func(items, var -> body)`` over a list of a few facts (the tiles at the line's
        ends: ``end_tiles``), written out once per element with ``var`` read from its fact,
        the values folded pairwise as ``runtime.EACH`` folds them."""
        if not facts:
            raise Unsupported(f"{func} of an empty list")
        depth = 0
        for k, fact in enumerate(facts):
            inner = _Writer({**self.names, var: fact}, self.lists, self.tiles, self.out,
                            self.depth)
            depth = max(depth, (1 if k else 0) + inner.value(body))
            if func == "count":   # a truth as 1 or 0
                self.out += [NOT, NOT]
            if k:
                self.out.append(_UNROLLED[func])
        return depth

    def each(self, func: str, shaped: Shaped, var: str, body: ast.Node) -> int:
        """``func(items, var -> body)`` over a ``Shaped`` list: a loop in the program,
        ``EACH_BEGIN`` (an empty list's value, else the fold's value and the index kept on
        the stack, the first element in the fact ``each<depth>``), the body, ``EACH_NEXT``
        (folds the body's value in as ``runtime.EACH`` does, then back to the body with
        the next element, or on); both jumps are offsets from their own operation."""
        if self.depth >= EACH_DEPTH:
            raise Unsupported(f"x -> ... nested over {EACH_DEPTH} deep")
        slot = f"each{self.depth}"
        out = self.out
        begin = len(out)
        out += [EACH_BEGIN, _EACH[func], FACT[shaped.first], FACT[slot], 0]
        start = len(out)
        inner = _Writer({**self.names, var: slot}, self.lists, self.tiles, out, self.depth + 1)
        depth = 2 + inner.value(body)
        nxt = len(out)
        out += [EACH_NEXT, _EACH[func], FACT[shaped.first], FACT[slot], nxt - start]
        out[begin + 4] = len(out) - begin
        return depth

    def masked(self, func: str, name: str, var: str, body: ast.Node) -> int:
        """``count``, ``any`` or ``all`` of a mask's tiles (``hand``) by a test of the tile
        alone (``t -> t.is_double``): the test is read here for every tile of the set, so
        the program only ands the mask with the tiles it holds for (``TILE_MASK``) and counts."""
        if not ast.names_read(body) <= {var}:
            raise Unsupported("x -> ... reading more than its tile")
        test = compile_tree(body)
        holds = 0
        for key, index in every_index(self.tiles):   # (both copies of a tile held twice)
            if test({var: key}):
                holds |= 1 << index
        W = self.words()
        keep = holds if func != "all" else ~holds & ((1 << (BITS * W if W else 63)) - 1)
        self.fact(name)
        if W:   # a set of words (jit_masks.put_fact): the test's tiles as W words
            self.set_fold(3, -1, keep)
        else:
            self.out += [TILE_MASK, keep, FOLD, 3, TILES, -1]
        if func == "any":
            self.out += [NOT, NOT]
        elif func == "all":   # none of them fails it
            self.out.append(NOT)
        return 1

    def words(self) -> int:
        """The words of the set's tile sets in the kernel (``jit_bits``: a set over
        ``BITS`` tiles), 0 for a set of masks."""
        n = len(every_index(self.tiles))
        return words(n) if n > BITS else 0

    def set_fold(self, func: int, table: int, keep: int) -> None:
        """A fold over the tiles of a set of words (its place in ``F`` on the stack) that
        ``keep`` holds (``SET_FOLD``: the words of ``keep`` written after it)."""
        W = self.words()
        low = (1 << BITS) - 1
        self.out += [SET_FOLD, func, table, W,
                     *((keep >> (BITS * w)) & low for w in range(W))]

    def attribute(self, obj: ast.Node, attr: str) -> int:
        typ = obj.type
        if typ is None:
            raise Unsupported("an unchecked tree")
        if typ.elem is not None:
            raise Unsupported(f"{attr} of a list other than folded")
        if typ == SIDE and attr == "index" or typ == PLAYER and attr == "seat":
            return self.value(obj)
        if typ == SIDE and attr == "won":
            depth = self.value(obj)
            self.fact("won")
            self.out.append(EQ)
            return max(depth, 2)
        if typ == TILE and attr == "is_double":
            depth = self.value(obj)
            self.out.append(IS_DOUBLE)
            return depth
        table = (_SIDE if typ == SIDE else _SEAT if typ == PLAYER else
                 _TILE if typ == TILE else {}).get(attr)
        if table is None:
            raise Unsupported(f"{typ}.{attr}")
        depth = self.value(obj)
        self.out += [AT, TAB[table]]
        return depth

    def call(self, func: str, args: list[ast.Node]) -> int:
        out = self.out
        if func in ("min", "max") and len(args) == 2:
            depth = max(self.value(args[0]), 1 + self.value(args[1]))
            out.append(MIN2 if func == "min" else MAX2)
            return depth
        if func == "abs" and len(args) == 1:
            depth = self.value(args[0])
            out.append(ABS)
            return depth
        if func in ("any", "all", "count") and len(args) == 1 and isinstance(
                args[0], ast.Name) and isinstance(self.lists.get(args[0].name), Doubled):
            if func == "count":   # as many as the line's ends
                out += [CONST, len(self.lists[args[0].name].tiles)]
                return 1
            return self.unrolled(func, self.doubles(args[0].name), " elem",
                                 ast.Name(name=" elem", type=args[0].type.elem))
        if func in ("any", "all") and len(args) == 1:
            return self.each_attribute(func, args[0])
        if func not in _FOLDS or len(args) != 1:
            raise Unsupported(func)
        arg = args[0]
        if isinstance(arg, ast.Name) and isinstance(self.lists.get(arg.name), Shaped):
            out += [SHAPED_FOLD, _FOLDS[func], FACT[self.lists[arg.name].first]]
            return 1
        if isinstance(arg, ast.Attribute) and isinstance(arg.obj, ast.Name) \
                and isinstance(self.lists.get(arg.obj.name), Shaped):
            if func == "count":   # as many as the list's elements
                out += [SHAPED_FOLD, 3, FACT[self.lists[arg.obj.name].first]]
                return 1
            # (sum(end_tiles.pips): the attribute of each element, read in a loop)
            elem = ast.Name(name=" elem", type=arg.obj.type.elem)
            return self.each(func, self.lists[arg.obj.name], " elem",
                             ast.Attribute(obj=elem, attr=arg.attr, type=arg.type.elem))
        if isinstance(arg, ast.Attribute) and arg.obj.type is not None \
                and arg.obj.type.elem is not None:
            elem = arg.obj.type.elem
            table = (_SIDE if elem == SIDE else _TILE if elem == TILE else _SEAT).get(arg.attr)
            if table is None:
                raise Unsupported(f"{arg.attr} of a list")
            depth, kind = self.items(arg.obj)
            if kind == TILES and self.words():   # a set of words: all its tiles
                self.set_fold(_FOLDS[func], TAB[table], -1)
            else:
                out += [FOLD, _FOLDS[func], kind, TAB[table]]
            return depth
        if isinstance(arg, ast.Name) and self.lists.get(arg.name) == ENDS:
            out += [FOLD, _FOLDS[func], ENDS, -1]   # the open ends' numbers themselves
            return 1
        if isinstance(arg, ast.Name) and isinstance(self.lists.get(arg.name), Spun):
            return self.spun(self.lists[arg.name], lambda facts: self.folded(func, facts))
        if isinstance(arg, ast.Name) and isinstance(self.lists.get(arg.name), tuple):
            if func != "count":   # (a list of a few facts: end_tiles, the tiles at the ends)
                raise Unsupported(f"{func} of {arg.name}")
            return self.folded(func, self.lists[arg.name])
        if func == "count":
            depth, kind = self.items(arg)
            if kind == TILES and self.words():   # a set of words: all its tiles
                self.set_fold(3, -1, -1)
            else:
                out += [FOLD, 3, kind, -1]
            return depth
        raise Unsupported(f"{func} of a list")

    def each_attribute(self, func: str, arg: ast.Node) -> int:
        """``any`` or ``all`` of a list's attribute (``any(playable.is_double)``) as the
        same function of each element's (``any(playable, t -> t.is_double)``), which
        ``runtime`` reads alike; of any other list, refused."""
        if not (isinstance(arg, ast.Attribute) and isinstance(arg.obj, ast.Name)
                and arg.obj.type is not None and arg.obj.type.elem is not None):
            raise Unsupported(func)
        elem = ast.Name(name=" elem", type=arg.obj.type.elem)
        each = ast.Each(var=" elem", body=ast.Attribute(obj=elem, attr=arg.attr,
                                                         type=arg.type.elem))
        try:
            return self.value(ast.Call(func=func, args=[arg.obj, each], type=arg.type.elem))
        except Unsupported:
            raise Unsupported(func) from None

    def items(self, node: ast.Node) -> tuple[int, int]:
        """(stack depth, list kind) of a list expression; opponents and a side's players
        push the side they belong to."""
        match node:
            case ast.Name(name=name) if name in self.lists:
                kind = self.lists[name]
                if kind == OPPONENTS:
                    return self.fact("winner"), kind
                if kind == TILES:   # the mask, a fact of the same name
                    return self.fact(name), kind
                return 0, kind
            case ast.Attribute(obj=obj, attr="players") if obj.type == SIDE:
                return self.value(obj), TEAM
        raise Unsupported("a list the JIT does not keep")


@njit(refcounts=False)   # (every round's settlement, most events: no reference counts)
def run(code, at, F, TAB, TEAMS, sides, seats, deck, stack):
    """The value of the program starting at ``code[at]``."""
    sp = 0
    i = at
    while True:
        op = code[i]
        i += 1
        if op == END:
            return stack[sp - 1]
        if op == CONST:
            stack[sp] = code[i]
            i += 1
            sp += 1
        elif op == FACT_OP:
            stack[sp] = F[code[i]]
            i += 1
            sp += 1
        elif op == AT:
            stack[sp - 1] = TAB[code[i], stack[sp - 1]]
            i += 1
        elif op == NEG:
            stack[sp - 1] = -stack[sp - 1]
        elif op == NOT:
            stack[sp - 1] = 1 if stack[sp - 1] == 0 else 0
        elif op == IS_DOUBLE:
            t = stack[sp - 1]
            stack[sp - 1] = 1 if TAB[_TL, t] == TAB[_TH, t] else 0
        elif op == ABS:
            stack[sp - 1] = abs(stack[sp - 1])
        elif op == TILE_MASK:   # a mask's tiles that a test of the tile alone holds for
            stack[sp - 1] &= code[i]
            i += 1
        elif op == COND:
            sp -= 2
            if stack[sp - 1] == 0:
                stack[sp - 1] = stack[sp + 1]
            else:
                stack[sp - 1] = stack[sp]
        elif op == FOLD:
            func, kind, table = code[i], code[i + 1], code[i + 2]
            i += 3
            x = -1
            if kind == OPPONENTS or kind == TEAM or kind == TILES:
                sp -= 1
                x = stack[sp]
            if kind == TILES:   # the tiles of the mask x, by index
                total, count = _fold_bits(x, 0, func, table, TAB, 0, 0)
                stack[sp] = count if func == 3 else total
                sp += 1
                continue
            if kind == ENDS:   # the two open ends' numbers
                a, b = F[_END_L], F[_END_R]
                stack[sp] = (a + b if func == 0 else min(a, b) if func == 1 else
                             max(a, b) if func == 2 else 2)
                sp += 1
                continue
            if kind == TEAM:
                n = TEAMS.shape[1]
            elif kind == ALL_SEATS:
                n = seats
            else:
                n = sides
            total = 0
            count = 0
            for k in range(n):
                if kind == TEAM:
                    item = TEAMS[x, k]
                else:
                    item = k
                    if kind == OPPONENTS and k == x:
                        continue
                if func == 3:
                    count += 1
                    continue
                v = TAB[table, item]
                if func == 0:
                    total += v
                elif count == 0 or (v < total if func == 1 else v > total):
                    total = v
                count += 1
            stack[sp] = count if func == 3 else total
            sp += 1
        elif op == MASK:
            x = F[code[i]]
            stack[sp] = (code[i + 1] >> x) & 1 if 0 <= x < MASK_BITS else 0
            i += 2
            sp += 1
        elif op == BONEYARD:
            table = code[i]
            i += 1
            total = 0
            for k in range(F[_POS], deck.shape[0]):
                total += TAB[table, deck[k]]
            stack[sp] = total
            sp += 1
        elif op == SET_FOLD:   # a set of words in F from the place x (jit_masks.put_fact)
            func, table, n = code[i], code[i + 1], code[i + 2]
            x = stack[sp - 1]
            total = count = 0
            for w in range(n):
                total, count = _fold_bits(F[x + w] & code[i + 3 + w], w * BITS, func, table,
                                          TAB, total, count)
            stack[sp - 1] = count if func == 3 else total
            i += 3 + n
        elif op >= SHAPED_AT:   # a shaped board's open ends (Shaped)
            i, sp = _shaped(op, code, i, F, stack, sp)
        else:
            sp -= 1
            a, b = stack[sp - 1], stack[sp]
            if op == ADD:
                r = a + b
            elif op == SUB:
                r = a - b
            elif op == MUL:
                r = a * b
            elif op == FLOORDIV:
                r = a // b if b else 0
            elif op == MOD:
                r = a % b if b else 0
            elif op == EQ:
                r = 1 if a == b else 0
            elif op == NE:
                r = 1 if a != b else 0
            elif op == LT:
                r = 1 if a < b else 0
            elif op == LE:
                r = 1 if a <= b else 0
            elif op == GT:
                r = 1 if a > b else 0
            elif op == GE:
                r = 1 if a >= b else 0
            elif op == AND:
                r = 1 if a != 0 and b != 0 else 0
            elif op == OR:
                r = 1 if a != 0 or b != 0 else 0
            elif op == MIN2:
                r = min(a, b)
            else:
                r = max(a, b)
            stack[sp - 1] = r


@njit(inline="always")
def _fold_bits(x, base, func, table, TAB, total, count):
    """A fold (``_FOLDS``' ``func``) of ``TAB[table]`` over the tiles of the mask ``x``
    (tile ``base + k`` for bit ``k``), in index order, on from (total, count)."""
    while x:
        b = x & -x
        x ^= b
        if func == 3:
            count += 1
            continue
        v = TAB[table, base + low_index(b)]
        if func == 0:
            total += v
        elif count == 0 or (v < total if func == 1 else v > total):
            total = v
        count += 1
    return total, count


_SHAPED_N = FACT["shaped_n"]


@njit(inline="always")
def _shaped(op, code, i, F, stack, sp):
    """``run``'s operations over a ``Shaped`` list (``F[_SHAPED_N]`` elements from
    ``F[first]`` on): one read at an index (``runtime.index``), a fold of the elements
    themselves, a loop's start and its step; (the next operation, the stack's height)."""
    n = F[_SHAPED_N]
    first = code[i + 1] if op != SHAPED_AT else code[i]
    if op == SHAPED_AT:   # items[k], counted from the end when negative, else nothing
        k = stack[sp - 1]
        if k < 0:
            k += n
        stack[sp - 1] = F[first + k] if 0 <= k < n else code[i + 1]
        return i + 2, sp
    func = code[i]
    if op == SHAPED_FOLD:   # sum, min, max (0 for an empty list) or count
        total = n if func == 3 else 0
        if func != 3:
            for k in range(n):
                v = F[first + k]
                if func == 0:
                    total += v
                elif k == 0 or (v < total if func == 1 else v > total):
                    total = v
        stack[sp] = total
        return i + 2, sp + 1
    slot = code[i + 2]
    if op == EACH_BEGIN:   # an empty list's value, or the fold and the index, then the body
        if n == 0:
            stack[sp] = 1 if func == 5 else 0
            return i - 1 + code[i + 3], sp + 1
        stack[sp] = 1 if func == 5 else 0
        stack[sp + 1] = 0
        F[slot] = F[first]
        return i + 4, sp + 2
    # EACH_NEXT: the body's value v folded in (runtime.EACH), then the next element or on
    sp -= 1
    v = stack[sp]
    k = stack[sp - 1]
    acc = stack[sp - 2]
    if func == 0:
        acc += v
    elif func == 3:
        acc += 1 if v != 0 else 0
    elif func == 4:
        acc = 1 if acc != 0 or v != 0 else 0
    elif func == 5:
        acc = 1 if acc != 0 and v != 0 else 0
    elif k == 0 or (v < acc if func == 1 else v > acc):
        acc = v
    stack[sp - 2] = acc
    k += 1
    if k < n:
        stack[sp - 1] = k
        F[slot] = F[first + k]
        return i - 1 - code[i + 3], sp
    return i + 4, sp - 1


_UNROLLED = {"any": OR, "all": AND, "count": ADD, "sum": ADD, "min": MIN2, "max": MAX2}
# a loop's fold over a Shaped list (EACH_BEGIN, EACH_NEXT): _FOLDS's, and any, all
_EACH = {**_FOLDS, "any": 4, "all": 5}
_MASKED = frozenset({"count", "any", "all"})


def _constant(node: ast.Node) -> int | None:
    """A number written in the formula (``1``, ``-1``), else None."""
    match node:
        case ast.Int(value=v):
            return int(v)
        case ast.Unary(op="-", operand=ast.Int(value=v)):
            return -int(v)
    return None


def tables(width: int) -> Any:
    """An empty ``TAB``: one row per ``TABLES`` name, ``width`` wide."""
    return np.zeros((len(TABLES), width), np.int64)
