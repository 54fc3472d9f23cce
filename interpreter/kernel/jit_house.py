"""What the JIT kernel needs of a ruleset's house rules that act at a round's end, the
match's end, the deal, the lead or the opening, turn play to the right, restrict the
placements, fire play-time events, change what a turn holds (turn options), spin the
first double or fit tiles by their own rule: their switches as numbers, their formulas
as programs, or why the JIT cannot play them.

``jit_loop``'s ``GEN`` lines call the settlement's pieces (``engine.mechanisms.settle``,
``match``), ``jit_opening`` and ``jit_formula`` (numba functions) and read everything of
the ruleset from the kernel's parameters (``params``) and the formula programs
(``programs``: made from the formulas' checked trees, never from the ruleset's text). So
the ``GEN`` kernel's source holds no text of any ruleset: one compiled kernel plays them
all (a settlement reading the board as the round left it too: the run-time switch
``SETTLE_BOARD``, ``settle_reads_board``). A formula reading what the kernel does
not keep (``x -> ...`` over the seats) raises ``Unsupported``: ``reason`` then says so
and the Python engine plays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine.bounds import MAX_SKIP
from ..engine.general_loop import MAX_TURNS, _opening_rules
from ..engine.mechanisms import turn_options
from ..engine.tiles import Tile
from ..expr import ast
from ..expr.types import SIDE, TILE
from ..rules.compile import IN_PLAY
from .formulas import Unsupported, magnitude
from .opening import _MASK_NAMES, _reads, mask_of

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.game_rules import Opening, Rules
    from ..engine.tiles import TileSet

# the round's facts by their names in a settlement formula (jit_formula.FACTS); the
# board's as its events keep them (end_total, both_ends; the list ends: _event_lists),
# which the kernel writes at a round's end only when a settlement reads them
# (settle_reads_board: the SETTLE_BOARD switch)
_ROUND = {name: name for name in (
    "blocked", "round", "target", "players", "last_tile", "last_player", "passes", "drawn",
    "boneyard", "boneyard_value", "boneyard_pips", "end_total", "both_ends")}
_SETTLE_BOARD = frozenset({"ends", "end_total", "both_ends"})
_LEAD = {"players": "players", "leader": "leader", "winner": "lead_winner",
         "winner_side": "winner_side", "last_player": "lead_last", "blocked": "lead_blocked",
         "last_player_won": "last_player_won"}
_MATCH = {"round": "round", "players": "players", "target": "target"}
# what only the Python engine plays, by the rule that sets it: (is used, what it is called)
_PLAY_TIME: tuple[tuple[Callable[[Rules], bool], str], ...] = (
    # jit_several offers every kind of move on a line's two ends (one tile on each end, a
    # chain, after a double, the whole hand), jit_several_arms on a spinner's four, under
    # a fit rule, with restrictions or two sets, jit_several_shaped chains on a shaped
    # board (the only move the language has there: rules.checks), each later tile of a
    # run asked the restrictions on the board the tiles before leave; a hidden row is
    # played one front tile at a time (validate refuses it beside play.several: a guard,
    # should it ever allow them)
    (lambda r: r.several is not None and r.blind,
     "moves of several tiles (play.several) with hidden rows (deal.blind)"),
    # what reads a shaped board's ends beside the placement itself, its restrictions, a
    # turned-up tile and a tile's two copies (a row's front tile) is the line's
    # (validate refuses board.layout with deal.blind: a guard, should it ever allow them)
    (lambda r: r.layout is not None and bool(r.blind),
     "hidden rows on a shaped board (deal.blind with board.layout)"),
)


# what acts during play and the GEN lines play: the direction of play (``RIGHT``), the
# placement restrictions (their program at ``F_RESTRICT``) and what a seat does when they
# forbid all its fitting tiles (``WAIVE``, ``PASS_FORBIDDEN``), play-time events
# (``jit_events``: their programs at ``EV_PLACE``...), the turn options
# (``engine.mechanisms.turn_options``), the spinner (``SPIN``: ``jit_board``) and a fit
# rule (``FIT``: its tables at ``FIT_AT``, ``jit_matching``; the ends are the numbers it
# leaves open, and ``ACROSS`` says how a double counts in end totals, which only events
# and declarations read)
_PLAYED = frozenset({"direction", "restrictions", "if_none_allowed", "events",
                     "draw_ends_turn", "draw_exactly", "passing", "spinner", "fit",
                     "doubles", "play_until", "several", "layout"})
# an event's names (events.environment) the JIT keeps: facts, the ends as a list and the
# tiles at the line's ends (end_tiles: the facts end_lt, end_rt; on a spinner two ends or
# four, ``_SPUN``; on a shaped board every open end, ``_SHAPED``), the acting side (its
# score: ``_live_sides`` refuses its tallies, which the kernel counts only at a round's end)
_EVENT = {name: name for name in (
    "tile", "opening", "both_ends", "forced", "passes_in_row", "drawn_this_turn",
    "end_total", "boneyard", "round", "target", "players", "side")}
_EVENT_LISTS: dict[str, int | tuple[str, ...]] = {"end_tiles": ("end_lt", "end_rt")}
# on a spinner (jit_formula.Spun: jit_events.arm_facts keeps the arms' facts)
_SPUN = {"ends": (("end_l", "end_r"), ("end_l", "end_r", "end_u", "end_d")),
         "end_tiles": (("end_lt", "end_rt"), ("end_lt", "end_rt", "end_ut", "end_dt"))}
# on a shaped board (jit_formula.Shaped: jit_layout.list_facts keeps them)
_SHAPED = {"ends": "shaped_end0", "end_tiles": "shaped_tile0"}
_LIVE_SIDE = frozenset({"score", "index"})
# a placement restriction's names (expr.fields "placement"): facts, and lists as masks
_PLACEMENT = {"tile": "tile", "end": "end", "boneyard": "boneyard", "round": "round",
              "players": "players", "hand": "hand", "playable": "playable",
              # a shaped board's (jit_layout: arm_of, spinners_complete, DOUBLES)
              "arm": "arm", "spinners_complete": "spinners_complete",
              "doubles_down": "doubles_down"}


def plays(rules: Rules) -> bool:
    """Whether ``rules`` is a general ruleset whose house rules the JIT's ``GEN`` lines
    may play (the rest is for ``reason`` to say): one general only by what acts during
    play must use nothing of it but what the GEN lines play (``_PLAYED``)."""
    if not rules.general:
        return False
    if not rules.play_only:
        return True
    fields = type(rules).__dataclass_fields__
    return all(getattr(rules, k) == fields[k].default for k in IN_PLAY if k not in _PLAYED)


def _settlement_trees(r: Rules) -> list[Any]:
    """The trees of the settlement's formulas the ruleset has (domino, blocked, the
    blocked comparison's rank, every_side)."""
    return [t for t, present in ((r.domino_tree, True), (r.blocked_tree, True),
                                 (r.blocked_rank_tree, r.blocked_rank),
                                 (r.every_side_tree, r.every_side))
            if present and t is not None]


