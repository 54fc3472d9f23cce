"""The strategist's simulation path: the same choice as ``StrategistBot.choose``, made fast.

``choose`` and ``explain`` (``bots.strategist``) score every legal action into a ``Scored``
with its named terms, which is what a reason is built from. A simulation only needs the
winner, so this module computes the same scores straight from the loop's masks: no
Observation, no ``Action``, no ``Scored``, no context object, no sort. ``Decider`` is
what ``StrategistBot.decider`` returns; ``api.play_match`` binds it to the match loop as
a policy, which the loop never asks about a forced move. On a board without a spinner
(``_line_policies``) the strategists of a match share one reader of the record, inline
in their policies, and score a placement from what changes at its end; with a spinner
they read through ``Knowledge`` and rank every placement (``make_decider``).

The scores must be the reference's to the last bit (a float summed another way may
break a tie another way). Every term but ``shed`` is a whole number of half points, so
their sum is exact in any order: here it is an int of half points, then ``shed`` is
added, as the reference adds it last. The records of a few hundred seeded matches are
pinned, and tests play both paths and compare (``tests/test_strategist_pinned.py``).
"""
from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence

from ..engine.actions import DRAW, FLIP, PASS
from ..engine.decision import DECLARE, OPEN, SEEK, Decision
from ..engine.observation import SeatView
from .strategy import (
    O_DOUBLE,
    O_OTHER,
    O_SUIT,
    W_CONTROL,
    W_DOUBLE,
    W_LOCK,
    W_OPP_SUIT,
    W_OPTIONS,
    W_PARTNER,
    W_PARTNER_LACKS,
    W_SHUTOUT,
    Knowledge,
    _Seat,
    _Tables,
    shown_rows,
    weigh_blind,
)


def _halves(weight: float) -> int:
    """A weight in half points: the terms before ``shed`` are sums of these, so they add up
    exactly in any order, as ints (``tests/test_strategist_pinned.py`` checks the weights)."""
    return round(2 * weight)


OPTIONS2, CONTROL2, LOCK2, SHUTOUT2 = map(_halves, (W_OPTIONS, W_CONTROL, W_LOCK, W_SHUTOUT))
PARTNER2, PARTNER_LACKS2, OPP_SUIT2, DOUBLE2 = map(_halves, (W_PARTNER, W_PARTNER_LACKS,
                                                             W_OPP_SUIT, W_DOUBLE))


class _GameFacts:
    """What the deciders of one game share, made once per game: the tile tables, where
    the drawable boneyard ends, and each (players, seat)'s view of the table."""

    def __init__(self, game):
        rules = game.rules
        self.tables = _Tables(game.tileset.tiles, rules.max_pip, game.values, fit=game.fit)
        # a fit rule, two sets or hidden rows: read through ``Knowledge`` (``make_decider``),
        # as the line's own reader knows each tile once and the same-number rule only
        self.general = rules.fit is not None or rules.copies > 1 or rules.blind
        self.blind = rules.blind
        self.double = tuple(DOUBLE2 if lo == hi else 0
                            for lo, hi in zip(self.tables.low, self.tables.high, strict=True))
        # the bit of each tile by its two values (low, high), as records write tiles
        top1 = rules.max_pip + 1
        bit_of = {(lo, hi): 1 << t for t, (lo, hi) in enumerate(zip(self.tables.low,
                                                                     self.tables.high,
                                                                     strict=True))}
        self.tile_bit = tuple(tuple(bit_of.get((lo, hi), 0) for hi in range(top1))
                              for lo in range(top1))
        self.reserve = rules.reserve
        self.spinner = rules.spinner == "first_double"
        self.draw_end = game.tileset.tile_count - rules.reserve
        self.game = weakref.ref(game)
        self.seats: dict[tuple[int, int], _SeatWeights] = {}
        # per end value, the placements of a mask of tiles there (``placed_at``)
        self.placed: tuple[dict[int, tuple], ...] = tuple({} for _ in range(top1))

    def placed_at(self, end: int, m: int) -> tuple:
        """The tiles of mask ``m`` placed at an end showing ``end``, in legal order (lowest
        index first), as (tile, the value the end shows then, the tiles showing that value,
        the double term): made once per game and mask, as masks of one end's tiles recur."""
        tables = self.tables
        out = []
        key = m
        while m:
            rest = m & (m - 1)
            t = (m ^ rest).bit_length() - 1
            m = rest
            v = tables.pips[t] - end
            out.append((t, v, tables.value_mask[v], self.double[t]))
        self.placed[end][key] = found = tuple(out)
        return found

    def seat(self, players: int, seat: int) -> _SeatWeights:
        where = self.seats.get((players, seat))
        if where is None:
            where = self.seats[players, seat] = _SeatWeights(seat, players,
                                                             self.game().teams(players))
        return where


