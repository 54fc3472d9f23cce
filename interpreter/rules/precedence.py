"""Where two rules decide the same thing, which one wins: one answer for ``validate``'s
warnings and for the rule sheet, so the sheet never states both.

The case: a lead that reads the deal (``highest_double``, ``opening_tile_holder``) names
nobody when its tile is in no hand, and says "redeal"; the round's ``opening.if_unheld``
also says what happens when the required tile is in no hand. The engines decide
(``engine.general_loop``): ``heaviest`` wins (the heaviest tile's holder leads and opens
with it); ``draw_in_turn`` gives way to the lead's redeal, since drawing in turn starts
from the leader and there is none. ``redeal`` agrees with the lead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.leaders import DEAL_DEPENDENT
from .marked_yaml import FieldPath, Mark, dotted


@dataclass(frozen=True)
class Precedence:
    """``winner`` decides over ``loser`` in the first or the later rounds (``round``):
    ``kind`` ``heaviest`` (the opening's fallback over the lead's redeal) or ``redeal``
    (the lead's redeal over the opening's ``draw_in_turn``)."""

    round: str         # "first" | "later"
    kind: str
    winner: FieldPath
    loser: FieldPath
    tile: str          # what nobody holds: "a double", "[6|6]"


def round_opening(data: Mapping[str, Any], first: bool) -> tuple[dict[str, Any], FieldPath]:
    """The opening rules of the first round (``first_round`` over ``opening``) or of later
    rounds, and the path of the ``if_unheld`` that applies."""
    opening = dict(data["opening"])
    over = opening.pop("first_round", None) or {}
    if first and over:
        opening.update(over)
        if "if_unheld" in over:
            return opening, ("opening", "first_round", "if_unheld")
    return opening, ("opening", "if_unheld")


def _lead_tile(chooser: str, opening: Mapping[str, Any]) -> str:
    """What the lead looks for, as the sheet words it."""
    tile = opening["tile"]
    if chooser == "highest_double" or tile in ("any", "highest_double"):
        return "a double"
    from ..engine.tiles import Tile

    return str(Tile.parse(tile))


def lead_precedence(data: Mapping[str, Any]) -> list[Precedence]:
    """Each case where the lead's redeal and the opening's ``if_unheld`` both speak."""
    found: list[Precedence] = []
    for key in ("first", "later"):
        chooser = data["lead"][key]
        if chooser not in DEAL_DEPENDENT:
            continue
        opening, unheld_path = round_opening(data, key == "first")
        tile = _lead_tile(chooser, opening)
        if opening["if_unheld"] == "heaviest":
            found.append(Precedence(key, "heaviest", unheld_path, ("lead", key), tile))
        elif opening["if_unheld"] == "draw_in_turn":
            found.append(Precedence(key, "redeal", ("lead", key), unheld_path, tile))
    return found


def governing(data: Mapping[str, Any], first: bool) -> Precedence | None:
    """The case that governs the first (or later) rounds, if any."""
    key = "first" if first else "later"
    return next((p for p in lead_precedence(data) if p.round == key), None)


def _where(marks: Mapping[FieldPath, Mark], path: FieldPath) -> Mark | None:
    probe = path
    while probe and probe not in marks:
        probe = probe[:-1]
    return marks.get(probe) if probe else None


def precedence_warnings(data: Mapping[str, Any], marks: Mapping[FieldPath, Mark]) -> list:
    """One warning per case, at the rule that wins, naming where the other is written."""
    from ..diagnostics import Diagnostic

    out = []
    cases = lead_precedence(data)
    if len(cases) == 2 and cases[0].winner == cases[1].winner:   # one rule over both leads
        cases = cases[:1]
        both = True
    else:
        both = False
    for p in cases:
        win = _where(marks, p.winner)
        losers = [("lead", "first"), ("lead", "later")] if both else [p.loser]
        lose = " and ".join(f"{dotted(x)}: {_value(data, x)} ({_at(_where(marks, x))})"
                            for x in losers)
        head = f"{dotted(p.winner)}: {_value(data, p.winner)}"
        rounds = ("every round" if both else "the first round" if p.round == "first"
                  else "later rounds")
        if p.kind == "heaviest":
            message = (f"{head} wins over {lose} in {rounds} when nobody holds {p.tile}: "
                       "the holder of the heaviest tile dealt leads and opens with it, no "
                       "redeal")
        else:
            message = (f"{head} wins over {lose} in {rounds} when nobody holds {p.tile}: "
                       "the tiles are dealt again, as drawing in turn starts from a "
                       "leader and there is none")
        where = {"file": win.file, "line": win.line, "column": win.column} if win else {}
        out.append(Diagnostic("precedence", message, path=dotted(p.winner), severity="warning",
                              hint="the rule sheet states only the rule that wins", **where))
    return out


def _value(data: Mapping[str, Any], path: FieldPath) -> Any:
    value: Any = data
    for part in path:
        value = value[part]
    return value


def _at(mark: Mark | None) -> str:
    return f"{mark.file}:{mark.line}:{mark.column}" if mark else "the default"


def _opener_path(data: Mapping[str, Any], first: bool) -> FieldPath:
    over = data["opening"].get("first_round") or {}
    return (("opening", "first_round", "opener") if first and "opener" in over
            else ("opening", "opener"))


def _leader_holds(chooser: str, tile: Any, max_pip: int) -> bool:
    """Whether the lead always names the holder of the round's required tile (when
    anybody holds it): the lead looks for that very tile."""
    if chooser == "opening_tile_holder":
        return True
    if chooser == "highest_double":
        from ..engine.tiles import Tile

        return tile == "highest_double" or Tile.parse(tile) == Tile(max_pip, max_pip)
    return False


def opener_warnings(data: Mapping[str, Any], marks: Mapping[FieldPath, Mark],
                    top: str = "") -> list:
    """A round that must open with one tile (a named tile or the highest double) by its
    leader, under a lead that does not look for that tile: the leader rarely holds it, and
    a leader who does not throws the deal in (the engines' reading; the docs say so). Most
    deals of such a round are thrown in: a likely mistake for ``opener: holder``. Told at
    the rule the file ``top`` writes (the opener, the tile or the lead), else the opener."""
    from ..diagnostics import Diagnostic

    max_pip = int(data.get("set", {}).get("max_pip", 6))
    found: dict[tuple, list[str]] = {}   # (opener path, tile) -> the rounds' lead keys
    for key in ("first", "later"):
        opening, _ = round_opening(data, key == "first")
        tile = opening["tile"]
        if tile == "any" or opening["opener"] != "leader" or _leader_holds(
                data["lead"][key], tile, max_pip):
            continue
        found.setdefault((_opener_path(data, key == "first"), tile), []).append(key)
    out = []
    for (path, tile), keys in found.items():
        tile_path = path[:-1] + ("tile",) if path[:-1] + ("tile",) in marks else (
            "opening", "tile")
        probes = [_where(marks, p) for p in (path, tile_path, *(("lead", k) for k in keys))]
        mark = next((m for m in probes if m and m.file == top), None) or probes[0]
        rounds = ("every round" if len(keys) == 2 else "the first round" if keys == ["first"]
                  else "later rounds")
        what = "the highest double dealt" if tile == "highest_double" else str(tile)
        leads = " and ".join(f"lead.{k}: {data['lead'][k]}" for k in keys)
        message = (f"{rounds} must open with {what} by its leader ({dotted(path)}: leader), "
                   f"but {leads} {'does' if len(keys) == 1 else 'do'} not look for it: a "
                   "leader who does not hold it throws the deal in, so most deals are dealt "
                   "again")
        where = {"file": mark.file, "line": mark.line, "column": mark.column} if mark else {}
        out.append(Diagnostic("opener", message, path=dotted(path), severity="warning",
                              hint="write opener: holder (its holder opens), or a lead that "
                                   "names its holder (opening_tile_holder)", **where))
    return out