def settle_reads_board(r: Rules) -> bool:
    """Whether a settlement formula reads the board as the round left it (``ends``,
    ``end_total``, ``both_ends``): the kernel keeps them (``jit_loop``'s run-time switch
    ``SETTLE_BOARD``, in ``params``); one that does not pays a test a round."""
    return any(_SETTLE_BOARD & ast.names_read(t) for t in _settlement_trees(r))


def _turns(r: Rules) -> bool:
    """Whether the GEN lines keep the general loop's turn order (``TURNS``): turns granted
    or skipped, passes at will, or hidden rows (``deal.blind``: a pass is a sign of being
    stuck only when no tile of the row fits, so the seats that passed are kept as bits)."""
    rule = turn_options.rule_of(r)
    return rule is not None and rule.at_will or r.blind or any(
        e.again is not None or e.skip is not None for e in r.events)


def reason(game: Game) -> str | None:
    """Why the JIT cannot play this general ruleset's house rules (a sentence), or None."""
    r = game.rules
    from .declare_code import refused

    used = [what for test, what in _PLAY_TIME if test(r)] + [
        what for what in (refused(r),) if what is not None]
    if used:
        said = used[0] if len(used) == 1 else f"{', '.join(used[:-1])} and {used[-1]}"
        return f"{r.name} uses {said}, which only the Python engine plays"
    if not plays(r):
        return (f"{r.name} uses house-rule mechanisms that act during play, which only the "
                "Python engine plays")
    if r.layout is not None:   # every end a round may open, as a bit (jit_layout.MAXID)
        from .jit_layout import MAXID, most_ends

        if most_ends(r.layout, r.max_players, len(game.tileset.doubles_desc)) > MAXID:
            return (f"{r.name}'s board (board.layout) may open more than {MAXID} ends in "
                    "a round, which only the Python engine keeps")
    if r.several is not None:   # MV: a row a move of several tiles at one turn
        from .jit_several import MOST_MOVES, move_rows

        if move_rows(game, r.max_players) > MOST_MOVES:
            return (f"{r.name}'s moves of several tiles (play.several, up to "
                    f"{r.several.most} tiles) may number more than {MOST_MOVES} at one "
                    "turn, which only the Python engine lists")
    try:
        programs(game)
    except Unsupported as exc:
        return (f"{r.name}'s house-rule formulas read what the JIT kernel does not keep "
                f"({exc})")
    return None


# a set over this many tiles keeps its hands and tile sets as words (jit_kernel.MAX_TILES,
# jit_bits): the GEN lines play its house rules over them (jit_gen_wide), every one a
# narrow set's kernel plays (the same pieces over jit_masks sets where they walk tiles)
WIDE_AFTER = 62


def _wide_words(game: Game) -> int:
    """The words of a wide kernel's tile sets (``jit_bits.words``), 0 for a narrow one."""
    T = game.tileset.tile_count
    if T <= WIDE_AFTER:
        return 0
    from .jit_bits import words

    return words(T)


def _tree(tree: Any) -> ast.Node:
    if tree is None:
        raise Unsupported("a formula without its tree")
    return tree


# a bound of any score: start scores and round points at most 2**40 (jit_kernel.MAX_NUMBER),
# a match at most 1000 rounds
SCORES = 1001 << 40
_STARTS = ("F_DOMINO", "F_BLOCKED", "F_RANK", "F_EVERY_SIDE", "F_DRAW_IF", "F_FINAL", "F_LEAD",
           "F_REDEAL")


def tile_names(ts: TileSet) -> dict[tuple[int, int], int]:
    """The tiles by name for the programs: (low, high) -> its index in the set; for a set
    holding each twice its first copy's (``jit_formula.Twice``: both are the tile)."""
    from .jit_formula import Twice

    tiles = {(t.low, t.high): i for i, t in enumerate(ts.tiles)}
    return Twice((t, i - 1) for t, i in tiles.items()) if ts.copies > 1 else tiles


