"""Fuzz every command a user drives with untrusted text: formulas (huge numbers, tiles
outside the set, scores that feed on themselves), records with any value in any
field, control characters in texts, and random option values. Whatever comes in, the
answer is one clear line or success: an exit code of 0, 1 or 2, no traceback, no raw
control character from the input on screen, within the example's deadline.

Bounded: ``max_examples`` and ``deadline`` keep the whole file under a minute.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominorules import api
from dominorules.cli import main

FUZZ = settings(max_examples=25, deadline=timedelta(seconds=8), derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")   # what no output may hold raw


def _check(args: list[str], stdin: str = "") -> None:
    result = CliRunner().invoke(main, args, input=stdin)
    out = result.output
    assert result.exit_code in (0, 1, 2), (args, out[-2000:])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in out
    assert not RAW.search(out.replace("\x1b[?25l", "").replace("\x1b[?25h", "")), out[-500:]


NUMBER = st.sampled_from(["0", "1", "-1", "7", "1000", "1" + "0" * 21, "9" * 300,
                          "players", "round", "target"])
# names an event formula offers, reading scores, ends and tallies
READ = st.sampled_from(["side.score", "end_total", "players", "round", "boneyard",
                        "sum(opponents.score)", "max(sides.score)", "passes_in_row",
                        "tile.pips", "drawn_this_turn"])
TILE = st.tuples(st.integers(0, 12), st.integers(0, 12)).map(lambda t: f"[{t[0]}|{t[1]}]")


@st.composite
def formula(draw, depth: int = 3) -> str:
    """An integer formula of the event kind: sums and products of numbers and readings,
    now and then a condition on a tile (in the set or not)."""
    if depth == 0 or draw(st.booleans()):
        return draw(NUMBER | READ)
    op = draw(st.sampled_from(["+", "-", "*", "//", "%"]))
    a, b = draw(formula(depth - 1)), draw(formula(depth - 1))
    if draw(st.integers(0, 4)) == 0:
        return f"({a} if tile == {draw(TILE)} else {b})"
    return f"({a} {op} {b})"


TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x20ff), max_size=30)


@st.composite
def ruleset(draw) -> str:
    after = draw(st.sampled_from(["place", "draw"]))
    event = {"after": after, "points": draw(formula())}
    if draw(st.booleans()):
        event["skip"] = draw(formula(1))
    if draw(st.booleans()):
        event["if"] = f"tile != {draw(TILE)}"
    doc = {"extends": "pagat", "title": "t" + draw(TEXT), "description": draw(TEXT),
           "events": [event]}
    if draw(st.booleans()):
        big = draw(st.sampled_from(["2", "1000", "1" + "0" * 400]))
        doc["scoring"] = {"tile_value": f"tile.pips * {big}"}
    return json.dumps(doc)      # JSON is YAML: every text escaped as the loader reads it


@FUZZ
@given(ruleset())
def test_rulesets_and_formulas_through_every_reading_command(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "r.yaml"
    path.write_text(text)
    for args in (["validate", str(path)], ["rules", str(path)],
                 ["rules", str(path), "--format", "markdown"], ["diff", "pagat", str(path)],
                 ["simulate", str(path), "--matches", "2"],
                 ["simulate", str(path), "--matches", "1", "--bots", "strategist"]):
        _check(args)


RECORD = list(api.play_match("house/draw-one", 2, 5, trace=True).events)
VALUE = (st.none() | st.booleans() | st.integers() | st.sampled_from([10 ** 999, -(2 ** 63)])
         | TEXT | st.lists(st.integers(-3, 30), max_size=8))


@FUZZ
@given(st.integers(0, len(RECORD) - 1), st.integers(0, 9), VALUE)
def test_records_with_any_value_through_verify_and_replay(tmp_path_factory, line, which,
                                                          value):
    events = [dict(e) for e in RECORD]
    keys = [k for k in events[line] if k != "event"]
    events[line][keys[which % len(keys)]] = value
    path = tmp_path_factory.mktemp("fuzz") / "r.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    _check(["verify", str(path)])
    _check(["replay", str(path)], stdin="q\n")


OPTION = st.sampled_from(["0", "1", "2", "-1", "1e26", "1" + "0" * 30, "", "x", "3.5",
                          "9" * 5000, "random", "greedy,random", "nosuch", ",",
                          "random,random,random,random,random"])


@FUZZ
@given(st.sampled_from(["--matches", "--seed", "--players", "--bots"]), OPTION)
def test_any_option_value_for_simulate(name, value):
    args = ["simulate", "pagat", "--matches", "2", name, value]
    _check(args)


@FUZZ
@given(st.sampled_from(["match.target", "deal.hand_size", "drawing.limit", "no.such",
                        "scoring.domino"]),
       st.sampled_from(["1..100000000000000000000", "1" + "0" * 5000, "5..3", "1..3:0",
                        "31,61", "null,2", '"players + 1"', "x", "7", "1..4"]))
def test_any_vary_for_sweep_and_tune(field, values):
    _check(["sweep", "pagat", "--vary", f"{field}={values}", "--matches", "2",
            "--no-skill", "--workers", "1"])
    _check(["tune", "pagat", "--vary", f"{field}={values}", "--goal", "rounds_per_match ~ 3",
            "--matches", "2", "--max-matches", "4", "--no-skill", "--workers", "1"])
