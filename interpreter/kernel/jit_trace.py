"""The JIT's game records: the kernel's log of a batch (``jit_record``) read back as the
record file's JSON Lines text, byte for byte what the Python engine writes.

The kernel logs one token a line: a placement, draw or pass is the index of its text in
a table made once per ruleset and player count by the Python kernel's own writer
(``generate.record_texts``); a line with numbers (a match's start, a deal, a round's end,
the match's end) is an item of ``DAT``, turned into its line here by the same writer and
the record encoder (``record_lines.encode_events``, a call's at once). Nothing here plays:
it only spells out what the kernel did, so a change of the record format stays in one
place.

``reason(game)`` says which rulesets' records the JIT does not write yet: those whose
record holds more than deals, placements on a line's two ends, draws, passes, round ends
(with variables) and the match's end. When the JIT gains a mechanism of play, its record
lines must be added here (and in ``jit_record``) before ``reason`` lets it through.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..record_lines import encode_events
from . import jit_bits
from .jit_record import K_DEAL, K_END, K_ROUND, K_START, dat_bound, log_bound

if TYPE_CHECKING:
    import numpy as np

    from ..engine.game import Game

# what would add lines or fields the JIT's record writer does not write, by the rule that
# sets it: (is used, what it is called)
_NOT_WRITTEN: tuple[tuple[Callable, str], ...] = (
    (lambda r: bool(r.events), "play-time events (their score, turn and variable lines)"),
    (lambda r: r.spinner != "none", "a spinner (its up and down arms)"),
    (lambda r: r.fit is not None or r.doubles != "across", "a fit rule (matching)"),
    (lambda r: r.layout is not None, "a shaped board (its arms and trains)"),
    (lambda r: r.several is not None, "moves of several tiles (play.several)"),
    (lambda r: bool(r.declarations) or r.showdown is not None,
     "declarations or the showdown"),
    (lambda r: r.ends_in_play, "a match ended mid-round"),
    (lambda r: r.reads_table or any(e.duty is not None or e.sets for e in r.events),
     "events reading the table, setting variables or laying duties"),
    (lambda r: r.blind or r.turn_up, "a blind or turned-up deal"),
    # the deal line lists the tiles left over in the hand that took them (docs/records.md)
    (lambda r: r.leftover != "boneyard", "tiles left over dealt to a player (deal.leftover)"),
    (lambda r: r.play_until != "first_out", "players going out (play.until: their out lines)"),
    (lambda r: r.copies > 1, "two sets shuffled together (set.copies)"),
    # the turn options alone add no line: a pass at will is a pass, a draw a draw
    # (general_loop), and the kernel logs them (jit_template); with events they stay out
)


def reason(game: Game) -> str | None:
    """Why the JIT does not write this ruleset's records (a sentence), or None when it
    does: the Python engine then writes them."""
    r = game.rules
    if jit_bits.words(game.tileset.tile_count) > 1:   # a wide kernel's hands (jit_bits)
        return (f"the JIT does not write the records of {r.name}'s set of "
                f"{game.tileset.tile_count} tiles (over {jit_bits.BITS}); the python "
                "engine does")
    for used, what in _NOT_WRITTEN:
        if used(r):
            return (f"the JIT does not write the records of {r.name}'s {what}; the python "
                    "engine does")
    return None


class RecordText:
    """One ruleset at one player count: a batch's log turned into its record's text."""

    def __init__(self, game: Game, players: int):
        from .generate import record_texts

        texts = record_texts(game, players)
        self.fixed = [*texts["PLACE_TXT"], *texts["DRAW_TXT"], *texts["PASS_TXT"]]
        self.start_text, self.deal_text = texts["match_start_text"], texts["deal_text"]
        self.N, self.T = players, game.tileset.tile_count
        self.sides = len(game.teams(players))
        self.names = [v.name for v in game.rules.variables]
        self.log_round = log_bound(self.N, self.T, game.rules.passing != "forced")
        self.dat_round = dat_bound(self.N, self.T, self.sides, len(self.names))

    def text(self, log: np.ndarray, dat: np.ndarray) -> str:
        """The JSON Lines text of the whole matches logged in ``log`` and ``dat``."""
        d = dat.tolist()
        N, T, S, names = self.N, self.T, self.sides, self.names
        NV = len(names)
        deal_text, start_text = self.deal_text, self.start_text
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
            if kind == K_DEAL:
                leader, j = d[i + 2], i + 3 + N
                add(deal_text(d[i + 1], None if leader < 0 else leader, d[i + 3:j],
                              d[j:j + T]))
                i = j + T
            elif kind == K_ROUND:
                j = i + 4 + N
                winner = d[i + 3]
                line = {"event": "round_end", "round": d[i + 1],
                        "result": "blocked" if d[i + 2] else "domino",
                        "winner": None if winner < 0 else winner, "pips": d[i + 4:j],
                        "points": d[j:j + S], "scores": d[j + S:j + 2 * S]}
                if NV:
                    line["variables"] = dict(zip(names, d[j + 2 * S:j + 2 * S + NV],
                                                 strict=True))
                at.append(len(items))
                add("")
                ends.append(line)
                i = j + 2 * S + NV
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
