"""The public API: its documentation runs, bots by name or object, simulate and its CLI."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dominorules import api
from dominorules.diagnostics import DiagnosticError
from dominorules.rules import builtin_rulesets
from dominorules.rules.examples import Example
from dominorules.rules.verify import check_examples

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "api.md").read_text()


@pytest.mark.parametrize("block", re.findall(r"```python\n(.*?)```", DOC, re.S))
def test_every_python_example_in_docs_api_runs(block, capsys):
    exec(compile(block, "docs/api.md", "exec"), {"__name__": "docs_api"})
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) >= block.count("print("), printed   # it ran to its last print
    assert "Traceback" not in "\n".join(printed)


def test_the_dutch_scenario_in_the_docs_prints_what_it_says(capsys):
    block = [b for b in re.findall(r"```python\n(.*?)```", DOC, re.S) if "dutch" in b][0]
    exec(compile(block, "docs/api.md", "exec"), {})
    assert capsys.readouterr().out.splitlines() == [
        "['2-1', '6-6']", "['6-4 left', '6-4 right']"]


def test_load_game_caches_builtins_and_reports_unknown_names():
    assert api.load_game("pagat") is api.load_game("pagat")
    with pytest.raises(DiagnosticError, match="no builtin ruleset or file named 'nope'"):
        api.load_game("nope")


def test_bots_by_name_object_or_one_per_seat():
    one = api.play_match("pagat", 3, 5, bots="greedy")
    each = api.play_match("pagat", 3, 5, bots=["greedy", "greedy", "greedy"])
    assert one == each
    with pytest.raises(DiagnosticError, match="2 bots for 3 players"):
        api.play_match("pagat", 3, 5, bots=["random", "random"])


def test_every_builtin_ruleset_example_holds():
    from dominorules.rules import load_ruleset
    for info in builtin_rulesets():
        ruleset = load_ruleset(info.name)
        assert check_examples(ruleset.rules, ruleset.examples) == []


def test_a_wrong_example_is_reported_with_what_the_rules_say():
    from rules_factory import make_rules
    wrong = Example("points", "wrong", {"players": 3, "result": "domino",
                                        "hands": ["", "0-0", "3-5"],
                                        "expect_points": [9, 0, 0]})
    legal = Example("legal", "legal", {"players": 2, "hands": ["1-2 3-4", "5-6"],
                                       "ends": [6, 6], "boneyard": 3, "turn": 0,
                                       "expect_legal": ["pass"]})
    failures = check_examples(make_rules(), (wrong, legal))
    assert [(ex.title, msg) for ex, msg in failures] == [
        ("wrong", "expected points [9, 0, 0], the rules give [8, 0, 0]"),
        ("legal", "expected legal actions pass; the rules allow draw")]


def run_cli(*args):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args],
                          capture_output=True, text=True, cwd=ROOT)


def test_simulate_json_counts_rounds_and_writes_a_record_that_verifies(tmp_path):
    trace = tmp_path / "t.jsonl"
    out = run_cli("simulate", "pagat", "--players", "3", "--matches", "4", "--seed", "7",
                  "--json", "--trace", str(trace))
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    expected = api.simulate(api.load_game("pagat"), 3, 4, 7, ["random"] * 3)
    assert summary["rounds"] == expected["rounds"] == sum(
        len(api.play_match("pagat", 3, api.match_seed(7, i)).rounds) for i in range(4))
    assert sum(summary["wins"]) + summary["drawn_matches"] == 4
    assert run_cli("verify", str(trace)).returncode == 0


def test_simulate_text_summary():
    """Wins count matches, so they stand apart from rounds, each with its share and its
    95% Wilson interval (scipy's, as compare's); rates and counts get theirs."""
    from scipy.stats import binomtest

    out = run_cli("simulate", "mexican", "--matches", "30", "--bots",
                  "random,greedy,random,greedy")
    assert out.returncode == 0
    summary = api.simulate(api.load_game("mexican"), 4, 30, 1, ["random", "greedy"] * 2)
    lines = out.stdout.splitlines()
    assert lines[0] == ("mexican: 4 players, 30 matches, seed 1, bots random,greedy,random,"
                        "greedy, engine python")
    assert lines[1] == "matches won (of 30):"
    for side, line in enumerate(lines[2:4]):
        won = summary["wins"][side]
        ci = binomtest(won, 30).proportion_ci(method="wilson")
        assert line == (f"  side {side} (seats {side},{side + 2}): {won} ({won / 30:.1%}, "
                        f"95% interval {ci.low * 100:.1f}–{ci.high * 100:.1f}%)")
    rounds = next(line for line in lines if line.startswith("rounds: "))
    assert rounds.startswith(f"rounds: {summary['rounds']} "
                             f"({summary['rounds'] / 30:.2f} ±")
    blocked = next(line for line in lines if line.startswith("blocked rounds: "))
    assert re.fullmatch(r"blocked rounds: \d+\.\d%, 95% interval \d+\.\d–\d+\.\d%", blocked)
    assert lines[-2].startswith("draws per round: 0.00 ±")
    assert lines[-1] == "±: a 95% interval (matches are the independent units)"


def test_simulate_json_gives_each_rate_its_interval():
    out = run_cli("simulate", "pagat", "--players", "3", "--matches", "40", "--json")
    data = json.loads(out.stdout)
    blocked = data["intervals"]["blocked_rate"]
    assert 0 <= blocked["low"] < blocked["value"] == data["blocked_rate"] < blocked["high"] <= 1
    assert [w["value"] for w in data["intervals"]["win_rates"]] == [
        w / 40 for w in data["wins"]]



@pytest.mark.parametrize("args, message", [
    (["pagat", "--players", "5"], "error: pagat is played by 2 to 4 players, not 5"),
    (["pagat", "--bots", "nobot"], "error: unknown bot 'nobot'"),
    (["pagat", "--players", "2", "--bots", "random,random,random"],
     "error: 3 bots for 2 players"),
])
def test_simulate_usage_errors_are_one_problem_and_exit_2(args, message):
    out = run_cli("simulate", *args)
    assert out.returncode == 2
    first, *rest = out.stderr.splitlines()
    assert first.startswith(message)
    assert all(line.startswith("  hint: ") for line in rest) and len(rest) <= 1


@pytest.mark.parametrize(("option", "value"), [("--matches", "abc"), ("--matches", "1.5"),
                                               ("--seed", "x"), ("--players", "two")])
def test_simulate_and_compare_refuse_a_bad_number_in_the_same_words(option, value):
    sim = run_cli("simulate", "pagat", option, value)
    cmp = run_cli("compare", "pagat", option, value)
    assert sim.returncode == cmp.returncode == 2
    assert sim.stderr.splitlines()[-1] == cmp.stderr.splitlines()[-1]
    assert sim.stderr.splitlines()[-1].startswith(f"Error: Invalid value for '{option}': ")


def test_numbers_are_typed_as_integers_in_help():
    for command in ("simulate", "compare"):
        text = run_cli(command, "--help").stdout
        for option in ("--matches", "--seed", "--players"):
            line = next(x for x in text.splitlines() if x.strip().startswith(option))
            assert "INTEGER" in line, line


def test_simulate_shows_progress_on_a_terminal_only():
    import os
    import sys
    import time

    pexpect = pytest.importorskip("pexpect")
    from children import default_sigint

    child = pexpect.spawn(sys.executable, ["cli.py", "simulate", "pagat", "--players", "3",
                                           "--matches", "100000", "--engine", "python"],
                          env={**os.environ, "COLUMNS": "100"}, dimensions=(40, 100),
                          timeout=60, encoding="utf-8", preexec_fn=default_sigint)
    child.expect("matches/s")          # the bar appears once the run has lasted a second
    time.sleep(0.3)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and "Traceback" not in child.before
    piped = run_cli("simulate", "pagat", "--matches", "300")
    assert piped.returncode == 0 and piped.stderr == ""      # no bar into a pipe
