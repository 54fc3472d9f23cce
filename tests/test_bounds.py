"""Formulas with huge numbers end in bounded time with one clear line: a score squared
every turn, an event skipping 10**21 seats, a tile outside the set, tile values of
10**400 with the strategist. Each used to hang for more than 15 s or end in a traceback."""

from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

from dominorules.cli import main


def _run(tmp_path, yaml: str, *args: str):
    path = tmp_path / "r.yaml"
    path.write_text("extends: pagat\n" + yaml)
    t0 = time.monotonic()
    result = CliRunner().invoke(main, [a.format(r=path) for a in args])
    assert time.monotonic() - t0 < 10
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    return result, str(path)


SQUARED = 'events:\n  - after: place\n    points: "0 - side.score * side.score - 1"\n'
SKIP = 'events:\n  - after: place\n    skip: "1000000000000000000000"\n'
GROWN = ("error: a score or an event's points outgrew 1000 digits: the ruleset's formulas "
         "make points grow without bound")


def test_a_score_squared_every_turn_stops_simulate_with_one_message(tmp_path):
    result, _ = _run(tmp_path, SQUARED, "simulate", "{r}", "--matches", "2")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        GROWN, "  hint: check formulas that multiply a score (say, by itself)"]


def test_validate_warns_of_a_score_that_grows_without_bound(tmp_path):
    result, path = _run(tmp_path, SQUARED, "validate", "{r}")
    assert result.exit_code == 0
    assert result.stderr.splitlines()[0] == (f"{path}: warning: a sample match failed: "
                                             + GROWN.removeprefix("error: "))


def test_an_event_skipping_10_to_the_21_seats_is_one_message(tmp_path):
    result, _ = _run(tmp_path, SKIP, "simulate", "{r}", "--matches", "2")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == ("error: an event skips 1000000000000000000000 "
                                             "seats; a round has at most 100000 turns")


@pytest.mark.parametrize("yaml, where", [
    ('events:\n  - after: place\n    if: "tile == [9|9]"\n    points: 5\n', "4:18"),
    ('events:\n  - after: draw\n    if: "tile != [6|9]"\n    points: 5\n', "4:18"),
    ('play:\n  restrictions:\n    - allow: "tile != [7|0]"\n      explain: no\n', "4:23"),
])
@pytest.mark.parametrize("command", ["validate", "simulate"])
def test_a_formula_naming_a_tile_outside_the_set_is_refused_where_it_is(tmp_path, yaml,
                                                                        where, command):
    result, path = _run(tmp_path, yaml, command, "{r}")
    assert result.exit_code == 1
    tile = yaml[yaml.index("["):yaml.index("]") + 1]
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{path}:{where}: error: tile {tile} is not in a double-6 set")


def test_tile_values_of_10_to_the_400_play_with_the_strategist(tmp_path):
    yaml = f'scoring:\n  tile_value: "tile.pips * 1{"0" * 400}"\n'
    result, _ = _run(tmp_path, yaml, "simulate", "{r}", "--matches", "2", "--bots",
                     "strategist", "--json")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("args, says", [
    (["simulate", "pagat", "--matches", "1" + "0" * 26],
     "100000000000000000000000000 is not in the range 1<=x<=1000000000"),
    (["compare", "pagat", "dutch", "--matches", "1000000001"],
     "1000000001 is not in the range 2<=x<=1000000000"),
    (["sweep", "pagat", "--vary", "match.target=1..100000000000000000000"],
     "error: --vary match.target: the range 1..100000000000000000000 holds 1e+20 values, "
     "more than 100,000"),
    (["tune", "pagat", "--vary", "match.target=1..10000000000000000000000", "--goal",
      "rounds_per_match ~ 5"],
     "error: --vary match.target: the range 1..10000000000000000000000 holds 1e+22 values, "
     "more than 100,000"),
    (["sweep", "pagat", "--vary", "match.target=1" + "0" * 5000],
     "error: --vary match.target: a value of 5001 characters"),
])
def test_absurd_run_sizes_are_usage_errors_at_once(args, says):
    t0 = time.monotonic()
    result = CliRunner().invoke(main, args)
    assert time.monotonic() - t0 < 10
    assert result.exit_code == 2
    assert says in result.stderr, result.stderr


def test_a_jit_run_derives_its_seeds_a_block_at_a_time(monkeypatch):
    """``--matches 1e9`` allocated every seed at once (7.45 GiB) before the first match."""
    pytest.importorskip("numba")
    from dominorules import api
    from dominorules.kernel import jit_kernel, seeds

    if not jit_kernel.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    asked = []
    real = seeds.match_seeds

    def spy(base, start, stop):
        asked.append(stop - start)
        return real(base, start, stop)

    monkeypatch.setattr(seeds, "match_seeds", spy)
    monkeypatch.setattr(api, "SEED_BLOCK", 3000)
    game = api.load_game("pagat")
    summary = api.simulate(game, 2, 10_000, 1, engine="jit")
    assert asked == [3000, 3000, 3000, 1000]
    assert summary == {**api.simulate(game, 2, 10_000, 1, engine="python"), "engine": "jit"}
