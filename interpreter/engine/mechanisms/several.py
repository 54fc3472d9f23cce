"""Several tiles in one move (the schema's ``play.several``; docs/house-rules.md, "Turns").

The rule, written once over plain values: a move may lay one tile on each of two or
more of the ends open when the move starts (at most ``most`` of them), in end order
(left, right, up, down); each tile must be a legal placement where it goes once the
tiles before it in the move lie (the fit, every ``play.restrictions`` rule) and meet
the ``tiles`` condition, if there is one. A move of one tile stays legal unless the
``alone`` condition says otherwise (e.g. a single tile only as the last one, with the
boneyard empty). With ``move: whole_hand`` the move of several tiles is
instead the whole hand, shown and laid down at once when every tile can follow another
(the same end again too): one move, in the first order found (``whole_hand``). With
``move: chain`` the tiles go one after another on one end, each on the one before (one
train or arm of a shaped board, ``board.layout``), up to ``most`` of them (every run of
two or more is a move, listed: past four tiles a long hand's runs number tens of
thousands, so ``most`` stays at four or less): a first-turn run on one's own train,
read with the ``first_turn`` and ``own_train`` names (``placement_env``). A tile laid
within a run that goes on earns no extra turn (an event's ``again``): the run going on is
that turn, and its last tile says what follows (``again_lapses``). A spinner completed
mid-move opens its arms for the next turn: a move uses the ends open when it starts.
The tiles are laid one after another, and every event after a placement fires after each
of them, as for tiles laid in separate turns.

The match loop (``engine.general_loop``) and the rulebook (``engine.rulebook``, through
``mechanisms.turn``) both list a turn's moves with ``moves``: each passes its own way of
judging one placement (``steps``), so the shape of a move is decided here alone. A
ruleset without ``play.several`` gets ``None`` from ``rule_of`` and calls nothing here.

A move's text is its placements joined by `` + `` (``6-1 left + 1-1 right``); a record
writes each placement as a ``place`` event with ``part: [i, n]`` (the i-th of the move's
n tiles), so a record of a ruleset without the rule is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from ..actions import FLIP

SEP = " + "   # between a move's placements in its text form
# a line placement's code in a move under a fit rule (``matching``): ``t << 2 | end``, with
# ``TWO_WAYS`` when the tile fits that end either way round there (the action then names
# the half against the end) and ``FLIP`` for its second way
TWO_WAYS = FLIP << 1
CODE = FLIP - 1   # the tile and end bits of a code


class SeveralRule(NamedTuple):
    """``play.several`` as the engine reads it."""

    most: int                              # most tiles in one move (one on each end)
    tiles: Callable[[Any], bool] | None    # a condition each tile of the move must meet
    alone: Callable[[Any], bool] | None    # whether one tile alone is a move; None: always
    explain: str                           # why one tile alone is not a move (``alone``)
    tiles_text: str = ""                   # ``tiles`` as written, for explanations
    whole_hand: bool = False               # the move is the whole hand, laid in one order
    after_double: bool = False             # the move goes on after each double it lays
    chain: bool = False                    # the tiles go one after another on one end


def rule_of(rules: Any) -> SeveralRule | None:
    """The ruleset's several-tile moves, or None when a move is one tile."""
    return getattr(rules, "several", None)


def moves(rule: SeveralRule, ends: Sequence[Any], start: Any,
          steps: Callable[[Any, Any], Iterable[tuple[Any, Any]]], size: int = 0,
          key: Callable[[Any], Any] | None = None,
          double: Callable[[Any], bool] | None = None) -> list[tuple]:
    """Every move of two or more tiles, in canonical order (the first end's placement
    first, then by the next end...), each a tuple of placements.

    ``ends``: the ends open when the move starts, in order; ``start``: the position
    then; ``steps(position, end)``: the placements allowed at ``end`` in that position
    (the caller's fit and restrictions, and ``tiles``), each with the position it leaves.

    >>> steps = lambda pos, end: [((t, end), pos | {t}) for t in "ab" if t not in pos]
    >>> moves(SeveralRule(2, None, None, ""), ["left", "right"], frozenset(), steps)
    [(('a', 'left'), ('b', 'right')), (('b', 'left'), ('a', 'right'))]
    """
    if rule.whole_hand:
        found = whole_hand(ends, start, steps, size, key)
        return [found] if found is not None and len(found) >= 2 else []
    out: list[tuple] = []
    if rule.chain:   # on one end, each tile on the one before: every run of two or more
        def run(pos: Any, end: Any, chosen: tuple) -> None:
            if len(chosen) >= 2:
                out.append(chosen)
            if len(chosen) == rule.most:
                return
            for placement, after in steps(pos, end):
                run(after, end, chosen + (placement,))

        for end in ends:
            for placement, after in steps(start, end):
                run(after, end, (placement,))
        return out
    if rule.after_double:   # a double, then another tile on any end (a double again goes on)
        def chain(pos: Any, chosen: tuple) -> None:
            if len(chosen) >= 2:
                out.append(chosen)
            if len(chosen) == rule.most or chosen and not double(chosen[-1]):
                return
            for end in ends:
                for placement, after in steps(pos, end):
                    if chosen or double(placement):
                        chain(after, chosen + (placement,))

        chain(start, ())
        return out

    def walk(pos: Any, first: int, chosen: tuple) -> None:
        if len(chosen) >= 2:
            out.append(chosen)
        if len(chosen) == rule.most:
            return
        for k in range(first, len(ends)):
            for placement, after in steps(pos, ends[k]):
                walk(after, k + 1, chosen + (placement,))

    walk(start, 0, ())
    return out


