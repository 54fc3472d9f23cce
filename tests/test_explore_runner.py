"""The runner on the real engine: paired deals, determinism across workers and backends,
precision-driven stopping, a worker that dies, Ctrl-C.

This module doubles as an ``api`` module for the workers (``API`` below): it forwards to
``dominorules.api`` and records each match's first deal, or kills its worker process
once when the test asks for it.
"""

from __future__ import annotations

import os

import pytest

from dominorules import api
from dominorules.explore.compare import CompareSettings, compare, pairing_rows, widest
from dominorules.explore.report import to_json
from dominorules.explore.runner import (
    DaskBackend,
    ProcessBackend,
    RunSettings,
    SerialBackend,
    run,
)
from dominorules.explore.worker import Pairing, run_batch

API = __name__
PARENT = os.getpid()
DIE_MARKER = "DOMINORULES_TEST_DIE_ONCE"      # a path: the first worker to reach DIE_SEED dies
DIE_SEED = api.match_seed(1, 7)
FIRST_DEALS: dict[tuple[str, int], list] = {}

load_game = api.load_game
match_seed = api.match_seed
make_bots = api.make_bots


def play_match(game, players, seed, bots, trace=False):
    marker = os.environ.get(DIE_MARKER)
    if marker and seed == DIE_SEED and os.getpid() != PARENT and not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(3)
    result = api.play_match(game, players, seed, bots, trace=True)
    deal = next(e for e in result.events if e["event"] == "deal")
    FIRST_DEALS[(game.ref, seed)] = deal["hands"]
    return result


def settings(**kw) -> CompareSettings:
    base = dict(refs=("pagat", "dutch"), players=3, matches=24, batch_size=5,
                skill_bots=("greedy", "random"), api_module=API)
    base.update(kw)
    return CompareSettings(**base)


def numbers(comparison) -> dict:
    out = to_json(comparison)
    del out["run"]          # timings and backend: the only part allowed to differ
    return out


def test_rulesets_in_a_pairing_share_their_deals():
    FIRST_DEALS.clear()
    refs = ("pagat", "dutch", "house/pay-per-draw")
    compare(settings(refs=refs, matches=6, skill_bots=None), SerialBackend())
    seeds = [api.match_seed(1, i) for i in range(6)]
    assert sorted({seed for _, seed in FIRST_DEALS}) == sorted(seeds)
    for seed in seeds:
        deals = [FIRST_DEALS[(ref, seed)] for ref in refs]
        assert deals[0] == deals[1] == deals[2]
        assert len(deals[0]) == 3 and all(len(h) == 7 for h in deals[0])
    assert FIRST_DEALS[("pagat", seeds[0])] != FIRST_DEALS[("pagat", seeds[1])]


def test_one_and_two_workers_give_identical_numbers():
    serial = compare(settings(), SerialBackend())
    pooled = compare(settings(), ProcessBackend(2))
    assert numbers(serial) == numbers(pooled)
    assert [r.n for r in pooled.outcome.runs] == [24, 24]
    assert pooled.stops == {"main": "played 24 matches per ruleset",
                            "skill": "played 24 matches per ruleset"}


def test_dask_local_cluster_gives_the_same_numbers():
    distributed = pytest.importorskip("distributed")
    s = settings(matches=12, skill_bots=None)
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        on_dask = compare(s, DaskBackend(client=client))
    assert on_dask.backend_name == "dask"
    assert numbers(on_dask) == numbers(compare(s, SerialBackend()))


def test_precision_stops_at_the_first_batch_where_every_interval_is_narrow():
    s = settings(precision=0.2, max_matches=5000, batch_size=20, skill_bots=None)
    result = compare(s, SerialBackend())
    main = result.run_for("main")
    assert main.stop_reason == "precision"
    assert result.stops["main"].startswith(f"stopped after {main.n} matches per ruleset")
    assert widest(pairing_rows(main, False), 0.2)[0] is None
    assert main.n > 100           # past the minimum, so the batch before must have failed
    before = compare(settings(matches=main.n - 20, batch_size=20, skill_bots=None),
                     SerialBackend()).run_for("main")
    assert widest(pairing_rows(before, False), 0.2)[0] is not None


def test_precision_gives_up_at_max_matches_and_says_so():
    result = compare(settings(precision=0.001, max_matches=30, skill_bots=None),
                     SerialBackend())
    main = result.run_for("main")
    assert (main.stop_reason, main.n) == ("max-matches", 30)
    assert result.stops["main"].startswith(
        "stopped at --max-matches (30 matches per ruleset) before the precision asked (±0.001)")


def test_a_worker_that_dies_is_reported_and_its_batch_rerun(tmp_path, monkeypatch):
    monkeypatch.setenv(DIE_MARKER, str(tmp_path / "died"))
    s = settings(matches=20, skill_bots=None)
    pooled = compare(s, ProcessBackend(2))
    assert (tmp_path / "died").exists()
    assert any("a worker process died; rerunning batches" in w and "main 5-9" in w
               for w in pooled.outcome.warnings)
    assert numbers(pooled)["metrics"] == numbers(compare(s, SerialBackend()))["metrics"]


def test_ctrl_c_keeps_the_batches_finished_before_it():
    def interrupted(spec):
        if spec.start == 15:
            raise KeyboardInterrupt
        return run_batch(spec)

    pairing = Pairing("main", ("pagat",), 2, ("random", "random"))
    outcome = run([pairing], RunSettings(matches=40, batch_size=5), SerialBackend(interrupted))
    assert outcome.interrupted
    assert (outcome.runs[0].n, outcome.runs[0].stop_reason) == (15, "interrupted")
    assert outcome.runs[0].aggs[0].n == 15


def test_batch_size_changes_no_number_of_a_fixed_run():
    small = numbers(compare(settings(batch_size=3, skill_bots=None), SerialBackend()))
    large = numbers(compare(settings(batch_size=24, skill_bots=None), SerialBackend()))
    assert small["settings"].pop("batch_size") == 3
    assert large["settings"].pop("batch_size") == 24
    assert small == large