class _SeatWeights(_Seat):
    """A seat's view of the table with its block weights in half points (``blocking2``),
    those against its first two opponents written out (``o1, w1, o2, w2``: weight 0 when
    there is no such opponent) and against any others in ``more``."""

    def __init__(self, me: int, n: int, teams):
        super().__init__(me, n, teams)
        self.blocking2 = blocking = tuple((o, _halves(w)) for o, w in self.blocking)
        (self.o1, self.w1), (self.o2, self.w2) = (*blocking, (0, 0), (0, 0))[:2]
        self.more = blocking[2:]
        self.next_is_opponent = self.next_seat in self.opponents


_GAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # Game -> _GameFacts


def _facts(game) -> _GameFacts:
    facts = _GAMES.get(game)
    if facts is None:
        facts = _GAMES[game] = _GameFacts(game)
    return facts


class Decider:
    """A strategist seat's choices for one match, without Observations: called as
    ``decider(decision, record) -> action code`` (the engine's decision tuple and the
    record so far), or bound to the match loop as a policy (``bind``), which is how
    ``api.play_match`` uses it. What it needs is built on first use, once a match."""

    __slots__ = ("rng", "game", "players", "seat", "shared", "_general")

    def __init__(self, rng, game, players: int, seat: int, shared: dict | None = None):
        self.rng, self.game, self.players, self.seat = rng, game, players, seat
        self.shared = shared    # a dict per match: what the match's strategists share
        self._general = None

    def __call__(self, d: tuple, record: Sequence) -> int:
        return self._general_decider()(d, record)

    def bind(self, view: SeatView) -> Callable[..., int]:
        """The same choices as a policy of the engine playing the match
        (``policy(mL, mR, can_draw[, mU, mD])``, see ``engine.general_loop``), which never
        asks it for a forced move. It reads the seat's view (``engine.observation.SeatView``:
        its own hand and the record), never the loop: what a decision tuple holds besides
        the masks comes from them (the tiles drawn since the deal, and in this turn). On a
        line the match's strategists share one reader of the record's public facts, inline
        in their policies (``_line_policies``); with a spinner they read it through
        ``Knowledge``."""
        shared = self.shared
        entry = shared.get("strategist_line") if shared is not None else None
        record = view.record   # the match's record: one list for every seat
        if entry is None or entry[0] is not record:
            facts = _facts(self.game)
            if facts.spinner or facts.general:
                return self._general_decider().bind(view)
            entry = (record, _line_policies(record, facts, self.players))
            if shared is not None:
                shared["strategist_line"] = entry
        return entry[1](view, self.rng)

    def _general_decider(self) -> Callable[[tuple, Sequence], int]:
        if self._general is None:
            # what the public record says is the same for every seat: the strategists of
            # one match read it once between them
            shared, rules = self.shared, self.game.rules
            known = shared.get("strategist") if shared is not None else None
            if known is None:
                known = Knowledge(self.players, rules.max_pip, rules.spinner == "first_double",
                                  rules.fit)
                if shared is not None:
                    shared["strategist"] = known
            self._general = make_decider(self.rng, known, self.game, self.players, self.seat)
        return self._general


