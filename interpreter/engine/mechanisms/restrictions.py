"""Placement restrictions (``play.restrictions``): what their formulas read, and which
one forbids a placement.

The names a restriction reads (``docs/language.md``, kind ``restriction``) are built
here and nowhere else: the match loop's narrowing (``general_loop.allowed_at``), its
"why not" (``why_forbidden``), the rulebook (``turn.allowed_by_restrictions``) all
ask ``placement_env``, so a name added for one is there for all of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Pair = tuple[int, int]


def placement_env(hand: Sequence[Pair], playable: Sequence[Pair], ends: Sequence[int],
                  boneyard: int, rnd: int, players: int,
                  board: tuple[bool, int] | None = None) -> dict[str, Any]:
    """A restriction's names for one seat's turn, less the placement's own (``tile``,
    ``end`` and on a shaped board ``arm``: ``at``). ``board``: on a ``board.layout``
    board, (``spinners_complete``, ``doubles_down``)."""
    env: dict[str, Any] = {"hand": hand, "playable": playable, "ends": ends,
                           "boneyard": boneyard, "round": rnd, "players": players}
    if board is not None:
        env["spinners_complete"], env["doubles_down"] = board
    return env


def at(env: dict[str, Any], tile: Pair, end: int, arm: int | None = None) -> dict[str, Any]:
    """``env`` for placing ``tile`` on an end showing ``end`` (on arm ``arm`` of a shaped
    board); changed in place, so one environment serves every placement of a turn."""
    env["tile"], env["end"] = tile, end
    if arm is not None:
        env["arm"] = arm
    return env


def forbidding(restrictions: Sequence[Any], env: dict[str, Any]) -> str | None:
    """The ``explain`` of the first restriction that ``env``'s placement breaks, else None."""
    for rule in restrictions:
        if not rule.allow(env):
            return rule.explain
    return None


def allows(restrictions: Sequence[Any], env: dict[str, Any]) -> bool:
    """Whether ``env``'s placement meets every restriction."""
    return all(rule.allow(env) for rule in restrictions)
