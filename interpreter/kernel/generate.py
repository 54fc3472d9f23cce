"""A ruleset's match kernel: ``python_kernel.play`` specialised, compiled once, cached.

The kernel is real Python (``kernel.python_kernel``), every rule behind a switch;
``_switches`` decides the switches and numbers for a ruleset and player count and gathers
the pieces the kernel's writers make from its checked formula trees (events, redeal,
opening masks, settlement formulas), and ``specialise_kernel`` folds them into one plain
function by its syntax tree. No rule is written here.

``kernel_for(game, players, record=..., uniform=...)`` returns ``play(seed, uniform,
more, policies, start_scores, max_rounds) -> MatchResult``. The source depends only
on the ruleset's resolved numbers and switches, so it is compiled once per distinct
source (a hash of it keys the cache): every ruleset that resolves to the same rules,
in every match of a process, shares one code object; a worker compiles its own once.

A ruleset the kernel does not cover (``covers``) keeps the match loop: the house-rule
mechanisms of the general loop, fixed deals, the step-by-step ``State``.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, DiagnosticError
from ..engine import leaders
from ..engine.board import END_NAMES, Board
from ..engine.bounds import check_scores, checked_points, checked_skip
from ..engine.general_loop import (
    MAX_REDEALS,
    MAX_TURNS,
    RoundEnd,
    _opening_rules,
    allowed_at,
    match_start_event,
    tile_opening,
)
from ..engine.general_loop import deal_event as loop_deal_event
from ..engine.leaders import HashStream
from ..engine.mechanisms import turn_options
from ..engine.results import ONE_STEP, MatchResult, RoundStats
from ..engine.scoring import match_winner
from ..engine.tiles import Tile
from ..expr.ast import names_read
from ..expr.runtime import floordiv, mod
from ..generated import compile_named, label
from ..record_lines import dumps
from .events import (
    DRAW,
    PASS,
    PLACE,
    PLACE_OPEN,
    event_code,
    fallback_tables,
    forbiddable_mask,
    narrow_source,
)
from .formulas import Unsupported, emit
from .opening import allow_mask_for, allow_masks, opener_for, redeal_source
from .settle import match_due, match_over_for, settlement_for
from .specialise_kernel import specialised_source

if TYPE_CHECKING:
    from ..engine.game import Game

# event names read from the live hands and board, which only the general loop keeps
LIVE_EVENT_FACTS = frozenset({"hand", "end_doubles", "board", "line", "end_tiles"})


def covers(game: Game) -> bool:
    """Whether the Python kernel (``python_kernel``) plays this ruleset: every ruleset but
    those with a spinner and placement restrictions, whose kernel is the general loop's own source
    specialised (``specialise_loop``); those that take tiles out of the set; those whose
    turns hold more than the plain game's (``engine.mechanisms.turn_options``: a draw
    ending the turn, exact draws, passing at will). Variables (``variables:``) and a
    match ending mid-round (``match.ends_in_play``), declarations and the showdown
    (``engine.mechanisms.declarations``), a tile turned up to start the line
    (``deal.turn_up``) and a round played on until a side is out (``play.until``) are the
    general loop's alone: such a
    ruleset plays on its specialised source; so do those with a fit rule or doubles in
    line (``matching``). Events and restrictions on two ends, and a
    spinner with events, are the Python kernel's."""
    rules = game.rules
    if rules.removed_tiles:   # a smaller set: the general loop's own tables deal it
        return False
    if rules.copies > 1:   # every tile twice (set.copies): the general loop lists moves once
        return False
    if rules.variables or rules.ends_in_play or rules.lead_reads_seats:
        return False
    if rules.declarations or rules.showdown is not None:   # the loop asks and shows hands
        return False
    if turn_options.rule_of(rules) is not None:   # what a turn may hold: the loop's own
        return False
    if any(e.next_draws is not None or e.duty is not None or e.sets for e in rules.events):
        return False   # effects the loop applies (next_draws, duties, set)
    if any(names_read(tree) & LIVE_EVENT_FACTS for trees in rules.event_trees or ()
           for tree in trees.values()):   # the kernel keeps no live hand and board for them
        return False
    if rules.fit is not None or rules.doubles != "across":
        return False   # the kernel knows the same number and crosswise doubles only
    if rules.layout is not None:   # a shaped board: only the general loop asks its Layout
        return False
    if rules.several is not None:   # moves of several tiles: only the general loop offers them
        return False
    if rules.turn_up or rules.blind:   # the kernel opens from a hand it sees, only
        return False
    if rules.play_until != "first_out":   # play.until: the kernel ends at the first out
        return False
    if rules.leftover != "boneyard":   # deal.leftover: the kernel deals equal hands only
        return False
    return not rules.general or rules.spinner == "none" or not rules.restrictions


