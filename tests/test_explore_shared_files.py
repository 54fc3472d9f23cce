"""Where ``sweep``, ``tune`` and ``compare --by-rule`` put the rulesets they make up.

Workers load every ruleset by path, so on a Dask cluster the variant files must be
on a filesystem every worker reads at the same path. They are written under the
temporary folder (``TMPDIR``): the README tells cluster users to point it at a shared
folder, so that is what these tests pin down -- and that nothing is left behind.
"""

from __future__ import annotations

import tempfile

import pytest
from click.testing import CliRunner

from dominorules.cli import main
from dominorules.explore import runner
from dominorules.rules.resources import builtin_paths


@pytest.mark.parametrize("args", [
    ["sweep", "pagat", "--vary", "match.target=31,61", "--matches", "4"],
    ["tune", "pagat", "--vary", "match.target=31,61", "--goal", "rounds_per_match < 3",
     "--matches", "4", "--max-matches", "4"],
    ["compare", "pagat", "dutch", "--by-rule", "--matches", "4"],
])
def test_made_up_rulesets_are_written_under_tmpdir_and_removed(args, tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(shared))   # what TMPDIR=... sets
    refs: list[str] = []

    def record(spec):
        for ref in spec.pairing.refs:
            refs.append(ref)
            if ref not in builtin_paths():
                assert ref.startswith(str(shared)), ref   # every worker must read it
        return runner.run_batch(spec)

    monkeypatch.setattr(runner, "make_backend",
                        lambda *a, **k: runner.SerialBackend(record))
    res = CliRunner().invoke(main, [*args, "--players", "3", "--no-skill"])
    assert res.exit_code == 0, res.output
    assert any(ref not in builtin_paths() for ref in refs)   # variants were played
    assert list(shared.iterdir()) == []                      # and cleaned up
