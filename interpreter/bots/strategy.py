"""The strategist's model of a match, shared by its two deciders: the reference over
an Observation (``bots.strategist``) and the fast one over the engine's masks
(``bots.strategist_fast``).

The weights of its score terms, what the public history says about each seat
(``Knowledge``), per-tile tables and who sits where. Both deciders read these, so each
weight and each inference from the record is written once.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.board import END_NAMES, Board
from ..engine.mechanisms.matching import FitRule, fits, left_open

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
# Under a fit rule (``matching``) a tile meets fewer ends (sevens: a 2 end takes only a 5,
# a blank only a wild tile), so rounds mostly block (85% under sevens with four wild tiles)
# and the hand's value at the block decides: ``shed`` weighs this many times more, and the
# opening is the heaviest tile. Measured on the builtin sevens ruleset (one strategist
# against greedy, 800 matches, seats rotating): 53%, 21% and 15% of wins at 2, 3 and 4
# players with the line's weights; 61%, 39% and 27% so (fair shares 50, 33 and 25).
FIT_SHED = 10.0

# Opening score: the strongest suit first, then its double, then the other half.
O_SUIT, O_DOUBLE, O_OTHER, O_VALUE = 100.0, 50.0, 10.0, 0.01


def suit(v: int) -> str:
    """The plural name of a pip value (``6 -> sixes``)."""
    return SUITS[v] if v < len(SUITS) else f"{v}s"


class Knowledge:
    """What the public history of the current round says about each seat.

    Sets of pip values are bitmasks (bit v: value v), so scoring is integer arithmetic.
    ``lacks``: values a seat drew or passed at (it held no tile showing them then);
    ``passed``: those of them it passed at. ``led``: the values of the tile the seat
    opened with. ``opened``: the end values the seat created by a placement at least
    once, ``opened_twice``: at least twice. ``placed``: tiles on the board showing
    each value (a double once); under a fit rule, the tiles on the board that could meet
    an end showing it (``matching.fits``), which is what "showing" means there.
    """

    def __init__(self, players: int, max_pip: int = 6, spinner: bool = False,
                 fit: FitRule | None = None):
        self.players = players
        self.max_pip = max_pip
        self.spinner = spinner       # the ruleset's first double is a spinner
        # a fit rule (``matching``): a placed tile leaves what the rule says open, and
        # ``placed`` counts it at every value it could meet (``_meets``)
        self.fit = fit
        self._meets: dict[tuple[int, int], tuple[int, ...]] = {}
        self.events = 0              # history events read so far
        self.last: object = None     # the last event read, to notice a different history
        self.reset()

    def reset(self) -> None:
        n = self.players
        self.lacks = [0] * n
        self.passed = [0] * n
        self.led = [0] * n
        self.opened = [0] * n
        self.opened_twice = [0] * n
        self.placed = [0] * (self.max_pip + 1)
        self.ends: tuple[int, ...] | None = None
        self.board = Board(self.spinner)
        self.boneyard = 0            # tiles in the boneyard when the round was dealt
        self.draws = 0               # tiles drawn since
        self.drawer: int | None = None   # who drew last in the current turn, and how many
        self.turn_draws = 0

    def drawn(self, seat: int) -> int:
        """The tiles ``seat`` drew in the current turn (0 when it is not its turn)."""
        return self.turn_draws if self.drawer == seat else 0

    def read(self, history: Sequence) -> None:  # noqa: C901 - one pass over new events
        """Read the events not read yet (the history only grows during a match). Only
        public facts are read: who drew (never what), what was placed where, who passed."""
        done = self.events
        if done == len(history) and (not done or history[-1] is self.last):
            return   # nothing new
        if done > len(history) or (done and history[done - 1] is not self.last
                                   and history[done - 1] != self.last):
            done = 0
        if done == 0:
            self.reset()
        board, ends, placed, fit = self.board, self.ends, self.placed, self.fit
        values = board.values
        lacks, passed, led = self.lacks, self.passed, self.led
        opened, twice = self.opened, self.opened_twice
        draws, drawer, turn_draws = self.draws, self.drawer, self.turn_draws
        ends_mask = 0
        stale = False   # ends read after placements, only when needed
        for e in history[done:]:
            kind = e["event"]
            if kind == "place" or kind == "turn_up":   # (turn_up: the line's first, nobody's)
                a, b = e["tile"]
                if fit is None:
                    placed[a] += 1
                    if b != a:
                        placed[b] += 1
                else:   # the values the tile may meet (a fit rule's suits)
                    for v in self._meets.get((a, b)) or self._meeting(a, b):
                        placed[v] += 1
                end = e.get("end")
                if end is None:
                    board.open_with(a, b, a == b)
                    if kind == "place":
                        led[e["player"]] = 1 << a | 1 << b
                else:
                    p, at = e["player"], END_INDEX[end]
                    if fit is None:   # the board's one update, spinner or not
                        board.place(at, a, b, a == b)
                    else:   # what the rule leaves open (``matching.left_open``)
                        board.place(at, a, b, a == b,
                                    left_open((a, b), values[at], fit, e.get("meets")))
                    bit = 1 << values[at]
                    if opened[p] & bit:
                        twice[p] |= bit
                    else:
                        opened[p] |= bit
                stale = True
                if kind == "place":
                    turn_draws = 0
                else:
                    self.boneyard -= 1   # the turned-up tile left the boneyard
            elif kind == "draw" or kind == "pass":
                p = e["player"]
                if stale:
                    ends, ends_mask, stale = tuple(values[:board.count]), 0, False
                if ends is not None:
                    if not ends_mask:
                        for v in ends:
                            ends_mask |= 1 << v
                    lacks[p] |= ends_mask
                    if kind == "pass":
                        passed[p] |= ends_mask
                if kind == "pass":
                    turn_draws = 0
                else:
                    draws += 1
                    if turn_draws and drawer == p:
                        turn_draws += 1
                    else:
                        drawer, turn_draws = p, 1
            elif kind == "deal":
                self.reset()
                board, ends, placed, stale = self.board, None, self.placed, False
                values = board.values
                lacks, passed, led = self.lacks, self.passed, self.led
                opened, twice = self.opened, self.opened_twice
                draws, drawer, turn_draws = 0, None, 0
                bone = e["boneyard"]   # the tiles, or (an Observation's) their number
                self.boneyard = bone if isinstance(bone, int) else len(bone)
        self.ends = tuple(values[:board.count]) if stale else ends
        self.draws, self.drawer, self.turn_draws = draws, drawer, turn_draws
        self.events = len(history)
        self.last = history[-1] if history else None


    def _meeting(self, a: int, b: int) -> tuple[int, ...]:
        """The end values tile (a, b) could meet under the fit rule (``matching.fits``)."""
        found = self._meets[a, b] = tuple(v for v in range(self.max_pip + 1)
                                          if fits((a, b), v, self.fit))
        return found


END_INDEX = {name: i for i, name in enumerate(END_NAMES)}


def shown_rows(history: Sequence, players: int) -> list[list[tuple[int, int]]]:
    """Hidden rows (``deal.blind``): per seat, the tiles its passes showed this round (a
    front tile that fit no end, turned up for all to see, then put at the back of the row)
    and it has not placed since: what the record says each row still holds."""
    start = 0
    for i in range(len(history) - 1, -1, -1):
        if history[i].get("event") == "deal":
            start = i
            break
    rows: list[list[tuple[int, int]]] = [[] for _ in range(players)]
    for e in history[start:]:
        kind = e["event"]
        if kind == "pass" and e.get("tile") is not None:
            rows[e["player"]].append(tuple(e["tile"]))
        elif kind == "place":
            row, tile = rows[e["player"]], tuple(e["tile"])
            if tile in row:
                row.remove(tile)
    return rows


def weigh_blind(ends: Sequence[int], shown: Sequence[Sequence[tuple[int, int]]],
                where: _Seat, rule: FitRule | None = None) -> tuple[int, tuple[int, int, int]]:
    """A hidden row's front tile placed so that the line shows ``ends``: (score, (own,
    partners, opponents)), the tiles shown by the seat's own row, its partners' and its
    opponents' (``shown_rows``) that may then meet an end (``matching.fits``). Why: a
    shown tile is still in its row and comes to the front again, so the seat keeps ends
    its own and its partners' shown tiles fit and closes those its opponents' fit; it
    knows nothing else of any row, its own included. Whole numbers: ties are exact."""
    values = set(ends)

    def meeting(row: Sequence[tuple[int, int]]) -> int:
        return sum(1 for t in row if any(fits(t, v, rule) for v in values))

    own = meeting(shown[where.me])
    partners = sum(meeting(shown[p]) for p in where.partners)
    opponents = sum(meeting(shown[o]) for o in where.opponents)
    return own + partners - opponents, (own, partners, opponents)


_HUGE = 10 ** 300   # past any float: ``_Tables`` weighs such a value as the largest


class _Tables:
    """Per-tile facts by tile index, for scoring without Tile objects.

    ``fit``: a fit rule's tables (``Game.fit``, from ``matching.fit_tables``): then a
    value's mask holds the tiles that may meet an end showing it (what a "suit" is under
    the rule), and ``leave`` what a tile leaves open, either way round. Two copies of a
    tile (``set.copies``) sit side by side; ``index`` names the first."""

    def __init__(self, tiles: Sequence, max_pip: int, values: Sequence[int],
                 values_source: object = None, fit: tuple | None = None):
        self.index = {}
        for i, t in enumerate(tiles):
            self.index.setdefault(t, i)
        self.low = tuple(t.low for t in tiles)
        self.high = tuple(t.high for t in tiles)
        self.pips = tuple(t.low + t.high for t in tiles)
        # the bot weighs values as floats: one past any float (a formula's 10**400) counts
        # as the largest, never an OverflowError
        self.values = tuple(v if -_HUGE < v < _HUGE else 1e300 if v > 0 else -1e300
                            for v in values)
        self.values_source = values_source   # the mapping they were read from
        self.top = max_pip
        self.open_value = tuple(O_VALUE * v for v in self.values)   # as ``_score_opening``
        # shed points per tile by block risk (0, 0.5, 1), as ``_score_place`` computes them
        self.shed_scale = scale = 1.0 if fit is None else FIT_SHED
        self.shed = tuple(tuple((W_SHED + W_SHED_BLOCK * risk) * scale * v for v in self.values)
                          for risk in (0.0, 0.5, 1.0))
        # per value, every tile showing it (under a fit rule: every tile that may meet it)
        self.value_mask = tuple(sum(1 << i for i, t in enumerate(tiles) if v in (t.low, t.high))
                                for v in range(max_pip + 1)) if fit is None else fit[0]
        # per end value, the tiles that meet it two ways (FLIP: the second), and per tile
        # the number each way leaves open (``matching.fit_tables``)
        self.two, self.leave = (None, None) if fit is None else (fit[1], (fit[2], fit[3]))
        # per value, how many tiles of the set in play show it (max_pip + 1 in a whole set)
        self.suit_size = tuple(m.bit_count() for m in self.value_mask)


class _Seat:
    """Who sits where, for one seat: fixed for the whole match."""

    def __init__(self, me: int, n: int, teams):
        mine = next(t for t in teams if me in t)
        self.me = me
        self.players = n
        self.partners = [s for s in mine if s != me]
        self.opponents = [s for s in range(n) if s not in mine]
        self.next_seat = (me + 1) % n
        # each opponent and the points per value blocked against it
        self.blocking = [(o, W_BLOCK + (W_BLOCK_NEXT if o == self.next_seat else 0.0))
                         for o in self.opponents]
