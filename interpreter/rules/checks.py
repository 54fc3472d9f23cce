"""Rules that are each valid alone but impossible together: checked for every allowed player count.

The schema checks shapes one value at a time; these checks read several values
(and evaluate the compiled formulas) to catch a deal the set cannot hold, a
player range that is empty, partnerships with an odd table, an opening tile
outside the set, examples that cannot be set up. Each becomes a Diagnostic at
the value to change, with a hint.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from ..diagnostics import Diagnostic, did_you_mean
from ..engine.mechanisms.matching import fits
from ..engine.tiles import in_set, not_in_set, parse_pair, set_pairs, tile_count
from ..expr import ExprError, compile_expression
from ..expr.ast import names_read
from .marked_yaml import FieldPath, Mark, dotted


class _Sink:
    """Collects diagnostics, placing each at the mark of a ruleset path."""

    def __init__(self, marks: Mapping[FieldPath, Mark]):
        self.marks = marks
        self.found: list[Diagnostic] = []

    def add(self, code: str, path: FieldPath, message: str, hint: str = "") -> None:
        probe = path
        while probe not in self.marks and probe:
            probe = probe[:-1]
        mark = self.marks.get(probe)
        where = {"file": mark.file, "line": mark.line, "column": mark.column} if mark else {}
        self.found.append(Diagnostic(code, message, path=dotted(path), hint=hint, **where))


def _evaluate(sink: _Sink, path: FieldPath, fn: Callable[..., Any], *args: Any) -> int | None:
    try:
        return int(fn(*args))
    except Exception as exc:  # a formula failing at run time must not become a traceback
        sink.add("expr-eval", path, f"{dotted(path)} fails with {args[0]} players: {exc}",
                 f"make {dotted(path)} give a whole number for every allowed player count")
        return None


def _check_players(sink: _Sink, data: Mapping[str, Any]) -> range:
    low, high = data["players"]["min"], data["players"]["max"]
    if low > high:
        sink.add("players", ("players", "min"),
                 f"players.min ({low}) is more than players.max ({high})",
                 "swap them, or set both to the same number for a fixed table")
        return range(0)
    allowed = range(low, high + 1)
    if data["players"]["sides"] == "partnerships":
        odd = [n for n in allowed if n % 2]
        if odd:
            sink.add("players", ("players", "sides"),
                     f"partnerships need an even number of players, but {odd[0]} players "
                     f"are allowed (players.min {low}, players.max {high})",
                     "give players.min and players.max even values, e.g. 4 and 4")
    return allowed


def _check_set(sink: _Sink, data: Mapping[str, Any], removed: tuple) -> None:
    """``set.without`` names tiles of the set, each once; what is taken out leaves the
    rules' named tiles (the opening tile, a highest double, examples' tiles) in play."""
    max_pip = data["set"]["max_pip"]
    named: dict[tuple[int, int], str] = {}
    for i, text in enumerate(data["set"].get("without", ())):
        tile, path = parse_pair(text), ("set", "without", i)
        if not in_set(tile, max_pip):
            sink.add("set", path, not_in_set(f"set.without[{i}] {text}", max_pip),
                     f"name a tile whose halves are 0 to {max_pip}")
        elif tile in named:
            sink.add("set", path, f"set.without names {named[tile]} twice (as {text} too)",
                     "name each tile once: [6|0] and [0|6] are the same tile")
        named.setdefault(tile, text)
    if not removed:
        return
    gone = set(removed)
    for overrides, opening, _lead in _opening_rules(data):
        tile = opening["tile"]
        if tile not in ("any", "highest_double") and parse_pair(tile) in gone:
            path = ("opening", "first_round", "tile") if "tile" in overrides \
                else ("opening", "tile")
            sink.add("set", path, f"{dotted(path)} {tile} is taken out of this set "
                     "(set.without or set.keep)",
                     "name a tile still in the set, or keep this one in it")
    doubles = [(v, v) for v in range(max_pip + 1) if (v, v) not in gone]
    wants = [f"lead.{k}" for k in ("first", "later") if data["lead"][k] == "highest_double"]
    wants += [f"{dotted(p)}" for p, v in (
        (("opening", "tile"), data["opening"]["tile"]),
        (("opening", "first_round", "tile"),
         (data["opening"].get("first_round") or {}).get("tile"))) if v == "highest_double"]
    if not doubles and wants:
        sink.add("set", ("set", "keep") if "keep" in data["set"] else ("set",),
                 f"the set keeps no double, but {wants[0]} is highest_double",
                 "keep some doubles in the set, or choose another lead and opening")
    for i, example in enumerate(data.get("examples", [])):
        places = [(("hands", j), h) for j, h in enumerate(example.get("hands", ()))]
        if isinstance(example.get("boneyard"), str):
            places.append((("boneyard",), example["boneyard"]))
        places += [(("board", j), word) for j, word in _board_tiles(example)
                   if _is_tile(word)]
        for where, text in places:
            for word in text.split():
                if parse_pair(word) in gone:
                    sink.add("example", ("examples", i) + where,
                             f"tile {word} is taken out of this set (set.without or set.keep)",
                             "lay only tiles still in the set" if where[0] == "board"
                             else "deal only tiles still in the set")


def _check_copies(sink: _Sink, data: Mapping[str, Any]) -> None:
    """``set.copies: 2``: the rules that name one holder of a tile (the highest double's,
    an opening tile's) are not defined over two copies (two seats may hold it, and no
    source says which of them leads), so each is refused at its line, rather than played
    by a convention nobody wrote. A rule this file inherits is refused at its own
    ``set.copies``, the line its writer can change, naming the inherited line. Moves of
    several tiles are (each listed once, by the first copies:
    ``mechanisms.several.distinct``)."""
    if data["set"].get("copies", 1) == 1:
        return
    for key in ("first", "later"):
        if data["lead"][key] in ("highest_double", "opening_tile_holder"):
            _refuse_holder(sink, ("lead", key), data["lead"][key], "leads",
                           f"write lead.{key}: lot (or another lead naming no tile's holder)")
    for overrides, opening, _lead in _opening_rules(data):
        if opening["tile"] != "any":
            path = ("opening", "first_round", "tile") if "tile" in overrides \
                else ("opening", "tile")
            _refuse_holder(sink, path, opening["tile"], "opens",
                           f"write {dotted(path)}: any")
            break


def _refuse_holder(sink: _Sink, path: FieldPath, value: Any, does: str, fix: str) -> None:
    """Refuse a rule naming one holder of a tile under ``set.copies: 2`` (``_check_copies``),
    at its line when this file wrote it, else at this file's ``set.copies``."""
    rule, own, copies = (sink.marks.get(path), sink.marks.get(("extends",)),
                         sink.marks.get(("set", "copies")))
    said = (f"{dotted(path)} is {value}, but with set.copies: 2 two seats may hold that "
            f"tile, and no rule says which of them {does}")
    if (rule is not None and own is not None and copies is not None
            and rule.file != own.file and copies.file == own.file):
        sink.add("set", ("set", "copies"), f"{said} ({dotted(path)} inherited from "
                 f"{rule.file}:{rule.line})", f"{fix} in this file, or drop set.copies")
        return
    sink.add("set", path, said, f"{fix}, or set.copies: 1")


