"""``strategist``: plays as the strategy paragraph of seed 004 advises, from public facts only.

"Set your strongest suit, preferably with a double ... the better control you have
of a suit, the more you should try to leave that suit on the ends ... in a
partnership game, assume that your partner's lead is his strongest suit and play
to it." On top of that it blocks suits opponents are known to lack (a player who
drew or passed at an end value lacks it), sheds heavy tiles when the round may
block, and draws voluntarily (once a turn, rarely: measured, extra pips cost more
than they gain) only when every placement would open a suit the next player, an
opponent, is known to hold (it led it or opened it twice) and the boneyard is large.

The same model reads the rules it plays: under a fit rule (``matching``) a suit is the
tiles that may meet an end showing a number, each way of a tile is weighed on what it
leaves, and the value shed weighs more (``strategy.FIT_SHED``); with two sets
(``set.copies``) both copies count, in the hand and in what the others may hold; with
hidden rows (``deal.blind``) its one choice, the front tile's end, is weighed by the tiles
passes have shown (``_blind``).

No search: each legal action gets a score that is a sum of named terms (the ``W_*``
weights), the best wins and ties go to the seat's RNG. The terms that set the winner
apart from the best lower-scored action are what ``explain`` says, so every choice has
a reason a player can read. It reads only what its ``Observation`` holds (its hand,
the line and the public history), so it has no ``policy`` fast path; simulations ask
``decider`` (``bots.strategist_fast``), the same scores computed straight from the
engine's masks and the public record, bound to the match as a policy reading its seat's
``SeatView`` (its own hand and the record, never the loop; forced
moves never asked, lone placements unscored, no Observation, Action or ``Scored``).
This module is the reference: tests play both paths and compare the records, and
pin a few hundred seeded matches' records.

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
from collections.abc import Callable, Sequence
from operator import attrgetter

from ..engine.actions import DRAW, FLIP, PASS, Action
from ..engine.board import END_NAMES
from ..engine.mechanisms.layout import Layout
from ..engine.mechanisms.matching import fit_tables, fits, left_open
from ..engine.observation import Observation
from .base import declaring
from .strategist_fast import Decider
from .strategy import (
    O_DOUBLE,
    O_OTHER,
    O_SUIT,
    O_VALUE,
    W_CONTROL,
    W_DOMINO,
    W_DOUBLE,
    W_LOCK,
    W_OPP_SUIT,
    W_OPTIONS,
    W_PARTNER,
    W_PARTNER_LACKS,
    W_SHED,
    W_SHED_BLOCK,
    W_SHUTOUT,
    Knowledge,
    _Seat,
    _Tables,
    shown_rows,
    suit,
    weigh_blind,
)

OPEN_TERMS = ("suit", "double", "other", "value")
PLACE_TERMS = ("options", "control", "lock", "block", "opp_suit", "double", "shed")
PARTNER_TERMS = ("options", "control", "lock", "block", "partner", "partner_lacks", "opp_suit",
                 "double", "shed")
DOMINO_TERMS = ("domino",)
# a move on a board.layout board, weighed by the board it leaves (``_weigh_shaped``)
SHAPED = ("shed", "playable", "closes", "unanswered")
W_PLAYABLE = 0.5    # each tile of the hand left with an end to go on after the move
W_CLOSES = 10       # the move closes the seat's own train again (its marker comes up)
W_UNANSWERED = -10  # the move leaves a double the seat cannot answer (a draw, a marker)
# a move under play.several on a line, weighed by the ends it leaves (``_weigh_line``)
SEVERAL = ("shed", "playable", "domino")
# the end for a hidden row's front tile (deal.blind), weighed by the tiles shown (``_blind``)
BLIND = ("own", "partners", "opponents")
FRONT = ("front",)   # its only placement: nothing to weigh


class Scored:
    """One legal action (``code``: tile index << 2 | end, 2 = the opening), its total score
    and the terms it came from; ``terms`` (term -> points) is built only when asked for."""

    __slots__ = ("code", "score", "values", "names", "ends", "action")

    def __init__(self, code: int, score: float, values: tuple = (), names: tuple = (),
                 ends: tuple[int, ...] | None = None, action: Action | None = None):
        self.code = code
        self.score = score
        self.values = values
        self.names = names
        self.ends = ends
        self.action = action

    @property
    def terms(self) -> dict[str, float]:
        return dict(zip(self.names, self.values, strict=True))


class StrategistBot:
    """Seed 004's strategy as a scored heuristic; ``explain`` gives the reason in a sentence.

    ``choose`` reads an Observation; simulations use ``decider``, the same decision
    read straight from the engine's decision and the public record (see ``decider``).
    """

    name = "strategist"

    def __init__(self, seat: int, rng: random.Random):
        self.seat = seat
        self.rng = rng
        self.known: Knowledge | None = None
        self._tables: _Tables | None = None

    # -- the bot protocol ----------------------------------------------------------------
    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        declared = declaring(obs, legal)
        if declared is not None:   # a declaration: the fixed policy
            return declared[0]
        return self._decide(obs, legal)[0].action

    def explain(self, obs: Observation, legal: Sequence[Action]) -> tuple[Action, str]:
        """The action ``choose`` would take, and why, in one sentence."""
        declared = declaring(obs, legal)
        if declared is not None:
            return declared
        best, ranked, ctx = self._decide(obs, legal)
        return best.action, _say(best, ranked, ctx, obs)

    def decider(self, game, players: int,
                shared: dict | None = None) -> Callable[[tuple, Sequence], int]:
        """The same choice as ``choose``, as ``decide(decision, record) -> action code``
        over the engine's ``Decision`` (``engine.decision``) and the match record so
        far, or bound to the match as a policy (``decide.bind(view)``, the seat's
        ``engine.observation.SeatView``).

        It reads what the Observation holds: its own hand, the open ends, the boneyard
        count and the public part of the record (who drew, never what). Forced moves
        (only a draw or only a pass) are answered without scoring anything, and no
        Observation or Action is built: this is what makes simulations with strategists
        fast (``bots.strategist_fast``). Tests play rulesets both ways and compare the
        records.
        """
        return Decider(self.rng, game, players, self.seat, shared)

    # -- deciding ------------------------------------------------------------------------
    def _decide(self, obs: Observation, legal: Sequence[Action]):
        if obs.rules.blind and any(a.kind == "place" for a in legal):
            return self._blind(obs, legal), [], None
        if obs.rules.layout is not None and any(a.kind in ("place", "several") for a in legal):
            return self._shaped(obs, legal), [], None
        if (obs.rules.several is not None and obs.ends is not None and obs.phase == "play"
                and any(a.kind in ("place", "several") for a in legal)):
            return self._several(obs, legal), [], None
        places = [a for a in legal if a.kind == "place"]
        others = [a for a in legal if a.kind != "place"]
        if not places:  # draw (seeking, stuck) or pass: the rules leave no choice worth scoring
            only = others[0] if others else Action("pass")
            return Scored(DRAW if only.kind == "draw" else PASS, 0.0, action=only), [], None
        tables = self._tables
        if tables is None or tables.values_source is not obs.tile_values:
            tables = self._tables = _tables_of(obs)
        known = self._knowledge(obs.players, obs.rules, obs.history)
        index = tables.index
        hand = 0
        for t in obs.hand:   # a tile held twice (set.copies): both copies, side by side
            i = index[t]
            hand |= 1 << (i + 1 if hand >> i & 1 else i)
        opening = obs.phase == "open" or obs.ends is None
        actions = {}
        for a in places:
            code = index[a.tile] << 2 | (2 if opening else END_NAMES.index(a.end))
            if a.meets is not None and a.meets != a.tile.low:   # a fit rule's second way
                code |= FLIP
            actions[code] = a
        ctx = _Context(_Seat(obs.seat, obs.players, obs.teams), hand, known, obs.drawable,
                       obs.drawn_this_turn, obs.phase == "play", opening, obs.ends, tables)
        draw = next((a for a in others if a.kind == "draw"), None)
        best, ranked = self._rank(ctx, list(actions), draw is not None)
        for s in ranked:
            s.action = actions[s.code]
        if best.code == DRAW:
            best.action = draw
        return best, ranked, ctx

    def _shaped(self, obs: Observation, legal: Sequence[Action]) -> Scored:
        """On a ``board.layout`` board, whose ends its model of a line and a spinner cannot
        follow, the strategist weighs each move (a tile, or a run: play.several) by the
        board it leaves, as the layout mechanism lays it (``_weigh_shaped``); ties go to
        the seat's RNG (``SHAPED``)."""
        places = [a for a in legal if a.kind in ("place", "several")]
        start = 0
        for i, e in enumerate(obs.history):   # this round's public events
            if e.get("event") == "deal":
                start = i
        board = Layout.replay(obs.rules.layout, obs.players, list(obs.history[start:]))
        weighed = [_weigh_shaped(obs, board, a) for a in places]
        best = max(w.score for w in weighed)
        ties = [w for w in weighed if w.score == best]
        return ties[int(self.rng.random() * len(ties))] if len(ties) > 1 else ties[0]

    def _several(self, obs: Observation, legal: Sequence[Action]) -> Scored:
        """Under ``play.several`` on a line (moves of several tiles, beyond its model of one
        tile a turn; the opening is scored as ever) the strategist weighs each move, one
        tile or several, by the ends it leaves (``_weigh_line``); ties go to the seat's
        RNG (``SEVERAL``)."""
        places = [a for a in legal if a.kind in ("place", "several")]
        weighed = [_weigh_line(obs, a) for a in places]
        best = max(w.score for w in weighed)
        ties = [w for w in weighed if w.score == best]
        return ties[int(self.rng.random() * len(ties))] if len(ties) > 1 else ties[0]

    def _blind(self, obs: Observation, legal: Sequence[Action]) -> Scored:
        """Hidden hands (``deal.blind``): the seat cannot see its row, and the rules leave
        it one choice, the end for its front tile when that fits more than one (the
        opening and every other turn are forced). It weighs each end by the tiles the
        record has shown (``strategy.weigh_blind``), ties to the seat's RNG (``BLIND``)."""
        places = [a for a in legal if a.kind == "place"]
        if obs.ends is None or len(places) == 1:   # the front tile, and one way to lay it
            return Scored(0, 0.0, names=FRONT, action=places[0])
        shown = shown_rows(obs.history, obs.players)
        rule = obs.rules.fit
        where = _Seat(obs.seat, obs.players, obs.teams)
        weighed = []
        for a in places:
            ends = list(obs.ends)
            e = END_NAMES.index(a.end)
            ends[e] = left_open((a.tile.low, a.tile.high), ends[e], rule, a.meets)
            score, terms = weigh_blind(ends, shown, where, rule)
            weighed.append(Scored(0, float(score), terms, BLIND, action=a))
        best = max(w.score for w in weighed)
        ties = [w for w in weighed if w.score == best]
        return ties[int(self.rng.random() * len(ties))] if len(ties) > 1 else ties[0]

    def _rank(self, ctx: _Context, codes: list[int], can_draw: bool):
        """(the best Scored, every placement Scored best first) -- one RNG call on a tie."""
        score = _score_opening if ctx.opening else _score_place
        ranked = [score(code, ctx) for code in codes]
        ranked.sort(key=_SCORE, reverse=True)   # stable: ties keep the legal order
        top = [s for s in ranked if s.score >= ranked[0].score - 1e-9]
        best = top[int(self.rng.random() * len(top))] if len(top) > 1 else top[0]
        if can_draw and ctx.playing and not ctx.opening and _wants_draw(ranked, ctx):
            return Scored(DRAW, 0.0, (1.0,), ("draw",)), ranked
        return best, ranked

    def _knowledge(self, players: int, rules, history: Sequence) -> Knowledge:
        if self.known is None or self.known.players != players:
            self.known = Knowledge(players, rules.max_pip,
                                   spinner=rules.spinner == "first_double", fit=rules.fit)
        self.known.read(history)
        return self.known


