"""What the JIT kernel needs of a ruleset's house rules that act at a round's end, the
match's end, the deal, the lead or the opening: their formulas as numba source, their
switches as numbers, or why the JIT cannot play them.

``jit_template``'s ``GEN`` lines call ``jit_settle`` and ``jit_opening`` (real numba
functions, one compiled copy for every ruleset) and read the switches from the kernel's
parameters (``params``). Only the ruleset's formulas are written into the kernel's source
(``texts``), emitted from their checked trees (``expr``'s syntax trees, never the
ruleset's text) over the kernel's arrays: a seat's ``V`` (value), ``P`` (pips), ``C``
(tiles), ``DB`` (drawn), ``DQ`` (doubles), a side's ``SV`` ``SP`` ``ST`` ``SD`` ``SQ``,
``scores`` and ``rounds_won``; the round's facts as the kernel's locals. A formula
reading what the kernel does not keep (the board's ends, a hand in an opening condition)
raises ``Unsupported``: ``reason`` then says so and the Python engine plays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine.general_loop import _opening_rules
from ..engine.mechanisms import turn_options
from ..engine.tiles import Tile
from ..expr import ast
from ..expr.types import TILE, Type
from . import jit_opening, jit_settle
from .formulas import Unsupported, magnitude
from .opening import _MASK_NAMES, _reads, _SeatsEmitter, mask_of
from .settle import _FactEmitter

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.game_rules import Opening, Rules

_SIDE = {"pips": "SP", "value": "SV", "tiles": "ST", "drawn": "SD", "doubles": "SQ",
         "score": "scores", "rounds_won": "rounds_won"}
_SEAT = {"pips": "P", "value": "V", "tiles": "C", "drawn": "DB", "doubles": "DQ"}
# the round's facts as the kernel's locals (jit_template's GEN lines keep them)
_ROUND = {
    "blocked": "(domino < 0)", "round": "rnd_no", "target": "TARGET", "players": "N",
    "last_tile": "last_t", "last_player": "last_p", "passes": "passes",
    "drawn": "_sum(drawn_by)", "boneyard": "(T - pos)",
    "boneyard_value": "_sum_at(VALUES, deck[pos:])",
    "boneyard_pips": "_sum_at(PIPS, deck[pos:])", "sides": "SIDES", "seats": "SEATS",
}
_LEAD = {"players": "N", "leader": "prev_leader", "winner": "prev_winner",
         "winner_side": "prev_side", "last_player": "prev_last",
         "blocked": "(prev_blocked != 0)",
         "last_player_won": "(prev_side >= 0 and SIDE_OF[prev_last] == prev_side)"}
_MATCH = {"sides": "SIDES", "round": "rnd_no", "players": "N", "target": "TARGET"}
# what only the Python engine plays, by the rule that sets it: (is used, what it is called)
_PLAY_TIME: tuple[tuple[Callable[[Rules], bool], str], ...] = (
    (lambda r: bool(r.events), "play-time events (events)"),
    (lambda r: bool(r.restrictions), "placement restrictions (play.restrictions)"),
    (lambda r: r.spinner != "none", "a spinner (board.spinner)"),
    (lambda r: r.direction != "left", "play to the right (play.direction)"),
    (lambda r: r.fit is not None or r.doubles != "across", "its own fit rule (matching)"),
    (lambda r: turn_options.rule_of(r) is not None,
     "turn options (drawing.ends_turn, drawing.exactly, play.passing)"),
    (lambda r: r.lead_reads_seats, "a lead formula reading the last round's seats or sides"),
)


class _Emitter(_FactEmitter):
    """``settle``'s emitter for numba: tiles are indexes into the kernel's tables, lists
    of sides and seats index arrays."""

    def __init__(self, game: Game, names: dict[str, str],
                 won: Callable[[str], str] | None = None) -> None:
        super().__init__(names, _SIDE, _SEAT, won)
        self.numba = True
        self.index = game.tileset.index

    def emit(self, node: ast.Node) -> str:
        if isinstance(node, ast.Tile):
            found = self.index.get(Tile(int(node.low), int(node.high)))
            if found is None:
                raise Unsupported("a tile the set does not hold")
            return str(found)
        if isinstance(node, ast.Binary) and node.op not in ("==", "!=") \
                and node.left.type == TILE:
            raise Unsupported("tiles compared by order")
        return super().emit(node)

    def attribute(self, typ: Type | None, obj: str, attr: str) -> str:
        if typ == TILE:
            return {"low": f"TL[{obj}]", "high": f"TH[{obj}]", "pips": f"PIPS[{obj}]",
                    "is_double": f"(TL[{obj}] == TH[{obj}])"}[attr]
        return super().attribute(typ, obj, attr)


class _SeatsNumba(_SeatsEmitter):
    """The redeal condition's emitter for numba (``opening``'s, over the dealt hands)."""

    def __init__(self, game: Game, names: dict[str, str]) -> None:
        super().__init__(names, {}, {**_SEAT, "drawn": "ZN", "seat": "SEATS"})
        self.numba = True


def plays(rules: Rules) -> bool:
    """Whether ``rules`` is a general ruleset whose house rules the JIT's ``GEN`` lines
    may play (the rest is for ``reason`` to say)."""
    return rules.general and not rules.play_only


def reason(game: Game) -> str | None:
    """Why the JIT cannot play this general ruleset's house rules (a sentence), or None."""
    r = game.rules
    used = [what for test, what in _PLAY_TIME if test(r)]
    if used:
        said = used[0] if len(used) == 1 else f"{', '.join(used[:-1])} and {used[-1]}"
        return f"{r.name} uses {said}, which only the Python engine plays"
    if not plays(r):
        return (f"{r.name} uses house-rule mechanisms that act during play, which only the "
                "Python engine plays")
    first, later = _opening_rules(r)
    reads = [_reads(op) for op in (first, later)]
    if any(x is None or not x <= _MASK_NAMES - {"round"} for x in reads):
        return (f"{r.name}'s opening condition (opening.allow) reads the hand or the round, "
                "which only the Python engine plays")
    try:
        texts(game)
    except Unsupported as exc:
        return (f"{r.name}'s house-rule formulas read what the JIT kernel does not keep "
                f"({exc})")
    return None