def _check_deal(sink: _Sink, data: Mapping[str, Any], rules: Any, allowed: range) -> None:
    max_pip, reserve = data["set"]["max_pip"], data["drawing"]["reserve"]
    removed = len(getattr(rules, "removed_tiles", ()))
    copies = getattr(rules, "copies", 1)
    tiles = (tile_count(max_pip) - removed) * copies
    the_set = (f"a double-{max_pip} set has {tiles}" if not removed else
               f"the set has {tiles} (double-{max_pip} with {removed} taken out)")
    if copies > 1:   # set.copies: the deal counts every copy
        the_set = (f"{copies} double-{max_pip} sets shuffled together have {tiles}"
                   if not removed else f"the set has {tiles} ({copies} double-{max_pip} "
                   f"sets with {removed} taken out of each)")
    more = "" if not removed else ", or take fewer tiles out (set.without, set.keep)"
    path = ("deal", "hand_size")
    reported: set[str] = set()
    for n in allowed:
        hand = _evaluate(sink, path, rules.hand_size, n)
        if hand is None:
            return
        if hand < 1:
            kind, message, hint = "small", (
                f"deal.hand_size gives {hand} with {n} players; every player needs at least "
                "1 tile"), "make the formula give at least 1 for every allowed player count"
        elif hand * n > tiles:
            kind, message, hint = "many", (
                f"dealing {hand} tiles to each of {n} players needs {hand * n} tiles, but "
                f"{the_set}"), \
                f"deal fewer tiles, allow fewer players, or use a larger set (set.max_pip){more}"
        elif hand * n + reserve > tiles:
            left = tiles - hand * n
            kind, message, hint = "reserve", (
                f"dealing {hand} tiles to each of {n} players leaves {left} tiles in the "
                f"boneyard, fewer than the reserve of {reserve}"), \
                "deal fewer tiles or lower drawing.reserve"
        else:
            continue
        if kind not in reported:
            reported.add(kind)
            sink.add("deal", _shrunk_here(sink, path) if kind == "many" else path, message,
                     hint)


def _check_turn_up(sink: _Sink, data: Mapping[str, Any], rules: Any, allowed: range) -> None:
    """``deal.turn_up``: it replaces the opening from a hand, so no opening rule may pick
    that tile, and some allowed player count must leave a stock to turn up."""
    if not (data.get("deal") or {}).get("turn_up"):
        return
    opening = data["opening"]
    first = opening.get("first_round") or {}
    for where, rule in ((("opening", "first_round"), first), (("opening",), opening)):
        for key, plain in (("tile", "any"), ("allow", None), ("if_lacking", None),
                           ("opener", "leader")):
            if rule.get(key, plain) != plain:
                sink.add("deal", where + (key,),
                         f"{dotted(where + (key,))} chooses the opening tile, but deal.turn_up "
                         "turns the line's first tile up from the stock: nobody opens from "
                         "a hand", f"remove {dotted(where + (key,))}, or deal.turn_up")
                return
    tiles = (tile_count(data["set"]["max_pip"]) - len(getattr(rules, "removed_tiles", ()))
             ) * getattr(rules, "copies", 1)
    sizes = [_evaluate(sink, ("deal", "hand_size"), rules.hand_size, n) for n in allowed]
    if all(h is not None and h * n >= tiles for h, n in zip(sizes, allowed, strict=True)):
        counted = (f"{allowed[0]}" if len(allowed) == 1
                   else f"{allowed[0]} to {allowed[-1]}")
        sink.add("deal", ("deal", "turn_up"),
                 f"deal.turn_up never turns a tile up: with {counted} players the deal "
                 f"takes all {tiles} tiles, leaving no stock",
                 "deal fewer tiles, allow a player count that leaves some, or remove "
                 "deal.turn_up")


def _check_blind(sink: _Sink, data: Mapping[str, Any]) -> None:
    """``deal.blind``: a hidden row is played from its front, so nothing may draw into it
    or choose among its tiles: the first rule that would is refused, at its line."""
    if not (data.get("deal") or {}).get("blind"):
        return
    drawing, play = data["drawing"], data.get("play") or {}
    opening = data["opening"]
    first = opening.get("first_round") or {}
    clashes = [(("drawing", "when_stuck"), drawing["when_stuck"] == "draw",
                "a stuck player would draw a tile into a row nobody sees", "set it to pass"),
               (("drawing", "voluntary"), drawing["voluntary"] == "allowed",
                "a player could draw instead of turning up the front tile",
                "set it to forbidden")]
    for where, rule in ((("opening", "first_round"), first), (("opening",), opening)):
        for key, plain in (("tile", "any"), ("allow", None), ("if_lacking", None),
                           ("opener", "leader")):
            clashes.append((where + (key,), rule.get(key, plain) != plain,
                            "it chooses the opening tile, but the leader's front tile opens",
                            f"remove {dotted(where + (key,))}"))
    clashes += [(("play", "restrictions"), bool(play.get("restrictions")),
                 "it could forbid the front tile, the only one a player may place",
                 "remove play.restrictions"),
                (("play", "passing"), play.get("passing", "forced") != "forced",
                 "a player turns up the front tile, and passes only when it does not fit",
                 "remove play.passing"),
                (("board", "layout"), bool((data.get("board") or {}).get("layout")),
                 "a shaped board is not played with hidden rows", "remove board.layout")]
    clashes += [(("events", i, "next_draws"), item.get("next_draws") is not None,
                 "it would make a player draw into a hidden row", "remove the next_draws")
                for i, item in enumerate(data.get("events", ()))]
    clashes += [(("examples", i, "kind"), item.get("kind") in ("legal", "events"),
                 "a position's hand says nothing of its row's order, so it cannot say which "
                 "tile is in front", "write a kind: dealt example (its hands are rows, front "
                 "first)") for i, item in enumerate(data.get("examples") or ())]
    # the file being validated is the one that names a parent; a clash only inherited
    # from the parent is reported at the deal.blind written here
    _first_clash(sink, ("deal", "blind"), clashes)


def _shrunk_here(sink: _Sink, path: FieldPath) -> FieldPath:
    """Where a deal too big for the set is reported: at ``deal.hand_size``, unless that
    comes from a file this one extends (the file holding ``extends`` is this one) and
    this file made the set smaller: then at the set field it changed, which its writer
    can edit."""
    hand, own = sink.marks.get(path), sink.marks.get(("extends",))
    if hand is None or own is None or hand.file == own.file:
        return path
    for field in (("set", "keep"), ("set", "without"), ("set", "max_pip")):
        mark = sink.marks.get(field)
        if mark is not None and mark.file == own.file:
            return field
    return path


