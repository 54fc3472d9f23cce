"""The CLI on bad input, Ctrl-C and broken plug-in bots: one readable line, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import dominorules.rules
from dominorules.cli import main

ROOT = Path(__file__).resolve().parent.parent
CLI = str(ROOT / "cli.py")
PAGAT = str(ROOT / "rulesets" / "pagat.yaml")  # a file path: never served from a cache

PLUGIN = '''
class Crashes:
    def __init__(self, seat, rng):
        self.seat = seat

    def choose(self, obs, legal):
        raise ValueError("no idea what to play")


class Answers42:
    def __init__(self, seat, rng):
        pass

    def choose(self, obs, legal):
        return 42


class PlaysAnything:
    def __init__(self, seat, rng):
        pass

    def choose(self, obs, legal):
        return "6-6 left"
'''


def run(*args: str, cwd: Path = ROOT, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, CLI, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


# -- Ctrl-C while a ruleset is still loading ------------------------------------------------

@pytest.mark.parametrize("args", [
    ["play", PAGAT, "--fast"],
    ["simulate", PAGAT, "--matches", "2"],
    ["compare", PAGAT, "hoyle", "--matches", "4", "--workers", "1"],
    ["validate", PAGAT],
])
def test_ctrl_c_while_loading_is_one_line_and_exit_130(monkeypatch, args):
    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(dominorules.rules, "_load", interrupted)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 130
    assert result.output == "interrupted\n"


# -- a bug of ours: one line, exit 70, the traceback on request ---------------------------

def test_an_internal_error_is_one_line_naming_it_and_exit_70(monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("boom")

    monkeypatch.delenv("DOMINORULES_DEBUG", raising=False)
    monkeypatch.setattr(dominorules.rules, "_load", broken)
    result = CliRunner().invoke(main, ["validate", PAGAT])
    assert result.exit_code == 70
    lines = result.output.splitlines()
    # where: the innermost frame of the package's (the test's own function is not)
    assert lines[0].startswith("error: internal error: RuntimeError: boom (in ")
    assert lines[0].endswith(")") and " line " in lines[0] and "broken" not in lines[0]
    assert "DOMINORULES_DEBUG=1" in lines[1] and len(lines) == 2
    assert "Traceback" not in result.output


def test_dominorules_debug_shows_the_internal_errors_traceback(monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("boom")

    monkeypatch.setenv("DOMINORULES_DEBUG", "1")
    monkeypatch.setattr(dominorules.rules, "_load", broken)
    result = CliRunner().invoke(main, ["validate", PAGAT])
    assert isinstance(result.exception, RuntimeError) and str(result.exception) == "boom"


# -- plug-in bots that fail ---------------------------------------------------------------

@pytest.fixture()
def plugin_env(tmp_path):
    (tmp_path / "mymod.py").write_text(PLUGIN)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
            "TERM": "dumb", "NO_COLOR": "1"}


@pytest.mark.parametrize("command", [
    ["simulate", "pagat", "--matches", "2"],
    ["compare", "pagat", "hoyle", "--matches", "4", "--workers", "1", "--no-skill"],
])
def test_a_plug_in_bot_that_raises_is_named_with_its_seat(plugin_env, command):
    result = run(*command, "--bots", "mymod:Crashes", env=plugin_env)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr == ("error: bot 'mymod:Crashes' (seat 0) failed: "
                             "ValueError: no idea what to play\n")


def test_a_plug_in_bot_that_raises_in_play_keeps_the_record_so_far(plugin_env, tmp_path):
    trace = tmp_path / "game.jsonl"
    result = run("play", "pagat", "--humans", "", "--bots", "mymod:Crashes", "--seed", "3",
                 "--fast", "--trace", str(trace), env=plugin_env)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr == ("error: bot 'mymod:Crashes' (seat 1) failed: "
                             "ValueError: no idea what to play\n")
    kinds = [json.loads(line)["event"] for line in trace.read_text().splitlines()]
    assert kinds == ["match_start", "deal"]


def test_a_plug_in_bot_answering_a_non_action_is_named_with_what_it_returned(plugin_env):
    result = run("simulate", "pagat", "--matches", "1", "--bots", "mymod:Answers42",
                 env=plugin_env)
    assert result.returncode == 1
    assert result.stderr == ("error: bot 'mymod:Answers42' (seat 0) returned 42 "
                             "(int), which is not one of the legal actions: 1-0, 5-0, 2-1, "
                             "4-1, 5-3, 4-4, 6-4, draw\n")


def test_a_plug_in_bot_answering_an_illegal_move_is_named_with_it(plugin_env):
    result = run("simulate", "pagat", "--matches", "1", "--bots", "mymod:PlaysAnything",
                 env=plugin_env)
    assert result.returncode == 1
    assert result.stderr.startswith(
        "error: bot 'mymod:PlaysAnything' (seat 0) returned '6-6 left', which is "
        "not one of the legal actions (1-0, 5-0, 2-1, 4-1, 5-3, 4-4, 6-4, draw): ")
    assert result.stderr.count("\n") == 1


# -- bad input everywhere -----------------------------------------------------------------

BAD_FILES = {
    "empty.jsonl": b"",
    "garbage.jsonl": b"\x00\xff not a record\n",
    "missing.jsonl": b'{"event":"draw"}\n',
    "nosuch.jsonl": b'{"event":"match_start","ruleset":"no-such-ruleset","players":2,'
                    b'"teams":[[0],[1]],"seed":1}\n',
    "wrongtype.jsonl": b'{"event":"match_start","ruleset":"pagat","players":2,'
                       b'"teams":[[0],[1]],"seed":1}\n{"event":"deal","round":1,"leader":0,'
                       b'"hands":5,"boneyard":[]}\n',
    "broken.yaml": b"name: x\n  bad: [\n",
}


@pytest.mark.parametrize("args, code, says", [
    (["simulate", "pagat", "--trace", "/nonexistent/dir/x.jsonl"], 2,
     "error: --trace /nonexistent/dir/x.jsonl: the folder /nonexistent/dir does not exist"),
    (["verify", "{d}/empty.jsonl"], 1, "{d}/empty.jsonl: the record holds no events"),
    (["verify", "{d}/garbage.jsonl"], 1,
     "{d}/garbage.jsonl: {d}/garbage.jsonl is a binary file, not a JSON Lines game record"),
    (["verify", "{d}/missing.jsonl"], 1, "{d}/missing.jsonl:1: draw lacks player, tile"),
    (["verify", "{d}/nosuch.jsonl"], 1, "{d}/nosuch.jsonl:1: ruleset 'no-such-ruleset': "
     "no builtin ruleset has this name, and the record names no source file"),
    (["verify", "{d}/wrongtype.jsonl"], 1,
     "{d}/wrongtype.jsonl:2: deal hands must be a list of hands, not 5"),
    (["verify", "{d}/absent.jsonl"], 2,
     "{d}/absent.jsonl: cannot read {d}/absent.jsonl: no such file"),
    (["replay", "{d}/garbage.jsonl"], 1, "{d}/garbage.jsonl: error: {d}/garbage.jsonl is a "
     "binary file, not a JSON Lines game record"),
    (["compare", "pagat", "{d}/broken.yaml", "--matches", "4", "--workers", "1"], 1,
     "{d}/broken.yaml:2:6: error: mapping values are not allowed in this context"),
    (["compare", "pagat", "no-such-ruleset", "--matches", "4", "--workers", "1"], 2,
     "no-such-ruleset: error: no builtin ruleset or file named 'no-such-ruleset'"),
    (["play", "pagat", "--humans", "9"], 2,
     "error: there is no seat 9: pagat seats at most 4 players (seats 0 to 3)"),
    (["rules", "{d}"], 1, "{d}: error: {d} is a directory, not a ruleset file"),
    (["rules", "{d}/garbage.jsonl"], 1,
     "{d}/garbage.jsonl: error: {d}/garbage.jsonl is a binary file, not YAML text"),
    (["diff", "pagat", "{d}"], 1, "{d}: error: {d} is a directory, not a ruleset file"),
    (["simulate", "pagat", "--players", "9"], 2,
     "error: pagat is played by 2 to 4 players, not 9"),
    (["simulate", "pagat", "--bots", "nosuch:Bot"], 2,
     "error: bot 'nosuch:Bot': cannot import nosuch (No module named 'nosuch')"),
])
def test_bad_input_is_one_readable_message(tmp_path, args, code, says):
    for name, content in BAD_FILES.items():
        (tmp_path / name).write_bytes(content)
    d = str(tmp_path)
    result = run(*(a.format(d=d) for a in args))
    assert result.returncode == code
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stderr.splitlines()[0] == says.format(d=d)


@pytest.mark.parametrize("args, out", [
    (["compare", "pagat", "--matches", "4", "--workers", "1", "--no-skill"], "pagat"),
    (["diff", "pagat", "pagat"], "The two rulesets tell every rule the same way."),
])
def test_odd_but_valid_requests_answer_without_a_traceback(args, out):
    result = run(*args)
    assert result.returncode == 0
    assert "Traceback" not in result.stdout + result.stderr
    assert out in result.stdout


def test_trace_does_not_overwrite_a_file_without_force(tmp_path):
    """Piped (no terminal to ask), an existing --trace file is refused; --force replaces it."""
    trace = tmp_path / "old.jsonl"
    trace.write_text("keep me\n")
    args = ["simulate", "pagat", "--matches", "1", "--trace", str(trace)]
    res = run(*args)
    assert res.returncode == 2
    assert res.stderr.strip() == f"error: {trace} already exists: add --force to overwrite it"
    assert trace.read_text() == "keep me\n"
    res = run(*args, "--force")
    assert res.returncode == 0, res.stderr
    assert trace.read_text().startswith('{"event":"match_start"')


def test_play_refuses_a_seat_given_twice():
    res = run("play", "pagat", "--humans", "0,0")
    assert res.returncode == 2
    assert res.stderr.strip().splitlines()[0] == "error: seat 0 is given twice in --humans"