def programs(game: Game, players: int = 0) -> tuple[list[int], dict[str, int]]:
    """(every house-rule formula's program, one after the other; where each starts, by
    its ``jit_template.PARAMS`` name, -1 for a formula the ruleset does not have); raises
    ``Unsupported`` when one reads what the kernel does not keep. With ``players``, an
    opening condition reading the round of a match of fixed rounds is its tile mask per
    round (``O_ROUNDS``); one reading the hand, or the round of any other match, is a
    program asked of each hand (``O_ALLOW``: the first round's, the later rounds')."""
    # numba (and scipy) only once a kernel is made
    from . import jit_formula, jit_matching, jit_several

    _ALL = {"sides": jit_formula.ALL_SIDES, "seats": jit_formula.ALL_SEATS}
    _PLACEMENT_LISTS = {"hand": jit_formula.TILES, "playable": jit_formula.TILES}
    r = game.rules
    ts = game.tileset
    tiles = tile_names(ts)
    # the variables (variables:), read by name after the facts in F
    values: dict[str, str | int] = {v.name: len(jit_formula.FACT) + i
                                    for i, v in enumerate(r.variables)}
    side = {**_ROUND, "side": "side", "won": "wside", **values}
    # the settlement's lists: the sides, the seats and the open ends as events read them
    settled = {**_ALL, "ends": _event_lists(r, ts.tile_count)["ends"]}
    formulas = {
        "F_DOMINO": (r.domino_tree, {**_ROUND, "winner": "winner", **values},
                     {**settled, "opponents": jit_formula.OPPONENTS}),
        "F_BLOCKED": (r.blocked_tree, {**_ROUND, "winner": "winner", **values},
                      {**settled, "opponents": jit_formula.OPPONENTS}),
        "F_RANK": (r.blocked_rank_tree if r.blocked_rank else None, side, settled),
        "F_EVERY_SIDE": (r.every_side_tree if r.every_side else None, side, settled),
        "F_DRAW_IF": (r.draw_if_tree if r.draw_if else None, {**_MATCH, **values}, _ALL),
        "F_FINAL": (r.final_tree if r.final else None,
                    {**_MATCH, "side": "side", "won": "match_win", **values}, _ALL),
        # the last round's seats and sides as it ended: TAB's tallies, which nothing
        # writes between a round's settlement and the next one's lead (side.won: its winner)
        "F_LEAD": (r.later_leader_tree if r.later_leader_formula else None,
                   {**_LEAD, "won": "winner_side", **values}, _ALL),
        "F_REDEAL": (r.redeal_if_tree if r.redeal_if else None, _MATCH,
                     {"seats": jit_formula.ALL_SEATS}),
    }
    present = {"F_RANK": r.blocked_rank, "F_EVERY_SIDE": r.every_side, "F_DRAW_IF": r.draw_if,
               "F_FINAL": r.final, "F_LEAD": r.later_leader_formula, "F_REDEAL": r.redeal_if}
    # the header: how many variables, where each one's after_round starts (-1: it keeps
    # its value), their initial values; then the programs
    k = len(r.variables)
    code: list[int] = [k] + [-1] * k + [v.initial for v in r.variables]
    at: dict[str, int] = {}
    for name, (tree, names, lists) in formulas.items():
        if name in present and present[name] is None:
            at[name] = -1
            continue
        at[name] = len(code)
        code += jit_formula.program(_tree(tree), names, lists, tiles)
    after = {**_MATCH, "blocked": "blocked", "won": "round_won", "winner_side": "wside",
             **values}
    for i, v in enumerate(r.variables):
        if v.after_round is not None:
            code[1 + i] = len(code)
            code += jit_formula.program(_tree(v.tree), after, {}, tiles)
    # the placement restrictions as one program: each one's, then AND (all must allow)
    at["F_RESTRICT"] = len(code) if r.restrictions else -1
    for k, rule in enumerate(r.restrictions):
        code += jit_formula.program(_tree(rule.tree), _PLACEMENT, _PLACEMENT_LISTS, tiles,
                                    jit_formula.STACK - (k > 0))[:-1]
        if k:
            code.append(jit_formula.AND)
    if r.restrictions:
        code.append(jit_formula.END)
    # per end number, the tiles every restriction allows whatever else holds (``_sure``):
    # the kernel runs the program for the other fitting tiles only
    at["R_SURE"] = len(code) if r.restrictions else -1
    if r.restrictions:
        top = max(max(ts.high), 0)
        sure = [sum(1 << t for t in range(ts.tile_count)
                    if all(_holds(_sure(_tree(rule.tree), (ts.low[t], ts.high[t]), e))
                           for rule in r.restrictions))
                for e in range(top + 1)]
        W = _wide_words(game)   # (a set over 62 tiles: each end's as W words, jit_bits)
        if W:
            from .jit_bits import wide
            sure = [int(x) for x in wide(sure, W).reshape(-1)]
        code += sure
    at.update(_event_blocks(r, code, {**_EVENT, **values}, tiles, ts.tile_count))
    from . import declare_code  # declarations and the showdown (their blocks)
    at.update(declare_code.block(game, code, declare_code.Programs(
        _EVENT, _event_lists(r, ts.tile_count), values, tiles, _live_sides)))
    # play.several's block, its conditions as programs over a placement's names
    at["SEVERAL"] = jit_several.block(game, code, {**_PLACEMENT, **values},
                                      {**_PLACEMENT_LISTS, "ends": jit_formula.ENDS}, tiles)
    # the fit rule's tables (matching.fit_tables, as Game.fit made them), laid out flat
    fit = jit_matching.tables(game, _wide_words(game))
    at["FIT_AT"] = len(code) if fit else -1
    code += fit
    W = _wide_words(game)
    if W and ts.copies > 1:   # (a set over 62 tiles: the second copies as W words here,
        from .jit_bits import wide  # jit_copies.canonical_at)

        at["SECONDS"] = len(code)
        code += [int(x) for x in wide([ts.seconds], W)[0]]
    for k, rnd, op in zip(("O1_AMASK", "O2_AMASK"), (1, 2), _opening_rules(r), strict=True):
        # (a set over 62 tiles: the tiles an opening condition accepts as W words here; one
        # asked of each hand has none: O_ALLOW)
        at[k] = -1
        if W and op.allow is not None and not _by_program(r, op):
            from .jit_bits import wide
            at[k] = len(code)
            code += [int(x) for x in wide([mask_of(game, max(players, 2), op, rnd)], W)[0]]
    at["O_ROUNDS"] = -1
    ops = _opening_rules(r)
    by_program = [_by_program(r, op) for op in ops]
    if players and _by_round(r) and not any(by_program):   # each round's opening mask
        first, later = ops
        at["O_ROUNDS"] = len(code)
        masks = [mask_of(game, players, first if rnd == 1 else later, rnd)
                 for rnd in range(1, game.target(players) + 1)]
        if W:   # (a set over 62 tiles: each round's as W words, jit_bits)
            from .jit_bits import wide
            masks = [int(x) for x in wide(masks, W).reshape(-1)]
        code += masks
    at["O_ALLOW"] = -1
    if any(by_program):   # the first round's allow program, the later rounds', then they
        at["O_ALLOW"] = block = len(code)   # (jit_opening_allow; -1: every tile opens)
        code += [-1, -1]
        names = {"tile": "tile", "hand": "hand", "round": "round", "players": "players",
                 "target": "target", "max_pip": (r.max_pip,), **values}
        for k, op in enumerate(ops):
            if op.tile == "any" and op.allow is not None:
                code[block + k] = len(code)
                code += jit_formula.program(_tree(op.allow_tree), names,
                                            {"hand": jit_formula.TILES}, tiles)
    return code, at