def _switches(game: Game, players: int, record: bool | str, uniform: bool,
              view: bool = False) -> tuple[dict, dict, dict]:
    rules, setup = game.rules, game.setup(players)
    T = setup.tile_count
    limited = setup.draw_limit < T
    first, later = rules.first_leader, rules.later_leader
    event_codes, event_reads = _event_numbers(game, players, record)
    fallback = event_reads is None         # an event fired through GeneralLoop._fire
    # the general loop's own methods for the deal, opening, settlement and match end, unless
    # only what acts during play (events, restrictions, the spinner, the direction) makes
    # the ruleset general (and no event needs the core)
    general = rules.general and not (rules.play_only and not fallback)
    redeal, amask = _deal_code(game, players)
    flags = {
        "REC": bool(record),
        "TXT": record == "text",
        "UNI": uniform,
        "VOL": setup.voluntary,
        "LIMITED": limited,
        "STUCK_DRAW": setup.stuck_draws,
        "OPEN_ANY": setup.open_any and not general,
        "GEN_OPEN": general,            # the general loop's opening (GeneralLoop._open)
        "REDEAL_IF": rules.redeal_if is not None,
        "REDEAL_INLINE": redeal is not None,       # the redeal formula written as code
        "OPEN_MASK": general and amask is not None,   # the opening by its allow mask
        "LEAD_FORMULA": rules.later_leader_formula is not None,
        "SEEKS": (not setup.open_any and rules.if_unheld == "draw_in_turn") or general,
        "DEAL_DEPENDENT": (first in leaders.DEAL_DEPENDENT or later in leaders.DEAL_DEPENDENT),
        "LATER_ROTATE": later == "rotate",
        # a lead naming nobody (its tile unheld) gives way to the opening's heaviest tile
        "LEAD_FALLBACK": general and (first in leaders.DEAL_DEPENDENT
                                      or later in leaders.DEAL_DEPENDENT)
                         and "heaviest" in (rules.if_unheld, getattr(
                             rules.first_opening, "if_unheld", None)),
        "LEAD_RANDOM": (first in leaders.RANDOM_CHOOSERS or later in leaders.RANDOM_CHOOSERS),
        "TWO_CHUNKS": len(game._chunks) == 2,
        "SPINNER": rules.spinner == "first_double",
        "VIEW": view,
    }
    kinds = {e.after for e in rules.events}
    flags.update({
        # play-time events (GeneralLoop.run's turns: another turn, skips, the block rule)
        "EVENTS": bool(rules.events),
        "EV_PLACE": "place" in kinds, "EV_DRAW": "draw" in kinds, "EV_PASS": "pass" in kinds,
        "RESTRICT": bool(rules.restrictions),          # placements narrowed (restrict)
        "RESTRICT_PASS": bool(rules.restrictions) and rules.if_none_allowed == "pass",
        "RESTRICT_INLINE": _narrow_source(game, players) is not None,
    })
    try:
        domino = emit(rules.domino_tree, "python") if rules.domino_tree is not None else None
        blocked = emit(rules.blocked_tree, "python") if rules.blocked_tree is not None else None
    except Unsupported:
        domino = blocked = None
    inline = domino is not None and blocked is not None and not general
    flags.update({
        "INLINE_SETTLE": inline,
        "GEN": general,
        # who drew how many: read by a settlement that is not inlined, a draw cost, or an
        # inlined formula that reads a seat's or side's ``drawn``
        "DRAWN_BY": (not inline or setup.draw_cost != 0 or fallback
                     or any(x in f"{domino} {blocked}" for x in ("SD[", "DB["))),
        "INDIVIDUAL": not rules.partnerships,
        "LOWEST_SIDE": rules.blocked_winner == "lowest_side",
        "TIE_EACH": rules.blocked_tie == "each",
        "DRAW_COST": setup.draw_cost != 0,
        "COST_TO_WINNER": rules.draw_cost_to == "round_winner",
        "FINAL": rules.final is not None,
        # whether the last placement fitted both ends: kept only when something reads it
        "BOTH": _reads_both_ends(game, players, general, event_reads),
        # events fired through the general loop's ``_fire``: it reads the live hands
        "FIRE": fallback,
        # the tiles drawn this turn: counted for a draw limit or an event that reads them
        "DRAWN": limited or fallback or "drawn_this_turn" in event_reads,
        # the passes in a row before a placement or a draw: kept when an event reads them
        "PRIOR_PASSES": bool(kinds & {"place", "draw"}) and (
            fallback or "passes_in_row" in event_reads),
        # the last placement's player and tile: read by the general loop's settlement or
        # lead formula, or by ``_fire``
        "LAST": general or fallback or rules.later_leader_formula is not None,
        # the turn cap guards a round against events that grant turns forever
        "AGAIN": any(e.again is not None for e in rules.events),
        # turns granted or skipped: the general loop's turn order (who passed since the last
        # placement or draw, idle turns); without them the plain rotation is the same
        "TURNS": any(e.again is not None or e.skip is not None for e in rules.events),
        # a stuck player's draws chained in one loop: each draw the same, with no event
        # after it and no restriction deciding what fits
        "CHAIN": setup.stuck_draws and not rules.restrictions and "draw" not in kinds,
    })
    forbiddable = _forbiddable(game)
    numbers = {
        "N": players, "SIDE_COUNT": len(game.teams(players)), "DEALT": setup.dealt, "T": T,
        "HAND_SIZE": setup.hand_size, "DRAW_END": setup.draw_end,
        "DRAW_LIMIT": setup.draw_limit, "DRAW_COST": setup.draw_cost,
        "TARGET": game.target(players), "PLAY_ON": setup.play_on, "MAX_REDEALS": MAX_REDEALS,
        "KEY_BYTES": setup.key_bytes,
        "RIGHT": rules.direction == "right",     # seat s-1 plays after seat s
        "EVERYONE": (1 << players) - 1, "IDLE_MAX": 2 * players, "MAX_TURNS": MAX_TURNS,
        # restrictions narrow only when a tile they could forbid fits (``forbiddable_mask``)
        "NARROW_SOME": forbiddable is not None, "FORBIDDABLE": forbiddable or 0,
        # the writers' expressions, from checked trees (None: the kernel does not read it)
        "DOMINO": domino, "BLOCKED": blocked, "AMASK": amask,
        "REDEAL_TEST": redeal[1] if redeal else None,
        "RESTRICT_KEY": _restriction_key(game), "MATCH_DUE": "True", "READS_BOARD": False,
    }
    if general:   # the settlement written out (``settle``), or the loop's own methods
        settle = settlement_for(game, players)
        numbers["READS_BOARD"] = settle is None or settle.reads_board
        numbers["MATCH_DUE"] = (match_due(game, players) if match_over_for(game, players)
                                else "True")
    # the writers' statements, spliced where python_kernel.play says splice(NAME)
    blocks = {**event_codes, "REDEAL_HEAD": redeal[0] if redeal else ""}
    return flags, numbers, blocks