def make_decider(rng, known: Knowledge, game, players: int, seat: int
                 ) -> Callable[[tuple, Sequence], int]:  # noqa: C901 - the hot path, one frame
    """``decide(decision, record) -> action code`` for ``seat`` of a ``players`` match of
    ``game``, for any board, with ``decide.bind(view) -> policy``: the same choices as a
    policy of the engine, reading the seat's view. ``known`` reads the public record
    (shared by the strategists of one match); ``rng`` is the seat's, for ties.

    The terms are the reference's, found with less work. Every term but ``shed`` is a
    whole number of half points, so their sum is exact in any order: it is an int of
    half points here, and the score is that sum then ``shed``, as in the reference. A
    placed tile always shows the new end's value (it is one of the tiles that fit there:
    ``options`` is their count less one); on a line, the unchanged end's facts are found
    once per end.
    """
    facts = _facts(game)
    if facts.blind:
        return _blind_decider(rng, known, game, players, seat)
    tables, draw_end, reserve = facts.tables, facts.draw_end, facts.reserve
    where = facts.seat(players, seat)
    partners, opponents = where.partners, where.opponents
    blocking = where.blocking2
    next_seat = where.next_seat
    next_is_opponent = next_seat in opponents
    PIPS, VM, DOUBLE, SHED = tables.pips, tables.value_mask, facts.double, tables.shed
    TWO, LEAVE = tables.two, tables.leave   # a fit rule's tables (None without one)
    fit = TWO is not None
    opening = _opening if TWO is None else _opening_fit
    SUIT = tables.suit_size        # tiles showing each value in the set in play
    two_each = 2 * players
    random = rng.random
    read = known.read

    def rank(codes: list, hand: int, can_draw: bool, drawn: int, left: int) -> int:
        """The best placement once the line is open (``strategist._score_place``), or a
        draw when ``strategist._wants_draw`` would, for any board; ``known`` has read
        the record up to this decision. Under a fit rule (``matching``) a placement
        (FLIP: the tile's second way) leaves what the rule says open (``LEAVE``), a
        value's mask holds the tiles that may meet it, and the placed tile need not meet
        the new end (``options`` leaves it out: on a line it always does)."""
        if hand & (hand - 1) == 0:   # the last tile: every placement wins alike, no draw
            return codes[int(random() * len(codes))] if len(codes) > 1 else codes[0]
        lacks, led, twice = known.lacks, known.led, known.opened_twice
        placed = known.placed
        shed = SHED[2 if left <= 0 else (1 if left <= players else 0)]
        next_suits = 0
        if (can_draw and not drawn and left >= two_each and next_is_opponent
                and hand.bit_count() <= 5):
            lk = lacks[next_seat]   # (x | lk) ^ lk: x & ~lk without a negative int
            next_suits = (led[next_seat] | twice[next_seat] | lk) ^ lk
        wants_draw = next_suits != 0
        opp = 0
        for o in opponents:
            opp = (opp | led[o] | twice[o] | lacks[o]) ^ lacks[o]
        if partners:
            opened = known.opened
            suits = partner_lacks = 0
            for p in partners:
                suits = (suits | led[p] | opened[p] | lacks[p]) ^ lacks[p]
                partner_lacks |= lacks[p]
        ends = known.ends
        scores = []
        for code in codes:
            t = (code & ~FLIP) >> 2
            new = list(ends)
            new[code & 3] = v = (LEAVE[code >> 24 & 1][new[code & 3]][t] if fit
                                 else PIPS[t] - new[code & 3])
            fits = values = locked = kept = 0
            for e in new:
                c = (hand & VM[e]).bit_count()
                mine = c - (VM[e] >> t & 1)
                kept += mine
                bit = 1 << e
                if not values & bit:
                    values |= bit
                    fits |= VM[e]
                    if mine and not SUIT[e] - c - placed[e]:
                        locked += 1
            options = (hand & ~(1 << t) & fits).bit_count()
            half = OPTIONS2 * options + CONTROL2 * kept + LOCK2 * locked + DOUBLE[t]
            block = 0
            for o, weight in blocking:
                lacked = values & lacks[o]
                if lacked:
                    block += weight * lacked.bit_count()
                    if lacked == values:
                        block += SHUTOUT2
            if wants_draw and (options or block or not next_suits >> v & 1):
                wants_draw = False
            half += block - OPP_SUIT2 * (values & opp).bit_count()
            if partners:
                half += (PARTNER2 * (values & suits).bit_count()
                         - PARTNER_LACKS2 * (values & partner_lacks).bit_count())
            scores.append(half * 0.5 + shed[t])
        best = _best(codes, scores, random)
        return DRAW if wants_draw else best

    def decide(d: Decision, record: Sequence) -> int:
        phase = d.phase
        if phase == SEEK:
            return DRAW
        if phase == DECLARE:   # a declaration: the fixed policy's option (its index)
            return d.best
        m0, m1, m2, m3 = d.masks
        if not (m0 or m1 or m2 or m3):   # the one legal action: a draw, else a pass
            return DRAW if d.can_draw else PASS
        codes = _codes(m0, m1, m2, m3) if TWO is None else _fit_codes(d.masks, d.flips)
        hand = d.hand
        can_draw = d.can_draw
        left = draw_end - d.pos
        if len(codes) == 1 and (not can_draw or d.drawn or left < two_each
                                or hand.bit_count() > 5):
            return codes[0]   # one placement, and no draw or none it would want
        read(record)
        if phase == OPEN or known.ends is None:
            return opening(m0, hand, tables, random)
        return rank(codes, hand, can_draw, d.drawn, left)

    def bind(view: SeatView) -> Callable[..., int]:
        """The same choices as a policy of the engine (see ``Decider.bind``)."""
        record = view.record

        if TWO is not None:   # a fit rule: its policy reads the ends first, for the flips
            return _bound_fit(view)

        def policy(m0: int, m1: int, can_draw: bool, m2: int = 0, m3: int = 0) -> int:
            codes = _codes(m0, m1, m2, m3)
            hand = view.hand
            if len(codes) == 1 and (not can_draw or hand.bit_count() > 5):
                return codes[0]   # one placement, and no draw it would want
            read(record)
            if known.ends is None:   # the opening (the loop passes its tiles as m0)
                return opening(m0, hand, tables, random)
            left = known.boneyard - reserve - known.draws
            drawn = known.turn_draws if known.drawer == seat else 0
            if len(codes) == 1 and (drawn or left < two_each):
                return codes[0]
            return rank(codes, hand, can_draw, drawn, left)

        return policy

    def _bound_fit(view: SeatView) -> Callable[..., int]:
        """``bind``'s policy under a fit rule: a tile that meets an end two ways is two
        placements (the second coded FLIP), found from the ends the record leaves."""
        record = view.record

        def policy(m0: int, m1: int, can_draw: bool, m2: int = 0, m3: int = 0) -> int:
            read(record)
            hand = view.hand
            ends = known.ends
            if ends is None:   # the opening (the loop passes its tiles as m0)
                codes = _codes(m0, 0, 0, 0)
                return codes[0] if len(codes) == 1 else _opening_fit(m0, hand, tables, random)
            masks = (m0, m1, m2, m3)
            codes = _fit_codes(masks, [m & TWO[ends[e]] if m else 0
                                       for e, m in enumerate(masks)])
            left = known.boneyard - reserve - known.draws
            drawn = known.turn_draws if known.drawer == seat else 0
            if len(codes) == 1 and (not can_draw or hand.bit_count() > 5 or drawn
                                    or left < two_each):
                return codes[0]
            return rank(codes, hand, can_draw, drawn, left)

        return policy

    decide.bind = bind
    return decide


