"""``strategist``: plays as the strategy paragraph of seed 004 advises, from public facts only.

"Set your strongest suit, preferably with a double ... the better control you have
of a suit, the more you should try to leave that suit on the ends ... in a
partnership game, assume that your partner's lead is his strongest suit and play
to it." On top of that it blocks suits opponents are known to lack (a player who
drew or passed at an end value lacks it), sheds heavy tiles when the round may
block, and draws voluntarily (once a turn, rarely: measured, extra pips cost more
than they gain) only when every placement would open a suit the next player, an
opponent, is known to hold (it led it or opened it twice) and the boneyard is large.

No search: each legal action gets a score that is a sum of named terms (the ``W_*``
weights), the best wins and ties go to the seat's RNG. The terms that set the winner
apart from the best lower-scored action are what ``explain`` says, so every choice has
a reason a player can read. It reads only its ``Observation`` (its hand, the line and
the public history), so it has no ``policy`` fast path: simulations call ``choose``.

>>> from dominorules import api
>>> state = api.load_game("house/empty-boneyard").new_match(2, deals=[api.Deal.of(
...     ["6-6 6-5 6-4 6-1 2-2 3-1 0-0", "5-5 4-4 3-3 2-1 5-0 4-0 3-0"], leader=0)])
>>> bot = StrategistBot(0, random.Random(1))
>>> action, why = bot.explain(state.observation(0), state.legal_actions())
>>> why
'6-6: opens your strongest suit, sixes (4 tiles), with its double'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine.actions import Action
from ..engine.board import END_NAMES, Board
from ..engine.observation import Observation
from ..engine.tiles import Tile

SUITS = ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
         "nines", "tens", "elevens", "twelves")

# Weights of the score terms of a placement (units: roughly "one tile of options").
W_OPTIONS = 1.0       # each of my tiles that will fit an end next turn
W_CONTROL = 0.5       # each of my tiles matching an end value (kept suits), per end
W_LOCK = 1.5          # an end value only I still hold (no unseen tile shows it)
W_BLOCK = 3.0         # an end value an opponent is known to lack, per opponent
W_BLOCK_NEXT = 1.0    # extra when that opponent plays next
W_SHUTOUT = 2.0       # an opponent known to lack both new end values
W_PARTNER = 1.5       # an end value in the partner's suit
W_PARTNER_LACKS = 1.5 # penalty: an end value the partner is known to lack
W_OPP_SUIT = 1.0      # penalty: opening a value an opponent is known to hold
W_DOUBLE = 1.0        # a double placed now cannot get stuck later
W_SHED = 0.08         # per point of tile value ...
W_SHED_BLOCK = 0.25   # ... and more per point when the round may block
W_DOMINO = 1000.0     # the last tile: the round is won

# Opening score: the strongest suit first, then its double, then the other half.
O_SUIT, O_DOUBLE, O_OTHER, O_VALUE = 100.0, 50.0, 10.0, 0.01


def suit(v: int) -> str:
    """The plural name of a pip value (``6 -> sixes``)."""
    return SUITS[v] if v < len(SUITS) else f"{v}s"


@dataclass
class Knowledge:
    """What the public history of the current round says about each seat.

    ``lacks``: values a seat drew or passed at (it held no tile showing them then);
    ``passed``: those of them it passed at.
    ``led``: the values of the tile the seat opened with. ``left_open``: how often
    the seat created each end value by a placement.
    """

    players: int
    lacks: list[set[int]] = field(default_factory=list)
    passed: list[set[int]] = field(default_factory=list)
    led: list[set[int]] = field(default_factory=list)
    left_open: list[dict[int, int]] = field(default_factory=list)
    spinner: bool = False        # the ruleset's first double is a spinner
    ends: tuple[int, ...] | None = None
    board: Board | None = None
    events: int = 0              # history events read so far
    last: object = None          # the last event read, to notice a different history

    def reset(self) -> None:
        n = self.players
        self.lacks = [set() for _ in range(n)]
        self.passed = [set() for _ in range(n)]
        self.led = [set() for _ in range(n)]
        self.left_open = [{} for _ in range(n)]
        self.ends = None
        self.board = Board(self.spinner)

    def read(self, history: Sequence) -> None:
        """Read the events not read yet (the history only grows during a match)."""
        if self.events > len(history) or (self.events and history[self.events - 1] != self.last):
            self.events = 0
        if self.events == 0:
            self.reset()
        for e in history[self.events:]:
            kind = e["event"]
            if kind == "deal":
                self.reset()
            elif kind == "place":
                self._place(e["player"], e["tile"], e["end"])
            elif kind in ("draw", "pass") and self.ends is not None:
                self.lacks[e["player"]].update(self.ends)
                if kind == "pass":
                    self.passed[e["player"]].update(self.ends)
        self.events = len(history)
        self.last = history[-1] if history else None

    def _place(self, p: int, tile, end: str | None) -> None:
        a, b = tile
        if end is None:
            self.board.open_with(a, b, a == b)
            self.ends = self.board.ends()
            self.led[p] = {a, b}
            return
        at = END_NAMES.index(end)
        self.board.place(at, a, b, a == b)
        self.ends = self.board.ends()
        new = self.ends[at]
        self.left_open[p][new] = self.left_open[p].get(new, 0) + 1


@dataclass
class Scored:
    """One legal action, its total score and the terms it came from (term -> points)."""

    action: Action
    score: float
    terms: dict[str, float]
    ends: tuple[int, int] | None = None


class StrategistBot:
    """Seed 004's strategy as a scored heuristic; ``explain`` gives the reason in a sentence."""

    name = "strategist"

    def __init__(self, seat: int, rng: random.Random):
        self.seat = seat
        self.rng = rng
        self.known: Knowledge | None = None

    # -- the bot protocol ----------------------------------------------------------------
    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        return self._decide(obs, legal)[0].action

    def explain(self, obs: Observation, legal: Sequence[Action]) -> tuple[Action, str]:
        """The action ``choose`` would take, and why, in one sentence."""
        best, ranked, ctx = self._decide(obs, legal)
        return best.action, _say(best, ranked, ctx)

    # -- deciding ------------------------------------------------------------------------
    def _decide(self, obs: Observation, legal: Sequence[Action]):
        ctx = _Context(obs, self._knowledge(obs))
        places = [a for a in legal if a.kind == "place"]
        others = [a for a in legal if a.kind != "place"]
        if not places:  # draw (seeking, stuck) or pass: the rules leave no choice worth scoring
            only = others[0] if others else Action("pass")
            return Scored(only, 0.0, {}), [], ctx
        if obs.phase == "open" or obs.ends is None:
            ranked = [_score_opening(a, ctx) for a in places]
        else:
            ranked = [_score_place(a, ctx) for a in places]
        ranked.sort(key=lambda s: -s.score)
        top = [s for s in ranked if s.score >= ranked[0].score - 1e-9]
        best = top[int(self.rng.random() * len(top))] if len(top) > 1 else top[0]
        draw = next((a for a in others if a.kind == "draw"), None)
        if draw is not None and obs.phase == "play" and _wants_draw(ranked, ctx):
            return Scored(draw, 0.0, {"draw": 1.0}), ranked, ctx
        return best, ranked, ctx

    def _knowledge(self, obs: Observation) -> Knowledge:
        if self.known is None or self.known.players != obs.players:
            self.known = Knowledge(obs.players, spinner=obs.rules.spinner == "first_double")
        self.known.read(obs.history)
        return self.known


