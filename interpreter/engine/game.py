"""``Game``: a ``Rules`` compiled once into tables and per-player-count constants.

Everything the loop needs that depends only on the ruleset (tile tables, hand
values, teams, hand sizes, targets) is computed here, so nothing per move looks
at the ruleset's structure again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, wraps
from types import MappingProxyType
from typing import NamedTuple

from ..diagnostics import Diagnostic, DiagnosticError
from . import leaders
from .actions import Action
from .board import END_NAMES
from .game_rules import Rules
from .mechanisms.matching import fit_tables
from .scoring import Settler
from .streams import words
from .tiles import Tile, TileSet


@dataclass(frozen=True)
class Deal:
    """A fixed deal for scenario tests and replays.

    ``hands`` per seat; ``boneyard`` the first tiles to be drawn, in order (tiles in
    neither follow in ascending order); ``leader`` overrides the ruleset's choice.
    """

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...] = ()
    leader: int | None = None

    @classmethod
    def of(cls, hands: Sequence, boneyard: Sequence | str = (), leader: int | None = None) -> Deal:
        """Accepts tiles as ``Tile``, ``"6-4"``, ``[4, 6]``; a hand or boneyard may be one
        string of tiles separated by spaces (``"6-4 3-3"``)."""
        def tiles(x) -> tuple[Tile, ...]:
            if isinstance(x, str):
                return tuple(Tile.parse(w) for w in x.split())
            return tuple(Tile.of(t) for t in x)
        return cls(tuple(tiles(h) for h in hands), tiles(boneyard), leader)


CHUNK = 14


class Setup(NamedTuple):
    """What the match loop and the kernels read per match, computed once per player count:
    read by name (``setup.draw_end``), never unpacked by position."""

    value_mask: tuple[int, ...]   # pip value -> the tiles showing it
    low: tuple[int, ...]          # tile index -> its low half
    high: tuple[int, ...]
    pips: tuple[int, ...]
    tile_count: int
    hand_size: int
    draw_end: int                 # deck index past the last tile that may be drawn
    voluntary: bool               # may draw while holding a playable tile
    stuck_draws: bool             # a player with no placement draws (else passes)
    draw_limit: int               # most tiles drawn in one turn
    draw_cost: int
    hand_value: Callable[[int], int]
    settle: Callable[..., tuple]
    open_any: bool                # any tile opens and the lead needs no deal
    play_on: bool                 # a tie at the target plays another round
    tiles: range
    bit: tuple[int, ...]
    dealt: int                    # tiles dealt in all
    key_bytes: int                # shuffle keys per deal, in bytes
    words: Callable[[bytes], tuple[int, ...]]


def _chunk_table(values: Sequence[int]) -> list[int]:
    """table[m] = the summed values of the tiles whose bits are set in m (by doubling)."""
    table = [0]
    for v in values:
        table += [x + v for x in table]
    return table


def _hand_value(chunks: tuple[list[int], ...]):
    """A function: hand bitmask -> sum of its tiles' values."""
    if len(chunks) == 1:
        return chunks[0].__getitem__
    if len(chunks) == 2:
        low, high = chunks

        def two(hand: int) -> int:
            return low[hand & 16383] + high[hand >> 14]
        return two

    def many(hand: int) -> int:
        total = 0
        for chunk in chunks:
            total += chunk[hand & 16383]
            hand >>= 14
        return total
    return many


def _per_game(method):
    """Memoize a ``method(self, players)`` on the instance: ``functools.cache`` on a method
    keys a module-wide cache by ``self`` and so keeps every Game ever made alive."""
    slot = "_memo_" + method.__name__

    @wraps(method)
    def memoized(self, players):
        memo = self.__dict__.get(slot)
        if memo is None:
            memo = self.__dict__[slot] = {}
        if players not in memo:
            memo[players] = method(self, players)
        return memo[players]
    return memoized