def _check_match(sink: _Sink, data: Mapping[str, Any], rules: Any, allowed: range) -> None:
    partnerships = data["players"]["sides"] == "partnerships"
    for n in allowed:
        sides = 2 if partnerships else n
        target = _evaluate(sink, ("match", "target"), rules.target, n, sides, partnerships)
        if target is None:
            return
        if target < 1:
            sink.add("match", ("match", "target"),
                     f"match.target gives {target} with {n} players; it must be at least 1",
                     "make the formula give at least 1 for every allowed player count")
            return
    for n in allowed:
        if _evaluate(sink, ("drawing", "cost"), rules.draw_cost, n) is None:
            return


def _opening_rules(data: Mapping[str, Any]) -> list[tuple[Mapping[str, Any], Mapping[str, Any],
                                                       str]]:
    """(the keys opening.first_round overrides, the opening rules in force, the lead key
    they serve): round 1 merges opening.first_round over opening; later rounds use opening."""
    opening = data["opening"]
    first = opening.get("first_round") or {}
    return [(first, {**opening, **first}, "first"), ({}, opening, "later")]


def _check_opening(sink: _Sink, data: Mapping[str, Any]) -> None:
    max_pip, reserve = data["set"]["max_pip"], data["drawing"]["reserve"]
    reported: set[FieldPath] = set()
    for overrides, opening, lead in _opening_rules(data):
        def at(key: str, overrides: Mapping[str, Any] = overrides) -> FieldPath:
            return ("opening", "first_round", key) if key in overrides else ("opening", key)

        def add(code: str, path: FieldPath, message: str, hint: str) -> None:
            if path not in reported:  # one mistake written once is reported once
                reported.add(path)
                sink.add(code, path, message, hint)

        tile = opening["tile"]
        name = dotted(at("tile"))
        specific = tile not in ("any", "highest_double")
        if specific and not in_set(parse_pair(tile), max_pip):
            add("opening", at("tile"), not_in_set(f"{name} {tile}", max_pip),
                f"name a tile whose halves are 0 to {max_pip}")
        if data["lead"][lead] == "opening_tile_holder" and not specific:
            add("lead", ("lead", lead), f"lead.{lead} is opening_tile_holder, but {name} is "
                f"{tile}", f'set {name} to a tile such as "[6|6]"')
        if opening["if_unheld"] == "draw_in_turn" and tile != "any" and reserve > 0:
            add("opening", at("if_unheld"),
                f"{dotted(at('if_unheld'))} is draw_in_turn, but the required tile may lie "
                f"among the {reserve} reserve tiles that are never drawn",
                "set drawing.reserve to 0, or if_unheld to redeal")
        if opening["opener"] == "holder" and tile == "any":
            add("opening", at("opener"),
                f"{dotted(at('opener'))} is holder, but {name} is any: nobody holds 'any'",
                f'set {name} to a tile such as "[6|6]", or opener to leader')
        if "explain" in opening and "allow" not in opening:
            add("opening", at("explain"),
                f"{dotted(at('explain'))} is given, but there is no allow rule for it to "
                "explain", f"add {dotted(at('allow'))} (the condition), or remove explain")


def _check_examples(sink: _Sink, data: Mapping[str, Any], allowed: range,
                    hand_size: Callable[[int], int] | None = None) -> None:
    max_pip = data["set"]["max_pip"]
    partnerships = data["players"]["sides"] == "partnerships"
    if not allowed:
        return  # the player range itself is already reported
    for i, example in enumerate(data.get("examples", [])):
        here: FieldPath = ("examples", i)
        n = example["players"]
        if n not in allowed:
            sink.add("example", here + ("players",),
                     f"example '{example['title']}' has {n} players; the ruleset allows "
                     f"{allowed.start} to {allowed.stop - 1}",
                     f"give players from {allowed.start} to {allowed.stop - 1}, or change "
                     "players.min and players.max")
            continue
        if len(example["hands"]) != n:
            sink.add("example", here + ("hands",),
                     f"example '{example['title']}' gives {len(example['hands'])} hands "
                     f"for {n} players", f"give one hand a player ({n}), or change players")
        for j, hand in enumerate(example["hands"]):
            for word in hand.split():
                if not in_set(parse_pair(word), max_pip):
                    sink.add("example", here + ("hands", j),
                             not_in_set(f"tile {word}", max_pip),
                             f"name a tile whose halves are 0 to {max_pip}")
        drawn = example.get("drawn")
        if drawn is not None and len(drawn) != n:
            sink.add("example", here + ("drawn",),
                     f"drawn has {len(drawn)} values; there are {n} players",
                     f"give one value a player, in seat order ({n})")
        sides = 2 if partnerships else n
        points = example.get("expect_points")
        if points is not None and len(points) != sides:
            sink.add("example", here + ("expect_points",),
                     f"expect_points has {len(points)} values; there are {sides} sides",
                     f"give one value a side, in side order ({sides})")
        scores = example.get("scores")
        if scores is not None and len(scores) != sides:
            sink.add("example", here + ("scores",),
                     f"scores has {len(scores)} values; there are {sides} sides",
                     f"give one value a side, in side order ({sides})")
        declared = list(data.get("variables") or {})
        for key in ("variables", "expect_variables"):
            for name in example.get(key) or {}:
                if name not in declared:
                    sink.add("example", here + (key, name),
                             f"{key} names {name!r}, which is no variable of this ruleset",
                             f"declare it under variables:, or use one of: "
                             f"{', '.join(declared) or '(none declared)'}")
        if "expect_variables" in example and example["kind"] not in ("points", "events"):
            sink.add("example", here + ("expect_variables",),
                     f"expect_variables belongs to a points or events example, not kind "
                     f"{example['kind']}", "set kind: points or events, or remove it")
        if example["kind"] == "dealt":
            _check_dealt_example(sink, example, here, data, n, hand_size)
        elif any(k in example for k in ("play", "expect_scores", "expect_scores_now",
                                        "hand_size")):
            key = next(k for k in ("play", "expect_scores", "expect_scores_now", "hand_size")
                       if k in example)
            sink.add("example", here + (key,),
                     f"{key} belongs to a dealt example (kind: dealt), not kind "
                     f"{example['kind']}", "set kind: dealt, or remove it")
        for key in ("turn", "last_player", "leader", "expect_leader", "expect_turn",
                    "expect_next_leader"):
            seat = example.get(key)
            if seat is not None and seat >= n:
                sink.add("example", here + (key,),
                         f"{key} is seat {seat}, but the seats are 0 to {n - 1}",
                         f"give a seat from 0 to {n - 1}, or more players")
        _check_example_tiles(sink, example, here, max_pip, data["set"].get("copies", 1))


