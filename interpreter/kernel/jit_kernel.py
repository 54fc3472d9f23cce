"""The JIT engine: a ruleset's numba kernel, written once to a cache folder, run in batches.

``jit_reason(game, players, bots)`` says why the JIT cannot play a match (None when it
can); ``JitKernel(game, players).run(seeds, kinds)`` plays a batch and returns its
round and match rows; ``results`` turns rows into the ``MatchResult`` objects the
Python engine returns, equal field for field (``tests/test_kernel_jit.py``).

The kernel's source is ``jit_loop`` (real Python) specialised by its syntax tree
(``specialise_kernel.specialised_module``: switches folded, the ruleset's scoring formulas
put in, the array indexes written in as numbers); its file name is a hash of that
source and of the modules it calls, so a changed engine never runs stale machine code,
and rulesets with the same formulas share one compiled kernel. A ruleset with house
rules of a round's end, the match's end, the deal, the lead or the opening gets the
``GEN`` lines instead, the same source for all of them (``jit_house``: its formulas are
programs, data). numba caches the machine code beside the file: the first run of a
kernel compiles it (seconds), every later run and worker loads it.
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cached_property, lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, DiagnosticError
from ..engine.general_loop import MAX_REDEALS, MAX_TURNS
from ..engine.results import MatchResult, RoundStats
from . import compiled_in, jit_house, jit_template
from .cache import (
    CLEAR_HINT,
    cache_root,
    entry_kind,
    locked,
    private_folder,
    read_text,
    remove,
    tell,
    tell_damaged,
    unsafe,
)
from .formulas import Unsupported, emit, magnitude
from .specialise_kernel import specialised_module

if TYPE_CHECKING:
    import numpy as np

    from ..engine.game import Game

BOT_KINDS = {"random": 0, "greedy": 1, "strategist": 2}   # the bots it plays (jit_loop)
MAX_TILES = 62   # hand masks are int64; a larger set's are words (jit_bits, jit_house.WIDE_AFTER)
# a round's points, a target, a start score at most this: 1000 rounds stay far inside int64
MAX_NUMBER = 1 << 40
# the numbers of a record's log a JIT call fills at most (of tokens, and of DAT's numbers:
# jit_record): some 70 two-player double-six matches, 2 MB of text a call. Larger logs
# cost more than they save: 20,000 traced double-six matches took 1.1 s of system time with logs of
# 1 << 18 (a 10 MB string a call, each a fresh mapping of memory), 0.25 s with 1 << 15
RECORD_LOG = 1 << 15
# Records are a run-time switch (an empty log: ``jit_record``), so one compiled kernel serves
# runs with and without them. Unrecorded, it costs nothing measurable: 13 interleaved pairs
# of 200,000 double-six matches (3 players) took a median 2.23 s of CPU before the switch and
# 2.14 s with it; 6 pairs of 100,000 of a ruleset on the GEN lines 2.26 s and 2.13 s
# the rounds a match plays, as a kernel first guesses them; then it sizes a batch's round
# rows by what it has played so far, with ROWS_MARGIN to spare: rows it does not fill cost
# no memory touched, but a batch outgrowing them plays on into a second array and both are
# copied into one (a ruleset playing 9.6 rounds a match, sized by the guess of 8 alone: every
# 2048 matches wrote their 4 MB of rows twice, the pages of both zeroed by the system)
ROUNDS_GUESS = 8
ROWS_MARGIN = 1.25
_MODULES: dict[str, Any] = {}
# called with a sentence when a kernel is new to this machine and numba is about to compile
# it (the CLI prints it: the first run pauses for seconds); None: say nothing
notice: Callable[[str], None] | None = None
_LOCK = threading.Lock()
_HERE = Path(__file__).resolve().parent


def cache_dir() -> Path:
    """Where kernels are written: ``kernels`` in the cache root (``cache.cache_root``)."""
    return cache_root() / "kernels"


def available() -> bool:
    """numba is installed (and not switched off by ``DOMINORULES_NO_JIT``)."""
    from . import jit
    return jit.available()


def bot_kinds(bots: Any, players: int) -> list[int] | None:
    """Per seat, the kernel's code for its bot; None when a seat's bot is not one the
    kernel plays (only builtin bots named by text)."""
    specs = [bots] * players if isinstance(bots, str) else list(bots)
    if len(specs) != players or not all(isinstance(s, str) for s in specs):
        return None
    kinds = [BOT_KINDS.get(s.strip().lower()) for s in specs]
    return None if None in kinds else kinds


def _bots_refused(bots: Any, players: int) -> str:
    """Why ``bot_kinds`` refused the seats' bots, naming the first seat it cannot play."""
    specs = [bots] * players if isinstance(bots, str) else list(bots)
    played = ", ".join(BOT_KINDS)
    for seat, spec in enumerate(specs):
        if not isinstance(spec, str):
            return (f"seat {seat}'s bot is a Python object; the JIT kernel plays the builtin "
                    f"bots named by text only ({played})")
        if spec.strip().lower() not in BOT_KINDS:
            return (f"seat {seat} plays '{spec.strip()}', which only the python engine plays "
                    f"(the JIT kernel plays {played})")
    return f"{len(specs)} bots for {players} seats"


