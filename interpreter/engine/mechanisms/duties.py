"""Duties: an event laying an obligation on one player or several, which lasts until met.

From the schema's ``events[].duty`` and ``docs/house-rules.md`` ("A duty on the next
player"). A placement rule with a ``duty`` lays it, when its ``if`` holds and the
placement does not end the round, on the seats its ``on`` names (``bearers``: the next
player, by default; every opponent; every other player; the actor's partners), one duty
a seat, each tracked on its own (its *bearer*): a ``duty`` line each, in turn order
from the seat after the actor. Each placement the bearer makes is tested against the duty's ``met``
condition (the placement's event names, and ``duty_tile``: the tile whose placement laid
the duty); when it holds the duty is met (``duty_met``) and gone. When the bearer's turn
ends without meeting it (a placement elsewhere, a pass, a draw that ends the turn) the
duty fails (``duty_failed``): the bearer's side scores ``fail_points`` (a charge when
negative) and the bearer draws ``fail_draws`` tiles at once (fewer when the boneyard is
down to its reserve); then, with ``lasts: until_met``, it passes to the next seat, else
it lapses. A skipped bearer keeps it for their next turn. Every duty lapses when the round
ends. Several may be pending; each is read in the order laid.

Written once: the match loop (``engine.general_loop``) and the rulebook
(``engine.rulebook``, ``verify --strict``) both call these functions.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Tile = tuple[int, int]


@dataclass
class Duty:
    """One pending duty: the event rule that laid it, who bears it now, and the tile whose
    placement laid it (``duty_tile`` in ``met``)."""

    rule: int
    bearer: int
    tile: Tile


def laid(rule: int, next_seat: int, tile: Tile) -> Duty:
    """The duty a placement of ``tile`` lays on ``next_seat`` by event rule ``rule``."""
    return Duty(rule, next_seat, (min(tile), max(tile)))


def bearers(on: str, actor: int, next_seat: Callable[[int], int],
            side_of: Callable[[int], int]) -> list[int]:
    """The seats a duty laid by ``actor`` falls on (``on``: next, opponents, others or
    partner, the schema's ``events[].duty.on``), in turn
    order from the seat after the actor: written once for the loop and the rulebook.

    >>> bearers("opponents", 0, lambda s: (s + 1) % 4, lambda s: s % 2)
    [1, 3]
    """
    first = next_seat(actor)
    if on == "next":
        return [first]
    order, seat = [], first
    while seat != actor:
        order.append(seat)
        seat = next_seat(seat)
    if on == "others":
        return order
    mine = side_of(actor)
    if on == "opponents":
        return [s for s in order if side_of(s) != mine]
    return [s for s in order if side_of(s) == mine]   # partner: the actor's own side


def laid_on(rule: int, seats: list[int], tile: Tile) -> list[Duty]:
    """The duties a placement of ``tile`` lays by event rule ``rule``, one for each seat."""
    return [laid(rule, s, tile) for s in seats]


def laid_line(duty: Duty) -> dict[str, Any]:
    """The record's line for a duty laid."""
    return {"event": "duty", "player": duty.bearer, "rule": duty.rule, "tile": list(duty.tile)}


def met_by(duties: list[Duty], events: tuple, seat: int, env: Mapping[str, Any]
           ) -> list[Duty]:
    """The duties ``seat`` bears that its placement (read through ``env``, the event names
    after it) meets, in the order laid; they are taken off ``duties``."""
    done = [d for d in duties if d.bearer == seat
            and events[d.rule].duty.met(ChainMap({"duty_tile": d.tile}, env))]
    for d in done:
        duties.remove(d)
    return done


def failed_at_turn_end(duties: list[Duty], events: tuple, seat: int, next_seat: int
                       ) -> list[tuple[Duty, int | None]]:
    """The duties ``seat`` bore through a turn that ended without meeting them, each with
    the seat it passes to (None: it lapses, ``lasts: one_turn``), in the order laid; the
    list is updated."""
    out = []
    for d in [d for d in duties if d.bearer == seat]:
        rule = events[d.rule].duty
        if rule.passes_on:
            out.append((Duty(d.rule, d.bearer, d.tile), next_seat))
            d.bearer = next_seat
        else:
            duties.remove(d)
            out.append((d, None))
    return out


def failed_line(duty: Duty, passed_to: int | None) -> dict[str, Any]:
    """The record's line for a duty its bearer failed (``next``: who bears it now)."""
    return {"event": "duty_failed", "player": duty.bearer, "rule": duty.rule,
            "next": passed_to}


def met_line(duty: Duty) -> dict[str, Any]:
    return {"event": "duty_met", "player": duty.bearer, "rule": duty.rule}
