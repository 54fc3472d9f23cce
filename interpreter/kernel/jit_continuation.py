"""The expert's playouts played by the JIT: ``engine.continuation.continue_round`` for a
batch of imagined deals and candidates in one call.

The kernel is the ruleset's own (``jit_loop`` with its ``CONT`` lines, which every other
kernel folds away): each "match" of the batch is one playout, dealt its deck, its
round's seen moves answered from the script (``jit_continue``), its candidate played,
then the rollout bot (the strategist, greedy or random) at every seat to the round's
end, their ties drawn from one Mersenne Twister seeded with the playout's seed, as the
Python rollouts draw them from one ``random.Random`` (greedy and random by its 32-bit
words: ``bots.expert._Words``). What comes back is ``continue_round``'s ``Outcome``, or
None where it raises ``Inconsistent``; ``tests/test_jit_continuation.py`` holds the two
to each other. Why: a decision's playouts are some hundreds of rounds, most of the
expert's time on the Python engine. Under house rules the kernel is the house-rule
lines' (one for every house ruleset of at most 62 tiles), its script after the rules'
programs, each playout recorded so its round so far can be held to the one seen
(``jit_continue.seen_lines``); ``Continuations.follows`` says which positions it plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine.continuation import Outcome, Round
from . import jit_continue, jit_house, jit_kernel

if TYPE_CHECKING:
    from ..engine.game import Deal, Game

# what the expert searches by playouts (bots.expert.choose): rules it plays as the
# strategist there, so no playout follows them (the rule, its name)
_UNFOLLOWED = (
    (lambda r: r.declarations or r.showdown is not None, "declarations or a showdown"),
    (lambda r: r.layout is not None, "board.layout"),
    (lambda r: r.several is not None, "play.several"),
    (lambda r: r.turn_up, "deal.turn_up"),
    (lambda r: r.blind, "deal.blind"),
    (lambda r: r.copies > 1, "set.copies"),
    (lambda r: r.play_until != "first_out", "play.until: side_out"),
)


def reason(game: Game, players: int, start_scores: Sequence[int] = ()) -> str | None:
    """Why the JIT cannot play this ruleset's playouts (a sentence), or None
    (the ruleset's part asked once per game and player count: each decision asks)."""
    if start_scores and max(abs(int(s)) for s in start_scores) > jit_kernel.MAX_NUMBER:
        return "start scores beyond 2**40 need the python engine's integers"
    known = game.__dict__.setdefault("_jit_continuation_reasons", {})
    if players not in known:
        known[players] = _ruleset_reason(game, players)
    return known[players]


def _ruleset_reason(game: Game, players: int) -> str | None:
    r = game.rules
    for uses, what in _UNFOLLOWED:
        if uses(r):
            return (f"{r.name}'s {what}: the expert plays as the strategist there, with no "
                    "playouts to run")
    if game.tileset.tile_count > jit_kernel.MAX_TILES:
        return (f"{r.name}'s set of {game.tileset.tile_count} tiles: the JIT plays the "
                f"expert's playouts on sets of at most {jit_kernel.MAX_TILES} tiles")
    return jit_kernel.jit_reason(game, players, "strategist")


class Continuations:
    """One ruleset at one player count and rollout bot: its continuation kernel, ready for
    batches (the bot is data: one compiled kernel plays the three)."""

    def __init__(self, game: Game, players: int, rollout: str = "strategist"):
        import numpy as np

        self.game, self.players = game, players
        self.base = jit_kernel.kernel(game, players)   # its parameters and tables
        self.module = jit_kernel._module(jit_kernel.kernel_source(game, continuation=True))
        self.kinds = np.full(players, jit_kernel.BOT_KINDS[rollout], np.int64)
        self.hand = game.setup(players).hand_size
        self.general = jit_house.plays(game.rules)
        self.programs = self.base.tables[-1].tolist() if self.general else []
        if self.general:   # its playouts recorded to their candidate (jit_continue.seen_lines)
            writer = self.base.record_text
            self.bounds = (writer.log_round, writer.dat_round)
            self.log = np.empty(2 * writer.log_round + 8, np.int64)
            self.dat = np.empty(2 * writer.dat_round + 8, np.int64)

    def follows(self, position: Round) -> bool:
        """Whether these playouts follow ``position`` as ``continue_round`` does: under
        house rules, not a round whose first tile is still to come (the candidate there)
        or one with a draw seen before it (a draw by choice the house-rule opening does not
        replay); the plain game's, any position without variables."""
        if not self.general:
            return not position.values
        for kind, _, _ in position.moves:
            if kind == "place":
                return True
            if kind == "draw":
                return False
        return False

    def deck(self, deal: Deal) -> list[int]:
        """The tiles of ``deal`` in dealing order, as ``GeneralLoop._deal`` lays them out:
        the hands, the boneyard's first tiles, then the rest in index order."""
        index = self.game.tileset.index
        deck = []
        for hand in deal.hands:
            if len(hand) != self.hand:
                raise ValueError(f"a hand of {len(hand)} tiles, not {self.hand}")
            deck.extend(index[t] for t in hand)
        deck.extend(index[t] for t in deal.boneyard)
        seen = set(deck)
        deck.extend(i for i in range(self.game.tileset.tile_count) if i not in seen)
        return deck

    def play(self, position: Round, decks: Sequence[Sequence[int]],
             candidates: Sequence[int], seeds: Sequence[int]) -> list[Outcome | None]:
        """Playout ``i``: deck ``decks[i]``, candidate ``candidates[i]`` (``code_of``), its
        rollouts' stream seeded ``seeds[i]``; its ``Outcome``, or None for a deal that
        cannot have produced the round seen."""
        import numpy as np

        from ..engine.actions import DRAW
        from .jit_template import COUNTED, INDEXES, MATCH_COLUMNS

        n, base, sides = len(decks), self.base, self.base.sides
        if not self.follows(position):
            raise ValueError("a position these playouts do not follow (follows)")
        # the house rules' programs, then the script, then where the script starts
        code = list(self.programs)
        start = len(code)
        code += [position.seat, position.leader, position.number, len(position.moves), n]
        for kind, player, c in position.moves:
            code += [jit_continue.KINDS.get(kind, jit_continue.OTHER), player, c]
        code += [jit_continue.DRAW_CODE if c == DRAW else c for c in candidates]
        for d in decks:
            code += d
        code += position.rounds_won
        values = dict(position.values)   # (set or not, the value) per variable
        for v in self.game.rules.variables if self.general else ():
            code += [1, values[v.name]] if v.name in values else [0, 0]
        code.append(start)
        CODE = np.array(code, np.int64)
        at = INDEXES["M_SCORES"]
        matches = np.zeros((n, max(at + 2 * sides + 1, len(MATCH_COLUMNS) + sides + 1
                                   + len(COUNTED))), np.int64)
        rows = np.empty((n + position.number + 1, base.width), np.int64)
        empty = np.empty(0, np.int64)
        log, dat, bounds = (self.log, self.dat, self.bounds) if self.general else (
            empty, empty, (0, 0))
        with jit_kernel.first_compile(self.module):
            played, _, failed, _, _ = self.module.play_batch(
                np.array(seeds, np.int64), 0, n, position.number,
                np.array(position.start_scores, np.int64), self.kinds, base.Q,
                *base.tables[:-1], CODE, matches, rows, log, dat, *bounds)
        if played != n or failed:
            raise RuntimeError(f"the continuation kernel played {played} of {n} playouts")
        out: list[Outcome | None] = []
        w, capped = INDEXES["M_WINNER"], INDEXES["M_CAPPED"]
        for m in matches.tolist():
            if m[at + 2 * sides]:
                out.append(None)
                continue
            out.append(Outcome(m[at + sides:at + 2 * sides], tuple(m[at:at + sides]),
                               None if m[w] < 0 else m[w], not m[capped]))
        return out


def continuations(game: Game, players: int, rollout: str = "strategist") -> Continuations:
    """The game's continuation kernel for ``players`` and ``rollout`` (made once per game)."""
    made = game.__dict__.setdefault("_jit_continuations", {})
    found = made.get((players, rollout))
    if found is None:
        found = made[players, rollout] = Continuations(game, players, rollout)
    return found