def _deal_code(game: Game, players: int) -> tuple[tuple[str, str] | None, str | None]:
    """The redeal formula as code (``opening.redeal_source``) and the round's opening mask
    as an expression (``opening.allow_masks``); None for each the kernel leaves to the
    general loop's methods."""
    rules = game.rules
    redeal = amask = None
    if rules.redeal_if is not None:
        try:
            redeal = redeal_source(game, players)
        except Unsupported:
            pass
    if rules.general:
        try:
            amask = allow_masks(game, players)
        except Unsupported:
            pass
    return redeal, amask


def _reads_both_ends(game: Game, players: int, general: bool,
                     event_reads: frozenset[str] | None) -> bool:
    """Whether a settlement or an event of the kernel reads ``both_ends`` (``last_both``):
    an event reading it (or fired through ``_fire``), the written settlement reading it,
    or the loop's own settlement."""
    if event_reads is None or "both_ends" in event_reads:
        return True
    if not general:
        return False
    settle = settlement_for(game, players)
    return settle is None or settle.reads_both_ends


def _event_numbers(game: Game, players: int, record: bool | str
                   ) -> tuple[dict[str, str], frozenset[str] | None]:
    """The code firing each kind of play-time event where the kernel takes that action,
    and the facts they read (None: one goes through ``GeneralLoop._fire``)."""
    rules, ts = game.rules, game.tileset
    if not rules.events:
        return {}, frozenset()
    mode = "txt" if record == "text" else "rec" if record else ""
    out: dict[str, str] = {}
    reads: frozenset[str] | None = frozenset()
    for name, kind, site in (("EV_OPEN_CODE", "place", PLACE_OPEN),
                             ("EV_PLACE_CODE", "place", PLACE), ("EV_DRAW_CODE", "draw", DRAW),
                             ("EV_PASS_CODE", "pass", PASS)):
        which = tuple(i for i, e in enumerate(rules.events) if e.after == kind)
        code = event_code(rules.events, rules.event_trees, which, site, mode, players,
                          game.target(players), ts.tile_count,
                          lambda a, b: ts.index[Tile(a, b)],
                          spinner=rules.spinner == "first_double", max_pip=ts.max_pip)
        out[name] = code.source
        reads = None if reads is None or code.reads is None else reads | code.reads
    return out, reads