class _Context:
    """The facts one decision needs, computed once from the Observation and Knowledge."""

    def __init__(self, obs: Observation, known: Knowledge):
        self.obs = obs
        self.known = known
        me = obs.seat
        n = obs.players
        mine = next(t for t in obs.teams if me in t)
        self.partners = [s for s in mine if s != me]
        self.opponents = [s for s in range(n) if s not in mine]
        self.next_seat = (me + 1) % n
        top = obs.rules.max_pip
        self.count = [0] * (top + 1)            # my tiles showing each value
        for t in obs.hand:
            self.count[t.low] += 1
            if t.high != t.low:
                self.count[t.high] += 1
        self.unseen = [top + 1 - c for c in self.count]   # tiles showing v not in my hand
        for a, b in obs.line + obs.arms[0] + obs.arms[1]:
            self.unseen[a] -= 1
            if b != a:
                self.unseen[b] -= 1
        self.partner_suits = set()
        for p in self.partners:
            self.partner_suits |= known.led[p] | set(known.left_open[p])
            self.partner_suits -= known.lacks[p]
        self.opp_suits = set()   # values an opponent led, or opened at least twice
        for o in self.opponents:
            self.opp_suits |= known.led[o] | {v for v, k in known.left_open[o].items() if k >= 2}
            self.opp_suits -= known.lacks[o]
        nxt = self.next_seat
        self.next_suits = set()   # what the next player holds, when an opponent: for draws
        if nxt in self.opponents:
            self.next_suits = (known.led[nxt] | {v for v, k in known.left_open[nxt].items()
                                                 if k >= 2}) - known.lacks[nxt]
        # the round may block when no more tiles can come into play from the boneyard
        self.block_risk = 1.0 if obs.drawable == 0 else (0.5 if obs.drawable <= n else 0.0)


