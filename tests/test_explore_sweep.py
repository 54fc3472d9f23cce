"""``dominorules sweep``: combinations on the same deals, the same numbers whatever the
workers, impossible combinations listed, and bad --vary input refused before anything runs."""

from __future__ import annotations

import csv
import json
import re
import xml.dom.minidom

import pytest
from click.testing import CliRunner

from dominorules.cli import main
from dominorules.diagnostics import DiagnosticError
from dominorules.explore.variation import check_vary, parse_vary

FAST = ["--players", "4", "--matches", "20", "--batch-size", "10", "--no-skill"]
VARY = ["--vary", "match.target=31,61", "--vary", "deal.hand_size=6,7"]


def invoke(*args):
    return CliRunner().invoke(main, ["sweep", *args])


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    d = tmp_path_factory.mktemp("sweep")
    res = invoke("pagat", *VARY, *FAST, "--workers", "1", "--json",
                 "--csv", str(d / "sweep.csv"), "--html", str(d / "sweep.html"))
    assert res.exit_code == 0, res.output
    return d, json.loads(res.stdout), res.stderr


def test_every_combination_is_reported_and_an_impossible_deal_is_listed(serial):
    _, out, err = serial
    combos = out["combinations"]
    assert [c["values"] for c in combos] == [
        {"match.target": 31, "deal.hand_size": 6}, {"match.target": 31, "deal.hand_size": 7},
        {"match.target": 61, "deal.hand_size": 6}, {"match.target": 61, "deal.hand_size": 7}]
    # 7 tiles to each of 4 players leaves no boneyard, fewer than pagat's reserve of 2
    assert [c["status"] for c in combos] == ["done", "invalid", "done", "invalid"]
    assert "leaves 0 tiles in the boneyard" in combos[1]["problem"]
    assert "not played: match.target=31 deal.hand_size=7" in err
    assert combos[0]["matches"] == 20
    # a higher target makes longer matches, on the same deals
    assert (combos[2]["metrics"]["rounds_per_match"]["value"]
            > combos[0]["metrics"]["rounds_per_match"]["value"])


def test_the_numbers_do_not_depend_on_the_workers(serial):
    _, out, _ = serial
    res = invoke("pagat", *VARY, *FAST, "--workers", "2", "--json")
    assert res.exit_code == 0, res.output
    two = json.loads(res.stdout)
    assert two["combinations"] == out["combinations"]


