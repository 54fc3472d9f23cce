"""Schedule batches of matches on a backend and merge their sums in batch order.

Each pairing is a stream of fixed-size batches (match indices ``start..stop``).
Results are merged strictly in index order, whatever order they finish in, and
a ``--precision`` run checks its stopping rule after each merged batch; so the
numbers, and where a run stops, are the same for any number of workers or any
backend. A worker that dies is reported and its batch rerun; Ctrl-C stops the run
and keeps every batch merged so far.

Backends: ``serial`` (this process), ``processes`` (a ProcessPoolExecutor) and
``dask`` (a distributed Client; dask is imported only when asked for).
"""

from __future__ import annotations

import csv
import multiprocessing as mp
import os
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import IO, Any

from ..diagnostics import Diagnostic, DiagnosticError
from .metrics import Aggregate, CrossAggregate, feature_names
from .worker import (
    DEFAULT_API,
    BatchResult,
    BatchSpec,
    Pairing,
    csv_header,
    game_for,
    jit_games,
    prepare,
    run_batch,
)

MAX_RETRIES = 3
# batches finished ahead of one still in flight are held until it is merged: at most this
# many per batch in flight, so a slow batch cannot make the parent hold the rest of the run
AHEAD = 2
# a fixed run's last batches shrink to a 2 * workers-th of --batch-size, but never below
# this (batch_size_at); a --batch-size this small is kept as it is
TAPER_FLOOR = 50


@dataclass(frozen=True)
class RunSettings:
    """How much to simulate: a fixed ``matches`` count, or until ``precise`` says stop."""

    base_seed: int = 1
    matches: int = 1000
    max_matches: int = 100_000
    batch_size: int = 50
    csv: bool = False
    api_module: str = DEFAULT_API
    in_order: bool = False   # finish each pairing before the next starts (sweeps: Ctrl-C
                             # then keeps whole combinations), instead of taking turns
    first_index: int = 0     # first match index played (a tune's later rung continues);
                             # ``matches`` is then the index to stop before
    joint: bool = False      # also keep sums over every ruleset's features side by side
    engine: str = "auto"     # kernel.engines: who plays (the numbers are the same)
    background: bool = False  # auto: Python plays while a new kernel compiles aside
                              # (kernel.background; the CLI's choice)


@dataclass
class PairingRun:
    """One pairing's merged sums so far and whether (and why) it stopped."""

    pairing: Pairing
    aggs: list[Aggregate]
    crosses: list[CrossAggregate]
    n: int = 0                     # seeds merged (each played on every ruleset)
    rounds: int = 0
    next_start: int = 0            # first index not yet handed to a worker
    pending: dict[int, BatchResult] = field(default_factory=dict)
    joint: Aggregate | None = None   # features of all rulesets side by side (RunSettings.joint)
    done: bool = False
    stop_reason: str = ""          # "matches", "precision", "max-matches" or "interrupted"
    csv_file: IO[str] | None = None
    capped: list[int] = field(default_factory=list)  # per ruleset: stopped by the round cap


@dataclass
class RunOutcome:
    runs: list[PairingRun]
    seconds: float
    interrupted: bool = False
    warnings: list[str] = field(default_factory=list)
    write_errors: list[Diagnostic] = field(default_factory=list)  # outputs that failed

    @property
    def matches(self) -> int:
        """Matches played and merged (seeds x rulesets, all pairings)."""
        return sum(r.n * len(r.pairing.refs) for r in self.runs)

    @property
    def rounds(self) -> int:
        return sum(r.rounds for r in self.runs)


# --- backends ---------------------------------------------------------------------------


class SerialBackend:
    """Runs each batch at once, in this process (``--workers 1``)."""

    name = "serial"
    capacity = 1
    workers = 1

    def __init__(self, batch_fn: Callable[[BatchSpec], BatchResult] = run_batch):
        self.batch_fn = batch_fn

    def submit(self, spec: BatchSpec) -> Future:
        fut: Future = Future()
        fut.set_result(self.batch_fn(spec))
        return fut

    def wait_any(self, futures: list[Any]) -> list[Any]:
        return [f for f in futures if f.done()]

    def died(self, exc: BaseException) -> bool:
        return False

    def failure(self, exc: BaseException) -> Diagnostic | None:
        return None  # an exception in our own process is a bug: let it show

    def restart(self) -> None:
        pass

    def close(self) -> None:
        pass