def whole_hand(ends: Sequence[Any], start: Any,
               steps: Callable[[Any, Any], Iterable[tuple[Any, Any]]], size: int,
               key: Callable[[Any], Any] | None = None) -> tuple | None:
    """The first order (end by end, then the callers' placement order) in which all
    ``size`` tiles of the hand go down one after another, each on any end (the same end
    again too, on what the tile before left), or None: ``play.several.whole_hand``, a hand
    shown and laid down at once. One move whatever the orders: the hand is out either way.
    ``key(position)``: a value naming a position, so a dead end is tried once.

    >>> steps = lambda pos, end: [((t, end), pos | {t}) for t in "ab" if t not in pos]
    >>> whole_hand(["left"], frozenset(), steps, 2)
    (('a', 'left'), ('b', 'left'))
    """
    dead: set = set()

    def walk(pos: Any, chosen: tuple) -> tuple | None:
        if len(chosen) == size:
            return chosen
        name = key(pos) if key is not None else None
        if name is not None and name in dead:
            return None
        for end in ends:
            for placement, after in steps(pos, end):
                done = walk(after, chosen + (placement,))
                if done is not None:
                    return done
        if name is not None:
            dead.add(name)
        return None

    return walk(start, ()) if size >= 2 else None


def distinct(found: Iterable[tuple], name: Callable[[Any], Any]) -> tuple:
    """``found`` with each move once by its placements' names (``name(placement)``): over
    two copies of a tile (``set.copies``) the same move would be listed once per copy; the
    first, by the lowest copies, stands for them all, as a single placement does.

    >>> distinct([(1, 2), (3, 2), (2, 1)], lambda p: p % 2)
    ((1, 2), (2, 1))
    """
    seen: set = set()
    out = []
    for move in found:
        key = tuple(name(p) for p in move)
        if key not in seen:
            seen.add(key)
            out.append(move)
    return tuple(out)


def tile_allowed(rule: SeveralRule, env: Any) -> bool:
    """Whether a tile may be part of a several-tile move (``tiles``; names of kind
    ``placement``)."""
    return rule.tiles is None or bool(rule.tiles(env))


def alone_allowed(rule: SeveralRule, env: Any) -> bool:
    """Whether one tile alone is a move (``alone``; names of kind ``placement``)."""
    return rule.alone is None or bool(rule.alone(env))


def placement_env(tile: tuple[int, int], end: int, hand: Sequence, playable: Sequence,
                  ends: Sequence[int], boneyard: int, rnd: int, players: int,
                  first_turn: bool = False, own_train: bool = False) -> dict:
    """The names a ``tiles`` or ``alone`` condition reads (kind ``several``: those of
    ``placement``, and ``first_turn``, ``own_train``)."""
    return {"tile": tile, "end": end, "hand": list(hand), "playable": list(playable),
            "ends": tuple(ends), "boneyard": boneyard, "round": rnd, "players": players,
            "first_turn": first_turn, "own_train": own_train}


def first_turn(turns: int) -> bool:
    """``first_turn``: the seat's turns this round, the one under way counted, make one
    (the opening tile is not a turn; an extra turn is a turn)."""
    return turns == 1


def again_lapses(rule: SeveralRule | None, goes_on: bool) -> bool:
    """Whether an extra turn (an event's ``again``) earned by a tile lapses: the tile is
    not its move's last, so the move going on is that turn (``move: chain``; the other
    kinds keep every tile's)."""
    return rule is not None and rule.chain and goes_on


def text(parts: Iterable[str]) -> str:
    """A move's text form: its placements' texts joined by `` + ``."""
    return SEP.join(parts)