def _by_program(r: Rules, op: Opening) -> bool:
    """Whether ``op``'s allow is asked of each hand by its program (``O_ALLOW``: it reads
    the hand, or the round of a match of no fixed length), not read as a tile mask."""
    reads = _reads(op)
    return reads is None or not reads <= (_MASK_NAMES if _by_round(r)
                                          else _MASK_NAMES - {"round"})


def _by_round(r: Rules) -> bool:
    """Whether an opening condition reads the round, in a match of a fixed number of
    rounds (its masks, one a round, are then a table: ``O_ROUNDS``)."""
    reads = [_reads(op) for op in _opening_rules(r)]
    return (any(x is not None and "round" in x for x in reads) and r.match_end == "rounds"
            and r.match_tie != "play_on")


def _event_blocks(r: Rules, code: list[int], names: dict[str, str | int],
                  tiles: dict[tuple[int, int], int], tile_count: int) -> dict[str, int]:
    """Each action's events appended to ``code`` as a ``jit_events`` block (how many rules,
    then per rule where each of its programs starts, -1: none; then the programs); where
    each block starts, by its ``EV_`` parameter name (-1: no event after that action);
    ``tile_count``: the set's tiles (``_event_lists``)."""
    from . import jit_duties, jit_events, jit_formula

    lists = _event_lists(r, tile_count)
    at: dict[str, int] = {}
    top = max(max(tile[1] for tile in tiles), 0)
    most = _most_total(r, top, sum(1 for low, high in tiles if low == high))
    for after in ("place", "draw", "pass"):
        rules = [i for i, e in enumerate(r.events) if e.after == after]
        at[f"EV_{after.upper()}"] = len(code) if rules else -1
        if not rules:
            continue
        conditions = [r.event_trees[i].get("if") for i in rules]
        start = len(code)
        code += [-1, *_may_fire(conditions, tiles, top, most,   # the head
                                 r.spinner != "none" or r.layout is not None)]
        head = code[start + jit_events.RULES] = len(code)
        # how many, where each one's programs start, each one's index (its record lines')
        code += [len(rules)] + [-1] * (jit_events.WIDTH * len(rules)) + rules
        for k, i in enumerate(rules):
            trees = r.event_trees[i]
            _live_sides(trees.values())
            slot = head + 1 + jit_events.WIDTH * k
            for j, key in enumerate(jit_events.FIELDS):
                if key in trees:
                    code[slot + j] = len(code)
                    run = jit_formula.program(_tree(trees[key]), names, lists, tiles)
                    table = _tabled(trees[key], tiles, top, most) \
                        if key == "if" and len(run) > 4 else None
                    code += run if table is None else table
            sets = r.events[i].sets
            if sets:   # how many, then each variable's place and its program's start
                block = len(code)
                code[slot + jit_events.SET] = block
                code += [len(sets)] + [0, 0] * len(sets)
                for j, (name, _) in enumerate(sets):
                    code[block + 1 + 2 * j] = r.variables.index(
                        next(v for v in r.variables if v.name == name))
                    code[block + 2 + 2 * j] = len(code)
                    code += jit_formula.program(_tree(trees.get(f"set.{name}")), names, lists,
                                                tiles, jit_formula.STACK - len(sets))
            if "next_draws" in trees:   # the tiles the next seat draws (jit_events.pay_draws)
                code[slot + jit_events.NEXT_DRAWS] = len(code)
                code += jit_formula.program(_tree(trees["next_draws"]), names, lists, tiles)
            duty = r.events[i].duty
            if duty is not None:   # jit_duties' block: who, met, what failing costs
                block = code[slot + jit_events.DUTY_AT] = len(code)
                met = trees.get("duty.met")
                code += [jit_duties.ON_CODES[duty.on], 0, duty.fail_points, duty.fail_draws,
                         int(duty.passes_on), i]
                if met is None:   # met: true or false as written
                    code[block + jit_duties.MET] = (jit_duties.MET_TRUE if duty.met({})
                                                    else jit_duties.MET_FALSE)
                else:
                    code[block + jit_duties.MET] = len(code)
                    code += jit_formula.program(met, {**names, "duty_tile": "duty_tile"},
                                                lists, tiles)
    return at