class Game:
    """A compiled ruleset.

    ``ref`` is the name records give it (a builtin name, or the ruleset's own name);
    ``path`` the absolute path of a ruleset file that is not builtin, so a record
    can find it again (the record's ``source`` field; ``rules.source`` is the
    citation).
    """

    def __init__(self, rules: Rules, ref: str | None = None, path: str | None = None):
        self.rules = rules
        self.name = rules.name
        self.ref = ref or rules.name
        self.path = path
        self.tileset = ts = TileSet(rules.max_pip, rules.removed_tiles, rules.copies)
        self.values = tuple(rules.tile_value(t.low, t.high) for t in ts.tiles)
        # hand value by 14-bit chunks: two lookups for a double-six hand, not a loop
        self._chunks = tuple(_chunk_table(self.values[k:k + CHUNK])
                             for k in range(0, ts.tile_count, CHUNK))
        self.hand_value = _hand_value(self._chunks)
        # a hand's pips (both halves of every tile), for formulas reading .pips
        self.hand_pips = (self.hand_value if self.values == ts.pips else _hand_value(tuple(
            _chunk_table(ts.pips[k:k + CHUNK]) for k in range(0, ts.tile_count, CHUNK))))
        self._settlers: dict[tuple[int, int], Settler] = {}
        self._setups: dict[tuple[int, int], tuple] = {}
        self._seatable: set[int] = set()
        tile = rules.opening_tile
        self.required_tile: str | int = (
            tile if isinstance(tile, str) else ts.index[Tile(tile[0], tile[1])])

    @cached_property
    def tile_values(self) -> Mapping[Tile, int]:
        """Each tile's value in a hand (``scoring.tile_value``), read-only: every
        observation hands the same mapping to the bots."""
        return MappingProxyType(dict(zip(self.tileset.tiles, self.values, strict=True)))

    # -- per player count --------------------------------------------------------------
    def check_players(self, players: int) -> None:
        """Raise a ``players`` diagnostic when this ruleset cannot seat ``players``."""
        if players in self._seatable:
            return
        r = self.rules
        if not r.min_players <= players <= r.max_players:
            span = (f"{r.min_players}" if r.min_players == r.max_players
                    else f"{r.min_players} to {r.max_players}")
            choices = ", ".join(map(str, range(r.min_players, r.max_players)))
            choices = (f"{r.min_players} to {r.max_players}" if r.max_players - r.min_players > 2
                       else f"{choices} or {r.max_players}" if choices else str(r.max_players))
            raise DiagnosticError([Diagnostic(
                "players", f"{r.name} is played by {span} players, not {players}",
                hint=f"play with {choices} players (--players)")])
        need = self.hand_size(players) * players
        if need > self.tileset.tile_count:
            raise DiagnosticError([Diagnostic(
                "deal", f"{r.name}: {players} hands of {self.hand_size(players)} need {need} "
                f"tiles but the set has {self.tileset.tile_count}",
                hint="play with fewer players (--players)")])
        self._seatable.add(players)

    @_per_game
    def hand_size(self, players: int) -> int:
        return int(self.rules.hand_size(players))

    @_per_game
    def teams(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Seats of each side: one each, or two sides of alternating seats."""
        if self.rules.partnerships:
            return (tuple(range(0, players, 2)), tuple(range(1, players, 2)))
        return tuple((s,) for s in range(players))

    @_per_game
    def side_of(self, players: int) -> tuple[int, ...]:
        out = [0] * players
        for i, team in enumerate(self.teams(players)):
            for s in team:
                out[s] = i
        return tuple(out)

    @_per_game
    def target(self, players: int) -> int:
        return int(self.rules.target(players, len(self.teams(players)), self.rules.partnerships))

    @_per_game
    def draw_cost(self, players: int) -> int:
        return int(self.rules.draw_cost(players))

    def setup(self, players: int) -> Setup:
        """Everything the match loop and the kernels read per match, once per player count."""
        key = (players, threading.get_ident())
        found = self._setups.get(key)
        if found is None:
            r, ts = self.rules, self.tileset
            T = ts.tile_count
            open_any = (self.required_tile == "any"
                        and r.first_leader not in leaders.DEAL_DEPENDENT
                        and r.later_leader not in leaders.DEAL_DEPENDENT)
            fits = self.fit[0] if self.fit else ts.value_mask   # what fits an end showing v
            found = self._setups[key] = Setup(
                fits, ts.low, ts.high, ts.pips, T, self.hand_size(players),
                T - r.reserve, r.voluntary_draw, r.when_stuck == "draw",
                r.draw_limit if r.draw_limit is not None else T, self.draw_cost(players),
                self.hand_value, self.settler(players).settle, open_any,
                r.match_tie == "play_on", range(T), ts.bit, self.hand_size(players) * players,
                16 * T, words)
        return found

    def settler(self, players: int):
        """The round settler for ``players`` (one per thread: it reuses its tallies)."""
        key = (players, threading.get_ident())
        found = self._settlers.get(key)
        if found is None:
            found = self._settlers[key] = Settler(self.rules, self.teams(players),
                                                  self.side_of(players))
        return found


    @cached_property
    def fit(self) -> tuple | None:
        """The ruleset's fit rule as the match loop's tables (``matching.fit_tables``: per
        end value the tiles that fit, those that fit two ways, and per tile the number left
        open each way), or None for the same-number rule, which needs none."""
        if self.rules.fit is None:
            return None
        return fit_tables([(t.low, t.high) for t in self.tileset.tiles], self.rules.fit)

    @cached_property
    def placements(self) -> tuple[tuple[Action, ...], ...]:
        """Per tile index, its placement at each end (left, right, up, down) and as the
        opening tile (index 4): made once, the step-by-step State's legal actions reuse
        them (a frozen dataclass costs a microsecond to make)."""
        return tuple(tuple(Action("place", t, end) for end in (*END_NAMES, None))
                     for t in self.tileset.tiles)

    @cached_property
    def restriction_cache(self) -> tuple[dict, frozenset[str]]:
        """(verdicts, names read) for the placement restrictions: a verdict is a pure
        function of the names its formulas read, so one game keeps them all."""
        reads: set[str] = set()
        for r in self.rules.restrictions:
            reads |= r.reads if r.reads is not None else {
                "hand", "playable", "ends", "end", "boneyard", "round", "arm",
                "spinners_complete", "doubles_down"}
        return {}, frozenset(reads)

    def holder_tile(self, hands: list[int]) -> int:
        """The tile whose holder leads under ``opening_tile_holder``."""
        if isinstance(self.required_tile, int):
            return self.required_tile
        found = leaders.highest_double_holder(hands, self.tileset)
        return found[1] if found else self.tileset.doubles_desc[0]

    # -- matches -------------------------------------------------------------------------
    def new_match(self, players: int, seed: int = 0, deals: Sequence[Deal] | None = None,
                  start_scores: Sequence[int] | None = None, max_rounds: int = 1000,
                  record: bool = True):
        """A ``State`` positioned at the first decision (see ``engine.state``)."""
        from .state import State

        self.check_players(players)
        return State(self, players, seed, deals=deals, start_scores=start_scores,
                     max_rounds=max_rounds, record=record)
