"""One batch of matches, played where a worker runs it: a local process, a Dask worker or here.

A batch is a range of match indices in one pairing. Every seed is played on every
ruleset of the pairing, so the rulesets share their deals, and the batch returns
only running sums (``metrics.Aggregate``), plus the batch's CSV rows when asked:
never lists of records. Games hold compiled closures, so they never travel: each
worker process loads a ruleset from its ref once and keeps it.
"""

from __future__ import annotations

import csv
import importlib
import io
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..diagnostics import Diagnostic, DiagnosticError
from .metrics import (
    INT64_SAFE,
    MAX_FEATURE,
    Aggregate,
    CrossAggregate,
    feature_names,
    features,
)

DEFAULT_API = "dominorules.api"

ROUND_FIELDS = (
    "pairing", "ruleset", "players", "match", "seed", "bots", "round", "leader", "result",
    "winner", "winner_seat", "tied_block", "turns", "placements", "draws", "passes",
    "decisions", "choice_points", "redeals",
)
MATCH_FIELDS = ("match_rounds", "match_winner")


def csv_header(players: int) -> list[str]:
    """Columns of the per-round CSV: the round's facts, then points and scores per side."""
    return (list(ROUND_FIELDS) + [f"points_{s}" for s in range(players)]
            + [f"score_{s}" for s in range(players)] + list(MATCH_FIELDS))


@dataclass(frozen=True)
class Pairing:
    """Rulesets played on the same seeds with the same seats and bots.

    ``bots`` names the bot of every seat. When ``skilled_bot`` is set (the skill
    pairing) the seat ``index % players`` of match ``index`` plays it instead, so the
    skilled player sits in every seat equally often.
    """

    name: str
    refs: tuple[str, ...]
    players: int
    bots: tuple[str, ...]
    skilled_bot: str | None = None
    labels: tuple[str, ...] = ()   # what reports call each ruleset (default: its name)

    def seat_bots(self, index: int) -> tuple[list[str], int | None]:
        bots = list(self.bots)
        if self.skilled_bot is None:
            return bots, None
        seat = index % self.players
        bots[seat] = self.skilled_bot
        return bots, seat


@dataclass(frozen=True)
class BatchSpec:
    """What a worker needs to play a batch: small, picklable, no Game objects."""

    pairing: Pairing
    base_seed: int
    start: int
    stop: int
    csv: bool = False
    api_module: str = DEFAULT_API
    joint: bool = False   # also sum every ruleset's features side by side (attribution)
    engine: str = "auto"  # kernel.engines, decided here, in the worker: what it has installed
    planned: int = 0      # matches the whole run may play (auto takes the JIT for long runs)


@dataclass
class BatchResult:
    """A batch's running sums (one Aggregate per ruleset, one CrossAggregate per other ruleset)."""

    spec: BatchSpec
    aggs: list[Aggregate] = field(default_factory=list)
    crosses: list[CrossAggregate] = field(default_factory=list)
    rounds: int = 0
    csv_text: str | None = None
    seconds: float = 0.0
    error: list[Diagnostic] | None = None
    joint: Aggregate | None = None
    capped: tuple[int, ...] = ()  # per ruleset: matches stopped undecided by the round cap


_GAMES: dict[tuple[str, str], Any] = {}


def _api(name: str) -> Any:
    return importlib.import_module(name)


def game_for(api_module: str, ref: str) -> Any:
    """The loaded ruleset, cached per process (rulesets are loaded once per worker)."""
    key = (api_module, ref)
    game = _GAMES.get(key)
    if game is None:
        game = _api(api_module).load_game(ref)
        _GAMES[key] = game
    return game


def run_batch(spec: BatchSpec) -> BatchResult:
    """Play the batch; a DiagnosticError comes back as ``error`` (it does not pickle)."""
    try:
        return _run(spec)
    except DiagnosticError as exc:
        return BatchResult(spec, error=exc.diagnostics)


