"""Scale-out: a JIT run gives the same numbers at 1 and 2 workers and on Dask; a pool's
workers start with the kernel the parent loaded; the parent keeps no per-match object
(memory flat in the number of matches, whatever the backend).
"""

from __future__ import annotations

import weakref
from concurrent.futures import Future

import pytest

from dominorules.engine.results import MatchResult
from dominorules.explore.compare import CompareSettings, compare
from dominorules.explore.report import to_json
from dominorules.explore.runner import (
    AHEAD,
    DaskBackend,
    ProcessBackend,
    RunSettings,
    SerialBackend,
    run,
)
from dominorules.explore.worker import (
    DEFAULT_API,
    BatchResult,
    BatchSpec,
    Pairing,
    game_for,
    run_batch,
)


def _jit() -> bool:
    try:
        from dominorules.kernel import jit_kernel
    except ImportError:
        return False
    return jit_kernel.available()


needs_jit = pytest.mark.skipif(not _jit(), reason="numba missing or DOMINORULES_NO_JIT set")


def numbers(settings: CompareSettings, backend) -> dict:
    out = to_json(compare(settings, backend))
    del out["run"]          # timings and backend: the only part allowed to differ
    return out


@needs_jit
def test_a_jit_run_gives_the_same_numbers_on_one_two_workers_and_dask():
    distributed = pytest.importorskip("distributed")
    s = CompareSettings(("pagat", "hoyle"), 2, 240, 5, skill_bots=None,
                        batch_size=40, engine="jit")
    one = numbers(s, SerialBackend())
    assert one["pairings"][0]["matches_per_ruleset"] == 240
    assert numbers(s, ProcessBackend(2)) == one
    with distributed.LocalCluster(processes=False, n_workers=2, threads_per_worker=1,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        assert numbers(s, DaskBackend(client=client)) == one
    python = numbers(CompareSettings(s.refs, 2, 240, 5, skill_bots=None, batch_size=40,
                                     engine="python"), SerialBackend())
    assert python == one


@needs_jit
def test_a_pool_forks_its_workers_with_the_kernel_loaded_here():
    game = game_for(DEFAULT_API, "hoyle")
    game.__dict__.pop("_jit_kernels", None)
    s = CompareSettings(("hoyle",), 3, 60, 2, skill_bots=None, batch_size=20, engine="jit")
    compare(s, ProcessBackend(2))
    assert 3 in game.__dict__["_jit_kernels"]   # loaded before the pool forked its workers


def _peaks(backend) -> tuple[int, int, int]:
    """(batches merged, most BatchResult and MatchResult objects alive in this process at
    once) over a run of 30 batches, counted as each batch is merged (each one made here is
    watched: by a batch played here, or unpickled from a worker's result)."""
    live = {BatchResult: 0, MatchResult: 0}

    def gone(kind: type) -> None:
        live[kind] -= 1

    def watch(obj) -> None:
        live[type(obj)] += 1
        weakref.finalize(obj, gone, type(obj))

    def unpickled(self, state) -> None:
        self.__dict__.update(state)
        watch(self)

    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> None:
        seen.append((live[BatchResult], live[MatchResult]))

    s = CompareSettings(("pagat",), 2, 60, 3, skill_bots=None, batch_size=2, engine="python")
    with pytest.MonkeyPatch.context() as mp:
        for kind in live:
            def made(self, *args, _init=kind.__init__, **kwargs) -> None:
                _init(self, *args, **kwargs)
                watch(self)

            mp.setattr(kind, "__init__", made)
        mp.setattr(BatchResult, "__setstate__", unpickled, raising=False)
        compare(s, backend, progress)
    return len(seen), max(b for b, _ in seen), max(m for _, m in seen)


def test_the_parent_keeps_no_per_match_object_on_any_backend():
    # a batch's result is dropped once merged: only those in flight or held for an earlier
    # one stay (a bound set by the backend's capacity, not by the run's length), and no
    # match result outlives its batch, not even on the serial backend, which plays here
    assert _peaks(SerialBackend()) == (30, 1, 0)
    batches, results, matches = _peaks(ProcessBackend(2))
    assert (batches, matches) == (30, 0)
    assert 1 <= results <= 1 + (1 + AHEAD) * 4        # capacity 4: in flight, held, merging
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=1,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        # (a worker thread of this process: its batch's matches are made here, one a time)
        batches, results, matches = _peaks(DaskBackend(client=client))
    assert batches == 30 and matches <= 1
    assert 1 <= results <= 1 + (1 + AHEAD) * 2        # capacity 2


class _Slow(SerialBackend):
    """Plays every batch at once but finishes the first one last: the rest come back ahead
    of it and wait in the parent until it is merged."""

    capacity = 2

    def __init__(self) -> None:
        super().__init__()
        self.first: Future | None = None
        self.before_first = 0          # batches handed out while the first was in flight

    def submit(self, spec: BatchSpec) -> Future:
        if spec.start == 0:
            self.first = Future()
            self.spec = spec
            return self.first
        if not self.first.done():
            self.before_first += 1
        return super().submit(spec)

    def wait_any(self, futures: list) -> list:
        done = [f for f in futures if f.done()]
        if not done:
            self.first.set_result(run_batch(self.spec))
            done = [self.first]
        return done


def test_batches_finished_ahead_of_a_slow_one_are_held_only_a_few_at_a_time():
    slow = _Slow()
    pairing = Pairing("main", ("pagat",), 2, ("random", "random"))
    outcome = run([pairing], RunSettings(matches=80, batch_size=2), slow)
    assert outcome.runs[0].n == 80 and outcome.runs[0].aggs[0].n == 80
    # one slot holds the slow batch; the other takes AHEAD * capacity batches, then waits
    assert slow.before_first == AHEAD * slow.capacity
    whole = run([pairing], RunSettings(matches=80, batch_size=40), SerialBackend())
    assert (outcome.runs[0].aggs[0].s2 == whole.runs[0].aggs[0].s2).all()


class _Recorded(SerialBackend):
    """Plays here, as two workers would be handed batches: records each batch's range."""

    workers = 2
    capacity = 4

    def __init__(self) -> None:
        super().__init__()
        self.ranges: list[tuple[int, int]] = []

    def submit(self, spec: BatchSpec) -> Future:
        self.ranges.append((spec.start, spec.stop))
        return super().submit(spec)


def test_a_fixed_run_on_two_workers_ends_on_smaller_batches_with_the_same_numbers():
    # --batch-size until the last rounds, then a quarter of what is left (a 2 * workers-th),
    # down to a quarter of --batch-size: the workers end within a small batch of each other
    pairing = Pairing("main", ("pagat",), 2, ("random", "random"))
    two = _Recorded()
    tapered = run([pairing], RunSettings(matches=1000, batch_size=200), two).runs[0]
    assert two.ranges == [(0, 200), (200, 400), (400, 550), (550, 663), (663, 748),
                          (748, 811), (811, 861), (861, 911), (911, 961), (961, 1000)]
    pooled = run([pairing], RunSettings(matches=1000, batch_size=200),
                 ProcessBackend(2)).runs[0]     # the same plan, on two real workers
    whole = run([pairing], RunSettings(matches=1000, batch_size=1000), SerialBackend()).runs[0]
    for r in (tapered, pooled):
        assert r.n == whole.n == 1000 and r.rounds == whole.rounds
        for a, b in zip(r.aggs, whole.aggs, strict=True):
            assert (a.n, a.rounds_hist, a.points_hist) == (b.n, b.rounds_hist, b.points_hist)
            assert (a.s1 == b.s1).all() and (a.s2 == b.s2).all()
    # a --precision run checks its intervals after each batch: its batches stay as asked
    precise = _Recorded()
    run([pairing], RunSettings(max_matches=1000, batch_size=200), precise,
        precise=lambda r: False)
    assert precise.ranges == [(s, s + 200) for s in range(0, 1000, 200)]