def _score_opening(action: Action, ctx: _Context) -> Scored:
    t = action.tile
    c = ctx.count
    strong, other = (t.high, t.low) if c[t.high] >= c[t.low] else (t.low, t.high)
    terms = {"suit": O_SUIT * c[strong],
             "double": O_DOUBLE if t.is_double else 0.0,
             "other": 0.0 if t.is_double else O_OTHER * c[other],
             "value": O_VALUE * ctx.obs.tile_values[t]}
    return Scored(action, sum(terms.values()), terms, (strong, other))


def _score_place(action: Action, ctx: _Context) -> Scored:
    obs, known = ctx.obs, ctx.known
    t = action.tile
    placed = list(obs.ends)
    at = END_NAMES.index(action.end)
    placed[at] = t.pips - placed[at]
    ends = tuple(placed)
    rest = [u for u in obs.hand if u != t]
    terms: dict[str, float] = {}
    if not rest:
        terms["domino"] = W_DOMINO
        return Scored(action, W_DOMINO, terms, ends)
    count = list(ctx.count)
    count[t.low] -= 1
    if t.high != t.low:
        count[t.high] -= 1
    values = set(ends)
    terms["options"] = W_OPTIONS * sum(1 for u in rest if u.low in values or u.high in values)
    terms["control"] = W_CONTROL * sum(count[v] for v in ends)
    terms["lock"] = W_LOCK * sum(1 for v in values if count[v] and ctx.unseen[v] == 0)
    block = 0.0
    for o in ctx.opponents:
        lacked = values & known.lacks[o]
        if lacked:
            block += (W_BLOCK + (W_BLOCK_NEXT if o == ctx.next_seat else 0.0)) * len(lacked)
            if lacked == values:
                block += W_SHUTOUT
    terms["block"] = block
    if ctx.partners:
        partner_lacks = set().union(*(known.lacks[p] for p in ctx.partners))
        terms["partner"] = W_PARTNER * len(values & ctx.partner_suits)
        terms["partner_lacks"] = -W_PARTNER_LACKS * len(values & partner_lacks)
    terms["opp_suit"] = -W_OPP_SUIT * len(values & ctx.opp_suits)
    terms["double"] = W_DOUBLE if t.is_double else 0.0
    terms["shed"] = (W_SHED + W_SHED_BLOCK * ctx.block_risk) * obs.tile_values[t]
    return Scored(action, sum(terms.values()), terms, ends)


def _wants_draw(ranked: list[Scored], ctx: _Context) -> bool:
    """Draw (once a turn) only when every placement would open a suit the next player,
    an opponent, is known to hold, none leaves a tile to follow with or blocks anyone,
    the hand is small and the boneyard still large (two tiles a player). Measured: any
    looser and the extra pips cost more than the denied suit gains."""
    obs = ctx.obs
    if (obs.drawn_this_turn or obs.drawable < 2 * obs.players or len(obs.hand) > 5
            or not ctx.next_suits):
        return False
    for s in ranked:
        if "domino" in s.terms or s.terms.get("options", 0.0) or s.terms.get("block", 0.0):
            return False
        if s.ends[END_NAMES.index(s.action.end)] not in ctx.next_suits:
            return False
    return True