def kernel_switches(game: Game, players: int, record: bool | str = False,
                    uniform: bool = True) -> dict[str, bool]:
    """The kernel's switches (``python_kernel``'s flags) as this ruleset sets them: what
    ``dominorules kernel`` tells a reader the kernel is made of."""
    return _switches(game, players, record, uniform)[0]


def kernel_source(game: Game, players: int, record: bool | str = False,
                  uniform: bool = True, view: bool = False) -> str:
    """The specialised source of ``game``'s kernel for ``players`` (to read, or to cache)."""
    flags, numbers, blocks = _switches(game, players, record, uniform, view)
    return specialised_source({**flags, **numbers}, blocks, players,
                              game.setup(players).hand_size)


def kernel_label(game: Game, players: int) -> str:
    """What a kernel's code is called in tracebacks: ``kernel NAME 3p`` (``generated``)."""
    return label("kernel", game.rules.name, f"{players}p")


def kernel_for(game: Game, players: int, record: bool | str = False,
               uniform: bool = True, view: bool = False) -> Callable[..., MatchResult]:
    """``play(seed, uniform, more, policies, start_scores, max_rounds)`` for this game: the
    Python kernel (``python_kernel``), or for a ruleset it does not cover the general
    loop's own ``run`` specialised (``specialise_loop``).

    ``record``: False, True (``result.events``), or ``"text"``: ``play`` then returns
    ``(result, the record as JSON Lines text)``, byte for byte ``encode_events``'s.
    ``view`` (Python kernels, dict records): ``play(..., view=obj)`` keeps ``obj.rec``
    (the record so far) and ``obj.hands`` (the live hands) as the match loop keeps them,
    for policies bound to the match (the strategist's ``bind``).

    Kept on the game (one per thread: the settler it calls keeps per-thread tallies), so
    no module-wide cache holds a game alive; the code objects are shared by source hash.
    """
    if game.rules.layout is not None:
        raise DiagnosticError([Diagnostic(
            "engine", f"{game.rules.name} shapes its board (board.layout): no kernel plays "
            "it; the general loop does (api.play_match sends it there)")])
    if game.rules.several is not None:
        raise DiagnosticError([Diagnostic(
            "engine", f"{game.rules.name} lays several tiles in one move (play.several): no "
            "kernel plays it; the general loop does (api.play_match sends it there)")])
    kernels = game.__dict__.setdefault("_kernels", {})
    key = (players, record, uniform, view, threading.get_ident())
    found = kernels.get(key)
    if found is not None:
        return found
    if view and (record is not True or not covers(game)):
        raise ValueError("a view of the match needs dict records and a Python kernel")
    if not covers(game):
        found = kernels[key] = _general_play(game, players, record)
        return found
    source = kernel_source(game, players, record, uniform, view)
    code = compile_named(source, kernel_label(game, players))
    namespace = _namespace(game, players)
    exec(code, namespace)  # noqa: S102 - our own kernel, numbers from a checked ruleset
    play = kernels[key] = namespace["play"]
    return play