def _blind_decider(rng, known: Knowledge, game, players: int, seat: int
                   ) -> Callable[[tuple, Sequence], int]:
    """``make_decider`` under hidden rows (``deal.blind``): the one choice the rules leave,
    the end for the front tile, weighed by ``strategy.weigh_blind`` as
    ``strategist._blind`` weighs it; ties to the seat's RNG, in legal order."""
    facts = _facts(game)
    tables, where, rule = facts.tables, facts.seat(players, seat), game.rules.fit
    PIPS, TWO, LEAVE = tables.pips, tables.two, tables.leave
    random, read = rng.random, known.read

    def choose(masks: tuple, record: Sequence) -> int:
        read(record)
        ends = known.ends
        if ends is None:   # the opening: the front tile
            return _codes(masks[0], 0, 0, 0)[0]
        codes = (_codes(*masks) if TWO is None else _fit_codes(
            masks, [m & TWO[ends[e]] if m else 0 for e, m in enumerate(masks)]))
        if len(codes) == 1:
            return codes[0]
        shown = shown_rows(record, players)
        scores = []
        for code in codes:
            t, at = (code & ~FLIP) >> 2, code & 3
            new = list(ends)
            new[at] = PIPS[t] - new[at] if LEAVE is None else LEAVE[code >> 24 & 1][new[at]][t]
            scores.append(weigh_blind(new, shown, where, rule)[0])
        top = max(scores)
        tied = [c for c, v in zip(codes, scores, strict=True) if v == top]
        return tied[int(random() * len(tied))] if len(tied) > 1 else tied[0]

    def decide(d: Decision, record: Sequence) -> int:
        if not any(d.masks):   # the one legal action: a pass (nobody draws)
            return DRAW if d.can_draw else PASS
        return choose(d.masks, record)

    def bind(view: SeatView) -> Callable[..., int]:
        record = view.record

        def policy(m0: int, m1: int, can_draw: bool, m2: int = 0, m3: int = 0) -> int:
            return choose((m0, m1, m2, m3), record)

        return policy

    decide.bind = bind
    return decide


