"""The deal: how many tiles each seat gets, that they come from the set, and when the
dealt hands are thrown in by ``deal.redeal_if``.

The shuffle itself is not a rule: a record's deal may come from any shuffle, so only
what the rules say of a deal is checked here (``docs/records.md``, ``deal``).
"""

from __future__ import annotations

from collections import Counter

from .board import Board
from .environment import redeal_names
from .layout import Layout
from .leftover import receiver, sizes
from .matching import Tile
from .position import Position
from .set_tiles import set_tiles
from .table import Table


def full_set(max_pip: int) -> list[Tile]:
    """Every tile of a double-``max_pip`` set, low half first."""
    return [(a, b) for b in range(max_pip + 1) for a in range(b + 1)]


def deal_problem(pos: Position, hands: list[list[Tile]], boneyard: list[Tile]) -> str | None:
    """What is wrong with a deal by the rules' hand size and set, or None."""
    rules = pos.rules
    if len(hands) != pos.players:
        return (f"the rules deal {pos.players} hands, one per player; the record deals "
                f"{len(hands)}")
    size = rules.hand_size(pos.players)
    wanted = set_tiles(rules.max_pip, rules.removed_tiles, rules.copies)
    if rules.leftover != "boneyard":   # one seat holds the tiles left over (leftover_problem)
        some = sizes(size, pos.players, len(wanted), 0)
        if sorted(map(len, hands)) != sorted(some):
            return (f"the rules deal {size} tiles to each seat and the {some[0] - size} left "
                    f"over to one of them (deal.leftover); the record deals "
                    f"{[len(h) for h in hands]}")
        size = -1   # checked per seat once the leader is known
    for seat, hand in enumerate(hands):
        if size >= 0 and len(hand) != size:
            return (f"the rules deal {size} tiles to each seat; the record deals seat {seat} "
                    f"{len(hand)}")
    every = sorted(t for hand in hands for t in hand) + sorted(boneyard)
    if sorted(every) != sorted(wanted):
        extra = sorted(set(every) - set(wanted))
        if extra:
            out = " without the tiles it takes out" if rules.removed_tiles else ""
            return (f"the set is double-{rules.max_pip}{out}; the record deals "
                    f"{list(extra[0])}")
        if rules.copies > 1:   # set.copies: each tile as often as the sets hold it
            return copies_problem(every, rules.copies, len(wanted))
        return (f"the deal must hold each of the set's {len(wanted)} tiles once; the record "
                f"holds {len(set(every))} different tiles in {len(every)}")
    return None


def leftover_problem(pos: Position, leader: int) -> str | None:
    """``deal.leftover``: whether the seat it names holds the tiles left over, or None."""
    rules = pos.rules
    seat = receiver(rules.leftover, leader, pos.next_seat, pos.players)
    if seat is None:
        return None
    want = sizes(rules.hand_size(pos.players), pos.players,
                 sum(map(len, pos.hands)) + len(pos.boneyard), seat)
    got = [len(h) for h in pos.hands]
    if got != want:
        return (f"the tiles left over go to seat {seat} (deal.leftover: {rules.leftover}, "
                f"leader {leader}); the record deals {got} tiles, not {want}")
    return None
def copies_problem(every: list[Tile], copies: int, wanted: int) -> str:
    """Why a deal is not each tile of a doubled set (``set.copies``) ``copies`` times: the
    first tile dealt too often, or too few tiles."""
    counts = Counter(every)
    over = next((t for t in sorted(counts) if counts[t] > copies), None)
    if over is not None:
        return (f"the set holds each tile {copies} times (set.copies); the record deals "
                f"{list(over)} {counts[over]} times")
    return (f"the deal must hold each of the set's {wanted // copies} tiles {copies} times "
            f"(set.copies), {wanted} tiles; the record deals {len(every)}")


def redeal_asked(pos: Position) -> bool:
    """Whether ``deal.redeal_if`` throws the dealt hands in (``drawn`` is 0 at a deal)."""
    if pos.rules.redeal_if is None:
        return False
    return bool(pos.rules.redeal_if(redeal_names(pos, pos.seat_views())))


def start_round(pos: Position, hands: list[list[Tile]], boneyard: list[Tile]) -> None:
    """A fresh round on these hands: an empty board, nothing drawn, passed or scored."""
    pos.hands = [list(h) for h in hands]
    pos.boneyard = list(boneyard)
    pos.drawn = [0] * pos.players
    pos.turns = [0] * pos.players
    pos.play_points = [0] * len(pos.sides)
    shape = pos.rules.layout
    pos.board = (Board(spins=pos.rules.spinner == "first_double", fit=pos.rules.fit,
                       doubles=pos.rules.doubles) if shape is None
                 else Layout(shape, seats=pos.players))
    pos.table = Table()
    pos.duties = []
    pos.passes = pos.passes_in_row = pos.idle_turns = pos.drawn_this_turn = 0
    pos.passed_since_progress = set()
    pos.extra_turns = pos.pending_skips = 0
    pos.last_tile = pos.last_player = None
    pos.last_both_ends = False
    pos.out = set()
