"""Build ``engine.Rules`` in Python for scenario tests: pagat-like defaults, any override.

>>> game = make_game(max_pip=2, reserve=2)
>>> state = start(game, ["2-2 0-2", "1-1"], "0-1 0-0 1-2", leader=0)
>>> [str(a) for a in state.legal_actions()]
['2-0', '2-2', 'draw']
"""

from __future__ import annotations

from collections.abc import Sequence

from dominorules.engine.game import Deal, Game
from dominorules.engine.game_rules import Rules
from dominorules.engine.state import State


def opponents_pips(ctx) -> int:
    return sum(side.pips for side in ctx.opponents)


def opponents_minus_own(ctx) -> int:
    return sum(side.pips for side in ctx.opponents) - ctx.winner.pips


DEFAULTS = dict(
    name="test", title="Test rules", description="pagat-like", source="tests",
    max_pip=6, min_players=2, max_players=4, partnerships=False,
    hand_size=lambda players: 7 if players <= 3 else 6, reserve=2,
    first_leader="lot", later_leader="rotate", lead_count_from="seat_zero",
    opening_tile="any", opener="leader", if_unheld="redeal",
    voluntary_draw=True, when_stuck="draw", draw_limit=None,
    draw_cost=lambda players: 0, draw_cost_to="nobody",
    tile_value=lambda low, high: low + high,
    domino_points=opponents_pips, blocked_winner="lowest_hand", blocked_tie="nothing",
    blocked_points=opponents_minus_own,
    target=lambda players, sides, partnerships: 100 if players == 2 or partnerships else 61,
    match_tie="draw",
)


def make_rules(**overrides) -> Rules:
    """Pagat-like ``Rules`` with ``overrides`` (any ``Rules`` field)."""
    unknown = set(overrides) - set(Rules.__dataclass_fields__)
    if unknown:
        raise TypeError(f"not Rules fields: {sorted(unknown)}")
    if "max_pip" in overrides and "hand_size" not in overrides:
        # a small set: deal what fits (pagat's 7 or 6 for the double-six), keeping a boneyard
        count = (overrides["max_pip"] + 1) * (overrides["max_pip"] + 2) // 2
        overrides["hand_size"] = lambda players: min(7 if players <= 3 else 6,
                                                     count // players - 1)
    return Rules(**{**DEFAULTS, **overrides})


def make_game(**overrides) -> Game:
    return Game(make_rules(**overrides))


def start(game: Game, hands: Sequence[str], boneyard: str = "", leader: int | None = None,
          more: Sequence[Deal] = (), seed: int = 0, **kwargs) -> State:
    """A match whose first deal is fixed: hands as ``"6-4 3-3"`` strings per seat, the
    boneyard's first tiles in draw order (the rest of the set follows, ascending)."""
    deal = Deal.of(hands, boneyard, leader)
    return game.new_match(len(hands), seed, deals=[deal, *more], **kwargs)


def texts(state: State) -> list[str]:
    """The legal actions' text forms, in canonical order."""
    return [str(a) for a in state.legal_actions()]


def events(state: State, since: int = 0) -> list[dict]:
    """The record from event ``since`` on, without the deals' long tile lists."""
    out = []
    for e in state.record[since:]:
        if e["event"] == "deal":
            e = {"event": "deal", "round": e["round"], "leader": e["leader"]}
        out.append(e)
    return out


def play(state: State, *actions: str) -> None:
    for text in actions:
        state.apply(text)