def split(words: str) -> list[str]:
    """A move's text cut into its placements' texts (one text: one placement)."""
    return [p.strip() for p in words.split("+")]


def parts(n: int) -> list[list[int]]:
    """The ``part`` each placement of an ``n``-tile move carries in the record."""
    return [[i, n] for i in range(1, n + 1)]


# -- the match loop's side: tiles as bit indexes, ends as 0..count-1 --------------------
def line_moves(rule: SeveralRule, hand: int, board: Any, ends: int,
               allowed: Callable[[int, Any], list[int]],
               facts: Callable[[int, Any, int, int], Any],
               place: Callable[[Any, int, int], Any],
               key: Callable[[Any], Any],
               is_double: Callable[[int], bool],
               two: Callable[[Any, int], int] | None = None) -> list[tuple[int, ...]]:
    """``moves`` on the match loop's bitmasks: each move a tuple of placement codes
    ``t << 2 | end`` on the first ``ends`` ends. ``board``: the board as the loop keeps
    it, never changed: ``place(board, t, end)`` gives the board after tile ``t`` goes on
    ``end`` (``place(board, t, end, True)`` its second way, under a fit rule);
    ``allowed(hand, board)``: the tiles each end allows (the fit and the restrictions);
    ``facts(hand, board, t, end)``: a ``tiles`` condition's names; ``key(board)``: a value
    naming a board (``whole_hand`` tries a dead end once); ``is_double(code)``: whether a
    placement lays a double (``after_double``); ``two(board, end)``: under a fit rule, the
    tiles that fit ``end`` either way round there, each then two placements (codes with
    ``TWO_WAYS``, the second with ``FLIP``: ``start`` hands the loop its own codes)."""
    def steps(state: tuple[int, Any], e: int) -> list:
        h, b = state
        m = allowed(h, b)[e]
        both = two(b, e) if two is not None else 0
        out = []
        while m:
            low = m & -m
            m ^= low
            t = low.bit_length() - 1
            if rule.tiles is None or tile_allowed(rule, facts(h, b, t, e)):
                if both & low:   # either way round: the half against the end named
                    out.append((t << 2 | e | TWO_WAYS, (h & ~low, place(b, t, e, False))))
                    out.append((t << 2 | e | TWO_WAYS | FLIP, (h & ~low, place(b, t, e, True))))
                else:
                    out.append((t << 2 | e, (h & ~low, place(b, t, e))))
        return out

    return moves(rule, range(ends), (hand, board), steps, hand.bit_count(),
                 lambda state: (state[0], key(state[1])), is_double)


def shaped_code(code: int, names: Sequence[str], here: Sequence[tuple[str, int]]) -> int:
    """A shaped board's placement code ``t << 8 | e`` written against the ends open when
    its move started (``names``), rewritten against those open now (``here``): the same end
    by name, which a double to answer may have moved in the list."""
    name = names[code & 255]
    for e, (at, _) in enumerate(here):
        if at == name:
            return code & ~255 | e
    raise ValueError(f"{name} is not open now")   # the move was checked: never


def union(fit: Sequence[int], moves: Sequence[tuple], tile_count: int) -> int:
    """Every single placement's tile, and one bit above the tiles per several-tile move (two
    for two or more), so a turn whose only move is a run still counts as a choice.

    >>> union([0b01, 0b10], [], 2), union([0b01], [(1, 2)], 2), union([0], [(1,), (2,)], 2)
    (3, 5, 12)
    """
    total = 0
    for m in fit:
        total |= m
    if moves:
        total |= (1 if len(moves) == 1 else 3) << tile_count
    return total


def alone_masks(rule: SeveralRule, fit: list[int], hand: int, board: Any,
                facts: Callable[[int, Any, int, int], Any]) -> list[int]:
    """``fit`` less the tiles that ``alone`` does not let go down on their own."""
    if rule.alone is None:
        return fit
    out = []
    for e, m in enumerate(fit):
        keep = 0
        while m:
            low = m & -m
            m ^= low
            if alone_allowed(rule, facts(hand, board, low.bit_length() - 1, e)):
                keep |= low
        out.append(keep)
    return out


def start(offered: Sequence[tuple[int, ...]], code: int, queued: list[int], base: int
          ) -> tuple[int, int]:
    """The action chosen at a decision: for the code of a several-tile move (``base`` +
    its index among ``offered``), its first placement, the rest put in ``queued`` (last
    first) and the move's tile count; any other code as it is, with 0."""
    if code < base:
        return code, 0
    move = offered[code - base]
    queued[:] = [c & ~TWO_WAYS for c in move[:0:-1]]
    return move[0] & ~TWO_WAYS, len(move)