def _check_dealt_example(sink: _Sink, example: Mapping[str, Any], here: FieldPath,
                         data: Mapping[str, Any], n: int,
                         hand_size: Callable[[int], int] | None) -> None:
    """A dealt example is a real deal: whole hands of the deal's size (or all of the
    example's own ``hand_size``, no more than the deal's), a boneyard given as its tiles in
    drawing order, scores per side."""
    if isinstance(example.get("boneyard"), int):
        sink.add("example", here + ("boneyard",),
                 "a dealt example's boneyard is its tiles in drawing order, not a count",
                 'list the first tiles to be drawn, e.g. "6-6 2-3", or leave it out')
    try:
        size = int(hand_size(n)) if hand_size is not None else None
    except Exception:  # noqa: BLE001 - a failing formula is reported at deal.hand_size
        size = None
    short = example.get("hand_size")   # short hands, for a rule the deal's size is not in
    if short is not None and size is not None and short > size:
        sink.add("example", here + ("hand_size",),
                 f"hand_size {short} is more than the {size} tiles the deal gives with {n} "
                 "players", f"give at most {size}, or leave hand_size out")
        short = size = None   # one message: the hands are not judged by either size
    if size is not None and data["deal"].get("leftover", "boneyard") != "boneyard":
        size = None   # one seat holds the tiles left over: the match's deal checks which
    size = short if short is not None else size
    for j, hand in enumerate(example["hands"] if size is not None else ()):
        got = len(hand.split())
        if got != size:
            sink.add("example", here + ("hands", j),
                     f"seat {j} is dealt {got} tiles here; "
                     + (f"the example's hand_size is {size}" if short is not None
                        else f"with {n} players the deal gives {size}"),
                     "give every seat its whole hand as dealt" if short is None else
                     f"give every seat {size} tiles, or change hand_size")
    sides = 2 if data["players"]["sides"] == "partnerships" else n
    for key in ("expect_scores", "expect_scores_now"):
        scores = example.get(key)
        if scores is not None and len(scores) != sides:
            sink.add("example", here + (key,),
                     f"{key} has {len(scores)} values; there are {sides} sides",
                     f"give one value a side, in side order ({sides})")
    opening = example.get("expect_opening")
    if opening is not None and not in_set(parse_pair(opening), data["set"]["max_pip"]):
        sink.add("example", here + ("expect_opening",),
                 not_in_set(f"tile {opening.strip()}", data["set"]["max_pip"]),
                 f"name a tile whose halves are 0 to {data['set']['max_pip']}")


def _check_example_tiles(sink: _Sink, example: Mapping[str, Any], here: FieldPath,
                         max_pip: int, copies: int = 1) -> None:
    """The boneyard's, the board's and the last tile's tiles exist, and no tile is in two
    places (a hand and the board included)."""
    places: list[tuple[FieldPath, str, str]] = [
        (here + ("hands", j), f"in seat {j}'s hand", hand)
        for j, hand in enumerate(example["hands"])]
    if isinstance(example.get("boneyard"), str):
        places.append((here + ("boneyard",), "in the boneyard", example["boneyard"]))
    for j, word in _board_tiles(example):
        try:
            parse_pair(word)
        except ValueError as exc:   # the engine's own words, at the entry
            sink.add("example", here + ("board", j), f"board[{j}]: {exc}",
                     'write the opening tile alone ("5-5"), then each tile with its end '
                     '("5-2 left")')
            continue
        places.append((here + ("board", j), "on the board", word))
    seen: dict[tuple[int, int], list[str]] = {}
    for path, where, text in places:
        for word in text.split():
            tile = parse_pair(word)
            if not in_set(tile, max_pip):
                if path[-2:-1] != ("hands",):  # hands are reported by the caller
                    sink.add("example", path, not_in_set(f"tile {word}", max_pip),
                             f"name a tile whose halves are 0 to {max_pip}")
                continue
            found = seen.setdefault(tile, [])
            if found and copies == 1:
                sink.add("example", path, f"tile {word} is both {found[0]} and {where}",
                         "each tile of the set exists once")
            elif len(found) >= copies:   # set.copies: 2
                sink.add("example", path, f"tile {word} is dealt {len(found) + 1} times "
                         f"({', '.join(found)} and {where}), but the set holds it "
                         f"{copies} times", f"deal each tile at most {copies} times")
            found.append(where)
    last = example.get("last_tile")
    if last is not None and not in_set(parse_pair(last), max_pip):
        sink.add("example", here + ("last_tile",),
                 not_in_set(f"tile {last.strip()}", max_pip),
                 f"name a tile whose halves are 0 to {max_pip}")


def _is_tile(word: str) -> bool:
    try:
        parse_pair(word)
    except ValueError:
        return False
    return True


def _board_tiles(example: Mapping[str, Any]) -> list[tuple[int, str]]:
    """The tile word of each entry of an example's ``board``, with the entry's index: its
    first word (``5-2`` of ``5-2 5-5/1``); a marker (``marker 1``) lays no tile."""
    words = [(j, str(entry).split()) for j, entry in enumerate(example.get("board") or ())]
    return [(j, split[0]) for j, split in words if split and split[0] != "marker"]


BOARD_NAMES = frozenset({"arm", "spinners_complete", "doubles_down"})   # board.layout's


def _placements(max_pip: int, allowed: range) -> Any:
    """Placement situations a restriction is tried on: every tile of the set, on either of
    its halves, beside an equal or a different end, alone in the hand or in the whole set,
    with the boneyard empty or not, in the first round or a later one."""
    tiles = set_pairs(max_pip)
    for tile in tiles:
        for end in sorted(set(tile)):
            for other in (end, (end + 1) % (max_pip + 1)):
                for hand in ([tile], [tile] + [t for t in tiles if t != tile]):
                    for playable in ([tile], hand):
                        for boneyard in (0, 10):
                            for round_ in (1, 2):
                                for players in allowed:
                                    yield {"tile": tile, "hand": hand, "playable": playable,
                                           "ends": [end, other], "end": end,
                                           "boneyard": boneyard, "round": round_,
                                           "players": players, "arm": 0,
                                           "spinners_complete": True, "doubles_down": 0}


def _check_restrictions(sink: _Sink, data: Mapping[str, Any], rules: Any,
                        allowed: range) -> None:
    """A restriction no placement can meet would leave nobody a move: an error at load."""
    max_pip = data["set"]["max_pip"]
    shaped = (data.get("board") or {}).get("layout") is not None
    for i, rule in enumerate(getattr(rules, "restrictions", ())):
        board_names = sorted((rule.reads or set()) & BOARD_NAMES)
        if board_names and not shaped:
            sink.add("play", ("play", "restrictions", i, "allow"),
                     f"{', '.join(board_names)} {'is' if len(board_names) == 1 else 'are'} "
                     "known on a shaped board only (board.layout)",
                     "give the ruleset a board.layout, or read the ends instead")
            continue
        if not any(rule.allow(env) for env in _placements(max_pip, allowed)):
            sink.add("play", ("play", "restrictions", i, "allow"),
                     f"this rule forbids every placement: play.restrictions[{i}].allow is "
                     "false for every tile of the set",
                     "a restriction must leave some tile playable; check the condition's "
                     "'and'/'or' and its comparisons")
    tiles = set_pairs(max_pip)
    for path, allow, rounds in _opening_allows(data, rules):
        if not any(allow({"tile": t, "hand": hand, "round": r, "players": n,
                          "max_pip": max_pip})
                   for t in tiles for hand in ([t], tiles) for r in rounds for n in allowed):
            sink.add("opening", path,
                     f"this rule forbids every opening: {dotted(path)} is false for every tile "
                     "of the set", "an opening rule must accept some tile")


