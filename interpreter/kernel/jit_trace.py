"""The JIT's game records: the kernel's log of a batch (``jit_record``) read back as the
record file's JSON Lines text, byte for byte what the Python engine writes.

The kernel logs one token a line: a placement, draw or pass is the index of its text in
a table made once per ruleset and player count by the Python kernel's own writer
(``generate.record_texts``); a line with numbers (a match's start, a deal, a round's end,
the match's end) is an item of ``DAT``, turned into its line here by the same writer and
the record encoder (``record_lines.encode_events``, a call's at once). The lines of the
house rules the GEN lines play are written here from the same dicts the general loop
records: an event's ``score``, ``set`` and ``draw`` lines, a duty's ``duty``, ``duty_met``
and ``duty_failed``, a player ``out`` (items, their lines made by the mechanisms' own
writers where they have one: ``duties.laid_line``, ``side_out.out_line``...) and its
``extra_turn``, a ``skip``, a placement on a spinner's up or down arm, one naming the
half that ``meets`` the end under a fit rule, one on a shaped board's end by its name
(``jit_layout.name_of``, as ``Layout`` names it: ``right``, ``9-9/5``, ``train 2``), a
pass showing a hidden row's front tile and
a ``turn_up`` (fixed lines, ``jit_record``'s tokens after the plain game's); a deal of
hidden rows is ``general_loop.deal_event``'s dict, a wide kernel's deal its hands' words
joined into masks. Nothing here plays:
it only spells out what the kernel did, so a change of the record format stays in one
place.

``reason(game)`` says which rulesets' records the JIT does not write yet: those whose
record holds more than deals (hidden rows, leftover tiles in a hand, tiles twice, any set
size), a tile turned up, placements (on a line's ends, a spinner's arms, with the half
that meets the end, a shaped board's named ends), draws, passes (showing a row's front
tile), events' score, set, extra turn and skip lines, duties laid, met and failed (with
their score and draw lines), players out, the tiles of a move of several (their
``part``), declarations' ``declare``, ``claim`` and ``draw`` lines and the showdown's
``penalty`` lines (items from ``K_PART``, spelled by ``declarations``' own writers), round
ends (with variables and play points, or stopped at the target) and the match's end. When
the JIT gains a mechanism of play, its record lines must be added here (and in
``jit_record``) before ``reason`` lets it through.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..engine.board import END_NAMES
from ..engine.general_loop import deal_event
from ..engine.mechanisms import declarations as declare_rules
from ..engine.mechanisms import duties as duty_rules
from ..engine.mechanisms import side_out as side_out_rule
from ..engine.mechanisms import turn_up as turn_up_rule
from ..record_lines import dumps, encode_events
from .jit_layout import name_of
from .jit_record import (
    AT_LINE,
    CLAIM,
    K_AT,
    K_AT_PART,
    K_CLAIM,
    K_DEAL,
    K_DECL_DRAW,
    K_DECLARE,
    K_DUTY,
    K_END,
    K_FAILED,
    K_MET,
    K_OUT,
    K_PART,
    K_PENALTY,
    K_ROUND,
    K_RULE_DRAW,
    K_SCORE,
    K_SET,
    K_START,
    LINE,
    WAY,
    dat_bound,
    duty_bound,
    event_bound,
    log_bound,
)

if TYPE_CHECKING:
    import numpy as np

    from ..engine.game import Game

# what would add lines or fields the JIT's record writer does not write, by the rule that
# sets it: (is used, what it is called)
_NOT_WRITTEN: tuple[tuple[Callable, str], ...] = (
    # events' score, set, extra_turn and skip lines, duties' lines, the draws an event
    # makes the next player take, a match ended mid-round, events reading the table and
    # players out are written (jit_events.fire, pay_draws and jit_duties gather them);
    # moves of several tiles, declarations and the showdown are written (jit_declare
    # gathers their lines), a tile turned up with the deal, before the round's first
    # declarations, as the general loop writes it
    # the turn options alone add no line: a pass at will is a pass, a draw a draw
    # (general_loop), and the kernel logs them (jit_loop); with events they stay out
)


def reason(game: Game) -> str | None:
    """Why the JIT does not write this ruleset's records (a sentence), or None when it
    does: the Python engine then writes them."""
    r = game.rules
    for used, what in _NOT_WRITTEN:
        if used(r):
            return (f"the JIT does not write the records of {r.name}'s {what}; the python "
                    "engine does")
    return None


class RecordText:
    """One ruleset at one player count: a batch's log turned into its record's text."""

    def __init__(self, game: Game, players: int):
        from .generate import record_texts
        from .jit_bits import BITS, words  # (numba: a kernel is running)

        texts = record_texts(game, players)
        # a set over 62 tiles: a deal's hand is its W words (jit_record.deal_item_words)
        self.words, self.bits = words(game.tileset.tile_count), BITS
        r = game.rules
        self.N, self.T = players, game.tileset.tile_count
        self.fixed = [*texts["PLACE_TXT"], *texts["DRAW_TXT"], *texts["PASS_TXT"],
                      *_house_texts(game, players)]
        self.start_text, self.deal_text = texts["match_start_text"], texts["deal_text"]
        self.sides = len(game.teams(players))
        self.names = [v.name for v in r.variables]
        self.tiles = [[ts_low, ts_high] for ts_low, ts_high in
                      zip(game.tileset.low, game.tileset.high, strict=True)]
        self.events = bool(r.events)   # round_end's play_points
        # the text of each event line met so far (a few thousand kinds repeat: a duty
        # failed by a seat, a score of a few points), written once
        self.seen: dict[tuple, str] = {}
        # an event's lines a round: scores, sets and duties (an item each: LINE numbers)
        # and extra turns; the duties' later lines; a player out at most once; with turns
        # granted or skipped, the skips and passes fewer than 2 * N between two
        # placements or draws, as passes at will
        lines = _event_lines(game, self.sides, players)
        rows = self.T if r.blind else 0   # hidden rows: a seat passes until its front fits
        most = (event_bound(self.N, self.T, lines, rows) + self.N
                + duty_bound(self.N, self.T, *_duty_lines(game, players)))
        turns = r.passing != "forced" or any(e.again is not None or e.skip is not None
                                             for e in r.events)
        self.log_round = log_bound(self.N, self.T, turns, rows) + most
        # deal.blind: the deal lists each hand as its row (general_loop.deal_event), so it
        # is written from that dict; deal.leftover: a deal whose hands hold every tile
        # leaves no boneyard (the receiver's hand took it)
        self.blind, self.leftover = bool(r.blind), r.leftover != "boneyard"
        self.dealt, self.tileset = game.setup(players).dealt, game.tileset
        self.dat_round = (dat_bound(self.N, self.T, self.sides, len(self.names), self.words)
                          + LINE * most + (AT_LINE * self.T if r.layout is not None else 0))
        lines, numbers = _declared_bound(game, players)
        self.log_round += lines
        self.dat_round += numbers
        self.declarations = r.declarations
        self.side_of = game.side_of(players)
        # board.layout: a placement's line names its end (jit_record.at_item), each
        # (seat, tile, end) written once
        self.at_texts: dict[tuple[int, int, int], str] = {}
        self.shared = r.layout.shared_train if r.layout is not None else ""

    def text(self, log: np.ndarray, dat: np.ndarray) -> str:
        """The JSON Lines text of the whole matches logged in ``log`` and ``dat``."""
        d = dat.tolist()
        N, T, S, names, W = self.N, self.T, self.sides, self.names, self.words
        tiles, seen = self.tiles, self.seen
        NV = len(names)
        events = self.events
        start_text = self.start_text
        items: list[str] = []
        add = items.append
        # the round ends and match ends, encoded together at the end (orjson, when the
        # fast extra is installed, writes a batch of them at a tenth of the cost of each
        # alone); ``at``: their places among the items
        ends: list[dict] = []
        at: list[int] = []
        i, end = 0, len(d)
        while i < end:
            kind = d[i]
            if kind == K_AT:
                add(self._at(d[i + 1], d[i + 2], d[i + 3]))
                i += AT_LINE
            elif kind == K_DEAL:
                leader, j = d[i + 2], i + 3 + N * W
                hands = d[i + 3:j] if W == 1 else self._masks(d[i + 3:j])
                add(self._deal(d[i + 1], None if leader < 0 else leader, hands, d[j:j + T]))
                i = j + T
            elif kind == K_ROUND:
                j = i + 4 + N
                winner = d[i + 3]
                line = {"event": "round_end", "round": d[i + 1],
                        "result": _RESULTS[d[i + 2]],
                        "winner": None if winner < 0 else winner, "pips": d[i + 4:j],
                        "points": d[j:j + S], "scores": d[j + S:j + 2 * S]}
                if events:
                    k = j + 2 * S + NV
                    line["play_points"] = d[k:k + S]
                if NV:
                    line["variables"] = dict(zip(names, d[j + 2 * S:j + 2 * S + NV],
                                                 strict=True))
                at.append(len(items))
                add("")
                ends.append(line)
                i = j + 2 * S + NV + (S if events else 0)
            elif kind >= K_PART:   # a tile of a move of several, declarations' lines
                text, i = self._declared(d, i)
                add(text)
            elif kind == K_SCORE or kind >= K_SET:   # events' lines, duties', a player out
                key = (kind, d[i + 1], d[i + 2], d[i + 3], d[i + 4])
                text = seen.get(key)
                if text is None:
                    text = dumps(_event_line(*key, names, tiles))
                    if len(seen) < _SEEN:
                        seen[key] = text
                add(text)
                i += LINE
            elif kind == K_START:
                add(start_text(d[i + 1]))
                i += 2
            elif kind == K_END:
                winner = d[i + 1]
                at.append(len(items))
                add("")
                ends.append({"event": "match_end", "winner": None if winner < 0 else winner,
                             "scores": d[i + 2:i + 2 + S]})
                i += 2 + S
            else:   # pragma: no cover - the kernel writes only these
                raise ValueError(f"unknown record item {kind} at {i}")
        if not items:
            return ""
        for k, line in zip(at, encode_events(ends).split("\n"), strict=False):
            items[k] = line
        table = self.fixed + items
        return "\n".join(map(table.__getitem__, log.tolist())) + "\n"

    def _declared(self, d: list[int], i: int) -> tuple[str, int]:
        """The line of the item at ``d[i]`` from ``K_PART`` (``jit_record``): a tile of a
        move of several, a ``declare``, ``claim``, an option's ``draw`` or a ``penalty``,
        as the general loop writes it (``declarations``' writers); and the next item's
        place."""
        key = tuple(d[i:i + (CLAIM if d[i] == K_CLAIM else LINE)])
        text = self.seen.get(key)
        if text is None:
            text = dumps(self._declared_line(key))
            if len(self.seen) < _SEEN:
                self.seen[key] = text
        return text, i + len(key)

    def _declared_line(self, item: tuple[int, ...]) -> dict:
        kind, p, a, b, c = item[:LINE]
        if kind == K_PART:   # (a // WAY: the half meeting the end, 1 low, 2 high: part_way_item)
            tile = self.tiles[(a % WAY) >> 2]
            line = {"event": "place", "player": p, "tile": tile, "end": END_NAMES[a & 3]}
            if a // WAY:
                line["meets"] = tile[a // WAY - 1]
            line["part"] = [b, c]
            return line
        if kind == K_AT_PART:   # on a shaped board (a the tile, b its end's NAME code)
            return {"event": "place", "player": p, "tile": self.tiles[a],
                    "end": name_of(b, self.tileset.low, self.tileset.high, self.shared),
                    "part": [c >> 8, c & 255]}
        if kind == K_PENALTY:
            mine = self.side_of[p]
            return declare_rules.penalty_event(
                p, a, [-b if s == mine else c for s in range(self.sides)])
        if kind == K_DECL_DRAW:   # (a tile, b the declaration)
            return declare_rules.draw_line(p, self.declarations[b], self.tiles[a])
        decl = self.declarations[a]
        if kind == K_DECLARE:
            return declare_rules.event(p, decl, b, declare_rules.Declared({}))
        if kind == K_CLAIM:
            mine, theirs = item[LINE:]
            side = self.side_of[p]
            return declare_rules.event(p, decl, b, declare_rules.Declared(
                {}, decl.claims[b], c,
                tuple(mine if s == side else theirs for s in range(self.sides))))
        raise ValueError(f"unknown record item {kind}")   # pragma: no cover - only these
    def _at(self, player: int, t: int, name: int) -> str:
        """A placement's line on a shaped board: the end named as ``Layout`` names it."""
        key = (player, t, name)
        text = self.at_texts.get(key)
        if text is None:
            tile = self.tiles[t]
            where = name_of(name, self.tileset.low, self.tileset.high, self.shared)
            text = self.at_texts[key] = dumps({"event": "place", "player": player,
                                               "tile": tile, "end": where})
        return text

    def _masks(self, words: list[int]) -> list[int]:
        """Each hand's ``W`` words (``jit_bits``: word 0 the lowest tiles) as one mask."""
        W, B = self.words, self.bits
        return [sum(x << (B * k) for k, x in enumerate(words[s:s + W]))
                for s in range(0, len(words), W)]

    def _deal(self, rnd: int, leader: int | None, hands: list[int], deck: list[int]) -> str:
        """A deal's line, as ``generate.record_texts``' ``deal_text`` writes it."""
        dealt = self.dealt
        if self.leftover and sum(h.bit_count() for h in hands) == self.T:
            dealt = self.T   # the tiles left over are in a hand (GeneralLoop._leftover)
        if self.blind:
            return dumps(deal_event(self.tileset, rnd, leader, hands, deck, dealt, True))
        return self.deal_text(rnd, leader, hands, deck if dealt == self.dealt else [])


_RESULTS = ("domino", "blocked", "target")   # a round_end item's result
_SEEN = 1 << 16   # the most event lines' texts a RecordText keeps


def _event_line(kind: int, player: int, a: int, b: int, c: int, names: list[str],
                tiles: list[list[int]]) -> dict:
    """The record line of an event's item (``jit_record``'s K_SCORE, and the kinds from
    K_SET), as the general loop writes it (by the mechanism's own writer where it has
    one)."""
    if kind == K_SCORE:
        return {"event": "score", "player": player, "side": a, "points": b, "rule": c}
    if kind == K_SET:
        return {"event": "set", "player": player, "variable": names[a], "value": b,
                "rule": c}
    if kind == K_DUTY:
        return duty_rules.laid_line(duty_rules.laid(a, player, tuple(tiles[b])))
    if kind == K_MET:
        return duty_rules.met_line(duty_rules.Duty(a, player, None))
    if kind == K_FAILED:
        return duty_rules.failed_line(duty_rules.Duty(a, player, None),
                                      None if b < 0 else b)
    if kind == K_RULE_DRAW:
        return {"event": "draw", "player": player, "tile": tiles[a], "rule": b}
    if kind == K_OUT:
        return side_out_rule.out_line(player)
    raise ValueError(f"unknown record item {kind}")   # pragma: no cover - only these


def _house_texts(game: Game, players: int) -> list[str]:
    """The fixed lines after the plain game's, in ``jit_record``'s token order: each seat's
    ``extra_turn`` and ``skip``, a placement on a spinner's up and down arms, one
    naming the half that meets the end (the tile's low half, then its high half) on each
    of the four ends, a pass showing a hidden row's front tile, and each tile turned up
    from the stock."""
    ts = game.tileset
    seats = range(players)
    tiles = [[ts.low[t], ts.high[t]] for t in range(ts.tile_count)]
    out = [dumps({"event": "extra_turn", "player": p}) for p in seats]
    out += [dumps({"event": "skip", "player": p}) for p in seats]
    out += [dumps({"event": "place", "player": p, "tile": tile, "end": END_NAMES[e]})
            for p in seats for tile in tiles for e in (2, 3)]
    out += [dumps({"event": "place", "player": p, "tile": tile, "end": END_NAMES[e],
                   "meets": tile[flip]})
            for p in seats for tile in tiles for e in range(4) for flip in (0, 1)]
    out += [dumps({"event": "pass", "player": p, "tile": tile}) for p in seats for tile in tiles]
    out += [dumps(turn_up_rule.record_event(tile)) for tile in tiles]
    return out


def _event_lines(game: Game, sides: int, players: int) -> dict[str, int]:
    """Per action (place, draw, pass), the most record lines its event rules write: a
    ``score`` a side that gains (every side with ``each_opponent``), a ``set`` a
    variable, an ``extra_turn``, a ``duty`` a seat it falls on."""
    out: dict[str, int] = {}
    for e in game.rules.events:
        n = ((sides if e.each_opponent is not None else 1 if e.points is not None else 0)
             + len(e.sets) + (e.again is not None) + (players if e.duty is not None else 0))
        out[e.after] = out.get(e.after, 0) + n
    return out


def _declared_bound(game: Game, players: int) -> tuple[int, int]:
    """The most tokens and ``DAT`` numbers a round's moves of several tiles and
    declarations add: a ``part`` line a placement, a choice a declaration at the round's
    start and after each placement (a claim ``CLAIM`` numbers), an option's draws (a tile
    each) and a ``penalty`` a seat."""
    r, T = game.rules, game.tileset.tile_count
    parts = T if r.several is not None else 0
    start = sum(d.when == "round_start" for d in r.declarations)
    place = sum(d.when == "after_place" for d in r.declarations)
    drawn = T if r.declarations else 0
    shown = players if r.showdown is not None else 0
    lines = parts + start + T * place + drawn + shown
    return lines, LINE * lines + (CLAIM - LINE) * (start + T * place)


def _duty_lines(game: Game, players: int) -> tuple[int, int]:
    """The most duties one placement lays (a seat each rule), and of them those that
    pass on when failed (``duty_bound``)."""
    duties = [e.duty for e in game.rules.events if e.duty is not None]
    return players * len(duties), players * sum(d.passes_on for d in duties)
