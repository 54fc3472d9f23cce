"""Text from a ruleset or a record is printed with its control characters shown, never
obeyed: a title holding escape sequences cannot set the window title or clear the
screen, in any command or format."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from dominorules.cli import main
from dominorules.visible import visible

TITLE = "Evil\x1b]0;owned\x07\x1b[2J title \u202e"
SHOWN = "Evil\\x1b]0;owned\\x07\\x1b[2J title \\u202e"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]")   # what no output may hold


@pytest.fixture
def evil(tmp_path):
    path = tmp_path / "evil.yaml"
    path.write_text("extends: pagat\n" + "title: " + json.dumps(TITLE) + "\n"
                    + "description: " + json.dumps("one line \x9b2J and \x1b[31m red") + "\n")
    return str(path)


def _run(*args: str, input: str | None = None):
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output
    return result


def test_visible_escapes_controls_and_keeps_lines():
    assert visible("a\x1b[2Jb\tc\nd\x9b\u202e") == "a\\x1b[2Jb\tc\nd\\x9b\\u202e"
    assert visible("a\x1b\u202e", json=True) == "a\\u001b\\u202e"
    assert visible("Pagat's Draw: [6|6]") == "Pagat's Draw: [6|6]"


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_rules_shows_the_title_escaped(evil, fmt):
    result = _run("rules", evil, "--format", fmt)
    assert result.exit_code == 0
    assert not RAW.search(result.output)
    assert SHOWN in result.output
    assert "one line \\x9b2J and \\x1b[31m red" in result.output


def test_rules_json_stays_json_with_the_text_unchanged(evil):
    result = _run("rules", evil, "--format", "json")
    assert not RAW.search(result.output)
    assert json.loads(result.output)["title"] == TITLE


def test_diff_shows_the_title_escaped(evil):
    result = _run("diff", "pagat", evil)
    assert not RAW.search(result.output)
    assert f"evil: {SHOWN}" in result.output
    assert json.loads(_run("diff", "pagat", evil, "--format", "json").output)


def test_validate_quotes_a_bad_value_escaped(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text('extends: pagat\nname: "ev\\e[2Jil"\n')
    result = _run("validate", str(path))
    assert result.exit_code == 1
    assert not RAW.search(result.output)
    assert "'ev\\x1b[2Jil'" in result.output


def test_compare_report_and_html_show_no_raw_control(evil, tmp_path):
    """A guard: compare names rulesets by name (the schema's form keeps controls out)."""
    html = tmp_path / "r.html"
    result = _run("compare", "pagat", evil, "--matches", "10", "--no-skill", "--workers", "1",
                  "--html", str(html))
    assert result.exit_code == 0, result.output
    assert not RAW.search(result.output)
    page = html.read_text()
    assert not RAW.search(page)


def test_play_and_replay_show_the_title_escaped(evil, tmp_path):
    trace = tmp_path / "g.jsonl"
    played = _run("play", evil, "--fast", "--seed", "1", "--bots", "random", "--humans", "",
                  "--players", "2", "--trace", str(trace))
    assert not RAW.search(played.output)
    shown = SHOWN.replace("\\x07", "")     # rich drops a bell itself
    assert shown in played.output
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    events[0]["source"] = "gone\x1b]0;owned\x07.yaml"     # a record names its file
    trace.write_text("".join(json.dumps(e) + "\n" for e in events))
    for command in ("replay", "verify"):
        result = _run(command, str(trace), input="q\n")
        assert result.exit_code == 1
        assert not RAW.search(result.output)
        assert "gone\\x1b]0;owned\\x07.yaml: no such file" in result.output
