"""Settling a round: who wins it and the points of every side.

From the schema's ``scoring`` and ``match`` (exact, minimum_to_start) and
``docs/records.md`` (``round_end``). A domino is won by the dominoer's side, or with
``domino_winner: as_blocked`` by the side the blocked comparison picks. A blocked
round compares the sides (all, or the last placer's and the next player's): by their
lowest hand, their total, or the ``rank`` formula; a tie goes by ``blocked.tie``. The
winner scores the domino or blocked formula; ``every_side`` adds to every side (the
winner's included, ``side.won`` telling which won); drawn tiles cost their drawers.

The ``*_piece`` functions are the settlement for the JIT kernel (kernel pieces,
``engine.pieces``) over per-seat and per-side int64 arrays, the rules' words as codes
(``LOWEST_HAND``..., ``TIE_NOTHING``...): ``hand_rank_piece`` and ``best_sides_piece``
are ``measure`` and ``compare``, ``winner_seat_piece`` ``winning_seat`` and
``counted_piece`` ``counted``. The kernel's ``GEN`` lines call them between the
ruleset's own formulas (programs ``kernel.jit_formula.run`` evaluates); every seat's
tallies (``kernel.jit_settle.tallies``) stay with the kernel's bit counts.
``tests/test_kernel_jit_settle.py`` holds them to the functions here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..pieces import piece
from .environment import scorer_names, settlement_names
from .position import Position, SideView

# blocked.winner / blocked.tie as the kernel's codes (kernel.jit_house reads the words)
LOWEST_HAND, LOWEST_SIDE, LOWEST, HIGHEST = 0, 1, 2, 3
TIE_NOTHING, TIE_EACH, TIE_LAST, TIE_NEXT = 0, 1, 2, 3


@dataclass(frozen=True)
class Settlement:
    """A settled round, as its ``round_end`` line tells it."""

    result: str                 # domino | blocked
    winner: int | None          # the winning side
    winner_seat: int | None     # the seat that won it (the next lead may follow it)
    pips: list[int]             # per seat, hand values
    points: list[int]           # per side


def facts(pos: Position, blocked: bool) -> dict[str, Any]:
    """The round facts every settlement formula reads (``docs/language.md``)."""
    board = pos.board
    return {**settlement_names(
                pos, pos.round, blocked=blocked, last_tile=pos.last_tile or (0, 1),
                last_player=pos.seat_view(pos.last_player if pos.last_player is not None
                                          else 0),
                both_ends=pos.last_both_ends, passes=pos.passes, drawn=sum(pos.drawn),
                seats=pos.seat_views()),
            "ends": tuple(board.values()), "end_total": board.end_total(),
            "boneyard": len(pos.boneyard), "boneyard_pips": sum(a + b for a, b in pos.boneyard),
            "boneyard_value": sum(pos.rules.tile_value(*t) for t in pos.boneyard)}


def sides_with(pos: Position, winner: int | None) -> tuple[SideView, ...]:
    return tuple(pos.side_view(i, won=i == winner) for i in range(len(pos.sides)))


def compared_sides(pos: Position) -> list[int]:
    """The sides a blocked comparison looks at (``blocked.among``)."""
    if pos.rules.blocked_among == "last_two" and pos.last_player is not None:
        first = pos.side_of(pos.last_player)
        second = pos.side_of(pos.next_seat(pos.last_player))
        return [first] if first == second else [first, second]
    return list(range(len(pos.sides)))


def measure(pos: Position, side: int, env: dict[str, Any]) -> int:
    """What the blocked comparison ranks a side by (lower wins, but for ``highest``)."""
    rules = pos.rules
    if rules.blocked_winner == "lowest_hand":
        return min(pos.hand_value(s) for s in pos.sides[side])
    if rules.blocked_winner == "lowest_side":
        return sum(pos.hand_value(s) for s in pos.sides[side])
    rank = rules.blocked_rank({**env, "sides": sides_with(pos, None),
                               "side": pos.side_view(side)})
    return -rank if rules.blocked_winner == "highest" else rank


def compare(pos: Position, env: dict[str, Any]) -> tuple[int | None, list[int]]:
    """The blocked comparison: (winning side or None, the sides that score)."""
    sides = compared_sides(pos)
    ranks = {s: measure(pos, s, env) for s in sides}
    best = min(ranks.values())
    tied = [s for s in sides if ranks[s] == best]
    if len(tied) == 1:
        return tied[0], tied
    tie = pos.rules.blocked_tie
    if tie == "each":
        return None, tied
    if tie in ("last_player", "next_player") and pos.last_player is not None:
        seat = pos.last_player if tie == "last_player" else pos.next_seat(pos.last_player)
        side = pos.side_of(seat)
        if side in tied:
            return side, [side]
    return None, []


@piece(refcounts=False)   # (every round: no reference counts)
def hand_rank_piece(V, TEAMS, R):
    """``blocked.winner: lowest_hand``: each side ranked by its lowest hand value."""
    for i in range(TEAMS.shape[0]):
        best = V[TEAMS[i, 0]]
        for s in TEAMS[i]:
            best = min(best, V[s])
        R[i] = best


@piece(refcounts=False)   # (every round: no reference counts)
def best_sides_piece(R, sides, how, last_two, tie, last_player, after, SIDE_OF, lowest):
    """The blocked comparison (``GeneralLoop._settle``): fills ``lowest`` with the sides
    ranked best among those compared (all, or the last placer's and the next seat's),
    one when ``tie`` picks the last or next player's side (``after``: the seat that plays
    after the last placer); returns how many."""
    a = b = -1
    if last_two:
        a = SIDE_OF[last_player]
        b = SIDE_OF[after]
        if b < a:
            a, b = b, a
    best = 0
    first = True
    for i in range(sides):
        if last_two and i != a and i != b:
            continue
        if first or (R[i] > best if how == HIGHEST else R[i] < best):
            best = R[i]
            first = False
    n = 0
    for i in range(sides):
        if last_two and i != a and i != b:
            continue
        if R[i] == best:
            lowest[n] = i
            n += 1
    if n > 1 and (tie == TIE_LAST or tie == TIE_NEXT):
        seat = last_player
        if tie == TIE_NEXT:
            seat = after
        pick = SIDE_OF[seat]
        for k in range(n):
            if lowest[k] == pick:
                lowest[0] = pick
                return 1
    return n


def settle(pos: Position, blocked: bool, dominoer: int | None) -> Settlement:
    """Settle the round ``pos`` has just finished."""
    rules = pos.rules
    env = facts(pos, blocked)
    if not blocked and rules.domino_winner == "dominoer":
        winner, scoring = pos.side_of(dominoer), [pos.side_of(dominoer)]
    else:
        winner, scoring = compare(pos, env)
    formula = rules.blocked_formula if blocked else rules.domino_formula
    points = [0] * len(pos.sides)
    for side in scoring:
        views = sides_with(pos, side)
        points[side] += formula({**env, "sides": views, **scorer_names(views, side)})
    if rules.every_side is not None:
        views = sides_with(pos, winner)
        for side in range(len(pos.sides)):
            points[side] += rules.every_side({**env, "sides": views, "side": views[side]})
    cost = rules.draw_cost(pos.players)
    for seat, count in enumerate(pos.drawn):
        points[pos.side_of(seat)] -= cost * count
        if rules.draw_cost_to == "round_winner" and winner is not None:
            points[winner] += cost * count
    for side in range(len(pos.sides)):
        points[side] = counted(pos, side, points[side])
    return Settlement("blocked" if blocked else "domino", winner,
                      winning_seat(pos, winner, blocked, dominoer),
                      [pos.hand_value(s) for s in range(pos.players)], points)


def counted(pos: Position, side: int, points: int) -> int:
    """A side's round points as the match counts them (``minimum_to_start``, ``exact``)."""
    rules = pos.rules
    score = pos.scores[side]
    if rules.minimum_to_start > 0 and score == 0 and points < rules.minimum_to_start:
        return 0
    if rules.exact_target and rules.match_end == "points" and score + points > pos.target:
        return 0
    return points


