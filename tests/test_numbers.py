"""Numbers of any size: huge points work everywhere, or are refused with a stated range.

The docs promise whole numbers without a size limit. simulate, verify and replay
use Python ints; compare sums in int64 while that stays exact and in Python ints
beyond, and refuses (one line) a match scoring more than 10^150 points. Records
with floats, NaN, Infinity or absurdly long numbers get a FILE:LINE message.
"""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from dominorules.cli import main
from dominorules.diagnostics import DiagnosticError
from dominorules.explore.metrics import Aggregate, CrossAggregate
from dominorules.records import read_records, verify_file


def _ruleset(tmp_path, power: int) -> str:
    path = tmp_path / f"huge{power}.yaml"
    path.write_text(f'extends: pagat\nscoring:\n  domino: "sum(opponents.pips) * 1{"0" * power}"'
                    f'\nmatch:\n  target: 1{"0" * (power + 2)}\n')
    return str(path)


def test_sums_switch_to_python_ints_and_stay_exact():
    rows = [[7, 3], [10 ** 18, 1], [3 * 10 ** 18, 2]]
    agg, cross = Aggregate(2), CrossAggregate(2)
    agg.add_rows(np.array(rows[:1], dtype=np.int64))   # a small batch first, in int64
    agg.add_rows(np.array(rows[1:], dtype=object))     # then big ones: promoted
    cross.add_rows(np.array(rows, dtype=object), np.array(rows, dtype=object))
    assert agg.s1.tolist() == [4 * 10 ** 18 + 7, 6]
    assert agg.s2[0, 0] == 10 ** 36 + 9 * 10 ** 36 + 49
    assert cross.s12[0, 0] == agg.s2[0, 0]


@pytest.mark.parametrize("power", [18, 60])
def test_compare_simulate_verify_take_huge_points(tmp_path, power):
    ruleset = _ruleset(tmp_path, power)
    runner = CliRunner()
    out = runner.invoke(main, ["compare", "pagat", ruleset, "--matches", "6", "--workers", "1",
                               "--no-skill", "--json"])
    assert out.exit_code == 0, out.output
    trace = str(tmp_path / "t.jsonl")
    out = runner.invoke(main, ["simulate", ruleset, "--matches", "2", "--trace", trace])
    assert out.exit_code == 0, out.output
    assert verify_file(trace) == []


def test_compare_refuses_points_beyond_its_stated_range(tmp_path):
    out = CliRunner().invoke(main, ["compare", "pagat", _ruleset(tmp_path, 200), "--matches",
                                    "4", "--workers", "1", "--no-skill"])
    assert out.exit_code == 1
    assert out.stderr.startswith("error: main: a match scored about 10^")
    assert "compare handles at most 10^150 points a match" in out.stderr


@pytest.mark.parametrize("line, says", [
    ('{"event":"pass","player":1.5}', "not a record line: 1.5 is not a whole number: records "
     "hold only whole numbers"),
    ('{"event":"pass","player":NaN}', "not a record line: NaN is not a number a record may "
     "hold"),
    ('{"event":"pass","player":-Infinity}', "not a record line: -Infinity is not a number a "
     "record may hold"),
    ('{"event":"pass","player":' + "9" * 5000 + "}", "not a record line: a number of 5000 "
     "digits is too long (at most 1000)"),
    ("[" * 1000 + "]" * 1000, "not a record line: nested too deeply"),
])
def test_bad_numbers_and_nesting_in_a_record_are_one_line(tmp_path, line, says):
    path = tmp_path / "r.jsonl"
    path.write_text('{"event":"pass","player":0}\n' + line + "\n")
    with pytest.raises(DiagnosticError) as err:
        read_records(str(path))
    [d] = err.value.diagnostics
    assert (d.line, d.message) == (2, says)


@pytest.mark.parametrize("value", ["nan", "inf", "-nan"])
def test_precision_must_be_a_real_number(value):
    out = CliRunner().invoke(main, ["compare", "pagat", "dutch", "--precision", value])
    assert out.exit_code == 2
    assert "Invalid value for '--precision'" in out.output