def test_csv_is_long_form_and_html_draws_one_chart_per_metric_and_panel(serial):
    d, out, _ = serial
    with open(d / "sweep.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["metric"] for r in rows} == {m["key"] for m in out["metrics"]}
    assert len(rows) == 2 * len(out["metrics"])
    first = next(r for r in rows if r["combination"] == "2" and r["metric"] == "rounds_per_match")
    assert (first["match.target"], first["deal.hand_size"]) == ("61", "6")
    page = (d / "sweep.html").read_text()
    assert "<script" not in page and "https://" not in page
    # a metric that took one value in every match of every combination is one line, not
    # a flat chart; every other metric gets a chart with one panel per deal.hand_size value
    folded = re.search(r"The same in every match of every combination: ([^<]*)\.", page)
    assert "redeals per round 0, " in folded.group(1)
    charted = re.findall(r'<h2 id="metric-(\w+)"', page)
    assert "redeals_per_round" not in charted and "rounds_per_match" in charted
    assert len(charted) + len(folded.group(1).split(", ")) == len(out["metrics"])
    assert page.count("<svg") == 2 * len(charted)
    for svg in page.split("<svg")[1:]:
        xml.dom.minidom.parseString("<svg" + svg.split("</svg>")[0] + "</svg>")


def test_html_places_numbers_at_their_value_and_choices_evenly(tmp_path):
    page = tmp_path / "s.html"
    res = invoke("pagat", "--vary", "match.target=31,61,151", "--vary",
                 "drawing.voluntary=allowed,forbidden", "--players", "3", "--matches", "4",
                 "--no-skill", "--workers", "1", "--html", str(page))
    assert res.exit_code == 0, res.output
    svg = page.read_text().split("<svg")[1]
    xs = {t: float(x) for x, t in re.findall(r'<text x="([\d.]+)" y="\d+" '
                                              r'text-anchor="middle">(\w+)</text>', svg)}
    # 61 lies a quarter of the way from 31 to 151, not halfway as a category would
    assert xs["61"] - xs["31"] == pytest.approx((xs["151"] - xs["31"]) / 4, abs=0.2)
    assert "<polyline" in svg                      # numbers are joined by a line
    # y ticks read as round numbers ("0", "5", "10"), never "5.000"
    ticks = re.findall(r'text-anchor="end">([^<]+)</text>', svg)
    assert ticks and all(re.fullmatch(r"-?\d+(\.\d)?", t) for t in ticks), ticks
    res = invoke("pagat", "--vary", "drawing.voluntary=allowed,forbidden", "--players", "3",
                 "--matches", "4", "--no-skill", "--workers", "1", "--html", str(page),
                 "--force")
    assert res.exit_code == 0, res.output
    svg = page.read_text().split("<svg")[1]
    # choices have no order: no line between them, each its own interval bar
    assert "<polyline" not in svg and "<polygon" not in svg
    assert svg.count('stroke-width="6"') == 2


@pytest.mark.parametrize(("vary", "message"), [
    ("match.targt=31", "--vary match.targt: no such rule in the ruleset schema"),
    ("drawing.voluntary=sometimes",
     "'sometimes' is not one of its choices: allowed, forbidden"),
    ("drawing.voluntary=true", "True is not one of its choices: allowed, forbidden"),
    ("match.target=yes", "'yes' is not a formula here"),
    ("match.target=61..31", "--vary match.target: the range 61..31 is empty"),
    ("deal.hand_size=7 if", "is not a formula here"),
    ("lead=rotate", "--vary lead: is a group of rules"),
])
def test_bad_vary_is_one_line_and_exit_2_before_anything_runs(vary, message):
    res = invoke("pagat", "--vary", vary, "--matches", "100000", "--workers", "1")
    assert res.exit_code == 2, res.output
    assert message in res.stderr and "Traceback" not in res.output
    assert res.stdout == ""


def test_did_you_mean_names_the_closest_field():
    with pytest.raises(DiagnosticError) as exc:
        check_vary(parse_vary("match.targt=31"))
    assert exc.value.diagnostics[0].hint == "did you mean 'match.target'?"


def test_values_parse_as_lists_ranges_formulas_and_null():
    v = parse_vary('deal.hand_size=5..9:2,"8 - players"')
    assert v.values == (5, 7, 9, "8 - players")
    assert parse_vary("drawing.limit=null,2").values == (None, 2)


def test_ctrl_c_prints_the_finished_combinations_and_exits_130():
    # worker processes (compare's Ctrl-C test covers the serial runner for both commands)
    import os
    import sys

    pexpect = pytest.importorskip("pexpect")
    from children import default_sigint

    # 600 one-round matches take a moment; 600 matches to 5000 points, about a minute
    child = pexpect.spawn(sys.executable, ["cli.py", "sweep", "pagat", "--vary",
                                           "match.target=1,5000", "--players", "3",
                                           "--matches", "600", "--batch-size", "10",
                                           "--no-skill", "--workers", "2"],
                          env={**os.environ, "COLUMNS": "150"}, dimensions=(40, 150),
                          timeout=60, encoding="utf-8", preexec_fn=default_sigint)
    child.expect("combination 2/2")    # shown once the first combination is merged whole
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    out = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)
    assert "Traceback" not in out
    table = out[out.index("Combinations 1-"):]
    heading = table[:table.index("How many rounds does a match last?")]
    # the finished combination is whole (600 matches, no mark); the running one is
    # marked with the matches it finished, or left out if it finished none
    assert "match.target=1 " in heading and "match.target=1 (" not in heading
    assert "match.target=5000 (interrupted," in heading or "of 1" in table
    rounds = table[table.index("How many rounds does a match last?"):].split("\n")[0]
    assert rounds.split("│")[1].strip().startswith("1.0")   # target 1: about one round
    assert "interrupted: finished combinations are complete" in out


@pytest.fixture(scope="module")
def twelve():
    """The README's sweep: four targets by three hand sizes, at 3 players."""
    from dominorules.explore.runner import SerialBackend
    from dominorules.explore.sweep import SweepSettings, sweep

    varies = (parse_vary("match.target=31,61,101,151"), parse_vary("deal.hand_size=5,6,7"))
    return sweep(SweepSettings("pagat", varies, 3, 6, skill_bots=None, batch_size=6),
                 SerialBackend())


def _text(tables, width: int) -> str:
    from rich.console import Console

    console = Console(width=width, record=True, file=open("/dev/null", "w"))
    for t in tables:
        console.print(t)
    return console.export_text()


def test_at_80_columns_combinations_are_stacked_and_every_row_is_labelled(twelve):
    from dominorules.explore.report import fmt_estimate
    from dominorules.explore.sweep_report import split_constant, tables

    text = _text(tables(twelve, 80), 80)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    metrics, _ = split_constant(twelve)
    first = " ".join(line.split("│")[1].strip() for line in lines if line.startswith("│"))
    for m in metrics:
        assert m.question in first, m.key
    for line in lines:                      # no row without its label
        if line.startswith("│") and line.split("│")[2].strip():
            assert line.split("│")[1].strip(), line
    rounds = next(m for m in metrics if m.key == "rounds_per_match")
    c = twelve.played[5]
    assert any(f"  {c.label} " in line and fmt_estimate(rounds, c.estimates[m.key]) in line
               for line in lines for m in [rounds])
    wide = _text(tables(twelve, 200), 200)   # room enough: combinations side by side
    assert "Combinations 1-4 of 12" in wide


def test_the_sweep_is_summed_up_in_the_rules_names_largest_change_first(twelve):
    from dominorules.explore.sweep_html import render
    from dominorules.explore.sweep_report import method_footer, summary

    lines = summary(twelve)
    assert lines[0].startswith("What Target (match.target) and Hand size (deal.hand_size) "
                               "change most: ")
    assert "(Target 151, Hand size " in lines[0]
    page = render(twelve)
    assert f"<p class=summary>{lines[0]}</p>" in page.replace("&#x27;", "'")
    assert "19 times out of 20" in method_footer(twelve) and "19 times out of 20" in page