_SCORE = attrgetter("score")


def _tables_of(obs: Observation) -> _Tables:
    """The tables over the set in tile index order: the Observation's values list each
    tile once, so a tile of two sets (``set.copies``) is listed twice, side by side, as
    the engine lists it; a fit rule's tables come from ``matching.fit_tables``."""
    copies = obs.rules.copies
    tiles = [t for t in obs.tile_values for _ in range(copies)]
    fit = None
    if obs.rules.fit is not None:
        fit = fit_tables([(t.low, t.high) for t in tiles], obs.rules.fit)
    return _Tables(tuple(tiles), obs.rules.max_pip, tuple(obs.tile_values[t] for t in tiles),
                   obs.tile_values, fit)


class _Context:
    """The facts one decision needs, computed once from the seat's view and Knowledge."""

    __slots__ = ("known", "hand", "tiles_in_hand", "ends", "playing", "opening", "drawable",
                 "drawn_this_turn", "players", "tables", "partners", "opponents",
                 "next_seat", "count", "unseen", "partner_suits", "partner_lacks",
                 "opp_suits", "blocking", "block_risk")

    def __init__(self, seat: _Seat, hand: int, known: Knowledge, drawable: int,
                 drawn_this_turn: int, playing: bool, opening: bool,
                 ends: tuple[int, ...] | None, tables: _Tables):
        self.known = known
        self.hand = hand                                # a bitmask of tile indices
        self.tiles_in_hand = hand.bit_count()
        self.ends = ends
        self.playing = playing
        self.opening = opening
        self.drawable = drawable
        self.drawn_this_turn = drawn_this_turn
        self.players = n = seat.players
        self.tables = tables
        self.partners = seat.partners
        self.opponents = seat.opponents
        self.next_seat = seat.next_seat
        # my tiles showing each value, and the tiles showing it neither mine nor placed
        self.count = count = [(hand & m).bit_count() for m in tables.value_mask]
        self.unseen = [size - c - p for size, c, p in zip(tables.suit_size, count, known.placed,
                                                          strict=True)]
        lacks, led = known.lacks, known.led
        if seat.partners:
            suits = 0
            partner_lacks = 0
            for p in seat.partners:
                suits = (suits | led[p] | known.opened[p]) & ~lacks[p]
                partner_lacks |= lacks[p]
            self.partner_suits = suits
            self.partner_lacks = partner_lacks    # values the partners are known to lack
        opp = 0   # values an opponent led, or opened at least twice
        twice = known.opened_twice
        for o in seat.opponents:
            opp = (opp | led[o] | twice[o]) & ~lacks[o]
        self.opp_suits = opp
        self.blocking = [(lacks[o], w) for o, w in seat.blocking]
        # the round may block when no more tiles can come into play from the boneyard
        self.block_risk = 1.0 if drawable == 0 else (0.5 if drawable <= n else 0.0)

    @property
    def next_suits(self) -> int:
        """What the next player holds, when an opponent (for draws; a value bitmask):
        read only when a voluntary draw is in question."""
        known, nxt = self.known, self.next_seat
        if nxt not in self.opponents:
            return 0
        return (known.led[nxt] | known.opened_twice[nxt]) & ~known.lacks[nxt]


