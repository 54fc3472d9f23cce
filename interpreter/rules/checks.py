"""Rules that are each valid alone but impossible together: checked for every allowed player count.

The schema checks shapes one value at a time; these checks read several values
(and evaluate the compiled formulas) to catch a deal the set cannot hold, a
player range that is empty, partnerships with an odd table, an opening tile
outside the set, examples that cannot be set up. Each becomes a Diagnostic at
the value to change, with a hint.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..diagnostics import Diagnostic
from .compile import parse_tile, tile_count
from .source import Mark, Path, dotted


class _Sink:
    """Collects diagnostics, placing each at the mark of a ruleset path."""

    def __init__(self, marks: Mapping[Path, Mark]):
        self.marks = marks
        self.found: list[Diagnostic] = []

    def add(self, code: str, path: Path, message: str, hint: str = "") -> None:
        probe = path
        while probe not in self.marks and probe:
            probe = probe[:-1]
        mark = self.marks.get(probe)
        where = {"file": mark.file, "line": mark.line, "column": mark.column} if mark else {}
        self.found.append(Diagnostic(code, message, path=dotted(path), hint=hint, **where))


def _evaluate(sink: _Sink, path: Path, fn: Callable[..., Any], *args: Any) -> int | None:
    try:
        return int(fn(*args))
    except Exception as exc:  # a formula failing at run time must not become a traceback
        sink.add("expr-eval", path, f"{dotted(path)} fails with {args[0]} players: {exc}")
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


def _check_deal(sink: _Sink, data: Mapping[str, Any], rules: Any, allowed: range) -> None:
    max_pip, reserve = data["set"]["max_pip"], data["drawing"]["reserve"]
    tiles = tile_count(max_pip)
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
                f"dealing {hand} tiles to each of {n} players needs {hand * n} tiles, but a "
                f"double-{max_pip} set has {tiles}"), \
                "deal fewer tiles, allow fewer players, or use a larger set (set.max_pip)"
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
            sink.add("deal", path, message, hint)


def _check_match(sink: _Sink, data: Mapping[str, Any], rules: Any, allowed: range) -> None:
    partnerships = data["players"]["sides"] == "partnerships"
    for n in allowed:
        sides = 2 if partnerships else n
        target = _evaluate(sink, ("match", "target"), rules.target, n, sides, partnerships)
        if target is None:
            return
        if target < 1:
            sink.add("match", ("match", "target"),
                     f"match.target gives {target} with {n} players; it must be at least 1")
            return
    for n in allowed:
        if _evaluate(sink, ("drawing", "cost"), rules.draw_cost, n) is None:
            return


def _check_opening(sink: _Sink, data: Mapping[str, Any]) -> None:
    tile, max_pip = data["opening"]["tile"], data["set"]["max_pip"]
    specific = tile not in ("any", "highest_double")
    if specific and parse_tile(tile)[1] > max_pip:
        sink.add("opening", ("opening", "tile"),
                 f"opening.tile {tile} is not in a double-{max_pip} set",
                 f"name a tile whose halves are 0 to {max_pip}")
    for when in ("first", "later"):
        if data["lead"][when] == "opening_tile_holder" and not specific:
            sink.add("lead", ("lead", when),
                     f"lead.{when} is opening_tile_holder, but opening.tile is {tile}",
                     'set opening.tile to a tile such as "[6|6]"')
    reserve = data["drawing"]["reserve"]
    if data["opening"]["if_unheld"] == "draw_in_turn" and tile != "any" and reserve > 0:
        sink.add("opening", ("opening", "if_unheld"),
                 f"opening.if_unheld is draw_in_turn, but the required tile may lie among the "
                 f"{reserve} reserve tiles that are never drawn",
                 "set drawing.reserve to 0, or if_unheld to redeal")
    if data["opening"]["opener"] == "holder" and tile == "any":
        sink.add("opening", ("opening", "opener"),
                 "opening.opener is holder, but opening.tile is any: nobody holds 'any'",
                 'set opening.tile to a tile such as "[6|6]", or opener to leader')


def _check_examples(sink: _Sink, data: Mapping[str, Any], allowed: range) -> None:
    max_pip = data["set"]["max_pip"]
    partnerships = data["players"]["sides"] == "partnerships"
    if not allowed:
        return  # the player range itself is already reported
    for i, example in enumerate(data.get("examples", [])):
        here: Path = ("examples", i)
        n = example["players"]
        if n not in allowed:
            sink.add("example", here + ("players",),
                     f"example '{example['title']}' has {n} players; the ruleset allows "
                     f"{allowed.start} to {allowed.stop - 1}")
            continue
        if len(example["hands"]) != n:
            sink.add("example", here + ("hands",),
                     f"example '{example['title']}' gives {len(example['hands'])} hands "
                     f"for {n} players")
        for j, hand in enumerate(example["hands"]):
            for word in hand.split():
                if max(int(half) for half in word.split("-")) > max_pip:
                    sink.add("example", here + ("hands", j),
                             f"tile {word} is not in a double-{max_pip} set")
        drawn = example.get("drawn")
        if drawn is not None and len(drawn) != n:
            sink.add("example", here + ("drawn",),
                     f"drawn has {len(drawn)} values; there are {n} players")
        sides = 2 if partnerships else n
        points = example.get("expect_points")
        if points is not None and len(points) != sides:
            sink.add("example", here + ("expect_points",),
                     f"expect_points has {len(points)} values; there are {sides} sides")


def semantic_checks(data: Mapping[str, Any], marks: Mapping[Path, Mark], rules: Any
                    ) -> list[Diagnostic]:
    """Cross-field problems of a compiled ruleset (``rules``: the ``Rules`` or its callables)."""
    sink = _Sink(marks)
    allowed = _check_players(sink, data)
    if rules is not None:  # None: a formula did not compile (already reported)
        _check_deal(sink, data, rules, allowed)
        _check_match(sink, data, rules, allowed)
    _check_opening(sink, data)
    _check_examples(sink, data, range(data["players"]["min"], data["players"]["max"] + 1))
    return sink.found