def _line_policies(record: list, facts: _GameFacts, players: int
                   ) -> Callable[[SeatView, object], Callable[..., int]]:  # noqa: C901
    """``policy_for(view, rng)``: the strategists' policies of one match on a board without
    a spinner (a line, two ends), which read the public facts of the match record
    themselves (``record``, the same list for every seat) and their own hand
    (``view.hand``).

    What they read is what ``Knowledge.read`` reads (``bots.strategist``), kept in the
    variables of this one call, which every seat's policy shares: a policy reads the
    events since the last read of any seat, inline, before it decides. The decision is
    the bound policy's of ``make_decider`` for a line, term for term.
    """
    tables = facts.tables
    PIPS, VM, SHED = tables.pips, tables.value_mask, tables.shed
    TILE = facts.tile_bit
    PLACED, placed_at = facts.placed, facts.placed_at
    ALL = (1 << len(PIPS)) - 1   # every tile of the set
    reserve = facts.reserve
    two_each = 2 * players
    # the public record so far (see ``Knowledge``): read up to ``done``; ``e0``, ``e1`` the
    # ends once the round's first tile is down (``opening`` until then)
    done = 0
    opening = True
    e0 = e1 = 0
    board = 0   # the tiles placed this round, a bitmask
    lacks, led, opened, twice = [0] * players, [0] * players, [0] * players, [0] * players
    boneyard = draws = turn_draws = 0
    drawer = -1

    def policy_for(view: SeatView, rng) -> Callable[..., int]:
        seat = view.seat
        where = facts.seat(players, seat)
        partners = where.partners
        next_seat, next_is_opponent = where.next_seat, where.next_is_opponent
        # the block weights against each opponent: two written out, any more in a loop
        o1, w1, o2, w2, more = where.o1, where.w1, where.o2, where.w2, where.more
        others = bool(w2 or more or partners)
        random = rng.random

        def policy(m0: int, m1: int, can_draw: bool) -> int:
            nonlocal done, opening, e0, e1, board, lacks, led, opened, twice, boneyard
            nonlocal draws, turn_draws, drawer
            # one placement only: answered at once unless a draw might beat it
            if m0 and m1:
                lone = -1
            elif m0:
                lone = -1 if m0 & (m0 - 1) else (m0.bit_length() - 1) << 2
            else:
                lone = -1 if m1 & (m1 - 1) else (m1.bit_length() - 1) << 2 | 1
            if lone >= 0 and not can_draw:
                return lone
            hand = view.hand
            if lone >= 0 and hand.bit_count() > 5:
                return lone
            # read the events since the last read (only public facts: who drew, never what)
            for e in record[done:]:
                kind = e["event"]
                if kind == "place":
                    a, b = e["tile"]
                    board |= TILE[a][b]
                    p = e["player"]
                    end = e["end"]
                    if end is None:   # the round's first tile
                        e0, e1 = a, b
                        opening = False
                        led[p] = 1 << a | 1 << b
                    else:
                        if end == "left":
                            e0 = v = a + b - e0
                        else:
                            e1 = v = a + b - e1
                        bit = 1 << v
                        if opened[p] & bit:
                            twice[p] |= bit
                        else:
                            opened[p] |= bit
                    turn_draws = 0
                elif kind == "turn_up":   # deal.turn_up: the line's first tile, nobody's
                    a, b = e["tile"]
                    board |= TILE[a][b]
                    e0, e1 = a, b
                    opening = False
                    boneyard -= 1   # it left the boneyard
                elif kind == "draw":
                    p = e["player"]
                    if not opening:
                        lacks[p] |= 1 << e0 | 1 << e1
                    draws += 1
                    if turn_draws and drawer == p:
                        turn_draws += 1
                    else:
                        drawer, turn_draws = p, 1
                elif kind == "pass":
                    if not opening:
                        lacks[e["player"]] |= 1 << e0 | 1 << e1
                    turn_draws = 0
                elif kind == "deal":
                    opening = True
                    board = 0
                    lacks, led = [0] * players, [0] * players
                    opened, twice = [0] * players, [0] * players
                    boneyard, draws, turn_draws, drawer = len(e["boneyard"]), 0, 0, -1
            done = len(record)
            if opening:   # the round's first tile (the loop passes the tiles that may open)
                return _opening(m0, hand, tables, random)
            left = boneyard - reserve - draws
            drawn = turn_draws if drawer == seat else 0
            # may a voluntary draw beat every placement? (``strategist._wants_draw``) Only
            # when the next player, an opponent, is known to hold a suit (``next_suits``)
            next_suits = 0
            if (can_draw and not drawn and left >= two_each and next_is_opponent
                    and hand.bit_count() <= 5):
                lk = lacks[next_seat]   # (x | lk) ^ lk: x & ~lk without a negative int
                next_suits = (led[next_seat] | twice[next_seat] | lk) ^ lk
            if lone >= 0 and not next_suits:
                return lone   # one placement, and no draw it would want
            if hand & (hand - 1) == 0:   # the last tile: every placement wins alike, no draw
                codes = _codes(m0, m1, 0, 0)
                return codes[int(random() * len(codes))] if len(codes) > 1 else codes[0]
            shed = SHED[2 if left <= 0 else (1 if left <= players else 0)]
            # values an opponent led or opened twice (and does not lack): opening them costs;
            # values a partner plays (led or opened) or lacks; per value, the half points
            # of the terms that count end values (``_score_place``: opp_suit, partner,
            # partner_lacks), and the block weights against each opponent
            lk1 = lacks[o1] if w1 else 0
            opp = (led[o1] | twice[o1] | lk1) ^ lk1 if w1 else 0
            lk2 = 0
            if others:   # a second opponent, more, or partners
                if w2:
                    lk2 = lacks[o2]
                    opp = (opp | led[o2] | twice[o2] | lk2) ^ lk2
                for o, _ in more:
                    lk = lacks[o]
                    opp = (opp | led[o] | twice[o] | lk) ^ lk
                suits = partner_lacks = 0
                for p in partners:
                    suits = (suits | led[p] | opened[p] | lacks[p]) ^ lacks[p]
                    partner_lacks |= lacks[p]
            if next_suits:   # whether a placement blocks anyone, for the draw question
                lks = lk1 | lk2
                for o, _ in more:
                    lks |= lacks[o]
            unseen = ALL ^ (hand | board)   # tiles neither mine nor placed: others may hold

            # the best so far, and the placements within 1e-9 of it (``tied``, in legal
            # order, from the first one): nothing below ``floor`` can tie with the best,
            # anything above ``ceil`` is a clear best
            top = floor = ceil = -1e300
            best = -1
            tied = None
            # the left end's placements, then the right's (legal order); the other end stays
            at, m, end, keep = 0, m0, e0, e1
            while True:
                if m:
                    mk = VM[keep]
                    hk = hand & mk
                    ck = hk.bit_count()
                    kbit = 1 << keep
                    # an end value is locked when I still hold some and nobody else can:
                    # no tile showing it is unseen
                    klock = not mk & unseen
                    # the placed tile shows the kept value only when both ends show it, or
                    # it is the tile (end, keep): then my tiles left showing it are ck - 1;
                    # the kept end's share of control and lock, and the "less one" of
                    # options, for a tile that leaves another value (v) at this end
                    mine = ck - 1 if end == keep else ck
                    kept_half = CONTROL2 * (mine - 1) - OPTIONS2 + (
                        LOCK2 if mine and klock else 0)
                    for t, v, vm, dbl in PLACED[end].get(m) or placed_at(end, m):
                        if v == keep:   # both ends will show it: the tile (end, keep)
                            half = (CONTROL2 * 2 + OPTIONS2) * (ck - 1) + (
                                LOCK2 if ck > 1 and klock else 0)
                            values = kbit
                        else:
                            hv = hand & vm
                            c = hv.bit_count()
                            # kept: mine + (c - 1); options: my tiles fitting either end, less
                            # the placed one; an end value only I still hold (none unseen)
                            half = kept_half + CONTROL2 * c + OPTIONS2 * (hk | hv).bit_count()
                            values = kbit | 1 << v
                            if c > 1 and not vm & unseen:
                                half += LOCK2
                        lacked = values & lk1
                        if lacked:
                            half += w1 * lacked.bit_count() + (SHUTOUT2 if lacked == values else 0)
                        if values & opp:
                            half -= OPP_SUIT2 * (values & opp).bit_count()
                        if others:   # a second opponent, more, or partners
                            if lk2:
                                lacked = values & lk2
                                if lacked:
                                    half += w2 * lacked.bit_count() + (
                                        SHUTOUT2 if lacked == values else 0)
                            for o, weight in more:
                                lacked = values & lacks[o]
                                if lacked:
                                    half += weight * lacked.bit_count() + (
                                        SHUTOUT2 if lacked == values else 0)
                            if partners:
                                half += (PARTNER2 * (values & suits).bit_count()
                                         - PARTNER_LACKS2 * (values & partner_lacks).bit_count())
                        if next_suits and (not next_suits >> v & 1 or values & lks or (
                                (hand & (mk | vm)).bit_count() > 1)):
                            next_suits = 0   # a placement a draw cannot beat (it blocks, or
                                             # leaves a tile to follow with, or a suit it lacks)
                        score = (half + dbl) * 0.5 + shed[t]
                        if score > ceil:   # a clear best so far
                            top, floor, ceil, best = score, score - 1e-9, score + 1e-9, t << 2 | at
                            tied = None
                        elif score >= floor:   # a tie (within 1e-9) with the best so far
                            if tied is None:
                                tied = [(top, best)]
                            tied.append((score, t << 2 | at))
                            if score > top:
                                top, floor, ceil = score, score - 1e-9, score + 1e-9
                                best = t << 2 | at
                if at:
                    break
                at, m, end, keep = 1, m1, e1, e0
            if tied is not None:   # a tie (within 1e-9): the RNG picks, as ``_best`` does
                tied = [pair for pair in tied if pair[0] >= floor]
                if len(tied) > 1:
                    tied.sort(key=_first, reverse=True)
                    best = tied[int(random() * len(tied))][1]
            return DRAW if next_suits else best

        return policy

    return policy_for