def _check_matching(sink: _Sink, data: Mapping[str, Any], rules: Any) -> None:
    """A fit rule no tile can meet leaves nobody a move after the opening, a wild tile
    outside the set can never be dealt, and ``wild_leaves`` without wild tiles does
    nothing: each an error at load."""
    matching = data.get("matching") or {}
    max_pip = data["set"]["max_pip"]
    wild = matching.get("wild")
    if isinstance(wild, list):
        for i, text in enumerate(wild):
            if not in_set(parse_pair(text), max_pip):
                sink.add("matching", ("matching", "wild", i),
                         not_in_set(f"wild tile {text}", max_pip),
                         f"list tiles with both halves from 0 to {max_pip}")
    if ("matching", "wild_leaves") in sink.marks and wild is None:
        sink.add("matching", ("matching", "wild_leaves"),
                 "matching.wild_leaves has no effect: no tile is wild",
                 "give matching.wild, or remove wild_leaves")
    fit = getattr(rules, "fit", None)
    if fit is None:
        return
    tiles = set_pairs(max_pip)
    if wild is not None and not isinstance(wild, list) and not fit.wild:
        sink.add("matching", ("matching", "wild"),
                 "matching.wild holds for no tile of the set, so no tile is wild",
                 "check the condition (tile.pips, tile.is_double, tile == [a|b]), or remove "
                 "wild")
    if not any(fits(t, v, fit) for t in tiles for v in range(max_pip + 1)):
        sink.add("matching", ("matching", "fits") if "fits" in matching else
                 ("matching", "wild"),
                 "no tile fits any end: matching.fits is false for every tile, half and end "
                 f"of the double-{max_pip} set, so no tile could follow the opening",
                 "a fit rule must let some half meet some end: check the formula's "
                 "numbers against max_pip (end + half == 7 needs halves up to 6)")


def _opening_allows(data: Mapping[str, Any], rules: Any) -> list[tuple[FieldPath, Any, tuple]]:
    """Each written opening condition, with the rounds it governs."""
    later = getattr(rules, "opening_allow", None)
    first = getattr(rules, "first_opening", None)
    out: list[tuple[FieldPath, Any, tuple]] = []
    if "allow" in (data["opening"].get("first_round") or {}):
        out.append((("opening", "first_round", "allow"), first.allow, (1,)))
        if later is not None:
            out.append((("opening", "allow"), later, (2,)))
    elif later is not None:
        out.append((("opening", "allow"), later, (1, 2)))
    return out


def _check_layout(sink: _Sink, data: Mapping[str, Any]) -> None:
    """``board.layout`` with keys that contradict it or each other."""
    board = data.get("board") or {}
    layout = board.get("layout")
    if layout is None:
        return
    if board.get("spinner", "none") != "none":
        sink.add("board", ("board", "spinner"),
                 "board.spinner and board.layout both shape the board",
                 "remove spinner and say it in the layout: spins: first_double (sides 2, "
                 "arms_open after_sides is today's spinner)")
    if data.get("matching"):
        sink.add("board", ("board", "layout"),
                 "board.layout and matching cannot be played together yet: a shaped board's "
                 "ends join by the same number only",
                 "remove matching, or play the fit rule on the line (board.spinner)")
    if "opening_sides" in layout and layout.get("through", True):
        sink.add("board", ("board", "layout", "opening_sides"),
                 "board.layout.opening_sides has no effect: with through: true an opening "
                 "double lies in the line and opens `sides` arms like any other",
                 "set through: false, or remove opening_sides")
    if layout.get("spins", "none") == "none":
        for key in ("sides", "opening_sides", "through", "arms_open", "answer_first",
                    "dead_arms"):
            if ("board", "layout", key) in sink.marks:   # written, not a schema default
                sink.add("board", ("board", "layout", key),
                         f"board.layout.{key} has no effect: no double spins (spins: none)",
                         f"give spins (first_double, every_double or a tile), or remove {key}")
    if layout.get("dead_arms") and ("board", "layout", "answer_first") in sink.marks \
            and layout.get("answer_first"):
        sink.add("board", ("board", "layout", "answer_first"),
                 "board.layout.answer_first cannot hold with dead_arms: arms that never take "
                 "a tile could never be covered", "remove answer_first or dead_arms")
    _check_trains(sink, data, layout)
    if layout.get("answer_doubles") and layout.get("spins", "none") != "none" \
            and not layout.get("trains"):
        sink.add("board", ("board", "layout", "answer_doubles"),
                 "board.layout.answer_doubles cannot go with spinning doubles: a double that "
                 "spins opens arms instead of waiting at its end",
                 "remove answer_doubles, or say answer_first for the arms of a spinning double")
    spins = layout.get("spins", "none")
    top = data["set"]["max_pip"]
    if spins not in ("none", "first_double", "every_double"):
        a, b = (int(x) for x in spins.strip("[]").split("|"))
        if a != b or b > top:
            sink.add("board", ("board", "layout", "spins"),
                     f"board.layout.spins names {spins}, which is not a double of this set",
                     f"name a double such as \"[{top}|{top}]\"")


def _check_declarations(sink: _Sink, data: Mapping[str, Any]) -> None:
    """``declarations`` and ``showdown`` (engine.mechanisms.declarations): a choice with
    nothing to choose, a name or an option used twice, claims where nothing was placed,
    an option setting a variable that does not exist, a showdown nobody can owe."""
    names: dict[str, int] = {}
    declared = set(data.get("variables") or {})
    for i, item in enumerate(data.get("declarations") or ()):
        here = ("declarations", i)
        name = item.get("name")
        if name in names:
            sink.add("declarations", (*here, "name"),
                     f"declaration name {name!r} is used twice (also declarations[{names[name]}])",
                     "give each declaration its own name: the record names it")
        names.setdefault(name, i)
        options, claims = item.get("options") or [], item.get("claims") or []
        if not options and not claims:
            sink.add("declarations", here, f"declaration {name!r} offers no options",
                     "give it options: (each with a name) or, after a placement, claims: "
                     "(the points a player may claim, such as [0, 5, 10])")
        if options and claims:
            sink.add("declarations", (*here, "claims"),
                     f"declaration {name!r} has both options and claims",
                     "make two declarations: one of named options, one of claims")
        if claims and item.get("when") != "after_place":
            sink.add("declarations", (*here, "claims"),
                     f"claims are points claimed for a placement; declaration {name!r} is "
                     f"made at {item.get('when')}", "set when: after_place")
        if claims and "worth" not in item:
            sink.add("declarations", (*here, "claims"),
                     f"declaration {name!r} has claims but no worth: every claim would be "
                     "judged against 0", "add worth: what the placement is truly worth")
        if "due" in item and item.get("when") != "after_place":
            sink.add("declarations", (*here, "due"),
                     f"due reads the placement just made; declaration {name!r} is made at "
                     f"{item.get('when')}", "set when: after_place, or remove due")
        if len(set(claims)) != len(claims):
            sink.add("declarations", (*here, "claims"),
                     f"declaration {name!r} offers the same claim twice",
                     "list each number once")
        seen: dict[str, int] = {}
        for k, option in enumerate(options):
            oname = option.get("name")
            if oname in seen:
                sink.add("declarations", (*here, "options", k, "name"),
                         f"option {oname!r} of declaration {name!r} is used twice (also "
                         f"options[{seen[oname]}])", "give each option its own name")
            seen.setdefault(oname, k)
            for var in option.get("set") or {}:
                if var not in declared:
                    sink.add("declarations", (*here, "options", k, "set", var),
                             f"option {oname!r} sets {var!r}, which is no variable",
                             f"declare it under variables: ({var}: {{initial: 0}})")
            if "lead" in option:
                _check_lead_option(sink, data, item, (*here, "options", k, "lead"))
            if option.get("draw") and item.get("when") != "after_place":
                sink.add("declarations", (*here, "options", k, "draw"),
                         f"option {oname!r} draws tiles, which only a placement's "
                         f"declaration can ask; declaration {name!r} is made at "
                         f"{item.get('when')}", "set when: after_place, or remove draw")
    show = data.get("showdown")
    if show is not None and (data.get("play") or {}).get("passing", "forced") != "at_will":
        sink.add("showdown", ("showdown",),
                 "showdown penalises a pass made while able to place, but passes are "
                 "forced here: nobody can ever owe it",
                 "set play.passing: at_will, or remove showdown")


