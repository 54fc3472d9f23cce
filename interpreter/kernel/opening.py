"""A round's redeal condition and opening as kernel code, written once per ruleset.

``GeneralLoop._redeal_asked`` builds a ``Tally`` per seat and calls the formula on every
deal; ``GeneralLoop._open`` / ``_allowed`` call the opening's ``allow`` formula on every
tile of a hand, on every round and every opening turn. A kernel does neither:

- ``redeal_source``: the redeal formula written over per-seat arrays of the hands just
  dealt (``RP`` pips, ``RV`` value, ``RC`` tiles, ``RQ`` doubles; nothing drawn yet), each
  array computed only when the formula reads it;
- ``allow_masks``: an ``allow`` formula that reads only the tile, the players and the
  round says yes or no per tile, so its verdict is a bitmask made once per ruleset (once
  per round number if it reads ``round``) and ``_allowed(op, hand, rnd)`` is
  ``hand & mask``; ``opener_for`` is ``_open`` over that mask.

The loop's methods stay the truth (the step-by-step ``State`` and ``verify`` run them);
``tests/test_kernel.py`` plays rulesets both ways and compares. A formula reading what is
not written here (an ``allow`` reading the hand) raises ``Unsupported``: the kernel then
calls the loop's methods.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine import leaders
from ..engine.game_rules import Opening
from ..engine.general_loop import _opening_rules
from ..engine.tiles import Tile
from ..expr.ast import names_read
from ..expr.types import PLAYER, Type
from .formulas import Unsupported
from .settle import _FactEmitter

if TYPE_CHECKING:
    from ..engine.game import Game

# a seat's attribute -> the array holding it per seat, on the hands just dealt
_SEAT = {"pips": "RP", "value": "RV", "tiles": "RC", "doubles": "RQ", "drawn": "RZ",
         "seat": "SEATS"}
# what a mask-able ``allow`` reads
_MASK_NAMES = frozenset({"tile", "players", "round", "max_pip"})


class _SeatsEmitter(_FactEmitter):
    """Every seat's attribute is its whole array (``seats.doubles`` is ``RQ``), not a
    list made of it."""

    def attribute(self, typ: Type | None, obj: str, attr: str) -> str:
        if obj == "SEATS" and typ is not None and typ.elem == PLAYER:
            table = self.table(PLAYER, attr)
            if table is not None:
                return table
        return super().attribute(typ, obj, attr)


def redeal_source(game: Game, players: int) -> tuple[str, str]:
    """(lines computing the arrays the formula reads, the formula as an expression over
    ``hands`` and ``rnd_no``); raises ``Unsupported`` when the formula reads what is not
    written here or its tree is not known."""
    tree = game.rules.redeal_if_tree
    if tree is None:
        raise Unsupported("a redeal formula without its tree")
    e = _SeatsEmitter({"seats": "SEATS", "players": str(players), "round": "rnd_no"},
                      {}, _SEAT)
    test = e.emit(tree)
    two = len(game._chunks) == 2
    value = ("RV = [LO[h & 16383] + HI[h >> 14] for h in hands]" if two
             else "RV = list(map(VALUE_OF, hands))")
    same = game.hand_pips is game.hand_value
    lines = {
        "RV": value,
        "RP": value.replace("RV", "RP", 1) if same else "RP = list(map(PIPS_OF, hands))",
        "RC": "RC = list(map(bit_count, hands))",
        "RQ": "RQ = [bit_count(h & DMASK) for h in hands]",
    }
    head = [line for name, line in lines.items() if name in e.used]
    return "\n".join(head), test


def _reads(op: Opening) -> frozenset[str] | None:
    """The names ``op.allow`` reads; None: not known (no tree)."""
    if op.allow is None:
        return frozenset()
    if op.allow_tree is None:
        return None
    return names_read(op.allow_tree)


def allow_masks(game: Game, players: int) -> str:
    """An expression over ``rnd_no`` (and the namespace's ``allow_mask``) for the round's
    opening mask: the tiles the round's ``allow`` accepts (-1: every tile, no ``allow``);
    raises ``Unsupported`` when an ``allow`` reads the hand."""
    first, later = _opening_rules(game.rules)
    reads = [_reads(op) for op in (first, later)]
    if any(r is None or not r <= _MASK_NAMES for r in reads):
        raise Unsupported("an opening condition that reads the hand")
    if any("round" in r for r in reads):
        return "allow_mask(rnd_no)"
    a, b = (mask_of(game, players, op, 1) for op in (first, later))
    return str(a) if a == b else f"({a} if rnd_no == 1 else {b})"


def mask_of(game: Game, players: int, op: Opening, rnd: int) -> int:
    """The tiles ``op.allow`` accepts in round ``rnd`` (-1 when there is no ``allow``):
    ``GeneralLoop._allowed`` of a hand holding every tile."""
    if op.allow is None:
        return -1
    ts = game.tileset
    env: dict[str, Any] = {"round": rnd, "players": players, "max_pip": game.rules.max_pip}
    out = 0
    for t in range(ts.tile_count):
        env["tile"] = (ts.low[t], ts.high[t])
        if op.allow(env):
            out |= 1 << t
    return out


def allow_mask_for(game: Game, players: int) -> Callable[[int], int]:
    """``allow_mask(rnd)``: ``mask_of`` the round's opening, kept per round number."""
    first, later = _opening_rules(game.rules)
    memo: dict[int, int] = {}

    def allow_mask(rnd: int) -> int:
        found = memo.get(rnd)
        if found is None:
            if len(memo) > 10_000:
                memo.clear()
            found = memo[rnd] = mask_of(game, players, first if rnd == 1 else later, rnd)
        return found
    return allow_mask


def opener_for(game: Game, players: int, op: Opening) -> Callable[..., tuple]:
    """``open_round(amask, hands, leader, deck) -> (opener, opening mask, free, seek)``:
    ``GeneralLoop._open`` for ``op`` with ``_allowed(op, hand, rnd)`` as ``hand & amask``
    (``amask`` the round's ``allow`` mask). ``seek`` is None or (mode, mask): players draw
    ("turns") or the leader draws ("leader") until a tile of ``mask`` comes (opener None
    with a seek: the leader draws the boneyard out in vain, then a redeal)."""
    ts = game.tileset
    setup = game.setup(players)
    dealt, draw_end = setup.dealt, setup.draw_end
    step = -1 if game.rules.direction == "right" else 1
    NEXT = tuple((s + step) % players for s in range(players))
    # tiles heaviest first: most pips, then the higher half (``GeneralLoop._heaviest``)
    heavy = sorted(range(ts.tile_count), key=lambda t: (ts.pips[t], ts.high[t]), reverse=True)

    def heaviest(hands: list[int]) -> tuple:
        dealt_mask = 0
        for h in hands:
            dealt_mask |= h
        for t in heavy:
            if dealt_mask >> t & 1:
                return leaders.holder(hands, t), 1 << t, False, None
        raise AssertionError("no tile dealt")

    def in_boneyard(deck: list[int], mask: int) -> bool:
        return any(mask >> t & 1 for t in deck[dealt:draw_end])

    lacking, unheld = op.if_lacking, op.if_unheld
    if op.tile == "any":
        def open_any(amask: int, hands: list[int], leader: int, deck: list[int]) -> tuple:
            allowed = hands[leader] & amask
            if allowed:
                return leader, allowed, True, None
            if lacking == "pass_on":
                s = NEXT[leader]
                while s != leader:
                    allowed = hands[s] & amask
                    if allowed:
                        return s, allowed, True, None
                    s = NEXT[s]
            elif lacking == "draw":
                if dealt < draw_end:   # GeneralLoop._open: draw until one, or drawn out
                    if unheld == "heaviest" or in_boneyard(deck, amask):
                        return leader, 0, False, ("leader", amask)
                    return None, 0, False, ("out", 0)   # drawn out in vain: redeal
            else:
                return None, 0, False, None
            # nobody holds, or can draw, an allowed tile
            if unheld == "heaviest":
                return heaviest(hands)
            if unheld == "draw_in_turn" and in_boneyard(deck, amask):
                return leader, 0, False, ("turns", amask)
            return None, 0, False, None
        if op.allow is None:
            return lambda amask, hands, leader, deck: (leader, -1, True, None)
        return open_any

    fixed = None if op.tile == "highest_double" else ts.index[Tile(*op.tile)]
    by_holder = op.opener == "holder"

    def open_tile(amask: int, hands: list[int], leader: int, deck: list[int]) -> tuple:
        if fixed is None:
            found = leaders.highest_double_holder(hands, ts)
            tile, seat = (found[1], found[0]) if found else (None, None)
        else:
            tile, seat = fixed, leaders.holder(hands, fixed)
        if seat is not None and (by_holder or seat == leader):
            return seat, 1 << tile, False, None
        if unheld == "heaviest" and seat is None:
            return heaviest(hands)
        if unheld == "draw_in_turn" and seat is None:
            seek = (1 << tile) if tile is not None else ts.doubles_mask
            if in_boneyard(deck, seek):
                return leader, 0, False, ("turns", seek)
        return None, 0, False, None
    return open_tile