def _worker_init(parent: int) -> None:
    """Set up a worker: Ctrl-C is the parent's to handle (it stops scheduling and keeps
    finished batches), and a worker whose parent is gone (killed, even by SIGKILL,
    which no handler sees) exits within a second instead of running on alone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's (compare's) handler

    direct = os.getppid()  # ``parent`` itself, or a fork server that it started

    def watch() -> None:
        while os.getppid() == direct and _alive(parent):
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, owned by someone else: not ours to judge
        return True
    return True


def max_workers() -> int:
    """The most local workers ``--workers`` may ask for: four per core (at least 4).

    More only adds memory and switching; a typo such as 10000 would fork a machine down.
    """
    return 4 * max(1, os.cpu_count() or 1)


class ProcessBackend:
    """A pool of local worker processes (``--workers N``); rebuilt when a worker dies."""

    name = "processes"

    def __init__(self, workers: int,
                 batch_fn: Callable[[BatchSpec], BatchResult] = run_batch):
        self.workers = workers
        self.capacity = 2 * workers
        self.batch_fn = batch_fn
        # forked workers inherit what this process loaded before the first batch (prepare)
        self.prepared = batch_fn is not run_batch or mp.get_start_method() != "fork"
        self.pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.workers, initializer=_worker_init,
                                   initargs=(os.getpid(),))

    def submit(self, spec: BatchSpec) -> Future:
        if not self.prepared:   # the pool forks its workers at the first submit
            self.prepared = True
            prepare(spec)
        return self.pool.submit(self.batch_fn, spec)

    def wait_any(self, futures: list[Any]) -> list[Any]:
        done, _ = wait(futures, return_when=FIRST_COMPLETED)
        return list(done)

    def died(self, exc: BaseException) -> bool:
        return isinstance(exc, BrokenProcessPool)

    def failure(self, exc: BaseException) -> Diagnostic | None:
        return None

    def restart(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = self._new_pool()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)

    def abort(self) -> None:
        """Stop now (Ctrl-C, SIGTERM, an error): end every worker, even one stuck in a
        slow bot, rather than wait for its batch, whose result would be dropped anyway."""
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        manager = getattr(self.pool, "_executor_manager_thread", None)
        self.pool.shutdown(wait=False, cancel_futures=True)
        for proc in processes:  # SIGKILL: a worker holds nothing to clean up, and no
            proc.kill()         # handler of its own (even half started) can print a traceback
        for proc in processes:
            proc.join(timeout=5)
        if manager is not None:
            # the pool's manager thread winds down once its workers are gone; waiting for it
            # here keeps the interpreter's exit from waking it while it closes its pipe
            # (an "Exception ignored ... Bad file descriptor" on stderr otherwise)
            manager.join(timeout=5)


class DaskBackend:
    """Batches on a Dask distributed cluster (``--scheduler ADDRESS``, or a given Client)."""

    name = "dask"

    def __init__(self, address: str | None = None, client: Any = None,
                 batch_fn: Callable[[BatchSpec], BatchResult] = run_batch):
        try:
            import distributed
        except ImportError as exc:
            raise DiagnosticError([Diagnostic(
                "cluster", "running on a Dask cluster needs the 'cluster' extra",
                hint="pip install 'dominorules[cluster]'")]) from exc
        self._distributed = distributed
        self.own_client = client is None
        if client is None:
            try:
                client = distributed.Client(address, timeout="10s")
            except (OSError, TimeoutError, ValueError, TypeError) as exc:
                raise DiagnosticError([Diagnostic(
                    "cluster", f"cannot reach the Dask scheduler at {address}: {exc}",
                    hint="start one with `dask scheduler` (and workers with "
                         "`dask worker ADDRESS`), or leave out --scheduler")]) from exc
        self.client = client
        try:
            client.wait_for_workers(1, timeout=30)
        except (OSError, TimeoutError) as exc:
            self.close()
            raise DiagnosticError([Diagnostic(
                "cluster", f"the Dask scheduler at {address} has no workers",
                hint="start some with `dask worker ADDRESS` on machines with dominorules "
                     "installed")]) from exc
        cores = sum(client.nthreads().values()) or 1
        self.workers = cores
        self.capacity = 2 * cores
        self.batch_fn = batch_fn

    def submit(self, spec: BatchSpec) -> Any:
        return self.client.submit(self.batch_fn, spec, pure=False)

    def wait_any(self, futures: list[Any]) -> list[Any]:
        done, _ = self._distributed.wait(futures, return_when="FIRST_COMPLETED")
        return list(done)

    def died(self, exc: BaseException) -> bool:
        return type(exc).__name__ == "KilledWorker"

    def failure(self, exc: BaseException) -> Diagnostic | None:
        """Most cluster failures come from the cluster's environment: say so, in one message."""
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return Diagnostic(
            "cluster", f"the Dask cluster could not run a batch: {first}",
            hint="the scheduler and every worker need dominorules installed (the same "
                 "version, in the same Python); ruleset files must be readable by the workers "
                 "at the same absolute path")

    def restart(self) -> None:
        pass

    def close(self) -> None:
        if self.own_client:
            self.client.close()