def _score_opening(code: int, ctx: _Context) -> Scored:
    tables = ctx.tables
    t = code >> 2
    if tables.leave is not None:   # a fit rule: the heaviest tile (``strategy.FIT_SHED``)
        values = (0.0, 0.0, 0.0, O_VALUE * tables.values[t])
        return Scored(code, sum(values), values, OPEN_TERMS, (tables.high[t], tables.low[t]))
    low, high = tables.low[t], tables.high[t]
    c = ctx.count
    strong, other = (high, low) if c[high] >= c[low] else (low, high)
    double = low == high
    values = (O_SUIT * c[strong], O_DOUBLE if double else 0.0,
              0.0 if double else O_OTHER * c[other], O_VALUE * tables.values[t])
    return Scored(code, sum(values), values, OPEN_TERMS, (strong, other))


def _score_place(code: int, ctx: _Context) -> Scored:
    tables = ctx.tables
    t = (code & ~FLIP) >> 2
    lo, hi = tables.low[t], tables.high[t]
    placed = list(ctx.ends)
    at = code & 3
    if tables.leave is None:
        placed[at] = tables.pips[t] - placed[at]
    else:   # a fit rule: what this way of the tile leaves open (``matching``)
        placed[at] = tables.leave[code >> 24 & 1][placed[at]][t]
    ends = tuple(placed)
    if ctx.tiles_in_hand == 1:
        return Scored(code, W_DOMINO, (W_DOMINO,), DOMINO_TERMS, ends)
    count = ctx.count
    value_mask = tables.value_mask
    unseen = ctx.unseen
    fits = values = locked = kept = 0
    for v in ends:
        # my tiles left showing the end values (the placed tile no longer counts); under a
        # fit rule, those that may meet them
        mine = count[v] - (value_mask[v] >> t & 1)
        kept += mine
        bit = 1 << v
        if not values & bit:
            values |= bit
            fits |= value_mask[v]
            # an end value only I still hold: mine after this tile, none unseen
            if mine and not unseen[v]:
                locked += 1
    # my other tiles that fit an end next turn
    options = W_OPTIONS * (ctx.hand & ~(1 << t) & fits).bit_count()
    control = W_CONTROL * kept
    lock = W_LOCK * locked
    block = 0.0
    for lacks, weight in ctx.blocking:
        lacked = values & lacks
        if lacked:
            block += weight * lacked.bit_count()
            if lacked == values:
                block += W_SHUTOUT
    opp_suit = -W_OPP_SUIT * (values & ctx.opp_suits).bit_count()
    double = W_DOUBLE if lo == hi else 0.0
    shed = (W_SHED + W_SHED_BLOCK * ctx.block_risk) * tables.shed_scale * tables.values[t]
    if ctx.partners:
        terms = (options, control, lock, block,
                 W_PARTNER * (values & ctx.partner_suits).bit_count(),
                 -W_PARTNER_LACKS * (values & ctx.partner_lacks).bit_count(), opp_suit,
                 double, shed)
        return Scored(code, sum(terms), terms, PARTNER_TERMS, ends)
    terms = (options, control, lock, block, opp_suit, double, shed)
    return Scored(code, sum(terms), terms, PLACE_TERMS, ends)


