"""``State``: one match, step by step -- current player, legal actions, apply, outcome.

It drives ``GeneralLoop.run()`` (``engine.general_loop``) with no policies, so every
decision stops here.
Observations are copies: a bot given one can never reach the State or a hidden hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, DiagnosticError
from .actions import (
    DRAW,
    FLIP,
    PASS,
    SEVERAL,
    Action,
    AmbiguousActionError,
    IllegalActionError,
    board_names,
)
from .board import END_NAMES
from .decision import DECLARE, OPEN, PLAY, SEEK
from .general_loop import GeneralLoop
from .mechanisms import several as several_rule
from .mechanisms.declarations import texts
from .mechanisms.matching import placements
from .observation import Observation, observe
from .results import MatchResult
from .tiles import bits

if TYPE_CHECKING:
    from .game import Deal, Game


class State:
    """A match in progress. ``apply`` raises ``IllegalActionError`` with the rule's reason."""

    def __init__(self, game: Game, players: int, seed: int, deals: Sequence[Deal] | None = None,
                 start_scores: Sequence[int] | None = None, max_rounds: int = 1000,
                 record: bool = True, policies: list | None = None):
        self.game = game
        self.players = players
        self.seed = seed
        for d in deals or ():
            _check_deal(game, players, d)
        self._core = GeneralLoop(game, players, seed, policies or [None] * players,
                                 record=record, deals=list(deals or ()),
                                 start_scores=start_scores, max_rounds=max_rounds)
        self._gen = self._core.run()
        self._decision: tuple | None = None
        self._legal: list[tuple[int, Action]] | None = None
        self._public_views: dict[int, list] = {}   # per seat: what observe has read so far
        self._advance(None)

    def _advance(self, code: int | None) -> None:
        self._legal = None
        try:
            self._decision = next(self._gen) if code is None else self._gen.send(code)
        except StopIteration:
            self._decision = None

    # -- reading ---------------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self._decision is None

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the match is over."""
        return None if self._decision is None else self._decision.player

    @property
    def record(self) -> list[dict]:
        """The TRACE events so far (the live list: copy it before changing it)."""
        return self._core.rec if self._core.rec is not None else []

    @property
    def outcome(self) -> MatchResult | None:
        """The finished match, or None while it runs."""
        return self._core.result

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._core.scores)

    @property
    def round(self) -> int:
        return self._core.round

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        return self._core.teams

    @property
    def rounds(self):
        """RoundStats of the rounds finished so far."""
        return tuple(self._core.rounds)

    def hand(self, seat: int):
        """A seat's hand (for referees and tests; bots get ``observation`` instead)."""
        return self.game.tileset.tiles_of(self._core.hands[seat])

    def legal_actions(self) -> list[Action]:
        """Legal actions in canonical order: placements at the left end (or opening
        tiles) by ascending tile, then at the right end, then draw, then pass."""
        return [a for _, a in self._legal_pairs()]

    def _legal_pairs(self) -> list[tuple[int, Action]]:
        if self._legal is None:
            self._legal = [] if self._decision is None else legal_pairs(self.game,
                                                                        self._decision)
        return self._legal

    def observation(self, seat: int) -> Observation:
        return observe(self._core, self._decision, seat, self._public_views)

    # -- acting ----------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        """Text -> Action; ``6-4`` alone is resolved to the one end it fits (Ambiguous
        when it fits both). Malformed text raises ``MalformedActionError``."""
        return self._resolve(Action.parse(text, board_names(self.game.rules.layout)))

    def _resolve(self, action: Action) -> Action:
        if action.kind == "several" and self._decision is not None:
            return self._resolve_several(action)
        if action.kind != "place" or self._decision is None:
            return action
        if self._decision.phase != PLAY:
            return action
        if action.end is not None:
            return self._resolve_way(action)
        fits = [a for a in self.legal_actions() if a.kind == "place" and a.tile == action.tile]
        if any(a.meets is not None for a in fits):
            raise AmbiguousActionError(
                f"{action.tile} fits more than one way: write "
                + " or ".join(str(a) for a in fits) + " (the last number: the half against "
                "the end)")
        if len(fits) > 1:
            from .explain import ambiguous
            raise AmbiguousActionError(ambiguous(action.tile, [a.end for a in fits]))
        return fits[0] if fits else action

    def _resolve_several(self, action: Action) -> Action:
        """A move of several tiles whose parts name no end (``6-6 + 3-3``) is the one legal
        move laying those tiles in that order; ambiguous when two are. Under a fit rule a
        part naming its end but not its half is resolved the same way (``halves``)."""
        if all(p.end is not None for p in action.parts):
            ways = self.halves(action)
            if len(ways) > 1:
                raise AmbiguousActionError(
                    f"{action} can be laid more than one way round: write "
                    + " or ".join(str(a) for a in ways) + " (after a tile that fits either "
                    "way, the half against its end)")
            return ways[0] if ways else action
        found = [a for a in self.legal_actions() if a.kind == "several"
                 and len(a.parts) == len(action.parts)
                 and all(q.tile == p.tile and p.end in (None, q.end)
                         for p, q in zip(action.parts, a.parts, strict=True))]
        if len(found) > 1:
            raise AmbiguousActionError(f"{action} can be laid more than one way: write "
                                       + " or ".join(str(a) for a in found))
        return found[0] if found else action

    def halves(self, action: Action) -> list[Action]:
        """The legal moves of several tiles that are ``action`` with the halves its parts
        leave out named (a fit rule's tile fitting its end either way round); none when
        every part names its half, or when no legal move lays those tiles on those ends."""
        if all(p.meets is not None for p in action.parts):
            return []
        return [a for a in self.legal_actions() if a.kind == "several"
                and len(a.parts) == len(action.parts)
                and all(q.tile == p.tile and q.end == p.end and p.meets in (None, q.meets)
                        for p, q in zip(action.parts, a.parts, strict=True))]

    def _resolve_way(self, action: Action) -> Action:
        """A placement at a named end, against the legal ones: which way round it lies is
        asked only when it may lie either way (a fit rule), and is optional otherwise."""
        ways = [a for a in self.legal_actions() if a.kind == "place" and a.tile == action.tile
                and a.end == action.end]
        if action.meets is None and len(ways) > 1:
            low, high = action.tile.low, action.tile.high
            raise AmbiguousActionError(
                f"{action.tile} fits the {action.end} end either way round: write "
                f"{ways[0]} (the {low} against it, leaving {high} open) or {ways[1]} (the "
                f"{high} against it, leaving {low} open)")
        if action.meets is not None and len(ways) == 1 and ways[0].meets is None:
            value = self._decision.ends[END_NAMES.index(action.end)]
            tile = (action.tile.low, action.tile.high)
            if any(h == action.meets for h, _ in placements(tile, value, self.game.rules.fit)):
                return ways[0]   # it fits one way only: naming the half is not needed
        return action

    def apply(self, action: Action | str) -> None:
        """Play ``action`` (or its text) for the current player. A placement without an
        end is put at the one end it fits (``AmbiguousActionError`` when it fits both)."""
        action = self.parse_action(action) if isinstance(action, str) else self._resolve(action)
        for code, legal in self._legal_pairs():
            if legal == action:
                self._advance(code)
                return
        from .explain import explain_illegal
        raise IllegalActionError(explain_illegal(self, action))

    def decision(self) -> tuple | None:
        """The raw ``Decision`` (``engine.decision``), for explanations and tools."""
        return self._decision


_DRAW, _PASS = Action("draw"), Action("pass")


def legal_pairs(game: Game, decision: tuple) -> list[tuple[int, Action]]:
    """(code, Action) for every legal action of a decision, in canonical order."""
    placements = game.placements
    phase = decision.phase
    out: list[tuple[int, Action]] = []
    if phase == DECLARE:   # each option one action, its code its index
        return [(k, Action.parse(text)) for k, text in enumerate(texts(decision.declaration))]
    if phase == OPEN:
        out = [(t << 2 | 2, placements[t][4]) for t in bits(decision.left_mask)]
    elif phase == PLAY and decision.names:   # a shaped board: its ends by name
        tiles = game.tileset.tiles
        for e, m in enumerate(decision.masks):
            out += [(t << 8 | e, Action("place", tiles[t], decision.names[e])) for t in bits(m)]
    elif phase == PLAY:   # left, right, then a spinner's up and down
        flips = decision.flips
        for e, m in enumerate(decision.masks):
            if m and flips[e]:   # a fit rule's tile fitting this end either way round
                for t in bits(m):
                    if flips[e] >> t & 1:
                        tile = game.tileset.tiles[t]
                        end = END_NAMES[e]
                        out += [(t << 2 | e, Action("place", tile, end, tile.low)),
                                (t << 2 | e | FLIP, Action("place", tile, end, tile.high))]
                    else:
                        out.append((t << 2 | e, placements[t][e]))
            elif m:
                out += [(t << 2 | e, placements[t][e]) for t in bits(m)]
    for k, move in enumerate(decision.several):   # play.several: after the single placements
        out.append((SEVERAL + k, Action.several(
            [Action("place", game.tileset.tiles[c >> 8], decision.names[c & 255]) for c in move]
            if decision.names else [_part(game, c) for c in move])))
    if decision.can_draw or phase == SEEK:
        out.append((DRAW, _DRAW))
    if decision.can_pass:
        out.append((PASS, _PASS))
    return out


def _part(game: Game, code: int) -> Action:
    """One placement of a move of several tiles on the line: under a fit rule, a tile that
    fits its end either way round there names the half against it (``several.TWO_WAYS``;
    ``FLIP``: the high half, as a single placement's second way)."""
    if not code & several_rule.TWO_WAYS:
        return game.placements[code >> 2][code & 3]
    tile = game.tileset.tiles[(code & several_rule.CODE) >> 2]
    return Action("place", tile, END_NAMES[code & 3], tile.high if code & FLIP else tile.low)


def _check_deal(game: Game, players: int, deal: Deal) -> None:
    ts = game.tileset
    problems = []
    if len(deal.hands) != players:
        problems.append(f"a fixed deal has {len(deal.hands)} hands for {players} players")
    seen: dict = {}
    for t in [t for h in deal.hands for t in h] + list(deal.boneyard):
        if not ts.holds(t):
            problems.append(ts.missing(str(t), t))
        elif seen.get(t, 0) >= ts.copies:
            problems.append(f"{t} is dealt twice" if ts.copies == 1 else
                            f"{t} is dealt more than {ts.copies} times (set.copies)")
        seen[t] = seen.get(t, 0) + 1
    if deal.leader is not None and not 0 <= deal.leader < players:
        problems.append(f"leader {deal.leader} is not a seat")
    if problems:
        raise DiagnosticError([Diagnostic("deal", p) for p in problems])
