"""One measured ``compare`` (for ``bench/compare.py``): wall time, CPU time of every process
it ran on, and peak memory, printed as one JSON object.

Run in a fresh process per measurement, so no earlier run's children or loaded kernels
count: ``python bench/scaleout.py '{"backend": "processes", "workers": 2, ...}'``.

- ``processes``: ``--workers N`` as the CLI runs it (one worker: this process, serial).
  Workers' CPU comes from ``getrusage(RUSAGE_CHILDREN)`` once the pool has joined them
  (exact); their peaks from their ``VmHWM`` (a high-water mark, read every 0.2 s while they
  live), this process's from its own.
- ``dask``: a ``distributed.LocalCluster`` of N single-threaded worker processes, started
  before the clock; ``warm`` first plays a short compare so each worker has loaded the
  package, the rulesets and the JIT's kernel (a cluster outlives one run). Workers' CPU is
  read from ``/proc`` before and after, their peaks from ``VmHWM`` (exact).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from dominorules.explore.compare import CompareSettings, compare  # noqa: E402
from dominorules.explore.runner import DaskBackend, ProcessBackend, SerialBackend  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cli_batch_size(matches: int) -> int:
    """The batch size ``dominorules compare`` takes for a fixed run (cli.py)."""
    return max(50, min(5000, matches // 20))


def _cpu(pid: int) -> float:
    """User + system CPU seconds of a live process."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def _hwm_kib(pid: int) -> int:
    """A live process's peak resident set (KiB), 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                out += [int(p) for p in fh.read().split()]
        except OSError:
            pass
    return out


def dask_cluster(workers: int, settings: CompareSettings, warm: bool) -> tuple:
    """A local Dask cluster of ``workers`` single-threaded processes, its client and the
    workers' pids; ``warm``: a short compare of ``settings``' rulesets first (a cluster
    outlives one run: its workers have loaded them and their kernel before the clock)."""
    import distributed

    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                       processes=True, dashboard_address=None)
    client = distributed.Client(cluster)
    pids = sorted(client.run(os.getpid).values())
    if warm:
        compare(CompareSettings(settings.refs, settings.players, 20 * workers, 99,
                                skill_bots=None, engine=settings.engine, batch_size=20),
                DaskBackend(client=client))
    return cluster, client, pids


class Peaks(threading.Thread):
    """Every 0.2 s, the high-water mark of each child of this process (pool workers)."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.hwm: dict[int, int] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        me = os.getpid()
        while not self.stop.wait(0.2):
            for pid in _children(me):
                self.hwm[pid] = max(self.hwm.get(pid, 0), _hwm_kib(pid))


def measure(spec: dict) -> dict:
    workers, backend_name = spec["workers"], spec["backend"]
    settings = CompareSettings(tuple(spec["rulesets"]), spec["players"], spec["matches"],
                               spec.get("seed", 1), skill_bots=None, engine=spec["engine"],
                               batch_size=cli_batch_size(spec["matches"]))
    out: dict = {k: spec[k] for k in ("backend", "engine", "workers", "matches")}
    cluster = client = None
    worker_pids: list[int] = []
    if backend_name == "dask":
        cluster, client, worker_pids = dask_cluster(workers, settings, bool(spec.get("warm")))
    peaks = Peaks()
    peaks.start()
    before = [_cpu(p) for p in worker_pids]
    self0 = resource.getrusage(resource.RUSAGE_SELF)
    child0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    if backend_name == "dask":
        backend = DaskBackend(client=client)
    else:
        backend = SerialBackend() if workers == 1 else ProcessBackend(workers)
    c = compare(settings, backend)
    wall = time.perf_counter() - t0
    self1 = resource.getrusage(resource.RUSAGE_SELF)
    child1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    peaks.stop.set()
    peaks.join()
    parent_cpu = (self1.ru_utime + self1.ru_stime) - (self0.ru_utime + self0.ru_stime)
    if backend_name == "dask":
        worker_cpu = sum(_cpu(p) - b for p, b in zip(worker_pids, before, strict=True))
        hwm = [_hwm_kib(p) for p in worker_pids]
        client.close()
        cluster.close()
    else:
        worker_cpu = ((child1.ru_utime + child1.ru_stime)
                      - (child0.ru_utime + child0.ru_stime))
        hwm = list(peaks.hwm.values())
    # VmHWM, not ru_maxrss: Linux carries a parent's ru_maxrss over fork and exec, so a big
    # bench/compare.py would show as this process's peak
    me = _hwm_kib(os.getpid())
    out.update(
        played=c.outcome.matches, wall=wall, run_seconds=c.outcome.seconds,
        parent_cpu=parent_cpu, worker_cpu=worker_cpu, cpu=parent_cpu + worker_cpu,
        parent_peak_mb=me / 1024, largest_peak_mb=max([me, *hwm]) / 1024,
        workers_peak_sum_mb=sum(hwm) / 1024)
    return out


if __name__ == "__main__":
    print(json.dumps(measure(json.loads(sys.argv[1]))))
