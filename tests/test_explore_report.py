"""The ``compare`` tables at 80 and 120 columns: no column collapses, whatever the
number of rulesets and however long their names; constant rows are folded; seat win
rates are not compared between an individual and a partnership game."""

from __future__ import annotations

import pytest
from rich.console import Console

from dominorules.explore.compare import CompareSettings, compare
from dominorules.explore.report import column_keys, fmt_estimate, is_constant, tables
from dominorules.explore.runner import SerialBackend

LONG = "rulesets/house/pay-per-draw.yaml"
SETS = {
    2: ("pagat", LONG),
    3: ("pagat", "hoyle", LONG),
    5: ("pagat", "hoyle", "dutch", LONG, "rulesets/house/double-nine.yaml"),
}


@pytest.fixture(scope="module", params=sorted(SETS))
def comparison(request):
    refs = SETS[request.param]
    skill = ("greedy", "random") if request.param == 3 else None
    return compare(CompareSettings(refs, players=2, matches=6, skill_bots=skill),
                   SerialBackend())


def render(comparison, width: int) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"))
    for table in tables(comparison, width):
        console.print(table)
    return console.export_text()


def first_column(text: str) -> str:
    """The text of every table's first column, its wrapped lines joined by spaces."""
    parts = [line.split("│")[1].strip() for line in text.splitlines()
             if line.startswith("│")]
    return " ".join(p for p in parts if p)


@pytest.mark.parametrize("width", [80, 120])
def test_no_column_collapses(comparison, width):
    text = render(comparison, width)
    assert max(len(line) for line in text.splitlines()) <= width
    for header in (line for line in text.splitlines() if line.startswith("┃")):
        assert len(header.split("┃")[1]) >= 18, header   # the question column
    labels = first_column(text)
    for row in comparison.rows:
        if is_constant(row):
            continue
        assert row.metric.question in labels or row.metric.short in labels, row.metric.key
        for est in row.estimates:          # every value whole, never cut or folded
            assert fmt_estimate(row.metric, est) in text


def test_long_names_get_keys_and_a_legend(comparison):
    text = render(comparison, 140)
    assert "A = pagat" in text.replace("\u00a0", " ")
    assert f"= {comparison.rulesets[-1].label}" in text.replace("\u00a0", " ")


def test_two_short_names_head_their_columns_with_full_questions():
    assert column_keys(["pagat", "dutch"]) == ["pagat", "dutch"]
    c = compare(CompareSettings(("pagat", "dutch"), players=3, matches=6, skill_bots=None),
                SerialBackend())
    text = render(c, 120)
    assert "dutch − pagat" in text
    assert "How many turns does a round take?" in text


def test_constant_rows_fold_into_one_line(comparison):
    """No ruleset here throws a deal in: redeals is one line under the table, not a row."""
    text = render(comparison, 120)
    redeals = next(r for r in comparison.rows if r.metric.key == "redeals_per_round")
    assert is_constant(redeals)
    assert "The same in every match of every ruleset: redeals per round 0" in text
    assert "How many deals are thrown in" not in text
    assert "redeals per round" not in first_column(text)


def test_individual_against_partnership_marks_no_seat_difference():
    c = compare(CompareSettings(("pagat", "mexican"), players=4, matches=8, skill_bots=None),
                SerialBackend())
    seat = next(r for r in c.rows if r.metric.key == "win_rate_seat_0")
    assert seat.differences == [None, None]
    turns = next(r for r in c.rows if r.metric.key == "turns_per_round")
    assert turns.differences[1] is not None
    text = render(c, 120)
    assert "not compared between individual and partnership rules" in " ".join(text.split())


def test_html_and_png_draw_each_ruleset_in_the_same_colour(tmp_path, monkeypatch):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from dominorules.explore import html
    from dominorules.explore.plot import write_png
    from dominorules.explore.report import ruleset_color

    c = compare(CompareSettings(("pagat", "dutch"), players=2, matches=6, skill_bots=None),
                SerialBackend())
    figures = []
    monkeypatch.setattr(plt, "close", figures.append)
    write_png(c, str(tmp_path / "charts.png"))
    (fig,) = figures
    for ax in fig.axes:     # each chart's legend: its entries' colours
        handles, labels = ax.get_legend_handles_labels()
        colours = [matplotlib.colors.to_hex((h.lines[0] if hasattr(h, "lines") else h)
                                            .get_color()) for h in handles]
        assert dict(zip(labels, colours, strict=True)) == {
            "pagat": ruleset_color(0), "dutch": ruleset_color(1)}, ax.get_title()
    page = html.render(c)
    assert f'stroke="{ruleset_color(1)}"' in page and f'fill="{ruleset_color(0)}"' in page


def test_a_value_that_rounds_to_zero_shows_no_minus_sign():
    from dominorules.explore.metrics import metrics_for
    from dominorules.explore.report import fmt_value

    by_key = {m.key: m for m in metrics_for("main", 3)}
    assert fmt_value(by_key["blocked_rate"], -0.0004, signed=True) == "+0.0%"
    assert fmt_value(by_key["blocked_rate"], -0.0006, signed=True) == "-0.1%"
    assert fmt_value(by_key["turns_per_round"], -1e-17) == "0.000"


def test_the_png_shows_percentages_from_zero_with_its_legend_clear_of_the_charts(
        tmp_path, monkeypatch):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from dominorules.explore.plot import write_png

    c = compare(CompareSettings(("pagat", "dutch"), players=3, matches=6, skill_bots=None),
                SerialBackend())
    figures = []
    monkeypatch.setattr(plt, "close", figures.append)
    write_png(c, str(tmp_path / "charts.png"))
    (fig,) = figures
    assert [ax.get_ylabel() for ax in fig.axes] == ["% of rounds", "% of matches",
                                                    "% of matches won"]
    assert all(ax.get_ylim()[0] == 0 for ax in fig.axes)       # a baseline at 0
    assert all(ax.get_legend() is None for ax in fig.axes)     # no legend over the bars
    (legend,) = fig.legends                                      # one, above the charts
    assert [t.get_text() for t in legend.get_texts()] == ["pagat", "dutch"]
    seat0 = next(r for r in c.rows if r.metric.key == "win_rate_seat_0")
    marks = [line for line in fig.axes[2].get_lines() if line.get_marker() == "o"]
    assert marks[0].get_ydata()[0] == pytest.approx(100 * seat0.estimates[0].value)
    assert "a fair share, 33%" in fig.axes[2].get_title()