def _codes(m0: int, m1: int, m2: int, m3: int) -> list[int]:
    """The legal placements as action codes (tile index << 2 | end), in legal order."""
    codes = []
    while m0:
        low = m0 ^ (m0 & (m0 - 1))
        m0 ^= low
        codes.append((low.bit_length() - 1) << 2)
    while m1:
        low = m1 ^ (m1 & (m1 - 1))
        m1 ^= low
        codes.append((low.bit_length() - 1) << 2 | 1)
    while m2:
        low = m2 ^ (m2 & (m2 - 1))
        m2 ^= low
        codes.append((low.bit_length() - 1) << 2 | 2)
    while m3:
        low = m3 ^ (m3 & (m3 - 1))
        m3 ^= low
        codes.append((low.bit_length() - 1) << 2 | 3)
    return codes


def _fit_codes(masks: Sequence[int], flips: Sequence[int]) -> list[int]:
    """``_codes`` under a fit rule: each tile at each end, then its second way (``FLIP``)
    when it meets that end two ways (``flips``), as the legal actions list them."""
    codes = []
    for e, m in enumerate(masks):
        f = flips[e]
        while m:
            low = m & -m
            m ^= low
            t = low.bit_length() - 1
            codes.append(t << 2 | e)
            if f >> t & 1:
                codes.append(t << 2 | e | FLIP)
    return codes


