"""Where a scaled-out ``compare`` loses time: every batch's submit, start, end and CPU time
per worker, the pool's start-up, each worker's idle gaps, the parent's CPU, and the
workers' CPU spent outside batches (start-up, copy-on-write, shutdown).

Unlike ``bench/compare.py``'s wall-clock efficiencies, the CPU figures hold on a busy
machine; the idle gaps are wall-clock and only mean something on a quiet one.

Usage: python bench/timeline.py [--backend processes|dask|serial] [--workers 2]
                                [--engine python|jit] [--matches 20000] [--rulesets pagat]
                                [--batches] [--json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from scaleout import _cpu, cli_batch_size, dask_cluster  # noqa: E402

from dominorules.explore.compare import CompareSettings, compare  # noqa: E402
from dominorules.explore.runner import (  # noqa: E402
    DaskBackend,
    ProcessBackend,
    SerialBackend,
)
from dominorules.explore.worker import BatchResult, BatchSpec, run_batch  # noqa: E402


def timed_batch(spec: BatchSpec) -> BatchResult:
    """``run_batch``, with where and when it ran (perf_counter is system-wide on Linux):
    ``timing`` is (pid, start, end, process CPU, own thread's CPU, process CPU at start and
    at end, first match index)."""
    t0, c0, h0 = time.perf_counter(), time.process_time(), time.thread_time()
    result = run_batch(spec)
    c1 = time.process_time()
    result.timing = (os.getpid(), t0, time.perf_counter(), c1 - c0, time.thread_time() - h0,
                     c0, c1, spec.start)
    return result


class Watched:
    """A backend whose submits and results are timestamped here."""

    def __init__(self, backend) -> None:
        self.inner = backend
        self.submits: dict[int, float] = {}
        self.received: dict[int, float] = {}
        self.batches: list[tuple] = []   # timed_batch's timing of each batch received

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def submit(self, spec: BatchSpec):
        if not self.submits:
            self.cpu_at_first_submit = time.process_time()
        self.submits.setdefault(spec.start, time.perf_counter())
        future = self.inner.submit(spec)
        if len(self.submits) == 1:
            self.prefix_cpu = time.process_time() - self.cpu_at_first_submit
        return future

    def close(self) -> None:
        self.closing = time.perf_counter()
        self.inner.close()
        self.closed = time.perf_counter()
        self.cpu_at_close = time.process_time()

    def wait_any(self, futures):
        done = self.inner.wait_any(futures)
        now = time.perf_counter()
        for f in done:
            try:
                r = f.result()
            except Exception:   # noqa: BLE001 - the runner reports it
                continue
            self.received.setdefault(r.spec.start, now)
            self.batches.append(r.timing)
        return done


def quiet_estimate(costs: list[float], workers: int, prefix: float) -> float:
    """The run's seconds on an idle machine, from CPU times alone: ``prefix`` (the parent's
    CPU before any worker can start: the JIT's kernel loaded ahead of the fork), then the
    batches' CPU times handed in order to whichever of ``workers`` is free first."""
    free = [prefix] * workers
    for cost in costs:
        k = free.index(min(free))
        free[k] += cost
    return max(free)


