"""Positions on demand: a described position's legal actions, what one action fires, and a
finished round's points, decided by the general loop's own methods (a seat's decision:
``GeneralLoop.decide`` and ``decide_opening``, the turn the loop plays; board, events,
settlement). No turn rule is written here.

A position is a mapping as rule examples write it (``hands``, ``ends``, ``boneyard``,
``turn``, ``drawn_this_turn``, ``scores``, ``round``, ...), set up on a ``GeneralLoop``
that never runs: its board, hands, scores and boneyard are filled in, then the same
methods the loop calls decide: the legal moves (``decide``), the action laid (Board's
update, ``GeneralLoop._lay_tile``) and its events (``_fire`` over
``events.rules_after``, their draws by ``_pay_draws``, the duties it meets by
``_duties_met``). ``rules.verify`` checks a ruleset's examples through
these functions (a plain ruleset's points through ``points_for``, the first edition's
settler, which the general one agrees with).

Cases an example leaves open, decided here:
- ``ends`` with 2 values on a spinner board: no spinner has been placed yet (the next
  double placed becomes it); 4 values: the spinner's arms are open, each with a tile on it.
- The tiles at the given ends are not doubles (they count once in ``end_total``).
- ``points`` without ``last_tile``: the last tile was [0|1] (not a double, one pip), or in
  a set without it the lightest tile in play that is not a double.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import DRAW, FLIP, PASS, SEVERAL, Action, board_names
from .board import END_NAMES, Board, ShapedBoard
from .general_loop import GeneralLoop, RoundEnd
from .mechanisms import events as event_rules
from .mechanisms import table as table_rules
from .mechanisms.variables import after_round, round_facts
from .state import legal_pairs
from .tiles import Tile, bits, parse_tiles


def _position(game, data: dict, hands: list[list[Tile]]) -> tuple[GeneralLoop, list[int]]:
    """A core holding the example's hands, scores, round, board and boneyard."""
    ts = game.tileset
    n = len(hands)
    core = GeneralLoop(game, n, 0, [None] * n, record=True,
                       start_scores=data.get("scores"))
    core.round = int(data.get("round", 1))
    if data.get("first_turn"):   # the seat's first turn of the round (play.several)
        core.seat_turns[int(data.get("turn", 0))] = 1
    core.values.update(data.get("variables") or {})
    core.hands = hand_masks(ts, hands)
    core._round_play = [0] * len(core.teams)
    board = core.board
    ends = data.get("ends")
    core.table = table_rules.Table()   # what events read of the table (board, line ...)
    laid = _lay(game, core, data.get("board"))
    if ends is not None and laid:
        raise ValueError("give the position by board (its placements) or by ends, not both")
    if ends is not None and isinstance(board, ShapedBoard):
        raise ValueError("a board.layout board's ends have names: give the placements so far "
                         "as board, e.g. [\"5-5\", \"5-2 5-5/1\"], instead of ends")
    if ends is not None:
        core.board = Board.showing(ends, board.spinner, board.across)
    yard = data.get("boneyard", 0)
    if isinstance(yard, str) and ts.copies > 1:   # each name the next copy not dealt
        taken = sum(core.hands) | sum(1 << i for i in laid)
        deck = []
        for t in parse_tiles(yard):
            deck.append(ts.free_index(t, taken))
            taken |= 1 << deck[-1]
    elif isinstance(yard, str):
        deck = [ts.index[t] for t in parse_tiles(yard)]
    else:   # a count: unknown tiles (none that a drawn-tile rule could read)
        held = set().union(*(set(bits(m)) for m in core.hands), laid)
        deck = [t for t in range(ts.tile_count) if t not in held][:int(yard)]
    core.deck = deck
    return core, deck


def hand_masks(ts, hands: Sequence[Sequence[Tile]]) -> list[int]:
    """The hands as bitmasks; in a doubled set (``set.copies``) each name takes the next
    copy no hand before it holds, so two seats' 6-5s are the set's two 6-5s."""
    if ts.copies == 1:
        return [ts.mask(h) for h in hands]
    taken, out = 0, []
    for hand in hands:
        mask = 0
        for t in hand:
            i = ts.free_index(Tile.of(t), taken)
            taken |= 1 << i
            mask |= 1 << i
        out.append(mask)
    return out


def _lay(game, core: GeneralLoop, placed: Sequence[str] | None) -> set[int]:
    """Lay a ``kind: legal`` or ``events`` example's ``board`` (the opening tile, then each
    placement with its end) through the layout, as the loop would; the tiles laid."""
    if placed is None:
        return set()
    board = core.board
    if not isinstance(board, ShapedBoard):
        return _lay_line(game, core, placed)
    layout = board.layout
    laid = set()
    for i, text in enumerate(placed):
        words = str(text).split()
        if i and len(words) == 2 and words[0] == "marker" and words[1].isdigit():
            layout.marked.add(int(words[1]))   # seat k's marker is down on its train
            continue
        action = Action.parse(str(text), board_names(game.rules.layout))
        if action.kind != "place" or (i == 0) != (action.end is None):
            raise ValueError(f"board[{i}] '{text}': write the opening tile alone (5-5), "
                             "then each placement with its end (5-2 5-5/1)")
        tile = (action.tile.low, action.tile.high)
        if game.tileset.index[action.tile] in laid:
            raise ValueError(f"board[{i}] '{text}': {action.tile} is on the board already")
        why = None if action.end is None else layout.why_not(tile, action.end)
        if why:
            raise ValueError(f"board[{i}] '{text}' cannot be placed: {why}")
        layout.place(tile, action.end)
        core.table.place(tile, action.end)
        laid.add(game.tileset.index[action.tile])
    return laid