def _words(tiles: int) -> int:
    """``jit_bits.words``, imported when asked: jit_bits compiles with numba, and this
    module is read (``jit_reason``, the CLI's compile notice) without importing numba."""
    from .jit_bits import words

    return words(tiles)


def _wide(masks: list[int], W: int):
    """``jit_bits.wide``, imported when a wide kernel is made (see ``_words``)."""
    from .jit_bits import wide

    return wide(masks, W)


def jit_reason(game: Game, players: int, bots: Any = "random",
               need_numba: bool = True) -> str | None:
    """Why the JIT engine cannot play this (a sentence), or None when it can
    (``need_numba=False``: whether it could, numba aside)."""
    if need_numba and not available():
        if os.environ.get("DOMINORULES_NO_JIT"):
            return "DOMINORULES_NO_JIT is set"
        return "numba is not installed (pip install 'dominorules[fast]')"
    r = game.rules
    if r.general:
        why = jit_house.reason(game)
        if why is not None:
            return why
    kinds = bot_kinds(bots, players)
    if kinds is None:
        return _bots_refused(bots, players)
    try:
        if not r.general:   # (a general ruleset's: jit_house.reason)
            _formulas(game)
    except Unsupported as exc:
        return f"{r.name}'s scoring formulas read what the JIT kernel does not keep ({exc})"
    T, n = game.tileset.tile_count, players
    hand = sum(abs(v) for v in game.values) + sum(game.tileset.pips)
    try:
        known = {"target": abs(game.target(n))}
        sizes = [magnitude(r.domino_tree, hand, T, n, known),
                 magnitude(r.blocked_tree, hand, T, n, known),
                 abs(game.target(n)), abs(game.draw_cost(n)) * T * n, hand,
                 *jit_house.sizes(game, n, hand)]
    except Unsupported as exc:
        return f"{r.name}'s formulas cannot be bounded for the JIT's 64-bit numbers ({exc})"
    if max(sizes) > MAX_NUMBER:
        return (f"{r.name}'s points may outgrow the JIT kernel's 64-bit numbers "
                "(the python engine counts any size)")
    return None


def _formulas(game: Game) -> tuple[str, str]:
    r = game.rules
    if r.domino_tree is None or r.blocked_tree is None:
        raise Unsupported("a formula without its tree")
    return emit(r.domino_tree, "numba"), emit(r.blocked_tree, "numba")