def _run(spec: BatchSpec) -> BatchResult:
    t0 = time.perf_counter()
    api = _api(spec.api_module)
    pairing = spec.pairing
    players = pairing.players
    games = [game_for(spec.api_module, ref) for ref in pairing.refs]
    dim = len(feature_names(players))
    vectors: list[list[list[int]]] = [[] for _ in games]
    points: list[list[int]] = [[] for _ in games]     # every round's points, for the chart
    capped = [0] * len(games)
    out = io.StringIO() if spec.csv else None
    writer = csv.writer(out) if out is not None else None
    # one name for every seat takes the engine's fast path (the same matches either way)
    same = pairing.skilled_bot is None and len(set(pairing.bots)) == 1
    # the JIT plays through the real api only (a test's stand-in api module is there to be
    # called); a skilled seat rotates, so the JIT plays the batch once per seat it takes
    on_jit = (jit_games(spec, games) if spec.api_module == DEFAULT_API
              else [False] * len(games))
    seeds = _seeds(api, spec, any(on_jit))
    jit = [_jit_batch(spec, game, seeds) if on else None
           for game, on in zip(games, on_jit, strict=True)]
    folded = [None] * len(games)     # per JIT ruleset without --csv: its feature rows
    for k, played in enumerate(jit):
        if played is not None and not spec.csv and pairing.skilled_bot is None:
            folded[k], round_points, capped[k] = played.features()
            points[k].extend(round_points.tolist())
    for index, seed in enumerate(seeds, spec.start):
        if all(f is not None for f in folded):
            break
        bots, skilled = pairing.seat_bots(index)
        play_bots = bots[0] if same else bots
        for k, game in enumerate(games):
            if folded[k] is not None:
                continue
            match = (api.play_match(game, players, seed, play_bots) if jit[k] is None
                     else jit[k].results[index - spec.start])
            vectors[k].append(features(match, skilled, points[k]))
            capped[k] += match.capped
            if writer is not None:
                _write_rounds(writer, pairing, k, index, seed, bots, match)
    rows = [f if f is not None else r
            for f, r in zip(folded, _as_arrays(vectors, dim, pairing), strict=True)]
    rounds_col = feature_names(players).index("rounds")
    aggs = []
    for k in range(len(games)):
        agg = Aggregate(dim, rounds_hist=Counter(rows[k][:, rounds_col].tolist()),
                        points_hist=Counter(points[k]))
        agg.add_rows(rows[k])
        aggs.append(agg)
    crosses = []
    for k in range(1, len(games)):
        cross = CrossAggregate(dim)
        cross.add_rows(rows[0], rows[k])
        crosses.append(cross)
    total_rounds = sum(int(r[:, rounds_col].sum()) for r in rows)
    joint = None
    if spec.joint:
        joint = Aggregate(dim * len(games))
        joint.add_rows(np.hstack(rows))
    return BatchResult(spec, aggs, crosses, total_rounds,
                       out.getvalue() if out is not None else None,
                       time.perf_counter() - t0, joint=joint, capped=tuple(capped))


def prepare(spec: BatchSpec) -> None:
    """Load what the batch needs without playing it: its rulesets and, where the JIT plays
    them, their kernels (one match played and dropped: numba loads a kernel at its first
    call). A pool forked afterwards starts with them loaded, instead of each worker loading
    the kernel again (some 0.6 s of CPU a worker, 20-30 s on a cold cache)."""
    games = [game_for(spec.api_module, ref) for ref in spec.pairing.refs]
    on_jit = jit_games(spec, games) if spec.api_module == DEFAULT_API else []
    if not any(on_jit):
        return
    from ..kernel import engines
    from ..kernel.seeds import match_seeds

    first = match_seeds(spec.base_seed, spec.start, spec.start + 1).tolist()
    for game, on in zip(games, on_jit, strict=True):
        if on:
            engines.JitBatch(game, spec.pairing.players, first, _tables(spec)[0]).features()


def _tables(spec: BatchSpec) -> list[list[str]]:
    """The seats' bots of the batch's matches: one list, or with a skilled seat one per seat
    it takes (match ``index`` plays ``_tables(spec)[index % players]``)."""
    pairing = spec.pairing
    if pairing.skilled_bot is None:
        return [list(pairing.bots)]
    return [pairing.seat_bots(seat)[0] for seat in range(pairing.players)]


