"""A match continued from a position a searching bot imagined, played by the engine itself.

A bot that searches (``bots.expert``) sees only its observation. To look ahead it
imagines the hidden tiles -- a whole deal of the current round -- and asks: "had the
round been dealt so, and had everybody moved as I saw, what follows if I play this?"
This module answers through the match loop: the imagined deal is dealt as a fixed
``Deal``, the round's public moves are replayed by a scripted policy, the candidate
action is played, then the given policies play on to the round's end (or a few
rounds more). No rule is written here: every legal move, draw, pass, skip, event and
settlement is the loop's. A deal that could not have produced what was seen (a
replayed move the loop finds illegal, a forced move where the seat chose, a redeal)
raises ``Inconsistent``: the imagined deal is refused, by the rules themselves.

The script follows the record the loop writes: a policy is asked only at a choice
(the loop plays forced draws and passes itself), so at each question the next
public event is the one at the record's current length, and the events the loop
wrote since the last question must be those that were seen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import DRAW, Action
from .board import END_NAMES
from .game import Deal, Game
from .general_loop import GeneralLoop
from .observation import LoopView
from .tiles import Tile

Policy = Callable[..., int]


class Inconsistent(Exception):
    """The imagined deal cannot have produced the round that was seen."""


@dataclass(frozen=True)
class Round:
    """The public facts of the round under way that a continuation starts from."""

    players: int
    number: int                          # the round's number in the match
    leader: int
    start_scores: tuple[int, ...]        # per side, before this round's first move
    rounds_won: tuple[int, ...]          # per side, rounds won so far
    moves: tuple[tuple[str, int, int], ...]   # the round's public events after its deal:
                                         # (event, player, code: a placement's, else 0)
    seat: int                            # the seat to act now
    values: tuple[tuple[str, int], ...] = ()  # the variables this round plays with
                                         # (the last round_end's; empty: their initials)


def move_of(game: Game, event: dict) -> tuple[str, int, int]:
    """A public record event as (event, player, code): a placement's code is
    ``tile << 2 | end`` (end 0 for the opening), as a policy answers it."""
    kind = event["event"]
    if kind != "place":
        return kind, event.get("player", -1), 0
    t = game.tileset.index[Tile(*event["tile"])]
    end = event["end"]
    return kind, event["player"], t << 2 | (0 if end is None else END_NAMES.index(end))


def code_of(game: Game, action: Action) -> int:
    """An action as a policy answers it (``DRAW``, or ``tile << 2 | end``, 0 opening)."""
    if action.kind == "draw":
        return DRAW
    if action.kind != "place":
        raise ValueError(f"{action} is never a choice")
    return game.tileset.index[action.tile] << 2 | (
        0 if action.end is None else END_NAMES.index(action.end))


@dataclass
class Outcome:
    """How one continuation ended: scores when the candidate was played and at the end."""

    before: list[int]
    scores: tuple[int, ...]
    winner: int | None
    decided: bool                        # the match ended (not stopped at the round cap)


class _Script:
    """Every seat's policy: the round's seen moves first, then the candidate, then play on."""

    __slots__ = ("core", "moves", "checked", "candidate", "seat", "after", "done", "before")

    def __init__(self, moves: Sequence[tuple[str, int, int]], seat: int, candidate: int,
                 after: Sequence[Policy]):
        self.core: Any = None
        self.moves = moves
        self.seat = seat
        self.candidate = candidate
        self.after = after
        self.checked = 0
        self.done = False
        self.before: list[int] = []

    def policy(self, seat: int) -> Policy:
        def choose(mL: int, mR: int, can_draw: bool, *arms: int) -> int:
            if self.done:     # the loop's own call, passed on (arms: a spinner's, once open)
                return self.after[seat](mL, mR, can_draw, *arms)
            return self._scripted(seat, (mL, mR, *arms, 0, 0), can_draw)
        return choose

    def _scripted(self, seat: int, masks: tuple, can_draw: bool) -> int:
        rec = self.core.rec
        if rec[1]["leader"] is None:          # the imagined deal was thrown in
            raise Inconsistent("redeal")
        i = len(rec) - 2
        self._check(rec, i)
        moves = self.moves
        if i == len(moves):
            if seat != self.seat:
                raise Inconsistent("another seat acts")
            self.done = True
            self.before = list(self.core.scores)
            code = self.candidate
        else:
            kind, player, code = moves[i]
            if player != seat or kind not in ("place", "draw"):
                raise Inconsistent("another move where a seat chose")
            if kind == "draw":
                code = DRAW
        if code == DRAW:
            if not can_draw:
                raise Inconsistent("a draw the rules do not allow")
        elif not masks[code & 3] >> (code >> 2) & 1:
            raise Inconsistent("a placement the rules do not allow")
        return code

    def _check(self, rec: list, upto: int) -> None:
        """The events the loop wrote by itself since the last question are the seen ones."""
        moves = self.moves
        if upto > len(moves):
            raise Inconsistent("the round went past the position")
        for j in range(self.checked, upto):
            kind, player, _ = moves[j]
            made = rec[j + 2]
            if kind != made["event"] or player != made.get("player", -1):
                raise Inconsistent("the round went differently")
        self.checked = upto


def continue_round(game: Game, position: Round, deal: Deal, candidate: int,
                   after: Sequence[Policy] | Callable[[Any], Sequence[Policy]],
                   extra_rounds: int = 0, seed: int = 0) -> Outcome:
    """Deal ``deal``, replay ``position``'s moves, play ``candidate`` (``code_of``), then
    let ``after`` (a policy per seat, or a function of the match loop giving them: a
    policy bound to the loop) play on.

    The continuation stops at the end of the round, or ``extra_rounds`` rounds later
    (the later deals are shuffled from ``seed``); it raises ``Inconsistent`` when the
    deal cannot have produced the round seen.
    """
    script = _Script(position.moves, position.seat, candidate, after)
    n = position.players
    core = GeneralLoop(game, n, seed, [script.policy(s) for s in range(n)], record=True,
                       deals=[deal], start_scores=list(position.start_scores),
                       max_rounds=position.number + extra_rounds)
    core.first_round = position.number
    if hasattr(core, "rounds_won"):
        core.rounds_won[:] = position.rounds_won
    core.values.update(position.values)
    script.core = core
    if callable(after):   # policies bound to the match read a view of it, not the loop
        script.after = after(LoopView(core))
    for _ in core.run():          # every seat has a policy: the loop never stops to ask
        raise Inconsistent("a seat without a policy")
    if not script.done:
        raise Inconsistent("the round ended before the position")
    result = core.result
    return Outcome(script.before, result.scores, result.winner, not result.capped)