def _event_lists(r: Rules, tiles: int) -> dict[str, Any]:
    """The lists an event's or a declaration's formula reads after an action: the open
    ends and the tiles at them, the line's two, on a spinner two or four, on a shaped
    board every open end (``tiles``: the set's, the tile past them read as nothing)."""
    from . import jit_formula

    if r.layout is not None:
        return {"ends": jit_formula.Shaped(_SHAPED["ends"], 0),
                "end_tiles": jit_formula.Shaped(_SHAPED["end_tiles"], tiles)}
    if r.spinner != "none":   # two ends or four, as the arms are open (jit_events.arm_facts)
        return spun_lists(tiles)
    # (a line's end_doubles: its end tiles' being doubles; a spinner's untouched arm and a
    # shaped board's are not, Board.doubles)
    return {"ends": jit_formula.ENDS, **_EVENT_LISTS,
            "end_doubles": jit_formula.Doubled(_EVENT_LISTS["end_tiles"])}


def spun_lists(tiles: int) -> dict[str, Any]:
    """A spinner's ``ends`` and ``end_tiles`` (``jit_formula.Spun``), the tile past their
    ends read as nothing (``tiles``: the set's, ``TAB``'s column after them)."""
    from . import jit_formula

    return {"ends": jit_formula.Spun(*_SPUN["ends"], 0),
            "end_tiles": jit_formula.Spun(*_SPUN["end_tiles"], tiles)}


def _live_sides(trees: Any) -> None:
    """Raise ``Unsupported`` for an event formula reading a side's tallies (its pips,
    tiles...): the kernel counts them at a round's end only; its score and index are live."""
    for tree in trees:
        for node in ast.nodes(tree):
            if (isinstance(node, ast.Attribute) and node.obj.type == SIDE
                    and node.attr not in _LIVE_SIDE):
                raise Unsupported(f"side.{node.attr} during play")


def _most_total(r: Rules, top: int, doubles: int) -> int:
    """The largest total the open ends may make (``end_total``; ``top`` the set's highest
    number): the line's two ends, four arms of doubles on a spinner, and on a shaped board
    every end it may open a double (``jit_layout.most_ends``) beside its dead arms."""
    if r.layout is None:
        return (8 if r.spinner != "none" else 4) * top
    from .jit_layout import most_ends

    shape = r.layout
    dead = doubles * max(shape.sides, shape.opening_sides) * top if shape.dead_arms else 0
    return most_ends(shape, r.max_players, doubles) * 2 * top + dead


def _may_fire(conditions: list[Any], tiles: dict[tuple[int, int], int], top: int,
              most: int, spinner: bool = False) -> list[int]:
    """An event block's head: the masks of the tiles, the ends' totals and, per left end,
    the right ends for which some rule's ``if`` may hold (``_fold``: one known fact at a
    time); the kernel fires the block only when all three allow, so an action no rule
    can fire on costs no call (a double for ``tile.is_double``); ``spinner``: the ends are
    more than the line's two (a spinner's or a shaped board's), so no end mask filters."""
    def may(facts: dict[str, Any]) -> bool:
        return any(c is None or _fold(c, facts) != 0 for c in conditions)
    from .jit_formula import every_index

    # (a set over 62 tiles: every tile may fire, the kernel asks no tile: jit_gen_wide)
    tile_mask = (sum(1 << i for tile, i in every_index(tiles) if may({"tile": tile}))
                 if max(tiles.values(), default=0) < WIDE_AFTER else -1)
    total_mask = (sum(1 << e for e in range(most + 1) if may({"end_total": e}))
                  if most < 62 else -1)
    ends = [sum(1 << b for b in range(top + 1) if may({"ends": (a, b)}))
            for a in range(top + 1)]
    if spinner and any(c is None or "ends" in ast.names_read(c) for c in conditions):
        # four ends, or a shaped board's: the line's two tell nothing
        ends = [(1 << (top + 1)) - 1] * (top + 1)
    return [tile_mask, total_mask, *ends]


def _tabled(condition: Any, tiles: dict[tuple[int, int], int], top: int,
            most: int) -> list[int] | None:
    """An event's ``if`` that reads the ends' total only, or the tile only, as a table
    (``jit_formula.MASK``: a bit per total or tile, ``_fold``ed from the formula), which
    ``jit_events.value`` reads without running a program (all-fives' ``end_total > 0 and
    end_total % 5 == 0``); None when it reads more, or the values pass the table's bits."""
    from . import jit_formula
    for fact, values in (("end_total", {e: e for e in range(most + 1)}),
                         ("tile", {i: tile for tile, i in jit_formula.every_index(tiles)})):
        if not values or max(values) >= jit_formula.MASK_BITS:
            continue
        folded = {i: _fold(condition, {fact: v}) for i, v in values.items()}
        if all(isinstance(v, int) for v in folded.values()):
            bits = sum(1 << i for i, v in folded.items() if v)
            return [jit_formula.MASK, jit_formula.FACT[fact], bits, jit_formula.END]
    return None