def _lay_line(game, core: GeneralLoop, placed: Sequence[str]) -> set[int]:
    """``_lay`` on the line of play (and its spinner): each tile must show the number of
    the end it goes on; a fit rule's board is given by its ends instead."""
    if game.fit is not None:
        raise ValueError("board lays tiles by the same number; with a fit rule give the "
                         "open ends as ends")
    board, laid = core.board, set()
    for i, text in enumerate(placed):
        action = Action.parse(str(text), board_names(game.rules.layout))
        if action.kind != "place" or (i == 0) != (action.end is None):
            raise ValueError(f"board[{i}] '{text}': write the opening tile alone (6-6), "
                             "then each placement with its end (6-2 right)")
        low, high, index = action.tile.low, action.tile.high, game.tileset.index[action.tile]
        if index in laid:
            raise ValueError(f"board[{i}] '{text}': {action.tile} is on the board already")
        if action.end is None:
            board.open_with(low, high, low == high)
        else:
            e = END_NAMES.index(action.end)
            if e >= board.count or board.values[e] not in (low, high):
                raise ValueError(f"board[{i}] '{text}' cannot be placed: the {action.end} "
                                 "end is not open or shows another number")
            board.place(e, low, high, low == high)
        core.table.place((low, high), action.end)
        laid.add(index)
    return laid


def _decision(game, core: GeneralLoop, turn: int, drawn: int, opening: bool) -> tuple | None:
    """The decision of seat ``turn`` in the example's position (None: not its move): the
    loop's own (``GeneralLoop.decide`` / ``decide_opening``), the boneyard the example's,
    its reserve kept back."""
    draw_end = max(len(core.deck) - game.rules.reserve, 0)
    if opening:
        return core.decide_opening(turn, drawn, draw_end)
    return core.decide(turn, drawn, 0, draw_end)


def legal(game, data: dict, hands: list[list[Tile]]) -> list[Action]:
    """The legal actions of a ``kind: legal`` example's position."""
    core, _ = _position(game, data, hands)
    d = _decision(game, core, int(data.get("turn", 0)), int(data.get("drawn_this_turn", 0)),
                  data.get("ends") is None and not data.get("board"))
    return [] if d is None else [a for _, a in legal_pairs(game, d)]


def fired(game, data: dict, hands: list[list[Tile]], values_out: dict | None = None,
          duties_out: list | None = None) -> tuple[list[int], int, int, int] | str:
    """(points per side, extra turns, skips, tiles the next player draws) that one action
    fires, or why it cannot run; ``values_out`` receives the variables' values after it
    (an event's ``set``), ``duties_out`` the duties it lays (``events[].duty``)."""
    core, deck = _position(game, data, hands)
    turn = int(data.get("turn", 0))
    drawn = int(data.get("drawn_this_turn", 0))
    opening = data.get("ends") is None and not data.get("board")
    d = _decision(game, core, turn, drawn, opening)
    if d is None:
        return f"seat {turn} has no move in this position"
    pairs = legal_pairs(game, d)
    wanted = Action.parse(str(data["action"]), board_names(game.rules.layout))
    code = next((c for c, a in pairs if a == wanted or (
        wanted.kind == "place" and wanted.end is None and a.kind == "place"
        and a.tile == wanted.tile)), None)
    if code is None:
        shown = ", ".join(str(a) for _, a in pairs) or "none"
        return f"{wanted} is not legal here (legal: {shown})"
    if code >= SEVERAL:
        return (f"{wanted} lays several tiles: an events example takes one placement; give "
                "each tile its own example, or a dealt example that plays the move")
    ts = game.tileset
    board = core.board
    drawn_by = [0] * core.players
    extra: dict[str, Any]
    before = int(data.get("passes_in_row", 0))   # the passes in a row before the action
    draw_end = max(len(deck) - game.rules.reserve, 0)
    if code == DRAW:
        if not deck:
            return "a draw needs the boneyard's tiles: give boneyard as tiles, e.g. \"6-6 2-3\""
        t = deck[0]
        core.hands[turn] |= 1 << t
        drawn_by[turn] = 1
        pos = 1
        after = "draw"
        extra = {"tile": (ts.low[t], ts.high[t]), "forced": not any(d.masks),
                 "passes_in_row": before, "drawn_this_turn": drawn + 1}
    elif code == PASS:
        pos = 0
        after = "pass"
        extra = {"passes_in_row": before + 1,
                 "drawn_this_turn": drawn}
    else:   # a placement, decoded as GeneralLoop.run decodes it, laid by the loop's own
        # board update (GeneralLoop._lay_tile) and the table's
        if d.names:   # a shaped board: the code is t << 8 | end
            t, at, leave = code >> 8, d.names[code & 255], None
        else:
            flip = code & FLIP
            t, e = (code & ~FLIP) >> 2, code & 3
            at = None if opening else e
            # the fit rule's number left open, the way the action names (run's LEAVE1/2)
            leave = game.fit[3 if flip else 2][board.values[e]][t] if (
                game.fit and not opening) else None
        core.hands[turn] &= ~(1 << t)
        PM = game.setup(core.players).value_mask
        both = not opening and sum(1 for v in d.ends if v is not None and PM[v] >> t & 1) > 1
        where = core._lay_tile(t, at, turn, leave)
        core.table.place((ts.low[t], ts.high[t]), where)
        pos = 0
        after = "place"
        extra = {"tile": (ts.low[t], ts.high[t]), "opening": opening, "both_ends": both,
                 "passes_in_row": 0 if opening else before, "drawn_this_turn": drawn}
    # the action's events, as the loop fires them: the duties it meets, its rules, then
    # the tiles they make the next seat draw (GeneralLoop._duties_met, _fire, _pay_draws)
    facts = core._event_facts(turn, pos, drawn_by, extra)
    if after == "place" and core.duties:
        core._duties_met(turn, facts)
    again, skips = core._fire(event_rules.rules_after(game.rules.events, after), turn, facts,
                              after == "place" and not core.hands[turn])   # a domino: lapses
    taken = core._pay_draws(turn, pos, draw_end, drawn_by) - pos if core._owed else 0
    if values_out is not None:
        values_out.update(core.values)
    if duties_out is not None and core.duties:
        duties_out.extend(core.duties)
    return list(core._round_play), again, skips, taken


