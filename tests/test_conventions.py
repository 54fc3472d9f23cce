"""Command-line conventions a scripter relies on: ``-`` for standard input and output,
``--json`` for list and validate, a guess for a mistyped ruleset (not every name), the
environment variables in --help, and the report files named once written."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dominorules.cli import main
from dominorules.rules import builtin_rulesets

SHORT_DUTCH = 'extends: dutch\ndeal:\n  hand_size: "8 - players"\n'


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


def test_a_ruleset_read_from_standard_input():
    out = run("rules", "-", stdin=SHORT_DUTCH)
    assert out.exit_code == 0, out.output
    assert "(formula: 8 - players)" in " ".join(out.stdout.split())
    diff = run("diff", "dutch", "-", stdin=SHORT_DUTCH)
    assert "1 rule differs." in diff.stdout and "Hand size:" in diff.stdout
    sim = run("simulate", "-", "--players", "3", "--matches", "2", stdin=SHORT_DUTCH)
    assert sim.exit_code == 0 and sim.stdout.startswith("stdin: 3 players, 2 matches")


def test_validate_json_tells_each_ruleset_and_its_problems_with_line_and_column():
    bad = "extends: dutch\ndeal:\n  hand_sze: 3\n"
    out = run("validate", "pagat", "-", "--json", stdin=bad)
    assert out.exit_code == 1
    report = json.loads(out.stdout)
    assert [(r["ruleset"], r["ok"]) for r in report] == [("pagat", True), ("-", False)]
    (problem,) = report[1]["problems"]
    assert (problem["severity"], problem["code"], problem["line"], problem["column"],
            problem["path"], problem["hint"]) == ("error", "schema", 3, 3, "deal.hand_sze",
                                                  "did you mean 'hand_size'?")
    assert problem["file"].endswith("stdin.yaml")
    assert out.stderr == ""                   # the JSON says it all


def test_list_json_names_every_builtin():
    out = run("list", "--json")
    listed = json.loads(out.stdout)
    assert [r["name"] for r in listed] == [i.name for i in builtin_rulesets()]
    assert all(r["path"].endswith(".yaml") and "description" in r for r in listed)


@pytest.mark.parametrize(("typed", "hint"), [
    ("pagt", "  hint: did you mean 'pagat'? (`dominorules list` shows them all)"),
    ("block", "  hint: did you mean 'house/block'? (`dominorules list` shows them all)"),
    ("zzzz", "  hint: `dominorules list` shows every builtin name; a file's path ends in "
             ".yaml"),
])
def test_an_unknown_ruleset_gets_a_guess_not_every_name(typed, hint):
    out = run("rules", typed)
    assert out.exit_code == 2
    assert out.stderr == f"{typed}: error: no builtin ruleset or file named '{typed}'\n{hint}\n"


def test_csv_to_standard_output_and_the_files_written_named(tmp_path):
    out = run("compare", "pagat", "dutch", "--players", "3", "--matches", "4", "--no-skill",
              "--workers", "1", "--csv", "-", "--html", str(tmp_path / "r.html"))
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[0].startswith("pairing,ruleset,players,match,seed,")
    assert all(line.startswith("main,") for line in lines[1:])        # no table in it
    assert out.stderr.splitlines()[-1] == f"written: {tmp_path / 'r.html'}"
    assert not (tmp_path / "-").exists()
    both = run("compare", "pagat", "--csv", "-", "--json")
    assert both.exit_code == 2 and both.stderr == (
        "error: --csv and --json would both write to standard output: give all but one a "
        "file name\n")
    png = run("compare", "pagat", "--plot", "-")
    assert png.exit_code == 2 and "standard output takes only --csv or --html" in png.stderr


def test_sweep_csv_to_standard_output():
    out = run("sweep", "pagat", "--vary", "match.target=31,61", "--players", "3", "--matches",
              "4", "--no-skill", "--workers", "1", "--csv", "-")
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines()[0] == ("combination,match.target,status,matches,metric,"
                                          "value,low,high,n")


@pytest.mark.parametrize("command", ["simulate", "compare", "sweep", "tune"])
def test_the_environment_variables_are_named_in_help(command):
    text = run(command, "--help").stdout
    for name in ("DOMINORULES_CACHE", "DOMINORULES_NO_JIT", "TMPDIR", "COLUMNS"):
        assert name in text, name
    assert "COLUMNS" in run("rules", "--help").stdout
