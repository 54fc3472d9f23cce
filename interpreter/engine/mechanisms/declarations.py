"""Declarations: a seat chooses among named options the ruleset offers at a named moment,
and hands shown at a round's end (the schema's ``declarations`` and ``showdown``;
docs/house-rules.md, "Declarations").

- ``when: round_start``: once the deal stands, before the opening tile, the round's
  leader chooses one option (``declare NAME``). An option sets variables (``variables:``)
  for the rest of the round, each to a formula of kind ``declare``; every formula of
  the round then reads the choice by the variable's name. An option's ``lead`` hands the
  first tile to another seat (``lead_of``: the partner opposite, say), who then leads.
- ``when: after_place``: after every placement (the opening included) and its events,
  the player who placed chooses: one named option, or one of the ``claims``
  (``claim N``). A claim earns ``score`` (default: the placement's true ``worth`` when
  the claim is right, else nothing) and every other side gets ``each_opponent``
  (default nothing): a missed score taken by an opponent, a wrong claim
  marked as a penalty. A declaration's ``due`` (kind ``event_place_condition``) asks it
  only when it holds (e.g. a call due once the hand is down to one tile); an option's
  ``draw`` makes the chooser take that many tiles from the boneyard at once (fewer when
  it runs out: ``events.tiles_taken``), the penalty for a call not made.
- ``showdown``: at a round's end the hands are shown, and a seat that passed while it
  could place a tile (a pass at will, ``play.passing: at_will``) pays ``penalty``, and
  every other side gains ``each_opponent`` (kind ``showdown``, reading ``passes``).

Each declaration is a decision of its own, each option one choice: the ``random`` bot
picks uniformly among them (``uniform``), the bots with a fixed policy take ``fixed``
(claim the true worth; the option of highest ``value``). Written once: the match loop
(``engine.general_loop``) and the rulebook (``engine.rulebook``, ``verify --strict``)
both call these functions, so they cannot disagree on what a choice does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from ..bounds import checked_points
from ..game_rules import Declaration, Rules, Showdown


class Declared(NamedTuple):
    """What one choice does: the variables' values after it, and for a claim the number
    claimed, the placement's worth and the points per side."""

    values: dict[str, int]
    claimed: int | None = None
    worth: int | None = None
    points: tuple[int, ...] = ()
    lead: int | None = None      # round_start: the seat that sets the first tile now
    draws: int = 0               # after_place: the tiles the chooser draws at once (``draw``)


def at(rules: Rules, when: str) -> tuple[Declaration, ...]:
    """The declarations asked at moment ``when`` (resolved once per match: a ruleset
    without any gets ``()`` and asks nothing)."""
    return tuple(d for d in rules.declarations if d.when == when)


def asked(decls: Sequence[Declaration], env: Mapping[str, Any]) -> tuple[Declaration, ...]:
    """The declarations of a moment that are due now (``due``, read once, before any of
    them is chosen): every one without a ``due``."""
    return tuple(d for d in decls if d.due is None or d.due(env))


def texts(decl: Declaration) -> tuple[str, ...]:
    """The legal actions' text, one per option, in the ruleset's order."""
    if decl.claims:
        return tuple(f"claim {n}" for n in decl.claims)
    return tuple(f"declare {o.name}" for o in decl.options)


def worth(decl: Declaration, env: Mapping[str, Any]) -> int:
    """What the placement is truly worth (a claim's ``worth``, kind ``event_place``)."""
    return checked_points(int(decl.worth(env))) if decl.worth is not None else 0


def fixed(decl: Declaration, env: Mapping[str, Any]) -> int:
    """The fixed policy's choice (``greedy``, ``strategist``, every fast policy): the claim
    of the true worth (else the largest claim below it, else the first); the option of
    highest ``value``, the first listed on a tie."""
    if decl.claims:
        true = worth(decl, env)
        below = [k for k, n in enumerate(decl.claims) if n <= true]
        return max(below, key=lambda k: decl.claims[k]) if below else 0
    best, pick = None, 0
    for k, option in enumerate(decl.options):
        v = int(option.value(env)) if option.value is not None else 0
        if best is None or v > best:
            best, pick = v, k
    return pick


def uniform(decl: Declaration, word: int) -> int:
    """The ``random`` bot's pick from a 32-bit word: each option once, uniformly."""
    return (word * len(texts(decl))) >> 32