def kernel_source(game: Game, continuation: bool = False) -> str:
    """The kernel module's source for ``game``: ``jit_loop`` specialised by its syntax tree
    (``specialise_kernel.specialised_module``), its ``GEN`` lines for a ruleset with house
    rules (``jit_house``: the same source for all), else the plain game's with its two
    scoring formulas put in (and its ``WIDE`` lines for a set over ``MAX_TILES``);
    ``continuation``: its ``CONT`` lines too, the expert's playouts (``jit_continuation``)."""
    # a set over MAX_TILES: its hands as words (jit_bits), their number written in, so a
    # smaller set's kernel is the same source as before there were wide ones
    T = game.tileset.tile_count
    wide = T > MAX_TILES
    if jit_house.plays(game.rules):   # its formulas are programs (jit_house.programs)
        return _specialised((("GEN", True), ("WIDE", wide), ("CONT", continuation)),
                            (("W", _words(T)),) if wide else ())
    domino, blocked = _formulas(game)
    return _specialised((("GEN", False), ("WIDE", wide), ("CONT", continuation),
                         ("DOMINO", domino), ("BLOCKED", blocked)),
                        (("W", _words(T)),) if wide else ())


# what jit_loop leaves to its specialisation: the switches and formulas put in where read,
# the numbers written in as its constants (W, every index of jit_template)
_VALUES = ("GEN", "WIDE", "CONT", "DOMINO", "BLOCKED")
_PLACEHOLDERS = frozenset({*_VALUES, "W", *jit_template.INDEXES, *jit_template.PLAY_INDEXES})
_DOC = ("A JIT kernel: kernel/jit_loop.py specialised by kernel.specialise_kernel for one "
        "set of switches (made, not edited).")


@lru_cache(maxsize=16)
def _specialised(values: tuple, numbers: tuple) -> str:
    """``jit_loop`` specialised: GEN's numbers are every index, the plain game's those of
    ``jit_template.INDEXES`` (and ``W``)."""
    values = dict(values)
    indexes = {**jit_template.INDEXES, **(jit_template.PLAY_INDEXES if values["GEN"] else {})}
    source = (_HERE / "jit_loop.py").read_text(encoding="utf-8")
    return specialised_module(source, values, {**indexes, **dict(numbers)}, _PLACEHOLDERS,
                              _DOC)


def _module(source: str):
    """The kernel module of ``source``: written to the cache folder once, made once a
    process; compiled in memory when the cache folder cannot be trusted or written."""
    from . import jit  # numba (and with it scipy) only once a kernel is needed

    digest = compiled_in.digest(source)   # its text and every file it compiles in
    with _LOCK:
        found = _MODULES.get(digest)
        if found is not None:
            return found
        name = f"dominorules_kernel_{digest}"
        path = _cached_file(name, source)
        module = ModuleType(name)
        sys.modules[name] = module
        if path is None:
            tell("compiling a JIT kernel (in memory: it is not kept)")
            jit._uncached += 1
            try:
                exec(compile(source, f"<{name}>", "exec"), module.__dict__)
            finally:
                jit._uncached -= 1
        else:
            module.__file__ = str(path)
            exec(compile(source, str(path), "exec"), module.__dict__)
        _MODULES[digest] = module
        return module


@contextmanager
def first_compile(module: ModuleType) -> Iterator[None]:
    """Around a call of ``module.play_batch``: while it has no machine code in this process
    yet, hold the kernel's own lock in the cache folder, so another process compiling the
    same kernel at the same time (a second pytest-xdist or ``compare`` worker) waits and
    then loads what the first saved, instead of compiling it again beside it (a house
    kernel's compile is minutes of CPU). Compiled in memory or as plain Python: no lock."""
    path = getattr(module, "__file__", None)
    if path is None or getattr(module.play_batch, "signatures", True):
        yield
        return
    with locked(Path(path).parent, exclusive=True, name=f"{Path(path).stem}.lock"):
        yield


