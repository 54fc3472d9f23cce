"""What one seat can know of the hidden tiles, and deals consistent with it (for ``expert``).

From an ``Observation`` only: the seat's hand, the tiles on the board and who placed
them, every hand size, the boneyard size, and what the round's passes and draws
reveal. A seat that passes with ends ``a`` and ``b`` open holds no tile showing
``a`` or ``b`` at that moment; so does a seat that draws, when the rules allow a
draw only to a seat with no placement (no voluntary draws). Placement restrictions
weaken both (a seat may hold a fitting tile the rules forbid), so with restrictions
that do not lift when nothing is allowed, nothing is inferred; where draws may be
voluntary, a draw is read as a stuck seat's in most deals sampled, not all. What a seat lacked
holds for the tiles it kept: a tile it drew later may show the value.

``sample`` deals the round again: each opponent's timeline is walked backwards from
now (a placement puts its tile back in the hand, a draw takes one out, to the
boneyard's place of that draw, a pass or a forced draw forbids its ends to every
unknown tile then held), then the unknown tiles are dealt to the unknown places,
most constrained first. The engine has the last word: a deal it finds could not
have produced the round (``engine.continuation.Inconsistent``) is dropped.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.board import LineOfPlay
from ..engine.game import Deal, Game
from ..engine.observation import Observation
from ..engine.tiles import Tile

Walks = 12   # backward walks tried (each with its own guess of what each draw brought) ...
Tries = 4    # ... and fills of each, before the constraints are loosened for one sample
# A seat that draws and then places: the tile placed is the one drawn last, surely when the
# draw was forced (or before the opening: drawing for the opening tile), and this often
# when it may have drawn by choice.
LIKELY_PLACED = 0.75
# Where a seat may draw while holding a playable tile, most players still draw only when
# stuck: each such draw is read as a stuck seat's in this share of the deals sampled.
DRAWS_STUCK = 0.75


@dataclass(frozen=True)
class Seen:
    """One round's public story for one seat, read once per decision."""

    events: tuple[dict, ...]        # the round's public events after its deal
    dealt: int                      # history index of the round's deal event
    lacks: tuple[tuple[int, int, int, bool], ...]   # (event index, seat, tiles it lacked,
                                    # sure) per pass or draw that reveals something: a draw
                                    # the seat may have made by choice is not sure
    unknown: tuple[int, ...]        # tiles this seat cannot place: in other hands or the boneyard
    mine: int                       # this seat's hand now (mask)
    before_opening: int             # events of the round before its opening placement


@dataclass(frozen=True)
class Sample:
    """A deal of the round consistent with the seat's view, and the hands it implies now."""

    deal: Deal
    hands: tuple[int, ...]          # every seat's hand now (masks)
    boneyard: tuple[int, ...]       # the tiles not yet drawn, in drawing order


def round_start(history: Sequence[dict]) -> int:
    """The history index of the round's deal: the last ``deal`` event."""
    for i in range(len(history) - 1, -1, -1):
        if history[i]["event"] == "deal":
            return i
    raise ValueError("no deal in the history")


def reveals(rules) -> tuple[bool, bool]:
    """(a pass reveals, a draw reveals): what a seat's lack of a placement can tell."""
    plain = not rules.restrictions or rules.if_none_allowed == "waive"
    return plain, plain and not rules.voluntary_draw


def read(game: Game, obs: Observation) -> Seen:
    """The round so far as ``obs``'s seat saw it."""
    ts = game.tileset
    start = round_start(obs.history)
    events = tuple(obs.history[start + 1:])
    pass_tells, draw_tells = reveals(game.rules)
    line = LineOfPlay(game.rules.spinner == "first_double", game.rules.fit)
    fits = game.setup(obs.players).value_mask
    lacks = []
    board = 0
    opening = len(events)
    for i, e in enumerate(events):
        kind = e["event"]
        if kind == "place":
            opening = min(opening, i)
            t = ts.index[Tile(*e["tile"])]
            board |= 1 << t
            line.place(*e["tile"], e["end"], e.get("meets"))
        elif kind in ("pass", "draw") and e["player"] != obs.seat and line.line:
            sure = pass_tells if kind == "pass" else draw_tells
            if sure or kind == "draw" and pass_tells:
                mask = 0
                for v in line.board.ends():   # what fits v: a fit rule's, or the same number
                    mask |= fits[v]
                lacks.append((i, e["player"], mask, sure))
    mine = ts.mask(obs.hand)
    unknown = tuple(t for t in range(ts.tile_count) if not (mine | board) >> t & 1)
    return Seen(events, start, tuple(lacks), unknown, mine, opening)


