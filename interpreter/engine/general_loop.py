"""The match loop: every rule of every ruleset, the step-by-step ``State``'s and the truth
the kernels are tested against.

``GeneralLoop.run()`` is a generator playing a whole match. At each decision it asks the
seat's *policy* -- a fast callable ``policy(left_mask, right_mask, can_draw) -> int
action`` (with ``up_mask, down_mask`` too when a spinner's arms are open) -- or, for a
seat without one, ``yield``s a ``Decision`` and waits for ``send(action)``. So the
step-by-step ``State`` (no policies) and a simulation of plug-in bots run the same code,
and give the same record for the same choices by construction. A seat given a
``uniform`` word source (the ``random`` bot: ``engine.streams``) is not asked at all: the
loop makes the uniform pick itself, ``(next32() * n) >> 32``. A policy is not consulted
when the only legal action is a draw or a pass.

Besides the plain game it plays every house-rule mechanism of ``Rules``: a board with a
spinner (up to four ends), a fit rule and wild tiles (``mechanisms.matching``, read as
``Game.fit``'s tables: a tile that fits an end either way round is two placements, the
second coded with ``FLIP``), placement restrictions, play-time events (points, another
turn, skipped turns), turn direction, a redeal condition, opening conditions and
fallbacks, a lead formula, round settlement over round facts, and match formats.

Cases the rules leave open, decided here (for players: docs/house-rules.md, last section):
- A required opening tile (a given tile, or the highest double dealt) is placed at
  once: no voluntary draw before it. With ``opener: leader``, a leader who lacks it
  counts as "nobody holds it" (``if_unheld`` applies).
- ``draw_in_turn`` checks the boneyard order up front: when the tile lies only
  among the reserve, the deal is redealt at once (leader ``null``, no draws
  recorded). With ``highest_double`` and no double dealt, the first double drawn opens.
- ``opening_tile_holder`` when nobody holds the tile: redeal (nobody leads).
- Draw costs paid ``to round_winner`` in a round nobody wins are simply lost.
- A round is blocked when every seat has passed since the last placement or draw, or
  when 2 x players turns go by (passes and skipped turns) with nobody placing or drawing
  (a skip completing them blocks the round at once).
- ``if_lacking: draw``: the leader draws the boneyard out if no allowed tile comes (the
  leader cannot see it), then ``if_unheld`` applies (``_open``).
- ``again`` gives the actor one more turn after the current one ends; effects of the
  action that ends a round (a domino) are scored, but turns granted or skipped lapse.
- ``skip`` is counted from the seat that would act next; skipped seats are recorded.
- ``next_draws``: the seat after the actor draws at once, after the placement's events
  (``_pay_draws``; the count by ``mechanisms.events.tiles_taken``); none after a domino.
- What a turn may hold (``mechanisms.turn_options``): exact draws, a draw ending the turn
  (no pass written), passing at will (only a forced pass counts towards "every seat has
  passed"; the two idle turns of the table still bound a round of passes at will). The
  opening's draws keep ``voluntary`` and ``limit`` as they are.
- ``deal.turn_up`` (``mechanisms.turn_up``): the stock's first tile starts the line after
  the deal that stands, placed by nobody (no event fires); the leader's is the first turn
  of play, and the seat before the leader is the round's last player until somebody
  places. A deal that leaves no stock opens from the leader's hand as usual.
- ``deal.blind`` (``mechanisms.blind``): each seat's row is its dealt tiles in deck order;
  only the front tile may be placed; a front tile that fits nowhere is a pass that puts it
  at the back, counted as stuck only when no tile of the row fits, and never idle.
- Points scored during play count at once (``side.score``); the match is decided at round
  ends only.
- A match still undecided after ``max_rounds`` rounds (1000) stops there, without a
  winner, and says so (``MatchResult.capped``): its record ends with ``match_end``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from ..diagnostics import Diagnostic, DiagnosticError
from . import leaders
from .actions import DRAW, FLIP, PASS, SEVERAL
from .board import END_NAMES, Board, ShapedBoard, new_board
from .bounds import check_scores
from .decision import DECLARE, OPEN, PLAY, SEEK, Decision
from .game_rules import Opening
from .leaders import HashStream
from .mechanisms import blind as blind_rule
from .mechanisms import declarations, environment, restrictions, several, turn_options
from .mechanisms import duties as duty_rules
from .mechanisms import events as event_rules
from .mechanisms import leftover as leftover_rule
from .mechanisms import opening as opening_rules
from .mechanisms import side_out as side_out_rule
from .mechanisms import table as table_rules
from .mechanisms import turn_up as turn_up_rule
from .mechanisms.events import NOTHING as NOTHING_FIRED
from .mechanisms.events import fire as fire_events
from .mechanisms.variables import after_round, round_facts, starting
from .results import MatchResult, RoundStats
from .streams import shuffler
from .tiles import Tile, TileSet, bits

if TYPE_CHECKING:
    from .game import Deal, Game

MAX_REDEALS = 1000
MAX_TURNS = 100_000   # a round this long is a ruleset that cannot end: stop with a message
Policy = Callable[..., int]

_new = object.__new__
_set = object.__setattr__  # a frozen MatchResult gets its fields in one dict: a third the cost


class RoundEnd(NamedTuple):
    """What a round's settlement reads: the position the round ended in. Built by name
    (the kernels in one step: ``engine.results.one_step_source``); the settlement written
    out for a ruleset (``kernel.settle``) unpacks it in its own field order."""

    hands: list[int]          # bitmask per seat at the round's end
    drawn_by: list[int]       # tiles drawn per seat this round
    domino: int | None        # the seat that went out, None when blocked
    last_player: int
    last_tile: int            # the last placed tile's index
    last_both: bool           # it fitted more than one end
    board: Board | None       # None will do when the settlement reads no end
    deck: list[int]
    pos: int                  # the next tile to draw
    passes: int
    rnd: int                  # the round's number
    scores: list[int]         # per side before this round's points (read, not changed)
    rounds_won: list[int]     # per side before this round


def match_start_event(game: Game, players: int, seed: int) -> dict:
    """A record's first event (shared with ``kernel``)."""
    start = {"event": "match_start", "ruleset": game.ref, "players": players,
             "teams": [list(t) for t in game.teams(players)], "seed": seed}
    if game.path:
        start["source"] = game.path
    return start