# -- explanations ------------------------------------------------------------------------
def _say(best: Scored, ranked: list[Scored], ctx: _Context) -> str:
    obs = ctx.obs
    a = best.action
    if a.kind == "pass":
        return "pass: no tile fits and no draw is allowed"
    if a.kind == "draw":
        if not ranked:
            if obs.phase == "seek":
                return "draw: the opening tile is in no hand yet, so you draw in turn for it"
            return "draw: no tile fits an end, so you must draw"
        opened = {s.ends[END_NAMES.index(s.action.end)] for s in ranked}
        suits = " or ".join(suit(v) for v in sorted(opened))
        return (f"draw: every placement would open {suits}, which seat {ctx.next_seat} "
                f"(next to play) is known to hold, and {obs.drawable} tiles may still be drawn")
    head = str(a)
    if obs.phase == "open" or obs.ends is None:
        return f"{head}: " + _say_opening(best, ranked, ctx)
    if "domino" in best.terms:
        return f"{head}: your last tile, the round is yours"
    if len(ranked) == 1:
        return f"{head}: the only placement"
    # the reason is what sets it above the best lower-scored action (equal ones are ties)
    runner = next((s for s in ranked if s.score < best.score - 1e-9), None)
    reasons = _reasons(best, runner, ctx)
    return f"{head}: " + "; ".join(reasons[:2])


def _say_opening(best: Scored, ranked: list[Scored], ctx: _Context) -> str:
    t = best.action.tile
    if len(ranked) == 1:
        return "the only tile that may open"
    strong, _ = best.ends
    text = f"opens your strongest suit, {suit(strong)} ({_tiles(ctx.count[strong])})"
    if t.is_double:
        return text + ", with its double"
    return text


def _reasons(best: Scored, runner: Scored | None, ctx: _Context) -> list[str]:
    """Phrases for the terms that most set ``best`` apart from the runner-up, best first."""
    gains = []
    for term, value in best.terms.items():
        edge = value - (runner.terms.get(term, 0.0) if runner else 0.0)
        if edge > 1e-9 and value > 0:
            gains.append((edge, term))
    gains.sort(key=lambda g: -g[0])
    # the main reason, and a second one only when it weighs as much as a tile
    gains = gains[:1] + [g for g in gains[1:2] if g[0] >= 1.0]
    phrases = [_phrase(term, best, ctx) for _, term in gains]
    return phrases or ["as good as any other placement"]


def _phrase(term: str, s: Scored, ctx: _Context) -> str:
    obs, known = ctx.obs, ctx.known
    values = sorted(set(s.ends))
    if term == "block":
        groups: dict[tuple, list[int]] = {}   # (seats, how) -> values they lack
        for v in values:
            seats = tuple(o for o in ctx.opponents if v in known.lacks[o])
            if seats:
                kinds = {"passed" if v in known.passed[o] else "drew" for o in seats}
                groups.setdefault((seats, " or ".join(sorted(kinds, reverse=True))), []).append(v)
        parts = []
        for (seats, how), vs in groups.items():
            named = " and ".join(suit(v) for v in vs)
            who = (f"seat {seats[0]} lacks (it {how}" if len(seats) == 1 else
                   f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]} lack (they {how}")
            parts.append(f"leaves {named} open, which {who} on {named})")
        return "; ".join(parts)
    if term == "partner":
        shared = sorted(set(values) & ctx.partner_suits)
        return f"plays to your partner's suit, {' and '.join(suit(v) for v in shared)}"
    if term == "lock":
        mine = [v for v in values if ctx.unseen[v] == 0]
        return f"leaves {' and '.join(suit(v) for v in mine)} open, which only you still hold"
    if term == "options":
        n = round(s.terms["options"] / W_OPTIONS)
        return f"leaves you {_tiles(n)} that fit{'s' * (n == 1)} next turn"
    if term == "control":
        best_v = max(values, key=lambda v: _left_count(s, v, ctx))
        n = _left_count(s, best_v, ctx)
        return f"keeps {suit(best_v)}, a suit you hold ({_tiles(n)}), on an end"
    if term == "double":
        return "places a double while it still fits"
    if term == "shed":
        value = obs.tile_values[s.action.tile]
        when = " while the round may block" if ctx.block_risk else ""
        return f"sheds {value} points{when}"
    return term


def _left_count(s: Scored, v: int, ctx: _Context) -> int:
    t: Tile = s.action.tile
    return ctx.count[v] - (1 if v in (t.low, t.high) else 0)


def _tiles(n: int) -> str:
    return "1 tile" if n == 1 else f"{n} tiles"