def _fold(node: ast.Node, facts: dict[str, Any]) -> Any:
    """``node``'s value when only ``facts`` are known (a tile, the ends' total or the two
    ends): a number, a tile or a tuple of numbers when it is the same whatever else holds,
    ``_UNKNOWN`` when it depends on more. Only a certain 0 (false) filters, so a node not
    folded here is merely unknown."""
    match node:
        case ast.Int(value=v) | ast.Bool(value=v):
            return int(v)
        case ast.Tile(low=low, high=high):
            return (int(low), int(high))
        case ast.Name(name=name):
            return facts.get(name, _UNKNOWN)
        case ast.Attribute(obj=obj, attr=attr):
            t = _fold(obj, facts)
            if not (isinstance(t, tuple) and len(t) == 2 and obj.type == TILE):
                return _UNKNOWN
            return {"low": t[0], "high": t[1], "pips": t[0] + t[1],
                    "is_double": int(t[0] == t[1])}.get(attr, _UNKNOWN)
        case ast.Unary(op=op, operand=x):
            v = _fold(x, facts)
            if not isinstance(v, int):
                return _UNKNOWN
            return -v if op == "-" else int(not v)
        case ast.Binary(op=op, left=a, right=b) if op in ("and", "or"):
            x, y = _fold(a, facts), _fold(b, facts)
            for v in (x, y):   # one side settles it alone
                if isinstance(v, int) and bool(v) == (op == "or"):
                    return int(op == "or")
            if isinstance(x, int) and isinstance(y, int):
                return int(op == "and")   # neither settled it: both true (and), false (or)
            return _UNKNOWN
        case ast.Binary(op=op, left=a, right=b) if op in ("%", "//"):
            x, y = _fold(a, facts), _fold(b, facts)
            if isinstance(x, int) and isinstance(y, int) and y != 0:
                return x % y if op == "%" else x // y
            return _UNKNOWN
        case ast.Binary(op=op, left=a, right=b) if op in _ARITH:
            x, y = _fold(a, facts), _fold(b, facts)
            if isinstance(x, tuple) and isinstance(y, tuple) and op in ("==", "!="):
                return _ARITH[op](x, y)
            if isinstance(x, int) and isinstance(y, int):
                return _ARITH[op](x, y)
        case ast.Call(func=func, args=[arg]) if func in ("min", "max", "sum", "count"):
            v = _fold(arg, facts)
            if isinstance(v, tuple) and isinstance(arg, ast.Name) and arg.name == "ends":
                return {"min": min, "max": max, "sum": sum, "count": len}[func](v)
        case ast.Index(obj=ast.Name(name="ends") as obj, at=at):   # runtime.index
            v, k = _fold(obj, facts), _fold(at, facts)
            if isinstance(v, tuple) and isinstance(k, int):
                return v[k] if -len(v) <= k < len(v) else 0
    return _UNKNOWN


def _holds(value: Any) -> bool:
    return isinstance(value, int) and value != 0


class _Unknown:
    """A value that depends on more than the placement's tile and end."""


_UNKNOWN = _Unknown()
_ARITH: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b), "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b), ">=": lambda a, b: int(a >= b)}


def _sure(node: ast.Node, tile: tuple[int, int], end: int) -> Any:
    """``node``'s value for a placement of ``tile`` on an end showing ``end``, folded
    without the turn's other names: a number (a truth as 1 or 0) or a tile when it is the
    same whatever they are, ``_UNKNOWN`` when it depends on them. Only a true answer
    skips the program, so any node not folded here is merely unknown."""
    match node:
        case ast.Int(value=v) | ast.Bool(value=v):
            return int(v)
        case ast.Tile(low=low, high=high):
            return (int(low), int(high))
        case ast.Name(name="tile"):
            return tile
        case ast.Name(name="end"):
            return end
        case ast.Attribute(obj=obj, attr=attr):
            t = _sure(obj, tile, end)
            if not isinstance(t, tuple):
                return _UNKNOWN
            return {"low": t[0], "high": t[1], "pips": t[0] + t[1],
                    "is_double": int(t[0] == t[1])}.get(attr, _UNKNOWN)
        case ast.Unary(op=op, operand=x):
            v = _sure(x, tile, end)
            if not isinstance(v, int):
                return _UNKNOWN
            return -v if op == "-" else int(not v)
        case ast.Binary(op=op, left=a, right=b) if op in ("and", "or"):
            x, y = _sure(a, tile, end), _sure(b, tile, end)
            for v in (x, y):   # one side settles it alone
                if isinstance(v, int) and bool(v) == (op == "or"):
                    return int(op == "or")
            if isinstance(x, int) and isinstance(y, int):
                return int(bool(x) and bool(y)) if op == "and" else int(bool(x) or bool(y))
            return _UNKNOWN
        case ast.Binary(op=op, left=a, right=b) if op in _ARITH:
            x, y = _sure(a, tile, end), _sure(b, tile, end)
            if isinstance(x, tuple) and isinstance(y, tuple) and op in ("==", "!="):
                return _ARITH[op](x, y)
            if isinstance(x, int) and isinstance(y, int):
                return _ARITH[op](x, y)
    return _UNKNOWN


def _opening(game: Game, players: int, op: Opening, rnd: int) -> list[int]:
    from . import jit_opening

    tile = op.tile
    code = (jit_opening.ANY if tile == "any" else jit_opening.HIGHEST_DOUBLE
            if tile == "highest_double" else game.tileset.index[Tile(*tile)])
    unheld = {"redeal": jit_opening.UNHELD_REDEAL, "draw_in_turn": jit_opening.UNHELD_DRAW_IN_TURN,
              "heaviest": jit_opening.UNHELD_HEAVIEST}[op.if_unheld]
    lacking = {"redeal": jit_opening.LACKING_REDEAL, "draw": jit_opening.LACKING_DRAW,
               "pass_on": jit_opening.LACKING_PASS_ON}[op.if_lacking]
    # (an allow asked of each hand by its program has no mask: O_ALLOW)
    amask = -1 if _by_program(game.rules, op) else mask_of(game, players, op, rnd)
    return [code, op.opener == "holder", unheld, lacking, amask]