def points_for(game, hands: Sequence[Sequence[Tile]], result: str,
               drawn: Sequence[int] | None = None) -> list[int]:
    """Points per side for a round ending with these hands (``domino``: the first empty hand
    went out), by the first edition's settler (a plain ruleset's)."""
    ts = game.tileset
    n = len(hands)
    masks = hand_masks(ts, hands)
    values = [game.hand_value(m) for m in masks]
    counts = [len(h) for h in hands]
    domino = next((s for s in range(n) if not hands[s]), None) if result == "domino" else None
    settle = game.settler(n).settle
    return settle(values, counts, list(drawn or [0] * n), domino, game.draw_cost(n))[3]


def _plain_last(ts) -> int:
    """The last tile an example leaves unsaid: [0|1], else the lightest single in play."""
    singles = [i for i, t in enumerate(ts.tiles) if not t.is_double] or [0]
    return min(singles, key=lambda i: (ts.pips[i], i))


def _settled(game, data: dict, hands: list[list[Tile]]) -> tuple[GeneralLoop, tuple]:
    """A ``kind: points`` example's round settled by the general settlement: the core
    holding its position, and (winner side, winner seat, tied, points per side)."""
    core, deck = _position(game, data, hands)
    ts = game.tileset
    n = core.players
    result = data.get("result", "domino")
    domino = next((s for s in range(n) if not hands[s]), None) if result == "domino" else None
    last = data.get("last_tile")
    last_tile = ts.index[Tile.parse(last)] if last else _plain_last(ts)
    last_player = data.get("last_player")
    if last_player is None:
        last_player = domino if domino is not None else 0
    drawn_by = list(data.get("drawn") or [0] * n)
    seats = core._seat_tallies(drawn_by)
    board = core.board
    if isinstance(board, ShapedBoard):
        if not data.get("board"):   # the last tile alone, as on a line
            board.layout.place((ts.low[last_tile], ts.high[last_tile]), None)
    elif data.get("ends") is None:
        board.open_with(ts.low[last_tile], ts.high[last_tile],
                        ts.low[last_tile] == ts.high[last_tile])
    ended = RoundEnd(hands=core.hands, drawn_by=drawn_by, domino=domino,
                     last_player=last_player, last_tile=last_tile,
                     last_both=bool(data.get("both_ends")), board=board, deck=deck, pos=0,
                     passes=int(data.get("passes", 0)), rnd=core.round, scores=core.scores,
                     rounds_won=core.rounds_won)
    return core, core._settle(seats, ended)


def points(game, data: dict, hands: list[list[Tile]]) -> list[int]:
    """Points per side for a ``kind: points`` example, by the general settlement."""
    return _settled(game, data, hands)[1][3]


def variables_after(game, data: dict, hands: list[list[Tile]]) -> dict[str, int]:
    """The variables' values for the next round once a ``kind: points`` example's round
    is settled (its ``expect_variables``): the same ``after_round`` the match applies."""
    core, (winner, _, _, pts) = _settled(game, data, hands)
    scores = [s + p for s, p in zip(core.scores, pts, strict=True)]
    return after_round(game.rules.variables, core.values, round_facts(
        data.get("result", "domino") == "blocked", core.round, core.players, core.target,
        winner, pts, scores))
