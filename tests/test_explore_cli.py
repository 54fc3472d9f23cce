"""``dominorules compare`` end to end: table, JSON, CSV, HTML, PNG, and readable errors."""

from __future__ import annotations

import csv
import json

import pytest
from click.testing import CliRunner

from dominorules.cli import main

FAST = ["--players", "3", "--matches", "20", "--workers", "1", "--batch-size", "10",
        "--skill-bots", "greedy,random"]


def invoke(*args):
    return CliRunner().invoke(main, ["compare", *args])


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    d = tmp_path_factory.mktemp("compare")
    res = invoke("pagat", "dutch", *FAST, "--json", "--csv", str(d / "rounds.csv"),
                 "--html", str(d / "report.html"), "--plot", str(d / "charts.png"))
    assert res.exit_code == 0, res.output
    return d, json.loads(res.stdout)


def test_json_holds_settings_hashes_metrics_and_differences(outputs):
    _, out = outputs
    assert out["settings"]["players"] == 3 and out["settings"]["matches"] == 20
    assert [r["label"] for r in out["rulesets"]] == ["pagat", "dutch"]
    assert all(len(r["sha256"]) == 64 for r in out["rulesets"])
    assert out["rulesets"][0]["sha256"] != out["rulesets"][1]["sha256"]
    rows = {m["key"]: m for m in out["metrics"]}
    assert set(rows["decision_rate"]["values"]) == {"pagat", "dutch"}
    v = rows["decision_rate"]["values"]["pagat"]
    assert v["low"] < v["value"] < v["high"] and v["n"] == 20
    assert set(rows["decision_rate"]["differences"]) == {"dutch"}
    assert "significant" in rows["decision_rate"]["differences"]["dutch"]
    assert rows["skill_gap"]["pairing"] == "skill"
    assert [p["matches_per_ruleset"] for p in out["pairings"]] == [20, 20]


def test_csv_has_one_row_per_round(outputs):
    d, out = outputs
    with open(d / "rounds.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == out["run"]["rounds"]
    main_pagat = [r for r in rows if r["pairing"] == "main" and r["ruleset"] == "pagat"]
    assert len({r["match"] for r in main_pagat}) == 20
    first = main_pagat[0]
    assert first["round"] == "1" and first["result"] in ("domino", "blocked")
    assert int(first["turns"]) == int(first["placements"]) + int(first["passes"])
    assert {"points_0", "points_2", "score_2", "match_rounds"} <= set(first)


def test_html_is_self_contained(outputs):
    d, _ = outputs
    text = (d / "report.html").read_text()
    assert '<table id="table-main">' in text and "How often does a round end blocked?" in text
    assert text.count("<svg") == 3
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in text and "<script" not in text


def test_plot_is_a_png(outputs):
    d, _ = outputs
    assert (d / "charts.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_table_rows_read_as_questions():
    res = invoke("pagat", "dutch", *FAST, "--no-skill")
    assert res.exit_code == 0, res.output
    assert "How many rounds does a match last?" in res.stdout
    assert "dutch − pagat" in res.stdout
    assert "played 20 matches per ruleset" in res.stdout
    assert "Does skill matter?" not in res.stdout


def test_unknown_ruleset_is_one_readable_error():
    res = invoke("pagat", "duch", "--matches", "4", "--workers", "1")
    assert res.exit_code == 2
    assert "no builtin ruleset or file named 'duch'" in res.stderr
    assert "did you mean 'dutch'?" in res.stderr
    assert "Traceback" not in res.output


def test_player_count_must_suit_every_ruleset():
    res = invoke("pagat", "mexican", "--players", "3", "--matches", "4", "--workers", "1")
    assert res.exit_code == 2  # a usage error, as in simulate
    assert "mexican is played by 4 players, not 3" in res.stderr


def test_unknown_bot_is_reported_before_any_match():
    res = invoke("pagat", "--bots", "grumpy", "--matches", "4", "--workers", "1",
                 "--no-skill")
    assert res.exit_code == 2  # a usage error, as in simulate
    assert "bot 'grumpy'" in res.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_progress_bar_then_ctrl_c_prints_what_was_finished(workers):
    import os
    import sys
    import time

    pexpect = pytest.importorskip("pexpect")
    from children import default_sigint
    # the Python engine: the JIT could finish 100,000 matches before the interrupt lands
    child = pexpect.spawn(sys.executable, ["cli.py", "compare", "pagat", "dutch", "--players",
                                           "3", "--matches", "100000", "--no-skill",
                                           "--workers", workers, "--engine", "python"],
                          env={**os.environ, "COLUMNS": "150"}, dimensions=(40, 150),
                          timeout=60, encoding="utf-8", preexec_fn=default_sigint)
    child.expect("matches/s")          # the bar appears once the run has lasted a second
    time.sleep(0.5)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "How many rounds does a match last?" in child.before
    assert "interrupted: the numbers above cover the matches finished before Ctrl-C" \
        in child.before
    assert "Traceback" not in child.before