def _general_play(game: Game, players: int, record: bool | str) -> Callable[..., Any]:
    """``play`` for a ruleset with a spinner: the general loop's ``run`` specialised to it
    (``specialise_loop``), run on a fresh ``GeneralLoop``."""
    from ..engine.general_loop import GeneralLoop
    from ..record_lines import encode_events
    from .specialise_loop import general_kernel

    run = general_kernel(game, players, bool(record))
    text = record == "text"
    written = (settlement_for(game, players), match_over_for(game, players))

    def play(seed, uniform, more, policies, start_scores, max_rounds):
        core = GeneralLoop(game, players, seed, policies if uniform is None else list(uniform),
                           record=bool(record), start_scores=start_scores,
                           max_rounds=max_rounds, uniform=uniform, more=more)
        core.written = written
        run(core)
        result = core.result
        if text:
            events, result.__dict__["events"] = result.events, None
            return result, encode_events(events)
        return result
    return play


def _event_texts(ts, players: int) -> tuple[tuple[str, ...], ...]:
    """The place (end None, left, right; and up, down: a spinner's arms), draw and pass
    events of every seat and tile as record text, written once by the record encoder:
    index ``(p * T + t) * 3 + end`` (``* 2 + end - 2`` for the arms)."""
    place, arms, draw = [], [], []
    for p in range(players):
        for t in range(ts.tile_count):
            tile = [ts.low[t], ts.high[t]]
            place += [dumps({"event": "place", "player": p, "tile": tile, "end": end})
                      for end in (None, "left", "right")]
            arms += [dumps({"event": "place", "player": p, "tile": tile, "end": end})
                     for end in ("up", "down")]
            draw.append(dumps({"event": "draw", "player": p, "tile": tile}))
    passing = [dumps({"event": "pass", "player": p}) for p in range(players)]
    return tuple(place), tuple(arms), tuple(draw), tuple(passing)


def record_texts(game: Game, players: int) -> dict[str, Any]:
    """The record's texts as the Python kernel writes them: every seat's placements,
    draws and passes (``PLACE_TXT``, ``DRAW_TXT``, ``PASS_TXT``) and the match's start and a
    deal (``match_start_text``, ``deal_text``); the JIT's records (``jit_trace``) are
    written from the same, so the two engines' lines cannot drift apart."""
    names = _namespace(game, players)
    return {k: names[k] for k in ("PLACE_TXT", "DRAW_TXT", "PASS_TXT", "match_start_text",
                                  "deal_text")}


