"""The HTML pages in a real browser: headless Chromium opens each from disk (compare's
report, its --by-rule section, a sweep's charts), with the network off, logs no console
error, and the rendered page shows what it should.

Skipped (with the reason) when no Chromium binary is installed. In CI, `.ci/run`
installs Debian's `chromium` package. Also a script:
``python tests/test_explore_browser.py REPORT.html`` checks any report file.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "chrome")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--enable-logging=stderr", "--v=0")


def find_browser() -> str | None:
    return next((p for p in map(shutil.which, BROWSERS) if p), None)


def open_in_browser(browser: str, page: Path) -> tuple[str, list[str]]:
    """The DOM after load and every console message (the report has no script: any is wrong).

    Chromium's log does not say a message's level, so all of them count.
    """
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run(
            [browser, *FLAGS, f"--user-data-dir={profile}", "--dump-dom",
             page.resolve().as_uri()],
            capture_output=True, text=True, timeout=120)
    errors = [line for line in proc.stderr.splitlines()
              if ":CONSOLE" in line or re.search(r"net::ERR_", line)]
    return proc.stdout, errors


browser = find_browser()
needs_browser = pytest.mark.skipif(
    browser is None, reason="no Chromium binary (install Debian's `chromium` package; "
    "`.ci/run` does) -- the HTML report is not checked in a browser here")


@needs_browser
def test_the_checker_sees_console_errors(tmp_path):
    # the check below is only worth something if a broken page does fail it
    page = tmp_path / "broken.html"
    page.write_text("<html><body><script>console.error('boom'); nope();</script>"
                    "</body></html>")
    _, errors = open_in_browser(browser, page)
    assert any("boom" in e for e in errors)
    assert any("Uncaught ReferenceError" in e for e in errors)


@needs_browser
def test_html_report_opens_without_errors_and_shows_the_table(tmp_path):
    from click.testing import CliRunner

    from dominorules.cli import main

    page = tmp_path / "report.html"
    res = CliRunner().invoke(main, ["compare", "pagat", "dutch", "--players", "3",
                                    "--matches", "20", "--workers", "1",
                                    "--skill-bots", "greedy,random", "--html", str(page)])
    assert res.exit_code == 0, res.output
    dom, errors = open_in_browser(browser, page)
    assert errors == []
    assert '<table id="table-main">' in dom and '<table id="table-skill">' in dom
    assert "How often does a player have a real choice?" in dom
    assert dom.count("<svg") == 3 and dom.count("<circle") == 6  # 3 seats x 2 rulesets


@needs_browser
def test_by_rule_section_opens_without_errors(tmp_path):
    from click.testing import CliRunner

    from dominorules.cli import main

    page = tmp_path / "by-rule.html"
    res = CliRunner().invoke(main, ["compare", "pagat", "dutch", "--players", "3",
                                    "--matches", "20", "--workers", "1", "--no-skill",
                                    "--by-rule", "--html", str(page)])
    assert res.exit_code == 0, res.output
    dom, errors = open_in_browser(browser, page)
    assert errors == []
    section = dom.split('<table id="table-by-rule">')[1].split("</table>")[0]
    for rule in ("Voluntary draws", "Draw limit", "Tile values"):   # as diff names them
        assert f"<th>{rule}</th>" in section
    # rules that play alike cancel exactly: no floating-point residue such as "±8.8e-17"
    assert not re.search(r"\de-\d", section)


@needs_browser
def test_sweep_page_opens_without_errors_with_small_multiples(tmp_path):
    from click.testing import CliRunner

    from dominorules.cli import main

    page = tmp_path / "sweep.html"
    res = CliRunner().invoke(main, ["sweep", "pagat", "--vary", "match.target=31,61,101",
                                    "--vary", "deal.hand_size=5,6", "--players", "3",
                                    "--matches", "10", "--workers", "1", "--no-skill",
                                    "--html", str(page)])
    assert res.exit_code == 0, res.output
    dom, errors = open_in_browser(browser, page)
    assert errors == []
    charts = dom.count('<h2 id="metric-')
    assert charts > 10 and dom.count("<svg") == 2 * charts   # a panel per hand size
    assert dom.count("<figcaption>deal.hand_size = 5</figcaption>") == charts


if __name__ == "__main__":
    found = find_browser()
    if found is None:
        sys.exit("no Chromium binary found (apt-get install -y chromium)")
    dom, errs = open_in_browser(found, Path(sys.argv[1]))
    print("\n".join(errs) or "no console errors")
    print("table shown" if "<table" in dom else "NO TABLE")
    sys.exit(1 if errs or "<table" not in dom else 0)


def page_width(page: Path, width: int, tmp_path: Path) -> tuple[int, int]:
    """How wide the rendered page is, and the window it is shown in, asked for ``width``
    pixels (Chromium may widen a very narrow window a little): a probe script added to a
    copy, the report itself has none."""
    probe = tmp_path / f"probe-{width}.html"
    probe.write_text(page.read_text(encoding="utf-8").replace(
        "</body>", "<script>console.log('WIDTH=' + document.documentElement.scrollWidth + "
                   "' IN=' + window.innerWidth)</script></body>"), encoding="utf-8")
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run(
            [browser, *FLAGS, f"--user-data-dir={profile}", f"--window-size={width},900",
             "--dump-dom", probe.resolve().as_uri()], capture_output=True, text=True,
            timeout=120)
    found = re.search(r"WIDTH=(\d+) IN=(\d+)", proc.stderr)
    return int(found.group(1)), int(found.group(2))


@needs_browser
@pytest.mark.parametrize("command", ["compare", "sweep"])
def test_on_a_phone_nothing_runs_off_the_page(tmp_path, command):
    """At 390 pixels (a phone) the page is no wider than the screen: charts shrink to
    fit, a table too wide for it scrolls in its own box."""
    from click.testing import CliRunner

    from dominorules.cli import main

    page = tmp_path / "r.html"
    args = (["compare", "pagat", "dutch", "--by-rule"] if command == "compare"
            else ["sweep", "pagat", "--vary", "match.target=31,61", "--vary",
                  "deal.hand_size=5,6"])
    res = CliRunner().invoke(main, [*args, "--players", "3", "--matches", "10", "--workers",
                                    "1", "--no-skill", "--html", str(page)])
    assert res.exit_code == 0, res.output
    for asked in (390, 1280):
        wide, window = page_width(page, asked, tmp_path)
        assert window < 600 if asked == 390 else window == 1280
        assert wide <= window, (asked, wide, window)
