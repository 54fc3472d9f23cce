"""SIGTERM (a shell's kill, a job scheduler's timeout) stops a long run as Ctrl-C does: the
finished work is written, the temporary folders are removed, the exit code is 143 and
one line says the run was interrupted. Real child processes, signalled mid-run."""

from __future__ import annotations

import csv
import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parent.parent


def _spawn(tmp_path: Path, *args: str):
    from children import default_sigint

    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "COLUMNS": "150", "TMPDIR": str(tmp), "DOMINORULES_NO_JIT": "1"}
    return tmp, pexpect.spawn(sys.executable, [str(ROOT / "cli.py"), *args], env=env,
                              cwd=str(tmp_path), dimensions=(40, 150), timeout=90,
                              encoding="utf-8", preexec_fn=default_sigint)


def _finish(child) -> str:
    child.expect(pexpect.EOF)
    child.close()
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)


def test_sigterm_stops_a_sweep_with_the_finished_combination_in_its_csv(tmp_path):
    # one-round matches first (quick), then matches to 5000 points (about a minute)
    tmp, child = _spawn(tmp_path, "sweep", "pagat", "--vary", "match.target=1,5000",
                        "--players", "3", "--matches", "400", "--batch-size", "10",
                        "--no-skill", "--workers", "2", "--csv", "s.csv", "--html", "s.html")
    child.expect("combination 2/2")   # shown once the first combination is merged whole
    child.kill(signal.SIGTERM)
    out = _finish(child)
    assert child.exitstatus == 143
    assert "Traceback" not in out
    assert out.rstrip().splitlines()[-1] == (
        "interrupted: finished combinations are complete; the one running is marked with "
        "the matches it finished; the rest did not run")
    rows = list(csv.DictReader((tmp_path / "s.csv").open()))
    first = {(r["status"], r["matches"]) for r in rows if r["match.target"] == "1"}
    assert first == {("done", "400")}
    assert "interrupted: combinations not finished are marked" in \
        (tmp_path / "s.html").read_text()
    assert os.listdir(tmp) == []      # no dominorules-sweep-* folder left behind


def test_sigterm_stops_tune_with_the_best_so_far_written_to_out(tmp_path):
    tmp, child = _spawn(tmp_path, "tune", "pagat", "--vary", "match.target=20..200",
                        "--goal", "rounds_per_match ~ 50", "--matches", "200",
                        "--max-matches", "50000", "--no-skill", "--workers", "2",
                        "--batch-size", "10", "--out", "best.yaml")
    child.expect("step 2:")           # the first rung is finished and ranked
    child.kill(signal.SIGTERM)
    out = _finish(child)
    assert child.exitstatus == 143
    assert "Traceback" not in out
    assert out.rstrip().splitlines()[-1] == ("interrupted: the ranking covers the rungs "
                                             "finished before SIGTERM")
    best = (tmp_path / "best.yaml").read_text()
    assert best.startswith("# Written by `dominorules tune`")
    assert "extends: pagat" in best
    assert os.listdir(tmp) == []      # no dominorules-tune-* folder left behind


def test_sigterm_stops_simulate_with_whole_matches_in_its_record(tmp_path):
    from dominorules.records import verify_file

    _, child = _spawn(tmp_path, "simulate", "pagat", "--matches", "100000", "--trace",
                      "t.jsonl")
    trace = tmp_path / "t.jsonl"
    # some matches played and written, then the signal: a few dozen (verifying the
    # thousands three seconds gave took over a minute of the suite)
    deadline = time.monotonic() + 60
    while child.isalive() and time.monotonic() < deadline and not (
            trace.exists() and trace.read_text().count('"event":"match_end"') >= 20):
        time.sleep(0.05)
    child.kill(signal.SIGTERM)
    out = _finish(child)
    assert child.exitstatus == 143
    last = re.split(r"[\r\n]", out.strip())[-1]   # after the progress bar a terminal shows
    said = re.fullmatch(r"interrupted: the summary above and t\.jsonl cover the (\d+) whole "
                        r"matches finished before SIGTERM", last)
    assert said, out
    ends = trace.read_text().count('"event":"match_end"')
    assert ends == int(said.group(1)) > 0
    assert verify_file(str(trace)) == []


def test_ctrl_c_during_compare_by_rule_is_not_a_success(tmp_path):
    """The mixes' run interrupted used to print its partial split and exit 0."""
    import subprocess

    from children import default_sigint

    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "cli.py"), "compare", "pagat", "dutch", "--players", "3",
         "--by-rule", "--matches", "3000", "--no-skill", "--workers", "1", "--batch-size",
         "10"], env={**os.environ, "TMPDIR": str(tmp), "DOMINORULES_NO_JIT": "1"},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    deadline = time.monotonic() + 60
    while not any(p.name.startswith("dominorules-by-rule-") and any(p.iterdir())
                  for p in tmp.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)                   # the mixes are written: their matches are running
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "Traceback" not in err
    assert err.splitlines()[-1] == ("interrupted: the numbers above cover the matches "
                                    "finished before Ctrl-C")
    assert "How many rounds does a match last?" in out     # the comparison is reported
    assert os.listdir(tmp) == []