def measure(backend_name: str, workers: int, engine: str, matches: int,
            rulesets: list[str], batch_size: int | None = None, taper: bool = True) -> dict:
    settings = CompareSettings(tuple(rulesets), 2, matches, 1, skill_bots=None, engine=engine,
                               batch_size=batch_size or cli_batch_size(matches))
    cluster = client = None
    pids: list[int] = []
    if backend_name == "dask":
        cluster, client, pids = dask_cluster(workers, settings, warm=True)
    before = [_cpu(p) for p in pids]
    self0 = resource.getrusage(resource.RUSAGE_SELF)
    child0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    if backend_name == "dask":
        inner = DaskBackend(client=client, batch_fn=timed_batch)
    elif backend_name == "serial" or workers == 1:
        inner = SerialBackend(timed_batch)
    else:
        inner = ProcessBackend(workers, batch_fn=timed_batch)
        inner.prepared = mp.get_start_method() != "fork"   # prepare() as for run_batch
    backend = Watched(inner)
    if not taper:
        backend.workers = 1   # runner.batch_size_at then keeps --batch-size to the end
    c = compare(settings, backend)
    wall = time.perf_counter() - t0
    self1 = resource.getrusage(resource.RUSAGE_SELF)
    child1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if backend_name == "dask":
        worker_cpu = sum(_cpu(p) - b for p, b in zip(pids, before, strict=True))
        client.close()
        cluster.close()
    else:
        worker_cpu = (child1.ru_utime + child1.ru_stime) - (child0.ru_utime + child0.ru_stime)
    parent_cpu = (self1.ru_utime + self1.ru_stime) - (self0.ru_utime + self0.ru_stime)
    batches = sorted(backend.batches, key=lambda b: b[1])
    batch_cpu = sum(b[3] for b in batches)
    thread_cpu = sum(b[4] for b in batches)
    per: dict[int, list] = {}
    for b in batches:
        per.setdefault(b[0], []).append(b)
    first_submit = min(backend.submits.values())
    run_end = backend.closed
    lanes = []
    for pid, bs in sorted(per.items(), key=lambda kv: kv[1][0][1]):
        gaps = sum(b[1] - a[2] for a, b in zip(bs, bs[1:], strict=False))
        gap_cpu = sum(b[5] - a[6] for a, b in zip(bs, bs[1:], strict=False))
        lanes.append({"pid": pid, "batches": len(bs), "busy": sum(b[2] - b[1] for b in bs),
                      "batch_cpu": sum(b[3] for b in bs),
                      "first_start": bs[0][1] - first_submit, "gaps": gaps, "gap_cpu": gap_cpu,
                      "idle_at_end": run_end - bs[-1][2]})
    # the parent's CPU before the pool's first batch (prepare: the kernel, ahead of the fork)
    prefix = 0.0 if workers == 1 and backend_name != "dask" else backend.prefix_cpu
    costs = [b[3] for b in sorted(backend.batches, key=lambda b: backend.submits[b[7]])]
    one = prefix + sum(costs)
    out = {
        "backend": backend_name, "workers": workers, "engine": engine, "matches": matches,
        "batch_size": settings.batch_size, "batches": len(batches),
        "wall": wall, "run_seconds": c.outcome.seconds,
        "before_first_submit": first_submit - t0,
        "parent_cpu": parent_cpu,
        # the parent's CPU from its first submit to the pool's end (competes with workers)
        "parent_cpu_in_run": backend.cpu_at_close - backend.cpu_at_first_submit
                             - (batch_cpu if workers == 1 and backend_name != "dask" else 0),
        "close": backend.closed - backend.closing, "worker_cpu": worker_cpu, "batch_cpu": batch_cpu,
        "batch_thread_cpu": thread_cpu,   # the batch's own thread (the rest: a Dask
                                          # worker's event loop while it played)
        # worker CPU not spent in a batch: start-up, copy-on-write faults, shutdown
        "worker_cpu_outside": worker_cpu - batch_cpu,
        "lanes": lanes,
        "prefix_cpu": prefix,
        # idle-machine estimates from CPU times: one worker plays it all after the prefix
        "quiet_efficiency": one / (workers * quiet_estimate(costs, workers, prefix)),
        "last_result_to_end": run_end - max(backend.received.values()),
        "timeline": [(b[0], b[1] - first_submit, b[2] - first_submit, b[3], b[4])
                     for b in batches],
    }
    if workers == 1 and backend_name != "dask":
        out["worker_cpu_outside"] = 0.0   # the serial backend plays in the parent
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="processes", choices=["processes", "dask", "serial"])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--engine", default="python", choices=["python", "jit"])
    ap.add_argument("--matches", type=int, default=20_000)
    ap.add_argument("--rulesets", nargs="+", default=["pagat"])
    ap.add_argument("--batch-size", type=int, help="default: the CLI's for the run")
    ap.add_argument("--batches", action="store_true", help="print every batch")
    ap.add_argument("--no-taper", action="store_true",
                    help="keep --batch-size to the run's end (as before batch_size_at)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    r = measure(a.backend, a.workers, a.engine, a.matches, a.rulesets, a.batch_size,
                not a.no_taper)
    if a.json:
        print(json.dumps(r))
        return
    print(f"{r['backend']} x{r['workers']} {r['engine']} {r['matches']} matches, "
          f"{r['batches']} batches of {r['batch_size']}: wall {r['wall']:.2f} s, "
          f"run {r['run_seconds']:.2f} s, {r['before_first_submit']:.2f} s before the "
          "first submit")
    print(f"  CPU: parent {r['parent_cpu']:.2f} s ({r['parent_cpu_in_run']:.2f} s during the "
          f"run, outside batches), workers {r['worker_cpu']:.2f} s, "
          f"in batches {r['batch_cpu']:.2f} s (their threads {r['batch_thread_cpu']:.2f} s), "
          f"workers outside batches "
          f"{r['worker_cpu_outside']:.2f} s")
    for lane in r["lanes"]:
        print(f"  worker {lane['pid']}: {lane['batches']} batches, busy {lane['busy']:.2f} s "
              f"(CPU {lane['batch_cpu']:.2f} s), first start {lane['first_start']:.3f} s "
              f"after the first submit, gaps {lane['gaps']:.3f} s "
              f"(CPU {lane['gap_cpu']:.3f} s), idle at the end "
              f"{lane['idle_at_end']:.3f} s")
    print(f"  parent's CPU before the first batch could start {r['prefix_cpu']:.2f} s; "
          f"efficiency on an idle machine, estimated from CPU times "
          f"{r['quiet_efficiency']:.1%}")
    print(f"  last result to the run's end: {r['last_result_to_end']:.3f} s (closing the "
          f"backend {r['close']:.3f} s)")
    if a.batches:
        for pid, s, e, cpu, own in r["timeline"]:
            print(f"    {pid} {s:7.3f} {e:7.3f} cpu {cpu:.3f} (thread {own:.3f})")


if __name__ == "__main__":
    main()