@piece(refcounts=False)   # (every round: no reference counts)
def counted_piece(points, scores, minimum, exact, target):
    """A side's round points as the match counts them: nothing below ``minimum`` while
    on 0 (``match.minimum_to_start``), nothing that overshoots (``match.exact``)."""
    for i in range(points.shape[0]):
        if minimum and scores[i] == 0 and points[i] < minimum:
            points[i] = 0
        if exact and scores[i] + points[i] > target:
            points[i] = 0


def winning_seat(pos: Position, winner: int | None, blocked: bool,
                 dominoer: int | None) -> int | None:
    """The seat that won: the dominoer when its side won, else the winning side's lowest
    hand (the first such seat)."""
    if winner is None:
        return None
    if not blocked and dominoer is not None and pos.side_of(dominoer) == winner:
        return dominoer
    return min(pos.sides[winner], key=lambda s: (pos.hand_value(s), s))


@piece(refcounts=False)   # (every round: no reference counts)
def winner_seat_piece(w, domino, SIDE_OF, TEAMS, V):
    """The seat that won for side ``w``: the dominoer when its side won, else the side's
    lowest hand (its first such seat)."""
    if domino >= 0 and SIDE_OF[domino] == w:
        return domino
    seat = -1
    best = 0
    for s in TEAMS[w]:
        if seat < 0 or V[s] < best:
            seat, best = s, V[s]
    return seat
