"""Every output option is checked before any work starts, and every write error is one line.

A long compare must never be lost to a typo in ``--html``; a full disk or a closed
pipe must never look like success.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import dominorules.api
from dominorules.cli import main
from dominorules.records import verify_file

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL, **kw)


@pytest.mark.parametrize("args, says", [
    (["compare", "pagat", "dutch", "--html", "{d}/no/such/dir/r.html"],
     "error: --html {d}/no/such/dir/r.html: the folder {d}/no/such/dir does not exist"),
    (["compare", "pagat", "dutch", "--csv", "{d}"], "error: --csv {d}: is a directory"),
    (["compare", "pagat", "dutch", "--plot", "{d}/chart.txt"],
     "error: --plot {d}/chart.txt: '.txt' is not an image format matplotlib writes"),
    (["compare", "pagat", "{d}/mine.yaml", "--html", "{d}/mine.yaml"],
     "error: --html {d}/mine.yaml: is an input ruleset; writing it would destroy it"),
    (["compare", "pagat", "dutch", "--csv", "{d}/x", "--html", "{d}/x"],
     "error: --html {d}/x: is also the file of --csv"),
    (["simulate", "{d}/mine.yaml", "--trace", "{d}/mine.yaml"],
     "error: --trace {d}/mine.yaml: is an input ruleset; writing it would destroy it"),
    (["play", "pagat", "--trace", ""], "error: --trace needs a file name, not an empty one"),
])
def test_a_bad_output_path_is_a_usage_error_before_any_match(tmp_path, args, says):
    pytest.importorskip("matplotlib")
    (tmp_path / "mine.yaml").write_text("extends: pagat\n")
    d = str(tmp_path)
    # --matches 100000: were the check made after the run, this test would time out
    more = [] if args[0] == "play" else ["--matches", "100000"]
    result = CliRunner().invoke(main, [*(a.format(d=d) for a in args), *more], input="")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == says.format(d=d)
    assert (tmp_path / "mine.yaml").read_text() == "extends: pagat\n"


@pytest.mark.parametrize("args", [
    ["list"],
    ["compare", "pagat", "dutch", "--matches", "10", "--workers", "1", "--no-skill"],
    ["simulate", "pagat", "--matches", "2", "--json"],
])
def test_a_full_disk_on_stdout_is_one_line_exit_1(args):
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr == "error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("args", [["list"], ["rules", "dutch"],
                                  ["simulate", "pagat", "--matches", "2", "--json"]])
def test_a_reader_that_stops_early_gets_no_error(args):
    """``dominorules list | head -3``: the closed pipe ends the command quietly, exit 141
    as for a command ended by SIGPIPE."""
    import os

    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args],
                                stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr) == (141, "")


@pytest.mark.parametrize("command", ["compare", "sweep"])
def test_a_closed_pipe_still_gets_the_report_files_and_no_error(tmp_path, command):
    """``compare ... --html r.html | head -0``: the report is written all the same, and
    the command ends as one killed by SIGPIPE would, quietly, exit 141 (rich's own answer
    is exit 1 before the files are written)."""
    import os

    report = tmp_path / "r.html"
    args = (["compare", "pagat", "dutch"] if command == "compare"
            else ["sweep", "pagat", "--vary", "match.target=31,61"])
    read_end, write_end = os.pipe()
    os.close(read_end)          # nobody reads: the first write to stdout fails
    try:
        result = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args, "--matches",
                                 "40", "--no-skill", "--html", str(report)], stdout=write_end,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                                timeout=60)
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr) == (141, "")
    assert report.read_text().startswith("<!DOCTYPE html>")


def test_a_full_disk_under_trace_is_one_line_exit_1():
    result = run("simulate", "pagat", "--matches", "3", "--trace", "/dev/full")
    assert (result.returncode, result.stderr) == (
        1, "error: cannot write /dev/full: No space left on device\n")


def test_an_interrupted_simulate_prints_the_summary_of_its_whole_matches(monkeypatch):
    full = CliRunner().invoke(main, ["simulate", "pagat", "--matches", "3", "--json"]).stdout
    played = []
    real = dominorules.api.play_match

    def stops_at_the_fourth(*args, **kwargs):
        if len(played) == 3:
            raise KeyboardInterrupt
        played.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(dominorules.api, "play_match", stops_at_the_fourth)   # untraced
    result = CliRunner().invoke(main, ["simulate", "pagat", "--matches", "9", "--json"])
    assert result.exit_code == 130
    assert result.stderr == ("interrupted: the summary above covers the 3 whole matches "
                             "finished before Ctrl-C\n")
    assert result.stdout == full   # what it finished is kept: three matches' summary
    assert json.loads(full)["matches"] == 3


def test_an_interrupted_trace_holds_whole_matches_and_says_how_many(tmp_path, monkeypatch):
    played = []

    def stops_at_the_third(real):
        def play(*args, **kwargs):
            if len(played) == 2:
                raise KeyboardInterrupt
            played.append(1)
            return real(*args, **kwargs)
        return play

    # a match is played by the kernel (writing its text) or by play_match: stop either
    for name in ("play_match", "_kernel_match"):
        monkeypatch.setattr(dominorules.api, name,
                            stops_at_the_third(getattr(dominorules.api, name)))
    trace = tmp_path / "t.jsonl"
    result = CliRunner().invoke(main, ["simulate", "pagat", "--matches", "5", "--trace",
                                       str(trace)])
    assert result.exit_code == 130
    assert result.stderr == (f"interrupted: the summary above and {trace} cover the 2 whole "
                             "matches finished before Ctrl-C\n")
    monkeypatch.undo()   # the summary kept is the one two matches give
    assert result.stdout == CliRunner().invoke(main, ["simulate", "pagat", "--matches",
                                                      "2"]).stdout
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    assert [e["event"] for e in events].count("match_end") == 2
    assert events[-1]["event"] == "match_end"
    assert verify_file(str(trace)) == []


@pytest.mark.parametrize("option", ["--csv", "--html"])
def test_a_report_file_that_cannot_be_written_keeps_the_tables_and_exits_1(option):
    result = run("compare", "pagat", "dutch", "--matches", "6", "--workers", "1",
                 "--no-skill", option, "/dev/full")
    assert result.returncode == 1
    assert "paired on" in result.stdout  # the numbers were printed all the same
    assert result.stderr == "/dev/full: error: cannot write /dev/full: No space left on device\n"


SWEEP = ["sweep", "{d}/child.yaml", "--vary", "match.target=31,61", "--matches", "100000",
         "--no-skill", "--workers", "1"]
TUNE = ["tune", "{d}/child.yaml", "--vary", "match.target=20..40", "--goal",
        "rounds_per_match ~ 5", "--matches", "100000", "--max-matches", "200000",
        "--no-skill", "--workers", "1"]


@pytest.mark.parametrize("args, option, target", [
    (SWEEP, "--csv", "child.yaml"), (SWEEP, "--html", "parent.yaml"),
    (TUNE, "--out", "child.yaml"), (TUNE, "--out", "parent.yaml"),
    (["compare", "pagat", "{d}/child.yaml"], "--csv", "parent.yaml"),
    (["simulate", "{d}/child.yaml"], "--trace", "parent.yaml"),
])
def test_an_output_naming_the_ruleset_or_a_file_it_extends_is_refused_first(
        tmp_path, args, option, target):
    """``tune R.yaml --out R.yaml`` overwrote the user's ruleset; so did an output naming the
    file the ruleset extends. Refused before the first match (100,000 would time out)."""
    (tmp_path / "parent.yaml").write_text("extends: pagat\n")
    (tmp_path / "child.yaml").write_text("extends: ./parent.yaml\n")
    d = str(tmp_path)
    result = CliRunner().invoke(main, [*(a.format(d=d) for a in args), option,
                                       f"{d}/{target}", "--force"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (f"error: {option} {d}/{target}: is an input "
                                             "ruleset; writing it would destroy it")
    assert (tmp_path / "parent.yaml").read_text() == "extends: pagat\n"
    assert (tmp_path / "child.yaml").read_text() == "extends: ./parent.yaml\n"


@pytest.mark.parametrize("args, option", [
    (SWEEP, "--csv"), (SWEEP, "--html"), (TUNE, "--out"),
    (["compare", "pagat", "dutch", "--matches", "100000"], "--html"),
])
def test_an_existing_output_file_needs_force(tmp_path, args, option):
    (tmp_path / "child.yaml").write_text("extends: pagat\n")
    mine = tmp_path / "mine.txt"
    mine.write_text("keep me\n")
    d = str(tmp_path)
    result = CliRunner().invoke(main, [*(a.format(d=d) for a in args), option, str(mine)])
    assert result.exit_code == 2
    assert result.stderr == f"error: {mine} already exists: add --force to overwrite it\n"
    assert mine.read_text() == "keep me\n"


def test_force_replaces_an_existing_tune_out_and_a_full_disk_names_the_file(tmp_path):
    (tmp_path / "child.yaml").write_text("extends: pagat\n")
    out = tmp_path / "best.yaml"
    out.write_text("old\n")
    args = [a.format(d=tmp_path) for a in TUNE]
    args[args.index("100000")], args[args.index("200000")] = "4", "8"
    result = run(*args, "--out", str(out), "--force", env={**__import__("os").environ,
                                                           "DOMINORULES_NO_JIT": "1"})
    assert result.returncode == 0, result.stderr
    assert out.read_text().startswith("# Written by `dominorules tune`")
    assert f"written to {out}" in result.stdout
    full = run(*args, "--out", "/dev/full", "--json")
    assert full.returncode == 1
    assert full.stderr == "/dev/full: error: cannot write /dev/full: No space left on device\n"


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["simulate", "--help"]])
def test_help_and_version_into_a_full_disk_are_one_line(args):
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=60)
    assert (result.returncode, result.stderr) == (
        1, "error: cannot write the output: No space left on device\n")


def _closed(fd: int):
    import os
    return lambda: os.close(fd)


@pytest.mark.parametrize("args", [["list"], ["simulate", "pagat", "--matches", "2"]])
def test_a_closed_stdout_is_one_line(args):
    result = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args],
                            stderr=subprocess.PIPE, text=True, timeout=60,
                            preexec_fn=_closed(1))
    assert (result.returncode, result.stderr) == (
        1, "error: cannot write the output: standard output is closed\n")


def test_play_with_stdin_closed_leaves_the_match_as_at_the_end_of_input():
    result = subprocess.run([sys.executable, str(ROOT / "cli.py"), "play", "pagat", "--fast",
                             "--seed", "1"], capture_output=True, text=True, timeout=60,
                            preexec_fn=_closed(0))
    assert "Traceback" not in result.stderr
    assert result.returncode == 0
    assert result.stdout.rstrip().endswith("End of input: the match is left unfinished.")