def _check_lead_option(sink: _Sink, data: Mapping[str, Any], item: Mapping[str, Any],
                       path: FieldPath) -> None:
    """An option's ``lead`` hands the first tile to another seat: only once the deal
    stands, before anything has settled who opens (a required tile, an allow, the
    leftover dealt to the leader, a turned-up tile, blind rows)."""
    if item.get("when") != "round_start":
        sink.add("declarations", path, "an option's lead picks who sets the first tile; "
                 f"this declaration is made at {item.get('when')}, after it is down",
                 "set when: round_start, or remove lead")
        return
    opening = data.get("opening") or {}
    deal = data.get("deal") or {}
    for where, rule in (("opening", opening), ("opening.first_round",
                                              opening.get("first_round") or {})):
        if rule.get("tile", "any") != "any" or "allow" in rule:
            sink.add("declarations", path, f"an option's lead hands the first tile to another "
                     f"seat, but {where} names which tile opens (tile or allow), so the "
                     "opener is settled before the choice",
                     f"open with any tile ({where}.tile: any, no allow), or remove lead")
            return
    for key in ("leftover", "turn_up", "blind"):
        if deal.get(key) not in (None, False, "boneyard"):
            sink.add("declarations", path, f"an option's lead hands the first tile to another "
                     f"seat, but deal.{key} settles the leader before the choice",
                     f"remove deal.{key}, or remove lead")
            return


def _check_several(sink: _Sink, data: Mapping[str, Any]) -> None:
    """``play.several`` with a board it cannot yet lay several tiles on (the line and its
    spinner it can, under a fit rule too: a move uses the ends open when it starts; a
    shaped board takes a run on one of its ends, ``move: chain``)."""
    if (data.get("play") or {}).get("several") is None:
        return
    board = data.get("board") or {}
    path = ("play", "several")
    move = data["play"]["several"].get("move", "each_end")
    if board.get("layout") is not None and move != "chain":   # a run on one train or arm
        sink.add("play", path + (("move",) if "move" in data["play"]["several"] else ()),
                 f"play.several with move: {move} and board.layout cannot be played together "
                 "yet: on a shaped board a move of several tiles is a run on one train or arm",
                 "write play.several.move: chain, or remove board.layout")
    if (data.get("deal") or {}).get("blind"):
        sink.add("play", path, "play.several and deal.blind cannot be played together: a "
                 "hidden row is played one front tile at a time",
                 "remove deal.blind, or play.several")
    if any((d or {}).get("when") == "after_place" for d in data.get("declarations") or ()):
        sink.add("play", path, "play.several and a declaration after a placement cannot be "
                 "played together yet: a move of several tiles is one decision",
                 "remove play.several, or make the declaration at round_start")


def _check_leftover(sink: _Sink, data: Mapping[str, Any]) -> None:
    """``deal.leftover``: the tiles left over go to a hand in a game that never draws, to
    a seat named from a leader chosen before the hands are seen."""
    rule = data["deal"].get("leftover", "boneyard")
    if rule == "boneyard":
        return
    drawing, deal, lead = data["drawing"], data["deal"], data["lead"]
    clashes = [(("drawing", "when_stuck"), drawing["when_stuck"] == "draw",
                "a stuck player would draw from a boneyard the deal emptied", "set it to pass"),
               (("drawing", "voluntary"), drawing["voluntary"] == "allowed",
                "a player would draw from a boneyard the deal emptied", "set it to forbidden"),
               (("deal", "turn_up"), bool(deal.get("turn_up")),
                "the tile turned up would be one left over", "remove deal.turn_up"),
               (("deal", "blind"), bool(deal.get("blind")),
                "hidden rows are dealt in equal lengths", "remove deal.blind")]
    clashes += [(("lead", key), lead.get(key) in ("highest_double", "opening_tile_holder"),
                 f"lead.{key} chooses the leader from the hands, but the leader must be "
                 "known to give them the tiles left over", "choose the leader by lot, "
                 "rotation or formula") for key in ("first", "later")]
    _first_clash(sink, ("deal", "leftover"), clashes)


def _check_side_out(sink: _Sink, data: Mapping[str, Any]) -> None:
    """``play.until: side_out``: a seat that is out holds nothing and takes no turn, so no
    rule may hand it tiles (an event's ``next_draws`` or ``duty``, whose failure draws)."""
    if (data.get("play") or {}).get("until", "first_out") != "side_out":
        return
    for i, item in enumerate(data.get("events", ())):
        for key in ("next_draws", "duty"):
            if item.get(key) is not None:
                sink.add("play", ("events", i, key),
                         f"events[{i}].{key} cannot go with play.until: side_out: it could "
                         "hand tiles to a seat that is out, which never takes a turn again",
                         f"remove events[{i}].{key}, or play.until")
                return


def side_out_warnings(data: Mapping[str, Any], marks: Mapping[FieldPath, Mark]) -> list:
    """``play.until: side_out`` without sides of two seats: a side of one seat is out
    with its player, so the round ends at the first out, as ``first_out`` does."""
    if (data.get("play") or {}).get("until", "first_out") != "side_out":
        return []
    if data["players"].get("sides", "individual") == "partnerships" \
            and data["players"]["max"] >= 4:
        return []
    sink = _Sink(marks)
    sink.add("play", ("play", "until"), "play.until: side_out plays as first_out here: "
             "every side is one seat, so a player's last tile puts the whole side out",
             "seat partnerships of four (players.sides: partnerships), or remove play.until")
    return [dataclasses.replace(d, severity="warning") for d in sink.found]