def sample(game: Game, obs: Observation, seen: Seen, rng: random.Random) -> Sample:
    """One deal of the round consistent with what ``obs``'s seat has seen.

    A draw that may have been a choice is read as a stuck seat's in ``DRAWS_STUCK`` of
    the deals; when those readings leave no deal (the seat drew by choice after all),
    only the sure ones are kept, and failing that (a view no deal fits) none.
    """
    return _dealt(game, obs, seen, *_placed(game, obs, seen, rng))


def sample_deck(game: Game, obs: Observation, seen: Seen, rng: random.Random,
                known: tuple | None = None) -> list[int]:
    """``sample``'s deal (the same numbers drawn from ``rng``) as tile indices in dealing
    order, as ``GeneralLoop._deal`` lays a ``Deal`` out: the hands, the boneyard's order,
    then the rest (none: the hands and the boneyard's order hold every tile). Why: the
    JIT's playouts read this, and building ``Tile`` objects cost more than their play.
    ``known``: ``deck_known(game, obs, seen)``, the same for every deal of a decision."""
    places, tiles = _placed(game, obs, seen, rng)
    _, _, dealt_items, drawn, yard_places = places
    me = obs.seat
    mine, draws = known or deck_known(game, obs, seen)
    deck: list[int] = []
    for s in range(obs.players):
        if s == me:
            deck += mine
        else:
            deck += [t if sure else tiles[t] for sure, t in dealt_items[s]]
    for i, t in draws:
        if t is None:
            sure, t = drawn[i]
            t = t if sure else tiles[t]
        deck.append(t)
    deck += [tiles[p] for p in yard_places]
    return deck


def deck_known(game: Game, obs: Observation, seen: Seen) -> tuple:
    """What ``sample_deck`` lays out alike in every deal: the seat's own dealt tiles, and
    per draw of the round its event index and the tile, when the seat drew it itself."""
    return _my_dealt(game, obs, seen), _draws(game, obs, seen)


def _my_dealt(game: Game, obs: Observation, seen: Seen) -> list[int]:
    """The seat's own tiles as dealt, in index order (its placements back, its draws out)."""
    ts = game.tileset
    my_placed = my_drawn = 0
    for e in seen.events:
        if e.get("player") == obs.seat and e["event"] in ("place", "draw"):
            bit = 1 << ts.index[Tile(*e["tile"])]
            if e["event"] == "place":
                my_placed |= bit
            else:
                my_drawn |= bit
    dealt = (seen.mine | my_placed) & ~my_drawn
    return [t for t in range(ts.tile_count) if dealt >> t & 1]


def _draws(game: Game, obs: Observation, seen: Seen) -> list[tuple[int, int | None]]:
    """(event index, the tile when the seat drew it itself, else None) per draw."""
    index = game.tileset.index
    return [(i, index[Tile(*e["tile"])] if e["player"] == obs.seat else None)
            for i, e in enumerate(seen.events) if e["event"] == "draw"]


def _placed(game: Game, obs: Observation, seen: Seen, rng: random.Random) -> tuple:
    """(the places, a tile for each): ``sample``'s walk and fill."""
    soft = {i: m for i, _, m, sure in seen.lacks if sure or rng.random() < DRAWS_STUCK}
    sure = {i: m for i, _, m, is_sure in seen.lacks if is_sure}
    for lacks_at in (soft, sure, {}):
        for _ in range(Walks):      # which tile each draw brought is chosen at random
            places = _places(game, obs, seen, lacks_at, rng)
            tiles = _fill(seen.unknown, places[0], rng)
            if tiles is not None:
                return places, tiles
    raise AssertionError("unreachable: a fill without constraints always succeeds")


