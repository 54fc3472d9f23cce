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
