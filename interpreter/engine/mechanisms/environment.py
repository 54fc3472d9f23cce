"""A formula's environment: the names each kind of formula reads, built in one place.

Two readers evaluate a ruleset's formulas: the match loop (``engine.general_loop``, over
bitmasks and its own tallies) and the rulebook (``engine.rulebook`` through the
mechanisms ``settle``, ``events``, ``lead``, ``match``, ``deal``, ``opening`` and
``declarations``, over a ``Position``). Each keeps its own model of the hands and the
board, so each computes the values; which names a kind offers, and under what name,
is written here alone, and both readers build their environments through these
functions. The names every kind may read (the player count, the round, the target and
the variables) come from ``match_names``: a mechanism adding such a name (as
``variables:`` did) adds one line there. A name a formula's kind does not offer is
never read (the checker refuses it, ``expr.fields``), and no variable may take a
formula's name (``rules.compile.variable_names``), so a fuller environment than a kind
needs changes no result.

The match is read by name (``MatchFacts``): a ``GeneralLoop`` and a ``Position`` both
have ``players``, ``round``, ``target``, ``scores`` and ``values``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol


class MatchFacts(Protocol):
    """What the environments read of a match, by name (a ``GeneralLoop``, a ``Position``)."""

    players: int
    round: int
    target: int
    scores: list[int]
    values: dict[str, int]


def match_names(match: MatchFacts, rnd: int | None = None) -> dict[str, Any]:
    """The names any formula of the match may read: the player count, the round's number
    (``rnd``, else the match's round), the target and every variable by its name.

    >>> class M: players, round, target, scores, values = 2, 3, 100, [0, 0], {"stake": 2}
    >>> match_names(M())
    {'players': 2, 'round': 3, 'target': 100, 'stake': 2}
    """
    return {"players": match.players, "round": match.round if rnd is None else rnd,
            "target": match.target, **match.values}


def actor_names(player: Any, sides: Sequence[Any], mine: int) -> dict[str, Any]:
    """What an event (or a claim) reads of the actor: its seat's tally, its side's,
    every side's and the others' (``opponents``)."""
    return {"player": player, "side": sides[mine], "sides": tuple(sides),
            "opponents": tuple(s for s in sides if s.index != mine)}


def scorer_names(sides: Sequence[Any], winner: int) -> dict[str, Any]:
    """What a domino or blocked formula reads of the side it scores for."""
    return {"winner": sides[winner],
            "opponents": tuple(s for s in sides if s.index != winner)}


def settlement_names(match: MatchFacts, rnd: int, *, blocked: bool, last_tile: Any,
                     last_player: Any, both_ends: bool, passes: int, drawn: int,
                     seats: Sequence[Any]) -> dict[str, Any]:
    """The round facts a settlement formula reads (kinds ``scoring``, ``side_points``,
    ``rank``) but the board's and the boneyard's (``ends``, ``end_total``, ``boneyard``,
    ``boneyard_pips``, ``boneyard_value``), which each reader computes from its own
    board, and the sides, whose ``won`` the formula's moment decides."""
    return {**match_names(match, rnd), "blocked": blocked, "last_tile": last_tile,
            "last_player": last_player, "both_ends": both_ends, "passes": passes,
            "drawn": drawn, "seats": tuple(seats)}


def lead_names(match: MatchFacts, *, leader: int, winner_seat: int | None,
               winner_side: int | None, last_player: int | None, last_side: int | None,
               blocked: bool, seats: Sequence[Any] = (), sides: Sequence[Any] = ()
               ) -> dict[str, Any]:
    """What ``lead.later``'s formula reads of the round before (kind ``lead``): -1 for a
    seat or side that is nobody; ``last_side`` is the last player's side."""
    return {**match_names(match), "leader": leader,
            "winner": -1 if winner_seat is None else winner_seat,
            "winner_side": -1 if winner_side is None else winner_side,
            "last_player": -1 if last_player is None else last_player, "blocked": blocked,
            "last_player_won": last_side is not None and last_side == winner_side,
            "seats": tuple(seats), "sides": tuple(sides)}


def sides_names(match: MatchFacts, sides: Iterable[Any], rnd: int | None = None
                ) -> dict[str, Any]:
    """What the match's end reads (``draw_if``, kind ``match_draw``; ``final``, which adds
    each ``side`` in turn): the sides and the match's names."""
    return {**match_names(match, rnd), "sides": tuple(sides)}


def showdown_names(match: MatchFacts, player: Any) -> dict[str, Any]:
    """What a showdown's penalty reads (kind ``showdown``) of a seat found out, but the
    passes it made while able to place (``declarations.penalties`` adds them)."""
    return {**match_names(match), "player": player}


def option_names(match: MatchFacts, hand: Iterable[Sequence[int]], seat: int
                 ) -> dict[str, Any]:
    """What a declaration's option reads (kind ``declare``): the scores, the chooser's
    hand and seat, and the match's names."""
    return {**match_names(match), "scores": tuple(match.scores),
            "hand": tuple(sorted(hand)), "seat": seat}


def redeal_names(match: MatchFacts, seats: Sequence[Any], rnd: int | None = None
                 ) -> dict[str, Any]:
    """What ``deal.redeal_if`` reads (kind ``redeal``): the seats as dealt."""
    return {**match_names(match, rnd), "seats": tuple(seats)}


def opening_names(match: MatchFacts, hand: Iterable[Sequence[int]], max_pip: int,
                  rnd: int | None = None) -> dict[str, Any]:
    """What ``opening.allow`` reads (kind ``opening``) but ``tile``, which the reader sets
    for each tile it asks about."""
    return {**match_names(match, rnd), "hand": tuple(hand), "max_pip": max_pip}

