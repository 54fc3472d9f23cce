"""Settling a round with the compiled formulas, and deciding whether the match is over.

A ``Settler`` (one per game, player count and thread) keeps one set of the frozen
tallies the formulas read (``ScoreContext``) and refreshes their values each round
through ``__dict__``: the formulas are pure and never keep a context, so reusing
the objects is safe and saves building a dozen objects per round.
"""

from __future__ import annotations

from .game_rules import Rules, ScoreContext, SeatTally, SideTally

_new = object.__new__


def _frozen(cls, **values):
    o = _new(cls)
    o.__dict__.update(values)
    return o


class Settler:
    """Points for a finished round of one ruleset at one player count."""

    def __init__(self, rules: Rules, teams: tuple[tuple[int, ...], ...],
                 side_of: tuple[int, ...]):
        self.rules = rules
        self.teams = teams
        self.side_of = side_of
        self.n = n = len(side_of)
        self.individual = len(teams) == n
        self.seats = tuple(_frozen(SeatTally, seat=s, pips=0, value=0, tiles=0, drawn=0)
                           for s in range(n))
        self.sides = tuple(_frozen(SideTally, index=i, players=tuple(self.seats[s] for s in t),
                                   pips=0, value=0, tiles=0, drawn=0)
                            for i, t in enumerate(teams))
        self.contexts = tuple(_frozen(ScoreContext, winner=w,
                                      opponents=tuple(s for s in self.sides if s is not w),
                                      sides=self.sides, seats=self.seats, players=n)
                              for w in self.sides)
        if self.individual:
            # a side of one seat reads the same values: let it share the seat's dict
            for seat, side in zip(self.seats, self.sides, strict=True):
                seat.__dict__.update(index=side.index, players=side.players)
                object.__setattr__(side, "__dict__", seat.__dict__)
        self._seat_d = [s.__dict__ for s in self.seats]
        self._side_d = [s.__dict__ for s in self.sides]
        self.lowest_side = rules.blocked_winner == "lowest_side"
        self.tie_each = rules.blocked_tie == "each"
        self.cost_to_winner = rules.draw_cost_to == "round_winner"

    def settle(self, pips: list[int], counts: list[int], drawn: list[int],
               domino_seat: int | None, draw_cost: int
               ) -> tuple[int | None, int | None, bool, list[int]]:
        """(winner side, winner seat, tied block, points per side) for one finished round.

        ``domino_seat`` is the seat that went out, or None for a blocked round. Draw
        costs are included in the points, so scores stay the sum of round points.
        """
        n = self.n
        for s, d in enumerate(self._seat_d):
            # a hand's pips and value agree here: a ruleset whose tile values differ from
            # pips and whose formulas read .pips runs on the general loop (rules.compile)
            d["value"] = d["pips"] = pips[s]
            d["tiles"] = counts[s]
            d["drawn"] = drawn[s]
        if self.individual:
            if domino_seat is not None and not draw_cost:  # the common case, straight
                points = [0] * n
                points[domino_seat] = self.rules.domino_points(self.contexts[domino_seat])
                return domino_seat, domino_seat, False, points
            side_pips = pips
        else:
            side_pips = []
            for team, d in zip(self.teams, self._side_d, strict=True):
                d["value"] = d["pips"] = total = sum([pips[s] for s in team])
                d["tiles"] = sum([counts[s] for s in team])
                d["drawn"] = sum([drawn[s] for s in team])
                side_pips.append(total)
        rules = self.rules
        points = [0] * len(self.teams)
        winner_side = winner_seat = None
        tied = False
        if domino_seat is not None:
            winner_seat = domino_seat
            winner_side = self.side_of[domino_seat]
            points[winner_side] = rules.domino_points(self.contexts[winner_side])
        else:
            if self.lowest_side or self.individual:
                low = min(side_pips)
                lowest = ([side_pips.index(low)] if side_pips.count(low) == 1
                          else [i for i, v in enumerate(side_pips) if v == low])
            else:
                low = min(pips)
                lowest = sorted({self.side_of[s] for s in range(n) if pips[s] == low})
            if len(lowest) == 1:
                winner_side = lowest[0]
                if self.individual:
                    winner_seat = winner_side
                else:
                    team = self.teams[winner_side]
                    best = min([pips[s] for s in team])
                    winner_seat = min([s for s in team if pips[s] == best])
                points[winner_side] = rules.blocked_points(self.contexts[winner_side])
            else:
                tied = True
                if self.tie_each:
                    for i in lowest:
                        points[i] = rules.blocked_points(self.contexts[i])
        if draw_cost:
            paid = 0
            for s in range(n):
                if drawn[s]:
                    points[self.side_of[s]] -= draw_cost * drawn[s]
                    paid += draw_cost * drawn[s]
            if self.cost_to_winner and winner_side is not None:
                points[winner_side] += paid
        return winner_side, winner_seat, tied, points


def match_winner(scores: list[int], target: int, play_on: bool) -> tuple[bool, int | None]:
    """(is the match over, winning side or None for a drawn match); ``play_on``: a tie
    for highest at or over the target plays another round instead of drawing the match."""
    top = max(scores)
    if top < target:
        return False, None
    leaders = [i for i, s in enumerate(scores) if s == top]
    if len(leaders) == 1:
        return True, leaders[0]
    if play_on:
        return False, None
    return True, None