def _places(game: Game, obs: Observation, seen: Seen, lacks_at: dict[int, int],
            rng: random.Random) -> tuple:
    """The unknown places of the round's deal, each with the tiles it may not be:
    (forbid per place, each seat's places now, each seat's dealt items, what each draw
    brought, the boneyard's places)."""
    ts = game.tileset
    n = obs.players
    me = obs.seat
    events = seen.events
    forbid: list[int] = []          # per unknown place: the tiles it may not be
    now_places: list[list[int]] = [[] for _ in range(n)]
    dealt_items: list[list[tuple[bool, int]]] = [[] for _ in range(n)]  # (known, tile/place)
    drawn: dict[int, tuple[bool, int]] = {}     # event index -> what was drawn there
    for s in range(n):
        if s == me:
            continue
        hand: list[tuple[bool, int]] = []
        for _ in range(obs.hand_sizes[s]):
            now_places[s].append(len(forbid))
            hand.append((False, len(forbid)))
            forbid.append(0)
        mine_lacks = [(i, m) for i, p, _, _ in seen.lacks if p == s and i in lacks_at
                      for m in (lacks_at[i],)]
        placed_next: tuple[bool, int] | None = None   # the seat's next move, if a placement
        for i in range(len(events) - 1, -1, -1):
            e = events[i]
            if e.get("player") != s:
                continue
            kind = e["event"]
            if kind == "place":
                placed_next = (True, ts.index[Tile(*e["tile"])])
                hand.append(placed_next)
                continue
            if kind == "pass" and i in lacks_at:
                _forbid(hand, forbid, lacks_at[i])
            elif kind == "draw":
                earlier = 0             # what the seat lacked before this draw
                for j, m in mine_lacks:
                    if j < i:
                        earlier |= m
                item = _drawn_item(hand, lacks_at.get(i, 0), earlier, rng)
                if item is None:
                    item = (placed_next if placed_next in hand and (
                        i in lacks_at or seen.before_opening > i
                        or rng.random() < LIKELY_PLACED)
                        else hand[int(rng.random() * len(hand))])
                hand.remove(item)
                drawn[i] = item
                if i in lacks_at:
                    _forbid(hand, forbid, lacks_at[i])
            if kind in ("draw", "pass"):
                placed_next = None
        dealt_items[s] = hand
    yard_places = [len(forbid) + k for k in range(obs.boneyard)]
    forbid += [0] * obs.boneyard
    if len(forbid) != len(seen.unknown):
        raise ValueError(f"{len(seen.unknown)} unknown tiles for {len(forbid)} places")
    return forbid, now_places, dealt_items, drawn, yard_places


def _dealt(game: Game, obs: Observation, seen: Seen, places: tuple, tiles: list[int]
           ) -> Sample:
    """The deal (and the hands now) once every unknown place has its tile."""
    ts = game.tileset
    n = obs.players
    me = obs.seat
    events = seen.events
    _, now_places, dealt_items, drawn, yard_places = places
    hands_dealt: list[tuple[Tile, ...]] = []
    tile_of = ts.tiles
    my_placed = my_drawn = 0
    for e in events:
        if e.get("player") == me and e["event"] in ("place", "draw"):
            bit = 1 << ts.index[Tile(*e["tile"])]
            if e["event"] == "place":
                my_placed |= bit
            else:
                my_drawn |= bit
    my_dealt = (seen.mine | my_placed) & ~my_drawn
    for s in range(n):
        if s == me:
            hands_dealt.append(tuple(ts.tiles_of(my_dealt)))
        else:
            hands_dealt.append(tuple(tile_of[t if known else tiles[t]]
                                     for known, t in dealt_items[s]))
    order: list[Tile] = []
    for i, e in enumerate(events):
        if e["event"] != "draw":
            continue
        if e["player"] == me:
            order.append(Tile(*e["tile"]))
        else:
            known, t = drawn[i]
            order.append(tile_of[t if known else tiles[t]])
    boneyard = tuple(tiles[p] for p in yard_places)
    order += [tile_of[t] for t in boneyard]
    now = [0] * n
    now[me] = seen.mine
    for s in range(n):
        for p in now_places[s]:
            now[s] |= 1 << tiles[p]
    leader = obs.history[seen.dealt]["leader"]
    return Sample(Deal(tuple(hands_dealt), tuple(order), leader), tuple(now), boneyard)


def _forbid(hand: list[tuple[bool, int]], forbid: list[int], mask: int) -> None:
    """The seat held none of ``mask`` then: the unknown tiles it held may not be one."""
    for known, p in hand:
        if not known:
            forbid[p] |= mask


def _drawn_item(hand: list[tuple[bool, int]], lacked: int, earlier: int,
                rng: random.Random) -> tuple[bool, int] | None:
    """The tile a draw must have brought, if one is known: a known tile the seat could
    not have held before the draw (it shows a value the draw, or an earlier pass or
    draw, showed it lacked)."""
    for mask in (lacked, earlier):
        if mask:
            must = [it for it in hand if it[0] and mask >> it[1] & 1]
            if must:
                return must[int(rng.random() * len(must))]
    return None


def _fill(unknown: Sequence[int], forbid: list[int], rng: random.Random) -> list[int] | None:
    """A tile for every unknown place, none that the place forbids; None when ``Tries``
    random fills (most constrained place first) found none."""
    order = sorted(range(len(forbid)), key=lambda p: -forbid[p].bit_count())
    for _ in range(Tries):
        free = list(unknown)
        rng.shuffle(free)
        out = [0] * len(forbid)
        for p in order:
            f = forbid[p]
            k = next((k for k, t in enumerate(free) if not f >> t & 1), None)
            if k is None:
                break
            out[p] = free.pop(k)
        else:
            return out
    return None