def params(game: Game, players: int) -> dict[str, int]:
    """The switches of the ``GEN`` lines, by ``jit_template.PARAMS`` name (0 for a ruleset
    without house rules: its kernel never reads them)."""
    from ..engine.mechanisms import match, settle  # the settlement's and match end's codes

    names = ("DOMINOER", "RANK_HOW", "LAST_TWO", "TIE_CODE", "MIN_START", "EXACT", "END_CODE",
             "LOWEST_WINS", *(f"O{k}_{x}" for k in (1, 2)
                             for x in ("TILE", "HOLDER", "UNHELD", "LACKING", "AMASK")),
             *_STARTS, "RIGHT", "F_RESTRICT", "R_SURE", "WAIVE", "PASS_FORBIDDEN",
             "EV_PLACE", "EV_DRAW", "EV_PASS", "TURNS", "AT_WILL", "ENDS_TURN", "EXACTLY",
             "TLIMIT", "MAX_TURNS", "SPIN", "FIT", "FIT_AT", "IN_PLAY", "DUTIES", "LEFT_TO",
             "TURN_UP", "SIDE_OUT", "SECONDS", "BLIND", "DECL_START", "DECL_PLACE",
             "SHOWDOWN", "SEVERAL", "LAYOUT", "O_ROUNDS", "O_ALLOW", "ACROSS",
             "SETTLE_BOARD")
    r = game.rules
    if not plays(r):
        return dict.fromkeys(names, 0)
    first, later = _opening_rules(r)
    starts = programs(game, players)[1]
    values = [r.domino_winner == "dominoer",
              {"lowest_hand": settle.LOWEST_HAND, "lowest_side": settle.LOWEST_SIDE,
               "lowest": settle.LOWEST, "highest": settle.HIGHEST}[r.blocked_winner],
              r.blocked_among == "last_two",
              {"nothing": settle.TIE_NOTHING, "each": settle.TIE_EACH,
               "last_player": settle.TIE_LAST, "next_player": settle.TIE_NEXT
               }[r.blocked_tie],
              r.minimum_to_start, r.exact_target and r.match_end == "points",
              {"points": match.END_POINTS, "rounds": match.END_ROUNDS,
               "rounds_won": match.END_ROUNDS_WON}[r.match_end],
              r.match_winner == "lowest",
              *_opening(game, players, first, 1), *_opening(game, players, later, 2),
              *(starts[k] for k in _STARTS), r.direction == "right", starts["F_RESTRICT"],
              starts["R_SURE"], r.if_none_allowed == "waive", r.if_none_allowed == "pass",
              *_turn_params(game, players, starts),
              r.spinner == "first_double", r.fit is not None, starts["FIT_AT"],
              # (a ruleset without them pays a test or two an event: 14 interleaved pairs
              # of 60,000 two-player matches took a median 1.84 s of CPU before and 1.88 s
              # after with end-total events, 1.33 s and 1.37 s for the plain game, whose code
              # is unchanged)
              # (DUTIES: how many rules lay one, jit_loop's DUTY rows a tile, seat and rule)
              r.ends_in_play, sum(e.duty is not None for e in r.events),
              *_deal_params(r), game.tileset.seconds, r.blind,
              starts["DECL_START"], starts["DECL_PLACE"], starts["SHOWDOWN"],
              starts["SEVERAL"], _layout(game), starts["O_ROUNDS"], starts["O_ALLOW"],
              r.doubles == "across", settle_reads_board(r)]
    out = {k: int(v) for k, v in zip(names, values, strict=True)}
    if _wide_words(game):   # (where the opening conditions' and the second copies' words
        out["O1_AMASK"], out["O2_AMASK"] = starts["O1_AMASK"], starts["O2_AMASK"]   # start:
        out["SECONDS"] = starts.get("SECONDS", 0)   # programs)
    return out


def _layout(game: Game) -> int:
    """LAYOUT: the board's shape as one number (``jit_layout.code``; 0: a line)."""
    from .jit_layout import code

    r, ts = game.rules, game.tileset
    if r.layout is None:
        return 0
    first: dict[tuple[int, int], int] = {}   # (a tile held twice: its first copy)
    for i in range(ts.tile_count):
        first.setdefault((ts.low[i], ts.high[i]), i)
    return code(r.layout, first, lists=_reads_ends(r), twice=ts.copies > 1)


def _reads_ends(r: Rules) -> bool:
    """Whether an event's or a declaration's formula reads the open ends as lists (``ends``,
    ``end_tiles``; one without its tree: not known), which a shaped board then keeps in
    ``F`` after each placement (``jit_layout.list_facts``)."""
    trees = [t for trees in (*(r.event_trees or ()), *(r.declaration_trees or ()))
             for t in trees.values()]
    return any(t is None or {"ends", "end_tiles"} & ast.names_read(t) for t in trees)


def _deal_params(r: Rules) -> list[int]:
    """LEFT_TO, TURN_UP: the deal's mechanisms the GEN lines play (``leftover``'s and
    ``turn_up``'s pieces); SIDE_OUT: the round's end (``side_out``'s pieces)."""
    from ..engine.mechanisms.leftover import LEFTOVER_CODES

    return [LEFTOVER_CODES[r.leftover], r.turn_up, r.play_until == "side_out"]


def _turn_params(game: Game, players: int, starts: dict[str, int]) -> list[int]:
    """EV_PLACE, EV_DRAW, EV_PASS, TURNS, AT_WILL, ENDS_TURN, EXACTLY, TLIMIT, MAX_TURNS."""
    r = game.rules
    rule = turn_options.rule_of(r)
    limit = game.setup(players).draw_limit
    return [starts["EV_PLACE"], starts["EV_DRAW"], starts["EV_PASS"], _turns(r),
            rule is not None and rule.at_will, rule is not None and rule.ends_turn,
            rule.exactly if rule is not None else 0,
            turn_options.turn_limit(rule, limit) if rule is not None else limit, MAX_TURNS]