def _tree(tree: Any) -> ast.Node:
    if tree is None:
        raise Unsupported("a formula without its tree")
    return tree


def texts(game: Game) -> dict[str, str]:
    """The ruleset's formulas as numba expressions, by the kernel's placeholder names;
    raises ``Unsupported`` when one reads what the kernel does not keep."""
    r = game.rules
    scoring = {**_ROUND, "winner": "w", "opponents": "OPP[w]"}
    side = {**_ROUND, "side": "si"}

    def won(obj: str) -> str:
        return f"({obj} == wside)"

    out = {"DOMINO": _Emitter(game, scoring).emit(_tree(r.domino_tree)),
           "BLOCKED": _Emitter(game, scoring).emit(_tree(r.blocked_tree))}
    out["RANK"] = (_Emitter(game, side).emit(_tree(r.blocked_rank_tree))
                   if r.blocked_rank is not None else "SV[si]")
    out["EVERY_SIDE"] = (_Emitter(game, side, won).emit(_tree(r.every_side_tree))
                         if r.every_side is not None else "0")
    out["DRAW_IF"] = (_Emitter(game, dict(_MATCH)).emit(_tree(r.draw_if_tree))
                      if r.draw_if is not None else "False")
    out["FINAL"] = (_Emitter(game, {**_MATCH, "side": "si"},
                             lambda obj: f"({obj} == match_win)").emit(_tree(r.final_tree))
                    if r.final is not None else "scores[si]")
    out["LEAD"] = (_Emitter(game, dict(_LEAD)).emit(_tree(r.later_leader_tree))
                   if r.later_leader_formula is not None else "0")
    out["REDEAL"] = (_SeatsNumba(game, {"seats": "SEATS", "players": "N", "round": "rnd_no"})
                     .emit(_tree(r.redeal_if_tree)) if r.redeal_if is not None else "False")
    return out


def _opening(game: Game, players: int, op: Opening, rnd: int) -> list[int]:
    tile = op.tile
    code = (jit_opening.ANY if tile == "any" else jit_opening.HIGHEST_DOUBLE
            if tile == "highest_double" else game.tileset.index[Tile(*tile)])
    unheld = {"redeal": jit_opening.UNHELD_REDEAL, "draw_in_turn": jit_opening.UNHELD_DRAW_IN_TURN,
              "heaviest": jit_opening.UNHELD_HEAVIEST}[op.if_unheld]
    lacking = {"redeal": jit_opening.LACKING_REDEAL, "draw": jit_opening.LACKING_DRAW,
               "pass_on": jit_opening.LACKING_PASS_ON}[op.if_lacking]
    return [code, op.opener == "holder", unheld, lacking, mask_of(game, players, op, rnd)]


def params(game: Game, players: int) -> dict[str, int]:
    """The switches of the ``GEN`` lines, by ``jit_template.PARAMS`` name (0 for a ruleset
    without house rules: its kernel never reads them)."""
    names = ("DOMINOER", "RANK_HOW", "LAST_TWO", "TIE_CODE", "MIN_START", "EXACT", "END_CODE",
             "LOWEST_WINS", "REDEAL_ON", *(f"O{k}_{x}" for k in (1, 2)
                                          for x in ("TILE", "HOLDER", "UNHELD", "LACKING",
                                                    "AMASK")))
    r = game.rules
    if not plays(r):
        return dict.fromkeys(names, 0)
    first, later = _opening_rules(r)
    values = [r.domino_winner == "dominoer",
              {"lowest_hand": jit_settle.LOWEST_HAND, "lowest_side": jit_settle.LOWEST_SIDE,
               "lowest": jit_settle.LOWEST, "highest": jit_settle.HIGHEST}[r.blocked_winner],
              r.blocked_among == "last_two",
              {"nothing": jit_settle.TIE_NOTHING, "each": jit_settle.TIE_EACH,
               "last_player": jit_settle.TIE_LAST, "next_player": jit_settle.TIE_NEXT
               }[r.blocked_tie],
              r.minimum_to_start, r.exact_target and r.match_end == "points",
              {"points": jit_settle.END_POINTS, "rounds": jit_settle.END_ROUNDS,
               "rounds_won": jit_settle.END_ROUNDS_WON}[r.match_end],
              r.match_winner == "lowest", r.redeal_if is not None,
              *_opening(game, players, first, 1), *_opening(game, players, later, 2)]
    return {k: int(v) for k, v in zip(names, values, strict=True)}


def heavy_order(game: Game) -> list[int]:
    """The tiles heaviest first: most pips, then the higher half (``heaviest_dealt``)."""
    ts = game.tileset
    return sorted(range(ts.tile_count), key=lambda t: (ts.pips[t], ts.high[t]), reverse=True)


def sizes(game: Game, players: int, hand: int) -> list[int]:
    """Upper bounds of what the house-rule formulas add to a round's points, for the JIT's
    64-bit check (``jit_kernel.MAX_NUMBER``)."""
    r = game.rules
    T = game.tileset.tile_count
    trees = [r.blocked_rank_tree, r.every_side_tree] if plays(r) else []
    return [magnitude(t, hand, T, players) for t in trees if t is not None]