def jit_games(spec: BatchSpec, games: list) -> list[bool]:
    """Per ruleset, whether the JIT engine plays the batch (``kernel.engines.choose`` for
    every table of bots it plays: the same matches either way)."""
    from ..kernel import engines

    players = spec.pairing.players

    def on_jit(game, bots: list[str]) -> bool:
        if spec.pairing.skilled_bot is not None and spec.engine == "jit":
            # --engine jit binds the main pairing (compare checks it); the skill pairing takes
            # the JIT where it can (an expert as the skilled seat keeps Python)
            return engines.jit_reason(game, players, bots) is None
        return engines.choose(game, players, bots, spec.engine, matches=spec.planned) == "jit"

    return [all(on_jit(game, bots) for bots in _tables(spec)) for game in games]


def _jit_batch(spec: BatchSpec, game, seeds: list[int]):
    """The batch's matches of one ruleset, played by the JIT engine: a ``JitBatch``, or with
    a skilled seat the matches of every seat's batch back in index order (``results``)."""
    from ..kernel import engines

    players, tables = spec.pairing.players, _tables(spec)
    if len(tables) == 1:
        return engines.JitBatch(game, players, seeds, tables[0])
    results: list = [None] * len(seeds)
    for seat, bots in enumerate(tables):
        at = [i for i in range(len(seeds)) if (spec.start + i) % players == seat]
        if at:
            played = engines.JitBatch(game, players, [seeds[i] for i in at], bots).results
            for i, match in zip(at, played, strict=True):
                results[i] = match
    return _Played(results)


@dataclass
class _Played:
    """Matches the JIT played, read as ``JitBatch.results`` is."""

    results: list


def _seeds(api: Any, spec: BatchSpec, jit: bool) -> list[int]:
    """The batch's match seeds (``api.match_seed``): hashed in numba when the JIT plays
    (numba is loaded then; 0.3 against 0.7 us a seed), else through hashlib."""
    if jit:
        from ..kernel.seeds import match_seeds

        return match_seeds(spec.base_seed, spec.start, spec.stop).tolist()
    return [api.match_seed(spec.base_seed, i) for i in range(spec.start, spec.stop)]


def _as_arrays(vectors: list[list[list[int]]], dim: int, pairing: Pairing) -> list[np.ndarray]:
    """Each ruleset's feature rows as one array: int64 while sums stay exact in it, else
    Python ints; a value beyond ``MAX_FEATURE`` is refused in one line."""
    big = max((abs(x) for v in vectors for row in v for x in row), default=0)
    if big > MAX_FEATURE:
        raise DiagnosticError([Diagnostic(
            "numbers", f"{pairing.name}: a match scored about 10^{len(str(big)) - 1} points; "
            "compare handles at most 10^150 points a match",
            hint="scale the ruleset's points down (simulate, verify and replay take any size)")])
    dtype = np.int64 if big < INT64_SAFE else object
    return [np.array(v, dtype=dtype).reshape(len(v), dim) for v in vectors]


def _write_rounds(writer: Any, pairing: Pairing, k: int, index: int, seed: int,
                  bots: list[str], match: Any) -> None:
    pad = pairing.players
    for r in match.rounds:
        points = list(r.points) + [""] * (pad - len(r.points))
        scores = list(r.scores) + [""] * (pad - len(r.scores))
        writer.writerow([
            pairing.name, pairing.labels[k] if pairing.labels else match.ruleset,
            pairing.players, index, seed, " ".join(bots),
            r.round, r.leader, r.result,
            "" if r.winner is None else r.winner,
            "" if r.winner_seat is None else r.winner_seat,
            int(r.tied_block), r.turns, r.placements, r.draws, r.passes, r.decisions,
            r.choice_points, r.redeals, *points, *scores,
            len(match.rounds), "" if match.winner is None else match.winner,
        ])
