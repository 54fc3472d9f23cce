"""The JIT engine (numba, the ``[fast]`` extra): the same matches as the Python engine.

Every builtin ruleset the JIT plays, at every player count, with the random and greedy
bots and a mixed table: the JIT's ``MatchResult`` equals the Python engine's field for
field for the same seeds, and ``simulate`` gives the same summary from either. Where
the JIT cannot run, ``--engine jit`` says why, and without numba everything still works.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from jit_record_checks import same_summary

from dominorules import api
from dominorules.diagnostics import UsageError
from dominorules.kernel import engines
from dominorules.rules import builtin_rulesets

pytest.importorskip("numba")

from dominorules.kernel import jit_house, jit_kernel  # noqa: E402 - needs numba

if not jit_kernel.available():   # numba installed, but switched off for this run
    pytest.skip("DOMINORULES_NO_JIT is set", allow_module_level=True)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _jit_cases():
    for b in builtin_rulesets():
        game = api.load_game(b.name)
        r = game.rules
        for players in range(r.min_players, r.max_players + 1):
            try:
                game.check_players(players)
            except Exception:
                continue
            if jit_kernel.jit_reason(game, players, "random") is None \
                    and not jit_house.plays(r) \
                    and game.tileset.tile_count <= jit_kernel.MAX_TILES:
                # (house rules: tests/test_kernel_jit_house.py; a set over MAX_TILES, one
                # kernel for it: tests/test_kernel_jit_wide.py)
                yield b.name, players


CASES = list(_jit_cases())


def test_the_jit_plays_the_five_variants_and_their_plain_house_rules():
    names = {name for name, _ in CASES}
    assert {"pagat", "hoyle", "dutch", "mexican", "vietnamese"} <= names
    assert {"house/double-nine", "house/partnership-draw", "house/pay-per-draw"} <= names


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_jit_gives_the_python_engines_matches(name, players):
    game = api.load_game(name)
    seeds = [api.match_seed(3, i) for i in range(15)]
    for bots in ("random", "greedy", (["greedy", "random"] * 4)[:players]):
        jit = engines.jit_results(game, players, seeds, bots)
        for seed, got in zip(seeds, jit, strict=True):
            assert got == api.play_match(game, players, seed, bots), (bots, seed)


def test_start_scores_and_the_round_cap_agree():
    game = api.load_game("pagat")
    kw = {"start_scores": [55, 0, 20], "max_rounds": 2}
    for seed in range(1, 30):
        assert (api.play_match(game, 3, seed, engine="jit", **kw)
                == api.play_match(game, 3, seed, **kw))


def test_simulate_gives_the_same_summary_from_either_engine():
    game = api.load_game("dutch")
    same_summary(game, 3, 3000, 5, "random")


def test_auto_takes_the_jit_for_long_runs_only():
    game = api.load_game("pagat")
    assert engines.choose(game, 3, "random", "auto", matches=10) == "python"
    assert engines.choose(game, 3, "random", "auto", matches=9999) == "python"
    assert engines.choose(game, 3, "random", "auto", matches=10_000) == "jit"
    assert engines.choose(game, 3, "strategist", "auto", matches=50_000) == "jit"
    assert engines.choose(game, 3, "expert", "auto", matches=50_000) == "python"
    assert engines.choose(game, 3, "random", "auto", trace=True, matches=50_000) == "jit"


@pytest.mark.parametrize(("ruleset", "bots", "trace", "reason"), [
    ("pagat", "expert", False, "seat 0 plays 'expert', which only the python engine plays"),
    ("pagat", ["strategist", "random", "mybots:Cautious"], False,
     "seat 2 plays 'mybots:Cautious'"),
])
def test_asking_for_the_jit_where_it_cannot_run_says_why(ruleset, bots, trace, reason):
    game = api.load_game(ruleset)
    with pytest.raises(UsageError) as info:
        engines.choose(game, game.rules.min_players, bots, "jit", trace=trace)
    assert reason in info.value.diagnostics[0].message


def test_without_numba_the_cli_runs_python_and_explains_jit(tmp_path):
    env = {**os.environ, "DOMINORULES_NO_JIT": "1", "PYTHONPATH": ROOT}
    run = [sys.executable, os.path.join(ROOT, "cli.py"), "simulate", "pagat", "--matches",
           "10000", "--json"]
    out = subprocess.run(run, capture_output=True, text=True, env=env, check=True)
    assert json.loads(out.stdout)["engine"] == "python"
    bad = subprocess.run(run + ["--engine", "jit"], capture_output=True, text=True, env=env)
    assert bad.returncode == 2
    assert "--engine jit cannot run this: DOMINORULES_NO_JIT is set" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_kernels_are_written_once_per_distinct_formulas():
    pagat, same = api.load_game("pagat"), api.load_game("house/same-leader")
    assert jit_kernel.kernel_source(pagat) == jit_kernel.kernel_source(same)
    assert jit_kernel.kernel(pagat, 3).module is jit_kernel.kernel(same, 3).module


def test_points_that_could_outgrow_64_bits_stay_with_python(tmp_path):
    path = tmp_path / "huge.yaml"
    path.write_text("title: Huge\nextends: pagat\nscoring:\n"
                    "  domino: \"1000000000000 * sum(opponents.value)\"\n")
    game = api.load_game(str(path))
    reason = jit_kernel.jit_reason(game, 3, "random")
    assert reason is not None and "64-bit" in reason
    assert engines.choose(game, 3, "random", "auto", matches=50_000) == "python"
    small = tmp_path / "small.yaml"
    small.write_text("title: Small\nextends: pagat\nscoring:\n"
                     "  domino: \"1000 * sum(opponents.value)\"\n")
    assert jit_kernel.jit_reason(api.load_game(str(small)), 3, "random") is None


@pytest.mark.parametrize("name", ["pagat", "mexican", "house/pay-per-draw",
                                  "house/exposed-tiles-lead"])
def test_compare_folds_jit_rows_into_the_same_features(name):
    """compare reads a JIT batch's rows straight into feature vectors: the vectors and the
    round totals are features() of the Python engine's matches."""
    from dominorules.explore.metrics import features

    game = api.load_game(name)
    players = game.rules.max_players
    seeds = [api.match_seed(8, i) for i in range(60)]
    batch = engines.JitBatch(game, players, seeds, "random")
    rows, round_points, capped = batch.features()
    expected_points: list[int] = []
    expected = [features(api.play_match(game, players, s), None, expected_points)
                for s in seeds]
    assert rows.tolist() == expected
    assert round_points.tolist() == expected_points
    assert capped == 0


def test_compare_gives_the_same_numbers_from_either_engine():
    from dominorules.explore.compare import CompareSettings, compare
    from dominorules.explore.report import to_json
    from dominorules.explore.runner import SerialBackend

    def numbers(engine: str) -> dict:
        s = CompareSettings(("pagat", "dutch"), 3, 120, 4, skill_bots=("greedy", "random"),
                            batch_size=40, engine=engine)
        out = to_json(compare(s, SerialBackend()))
        del out["run"]
        return out

    assert numbers("jit") == numbers("python")


def test_jit_workers_give_the_numbers_of_one_python_process():
    from dominorules.explore.compare import CompareSettings, compare
    from dominorules.explore.report import to_json
    from dominorules.explore.runner import ProcessBackend, SerialBackend

    def numbers(engine: str, backend) -> dict:
        s = CompareSettings(("pagat", "hoyle"), 3, 200, 9, skill_bots=None, batch_size=30,
                            engine=engine)
        out = to_json(compare(s, backend))
        del out["run"]
        return out

    assert numbers("jit", ProcessBackend(2)) == numbers("python", SerialBackend())
