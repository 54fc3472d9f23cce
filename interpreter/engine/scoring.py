"""Settling a round with the compiled formulas, and deciding whether the match is over.

Runs once per round, so it builds the ``ScoreContext`` the formulas read; the frozen
tallies are created through ``__dict__`` (same objects, a third of the cost).
"""

from __future__ import annotations

from .rules import Rules, ScoreContext, SeatTally, SideTally

_new = object.__new__


def _seat(seat: int, pips: int, tiles: int, drawn: int) -> SeatTally:
    o = _new(SeatTally)
    o.__dict__.update(seat=seat, pips=pips, tiles=tiles, drawn=drawn)
    return o


def _side(index: int, players: tuple, pips: int, tiles: int, drawn: int) -> SideTally:
    o = _new(SideTally)
    o.__dict__.update(index=index, players=players, pips=pips, tiles=tiles, drawn=drawn)
    return o


def _context(winner, sides, seats, players: int) -> ScoreContext:
    o = _new(ScoreContext)
    o.__dict__.update(winner=winner, opponents=tuple(s for s in sides if s is not winner),
                      sides=sides, seats=seats, players=players)
    return o


def settle(rules: Rules, teams: tuple[tuple[int, ...], ...], side_of: tuple[int, ...],
           pips: list[int], counts: list[int], drawn: list[int], domino_seat: int | None,
           draw_cost: int) -> tuple[int | None, int | None, bool, list[int]]:
    """(winner side, winner seat, tied block, points per side) for one finished round.

    ``domino_seat`` is the seat that went out, or None for a blocked round. Draw
    costs are included in the points, so scores stay the sum of round points.
    """
    n = len(pips)
    seats = tuple(_seat(s, pips[s], counts[s], drawn[s]) for s in range(n))
    sides = tuple(_side(i, tuple(seats[s] for s in team), sum(pips[s] for s in team),
                        sum(counts[s] for s in team), sum(drawn[s] for s in team))
                  for i, team in enumerate(teams))
    points = [0] * len(teams)
    winner_side = winner_seat = None
    tied = False
    if domino_seat is not None:
        winner_seat = domino_seat
        winner_side = side_of[domino_seat]
        points[winner_side] = rules.domino_points(_context(sides[winner_side], sides, seats, n))
    else:
        if rules.blocked_winner == "lowest_side":
            low = min(s.pips for s in sides)
            lowest = [s.index for s in sides if s.pips == low]
        else:
            low = min(pips)
            low_seats = [s for s in range(n) if pips[s] == low]
            lowest = sorted({side_of[s] for s in low_seats})
        if len(lowest) == 1:
            winner_side = lowest[0]
            winner_seat = min(s for s in teams[winner_side] if pips[s] == min(
                pips[x] for x in teams[winner_side]))
            points[winner_side] = rules.blocked_points(
                _context(sides[winner_side], sides, seats, n))
        else:
            tied = True
            if rules.blocked_tie == "each":
                for i in lowest:
                    points[i] = rules.blocked_points(_context(sides[i], sides, seats, n))
    if draw_cost:
        paid = 0
        for s in range(n):
            if drawn[s]:
                points[side_of[s]] -= draw_cost * drawn[s]
                paid += draw_cost * drawn[s]
        if rules.draw_cost_to == "round_winner" and winner_side is not None:
            points[winner_side] += paid
    return winner_side, winner_seat, tied, points


def match_winner(scores: list[int], target: int, match_tie: str) -> tuple[bool, int | None]:
    """(is the match over, winning side or None for a drawn match)."""
    top = max(scores)
    if top < target:
        return False, None
    leaders = [i for i, s in enumerate(scores) if s == top]
    if len(leaders) == 1:
        return True, leaders[0]
    if match_tie == "play_on":
        return False, None
    return True, None
