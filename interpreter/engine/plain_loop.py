"""The one match loop: every rule of every ruleset, as tight code over bitmasks.

``PlainLoop.run()`` is a generator playing a whole match. At each decision it
asks the seat's *policy* -- a fast callable ``policy(left_mask, right_mask,
can_draw) -> int action`` -- or, for a seat without one, ``yield``s the decision
and waits for ``send(action)``. So the step-by-step ``State`` (no policies) and
the fast simulation (builtin bots' policies) run the same code, and give the same
record for the same choices by construction.

Decision tuples: ``(player, hand, left, right, left_mask, right_mask, can_draw,
can_pass, phase, drawn_this_turn, next_tile)`` where ``phase`` is ``PLAY``,
``OPEN`` (the opening tile: ``left_mask`` holds the tiles that may open) or
``SEEK`` (drawing in turn for the required opening tile: draw is the only action).
A policy is not consulted when the only legal action is a draw or a pass. A seat
given a ``uniform`` word source (the ``random`` bot: ``engine.streams``) is not
asked at all: the loop makes the uniform pick itself, ``(next32() * n) >> 32``.

Cases the rules leave open, decided here:
- A required opening tile (a given tile, or the highest double dealt) is placed at
  once: no voluntary draw before it. With ``opener: leader``, a leader who lacks it
  counts as "nobody holds it" (``if_unheld`` applies).
- ``draw_in_turn`` checks the boneyard order up front: when the tile lies only
  among the reserve, the deal is redealt at once (leader ``null``, no draws
  recorded). With ``highest_double`` and no double dealt, the first double drawn opens.
- ``opening_tile_holder`` when nobody holds the tile: redeal (nobody leads).
- Draw costs paid ``to round_winner`` in a round nobody wins are simply lost.
- A match still undecided after ``max_rounds`` rounds (1000) stops there, without a
  winner, and says so (``MatchResult.capped``): its record ends with ``match_end``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, DiagnosticError
from . import leaders
from .actions import DRAW
from .bounds import check_scores
from .decision import NO_MASKS, OPEN, PLAY, SEEK, Decision
from .results import NEW_ROUND, MatchResult, RoundStats
from .scoring import match_winner
from .streams import shuffler
from .tiles import bits

if TYPE_CHECKING:
    from .game import Deal, Game

MAX_REDEALS = 1000
Policy = Callable[[int, int, bool], int]


_NAME_KEYS = {"lead": 0x2545F4914F6CDD1D}


class HashStream:
    """A light RNG stream for rare draws (lots for the lead): SplitMix64 started from
    (seed, name). Free to create, where seeding a Mersenne Twister costs ~5 us.
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int, name: str):
        # distinct seeds give distinct starting states; the finalizer below mixes them
        self._state = (seed * 0xD1342543DE82EF95 + _NAME_KEYS.get(name, 1)) & 0xFFFFFFFFFFFFFFFF

    def random(self) -> float:
        self._state = z = (self._state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return ((z ^ (z >> 31)) >> 11) / 9007199254740992.0  # 2**53


_new = object.__new__
_set = object.__setattr__  # a frozen MatchResult gets its fields in one dict: a third the cost


def match_start_event(game: Game, players: int, seed: int) -> dict:
    """A record's first event (shared with ``kernel``)."""
    start = {"event": "match_start", "ruleset": game.ref, "players": players,
             "teams": [list(t) for t in game.teams(players)], "seed": seed}
    if game.path:
        start["source"] = game.path
    return start


def deal_event(ts, rnd_no: int, leader: int | None, hands: list[int], deck: list[int],
               dealt: int) -> dict:
    """A round's deal event: the hands, and the boneyard in drawing order (shared with
    ``kernel``)."""
    return {"event": "deal", "round": rnd_no, "leader": leader,
            "hands": [[[ts.low[t], ts.high[t]] for t in bits(h)] for h in hands],
            "boneyard": [[ts.low[t], ts.high[t]] for t in deck[dealt:]]}


def opening_of(game: Game, hands: list[int], leader: int, deck: list[int], dealt: int,
               draw_end: int) -> tuple[int | None, int, int]:
    """(opener, opening mask, seek mask): opener None means redeal; seek != 0: draw in turn.

    Opening mask -1 means "any tile of the opener's hand". Shared with ``kernel``.
    """
    g = game
    req = g.required_tile
    if req == "any":
        return leader, -1, 0
    if req == "highest_double":
        found = leaders.highest_double_holder(hands, g.tileset)
        tile, seat = (found[1], found[0]) if found else (None, None)
    else:
        tile = req
        seat = leaders.holder(hands, req)
    if seat is not None and (g.rules.opener == "holder" or seat == leader):
        return seat, 1 << tile, 0
    if g.rules.if_unheld == "draw_in_turn":
        seek = (1 << tile) if tile is not None else g.tileset.doubles_mask
        if seat is None and any((1 << t) & seek for t in deck[dealt:draw_end]):
            return leader, 0, seek
    return None, 0, 0


class PlainLoop:
    """The mutable match: what the loop keeps between rounds, and a live view for ``State``."""

    def __init__(self, game: Game, players: int, seed: int, policies: list[Policy | None],
                 record: bool = True, deals: list[Deal] | None = None,
                 start_scores: list[int] | None = None, max_rounds: int = 1000,
                 uniform: list | None = None, more: Callable[[int], Callable] | None = None):
        self.game = game
        self.players = players
        self.seed = seed
        self.policies = policies
        # per seat, the next32 of a seat playing the builtin uniform pick, or None; it may
        # raise StopIteration at the end of a first block: then more(seat) goes on
        self.uniform = uniform
        self.more = more
        self.rec: list[dict] | None = [] if record else None
        self.teams = game.teams(players)
        if self.rec is not None:
            self.rec.append(match_start_event(game, players, seed))
        self.deals = list(deals or ())
        self.max_rounds = max_rounds
        self.first_round = 1   # the number of the first round played (a match continued
                               # mid-way by engine.continuation starts at a later one)
        self.target = game.target(players)
        self.scores = list(start_scores) if start_scores else [0] * len(self.teams)
        self.rounds: list[RoundStats] = []
        self.result: MatchResult | None = None
        # live view, read by State/Observation between yields
        self.round = 0
        self.leader: int | None = None
        self.hands: list[int] = [0] * players
        self.deck: list[int] = []
        self.lead_rng = HashStream(seed, "lead")

    # -- dealing ---------------------------------------------------------------------
    def _deal(self, hand_size: int) -> tuple[list[int], list[int], int, int | None]:
        """(deck in order, hands, tiles dealt, fixed leader or None): a fixed deal or a shuffle."""
        ts = self.game.tileset
        if self.deals:
            d = self.deals.pop(0)
            deck, hands = [], []
            for hand in d.hands:
                idx = [ts.index[t] for t in hand]
                deck.extend(idx)
                hands.append(sum(1 << i for i in idx))
            dealt = len(deck)
            deck.extend(ts.index[t] for t in d.boneyard)
            seen = set(deck)
            deck.extend(i for i in range(ts.tile_count) if i not in seen)
            return deck, hands, dealt, d.leader
        raise AssertionError("shuffled deals are made in run()")

    def _deal_event(self, rnd_no: int, leader: int | None, hands: list[int], deck: list[int],
                    dealt: int) -> dict:
        return deal_event(self.game.tileset, rnd_no, leader, hands, deck, dealt)

    def _opening(self, hands: list[int], leader: int, deck: list[int], dealt: int,
                 draw_end: int) -> tuple[int | None, int, int]:
        return opening_of(self.game, hands, leader, deck, dealt, draw_end)

    # -- the match -------------------------------------------------------------------
    def run(self):  # noqa: C901 - one loop on purpose: this is the hot path
        g = self.game
        rules = g.rules
        ts = g.tileset
        n = self.players
        (PM, TL, TH, PIPS, T, hand_size, draw_end, vol, stuck_draw, limit, draw_cost, value_of,
         settle, open_any, play_on, _full, _bit, dealt_n, _key_bytes, _words) = g.setup(n)
        pols = self.policies
        NEXT = (*range(1, n), 0)  # the seat after each seat
        target = self.target
        add_round = self.rounds.append
        lo_chunk, hi_chunk = g._chunks if len(g._chunks) == 2 else (None, None)
        # a builtin uniform policy (bots.random_bot) is inlined below: the same pick on the
        # same 32-bit words of the seat's stream (engine.streams), no call
        uniform = self.uniform or [getattr(pol, "uniform_bits", None) for pol in pols]
        more = self.more
        # the shuffle stream: deal k sorts the set on T 32-bit keys, the k-th T of the
        # output of SHAKE-128(seed): a pure function of the seed, no generator to seed
        # (an array of words: an int is made only for a key the sort reads)
        deal = shuffler(self.seed, g.setup(n))
        rec = self.rec
        recording = rec is not None  # one load a test in the loop
        scores = self.scores
        prev_leader = prev_winner = None
        over, match_win, capped = False, None, False
        rnd_no = self.first_round - 1
        while not over:
            rnd_no += 1
            if rnd_no > self.max_rounds:
                capped = True
                break
            self.round = rnd_no
            choice = rules.first_leader if rnd_no == 1 else rules.later_leader
            if choice == "rotate" and prev_leader is not None:
                pre = prev_leader + 1 if prev_leader + 1 < n else 0
            else:
                pre = leaders.before_deal(choice, n, self.lead_rng, ts, prev_leader,
                                          prev_winner, rules.lead_count_from)
            redeals = 0
            while True:
                if self.deals:
                    deck, hands, dealt, fixed = self._deal(hand_size)
                else:  # a shuffle: engine.streams.shuffler, the same for every loop
                    deck, hands = deal()
                    dealt, fixed = dealt_n, None
                leader = fixed if fixed is not None else pre
                if leader is None:
                    if choice == "highest_double":
                        found = leaders.highest_double_holder(hands, ts)
                        leader = found[0] if found else None
                    else:
                        leader = leaders.holder(hands, g.holder_tile(hands))
                opener = None
                if open_any:
                    opener, omask, seek = leader, -1, 0
                elif leader is not None:
                    opener, omask, seek = self._opening(hands, leader, deck, dealt, draw_end)
                if opener is not None:
                    break
                if recording:
                    rec.append(self._deal_event(rnd_no, None, hands, deck, dealt))
                redeals += 1
                if redeals > MAX_REDEALS:
                    raise DiagnosticError([Diagnostic(
                        "deal", f"round {rnd_no}: no deal could open after {MAX_REDEALS} "
                        "redeals; the opening rules can hardly ever be met")])
            self.hands, self.deck, self.leader = hands, deck, leader
            if recording:
                rec.append(self._deal_event(rnd_no, leader, hands, deck, dealt))
            pos = dealt
            drawn_by = [0] * n
            # decisions = placements + draws + passes, placements and draws are derived from
            # the hands at the end: only passes, choice points and seek turns are counted
            passes = choices = seek_turns = 0
            # -- opening: draw in turn for the required tile, then place it
            p = leader
            if seek:
                while True:
                    seek_turns += 1
                    if pols[p] is None:  # drawing is the only legal action
                        yield Decision(p, hands[p], -1, -1, 0, 0, True, False, SEEK, 0, pos)
                    t = deck[pos]
                    pos += 1
                    hands[p] |= 1 << t
                    drawn_by[p] += 1
                    if recording:
                        rec.append({"event": "draw", "player": p, "tile": [TL[t], TH[t]]})
                    if (1 << t) & seek:
                        opener, omask = p, 1 << t
                        break
                    p = p + 1 if p + 1 < n else 0
            p = opener
            drawn = 0
            while True:
                h = hands[p]
                m = h if omask < 0 else omask
                # a required opening tile (given, or the highest double) is set at once
                can_draw = omask < 0 and vol and pos < draw_end and drawn < limit
                if can_draw or m & (m - 1):
                    choices += 1
                pol = pols[p]
                urnd = uniform[p]
                if urnd is not None:
                    try:
                        k = (urnd() * m.bit_count()) >> 32
                    except StopIteration:  # a first block used up (engine.streams)
                        urnd = uniform[p] = more(p)
                        k = (urnd() * m.bit_count()) >> 32
                    while k:
                        m &= m - 1
                        k -= 1
                    a = ((m & -m).bit_length() - 1) << 2
                elif pol is None:
                    a = yield Decision(p, h, -1, -1, m, 0, can_draw, False, OPEN, drawn, pos,
                                       masks=(m, 0, 0, 0))
                else:
                    a = pol(m, 0, can_draw)
                if a == DRAW:
                    t = deck[pos]
                    pos += 1
                    hands[p] = h | (1 << t)
                    drawn += 1
                    drawn_by[p] += 1
                    if recording:
                        rec.append({"event": "draw", "player": p, "tile": [TL[t], TH[t]]})
                    continue
                t = a >> 2
                h ^= 1 << t
                hands[p] = h
                L, R = TL[t], TH[t]
                if recording:
                    rec.append({"event": "place", "player": p, "tile": [L, R], "end": None})
                break
            # -- turns (the loop ends on a block, npass == n, or a domino, which sets npass = n)
            npass = 0
            domino = None
            if not h:
                domino, npass = p, n
            while npass < n:
                p = NEXT[p]
                h = hands[p]
                urnd = uniform[p]
                drawn = 0
                while True:
                    mL = h & PM[L]
                    mR = h & PM[R]
                    if mL or mR:
                        if urnd is not None:  # the uniform pick, placed at once
                            nL = mL.bit_count()
                            k = nL + mR.bit_count()
                            if k > 1 or (vol and pos < draw_end and drawn < limit):
                                choices += 1
                            try:
                                k = (urnd() * k) >> 32
                            except StopIteration:  # a first block used up (engine.streams)
                                urnd = uniform[p] = more(p)
                                k = (urnd() * k) >> 32
                            if k < nL:
                                while k:
                                    mL &= mL - 1
                                    k -= 1
                                b = mL & -mL
                                t = b.bit_length() - 1
                                L = PIPS[t] - L
                                end = "left"
                            else:
                                k -= nL
                                while k:
                                    mR &= mR - 1
                                    k -= 1
                                b = mR & -mR
                                t = b.bit_length() - 1
                                R = PIPS[t] - R
                                end = "right"
                            h ^= b
                            hands[p] = h
                            npass = 0
                            if recording:
                                rec.append({"event": "place", "player": p,
                                            "tile": [TL[t], TH[t]], "end": end})
                            if not h:
                                domino, npass = p, n
                            break
                        can_draw = vol and pos < draw_end and drawn < limit
                        if can_draw or (mL and mR) or mL & (mL - 1) or mR & (mR - 1):
                            choices += 1
                        pol = pols[p]
                        if pol is None:
                            a = yield Decision(p, h, L, R, mL, mR, can_draw, False, PLAY,
                                               drawn, pos, (L, R, None, None), (mL, mR, 0, 0))
                        else:
                            a = pol(mL, mR, can_draw)
                        if a >= 0:
                            t = a >> 2
                            h ^= 1 << t
                            hands[p] = h
                            npass = 0
                            if a & 3:
                                R = PIPS[t] - R
                                if recording:
                                    rec.append({"event": "place", "player": p,
                                                "tile": [TL[t], TH[t]], "end": "right"})
                            else:
                                L = PIPS[t] - L
                                if recording:
                                    rec.append({"event": "place", "player": p,
                                                "tile": [TL[t], TH[t]], "end": "left"})
                            if not h:
                                domino, npass = p, n
                            break
                    elif stuck_draw and pos < draw_end and drawn < limit:
                        # the only legal action: policies are not consulted (see bots.base)
                        if pols[p] is None:
                            yield Decision(p, h, L, R, 0, 0, True, False, PLAY, drawn, pos,
                                           (L, R, None, None), NO_MASKS)
                    else:
                        if pols[p] is None:
                            yield Decision(p, h, L, R, 0, 0, False, True, PLAY, drawn, pos,
                                           (L, R, None, None), NO_MASKS)
                        passes += 1
                        npass += 1
                        if recording:
                            rec.append({"event": "pass", "player": p})
                        break
                    t = deck[pos]
                    pos += 1
                    h |= 1 << t
                    hands[p] = h
                    drawn += 1
                    drawn_by[p] += 1
                    npass = 0
                    if recording:
                        rec.append({"event": "draw", "player": p, "tile": [TL[t], TH[t]]})
            # -- settlement
            if lo_chunk is not None:  # a set of at most 28 tiles: two table lookups a hand
                pips = [lo_chunk[h & 16383] + hi_chunk[h >> 14] for h in hands]
            else:
                pips = list(map(value_of, hands))
            counts = list(map(int.bit_count, hands))
            wside, wseat, tied, points = settle(pips, counts, drawn_by, domino, draw_cost)
            draws = sum(drawn_by)
            placements = pos - sum(counts)
            for i, pts in enumerate(points):
                scores[i] += pts
            check_scores(scores)
            result = "domino" if domino is not None else "blocked"
            if recording:
                rec.append({"event": "round_end", "round": rnd_no, "result": result,
                            "winner": wside, "pips": pips, "points": list(points),
                            "scores": list(scores)})
            stats = NEW_ROUND(RoundStats, (
                rnd_no, leader, result, wside, wseat, tied, tuple(points), tuple(scores),
                placements + passes + seek_turns - 1 if seek else placements + passes,
                placements, draws, passes, placements + draws + passes, choices, redeals,
                (), 0, 0))
            add_round(stats)
            prev_leader, prev_winner = leader, wseat
            top = max(scores)
            if top >= target:
                over, match_win = match_winner(scores, target, play_on)
        if recording:
            rec.append({"event": "match_end", "winner": match_win, "scores": list(scores)})
        result = _new(MatchResult)
        _set(result, "__dict__", {
            "ruleset": rules.name, "players": n, "seed": self.seed, "teams": self.teams,
            "winner": match_win, "scores": tuple(scores), "target": self.target,
            "rounds": tuple(self.rounds), "events": rec, "capped": capped})
        self.result = result