def _namespace(game: Game, players: int) -> dict[str, Any]:
    """What the kernel's source reads besides its literals: tables, and the per-round helpers
    shared with the match loop (opening, leaders, settlement)."""
    rules, ts, setup = game.rules, game.tileset, game.setup(players)
    teams = game.teams(players)
    lo, hi = game._chunks if len(game._chunks) == 2 else (None, None)
    rounds_cap = MAX_REDEALS

    def match_start(seed: int) -> dict:
        return match_start_event(game, players, seed)

    # match_start's text around its seed, written once by the encoder
    first = dumps({k: v for k, v in match_start(0).items() if k != "seed"})
    start_head = first[:first.index(',"source":')] if game.path else first[:-1]
    start_tail = "," + dumps({"source": game.path})[1:] if game.path else "}"

    def match_start_text(seed: int) -> str:
        """``dumps(match_start(seed))``."""
        return f'{start_head},"seed":{seed}{start_tail}'

    def deal_event(rnd_no: int, leader: int | None, hands: list[int], deck: list[int]) -> dict:
        return loop_deal_event(ts, rnd_no, leader, hands, deck, setup.dealt)

    tile_text = [f"[{ts.low[t]},{ts.high[t]}]" for t in range(ts.tile_count)]
    in_order = tile_text.__getitem__

    dealt = setup.dealt

    # a hand's text by 14-bit pieces of its bitmask (tile order is bit order), each piece's
    # text made the first time it is dealt: two lookups for a double-six hand, no sort
    pieces = range(0, ts.tile_count, 14)
    piece_texts: list[dict[int, str]] = [{} for _ in pieces]

    def piece_text(k: int, m: int) -> str:
        text = piece_texts[k][m] = ",".join(
            tile_text[14 * k + i] for i in range(14) if m >> i & 1)
        return text

    if len(pieces) == 2:
        low_texts, high_texts = piece_texts

        def hand_text(h: int) -> str:
            a, b = h & 16383, h >> 14
            x = low_texts.get(a) or (piece_text(0, a) if a else "")
            y = high_texts.get(b) or (piece_text(1, b) if b else "")
            return f"{x},{y}" if x and y else x or y
    else:
        def hand_text(h: int) -> str:
            parts = []
            for k, texts in enumerate(piece_texts):
                m = h >> (14 * k) & 16383
                if m:
                    parts.append(texts.get(m) or piece_text(k, m))
            return ",".join(parts)

    def deal_text(rnd_no: int, leader: int | None, hands: list[int], deck: list[int]) -> str:
        """``dumps(deal_event(...))``, written straight from each tile's text: ``hands`` as
        dealt (bitmasks), the boneyard in deck order."""
        held = "],[".join(map(hand_text, hands))
        rest = ",".join(map(in_order, deck[dealt:]))
        who = "null" if leader is None else leader
        return (f'{{"event":"deal","round":{rnd_no},"leader":{who},"hands":[[{held}]],'
                f'"boneyard":[{rest}]}}')

    plain_op = _opening_rules(rules)[1]   # the plain game's one opening rule

    def opening(hands: list[int], leader: int, deck: list[int], dealt: int, draw_end: int):
        """(opener, opening mask, seek mask): the loop's ``tile_opening``; mask -1: any
        tile of the opener's hand."""
        if plain_op.tile == "any":
            return leader, -1, 0
        return tile_opening(ts, plain_op, hands, leader, deck[dealt:draw_end])

    which = "opening or redeal rules" if rules.general else "opening rules"  # as each loop says

    def too_many_redeals(rnd_no: int) -> None:
        raise DiagnosticError([Diagnostic(
            "deal", f"round {rnd_no}: no deal could open after {rounds_cap} "
            f"redeals; the {which} can hardly ever be met")])

    place, arms, draw, passing = _event_texts(ts, players)
    core = settle = match_over = None
    if rules.general:
        from ..engine.general_loop import GeneralLoop

        # the general loop's methods the kernel calls (opening, lead formula, redeal, the
        # final formula; a settlement not written out): one loop per kernel, so per thread,
        # its scores and rounds won set by each match (they keep no other match state)
        core = GeneralLoop(game, players, 0, [None] * players, record=False)
        settle = settlement_for(game, players)
        if settle is None:
            def settle(ended: RoundEnd) -> tuple:
                """``settlement_for``'s function by the loop's own ``_settle``."""
                core.hands = ended.hands
                seats = core._seat_tallies(ended.drawn_by)
                return ([s.value for s in seats], *core._settle(seats, ended))
        match_over = match_over_for(game, players)
        if match_over is None:
            def match_over(rnd, scores, rounds_won):
                return core._match_over(rnd, setup.play_on)

    step = -1 if rules.direction == "right" else 1
    NEXT = tuple((s + step) % players for s in range(players))

    first_op, later_op = _opening_rules(rules)
    # the opening over its allow mask (``opening``), made per ruleset whether used or not
    deal_names = {
        "FIRST_OPEN": opener_for(game, players, first_op),
        "LATER_OPEN": opener_for(game, players, later_op),
        "allow_mask": allow_mask_for(game, players),
        "DMASK": ts.doubles_mask, "PIPS_OF": game.hand_pips, "RZ": (0,) * players,
    } if rules.general else {}

    def round_holder_tile(op, hands: list[int]) -> int:
        """The tile whose holder leads this round (``opening_tile_holder``), as the general
        loop picks it from the round's opening rule."""
        if isinstance(op.tile, tuple):
            return ts.index[Tile(*op.tile)]
        found = leaders.highest_double_holder(hands, ts)
        return found[1] if found else ts.doubles_desc[0]

    def board_of(left: int, right: int, lt: int, rt: int, first: int, placed: int) -> Board:
        """The line of play a plain round ends with, as the general loop keeps it."""
        board = Board(False)
        board.values[0], board.values[1] = left, right
        board.doubles[0], board.doubles[1] = ts.low[lt] == ts.high[lt], ts.low[rt] == ts.high[rt]
        board.tiles, board.first_pips = placed, ts.pips[first]
        return board

    def round_too_long(rnd_no: int) -> None:
        raise DiagnosticError([Diagnostic(
            "round", f"round {rnd_no} did not end after {MAX_TURNS} turns: the "
            "ruleset's events keep the round going forever")])

    seat_texts = {kind: tuple(dumps({"event": kind, "player": p}) for p in range(players))
                  for kind in ("skip", "extra_turn")}

    def spinner_board_of(left: int, right: int, up: int, down: int, lt: int, rt: int, ut: int,
                         dt: int, count: int, first: int, placed: int) -> Board:
        """The same with a spinner: its up and down arms (``ut``/``dt`` the last tile on
        each, -1 for none) and the ends open (``count``)."""
        board = board_of(left, right, lt, rt, first, placed)
        board.spinner = True
        board.values[2], board.values[3], board.count = up, down, count
        for e, t in ((2, ut), (3, dt)):
            if t >= 0:
                board.used[e], board.doubles[e] = True, ts.low[t] == ts.high[t]
        return board

    names = {
        **_restriction_names(game, players), **deal_names,
        "round_too_long": round_too_long, "SKIP_TXT": seat_texts["skip"],
        "AGAIN_TXT": seat_texts["extra_turn"], **fallback_tables(rules.events),
        "DBL": tuple(a == b for a, b in zip(ts.low, ts.high, strict=True)),
        # how an end counts toward end_total: a double both halves; index -1 (no tile on a
        # spinner's arm yet) nothing
        "ENDW": tuple(2 if a == b else 1 for a, b in zip(ts.low, ts.high, strict=True)) + (0,),
        "__builtins__": __builtins__,
        "CORE": core, "SETTLE": settle, "MATCH_OVER": match_over, "board_of": board_of,
        "spinner_board_of": spinner_board_of, "END_NAMES": END_NAMES, "ARM_TXT": arms,
        "FIRST_OP": first_op, "LATER_OP": later_op, "round_holder_tile": round_holder_tile,
        "NEXT": NEXT,
        "dumps": dumps, "PLACE_TXT": place, "DRAW_TXT": draw, "PASS_TXT": passing,
        "words": setup.words, "shake": hashlib.shake_128, "FULL": setup.tiles,
        "BIT": setup.bit, "HashStream": HashStream,
        "match_start": match_start, "deal_event": deal_event, "opening": opening,
        "match_start_text": match_start_text,
        "deal_text": deal_text,
        "too_many_redeals": too_many_redeals,
        "before_deal": leaders.before_deal, "highest_double_holder": leaders.highest_double_holder,
        "holder": leaders.holder, "holder_tile": game.holder_tile,
        "TS": ts, "FIRST_LEADER": rules.first_leader, "LATER_LEADER": rules.later_leader,
        "COUNT_FROM": rules.lead_count_from,
        "TL": ts.low, "TH": ts.high, "PM": ts.value_mask, "PIPS": ts.pips,
        "LO": lo, "HI": hi, "VALUE_OF": game.hand_value, "bit_count": int.bit_count,
        "settle": setup.settle, "match_winner": match_winner,
        "new": object.__new__, "setattr_": object.__setattr__, "ONE_STEP": ONE_STEP,
        "RoundEnd": RoundEnd, "RoundStats": RoundStats, "MatchResult": MatchResult,
        "NAME": rules.name, "TEAMS": teams, "SIDE_OF": game.side_of(players),
        "SEATS": tuple(range(players)), "SIDES": tuple(range(len(teams))),
        "OPP": tuple(tuple(j for j in range(len(teams)) if j != i) for i in range(len(teams))),
        "N": players, "_floordiv": floordiv, "_mod": mod,
        "check_scores": check_scores, "checked_points": checked_points,
        "checked_skip": checked_skip,
    }
    narrow = _narrow_source(game, players)
    if narrow is not None:   # the restrictions as code, over the kernel's own tables
        code = compile_named(narrow, label("restrictions", game.rules.name, f"{players}p"))
        exec(code, names)  # noqa: S102 - emitted from checked trees
    return names