def check_backend_options(workers: int | None, scheduler: str | None) -> Diagnostic | None:
    """Why ``--workers`` or ``--scheduler`` cannot be used as given (a usage error), or None."""
    if workers is not None and workers > max_workers():
        return Diagnostic("usage", f"--workers {workers} is more than this machine can use: "
                          f"at most {max_workers()} (four per core)",
                          hint="leave --workers out to use one per core")
    if scheduler is not None:
        from urllib.parse import urlsplit

        text = scheduler if "://" in scheduler else f"tcp://{scheduler}"
        try:
            parts = urlsplit(text)
            port = parts.port
        except ValueError:
            parts, port = None, None
        if (parts is None or parts.scheme not in ("tcp", "tls", "ws", "wss", "ucx")
                or not parts.hostname or port is None or parts.path not in ("", "/")):
            return Diagnostic("usage", f"--scheduler {scheduler!r} is not a scheduler address",
                              hint="write it as tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786")
    return None


def make_backend(workers: int | None = None, scheduler: str | None = None,
                 client: Any = None) -> Any:
    """The backend the options ask for: Dask, a process pool, or this process."""
    if scheduler or client is not None:
        return DaskBackend(scheduler, client)
    problem = check_backend_options(workers, None)
    if problem is not None:
        raise DiagnosticError([problem])
    workers = workers or os.cpu_count() or 1
    if workers <= 1:
        return SerialBackend()
    return ProcessBackend(workers)


# --- the loop -----------------------------------------------------------------------------


Precise = Callable[[PairingRun], bool]
Progress = Callable[[int, int], None]


def run(
    pairings: list[Pairing],
    settings: RunSettings,
    backend: Any,
    precise: Precise | None = None,
    progress: Progress | None = None,
    csv_path: str | None = None,
) -> RunOutcome:
    """Play every pairing to its limit on ``backend``; return the merged sums.

    Without ``precise`` each pairing plays ``settings.matches`` seeds. With it, each
    plays batches until ``precise(run)`` is true after a merged batch (stop reason
    ``precision``) or ``settings.max_matches`` seeds were played (``max-matches``).
    """
    runs = [_new_run(p, settings) for p in pairings]
    goal = settings.max_matches if precise else settings.matches
    total = sum((goal - settings.first_index) * len(p.refs) for p in pairings)
    outcome = RunOutcome(runs, 0.0)
    inflight: dict[Any, BatchSpec] = {}
    retry: list[BatchSpec] = []
    tries: dict[tuple[str, int], int] = {}
    t0 = time.perf_counter()
    turn = 0
    finished = False
    aside = _compile_aside(pairings, settings, goal, backend)
    taper = 1 if precise else getattr(backend, "workers", 1)   # batch_size_at
    try:
        while True:
            while len(inflight) < backend.capacity:
                if inflight and not retry and _held(runs) >= AHEAD * backend.capacity:
                    break   # wait for the batch the held ones follow (it is in flight)
                spec = retry.pop(0) if retry else _next_spec(runs, settings, goal, turn,
                                                             aside, taper)
                turn += 1
                if spec is None:
                    break
                inflight[backend.submit(spec)] = spec
            if not inflight:
                break
            died: list[BatchSpec] = []
            for fut in backend.wait_any(list(inflight)):
                spec = inflight.pop(fut)
                try:
                    result = fut.result()
                except Exception as exc:
                    if not backend.died(exc):
                        problem = backend.failure(exc)
                        if problem is None:
                            raise
                        raise DiagnosticError([problem]) from exc
                    died.append(spec)
                    continue
                if result.error:
                    raise DiagnosticError(result.error)
                _accept(runs, result, settings, goal, precise, progress, total)
            if died:
                _rerun(died, inflight, retry, tries, backend, outcome)
        finished = True
    except KeyboardInterrupt:
        outcome.interrupted = True
        for r in runs:
            if not r.done:
                r.done, r.stop_reason = True, "interrupted"
    finally:
        if aside is not None:   # a finished run leaves a compile to finish; any other stops it
            (aside.leave if finished else aside.stop)()
        if finished or not hasattr(backend, "abort"):
            backend.close()
        else:
            backend.abort()
        outcome.seconds = time.perf_counter() - t0
    outcome.warnings += capped_warnings(runs)
    if csv_path:
        try:
            _write_csv(csv_path, runs)
        except OSError as exc:  # a full disk: keep the numbers, say what was not written
            outcome.write_errors.append(Diagnostic(
                "file", f"cannot write {csv_path}: {exc.strerror or exc}", file=csv_path))
    for r in runs:
        if r.csv_file is not None:
            r.csv_file.close()
    return outcome


