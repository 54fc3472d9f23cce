"""A ``kind: dealt`` rule example: hands as dealt, played the way a match plays them.

The example's hands (and the boneyard's first tiles) become a fixed deal of a real match
(``State`` with ``deals=``, as docs/api.md fixes a deal), so the ruleset's own redeal,
lead and opening rules decide who leads, who opens and with what; then the decisions the
example names are applied one by one, each checked legal where it is taken. What the
match then shows is read back from its record and its state: there is no second copy of
any rule here.

Cases an example leaves open, decided here:
- A deal thrown in is followed by the shuffle's deals (seeded by the example's ``seed``).
- A placement written without an end is put at the one end it fits, as ``State.apply``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..diagnostics import DiagnosticError
from .actions import ActionError
from .game import Deal, Game
from .tiles import Tile


@dataclass(frozen=True)
class DealtPlay:
    """What a dealt example's match shows after its decisions."""

    leader: int | None          # round 1's leader once its deal stands (None: never stood)
    redealt: bool               # the example's hands were thrown in
    turn: int | None            # the seat to act now (None: the match is over)
    legal: tuple[str, ...]      # its legal actions
    opening: Tile | None        # round 1's first tile, once placed
    points: list[int] | None    # round 1's points per side, once it ended
    scores: list[int] | None    # the scores after round 1, once it ended
    next_leader: int | None     # round 2's leader, once its deal stands
    scores_now: list[int] | None = None   # the scores once play is done, mid-round or not


@dataclass(frozen=True)
class DealtFailure:
    """Why a dealt example cannot be played: ``message``, and ``index``, the entry of its
    ``play`` that fails (None: the deal itself cannot be played)."""

    message: str
    index: int | None = None


def play_dealt(game: Game, data: dict[str, Any]) -> DealtPlay | DealtFailure:
    """Play a dealt example, or say why it cannot be played (an illegal decision)."""
    n = int(data["players"])
    yard = data.get("boneyard")
    deal = Deal.of(list(data["hands"]), yard if isinstance(yard, str) else (),
                   leader=data.get("leader"))
    try:
        state = game.new_match(n, seed=int(data.get("seed", 0)), deals=[deal],
                               start_scores=data.get("scores"))
    except DiagnosticError as exc:
        return DealtFailure("; ".join(d.message for d in exc.diagnostics))
    for i, text in enumerate(data.get("play") or []):
        if state.is_terminal:
            return DealtFailure(f"play[{i}] {text}: the match is over", i)
        seat = state.current_player
        try:
            state.apply(str(text))
        except ActionError as exc:
            shown = ", ".join(str(a) for a in state.legal_actions()) or "none"
            return DealtFailure(f"play[{i}] {text} is not legal for seat {seat}: {exc} "
                                f"(legal: {shown})", i)
    return _outcome(game, state)


def _outcome(game: Game, state) -> DealtPlay:
    record = state.record
    deals = [e for e in record if e["event"] == "deal" and e["round"] == 1]
    # the round's last deal stands unless thrown in (a deal whose leader drew the boneyard
    # out in vain has a leader, and another deal follows it)
    standing = deals[-1] if deals and deals[-1]["leader"] is not None else None
    second = next((e for e in record if e["event"] == "deal" and e["round"] == 2
                   and e["leader"] is not None), None)
    opening = _first_place(record)
    end = next((e for e in record if e["event"] == "round_end" and e["round"] == 1), None)
    return DealtPlay(
        leader=standing["leader"] if standing else None,
        redealt=len(deals) > 1 or bool(deals) and deals[0]["leader"] is None,
        turn=state.current_player,
        legal=tuple(str(a) for a in state.legal_actions()),
        opening=Tile.of(opening["tile"]) if opening else None,
        points=list(end["points"]) if end else None,
        scores=list(end["scores"]) if end else None,
        next_leader=second["leader"] if second else None, scores_now=list(state.scores))


def _first_place(record: list[dict]) -> dict | None:
    """Round 1's first tile (the opening, or the tile turned up by ``deal.turn_up``), if
    it is down."""
    in_one = False
    for e in record:
        if e["event"] == "deal":
            in_one = e["round"] == 1
        elif e["event"] in ("place", "turn_up") and in_one:
            return e
        elif e["event"] == "round_end":
            return None
    return None