def _narrow_source(game: Game, players: int) -> str | None:
    """``kernel.events.narrow_source`` for the game's restrictions, or None (none, or one
    the masks cannot say: the kernel then asks ``restrict``)."""
    rules, ts = game.rules, game.tileset
    if not rules.restrictions:
        return None
    try:
        return narrow_source(tuple(r.tree for r in rules.restrictions),
                             rules.if_none_allowed == "waive", players, ts.tile_count,
                             lambda a, b: ts.index[Tile(a, b)])
    except Unsupported:
        return None


def _forbiddable(game: Game) -> int | None:
    """The tiles the restrictions could forbid (``forbiddable_mask``): a turn's fitting
    tiles need narrowing only when one of them is such a tile; None: any may be."""
    rules, ts = game.rules, game.tileset
    if not rules.restrictions:
        return None
    return forbiddable_mask(tuple(r.tree for r in rules.restrictions),
                            lambda a, b: ts.index[Tile(a, b)], ts.doubles_mask)


def _restriction_names(game: Game, players: int) -> dict[str, Any]:
    """``restrict`` and its memo, for restrictions not written as code (``narrow``, defined
    in the kernel's namespace by ``_namespace``)."""
    if not game.rules.restrictions or _narrow_source(game, players) is not None:
        return {}
    restrict, memo = _restricter(game, players)
    return {"restrict": restrict, "RESTRICTED": memo}