def outcome(decl: Declaration, k: int, env: Mapping[str, Any], values: Mapping[str, int],
            side: int, sides: int) -> Declared:
    """What option ``k`` does: the variables it sets (from ``env``, the values before the
    choice), or the claim's points per side (``side`` is the claimer's)."""
    if not decl.claims:
        option = decl.options[k]
        new = dict(values)
        for name, formula in option.sets:
            new[name] = checked_points(int(formula(env)))
        return Declared(new, lead=lead_of(option, env), draws=option.draw)
    claimed = decl.claims[k]
    true = worth(decl, env)
    facts = {**env, "claimed": claimed, "worth": true}
    mine = (checked_points(int(decl.score(facts))) if decl.score is not None
            else (true if claimed == true else 0))
    theirs = checked_points(int(decl.each_opponent(facts))) if decl.each_opponent else 0
    return Declared(dict(values), claimed, true,
                    tuple(mine if s == side else theirs for s in range(sides)))


def lead_of(option: Any, env: Mapping[str, Any]) -> int | None:
    """The seat an option hands the first tile to (``lead``, from the names before the
    choice, modulo the players), or None: the chooser keeps it."""
    if option.lead is None:
        return None
    return int(option.lead(env)) % int(env["players"])


def event(seat: int, decl: Declaration, k: int, done: Declared) -> dict[str, Any]:
    """The record's line for a choice (docs/records.md): ``declare`` or ``claim``."""
    if done.claimed is None:
        return {"event": "declare", "player": seat, "declaration": decl.name,
                "option": decl.options[k].name}
    return {"event": "claim", "player": seat, "declaration": decl.name,
            "claimed": done.claimed, "worth": done.worth, "points": list(done.points)}


def draw_line(seat: int, decl: Declaration, tile: Any) -> dict[str, Any]:
    """The record's line for a tile an option's ``draw`` takes (as events' draws: a draw
    naming its rule, here the declaration)."""
    return {"event": "draw", "player": seat, "tile": tile, "rule": decl.name}


def choice_of(decl: Declaration, recorded: Mapping[str, Any]) -> int | None:
    """The option a record's declare or claim line names, or None if it names none the
    declaration offers."""
    if decl.claims:
        claimed = recorded.get("claimed")
        if recorded.get("event") != "claim" or type(claimed) is not int:
            return None
        return decl.claims.index(claimed) if claimed in decl.claims else None
    names = [o.name for o in decl.options]
    option = recorded.get("option")
    if recorded.get("event") != "declare" or option not in names:
        return None
    return names.index(option)


def penalties(show: Showdown, passes: Sequence[int], env_of: Callable[[int], dict],
              side_of: Callable[[int], int], sides: int
              ) -> list[tuple[int, int, tuple[int, ...]]]:
    """The hands shown: (seat, passes while able to place, points per side) for every seat
    that made such a pass, in seat order. ``env_of(seat)`` gives the showdown names but
    ``passes``."""
    out = []
    for seat, count in enumerate(passes):
        if not count:
            continue
        env = {**env_of(seat), "passes": count}
        pay = checked_points(int(show.penalty(env))) if show.penalty is not None else 0
        gain = checked_points(int(show.each_opponent(env))) if show.each_opponent else 0
        mine = side_of(seat)
        out.append((seat, count, tuple(-pay if s == mine else gain for s in range(sides))))
    return out


def penalty_event(seat: int, count: int, points: Sequence[int]) -> dict[str, Any]:
    """The record's line for a seat found out at the showdown."""
    return {"event": "penalty", "player": seat, "passes": count, "points": list(points)}


def why_not(decl: Declaration | None, rules: Rules, action: Any) -> str:
    """Why a declaration typed is not allowed now, in the rule's words."""
    if decl is None:
        moments = {d.when for d in rules.declarations}
        if not moments:
            return "these rules have no declarations"
        said = " and ".join("once the deal stands, by the leader" if m == "round_start"
                            else "right after a placement, by the player who placed"
                            for m in sorted(moments, reverse=True))
        return f"no declaration is due now: declarations are made {said}"
    offered = ", ".join(texts(decl))
    rule = f" ({decl.explain})" if decl.explain else ""
    return f"{decl.title or decl.name}: you must choose one of {offered}{rule}"