def capped_warnings(runs: list[PairingRun]) -> list[str]:
    """One warning per ruleset whose matches hit the round cap: the tables count those
    matches as drawn, which they were not; the reader must know."""
    from ..api import MAX_ROUNDS

    out = []
    for r in runs:
        for ref, n in zip(r.pairing.refs, r.capped, strict=False):
            if n:
                out.append(f"{n} of {r.n} matches of {ref} ({r.pairing.name}) stopped "
                           f"undecided at the round cap ({MAX_ROUNDS} rounds); the tables "
                           "count them as drawn")
    return out


def _new_run(p: Pairing, settings: RunSettings) -> PairingRun:
    dim = len(feature_names(p.players))
    first = settings.first_index
    return PairingRun(
        p, [Aggregate(dim) for _ in p.refs], [CrossAggregate(dim) for _ in p.refs[1:]],
        n=first, next_start=first,
        joint=Aggregate(dim * len(p.refs)) if settings.joint else None,
        csv_file=tempfile.TemporaryFile("w+", newline="") if settings.csv else None)


def _held(runs: list[PairingRun]) -> int:
    """Finished batches waiting for an earlier one before they can be merged."""
    return sum(len(r.pending) for r in runs)


def _compile_aside(pairings: list[Pairing], settings: RunSettings, goal: int,
                   backend: Any) -> Any:
    """With ``settings.background``, a compile in another process of the kernels the JIT
    would play this run with that are not in the cache yet (``kernel.background``), or
    None. Only for workers on this machine, which share its cache (a cluster's workers
    have their own)."""
    if not (settings.background and settings.engine == "auto"
            and settings.api_module == DEFAULT_API and backend.name != "dask"):
        return None
    from ..kernel import background

    jobs = []
    for p in pairings:
        spec = BatchSpec(p, settings.base_seed, 0, 0, engine=settings.engine, planned=goal)
        games = [game_for(settings.api_module, ref) for ref in p.refs]
        jobs += [(g, p.players) for g, on in zip(games, jit_games(spec, games), strict=True)
                 if on]
    return background.start(jobs) if jobs else None


def _engine(pairing: Pairing, settings: RunSettings, aside: Any) -> str:
    """Who plays the pairing's next batch: the Python engine while a kernel it needs is
    still compiling aside, else as the settings say."""
    if aside is not None and not all(aside.ready(game_for(settings.api_module, ref),
                                                 pairing.players) for ref in pairing.refs):
        return "python"
    return settings.engine


