"""Duties: an event laying an obligation on the next player, which lasts until it is met.

From the schema's ``events[].duty`` and ``docs/house-rules.md`` ("A duty on the next
player"). A placement rule with a ``duty`` lays it, when its ``if`` holds and the
placement does not end the round, on the seat after the actor (the *bearer*): a
``duty`` line. Each placement the bearer makes is tested against the duty's ``met``
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
from collections.abc import Mapping
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