def deal_event(ts: TileSet, rnd_no: int, leader: int | None, hands: list[int],
               deck: list[int], dealt: int, blind: bool = False) -> dict:
    """A round's deal event: the hands, and the boneyard in drawing order (shared with
    ``kernel``); ``blind`` (deal.blind): each hand its row in the order dealt, front first
    (``mechanisms.blind``)."""
    rows = (blind_rule.rows_of(deck, len(hands), dealt // len(hands)) if blind else
            [bits(h) for h in hands])
    return {"event": "deal", "round": rnd_no, "leader": leader,
            "hands": [[[ts.low[t], ts.high[t]] for t in row] for row in rows],
            "boneyard": [[ts.low[t], ts.high[t]] for t in deck[dealt:]]}


def heaviest_dealt(ts: TileSet, hands: list[int]) -> tuple[int, int]:
    """(seat, tile) of the heaviest tile dealt: most pips, then the higher half."""
    best = None
    for s, h in enumerate(hands):
        for t in bits(h):
            key = (ts.pips[t], ts.high[t])
            if best is None or key > best[0]:
                best = (key, s, t)
    assert best is not None
    return best[1], best[2]


def tile_opening(ts: TileSet, op: Opening, hands: list[int], leader: int,
                 boneyard: list[int]) -> tuple[int | None, int, int]:
    """(opener, opening mask, seek mask) of a round whose opening names a tile (``op.tile``
    a given tile or ``highest_double``): opener None means redeal; a seek mask (the tiles
    that may open) means the players draw in turn from the leader until one is drawn.
    Shared with ``kernel``."""
    if op.tile == "highest_double":
        found = leaders.highest_double_holder(hands, ts)
        tile, seat = (found[1], found[0]) if found else (None, None)
    else:
        tile = ts.index[Tile(*op.tile)]
        seat = leaders.holder(hands, tile)
    if seat is not None and (op.opener == "holder" or seat == leader):
        return seat, 1 << tile, 0
    if op.if_unheld == "heaviest" and seat is None:
        seat, t = heaviest_dealt(ts, hands)
        return seat, 1 << t, 0
    if op.if_unheld == "draw_in_turn":
        seek = (1 << tile) if tile is not None else ts.doubles_mask
        if seat is None and any((1 << t) & seek for t in boneyard):
            return leader, 0, seek
    return None, 0, 0


class Facts(dict):
    """An environment whose names are computed on first read (formulas read few of them)."""

    __slots__ = ("make",)

    def __missing__(self, key: str) -> Any:
        value = self[key] = self.make(key)
        return value


class EventFacts(dict):
    """The names a play-time event's formulas read, computed on first read from the match."""

    __slots__ = ("core", "actor", "pos", "drawn_by")

    def __missing__(self, key: str) -> Any:
        core = self.core
        if key == "end_total":
            value = core.board.end_total()
        elif key == "ends":
            value = core.board.ends()
        elif key == "boneyard":
            value = len(core.deck) - self.pos
        elif key == "hand":
            value = tuple(core._tuples[t] for t in bits(core.hands[self.actor]))
        elif key == "end_doubles":
            board = core.board
            value = tuple(board.doubles[:board.count])   # an untouched arm: False
        elif key in table_rules.NAMES:   # the table's tiles (engine.mechanisms.table)
            self.update(core._table_names())
            return self[key]
        elif key in (names := environment.match_names(core)):   # players, round, variables ...
            value = names[key]
        else:   # the tallies: player, side, sides, opponents
            seats = core._seat_tallies(self.drawn_by)
            self.update(environment.actor_names(seats[self.actor], core._side_tallies(seats),
                                                core._side_of[self.actor]))
            return self[key]
        self[key] = value
        return value

    def rescore(self) -> None:
        """Points were scored: the tallies (``side.score`` ...), read together, are read
        again when next asked (``mechanisms.events.fire``'s ``rescore``)."""
        if "player" in self:
            for key in _TALLIES:
                del self[key]


_TALLIES = ("player", "side", "sides", "opponents")


class EventMatch:
    """The loop's match as ``mechanisms.events.fire`` reads and changes it (its
    ``Match``): the loop's own lists, brought up to date by ``GeneralLoop._fire`` before
    each call (a kernel or a rule example's position may set new ones on the loop)."""

    __slots__ = ("rules", "target", "side_of", "next_seat", "scores", "play_points",
                 "values")

    def __init__(self, core: GeneralLoop) -> None:
        self.rules = core.game.rules
        self.target = core.target
        self.side_of = core._side_of.__getitem__
        self.next_seat = core.next_seat.__getitem__   # the plain table (duties' bearers)


class Tally:
    """A seat or a side as formulas read them (``side.score``, ``player.doubles`` ...)."""

    __slots__ = ("seat", "index", "pips", "tiles", "drawn", "doubles", "players", "score",
                 "won", "rounds_won", "value")

    def __init__(self, seat: int = 0, index: int = 0, pips: int = 0, tiles: int = 0,
                 drawn: int = 0, doubles: int = 0, players: tuple = (), score: int = 0,
                 won: bool = False, rounds_won: int = 0, value: int = 0):
        self.seat = seat
        self.index = index
        self.pips = pips
        self.tiles = tiles
        self.drawn = drawn
        self.doubles = doubles
        self.players = players
        self.score = score
        self.won = won
        self.rounds_won = rounds_won
        self.value = value


def _opening_rules(rules) -> tuple[Opening, Opening]:
    """The opening rules of round 1 and of the later rounds (``mechanisms.opening``)."""
    return opening_rules.rule_of(rules, 1), opening_rules.rule_of(rules, 2)


class GeneralLoop:
    """A match under any ruleset: what the loop keeps between rounds, and a live view for
    ``engine.state.State`` between yields (``round``, ``leader``, ``hands``, ``deck``,
    ``board``, ``scores``, ``rec``)."""

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
        self.round = 0
        self.leader: int | None = None
        self.hands: list[int] = [0] * players
        self.deck: list[int] = []
        self.lead_rng = HashStream(seed, "lead")
        step = 1 if game.rules.direction == "left" else -1
        self.next_seat = tuple((s + step) % players for s in range(players))  # who plays next
        self.seat_turns = [0] * players   # each seat's turns this round (play.several)
        self.board = new_board(game.rules.spinner == "first_double", game.rules.layout,
                               game.rules.doubles == "across", players)
        self._side_of = self.game.side_of(self.players)
        ts = self.game.tileset
        self._tuples = tuple(zip(ts.low, ts.high, strict=True))   # tile index -> (low, high)
        self.play_points = [0] * len(self.teams)
        self.rounds_won = [0] * len(self.teams)
        self.written: tuple = (None, None)   # (settle, match_over) from kernel.settle
        # the variables' values for the round under way (engine.mechanisms.variables)
        self.values: dict[str, int] = starting(game.rules.variables)
        # match.ends_in_play: set by _fire when play-time points win the match mid-round
        self.in_play = game.rules.ends_in_play
        self.reached = False
        # the last round's seats and sides as it ended, kept when the lead formula reads them
        self.last_views: dict[str, tuple] = {}
        # what a turn may hold beyond the plain game's (mechanisms.turn_options), or None
        self.turn_rule = turn_options.rule_of(game.rules)
        self._owed: list[tuple[int, int]] = []   # events' next_draws, until _pay_draws
        self._event_match = EventMatch(self)   # what mechanisms.events.fire reads of it
        self._penalty = 0   # the tiles the declaration option just taken draws (draw)
        self.rows: list[list[int]] = []   # deal.blind: each seat's row, front first
        # the round's tiles on the table, kept only when an event reads them (board, line,
        # end_tiles: engine.mechanisms.table); None costs the placements one test
        self.table: table_rules.Table | None = None
        # what the mechanisms did over the match, for compare (explore.metrics'
        # MECHANISM_COUNTERS), by feature name; written into the result when not empty
        self.counters: dict[str, int] = {}
        # the duties pending this round (engine.mechanisms.duties); None: no event lays one
        self.duties: list[duty_rules.Duty] | None = (
            [] if any(e.duty is not None for e in game.rules.events) else None)
        # what _fits reads, resolved once: a turn asks no rule it does not use
        rules = game.rules
        self._turn_rules = (game.setup(players).value_mask, rules.layout is not None,
                            rules.restrictions, rules.if_none_allowed == "waive", ts,
                            ts.copies > 1, bool(rules.blind), rules.several is not None)

    # -- dealing -------------------------------------------------------------------------
    def _deal(self) -> tuple[list[int], list[int], int, int | None]:
        """(deck in order, hands, tiles dealt, fixed leader or None) of the next fixed deal."""
        ts = self.game.tileset
        d = self.deals.pop(0)
        deck, hands = [], []
        if ts.copies > 1:   # a name given twice is both copies (set.copies)
            return self._deal_copies(d)
        for hand in d.hands:
            idx = [ts.index[t] for t in hand]
            deck.extend(idx)
            hands.append(sum(1 << i for i in idx))
        dealt = len(deck)
        deck.extend(ts.index[t] for t in d.boneyard)
        seen = set(deck)
        deck.extend(i for i in range(ts.tile_count) if i not in seen)
        return deck, hands, dealt, d.leader

    def _leftover(self, hands: list[int], deck: list[int], dealt: int, leader: int,
                  given: bool) -> int:
        """``deal.leftover``: the tiles the hands leave go to the seat it names
        (``mechanisms.leftover``); the tiles dealt after. A deal ``given`` whole (a record
        replayed, a rule example) must hold them in that seat's hand already."""
        n, T = self.players, len(deck)
        seat = leftover_rule.receiver(self.game.rules.leftover, leader,
                                      self.next_seat.__getitem__, n)
        if given:
            want = leftover_rule.sizes(self.game.hand_size(n), n, T, seat)
            got = [h.bit_count() for h in hands]
            if got != want:
                raise DiagnosticError([Diagnostic(
                    "deal", f"the tiles left over go to seat {seat} (deal.leftover: "
                    f"{self.game.rules.leftover}): the hands must hold {want} tiles; the deal "
                    f"gives {got}", hint="deal the tiles left over into that seat's hand")])
            return dealt
        for t in deck[dealt:]:
            hands[seat] |= 1 << t
        return T
    def _deal_copies(self, d: Deal) -> tuple[list[int], list[int], int, int | None]:
        """``_deal`` for a set holding each tile more than once: each name takes the
        lowest copy not yet dealt, hands first, then the boneyard."""
        ts = self.game.tileset
        deck, hands, taken = [], [], 0
        for hand in d.hands:
            mask = 0
            for t in hand:
                i = ts.free_index(t, taken)
                taken |= 1 << i
                mask |= 1 << i
                deck.append(i)
            hands.append(mask)
        dealt = len(deck)
        for t in d.boneyard:
            i = ts.free_index(t, taken)
            taken |= 1 << i
            deck.append(i)
        deck.extend(i for i in range(ts.tile_count) if not taken >> i & 1)
        return deck, hands, dealt, d.leader

    def _deal_event(self, rnd_no: int, leader: int | None, hands: list[int], deck: list[int],
                    dealt: int) -> dict:
        return deal_event(self.game.tileset, rnd_no, leader, hands, deck, dealt,
                          bool(self.game.rules.blind))

    def _turn_up(self, deck: list[int], dealt: int, leader: int, board) -> int | None:
        """``deal.turn_up``: the stock's first tile laid as the line's first, and recorded;
        None when the deal left no stock (the leader opens from the hand)."""
        up = turn_up_rule.turned_up(True, deck[dealt:dealt + 1])
        if up is not None:
            tile = self._tuples[up]
            if self.game.rules.layout is not None:
                board.layout.place(tile, None)
            else:
                board.open_with(tile[0], tile[1], tile[0] == tile[1])
            if self.rec is not None:
                self.rec.append(turn_up_rule.record_event(tile))
        return up

    # -- tallies ---------------------------------------------------------------------------
    def _seat_tallies(self, drawn_by: list[int]) -> list[Tally]:
        value, pips = self.game.hand_value, self.game.hand_pips
        dmask = self.game.tileset.doubles_mask
        return [Tally(s, s, pips(h), h.bit_count(), drawn_by[s], (h & dmask).bit_count(),
                      value=value(h)) for s, h in enumerate(self.hands)]

    def _side_tallies(self, seats: list[Tally], won: int | None = None) -> list[Tally]:
        scores, rounds_won = self.scores, self.rounds_won
        if len(self.teams) == len(seats):   # individual play: a side is its one seat
            return [Tally(i, i, m.pips, m.tiles, m.drawn, m.doubles, (m,), scores[i], i == won,
                          rounds_won[i], m.value) for i, m in enumerate(seats)]
        out = []
        for i, team in enumerate(self.teams):
            members = tuple(seats[s] for s in team)
            out.append(Tally(team[0], i, sum([m.pips for m in members]),
                             sum([m.tiles for m in members]), sum([m.drawn for m in members]),
                             sum([m.doubles for m in members]), members, scores[i], i == won,
                             rounds_won[i], sum([m.value for m in members])))
        return out

    def _lead_by_formula(self, prev: tuple) -> int:
        """The next round's leader by ``lead.later``'s formula, from the last round's
        (leader, winner seat, winner side, last player, blocked)."""
        p_leader, p_wseat, p_wside, p_last, p_blocked = prev
        views = self.last_views
        return int(self.game.rules.later_leader_formula(environment.lead_names(
            self, leader=p_leader, winner_seat=p_wseat, winner_side=p_wside, last_player=p_last,
            last_side=self._side_of[p_last], blocked=p_blocked, seats=views.get("seats", ()),
            sides=views.get("sides", ())))) % self.players

    def _redeal_asked(self, rnd: int) -> bool:
        """``deal.redeal_if`` on the hands just dealt (``self.hands``)."""
        return bool(self.game.rules.redeal_if(environment.redeal_names(
            self, self._seat_tallies([0] * self.players), rnd)))

    def _tile(self, t: int) -> tuple[int, int]:
        return self._tuples[t]

    # -- opening ---------------------------------------------------------------------------
    def _allowed(self, op: Opening, hand: int, rnd: int) -> int:
        """The tiles of ``hand`` that ``op.allow`` accepts as the opening tile."""
        if op.allow is None:
            return hand
        tiles = [self._tile(t) for t in bits(hand)]
        env = environment.opening_names(self, tiles, self.game.rules.max_pip, rnd)
        out = 0
        for t, tile in zip(bits(hand), tiles, strict=True):
            env["tile"] = tile
            if op.allow(env):
                out |= 1 << t
        return out

    def _heaviest(self, hands: list[int]) -> tuple[int, int]:
        """(seat, tile) of the heaviest tile dealt (``heaviest_dealt``)."""
        return heaviest_dealt(self.game.tileset, hands)

    def _draws_one(self, op: Opening, hand: int, boneyard: list[int], rnd: int) -> bool:
        """Whether a leader holding ``hand`` draws an allowed tile from ``boneyard``."""
        for t in boneyard:
            hand |= 1 << t
            if self._allowed(op, hand, rnd) >> t & 1:
                return True
        return False

    def _open(self, op: Opening, hands: list[int], leader: int, deck: list[int], dealt: int,
              draw_end: int, rnd: int, NEXT: tuple[int, ...]) -> tuple:
        """(opener, opening mask, free, seek) for a round; opener None: redeal.

        ``free``: the opener may draw before opening (no tile is imposed). ``seek`` is
        None, or (mode, test): players draw ("turns") or the leader draws ("leader") until
        ``test(seat, tile)`` accepts the drawn tile (the leader drawing the boneyard out in
        vain: ``if_unheld: heaviest`` opens). Opener None with a seek: the leader draws the
        boneyard out in vain and the deal is thrown in (``if_lacking: draw`` as the schema
        says it: the leader cannot see which tiles the boneyard holds).
        """
        ts = self.game.tileset
        boneyard = deck[dealt:draw_end]
        if op.tile == "any":
            if op.allow is None:
                return leader, -1, True, None
            allowed = self._allowed(op, hands[leader], rnd)
            if allowed:
                return leader, allowed, True, None
            if op.if_lacking == "pass_on":
                s = NEXT[leader]
                while s != leader:
                    if self._allowed(op, hands[s], rnd):
                        return s, self._allowed(op, hands[s], rnd), True, None
                    s = NEXT[s]
            elif op.if_lacking == "draw":
                if boneyard:   # the leader draws until they hold one, or the boneyard is out
                    def fits(seat: int, t: int) -> bool:
                        return bool(self._allowed(op, self.hands[seat], rnd) >> t & 1)
                    if op.if_unheld == "heaviest" or self._draws_one(op, hands[leader],
                                                                     boneyard, rnd):
                        return leader, 0, False, ("leader", fits)
                    return None, 0, False, ("out", None)   # drawn out in vain: redeal
            else:
                return None, 0, False, None
            # nobody holds, or can draw, an allowed tile
            if op.if_unheld == "heaviest":
                seat, t = self._heaviest(hands)
                return seat, 1 << t, False, None
            if op.if_unheld == "draw_in_turn":
                def fits_any(seat: int, t: int) -> bool:
                    return bool(self._allowed(op, self.hands[seat], rnd) >> t & 1)
                if any(self._allowed(op, 1 << t, rnd) for t in boneyard):
                    return leader, 0, False, ("turns", fits_any)
            return None, 0, False, None
        opener, mask, seek = tile_opening(ts, op, hands, leader, boneyard)
        if seek:
            return opener, 0, False, ("turns", lambda seat, t: bool(seek >> t & 1))
        return opener, mask, False, None

    # -- the match -------------------------------------------------------------------------
    def run(self):  # noqa: C901 - one loop on purpose: this is the hot path
        g = self.game
        rules = g.rules
        ts = g.tileset
        n = self.players
        setup = g.setup(n)
        PM, TL, TH, PIPS = setup.value_mask, setup.low, setup.high, setup.pips
        draw_end, dealt_n = setup.draw_end, setup.dealt
        vol, stuck_draw, limit = setup.voluntary, setup.stuck_draws, setup.draw_limit
        play_on = setup.play_on
        deal = shuffler(self.seed, setup)
        pols = self.policies
        uniform = self.uniform or [getattr(pol, "uniform_bits", None) for pol in pols]
        more = self.more
        NEXT = self.next_seat
        first_op, later_op = _opening_rules(rules)
        events = rules.events
        ev_place = event_rules.rules_after(events, "place")
        ev_draw = event_rules.rules_after(events, "draw")
        ev_pass = event_rules.rules_after(events, "pass")
        pass_if_forbidden = rules.if_none_allowed == "pass"
        spinner = rules.spinner == "first_double"
        # what a turn may hold beyond the plain game's (mechanisms.turn_options), resolved
        # once: a ruleset without these tests constant locals and calls nothing
        turn_rule = self.turn_rule
        at_will = turn_rule is not None and turn_rule.at_will
        ends_turn = turn_rule is not None and turn_rule.ends_turn
        exactly = turn_rule.exactly if turn_rule is not None else 0
        tlimit = turn_options.turn_limit(turn_rule, limit) if turn_rule is not None else limit
        # moves of several tiles (mechanisms.several), resolved once: off, nothing is asked
        several_on = several.rule_of(rules) is not None
        queued: list[int] = []   # the rest of the several-tile move under way, last first
        multi: tuple = ()        # the several-tile moves offered at this decision
        move_n = 0               # that move's tiles (0: a move of one tile)
        move_names: tuple = ()   # a shaped board's ends as that move started (by name)
        seat_turns = self.seat_turns   # each seat's turns this round (first_turn)
        # a fit rule (mechanisms.matching) as tables: PM above is already its fitting
        # masks; TWO[v] the tiles that fit v two ways, LEAVE1/LEAVE2 what each way leaves
        fit_rule = g.fit is not None
        if fit_rule:
            _, TWO, LEAVE1, LEAVE2 = g.fit
        shaped = rules.layout is not None   # board.layout: every placement asks its Layout
        marking = shaped and rules.layout.markers   # a pass puts the passer's marker down
        fitting: list[int] = []
        rec = self.rec
        recording = rec is not None
        scores = self.scores
        play_points = self.play_points
        fire, facts_of = self._fire, self._event_facts
        owed = self._owed = []   # (rule, tiles) the next seat draws (events' next_draws)
        # a kernel's settlement and match end written out as code (kernel.settle), or None:
        # the interpreted methods below, the truth the written ones are tested against
        written_settle, written_match_over = self.written
        variables = rules.variables
        in_play = rules.ends_in_play   # the match may end mid-round (match.ends_in_play)
        keep_views = rules.lead_reads_seats
        # declarations and the hands shown at a round's end (mechanisms.declarations),
        # resolved once: a ruleset without them loops over two empty tuples
        declare_start = declarations.at(rules, "round_start")
        declare_place = declarations.at(rules, "after_place")
        place_due = any(d.due is not None for d in declare_place)   # some asked only if due
        showdown = rules.showdown is not None
        turn_up = rules.turn_up   # deal.turn_up: the stock's first tile starts the line
        blind = rules.blind       # deal.blind: hidden rows, played from the front
        rows: list[list[int]] = []
        stuck = False
        reads_table = rules.reads_table
        duties = self.duties
        # play.until: side_out (mechanisms.side_out), resolved once: the seats out this
        # round, and NEXT passing over them; off, a player's last tile is a domino as ever
        side_out_on = rules.play_until == "side_out"
        leftover_on = rules.leftover != "boneyard"   # deal.leftover (mechanisms.leftover)
        out: set[int] = set()
        plain_turn = plain_turn_of(g)   # the fits inline (hot); else _fits
        fits_of = self._fits
        prev = None   # (leader, winner seat, winner side, last player, blocked)
        over, match_win, capped = False, None, False
        rnd_no = self.first_round - 1
        while not over:
            rnd_no += 1
            if rnd_no > self.max_rounds:
                capped = True
                break
            self.round = rnd_no
            if side_out_on:   # every seat is in again
                out.clear()
                NEXT = self.next_seat
            op = first_op if rnd_no == 1 else later_op
            choice = rules.first_leader if rnd_no == 1 else rules.later_leader
            if prev is not None and choice == "formula":
                pre = self._lead_by_formula(prev)
            elif prev is not None and choice == "rotate":
                pre = NEXT[prev[0]]
            else:
                pre = leaders.before_deal("lot" if choice == "formula" else choice, n,
                                          self.lead_rng, ts, prev and prev[0], prev and prev[1],
                                          rules.lead_count_from)
            redeals = 0
            while True:
                given = bool(self.deals)
                if given:
                    deck, hands, dealt, fixed = self._deal()
                else:  # a shuffle: engine.streams.shuffler, the same for every loop
                    deck, hands = deal()
                    dealt, fixed = dealt_n, None
                self.hands = hands
                leader = fixed if fixed is not None else pre
                if leftover_on and leader is not None:   # the tiles the hands leave
                    dealt = self._leftover(hands, deck, dealt, leader, given)
                if leader is None:
                    if choice == "highest_double":
                        found = leaders.highest_double_holder(hands, ts)
                        leader = found[0] if found else None
                    else:
                        req = op.tile
                        if isinstance(req, tuple):
                            tile = ts.index[Tile(*req)]
                        else:
                            found = leaders.highest_double_holder(hands, ts)
                            tile = found[1] if found else ts.doubles_desc[0]
                        leader = leaders.holder(hands, tile)
                opener = seek = None
                if rules.redeal_if is not None and self._redeal_asked(rnd_no):
                    leader = None
                elif leader is not None:
                    opener, omask, free, seek = self._open(op, hands, leader, deck, dealt,
                                                           draw_end, rnd_no, NEXT)
                elif op.if_unheld == "heaviest":   # the lead's tile is in no hand: the
                    # opening's fallback decides, not a redeal; its opener leads the round
                    leader, t = self._heaviest(hands)
                    opener, omask, free, seek = leader, 1 << t, False, None
                if opener is not None:
                    break
                if seek is not None:   # the leader draws the boneyard out in vain (_open):
                    # the deal as dealt, the draws, then the next deal of the round
                    if recording:
                        rec.append(self._deal_event(rnd_no, leader, hands, deck, dealt))
                    self.deck, self.leader = deck, leader
                    for k in range(dealt, draw_end):
                        if pols[leader] is None:
                            yield Decision(player=leader, hand=hands[leader], can_draw=True,
                                           can_pass=False, phase=SEEK, drawn=0, pos=k)
                        t = deck[k]
                        hands[leader] |= 1 << t
                        if recording:
                            rec.append({"event": "draw", "player": leader,
                                        "tile": [TL[t], TH[t]]})
                elif recording:
                    rec.append(self._deal_event(rnd_no, None, hands, deck, dealt))
                redeals += 1
                if redeals > MAX_REDEALS:
                    raise DiagnosticError([Diagnostic(
                        "deal", f"round {rnd_no}: no deal could open after {MAX_REDEALS} "
                        "redeals; the opening or redeal rules can hardly ever be met")])
            self.hands, self.deck, self.leader = hands, deck, leader
            if recording:
                rec.append(self._deal_event(rnd_no, leader, hands, deck, dealt))
            board = self.board = new_board(spinner, rules.layout, rules.doubles == "across", n)
            table = self.table = table_rules.Table() if reads_table else None
            if duties is not None:   # every duty lapses with the round
                duties.clear()
            pos = dealt
            drawn_by = [0] * n
            passes = choices = seek_turns = extra_turns = skips = 0
            joined = 0   # tiles laid after the first of a several-tile move (play.several)
            if several_on:
                seat_turns[:] = [0] * n
            round_play = self._round_play = [0] * len(self.teams)
            up = None
            if turn_up:   # the stock's first tile starts the line (mechanisms.turn_up)
                up = self._turn_up(deck, dealt, leader, board)
                if up is not None:
                    pos += 1
                    opener, seek = turn_up_rule.stand_in(leader, NEXT.__getitem__, n), None
            if blind:   # the rows as dealt; the opener's front tile opens (mechanisms.blind)
                rows = self.rows = blind_rule.rows_of(deck, n, dealt // n)
                omask, free = 1 << blind_rule.front(rows[opener]), False
            reneged = [0] * n if showdown else None   # passes made while able to place
            if declare_start:
                for d in declare_start:   # the leader chooses, once the deal stands
                    env = self._declare_env(leader)
                    if pols[leader] is None:
                        k = yield Decision(player=leader, hand=hands[leader], can_draw=False,
                                           can_pass=False, phase=DECLARE, drawn=0, pos=pos,
                                           declaration=d, best=declarations.fixed(d, env))
                    else:
                        k = self._declare_pick(d, leader, env, uniform)
                    moved = self._declared(d, leader, k, env)
                    if moved is not None:   # an option's lead: that seat sets the first tile
                        if moved != leader:
                            self._count("leads_handed")
                        leader = opener = self.leader = moved
            # -- opening: draw (in turn, or the leader alone) for an allowed tile, then place it
            p = opener
            if seek is not None:
                mode, test = seek
                p = leader
                while True:
                    seek_turns += 1
                    if pols[p] is None:
                        yield Decision(player=p, hand=hands[p], can_draw=True, can_pass=False,
                                       phase=SEEK, drawn=0, pos=pos)
                    t = deck[pos]
                    pos += 1
                    hands[p] |= 1 << t
                    drawn_by[p] += 1
                    if recording:
                        rec.append({"event": "draw", "player": p, "tile": [TL[t], TH[t]]})
                    if test(p, t):
                        opener = p
                        omask = (1 << t) if op.tile != "any" else self._allowed(
                            op, hands[p], rnd_no)
                        break
                    if mode == "turns":
                        p = NEXT[p]
                    elif pos >= draw_end:  # drawn out in vain: the heaviest tile opens (_open)
                        opener, t = self._heaviest(hands)
                        omask = 1 << t
                        break
            p = opener
            drawn = 0
            while True:
                h = hands[p]
                if up is not None:   # turned up (deal.turn_up): the leader's turn comes next
                    t = up
                    break
                m = self._opening_moves(op, h, omask, free, rnd_no)
                can_draw = free and vol and pos < draw_end and drawn < limit
                if can_draw or m & (m - 1):
                    choices += 1
                pol = pols[p]
                urnd = uniform[p]
                if urnd is not None:
                    try:
                        k = (urnd() * m.bit_count()) >> 32
                    except StopIteration:
                        urnd = uniform[p] = more(p)
                        k = (urnd() * m.bit_count()) >> 32
                    while k:
                        m &= m - 1
                        k -= 1
                    a = ((m & -m).bit_length() - 1) << 2
                elif pol is None:
                    a = yield Decision(player=p, hand=h, can_draw=can_draw, can_pass=False,
                                       phase=OPEN, drawn=drawn, pos=pos, masks=(m, 0, 0, 0))
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
                if blind:
                    rows[p].pop(0)
                self._lay_tile(t, None)   # Board's update, as positions.fired asks it
                if recording:
                    rec.append({"event": "place", "player": p, "tile": [TL[t], TH[t]],
                                "end": None})
                if table is not None:
                    table.place((TL[t], TH[t]), None)
                break
            last_player, last_tile, last_both = p, t, False
            again = skip = 0
            npass = 0           # seats that passed since the last placement or draw (bits)
            idle = 0            # turns since then (passes and skipped turns)
            everyone = (1 << n) - 1
            idle_max = 2 * n    # turns with nobody placing or drawing that block the round
            domino = None
            turns_taken = 0

            run_passes = 0      # passes in a row (skips and extra turns count neither way)
            if several_on:
                queued.clear()   # a move cut short when the match was won mid-round
            if ev_place and up is None:
                again, skip = fire(ev_place, p, facts_of(p, pos, drawn_by, {
                    "tile": (TL[t], TH[t]), "opening": True, "both_ends": False,
                    "passes_in_row": 0, "drawn_this_turn": drawn}), not h)
                if in_play and self.reached:
                    npass = everyone   # ends the round below, unsettled
                elif owed:
                    pos = self._pay_draws(p, pos, draw_end, drawn_by)
            if declare_place and not (in_play and self.reached):
                asked = declare_place if not place_due else declarations.asked(
                    declare_place, self._declare_env(p, facts_of(p, pos, drawn_by, {
                        "tile": (TL[t], TH[t]), "opening": True, "both_ends": False,
                        "passes_in_row": 0, "drawn_this_turn": drawn})))
                for d in asked:   # after the opening tile too (mechanisms.declarations)
                    env = self._declare_env(p, facts_of(p, pos, drawn_by, {
                        "tile": (TL[t], TH[t]), "opening": True, "both_ends": False,
                        "passes_in_row": 0, "drawn_this_turn": drawn}))
                    if pols[p] is None:
                        k = yield Decision(player=p, hand=h, can_draw=False, can_pass=False,
                                           phase=DECLARE, drawn=drawn, pos=pos, declaration=d,
                                           best=declarations.fixed(d, env))
                    else:
                        k = self._declare_pick(d, p, env, uniform)
                    self._declared(d, p, k, env)
                    if self._penalty:   # an option's draw: taken at once
                        pos = self._declare_draws(d, p, pos, draw_end, drawn_by)
                        h = hands[p]
            if not h and not (in_play and self.reached):
                if side_out_on and self._goes_on(p, out):   # out; the round goes on
                    everyone &= ~(1 << p)
                    NEXT = side_out_rule.next_table(self.next_seat, out)
                else:
                    domino = p
            # -- turns
            while domino is None:
                if npass == everyone or idle >= idle_max:
                    break
                if several_on and queued:
                    joined += 1   # a several-tile move goes on: no new turn or decision
                elif again:
                    again -= 1
                    extra_turns += 1
                else:
                    p = NEXT[p]
                    while skip > 0 and idle < 2 * n:
                        skip -= 1
                        skips += 1
                        idle += 1
                        if recording:
                            rec.append({"event": "skip", "player": p})
                        p = NEXT[p]
                    if idle >= 2 * n:   # a skip completed two idle turns of the table
                        break
                turns_taken += 1
                if turns_taken > MAX_TURNS:
                    raise DiagnosticError([Diagnostic(
                        "round", f"round {rnd_no} did not end after {MAX_TURNS} turns: the "
                        "ruleset's events keep the round going forever")])
                h = hands[p]
                urnd = uniform[p]
                if not (several_on and queued):   # a move going on keeps its turn's draws
                    drawn = 0
                    if several_on:   # a turn begins (first_turn)
                        seat_turns[p] += 1
                while True:
                    if plain_turn:   # the line alone, none of the rules below: inline, the
                        # hot path, held to _fits by tests/test_decide.py
                        vals = board.values
                        count = board.count
                        if count == 2:
                            fit = [h & PM[vals[0]], h & PM[vals[1]]]
                            total = fit[0] | fit[1]
                        else:
                            fit = [h & PM[vals[0]], h & PM[vals[1]], h & PM[vals[2]],
                                   h & PM[vals[3]]]
                            total = fit[0] | fit[1] | fit[2] | fit[3]
                    else:   # a shaped board, restrictions, copies, rows, several tiles: _fits
                        vals, count, fit, fitting, total, multi, here, stuck = fits_of(
                            p, h, pos, rnd_no, queued)
                    # the turn's options now (mechanisms.turn_options, as decide asks):
                    # only a draw mid-way through an exact draw; a pass at will
                    if exactly or at_will:
                        draw_on, pass_ok = turn_options.now(
                            turn_rule, drawn, pos < draw_end and drawn < tlimit)
                    else:
                        draw_on = pass_ok = False
                    if total and not draw_on:
                        can_draw = vol and pos < draw_end and drawn < tlimit
                        if several_on and queued:   # the next tile of the move under way
                            a = queued.pop()
                            if shaped:   # its end by name, where it is open now
                                a = several.shaped_code(a, move_names, here)
                        elif shaped:   # a shaped board (board.layout): codes t << 8 | end
                            if (can_draw or pass_ok or total & (total - 1)
                                    or sum(1 for m in fit if m) > 1):
                                choices += 1
                            if urnd is not None:  # the uniform pick among all placements
                                nfit = 0
                                for m in fit:
                                    nfit += m.bit_count()
                                try:
                                    k = (urnd() * (nfit + pass_ok)) >> 32
                                except StopIteration:
                                    urnd = uniform[p] = more(p)
                                    k = (urnd() * (nfit + pass_ok)) >> 32
                                if k == nfit:   # a pass at will: the last option
                                    a = PASS
                                else:
                                    a = kth_placement(fit, [0] * count, k, 8)
                            elif pols[p] is None:
                                a = yield Decision(
                                    player=p, hand=h, can_draw=can_draw, can_pass=pass_ok,
                                    phase=PLAY, drawn=drawn, pos=pos, ends=tuple(vals),
                                    masks=tuple(fit), names=tuple(name for name, _ in here),
                                    several=multi)
                                if several_on:   # a move of several tiles: its first now
                                    a, move_n = several.start(multi, a, queued, SEVERAL)
                                    move_names = tuple(name for name, _ in here)
                            else:
                                raise DiagnosticError([Diagnostic(
                                    "bot", "a fast policy knows a line and its spinner only: a "
                                    "board.layout ruleset asks its bots step by step")])
                        else:
                            # two or more placements: two tiles, or one tile at two ends
                            if can_draw or pass_ok or total & (total - 1) or (
                                    fit[0] and fit[1] if count == 2 else
                                    (fit[0] != 0) + (fit[1] != 0) + (fit[2] != 0)
                                    + (fit[3] != 0) > 1):
                                choices += 1
                            if urnd is not None:  # the uniform pick among all placements
                                nfit = (fit[0].bit_count() + fit[1].bit_count() if count == 2
                                        else fit[0].bit_count() + fit[1].bit_count()
                                        + fit[2].bit_count() + fit[3].bit_count())
                                # a pass at will is one more option, the last
                                if fit_rule:   # a tile fitting an end two ways: two placements
                                    flips = [fit[x] & TWO[vals[x]] for x in range(count)]
                                    nfit += sum([m.bit_count() for m in flips])
                                try:
                                    k = (urnd() * (nfit + pass_ok)) >> 32
                                except StopIteration:
                                    urnd = uniform[p] = more(p)
                                    k = (urnd() * (nfit + pass_ok)) >> 32
                                if k == nfit:
                                    a = PASS
                                elif fit_rule:
                                    a = kth_placement(fit, flips, k)
                                else:
                                    e = 0
                                    m = fit[0]
                                    c = m.bit_count()
                                    while k >= c:   # the end holding the k-th placement
                                        k -= c
                                        e += 1
                                        m = fit[e]
                                        c = m.bit_count()
                                    while k:
                                        m &= m - 1
                                        k -= 1
                                    a = ((m & -m).bit_length() - 1) << 2 | e
                            else:
                                pol = pols[p]
                                masks = (fit[0], fit[1], 0, 0) if count == 2 else tuple(fit)
                                if pol is None and fit_rule:
                                    a = yield Decision(
                                        player=p, hand=h, can_draw=can_draw, can_pass=pass_ok,
                                        phase=PLAY, drawn=drawn, pos=pos,
                                        ends=(vals[0], vals[1], None, None) if count == 2
                                        else tuple(vals), masks=masks,
                                        flips=tuple(masks[x] & TWO[vals[x]] if x < count else 0
                                                    for x in range(4)), several=multi)
                                    if several_on:   # a move of several tiles: its first now
                                        a, move_n = several.start(multi, a, queued, SEVERAL)
                                elif pol is None:
                                    a = yield Decision(
                                        player=p, hand=h, can_draw=can_draw, can_pass=pass_ok,
                                        phase=PLAY, drawn=drawn, pos=pos,
                                        ends=(vals[0], vals[1], None, None) if count == 2
                                        else tuple(vals), masks=masks, several=multi)
                                    if several_on:   # a move of several tiles: its first now
                                        a, move_n = several.start(multi, a, queued, SEVERAL)
                                elif count == 2:
                                    a = pol(masks[0], masks[1], can_draw)
                                else:
                                    a = pol(*masks[:2], can_draw, masks[2], masks[3])
                        if a >= 0:
                            if shaped:
                                t, e = a >> 8, a & 255
                                last_both = sum(PM[v] >> t & 1 for v in vals) > 1
                                h ^= 1 << t
                                hands[p] = h
                                where = self._lay_tile(t, here[e][0], p)
                            else:
                                if fit_rule:   # the second way a tile fits (FLIP) or the first
                                    flip, a = a & FLIP, a & ~FLIP
                                    meets = (TH[a >> 2] if flip else TL[a >> 2]) if (
                                        TWO[vals[a & 3]] >> (a >> 2) & 1) else None
                                    leave = (LEAVE2 if flip else LEAVE1)[vals[a & 3]][a >> 2]
                                t, e = a >> 2, a & 3
                                if count == 2:
                                    last_both = bool(PM[vals[0]] >> t & PM[vals[1]] >> t & 1)
                                else:
                                    last_both = ((PM[vals[0]] >> t & 1) + (PM[vals[1]] >> t & 1)
                                                 + (PM[vals[2]] >> t & 1)
                                                 + (PM[vals[3]] >> t & 1)) > 1
                                h ^= 1 << t
                                hands[p] = h
                                dbl = TL[t] == TH[t]
                                if spinner and (board.spin_need > 0 or board.spin_need < 0 and dbl):
                                    if fit_rule:   # Board's update (as _lay_tile lays it)
                                        board.place(e, TL[t], TH[t], dbl, leave)
                                    else:
                                        board.place(e, TL[t], TH[t], dbl)
                                else:   # Board.place with nothing to do for a spinner, inline
                                    if fit_rule:
                                        vals[e] = leave
                                    else:
                                        vals[e] = PIPS[t] - vals[e]
                                    board.doubles[e] = dbl
                                    if e > 1:
                                        board.used[e] = True
                                    board.tiles += 1
                                where = END_NAMES[e]
                            if blind:
                                rows[p].pop(0)
                            if table is not None:
                                table.place((TL[t], TH[t]), where)
                            prior = run_passes    # the passes in a row before this one
                            npass = idle = run_passes = 0
                            last_player, last_tile = p, t
                            if recording:
                                rec.append({"event": "place", "player": p,
                                            "tile": [TL[t], TH[t]], "end": where})
                                if fit_rule and meets is not None:   # which way it lies
                                    rec[-1]["meets"] = meets
                                if several_on and move_n:   # one tile of a several-tile move
                                    rec[-1]["part"] = [move_n - len(queued), move_n]
                            if ev_place:
                                facts = facts_of(p, pos, drawn_by, {
                                    "tile": (TL[t], TH[t]), "opening": False,
                                    "both_ends": last_both, "passes_in_row": prior,
                                    "drawn_this_turn": drawn})
                                if duties:   # the duties this seat bears: met by this?
                                    self._duties_met(p, facts)
                                # a tile before a move's last: its turn may lapse
                                more_turns, skipped = fire(ev_place, p, facts, not h,
                                                           bool(queued))
                                again += more_turns
                                skip += skipped
                                if in_play and self.reached:
                                    npass = everyone   # the match is won: stop the round
                                    break
                                if owed:
                                    pos = self._pay_draws(p, pos, draw_end, drawn_by)
                            if declare_place:   # claims (mechanisms.declarations)
                                asked = declare_place if not place_due else \
                                    declarations.asked(declare_place, self._declare_env(
                                        p, facts_of(p, pos, drawn_by, {
                                            "tile": (TL[t], TH[t]), "opening": False,
                                            "both_ends": last_both, "passes_in_row": prior,
                                            "drawn_this_turn": drawn})))
                                for d in asked:
                                    env = self._declare_env(p, facts_of(p, pos, drawn_by, {
                                        "tile": (TL[t], TH[t]), "opening": False,
                                        "both_ends": last_both, "passes_in_row": prior,
                                        "drawn_this_turn": drawn}))
                                    if pols[p] is None:
                                        k = yield Decision(
                                            player=p, hand=h, can_draw=False, can_pass=False,
                                            phase=DECLARE, drawn=drawn, pos=pos,
                                            declaration=d, best=declarations.fixed(d, env))
                                    else:
                                        k = self._declare_pick(d, p, env, uniform)
                                    self._declared(d, p, k, env)
                                    if self._penalty:   # an option's draw, at once
                                        pos = self._declare_draws(d, p, pos, draw_end,
                                                                  drawn_by)
                                        h = hands[p]
                            if not h:
                                if side_out_on and self._goes_on(p, out):   # play.until
                                    everyone &= ~(1 << p)
                                    NEXT = side_out_rule.next_table(self.next_seat, out)
                                else:
                                    domino = p
                            break
                        forced = False
                    elif (stuck_draw or draw_on) and pos < draw_end and drawn < tlimit and not (
                            pass_if_forbidden and any(fitting)):
                        forced = not total
                        if pass_ok:   # draw, or pass at will
                            choices += 1
                        if pols[p] is None:
                            a = yield Decision(
                                player=p, hand=h, can_draw=True,
                                can_pass=pass_ok, phase=PLAY,
                                drawn=drawn, pos=pos, ends=(vals[0], vals[1], None, None)
                                if count == 2 else tuple(vals))
                            if a == PASS:   # a pass at will: the player could draw
                                forced = False
                        else:
                            a = DRAW
                    else:
                        if pols[p] is None:
                            yield Decision(
                                player=p, hand=h, can_draw=False, can_pass=True, phase=PLAY,
                                drawn=drawn, pos=pos, ends=(vals[0], vals[1], None, None)
                                if count == 2 else tuple(vals))
                        a = PASS
                        forced = True
                    if a == PASS:
                        if blind:   # a front tile that does not fit goes to the back
                            back = rows[p][0]
                            blind_rule.to_back(rows[p])
                            forced = blind_rule.counts_as_stuck(stuck)
                            idle -= 1   # no turn of a row is idle (mechanisms.blind)
                        passes += 1
                        if forced:   # a pass at will does not show the player is stuck
                            npass |= 1 << p
                        elif showdown and total:   # could place: found out at the showdown
                            reneged[p] += 1
                        idle += 1
                        run_passes += 1
                        if recording:
                            rec.append({"event": "pass", "player": p})
                            if blind:
                                rec[-1]["tile"] = [TL[back], TH[back]]
                        if marking and board.layout.passed(p):
                            # a train opened: the seats that passed may play on it now
                            npass, idle = (1 << p) if forced else 0, 1
                        if ev_pass:
                            _, skipped = fire(ev_pass, p, facts_of(p, pos, drawn_by, {
                                "passes_in_row": run_passes, "drawn_this_turn": drawn}))
                            skip += skipped
                            if in_play and self.reached:
                                npass = everyone
                        break
                    t = deck[pos]
                    pos += 1
                    h |= 1 << t
                    hands[p] = h
                    drawn += 1
                    drawn_by[p] += 1
                    prior = run_passes
                    npass = idle = run_passes = 0
                    if recording:
                        rec.append({"event": "draw", "player": p, "tile": [TL[t], TH[t]]})
                    if ev_draw:
                        more_turns, skipped = fire(ev_draw, p, facts_of(p, pos, drawn_by, {
                            "tile": (TL[t], TH[t]), "forced": forced, "passes_in_row": prior,
                            "drawn_this_turn": drawn}))
                        again += more_turns
                        skip += skipped
                        if in_play and self.reached:
                            npass = everyone
                            break
                    if ends_turn and turn_options.turn_over_after_draw(
                            turn_rule, pos < draw_end and drawn < tlimit):
                        break   # a draw that ends the turn (drawing.ends_turn)
                if duties and domino is None and not (in_play and self.reached):
                    pos = self._duties_failed(p, pos, draw_end, drawn_by)   # the turn is over
            # -- settlement
            blocked = domino is None
            if showdown and not (in_play and self.reached):
                self._show_hands(reneged, drawn_by)   # hands shown: penalties first
            # by name; the specialised kernel (kernel.specialise_loop) makes it in one step
            ended = RoundEnd(
                hands=hands, drawn_by=drawn_by, domino=domino, last_player=last_player,
                last_tile=last_tile, last_both=last_both, board=board, deck=deck, pos=pos,
                passes=passes, rnd=rnd_no, scores=scores, rounds_won=self.rounds_won)
            reached = in_play and self.reached
            if reached:   # play-time points won the match: the round stops unsettled
                pips = [g.hand_value(h) for h in hands]
                counts = [h.bit_count() for h in hands]
                wside, wseat, tied, points = None, None, False, [0] * len(self.teams)
            elif written_settle:   # a kernel's: kernel.settle, the same settlement
                pips, wside, wseat, tied, points = written_settle(ended)
                counts = [h.bit_count() for h in hands]
            else:
                seat_t = self._seat_tallies(drawn_by)
                pips = [s.value for s in seat_t]   # the record's "pips": hand values
                counts = [s.tiles for s in seat_t]
                wside, wseat, tied, points = self._settle(seat_t, ended)
            for i, pts in enumerate(points):
                scores[i] += pts
                play_points[i] += round_play[i]
            check_scores(scores)
            if wside is not None:
                self.rounds_won[wside] += 1
            if keep_views:   # what the next round's lead formula reads of this one
                seats_now = self._seat_tallies(drawn_by)
                self.last_views = {"seats": tuple(seats_now),
                                   "sides": tuple(self._side_tallies(seats_now, wside))}
            result = "target" if reached else "blocked" if blocked else "domino"
            if variables:   # the values the next round plays with
                self.values = after_round(variables, self.values, round_facts(
                    blocked and not reached, rnd_no, n, self.target, wside, points, scores))
            if recording:
                end = {"event": "round_end", "round": rnd_no, "result": result,
                       "winner": wside, "pips": pips, "points": list(points),
                       "scores": list(scores)}
                if events:
                    end["play_points"] = list(round_play)
                if variables:
                    end["variables"] = dict(self.values)
                rec.append(end)
            draws = sum(drawn_by)
            placements = pos - sum(counts) - (up is not None)   # a turned-up tile: nobody's
            # by name; the specialised kernel (kernel.specialise_loop) makes it in one step
            stats = RoundStats(
                round=rnd_no, leader=leader, result=result, winner=wside, winner_seat=wseat,
                tied_block=tied, points=tuple(points), scores=tuple(scores),
                turns=(placements + passes + seek_turns - 1 if seek is not None
                       else placements + passes) - joined,
                placements=placements, draws=draws, passes=passes,
                decisions=placements + draws + passes - joined, choice_points=choices,
                redeals=redeals,
                play_points=tuple(round_play) if events else (), extra_turns=extra_turns,
                skips=skips)
            self.rounds.append(stats)
            prev = (leader, wseat, wside, last_player, blocked)
            if written_match_over:
                over, match_win = written_match_over(rnd_no, scores, self.rounds_won)
            else:
                over, match_win = self._match_over(rnd_no, play_on)
        if over:
            self._final(match_win, rnd_no)
        if recording:
            rec.append({"event": "match_end", "winner": match_win, "scores": list(scores)})
        result = _new(MatchResult)
        _set(result, "__dict__", {
            "ruleset": rules.name, "players": n, "seed": self.seed, "teams": self.teams,
            "winner": match_win, "scores": tuple(scores), "target": self.target,
            "rounds": tuple(self.rounds), "events": rec, "capped": capped})
        if variables:   # the variables as the match ended (explore.metrics reads it)
            self.counters["variables_final"] = sum(self.values.values())
        if self.counters:
            result.__dict__["counters"] = dict(self.counters)
        self.result = result

    # -- play-time events -----------------------------------------------------------------
    def _fire(self, rules_of: tuple, actor: int, facts: EventFacts, ends_round: bool = False,
              goes_on: bool = False) -> tuple[int, int]:
        """The events of one action, as ``mechanisms.events.fire`` decides them (points
        now, variables set, the match won in play, turns granted and skipped, the next
        seat's draws owed, duties laid), written into the record and the match: (turns
        granted, seats skipped).

        ``ends_round``: the action empties the actor's hand (a domino): what it would grant
        lapses (docs/house-rules.md). ``goes_on``: a tile of a move that goes on
        (``several.again_lapses``)."""
        match = self._event_match
        match.scores, match.play_points, match.values = self.scores, self._round_play, self.values
        fired = fire_events(match, actor, "", facts, ends_round, goes_on, rules_of,
                            EventFacts.rescore, self.rec)
        if fired is NOTHING_FIRED:   # (most actions: no rule's condition holds)
            return 0, 0
        if fired.reached is not None:
            self.reached = True   # the match is won now: the rest of the action lapsed
        if fired.sets:
            self._count("variable_sets", len(fired.sets))
        if fired.draws:   # drawn by run (_pay_draws)
            self._owed += fired.draws
        if fired.duties:   # on duty.on's seats (mechanisms.duties)
            self.duties += fired.duties
            self._count("duties_laid", len(fired.duties))
        return len(fired.again), fired.skips

    def _lay_tile(self, t: int, at: int | str | None, seat: int | None = None,
                  leave: int | None = None) -> str | None:
        """Tile ``t`` goes down: the opening tile (``at`` None), at end ``at`` of the line
        (an index; ``leave``: the number a fit rule leaves open) or at a shaped board's
        end of that name, by ``seat``. Board's update as ``run`` lays each tile (the
        opening tile and a shaped board's through here; a line's by ``Board.place``, or
        inline on the hot path when no spinner is due), and as a rule example's position
        lays its action (``positions.fired``); the end's name, as the record writes it."""
        board = self.board
        low, high = self._tuples[t]
        if at is None:
            if isinstance(board, ShapedBoard):
                board.layout.place((low, high), None)
            else:
                board.open_with(low, high, low == high)
            return None
        if isinstance(at, str):
            board.layout.place((low, high), at, seat=seat)
            return at
        if leave is None:
            board.place(at, low, high, low == high)
        else:
            board.place(at, low, high, low == high, leave)
        return END_NAMES[at]

    def _goes_on(self, seat: int, out: set[int]) -> bool:
        """``play.until: side_out``: ``seat`` emptied its hand; while a partner holds tiles
        it is out (written) and the round goes on (``mechanisms.side_out``)."""
        hands = self.hands
        if not side_out_rule.goes_on("side_out", self.teams[self._side_of[seat]],
                                     lambda s: bool(hands[s])):
            return False
        out.add(seat)
        if self.rec is not None:
            self.rec.append(side_out_rule.out_line(seat))
        return True

    def _count(self, name: str, k: int = 1) -> None:
        """One more of what a mechanism did, for compare (explore.metrics)."""
        self.counters[name] = self.counters.get(name, 0) + k

    def _duties_met(self, seat: int, facts: EventFacts) -> None:
        """The duties ``seat`` bears that its placement meets: gone, each written."""
        for duty in duty_rules.met_by(self.duties, self.game.rules.events, seat, facts):
            self._count("duties_met")
            if self.rec is not None:
                self.rec.append(duty_rules.met_line(duty))

    def _duties_failed(self, seat: int, pos: int, draw_end: int, drawn_by: list[int]) -> int:
        """``seat``'s turn ended with duties it bore unmet: each fails, costs its points and
        draws, and passes on or lapses (``mechanisms.duties``); the deck position after."""
        events, rec = self.game.rules.events, self.rec
        for duty, passed_to in duty_rules.failed_at_turn_end(self.duties, events, seat,
                                                             self.next_seat[seat]):
            self._count("duties_failed")
            rule = events[duty.rule].duty
            if rec is not None:
                rec.append(duty_rules.failed_line(duty, passed_to))
            if rule.fail_points:
                side = self._side_of[seat]
                self.scores[side] += rule.fail_points
                self._round_play[side] += rule.fail_points
                if rec is not None:
                    rec.append({"event": "score", "player": seat, "side": side,
                                "points": rule.fail_points, "rule": duty.rule})
            for _ in range(event_rules.tiles_taken(rule.fail_draws, draw_end - pos)):
                t = self.deck[pos]
                pos += 1
                self.hands[seat] |= 1 << t
                drawn_by[seat] += 1
                if rec is not None:
                    rec.append({"event": "draw", "player": seat, "tile": list(self._tuples[t]),
                                "rule": duty.rule})
        return pos

    def _table_names(self) -> dict[str, tuple]:
        """``board``, ``line`` and ``end_tiles`` of the table now (``mechanisms.table``)."""
        board = self.board
        if isinstance(board, ShapedBoard):   # an arm nobody played on: its double
            return table_rules.names(self.table, [(name, end.root)
                                                  for name, end in board.layout.ends.items()])
        spinner = (board.spin_value, board.spin_value)
        return table_rules.names(self.table, [(END_NAMES[e], spinner)
                                              for e in range(board.count)])

    def _pay_draws(self, actor: int, pos: int, draw_end: int, drawn_by: list[int]) -> int:
        """The tiles the events of ``actor``'s placement make the next seat draw
        (``next_draws``), taken now; the deck position after them."""
        victim = self.next_seat[actor]
        deck, hands, tiles, rec = self.deck, self.hands, self._tuples, self.rec
        for rule, owed in self._owed:
            for _ in range(event_rules.tiles_taken(owed, draw_end - pos)):
                t = deck[pos]
                pos += 1
                hands[victim] |= 1 << t
                drawn_by[victim] += 1
                if rec is not None:
                    rec.append({"event": "draw", "player": victim, "tile": list(tiles[t]),
                                "rule": rule})
        self._owed.clear()
        return pos

    def _several(self, queued: list[int], fit: list[int], total: int, h: int, pos: int,
                 rnd: int, seat: int | None = None) -> tuple[list[int], int, tuple]:
        """The single placements ``play.several`` leaves (``alone``), their union (a bit above
        every tile for each several-tile move, so a lone such move is still a placement) and
        the several-tile moves (``mechanisms.several.line_moves``). Mid-move: as they are.
        ``seat``: whose turn (``first_turn``); on a shaped board, ``_several_shaped``."""
        if queued:
            return fit, total, ()
        if isinstance(self.board, ShapedBoard):
            return self._several_shaped(fit, h, pos, rnd, seat)
        rule, g, n = self.game.rules.several, self.game, self.players
        first = seat is not None and several.first_turn(self.seat_turns[seat])
        setup = g.setup(n)
        PM, tiles, board = setup.value_mask, self._tuples, self.board
        boneyard = len(self.deck) - pos
        restricted, waive = g.rules.restrictions, g.rules.if_none_allowed == "waive"

        def allowed(hand: int, b: Board) -> list[int]:
            vals = b.values
            f = [hand & PM[vals[e]] for e in range(b.count)]
            if restricted:
                f = allowed_at(g, tiles, f, vals, b.ends(), hand, boneyard, rnd, n, waive)
            return f

        def facts(hand: int, b: Board, t: int, e: int) -> dict:
            fits = 0
            for v in b.ends():
                fits |= hand & PM[v]
            return several.placement_env(tiles[t], b.values[e], [tiles[u] for u in bits(hand)],
                                         [tiles[u] for u in bits(fits)], b.ends(), boneyard,
                                         rnd, n, first)

        fitted = g.fit   # a fit rule's tables: what each way of a tile leaves open

        def place(b: Board, t: int, e: int, flip: bool = False) -> Board:   # as the loop lays it
            after = Board(b.spinner, b.across)
            for name in Board.__slots__:
                value = getattr(b, name)
                setattr(after, name, list(value) if isinstance(value, list) else value)
            low, high = tiles[t]
            if fitted is None:
                after.place(e, low, high, low == high)
            else:
                after.place(e, low, high, low == high, fitted[3 if flip else 2][b.values[e]][t])
            return after

        def key(b: Board) -> tuple:
            return (tuple(b.values), tuple(b.doubles), b.count, b.spin_need)

        def double(code: int) -> bool:
            low, high = tiles[(code & several.CODE) >> 2]
            return low == high

        two = None if fitted is None else lambda b, e: fitted[1][b.values[e]]
        multi = tuple(several.line_moves(rule, h, board, board.count, allowed, facts, place,
                                         key, double, two))
        if g.tileset.copies > 1:   # a move by the same tiles' other copies: listed once
            multi = several.distinct(multi, lambda c: (tiles[(c & several.CODE) >> 2],
                                                       c & ~several.CODE | c & 3))
        fit = several.alone_masks(rule, fit, h, board, facts)
        return fit, several.union(fit, multi, len(tiles)), multi

    def _several_shaped(self, fit: list[int], h: int, pos: int, rnd: int, seat: int
                        ) -> tuple[list[int], int, tuple]:
        """``_several`` on a shaped board (``board.layout``): the moves of several tiles as
        ``mechanisms.several.moves`` finds them, each tile judged as the loop judges one
        placement (the fit, the restrictions) on a copy of the layout with the tiles before
        it laid; each a tuple of codes ``t << 8 | e``, ``e`` the end's index among those
        open when the move starts (``shaped_code`` finds it again as the move goes on)."""
        rule, g, n = self.game.rules.several, self.game, self.players
        PM, tiles = g.setup(n).value_mask, self._tuples
        boneyard = len(self.deck) - pos
        restricted, waive = g.rules.restrictions, g.rules.if_none_allowed == "waive"
        first = several.first_turn(self.seat_turns[seat])
        start = self.board.layout
        index = {name: e for e, (name, _) in enumerate(start.playable(seat))}

        def judged(hand: int, lay: Any) -> tuple[list, list[int]]:
            here = lay.playable(seat)
            vals = [v for _, v in here]
            f = [hand & PM[v] for v in vals]
            if restricted:
                f = allowed_at(g, tiles, f, vals, lay.ends_tuple(), hand, boneyard, rnd, n,
                               waive, lay.facts(here))
            return here, f

        def facts(hand: int, lay: Any, here: list, name: str) -> dict:
            """The names of every tile going on ``name`` now; the caller sets ``tile``."""
            fits = 0
            for _, v in here:
                fits |= hand & PM[v]
            return several.placement_env(
                (0, 0), lay.ends[name].value, [tiles[u] for u in bits(hand)],
                [tiles[u] for u in bits(fits)], lay.values(), boneyard, rnd, n, first,
                lay.own_train(name, seat))

        def steps(state: tuple, name: str) -> list:
            hand, lay = state
            here, f = judged(hand, lay)
            out = []
            for e, (at, _) in enumerate(here):
                if at != name or not f[e]:
                    continue
                env = facts(hand, lay, here, name) if rule.tiles is not None else None
                for t in bits(f[e]):
                    if env is not None:
                        env["tile"] = tiles[t]
                    if env is None or several.tile_allowed(rule, env):
                        after = lay.copy()
                        after.place(tiles[t], name, seat=seat)
                        out.append((t << 8 | index[name], (hand & ~(1 << t), after)))
            return out

        multi = tuple(several.moves(rule, list(index), (h, start), steps, h.bit_count(),
                                    lambda state: (state[0], repr(state[1].ends)),
                                    lambda code: tiles[code >> 8][0] == tiles[code >> 8][1]))
        if g.tileset.copies > 1:   # a move by the same tiles' other copies: listed once
            multi = several.distinct(multi, lambda c: (tiles[c >> 8], c & 255))
        if rule.alone is not None:   # the single placements that may go down alone
            here, _ = judged(h, start)
            fit = [sum(1 << t for t in bits(m) if several.alone_allowed(
                rule, {**facts(h, start, here, here[e][0]), "tile": tiles[t]}))
                for e, m in enumerate(fit)]
        return fit, several.union(fit, multi, len(tiles)), multi

    def _event_facts(self, actor: int, pos: int, drawn_by: list[int], extra: dict
                     ) -> EventFacts:
        """What an event's formulas read; each fact is computed only if one reads it."""
        facts = EventFacts(extra)
        facts.core, facts.actor, facts.pos, facts.drawn_by = self, actor, pos, drawn_by
        return facts

    # -- declarations (engine.mechanisms.declarations) -------------------------------------
    def _declare_env(self, seat: int, facts: EventFacts | None = None) -> dict:
        """What a declaration's formulas read: the options' names (kind ``declare``), and
        after a placement the placement's event names too (``worth``, kind ``claim``)."""
        hand = [self._tuples[t] for t in bits(self.hands[seat])]
        base = environment.option_names(self, hand, seat)
        if facts is None:
            return base
        facts.update(base)
        return facts

    def _declare_pick(self, d: Any, seat: int, env: dict, uniform: list) -> int:
        """A seat that decides in the loop: the uniform pick on its words (``random``), else
        the fixed policy."""
        urnd = uniform[seat]
        if urnd is None:
            return declarations.fixed(d, env)
        try:
            word = urnd()
        except StopIteration:
            urnd = uniform[seat] = self.more(seat)
            word = urnd()
        return declarations.uniform(d, word)

    def _declared(self, d: Any, seat: int, k: int, env: dict) -> int | None:
        """Option ``k`` taken: its variables, its points, its record line; the seat it hands
        the first tile to (an option's ``lead``), or None."""
        done = declarations.outcome(d, k, env, self.values, self._side_of[seat],
                                    len(self.teams))
        self.values = done.values
        for s, pts in enumerate(done.points):
            self.scores[s] += pts
        if self.rec is not None:
            self.rec.append(declarations.event(seat, d, k, done))
        self._penalty = done.draws
        return done.lead

    def _declare_draws(self, d: Any, seat: int, pos: int, draw_end: int,
                       drawn_by: list[int]) -> int:
        """The tiles the option just taken makes its chooser draw (``draw``), at once; the
        deck position after them."""
        for _ in range(event_rules.tiles_taken(self._penalty, draw_end - pos)):
            t = self.deck[pos]
            pos += 1
            self.hands[seat] |= 1 << t
            drawn_by[seat] += 1
            if self.rec is not None:
                self.rec.append(declarations.draw_line(seat, d, list(self._tuples[t])))
        self._penalty = 0
        return pos

    def _show_hands(self, reneged: list[int], drawn_by: list[int]) -> None:
        """``showdown``: every seat that passed while able to place pays, before the round
        is settled."""
        seats = self._seat_tallies(drawn_by)

        def env_of(seat: int) -> dict:
            return environment.showdown_names(self, seats[seat])

        side_of = self._side_of
        for seat, count, points in declarations.penalties(
                self.game.rules.showdown, reneged, env_of, lambda s: side_of[s],
                len(self.teams)):
            for s, pts in enumerate(points):
                self.scores[s] += pts
            if self.rec is not None:
                self.rec.append(declarations.penalty_event(seat, count, points))

    # -- a seat's decision: the one truth of a turn (the loop and engine.positions) ----------
    # The loop asks _fits at every turn but the plainest (the line, none of its rules: that
    # case is inline in run, held to _fits by tests/test_decide.py) and _opening_moves at
    # every opening; positions.py asks decide / decide_opening, which build the Decision
    # from them as run yields it. A new placement rule is written in _fits alone.
    def _fits(self, p: int, h: int, pos: int, rnd: int, queued: list[int]) -> tuple:
        """(vals, count, fit, fitting, total, multi, here, stuck) for seat ``p`` holding
        ``h`` with the next boneyard tile at ``pos``: the ends' values and how many, the
        tiles each end takes (fitted, narrowed by the restrictions, one copy of a doubled
        tile, a blind row's front tile, what ``play.several`` leaves alone), the fitting
        tiles before the restrictions (``()`` without them), their union (with
        ``_several``'s bits), the several-tile moves, a shaped board's (name, value) ends
        open to ``p`` (else None), and whether a blind row's seat could place nothing."""
        PM, shaped, restricted, waive, ts, dup, blind, several_on = self._turn_rules
        board = self.board
        fitting: Any = ()
        here = None
        if shaped:   # the ends open now, as the layout says (answered arms first)
            here = board.layout.playable(p)   # the ends open to this seat
            vals = [v for _, v in here]
            count = len(vals)
            fit = [h & PM[v] for v in vals]
            if restricted:
                fitting = fit
                fit = allowed_at(self.game, self._tuples, fit, vals, board.ends(), h,
                                 len(self.deck) - pos, rnd, self.players, waive,
                                 board.layout.facts(here))
            total = 0
            for m in fit:
                total |= m
        else:
            vals = board.values
            count = board.count
            if count == 2:
                fit = [h & PM[vals[0]], h & PM[vals[1]]]
            else:
                fit = [h & PM[vals[0]], h & PM[vals[1]], h & PM[vals[2]], h & PM[vals[3]]]
            if restricted:
                fitting = fit
                fit = allowed_at(self.game, self._tuples, fit, vals, board.ends(), h,
                                 len(self.deck) - pos, rnd, self.players, waive)
            total = fit[0] | fit[1] if count == 2 else fit[0] | fit[1] | fit[2] | fit[3]
        if dup:   # a tile held twice is one move, its first copy (set.copies)
            fit = [ts.canonical(m) for m in fit]
            total = ts.canonical(total)
        stuck = False
        if blind:   # hidden rows: the front tile alone (mechanisms.blind)
            stuck = not total
            front = 1 << blind_rule.front(self.rows[p])
            fit = [m & front for m in fit]
            total &= front
        multi: tuple = ()
        if several_on:   # moves of several tiles beside the single ones
            fit, total, multi = self._several(queued, fit, total, h, pos, rnd, p)
        return vals, count, fit, fitting, total, multi, here, stuck

    def _opening_moves(self, op: Opening, h: int, omask: int, free: bool, rnd: int) -> int:
        """The tiles the opener holding ``h`` may open with, from ``_open``'s mask and
        ``free`` (-1: any tile; free: those ``op.allow`` accepts), a doubled tile once."""
        m = h if omask < 0 else self._allowed(op, h, rnd) if free else omask
        ts = self.game.tileset
        return ts.canonical(m) if ts.copies > 1 else m

    def decide(self, p: int, drawn: int, pos: int, draw_end: int) -> Decision:
        """Seat ``p``'s decision at its turn of play now (``drawn`` tiles drawn this turn,
        the next boneyard tile at ``pos``, none drawn from ``draw_end`` on), the Decision
        ``run`` yields there: for a position that no match led to (rule examples)."""
        g = self.game
        rules = g.rules
        setup = g.setup(self.players)
        h = self.hands[p]
        vals, count, fit, fitting, total, multi, here, _ = self._fits(p, h, pos, self.round, [])
        rule = self.turn_rule   # the turn's options now, as run asks them (turn_options)
        limit = setup.draw_limit if rule is None else turn_options.turn_limit(
            rule, setup.draw_limit)
        may_draw = pos < draw_end and drawn < limit
        draw_on, pass_ok = (False, False) if rule is None else turn_options.now(
            rule, drawn, may_draw)
        ends = (vals[0], vals[1], None, None) if count == 2 else tuple(vals)
        if total and not draw_on:
            can_draw = setup.voluntary and may_draw
            if here is not None:
                return Decision(player=p, hand=h, can_draw=can_draw, can_pass=pass_ok,
                                phase=PLAY, drawn=drawn, pos=pos, ends=tuple(vals),
                                masks=tuple(fit), names=tuple(name for name, _ in here),
                                several=multi)
            masks = tuple(fit) + (0,) * (4 - count)
            if g.fit is not None:   # the tiles that fit an end two ways
                two = g.fit[1]
                return Decision(player=p, hand=h, can_draw=can_draw, can_pass=pass_ok,
                                phase=PLAY, drawn=drawn, pos=pos, ends=ends, masks=masks,
                                flips=tuple(masks[x] & two[vals[x]] if x < count else 0
                                            for x in range(4)), several=multi)
            return Decision(player=p, hand=h, can_draw=can_draw, can_pass=pass_ok,
                            phase=PLAY, drawn=drawn, pos=pos, ends=ends, masks=masks,
                            several=multi)
        if (setup.stuck_draws or draw_on) and may_draw and not (
                rules.if_none_allowed == "pass" and any(fitting)):
            return Decision(player=p, hand=h, can_draw=True, can_pass=pass_ok,
                            phase=PLAY, drawn=drawn, pos=pos, ends=ends)
        return Decision(player=p, hand=h, can_draw=False, can_pass=True, phase=PLAY,
                        drawn=drawn, pos=pos, ends=ends)

    def decide_opening(self, p: int, drawn: int, draw_end: int) -> Decision | None:
        """Seat ``p``'s decision when the round is to open, its boneyard ``self.deck[:draw_end]``
        (the round's ``_open`` with ``p`` leading): drawing for an opening tile (SEEK),
        opening (OPEN), or None when ``p`` is not the one to act."""
        rules = self.game.rules
        first, later = _opening_rules(rules)
        op = first if self.round == 1 else later
        deck = self.deck
        opener, omask, free, seek = self._open(op, self.hands, p, deck, 0, draw_end,
                                               self.round, self.next_seat)
        h = self.hands[p]
        if seek is not None and draw_end > 0:   # the leader (or each in turn) draws for one
            return Decision(player=p, hand=h, can_draw=True, can_pass=False, phase=SEEK,
                            drawn=drawn, pos=0)
        if opener != p:
            return None
        m = self._opening_moves(op, h, omask, free, self.round)
        if not m:
            return None
        setup = self.game.setup(self.players)
        can_draw = free and setup.voluntary and 0 < draw_end and drawn < setup.draw_limit
        return Decision(player=p, hand=h, can_draw=can_draw, can_pass=False, phase=OPEN,
                        drawn=drawn, pos=0, masks=(m, 0, 0, 0))

    # -- legality --------------------------------------------------------------------------
    def why_forbidden(self, seat: int, t: int, e: int) -> str | None:
        """The ``explain`` of the first restriction that forbids tile ``t`` at end ``e`` now."""
        board = self.board
        PM = self.game.setup(self.players).value_mask
        env = self._restriction_env(seat, [PM[board.values[x]] for x in range(board.count)])
        restrictions.at(env, self._tile(t), board.values[e] if e < board.count else 0)
        return restrictions.forbidding(self.game.rules.restrictions, env)

    def why_forbidden_on(self, seat: int, t: int, name: str) -> str | None:
        """``why_forbidden`` on a ``board.layout`` board: tile ``t`` on the end ``name``."""
        layout = self.board.layout
        PM = self.game.tileset.value_mask
        arms, complete, doubles = layout.facts([(name, 0)])
        env = self._restriction_env(seat, [PM[value] for _, value in layout.playable(seat)],
                                    (complete, doubles))
        restrictions.at(env, self._tile(t), layout.ends[name].value, arms[0])
        return restrictions.forbidding(self.game.rules.restrictions, env)

    def _restriction_env(self, seat: int, fits: list[int],
                         board: tuple[bool, int] | None = None) -> dict:
        """``restrictions.placement_env`` for ``seat`` now, its tiles fitting an end showing
        each of ``fits``' values (masks) playable."""
        h = self.hands[seat]
        playable = 0
        for m in fits:
            playable |= h & m
        return restrictions.placement_env(
            [self._tile(u) for u in bits(h)], [self._tile(u) for u in bits(playable)],
            self.board.ends(), len(self.deck), self.round, self.players, board)

    # -- settlement ------------------------------------------------------------------------
    def _settle(self, seats: list[Tally], ended: RoundEnd
                ) -> tuple[int | None, int | None, bool, list[int]]:
        """(winner side, winner seat, tied, points per side) by the general settlement, of
        the seats' tallies and the round's end (its ``scores`` are ``self.scores``)."""
        rules = self.game.rules
        g = self.game
        domino, last_player, board, deck, pos = (ended.domino, ended.last_player, ended.board,
                                                 ended.deck, ended.pos)
        drawn_by, rnd = ended.drawn_by, ended.rnd
        NEXT = self.next_seat
        draw_cost = g.draw_cost(self.players)
        teams = self.teams
        side_of = g.side_of(self.players)
        sides = self._side_tallies(seats)
        facts = Facts(environment.settlement_names(
            self, rnd, blocked=domino is None, last_tile=self._tile(ended.last_tile),
            last_player=seats[last_player], both_ends=ended.last_both, passes=ended.passes,
            drawn=sum(drawn_by), seats=seats))
        facts["sides"] = tuple(sides)

        def make(key: str) -> Any:
            if key == "ends":
                return board.ends()
            if key == "end_total":
                return board.end_total()
            if key == "boneyard":
                return len(deck) - pos
            if key == "boneyard_value":
                return sum(g.values[t] for t in deck[pos:])
            if key == "boneyard_pips":
                return sum(g.tileset.pips[t] for t in deck[pos:])
            raise KeyError(key)
        facts.make = make
        points = [0] * len(teams)
        wside = wseat = None
        tied = False
        if domino is not None and rules.domino_winner == "dominoer":
            wseat, wside = domino, side_of[domino]
            lowest = [wside]
        else:
            among = list(range(len(teams)))
            if rules.blocked_among == "last_two":
                among = sorted({side_of[last_player], side_of[NEXT[last_player]]})
            how = rules.blocked_winner
            if how == "lowest_hand":
                rank = [min(m.value for m in sides[i].players) for i in among]
            elif how == "lowest_side":
                rank = [sides[i].value for i in among]
            else:
                rank = []
                for i in among:
                    facts["side"] = sides[i]
                    rank.append(int(rules.blocked_rank(facts)) if rules.blocked_rank
                                else sides[i].value)
            best = max(rank) if how == "highest" else min(rank)
            lowest = [i for i, r in zip(among, rank, strict=True) if r == best]
            if len(lowest) > 1:
                pick = None
                if rules.blocked_tie == "last_player":
                    pick = side_of[last_player]
                elif rules.blocked_tie == "next_player":
                    pick = side_of[NEXT[last_player]]
                if pick is not None and pick in lowest:
                    lowest = [pick]
            if len(lowest) == 1:
                wside = lowest[0]
                if domino is not None and side_of[domino] == wside:
                    wseat = domino
                else:
                    team = teams[wside]
                    low = min(seats[s].value for s in team)
                    wseat = min(s for s in team if seats[s].value == low)
            else:
                tied = True
        formula = rules.domino_formula if domino is not None else rules.blocked_formula
        scorers = lowest if (wside is not None or rules.blocked_tie == "each") else []
        for i in scorers:
            facts.update(environment.scorer_names(sides, i))
            points[i] = int(formula(facts))
        if rules.every_side is not None:
            for s in sides:   # every side knows the round's winner before any scores
                s.won = s.index == wside
            for s in sides:
                facts["side"] = s
                points[s.index] += int(rules.every_side(facts))
        if draw_cost:
            paid = 0
            for s in range(self.players):
                if drawn_by[s]:
                    points[side_of[s]] -= draw_cost * drawn_by[s]
                    paid += draw_cost * drawn_by[s]
            if rules.draw_cost_to == "round_winner" and wside is not None:
                points[wside] += paid
        scores = self.scores
        for i in range(len(points)):
            if rules.minimum_to_start and scores[i] == 0 and points[i] < rules.minimum_to_start:
                points[i] = 0
            if rules.exact_target and rules.match_end == "points" \
                    and scores[i] + points[i] > self.target:
                points[i] = 0
        return wside, wseat, tied, points

    # -- the match's end -------------------------------------------------------------------
    def _match_over(self, rnd: int, play_on: bool) -> tuple[bool, int | None]:
        rules = self.game.rules
        scores = self.scores
        target = self.target
        if rules.match_end == "rounds_won":
            top = max(self.rounds_won)
            if top >= target:
                return True, self.rounds_won.index(top)
        else:
            due = (rnd >= target) if rules.match_end == "rounds" else (max(scores) >= target)
            if due:
                best = min(scores) if rules.match_winner == "lowest" else max(scores)
                leaders_ = [i for i, s in enumerate(scores) if s == best]
                if len(leaders_) == 1:
                    return True, leaders_[0]
                if not play_on:
                    return True, None
        if rules.draw_if is not None:
            sides = [Tally(index=i, score=s, rounds_won=self.rounds_won[i], players=())
                     for i, s in enumerate(scores)]
            if rules.draw_if(environment.sides_names(self, sides, rnd)):
                return True, None
        return False, None

    def _final(self, winner: int | None, rnd: int) -> None:
        final = self.game.rules.final
        if final is None:
            return
        scores = self.scores
        sides = [Tally(index=i, score=s, rounds_won=self.rounds_won[i], won=(i == winner),
                       players=()) for i, s in enumerate(scores)]
        env = environment.sides_names(self, sides, rnd)
        new = []
        for s in sides:
            env["side"] = s
            new.append(int(final(env)))
        scores[:] = new


def plain_turn_of(game: Game) -> bool:
    """Whether a turn of ``game`` is the plainest, its fits inline in ``GeneralLoop.run``:
    the line, with none of the rules ``GeneralLoop._fits`` applies (a new one joins here)."""
    rules = game.rules
    return not (rules.layout is not None or rules.restrictions or game.tileset.copies > 1
                or rules.blind or rules.several is not None)


def kth_placement(fit: list[int], flips: list[int], k: int, shift: int = 2) -> int:
    """The ``k``-th placement (from 0) in the canonical order: end by end, tile by tile,
    a tile's first way before its second (``FLIP``), as ``state.legal_pairs`` lists them;
    coded ``t << shift | end`` (2 on the line's four ends, 8 on a shaped board's arms)."""
    for e, m in enumerate(fit):
        while m:
            low = m & -m
            m ^= low
            t = low.bit_length() - 1
            if not k:
                return t << shift | e
            k -= 1
            if flips[e] & low:
                if not k:
                    return t << shift | e | FLIP
                k -= 1
    raise ValueError("no such placement")


def allowed_at(game, tiles: tuple, fit: list[int], values: list[int], ends: tuple, h: int,
               boneyard: int, rnd: int, players: int, waive: bool,
               shaped: tuple[list[int], bool, int] | None = None) -> list[int]:
    """The fitting tiles at each end (``fit``, the ends' ``values``) that every placement
    restriction of ``game`` allows; all of ``fit`` again when ``waive`` and none is.

    A verdict depends only on the names the restrictions read, so it is kept per game
    under those values (``game.restriction_cache``): the same tile against the same
    playable tiles (say) is decided once, not on every turn. The match loop and the
    kernel (``kernel.generate``) both narrow through here. ``shaped``: on a
    ``board.layout`` board, (each end's ``arm``, ``spinners_complete``, ``doubles_down``).
    """
    playable = 0
    for m in fit:
        playable |= m
    if not playable:
        return fit
    cache, reads = game.restriction_cache
    base = (h if "hand" in reads else 0, playable if "playable" in reads else 0,
            ends if "ends" in reads else None, boneyard if "boneyard" in reads else 0,
            rnd if "round" in reads else 0, players)
    if shaped is not None:   # what the board's shape tells, keyed only when read
        arms, complete, doubles = shaped
        base += (complete if "spinners_complete" in reads else None,
                 doubles if "doubles_down" in reads else 0)
    by_end = "end" in reads
    by_arm = shaped is not None and "arm" in reads
    env = None
    out = []
    for e, m in enumerate(fit):
        keep = 0
        end = (values[e], arms[e]) if by_arm else values[e] if by_end else 0
        while m:
            low = m & -m
            m ^= low
            t = low.bit_length() - 1
            key = (t, end, base)
            ok = cache.get(key)
            if ok is None:
                if env is None:
                    env = restrictions.placement_env(
                        [tiles[u] for u in bits(h)], [tiles[u] for u in bits(playable)], ends,
                        boneyard, rnd, players, None if shaped is None else (complete, doubles))
                restrictions.at(env, tiles[t], values[e], None if shaped is None else arms[e])
                ok = restrictions.allows(game.rules.restrictions, env)
                if len(cache) > 200_000:
                    cache.clear()
                cache[key] = ok
            if ok:
                keep |= low
        out.append(keep)
    if waive and not any(out):
        return fit
    return out