def batch_size_at(remaining: int, batch_size: int, workers: int) -> int:
    """The size of a fixed run's next batch on ``workers`` workers, ``remaining`` matches
    (every pairing's) not yet handed out: ``batch_size`` until the run's last rounds, then
    a share of what remains (one ``2 * workers``-th), down to that share of ``batch_size``
    (at least ``TAPER_FLOOR`` matches), so the workers finish within a small batch of each
    other instead of one playing a whole batch alone at the end. Only where the numbers
    cannot depend on it: a fixed run's sums are the same for any batches (a ``--precision``
    run checks its intervals after each batch, so its batches stay ``batch_size``)."""
    if workers <= 1 or batch_size <= TAPER_FLOOR:
        return batch_size
    floor = max(batch_size // (2 * workers), TAPER_FLOOR)
    return max(floor, min(batch_size, -(-remaining // (2 * workers))))


def _next_spec(runs: list[PairingRun], settings: RunSettings, goal: int,
               turn: int, aside: Any = None, workers: int = 1) -> BatchSpec | None:
    """The next batch, taking pairings in turn so they progress together (or in order);
    with ``workers`` above 1 (a fixed run), its last batches shrink (``batch_size_at``)."""
    remaining = sum(goal - r.next_start for r in runs if not r.done and r.next_start < goal)
    size = batch_size_at(remaining, settings.batch_size, workers)
    for k in range(len(runs)):
        r = runs[k if settings.in_order else (turn + k) % len(runs)]
        if r.done or r.next_start >= goal:
            continue
        start = r.next_start
        stop = min(start + size, goal)
        if goal - stop < size // 2 and goal - start <= settings.batch_size:
            stop = goal     # no sliver of a batch after this one
        r.next_start = stop
        return BatchSpec(r.pairing, settings.base_seed, start, stop, settings.csv,
                         settings.api_module, settings.joint,
                         _engine(r.pairing, settings, aside), goal)
    return None


def _accept(runs: list[PairingRun], result: BatchResult, settings: RunSettings, goal: int,
            precise: Precise | None, progress: Progress | None, total: int) -> None:
    """Hold a finished batch until its predecessors are merged, then merge in order."""
    r = next(r for r in runs if r.pairing == result.spec.pairing)
    if r.done:
        return
    r.pending[result.spec.start] = result
    while not r.done and r.n in r.pending:
        batch = r.pending.pop(r.n)
        for agg, part in zip(r.aggs, batch.aggs, strict=True):
            agg.merge(part)
        for cross, part in zip(r.crosses, batch.crosses, strict=True):
            cross.merge(part)
        if r.joint is not None and batch.joint is not None:
            r.joint.merge(batch.joint)
        r.n = batch.spec.stop
        r.rounds += batch.rounds
        r.capped = [a + b for a, b in zip(r.capped or [0] * len(batch.capped), batch.capped,
                                          strict=True)]
        if r.csv_file is not None and batch.csv_text:
            r.csv_file.write(batch.csv_text)
        if precise is not None and precise(r):
            r.done, r.stop_reason = True, "precision"
        elif r.n >= goal:
            r.done, r.stop_reason = True, "max-matches" if precise else "matches"
        if progress is not None:
            progress(sum((x.n - settings.first_index) * len(x.pairing.refs) for x in runs),
                     total)
    if r.done:
        r.pending.clear()


def _rerun(died: list[BatchSpec], inflight: dict[Any, BatchSpec], retry: list[BatchSpec],
           tries: dict[tuple[str, int], int], backend: Any, outcome: RunOutcome) -> None:
    """A worker died: say so, rebuild the pool and queue every batch it took down."""
    if backend.name == "processes":
        # The broken pool fails everything it held; those batches run again too.
        died.extend(inflight.values())
        inflight.clear()
        backend.restart()
    died.sort(key=lambda s: (s.pairing.name, s.start))
    names = ", ".join(f"{s.pairing.name} {s.start}-{s.stop - 1}" for s in died)
    outcome.warnings.append(f"a worker process died; rerunning batches {names}")
    for spec in died:
        key = (spec.pairing.name, spec.start)
        tries[key] = tries.get(key, 0) + 1
        if tries[key] > MAX_RETRIES:
            raise DiagnosticError([Diagnostic(
                "worker", f"matches {spec.start}-{spec.stop - 1} ({spec.pairing.name}) "
                f"killed their worker {MAX_RETRIES + 1} times; giving up",
                hint="run them with --workers 1 to see the error")])
        retry.append(spec)


def _write_csv(path: str, runs: list[PairingRun]) -> None:
    """The per-round CSV: a header, then each pairing's rows in match order."""
    players = max(r.pairing.players for r in runs)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerow(csv_header(players))
        for r in runs:
            if r.csv_file is None:
                continue
            r.csv_file.seek(0)
            while chunk := r.csv_file.read(1 << 20):
                fh.write(chunk)