def _best(codes: list[int], scores: list[float], random) -> int:
    """The best code; on a tie (within 1e-9) the RNG picks among the tied ones, ranked
    best first and in legal order, as ``strategist._rank`` ranks them (a stable sort)."""
    if len(codes) == 1:
        return codes[0]
    top = max(scores)
    floor = top - 1e-9
    tied = 0
    for s in scores:
        if s >= floor:
            tied += 1
    if tied == 1:
        return codes[scores.index(top)]
    pairs = [(s, code) for s, code in zip(scores, codes, strict=True) if s >= floor]
    pairs.sort(key=_first, reverse=True)
    return pairs[int(random() * len(pairs))][1]


def _opening(m: int, hand: int, tables: _Tables, random) -> int:
    """The opening tile among the tiles of mask ``m`` (``strategist._score_opening``): the
    strongest suit, then its double, then the other half's suit, then the tile's value.
    (The terms before the value are whole numbers: their sum is exact in any order.) One
    pass, as ``_best`` would pick: the best score, a tie (within 1e-9) to the RNG."""
    LOW, HIGH, VALUE = tables.low, tables.high, tables.open_value
    count = list(map(int.bit_count, map(hand.__and__, tables.value_mask)))
    top = floor = -1e300
    best = -1
    tied = None
    while m:
        rest = m & (m - 1)
        t = (m ^ rest).bit_length() - 1
        m = rest
        lo, hi = LOW[t], HIGH[t]
        c_lo, c_hi = count[lo], count[hi]
        if lo == hi:
            score = O_SUIT * c_hi + O_DOUBLE + VALUE[t]
        elif c_hi >= c_lo:
            score = O_SUIT * c_hi + O_OTHER * c_lo + VALUE[t]
        else:
            score = O_SUIT * c_lo + O_OTHER * c_hi + VALUE[t]
        if score >= floor:
            if score > top + 1e-9:   # a clear best so far
                tied = None
            else:
                if tied is None:
                    tied = [(top, best)]
                tied.append((score, t << 2))
            if score > top:
                top, floor, best = score, score - 1e-9, t << 2
    if tied is not None:
        return _tie(tied, floor, random, best)
    return best