def _wants_draw(ranked: list[Scored], ctx: _Context) -> bool:
    """Draw (once a turn) only when every placement would open a suit the next player,
    an opponent, is known to hold, none leaves a tile to follow with or blocks anyone,
    the hand is small and the boneyard still large (two tiles a player). Measured: any
    looser and the extra pips cost more than the denied suit gains."""
    if ctx.drawn_this_turn or ctx.drawable < 2 * ctx.players or ctx.tiles_in_hand > 5:
        return False
    next_suits = ctx.next_suits
    if not next_suits:
        return False
    for s in ranked:
        if s.names is DOMINO_TERMS or s.values[0] or s.values[3]:   # options, block
            return False
        if not next_suits >> s.ends[s.code & 3] & 1:
            return False
    return True


# -- explanations ------------------------------------------------------------------------
def _say(best: Scored, ranked: list[Scored], ctx: _Context | None, obs: Observation) -> str:
    a = best.action
    if a.kind == "pass":
        if obs.rules.blind:
            return "pass: your front tile fits no end; it goes to the back of your row"
        return "pass: no tile fits and no draw is allowed"
    if a.kind == "draw":
        if not ranked:
            if obs.phase == "seek":
                return "draw: the opening tile is in no hand yet, so you draw in turn for it"
            return "draw: no tile fits an end, so you must draw"
        opened = {s.ends[s.code & 3] for s in ranked}
        suits = " or ".join(suit(v) for v in sorted(opened))
        return (f"draw: every placement would open {suits}, which seat {ctx.next_seat} "
                f"(next to play) is known to hold, and {obs.drawable} tiles may still be drawn")
    head = str(a)
    if best.names is FRONT:
        return f"{head}: your row's front tile, the only tile you may lay (deal.blind)"
    if best.names is BLIND:
        own, partners, opponents = best.values
        return (f"{head}: your row is hidden even from you (deal.blind), so the end is your "
                f"only choice; the ends it leaves fit {_tiles(own)} your passes showed, "
                f"{_tiles(partners)} of your partners' and {_tiles(opponents)} of your "
                "opponents' (shown tiles come to the front again)")
    if best.names is SEVERAL:
        shed_value, playable, domino = best.values
        if domino:
            return f"{head}: lays your last tiles, the round is yours"
        return (f"{head}: sheds {shed_value}, leaves {playable} of your tiles an end to go on "
                "(each move, several tiles too, weighed on the ends it leaves: play.several)")
    if best.names is SHAPED:
        shed_value, playable, closes, unanswered = best.values
        said = [f"sheds {shed_value}", f"leaves {playable} of your tiles an end to go on"]
        if closes:
            said.append("closes your train again (your marker comes up)")
        if unanswered:
            said.append("but leaves a double you cannot answer")
        return (f"{head}: " + ", ".join(said)
                + " (each move weighed on the board.layout board it leaves)")
    if obs.phase == "open" or obs.ends is None:
        return f"{head}: " + _say_opening(best, ranked, ctx)
    if best.names is DOMINO_TERMS:
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
    if ctx.tables.leave is not None:
        return ("your heaviest tile: under a fit rule rounds mostly block, and what a hand "
                "holds then decides")
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
    known = ctx.known
    values = sorted(set(s.ends))
    if term == "block":
        groups: dict[tuple, list[int]] = {}   # (seats, how) -> values they lack
        for v in values:
            seats = tuple(o for o in ctx.opponents if known.lacks[o] >> v & 1)
            if seats:
                kinds = {"passed" if known.passed[o] >> v & 1 else "drew" for o in seats}
                groups.setdefault((seats, " or ".join(sorted(kinds, reverse=True))), []).append(v)
        parts = []
        for (seats, how), vs in groups.items():
            named = " and ".join(suit(v) for v in vs)
            who = (f"seat {seats[0]} lacks (it {how}" if len(seats) == 1 else
                   f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]} lack (they {how}")
            parts.append(f"leaves {named} open, which {who} on {named})")
        return "; ".join(parts)
    if term == "partner":
        shared = [v for v in values if ctx.partner_suits >> v & 1]
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
        if ctx.tables.leave is not None:   # a fit rule: a "suit" is the tiles meeting a value
            return f"keeps a {best_v} on an end, which {n} of your tiles meet{'s' * (n == 1)}"
        return f"keeps {suit(best_v)}, a suit you hold ({_tiles(n)}), on an end"
    if term == "double":
        return "places a double while it still fits"
    if term == "shed":
        value = ctx.tables.values[(s.code & ~FLIP) >> 2]
        when = " while the round may block" if ctx.block_risk else ""
        return f"sheds {value} points{when}"
    return term


def _left_count(s: Scored, v: int, ctx: _Context) -> int:
    t = (s.code & ~FLIP) >> 2
    return ctx.count[v] - (ctx.tables.value_mask[v] >> t & 1)


def _tiles(n: int) -> str:
    return "1 tile" if n == 1 else f"{n} tiles"


def _weigh_line(obs: Observation, action: Action) -> Scored:
    """A move on the line under ``play.several`` (one tile or several), scored on the ends
    it leaves (each part's end then shows the part's other half, or what a fit rule leaves:
    ``matching``; a spinner's arms that the move would open are left out): the value it
    sheds, ``W_PLAYABLE`` for each tile left in hand that then fits an end, ``W_DOMINO``
    when it lays the hand's last tile. Why: a move of two tiles sheds twice, but the ends
    it leaves decide the next turn, and a stuck hand draws; the same weights as on a
    shaped board (``_weigh_shaped``)."""
    parts = action.parts if action.kind == "several" else (action,)
    ends = list(obs.ends)
    rule = obs.rules.fit   # a fit rule: what each part leaves and what meets an end
    for p in parts:
        e = END_NAMES.index(p.end)
        ends[e] = left_open((p.tile.low, p.tile.high), ends[e], rule, p.meets)
    laid = [p.tile for p in parts]
    rest = list(obs.hand)
    for t in laid:
        rest.remove(t)
    showing = set(ends)
    playable = sum(1 for t in rest if any(fits((t.low, t.high), v, rule) for v in showing))
    shed_value = sum(obs.tile_values[t] for t in laid)
    domino = 0 if rest else 1
    score = shed_value + W_PLAYABLE * playable + W_DOMINO * domino
    return Scored(0, float(score), values=(shed_value, playable, domino), names=SEVERAL,
                  action=action)


def _weigh_shaped(obs: Observation, board: Layout, action: Action) -> Scored:
    """A move on a shaped board, scored on the board it leaves (a copy of ``board`` with
    its tiles laid by ``Layout.place``): the value it sheds, ``W_PLAYABLE`` for each tile
    left in hand that then has an end open to the seat, ``W_CLOSES`` when it closes the
    seat's marked train, ``W_UNANSWERED`` when it leaves a double the rest of the hand
    cannot cover. Why: on trains the tiles kept playable and one's own train kept shut
    are what lose the fewest points; a double left bare costs a draw and the marker."""
    seat, parts = obs.seat, (action.parts if action.kind == "several" else (action,))
    after = board.copy()
    for p in parts:
        after.place((p.tile.low, p.tile.high), p.end, seat=seat)
    rest = list(obs.hand)
    for p in parts:   # one copy each (set.copies: the other stays in hand)
        rest.remove(p.tile)
    playable = sum(1 for t in rest if after.ends_fitting((t.low, t.high), seat))
    closes = int(seat in board.marked and seat not in after.marked)
    unanswered = int(bool(after.answer) and bool(rest) and not any(
        fits((t.low, t.high), after.ends[after.answer[0]].value, obs.rules.fit)
        for t in rest))
    shed_value = sum(obs.tile_values[p.tile] for p in parts)
    score = (shed_value + W_PLAYABLE * playable + W_CLOSES * closes
             + W_UNANSWERED * unanswered)
    return Scored(0, float(score), values=(shed_value, playable, closes, unanswered),
                  names=SHAPED, action=action)
