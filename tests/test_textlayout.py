"""`rules`, `diff` and `list` at 80 columns and narrower: lines fit the terminal, words
and formulas are never cut, and no continuation line starts with a minus sign (it
would read as a new bullet)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from dominorules.cli import main
from dominorules.rules import builtin_rulesets, load_ruleset
from dominorules.rules.describe import render_sheet, rule_sheet
from dominorules.rules.diff import diff, render_diff
from dominorules.textlayout import terminal_width, wrap

VARIANTS = ("pagat", "hoyle", "dutch", "mexican", "vietnamese")


def test_a_formula_is_never_broken_at_its_minus_sign():
    text = "Each player is dealt 5 tiles with 3 players (formula: 8 - players)."
    lines = wrap(text, "- ", 40, keep=("8 - players",)).splitlines()
    assert lines == ["- Each player is dealt 5 tiles with 3",
                     "  players (formula: 8 - players)."]
    # a formula too long for any line still never starts a line with its minus sign
    long = "x (formula: 100 - players - 20 - 3)"
    for line in wrap(long, "", 12, keep=("100 - players - 20 - 3",)).splitlines():
        assert not line.startswith("-"), line


def test_words_are_broken_at_spaces_only():
    text = "even when holding a playable tile, and 0-0 counts 13."
    lines = wrap(text, "  pagat  ", 24).splitlines()
    assert lines == ["  pagat  even when", "         holding a", "         playable tile,",
                     "         and 0-0 counts", "         13."]


def _check(text: str, width: int, bullets: set[str]) -> None:
    for line in text.splitlines():
        assert len(line) <= width, line
        stripped = line.lstrip()
        if stripped.startswith("-") and not set(stripped) == {"-"}:   # underlines
            rest = line[2:]       # a bullet: a rule's title starts it
            assert line.startswith("- ") and any(rest.startswith(t) or t.startswith(rest)
                                                 for t in bullets), line


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("ref", VARIANTS + ("house/spinner", "house/pay-per-draw"))
def test_rule_sheets_fit_the_width_with_every_word_whole(ref, width):
    sheet = rule_sheet(load_ruleset(ref))
    text = render_sheet(sheet, "text", width)
    titles = {line.title for s in sheet.sections for line in s.rules}
    _check(text, width, titles)
    words = " ".join(text.split())
    for section in sheet.sections:
        for line in section.rules:       # every sentence whole: wrapped at spaces only
            assert f"{line.title}. {line.text}" in words
            for formula in line.formulas:
                if len(formula) < width - 2 and formula in line.text:
                    assert any(formula in row for row in text.splitlines()), formula


@pytest.mark.parametrize("width", [80, 50])
def test_diff_fits_the_width_with_every_word_whole(width):
    d = diff(load_ruleset("pagat"), load_ruleset("dutch"))
    text = render_diff(d, "text", width)
    _check(text, width, set())
    words = " ".join(text.split())
    for r in d.rules:
        assert r.a.text in words and r.b.text in words


def test_the_cli_wraps_to_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert terminal_width() == 80
    out = CliRunner().invoke(main, ["rules", "dutch"]).output
    assert max(len(line) for line in out.splitlines()) <= 80
    assert max(len(line) for line in out.splitlines()) > 70       # filled, not at 40
    listed = CliRunner().invoke(main, ["list"]).output
    assert max(len(line) for line in listed.splitlines()) <= 80
    monkeypatch.setenv("COLUMNS", "300")
    assert terminal_width() == 100        # long lines are hard to read: at most 100


@pytest.mark.parametrize("columns", [80, 50])
def test_list_wraps_each_description_under_itself(monkeypatch, columns):
    """At 80 columns beside the names; at 50 (too little room beside the longest name)
    each under its name, indented: both filled to the width, every word whole."""
    monkeypatch.setenv("COLUMNS", str(columns))
    lines = CliRunner().invoke(main, ["list"]).output.splitlines()
    assert max(len(line) for line in lines) <= columns
    infos = builtin_rulesets()
    starts = [i for i, line in enumerate(lines) if not line.startswith(" ")]
    assert [lines[i].split()[0] for i in starts] == [i.name for i in infos]
    for k, info in zip(starts, infos, strict=True):
        end = next((i for i in starts if i > k), len(lines))
        told = " ".join(lines[k:end])[len(info.name):]
        assert " ".join(told.split()) == " ".join(info.description.split())