def several_warnings(data: Mapping[str, Any], marks: Mapping[FieldPath, Mark]) -> list:
    """``play.several`` written so that it can never apply: no tile may join a move, or
    more tiles than the line has ends."""
    rule = (data.get("play") or {}).get("several")
    if rule is None:
        return []
    sink = _Sink(marks)
    if rule.get("tiles") is False:
        sink.add("play", ("play", "several", "tiles"), "play.several can never apply: tiles is "
                 "false, so no tile may be part of a move of several tiles",
                 "give a condition some tiles meet (\"tile.is_double\"), or remove play.several")
    if rule.get("move") == "whole_hand" and "most" in rule:
        sink.add("play", ("play", "several", "most"), "play.several.most has no effect with "
                 "move: whole_hand: the move lays the whole hand, however many tiles",
                 "remove most")
    elif int(rule.get("most", 2)) > 2 and rule.get("move", "each_end") == "each_end" and (
            data.get("board") or {}).get("spinner", "none") == "none":
        sink.add("play", ("play", "several", "most"), f"play.several.most {rule['most']} can "
                 "never be reached: a move lays one tile on each end and the line has two "
                 "(four once a spinner opens: board.spinner)",
                 "write most: 2, or give the board a spinner")
    return [dataclasses.replace(d, severity="warning") for d in sink.found]


def _check_trains(sink: _Sink, data: Mapping[str, Any], layout: Mapping[str, Any]) -> None:
    """``board.layout.trains`` (a train per seat from the station) and what goes with it:
    no spinning doubles, the station's double and every hand drawn from one set."""
    marks = sink.marks
    if not layout.get("trains"):
        for key in ("shared_train", "markers"):
            if ("board", "layout", key) in marks and layout.get(key):
                sink.add("board", ("board", "layout", key),
                         f"board.layout.{key} has no effect: there are no trains",
                         f"set trains: true, or remove {key}")
        return
    for key in ("ends", "spins"):
        if ("board", "layout", key) in marks:
            sink.add("board", ("board", "layout", key),
                     f"board.layout.{key} cannot go with trains: every line grows from the "
                     "station at one end, and no double spins",
                     f"remove {key} (a double on a train is answered: answer_doubles)")
    most = int((data.get("players") or {}).get("max", 4))
    lines = most + bool(layout.get("shared_train"))
    top = data["set"]["max_pip"]
    if lines > top:   # the station's number is on `top` other tiles: one starts each train
        at: FieldPath = ("board", "layout", "trains")
        here, own = marks.get(at), marks.get(("extends",))
        if here is not None and own is not None and here.file != own.file:
            # trains come from the file extended: point at what this file changed
            at = next((f for f in (("set", "max_pip"), ("players", "max"))
                       if marks.get(f) is not None and marks[f].file == own.file), at)
        sink.add("board", at,
                 f"{most} players' trains{' and the shared train' if lines > most else ''} "
                 f"need {lines} tiles that start a train, but a double-{top} set has only "
                 f"{top} tiles besides the station's double with its number: a train could "
                 "never start", "use a bigger set (set.max_pip), or allow fewer players "
                 "(players.max)")


def _check_duty(sink: _Sink, data: Mapping[str, Any], i: int, event: Mapping[str, Any]
                ) -> None:
    """An event's ``duty``: laid by a placement only, and one that can be met: a ``met``
    that reads nothing and is false, or that reads only the tiles (``tile``,
    ``duty_tile``) and holds for no pair of the set's, could never be (caught here, not
    in play)."""
    duty = event.get("duty")
    if duty is None:
        return
    if event.get("after") != "place":
        sink.add("events", ("events", i, "duty"),
                 f"a duty is laid by a placement; this event fires after {event.get('after')}",
                 "set after: place, or remove duty")
    if duty.get("on") == "partner" and not (
            data["players"].get("sides", "individual") == "partnerships"
            and data["players"]["max"] >= 4):
        sink.add("events", ("events", i, "duty", "on"),
                 "a duty on: partner falls on nobody: every side is one seat, so a player "
                 "has no partner", "seat partnerships of four (players.sides: partnerships), "
                 "or lay it on next, opponents or others")
    met = duty.get("met")
    never = met is False
    if isinstance(met, str):
        try:
            found = compile_expression(met, "duty_met")
        except ExprError:   # reported with the formula's own position
            found = None
        never = found is not None and _never_met(found, data)
    if never:
        sink.add("events", ("events", i, "duty", "met"),
                 "a duty nobody can ever meet: its met is false whatever is placed, so it "
                 "would fail at every turn of the round until it ends",
                 "write when a placement meets it, e.g. \"not any(end_tiles, t -> t == "
                 "duty_tile)\" (the tile that laid it is covered)")


def _never_met(found: Any, data: Mapping[str, Any]) -> bool:
    """Whether a compiled ``met`` reading at most the tiles is false for every pair of
    tiles of the set (a formula reading anything else may hold some day: not judged)."""
    read = names_read(found.ast)
    if not read <= {"tile", "duty_tile"}:
        return False
    top = int((data.get("set") or {}).get("max_pip", 6))
    tiles = [(a, b) for a in range(top + 1) for b in range(a, top + 1)]
    if not read:
        return found.fn({}) is False
    laid = tiles if "duty_tile" in read else [(0, 0)]
    placed = tiles if "tile" in read else [(0, 0)]
    return not any(found.fn({"tile": t, "duty_tile": d}) for d in laid for t in placed)


def _check_sets(sink: _Sink, data: Mapping[str, Any], i: int, event: Mapping[str, Any]
                ) -> None:
    """An event's ``set`` names only variables the ruleset declares (``variables:``)."""
    declared = sorted(data.get("variables") or {})
    for name in event.get("set") or {}:
        if name in declared:
            continue
        close = did_you_mean(str(name), declared)
        sink.add("events", ("events", i, "set", name),
                 f"events[{i}].set names {name!r}, which is no variable of this ruleset"
                 + (f" (its variables: {', '.join(declared)})" if declared else ""),
                 close if close.startswith("did you mean") else
                 f"declare it under variables: ({name}: {{initial: 0}}) or set one declared")