def _restriction_key(game: Game) -> str:
    """What a turn's restricted masks depend on, as the kernel's locals: the fitting masks
    and the names the restrictions read (``Game.restriction_cache``)."""
    _, reads = game.restriction_cache
    parts = ["mL", "mR"]
    parts += ["h"] if "hand" in reads else []
    parts += ["L", "R"] if reads & {"ends", "end"} else []
    parts += ["pos"] if "boneyard" in reads else []
    parts += ["rnd_no"] if "round" in reads else []
    return f"({', '.join(parts)})"


def _restricter(game: Game, players: int) -> Callable[..., tuple[int, int]]:
    """``restrict(key, mL, mR, hand, L, R, boneyard, round)``: the fitting tiles at each
    end that every placement restriction allows (the match loop's ``allowed_at`` on a
    two-ended board, with the game's verdict cache), kept under ``key``
    (``_restriction_key``) in ``memo``."""
    waive = game.rules.if_none_allowed == "waive"
    ts = game.tileset
    tiles = tuple(zip(ts.low, ts.high, strict=True))
    memo: dict[tuple, tuple[int, int]] = {}

    def restrict(key: tuple, mL: int, mR: int, h: int, L: int, R: int, boneyard: int,
                 rnd: int) -> tuple[int, int]:
        if len(memo) > 200_000:
            memo.clear()
        kept = allowed_at(game, tiles, [mL, mR], (L, R), (L, R), h, boneyard, rnd, players,
                          waive)
        found = memo[key] = (kept[0], kept[1])
        return found
    return restrict, memo