def _cached_file(name: str, source: str) -> Path | None:
    """The kernel's file in the cache folder, written if new (atomically: workers may race
    to write the same one); None, with one notice, when the folder is not the user's own,
    is writable by others or cannot be written."""
    folder, root = cache_dir(), cache_root()
    why = private_folder(folder, root)
    if why is None and (folder / "__pycache__").exists():
        why = unsafe(folder / "__pycache__")
    if why is not None:
        tell(f"note: the JIT kernel cache {folder} is not used: {why}; the kernel is "
                 f"compiled in memory (make the folder yours, not writable by others, or "
                 f"set DOMINORULES_CACHE to one that is)")
        return None
    path = folder / f"{name}.py"
    kind = entry_kind(path)
    if kind == "file" and read_text(path) == source:
        return path
    if kind != "missing":
        tell_damaged(folder)
        remove(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(source)
            os.replace(tmp, path)
        except BaseException:
            remove(tmp)
            raise
    except OSError as exc:
        tell(f"note: the JIT kernel cache {folder} cannot be written "
                 f"({exc.strerror or exc}); the kernel is compiled in memory")
        return None
    if notice is not None:
        notice(f"compiling a JIT kernel (once; kept in {folder}; {CLEAR_HINT})")
    return path


class JitKernel:
    """One ruleset at one player count, ready to play batches of seeds."""

    def __init__(self, game: Game, players: int):
        import numpy as np

        from . import jit_strategist  # numba's njit, as the kernel module itself

        self.game, self.players = game, players
        self.module = _module(kernel_source(game))
        r, ts, setup = game.rules, game.tileset, game.setup(players)
        # a set over MAX_TILES: its masks as rows of W words (jit_bits), else one int64 each
        self.words = _words(ts.tile_count) if ts.tile_count > MAX_TILES else 0
        teams = game.teams(players)
        self.sides = len(teams)
        req = game.required_tile
        req_code = (jit_template.REQ_ANY if req == "any" else
                    jit_template.REQ_HIGHEST_DOUBLE if req == "highest_double" else req)
        codes = jit_template.LEAD_CODES
        values = {
            "N": players, "SIDES_N": self.sides, "T": ts.tile_count, "HAND": setup.hand_size,
            "DEALT": setup.dealt, "DRAW_END": setup.draw_end, "LIMIT": setup.draw_limit,
            "DRAW_COST": setup.draw_cost, "TARGET": game.target(players),
            "VOL": setup.voluntary, "STUCK_DRAW": setup.stuck_draws, "REQ_TILE": req_code,
            "OPENER_HOLDER": r.opener == "holder", "DRAW_IN_TURN": r.if_unheld == "draw_in_turn",
            "FIRST_CODE": codes[r.first_leader], "LATER_CODE": codes[r.later_leader],
            "COUNT_FROM_PREV": r.lead_count_from == "previous_leader",
            "INDIVIDUAL": not r.partnerships, "LOWEST_SIDE": r.blocked_winner == "lowest_side",
            "TIE_EACH": r.blocked_tie == "each", "COST_TO_WINNER": r.draw_cost_to == "round_winner",
            "PLAY_ON": setup.play_on, "MAX_REDEALS": MAX_REDEALS,
            "DOUBLES_MASK": 0 if self.words else ts.doubles_mask,   # (wide: TL == TH)
            **jit_house.params(game, players),
        }
        self.Q = np.array([int(values[k]) for k in (*jit_template.PARAMS,
                                                     *jit_template.PLAY_PARAMS)], np.int64)
        i64 = np.int64
        self.side_of = np.array(game.side_of(players), i64)
        self.teams = np.array(teams, i64)
        self.tables = (
            # PM: per end value the tiles that fit it (a fit rule's, matching.fit_tables)
            _wide(setup.value_mask, self.words) if self.words else
            np.array(setup.value_mask, i64), np.array(ts.low, i64), np.array(ts.high, i64),
            np.array(ts.pips, i64), np.array(game.values, i64), np.array(ts.doubles_desc, i64),
            self.side_of, self.teams,
            np.array([[j for j in range(self.sides) if j != i] for i in range(self.sides)], i64),
            np.arange(self.sides, dtype=i64), np.arange(players, dtype=i64),
            jit_strategist.tables(game, players, self.words, jit_house.plays(r)),
            np.array(jit_house.heavy_order(game), i64),
            np.array(jit_house.programs(game, players)[0] if jit_house.plays(r) else [0],
                     i64))
        self.general = jit_house.plays(r)   # match rows end with the final scores
        # points, scores and play-time points per side after the columns
        self.width = len(jit_template.ROUND_COLUMNS) + 3 * self.sides
        self.events = bool(r.events)   # play_points: () when the ruleset has none
        self.played = [0, 0]   # rounds and matches played: the rows of a batch sized by them

    def run(self, seeds: np.ndarray, kinds: list[int], max_rounds: int = 1000,
            start_scores: list[int] | None = None,
            sink: Callable[[str, int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(match rows, round rows) of matches ``seeds`` (int64 array), bots ``kinds``.
        ``sink``: called with (record text, matches in it) as they are played, their
        record (``jit_trace``) written some tens of matches at a time, never held whole."""
        import numpy as np

        n = len(seeds)
        scores0 = np.array(start_scores or [0] * self.sides, np.int64)
        kinds_a = np.array(kinds, np.int64)
        matches = np.empty((n, len(jit_template.MATCH_COLUMNS) + self.sides + 1
                            + len(jit_template.COUNTED)), np.int64)
        log = dat = np.empty(0, np.int64)   # no record
        writer = None
        if sink is not None:
            writer = self.record_text
            log = np.empty(max(RECORD_LOG, 2 * writer.log_round), np.int64)
            dat = np.empty(max(RECORD_LOG, 2 * writer.dat_round), np.int64)
        bounds = (writer.log_round, writer.dat_round) if writer is not None else (0, 0)
        chunks, done, offset = [], 0, 0
        while done < n:
            rounds, seen = self.played
            per = rounds / seen if seen else ROUNDS_GUESS
            rows = np.empty((max_rounds + int(per * ROWS_MARGIN * (n - done)) + 1, self.width),
                            np.int64)
            with first_compile(self.module):
                played, used, failed, logged, numbers = self.module.play_batch(
                    seeds, done, n, max_rounds, scores0, kinds_a, self.Q, *self.tables,
                    matches[done:], rows, log, dat, *bounds)
            if failed < 0:   # the general loop's MAX_TURNS, with its message
                raise DiagnosticError([Diagnostic(
                    "round", f"round {-failed} did not end after {MAX_TURNS} turns: the "
                    "ruleset's events keep the round going forever")])
            if failed:
                raise DiagnosticError([Diagnostic(
                    "deal", f"round {failed}: no deal could open after {MAX_REDEALS} "
                    "redeals; the opening rules can hardly ever be met")])
            if writer is not None:
                if not played:   # one match outgrows the log: it plays again in a larger one
                    log, dat = np.empty(2 * len(log), np.int64), np.empty(2 * len(dat),
                                                                          np.int64)
                    continue
                sink(writer.text(log[:logged], dat[:numbers]), played)
            matches[done:done + played, _I["M_FIRST_ROW"]] += offset
            self.played[0] += used
            self.played[1] += played
            chunks.append(rows[:used])
            offset += used
            done += played
        return matches, (np.concatenate(chunks) if len(chunks) > 1 else chunks[0])

    @cached_property
    def record_text(self):
        """The writer of this kernel's records (``jit_trace.RecordText``), made once."""
        from .jit_trace import RecordText
        return RecordText(self.game, self.players)

    def results(self, seeds, matches, rounds,
                start_scores: list[int] | None = None) -> list[MatchResult]:
        """The ``MatchResult`` of every match of a batch, as the Python engine makes it."""
        with _collector_paused():
            return self._results(seeds, matches, rounds, start_scores)

    def _results(self, seeds, matches, rounds,
                 start_scores: list[int] | None) -> list[MatchResult]:
        game, n, sides = self.game, self.players, self.sides
        before = tuple(start_scores) if start_scores else (0,) * sides
        teams, target, name = game.teams(n), game.target(n), game.rules.name
        out = []
        rows = rounds.tolist()
        m_winner, m_capped, m_rounds, m_first = (
            _I["M_WINNER"], _I["M_CAPPED"], _I["M_ROUNDS"], _I["M_FIRST_ROW"])
        m_scores = _I["M_SCORES"]
        general, events = self.general, self.events
        variables = bool(game.rules.variables)
        counted = [(name, m_scores + sides + 1 + k)   # what the mechanisms did (COUNTED)
                   for k, name in enumerate(jit_template.COUNTED)] if general else []
        for seed, m in zip(seeds.tolist(), matches.tolist(), strict=True):
            winner, capped, count, first = m[m_winner], m[m_capped], m[m_rounds], m[m_first]
            stats = tuple(_round_stats(r, sides, events) for r in rows[first:first + count])
            final = (tuple(m[m_scores:m_scores + sides]) if general   # match.final applied
                     else stats[-1].scores if stats else before)
            result = MatchResult(name, n, seed, teams, None if winner < 0 else winner,
                                 final, target, stats, None, bool(capped))
            # the loop's counters: those of what happened, the variables as the match ended
            counters = {name: m[at] for name, at in counted if m[at]}
            if variables:
                counters["variables_final"] = m[m_scores + sides]
            if counters:
                result.__dict__["counters"] = counters
            out.append(result)
        return out


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while a batch becomes ``MatchResult`` objects
    (on again after, as it was): each match makes some ten tuples and objects a round, none
    of them in a cycle, and the collector's passes over the batch's growing heap cost more
    than making it (house/all-fives, 3 players, 20,000 matches: 0.77 s of CPU with it on,
    0.33 s off)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


_I = jit_template.INDEXES
_RESULTS = ("domino", "blocked", "target")   # a round row's R_RESULT (target: ends_in_play)


def _round_stats(r: list[int], sides: int, events: bool = False) -> RoundStats:
    """A round row (``jit_template.ROUND_COLUMNS``, then points and scores per side) read by
    its columns' names."""
    i = _I
    winner, seat, pts = r[i["R_WINNER"]], r[i["R_WINNER_SEAT"]], i["R_POINTS"]
    return RoundStats(
        round=r[i["R_ROUND"]], leader=r[i["R_LEADER"]],
        result=_RESULTS[r[i["R_RESULT"]]],
        winner=None if winner < 0 else winner, winner_seat=None if seat < 0 else seat,
        tied_block=bool(r[i["R_TIED_BLOCK"]]), points=tuple(r[pts:pts + sides]),
        scores=tuple(r[pts + sides:pts + 2 * sides]), turns=r[i["R_TURNS"]],
        placements=r[i["R_PLACEMENTS"]], draws=r[i["R_DRAWS"]], passes=r[i["R_PASSES"]],
        decisions=r[i["R_DECISIONS"]], choice_points=r[i["R_CHOICE_POINTS"]],
        redeals=r[i["R_REDEALS"]],
        play_points=tuple(r[pts + 2 * sides:pts + 3 * sides]) if events else (),
        extra_turns=r[i["R_EXTRA_TURNS"]], skips=r[i["R_SKIPS"]])


def kernel(game: Game, players: int) -> JitKernel:
    """The game's JIT kernel for ``players`` (made once per game)."""
    kernels = game.__dict__.setdefault("_jit_kernels", {})
    found = kernels.get(players)
    if found is None:
        found = kernels[players] = JitKernel(game, players)
    return found