def _opening_fit(m: int, hand: int, tables: _Tables, random) -> int:
    """The opening under a fit rule (``strategist._score_opening``): the heaviest tile of
    mask ``m`` (``hand`` unread), a tie (within 1e-9) to the RNG, as ``_opening`` picks."""
    VALUE = tables.open_value
    top = floor = -1e300
    best = -1
    tied = None
    while m:
        rest = m & (m - 1)
        t = (m ^ rest).bit_length() - 1
        m = rest
        score = 0.0 + VALUE[t]
        if score >= floor:
            if score > top + 1e-9:
                tied = None
            else:
                if tied is None:
                    tied = [(top, best)]
                tied.append((score, t << 2))
            if score > top:
                top, floor, best = score, score - 1e-9, t << 2
    if tied is not None:
        return _tie(tied, floor, random, best)
    return best


def _tie(tied: list, floor: float, random, best: int) -> int:
    """The pick among the (score, code) pairs, collected in legal order, that are still
    within 1e-9 of the best (``floor``): ranked best first, stable, as ``_best`` ranks
    them, the RNG picks one; ``best`` when only it is left."""
    tied = [pair for pair in tied if pair[0] >= floor]
    if len(tied) == 1:
        return best
    tied.sort(key=_first, reverse=True)
    return tied[int(random() * len(tied))][1]


def _first(pair: tuple) -> float:
    return pair[0]