def _check_mechanisms(sink: _Sink, data: Mapping[str, Any]) -> None:
    """House-rule keys that loop forever or have no effect with the other rules."""
    _check_layout(sink, data)
    _check_declarations(sink, data)
    _check_several(sink, data)
    for i, event in enumerate(data.get("events", [])):
        _check_sets(sink, data, i, event)
        _check_duty(sink, data, i, event)
        if event.get("after") != "place" and event.get("next_draws", 0) != 0:
            sink.add("events", ("events", i, "next_draws"),
                     f"next_draws is an effect of a placement; this event fires after "
                     f"{event.get('after')}",
                     "set after: place, or remove next_draws")
        if event.get("after") == "pass" and event.get("again", False) is not False:
            sink.add("events", ("events", i, "again"),
                     "another turn after a pass can loop forever: the player passed because "
                     "they could not play, and nothing has changed",
                     "give 'again' to an event after place (a tile leaves the hand) or after "
                     "draw (the boneyard shrinks), or remove it")
    drawing = data["drawing"]
    if drawing.get("exactly") is not None and drawing.get("limit") is not None:
        sink.add("drawing", ("drawing", "exactly"),
                 "drawing.exactly and drawing.limit both say how many tiles a turn may draw",
                 "keep exactly (a player who draws draws that many) or limit (at most that "
                 "many, one at a time), not both (limit: null drops an inherited limit)")
    if drawing["voluntary"] == "forbidden" and drawing["when_stuck"] == "pass":
        for key in ("exactly", "ends_turn"):
            if drawing.get(key) not in (None, False):
                sink.add("drawing", ("drawing", key),
                         f"drawing.{key} has no effect: nobody ever draws (voluntary draws "
                         "are forbidden and a stuck player passes)",
                         f"remove {key}, or set drawing.when_stuck to draw")
    blocked = data["scoring"]["blocked"]
    if blocked["winner"] in ("lowest_hand", "lowest_side") \
            and ("scoring", "blocked", "rank") in sink.marks \
            and blocked.get("rank") not in ("side.value", "side.pips"):   # a default, written out
        sink.add("scoring", ("scoring", "blocked", "rank"),
                 f"scoring.blocked.rank has no effect: blocked.winner is {blocked['winner']}, "
                 "which compares hand values",
                 "set scoring.blocked.winner to lowest or highest to compare the rank, or "
                 "remove rank")
    match = data["match"]
    end = match.get("end", "points")
    if match.get("exact") and end != "points":
        sink.add("match", ("match", "exact"),
                 f"match.exact has no effect: the match ends on {end.replace('_', ' ')}, not "
                 "when a side reaches a points target",
                 "remove exact, or set match.end to points")
    if match.get("ends_in_play"):
        why = None
        if end != "points":
            why = (f"the match ends on {end.replace('_', ' ')}, not when a side reaches a "
                   "points target", "set match.end to points, or remove ends_in_play")
        elif match.get("winner") == "lowest":
            why = ("the lowest total wins, so reaching the target in play wins nothing",
                   "remove ends_in_play, or set match.winner to highest")
        elif match.get("exact"):
            why = ("with exact, a round that would pass the target scores nothing at its end",
                   "remove one of exact and ends_in_play")
        elif not any(e.get("points") or e.get("each_opponent")
                     for e in data.get("events") or ()):
            why = ("no event scores during play, so no target is ever reached mid-round",
                   "add an event with points (say all fives), or remove ends_in_play")
        if why:
            sink.add("match", ("match", "ends_in_play"),
                     f"match.ends_in_play has no effect: {why[0]}", why[1])
    if match.get("minimum_to_start", 0) and end == "rounds_won":
        sink.add("match", ("match", "minimum_to_start"),
                 "match.minimum_to_start has no effect: the match is won by rounds won, "
                 "not by points", "remove minimum_to_start, or set match.end to points")
    if match.get("winner") == "lowest" and end == "rounds_won":
        sink.add("match", ("match", "winner"),
                 "match.winner lowest means nothing when the match is won by rounds won: "
                 "the first side to win match.target rounds wins",
                 "remove winner, or set match.end to points or rounds")
    if data["opening"].get("first_round") == {}:
        sink.add("opening", ("opening", "first_round"),
                 "opening.first_round is empty: it changes nothing",
                 "give the first round's tile, opener, if_unheld, allow, explain or "
                 "if_lacking, or remove it")


def _check_example_ends(sink: _Sink, data: Mapping[str, Any]) -> None:
    """Every open end is a number of the set; without a spinner the line has exactly two
    open ends; a spinner opens its up and down ends together, so a position has two or
    four."""
    spinner = (data.get("board") or {}).get("spinner", "none") != "none"
    top = data["set"]["max_pip"]
    for i, example in enumerate(data.get("examples", [])):
        ends = example.get("ends")
        for k, value in enumerate(ends or ()):
            if value > top:   # no tile has that half: the position cannot exist
                sink.add("example", ("examples", i, "ends", k),
                         f"ends[{k}] is {value}, but no tile of a double-{top} set has that "
                         "number", f"give open ends from 0 to {top}")
        if ends is None or len(ends) == 2 or (spinner and len(ends) == 4):
            continue
        path = ("examples", i, "ends")
        if spinner:
            sink.add("example", path,
                     f"ends gives {len(ends)} values; with a spinner the line has 2 open ends, "
                     "or 4 once the spinner's up and down ends are open",
                     "give [left, right] or [left, right, up, down]")
        else:
            sink.add("example", path,
                     f"ends gives {len(ends)} values, but without a spinner the line has "
                     "exactly 2 open ends", "give [left, right], or set board.spinner to "
                     "first_double")


def semantic_checks(data: Mapping[str, Any], marks: Mapping[FieldPath, Mark], rules: Any,
                    compiled: Any = None) -> list[Diagnostic]:
    """Cross-field problems of a compiled ruleset (``rules``: the ``Rules`` or its callables).

    ``rules`` None: a formula did not compile (already reported); ``compiled`` then holds
    the deal's and match's formulas that did (``compile.partial_rules``), so their checks
    are reported with the formula errors, at once."""
    sink = _Sink(marks)
    allowed = _check_players(sink, data)
    _check_set(sink, data, getattr(rules if rules is not None else compiled, "removed_tiles", ()))
    _check_copies(sink, data)
    if rules is not None:
        _check_deal(sink, data, rules, allowed)
        _check_turn_up(sink, data, rules, allowed)
        _check_blind(sink, data)
        _check_match(sink, data, rules, allowed)
        _check_restrictions(sink, data, rules, allowed)
        _check_matching(sink, data, rules)
    elif compiled is not None:
        if compiled.hand_size is not None:
            _check_deal(sink, data, compiled, allowed)
        if compiled.target is not None and compiled.draw_cost is not None:
            _check_match(sink, data, compiled, allowed)
    _check_opening(sink, data)
    _check_side_out(sink, data)
    _check_leftover(sink, data)
    _check_mechanisms(sink, data)
    _check_example_ends(sink, data)
    sized = rules if rules is not None else compiled
    _check_examples(sink, data, range(data["players"]["min"], data["players"]["max"] + 1),
                    getattr(sized, "hand_size", None))
    return sink.found


def _first_clash(sink: _Sink, rule: FieldPath, clashes: list) -> None:
    """The first of ``clashes`` (path, clashes?, why, hint) with the deal rule at ``rule``:
    one error, at the clashing field, or at ``rule`` when this file wrote ``rule`` and the
    clashing value only came through ``extends``."""
    top, here = sink.marks.get(("extends",)), sink.marks.get(rule)
    name = dotted(rule)
    for path, clash, why, hint in clashes:
        if clash:
            mark = sink.marks.get(path)
            inherited = (top is not None and mark is not None and here is not None
                         and mark.file != top.file and here.file == top.file)
            sink.add("deal", rule if inherited else path,
                     f"{dotted(path)} cannot go with {name}: {why}"
                     + (" (the value is inherited through extends)" if inherited else ""),
                     f"{hint}, or remove {name}")
            return
