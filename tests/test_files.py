"""The file gate (``dominorules.files``): every path the program reads is checked first.

One class of problem, every way in: a ruleset on the command line, an ``extends``,
a record, the ruleset a record names. Each refusal is one line, exit 1 (2 when a
file named on the command line does not exist), and nothing blocks or fills memory.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from dominorules import files

LONG = "a" * 5000


class Ran:
    """A CLI run in this process (quicker than a subprocess): returncode, stderr."""

    def __init__(self, args: tuple[str, ...]):
        result = CliRunner().invoke(main, list(args), input="")
        assert result.exception is None or isinstance(result.exception, SystemExit)
        self.returncode, self.stderr = result.exit_code, result.stderr


def run(*args: str) -> Ran:
    return Ran(args)


@pytest.fixture()
def hostile(tmp_path):
    """A FIFO (opening it would block forever), a big file, and files pointing at them."""
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    big = tmp_path / "big.yaml"
    big.write_bytes(b"# padding\n" * (files.LIMITS["ruleset"] // 10 + 1))
    (tmp_path / "child.yaml").write_text("extends: ./fifo.yaml\n")
    return tmp_path


@pytest.mark.parametrize("args, says", [
    (["validate", "{d}/fifo.yaml"], "{d}/fifo.yaml: error: cannot read {d}/fifo.yaml: it is "
     "not a regular file (a device, pipe or socket), not a ruleset file"),
    (["validate", "/dev/zero"], "/dev/zero: error: cannot read /dev/zero: it is not a regular "
     "file (a device, pipe or socket), not a ruleset file"),
    (["rules", "{d}/big.yaml"], "{d}/big.yaml: error: cannot read {d}/big.yaml: it is 1.0 MB; "
     "a ruleset file may be at most 1 MB"),
    (["validate", "{d}/child.yaml"], "{d}/child.yaml:1:10: error: extends ./fifo.yaml: cannot "
     "read {d}/fifo.yaml: it is not a regular file (a device, pipe or socket), not a ruleset "
     "file [extends]"),
    (["validate", "~nosuchuser/rules.yaml"], "~nosuchuser/rules.yaml: error: cannot read "
     "~nosuchuser/rules.yaml: there is no user 'nosuchuser'"),
    (["verify", "{d}/fifo.yaml"], "{d}/fifo.yaml: cannot read {d}/fifo.yaml: it is not a "
     "regular file (a device, pipe or socket), not a record file"),
    (["replay", "/dev/zero"], "/dev/zero: error: cannot read /dev/zero: it is not a regular "
     "file (a device, pipe or socket), not a record file"),
])
def test_a_path_that_is_not_a_readable_file_is_one_line_exit_1(hostile, args, says):
    d = str(hostile)
    result = run(*(a.format(d=d) for a in args))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines()[0] == says.format(d=d)


def test_a_path_too_long_for_any_file_system_is_refused_by_its_length():
    result = run("validate", f"/tmp/{LONG}.yaml")
    assert result.returncode == 1
    assert result.stderr.rstrip().endswith("the path is too long (5010 characters)")
    assert len(result.stderr) < 400  # the path is shown cut, not 5000 characters long


@pytest.mark.parametrize("command", ["simulate", "compare", "play", "rules", "verify",
                                     "replay"])
def test_a_missing_file_on_the_command_line_is_a_usage_error(tmp_path, command):
    result = run(command, str(tmp_path / "absent.yaml"))
    assert result.returncode == 2
    assert "no such file" in result.stderr and "Traceback" not in result.stderr


# -- what a record may point at -------------------------------------------------------------

def _record(tmp_path: Path, **start) -> str:
    event = {"event": "match_start", "ruleset": "pagat", "players": 2, "teams": [[0], [1]],
             "seed": 1, **start}
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(event) + "\n")
    return str(path)


@pytest.mark.parametrize("start, says", [
    ({"ruleset": "/dev/zero"}, "ruleset '/dev/zero': no builtin ruleset has this name, and "
     "the record names no source file"),
    ({"ruleset": "~/.ssh/id_rsa"}, "ruleset '~/.ssh/id_rsa': no builtin ruleset has this name, "
     "and the record names no source file"),
    ({"ruleset": "mine", "source": "/etc/passwd"}, "source '/etc/passwd' is not a .yaml or "
     ".yml ruleset file; a record may point only at one"),
    ({"ruleset": "mine", "source": 7}, "source '7' is not a .yaml or .yml ruleset file; a "
     "record may point only at one"),
    ({"ruleset": "mine", "source": "fifo.yaml"}, "ruleset 'mine': cannot read {d}/fifo.yaml: "
     "it is not a regular file (a device, pipe or socket), not a ruleset file"),
    ({"ruleset": "mine", "source": LONG + ".yaml"}, "ruleset 'mine': cannot read "),
])
def test_a_record_opens_only_a_builtin_or_a_yaml_source_through_the_gate(hostile, start, says):
    from dominorules.records import verify_file

    d = str(hostile)
    [problem] = verify_file(_record(hostile, **start))
    assert problem.line == 1
    assert problem.message.startswith(says.format(d=d))
    assert len(problem.message) < 300


def test_a_record_source_is_found_beside_the_record(tmp_path):
    from dominorules import api
    from dominorules.records import verify_file, write_records

    (tmp_path / "mine.yaml").write_text("name: mine\nextends: pagat\ndeal:\n  hand_size: 5\n")
    events = api.play_match(api.load_game(str(tmp_path / "mine.yaml")), 2, 3, trace=True).events
    events[0]["source"] = "mine.yaml"  # relative: to the record's folder, not the cwd
    write_records(str(tmp_path / "m.jsonl"), events)
    assert verify_file(str(tmp_path / "m.jsonl")) == []