def heavy_order(game: Game) -> list[int]:
    """The tiles heaviest first: most pips, then the higher half (``heaviest_dealt``)."""
    ts = game.tileset
    return sorted(range(ts.tile_count), key=lambda t: (ts.pips[t], ts.high[t]), reverse=True)


def sizes(game: Game, players: int, hand: int) -> list[int]:
    """Upper bounds of the variables and of what the house-rule formulas add to a round's
    points, for the JIT's 64-bit check (``jit_kernel.MAX_NUMBER``); raises
    ``Unsupported`` for a variable that may grow faster than by a constant a round."""
    r = game.rules
    if not plays(r):
        return []
    T = game.tileset.tile_count
    names = {"target": abs(game.target(players)),
             **_variable_bounds(r, hand, T, players, _event_known(game, players),
                                _actions(T, players))}
    settled = {**names, **_board_known(game)}   # (the board as the round left it)
    points = [*names.values(), *(magnitude(t, hand, T, players, settled, SCORES)
                                 for t in _settlement_trees(r))]
    # read once a round or a match, not added up: each must only fit in 64 bits
    once = [r.later_leader_tree, r.draw_if_tree, r.final_tree,
            *(v.tree for v in r.variables if v.after_round is not None)]
    if any(magnitude(t, hand, T, players, names, SCORES) > 1 << 62
           for t in once if t is not None):
        raise Unsupported("a formula of the lead, the match's end or a variable may "
                          "outgrow 64 bits")
    from . import declare_code  # what declarations and the showdown may add

    return points + _event_sizes(game, players, hand, names) + declare_code.sizes(
        game, players, hand, {**names, **_event_known(game, players)}, _actions(T, players))


def _event_sizes(game: Game, players: int, hand: int, names: dict[str, int]) -> list[int]:
    """Bounds of what the events may score in a round: each rule's points at most once an
    action, a round's actions at most its placements and draws (a tile each) and 2 x
    players passes before each; raises ``Unsupported`` for a skip that may outgrow any
    round (the Python engine stops such a match with its message)."""
    r = game.rules
    T = game.tileset.tile_count
    known = {**names, **_event_known(game, players)}
    actions = _actions(T, players)
    # a failed duty's points: at most once a turn for each duty pending (T x players)
    out = [abs(e.duty.fail_points) * MAX_TURNS * T * players
           for e in r.events if e.duty is not None]
    for trees in r.event_trees or ():
        for key in ("points", "each_opponent"):
            if key in trees:
                # a score read here grows with what the events add: bounded as any
                # score (SCORES), the points must still keep within a round's bound
                out.append(actions * magnitude(_tree(trees[key]), hand, T, players, known,
                                               SCORES))
        if "skip" in trees and magnitude(_tree(trees["skip"]), hand, T, players,
                                         known, SCORES) > MAX_SKIP:
            raise Unsupported("an event's skip may outgrow any round's turns")
        if "next_draws" in trees and magnitude(_tree(trees["next_draws"]), hand, T, players,
                                               known, SCORES) > 1 << 62:
            raise Unsupported("an event's next_draws may outgrow 64 bits")
    return out


def _event_known(game: Game, players: int) -> dict[str, int]:
    """Bounds of the event names ``magnitude`` does not know."""
    return {**_board_known(game), "passes_in_row": 2 * players,
            "drawn_this_turn": game.tileset.tile_count}


def _board_known(game: Game) -> dict[str, int]:
    """Bounds of the board's names (an event's, a settlement's): the open ends' total
    (``_most_total``: four arms of doubles on a spinner, every end of a shaped board) and
    an open end."""
    top = max(max(game.tileset.high), 0)
    return {"end_total": _most_total(game.rules, top, len(game.tileset.doubles_desc)),
            "ends": top}


def _actions(tiles: int, players: int) -> int:
    """The most actions a round holds: its placements and draws (a tile each) and 2 x
    players passes before each."""
    return 2 * tiles + 2 * players * (2 * tiles + 1)


def _variable_bounds(r: Rules, hand: int, tiles: int, players: int,
                     known: dict[str, int] | None = None, actions: int = 0) -> dict[str, int]:
    """A bound of every variable over a match's 1000 rounds: its after_round, and an
    event's set at each of a round's ``actions``, may add at most a constant to the
    largest of them (``stake + 1``), else ``Unsupported``."""
    if not r.variables:
        return {}
    start = max(abs(v.initial) for v in r.variables)
    sets = [tree for trees in r.event_trees or () for key, tree in trees.items()
            if key.startswith("set.")]
    sets += [tree for trees in r.declaration_trees or () for key, tree in trees.items()
             if isinstance(key, tuple) and key[2] == "set"]   # an option's, once an action

    def grown(bound: int, trees: list[Any]) -> int:   # the most they make of values this large
        names = {**(known or {}), **{v.name: bound for v in r.variables}}
        return max([bound] + [magnitude(_tree(t), hand, tiles, players, names) for t in trees])
    rounds = [v.tree for v in r.variables if v.after_round is not None]
    low, high = max(start, 1 << 10), max(start, 1 << 10) << 10
    step = grown(low, rounds) - low
    set_step = grown(low, sets) - low
    if grown(high, rounds) - high > step or grown(high, sets) - high > set_step:
        raise Unsupported("a variable that may grow faster than by a constant a round")
    bound = start + 1001 * (step + actions * set_step)
    return {v.name: bound for v in r.variables}
