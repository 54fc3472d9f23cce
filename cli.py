"""The dominorules command line: parse arguments, call one library function, print.

This is the only module that prints or exits. Exit codes: 0 success, 1 invalid
input found (a broken ruleset, a record that does not verify), 2 usage errors.
"""

from __future__ import annotations

import sys

import click

from interpreter.diagnostics import Diagnostic, DiagnosticError


def print_diagnostics(diagnostics: list[Diagnostic]) -> None:
    """Render diagnostics to stderr, each with its source line and caret."""
    sources: dict[str, str | None] = {}
    for d in diagnostics:
        if d.file and d.file not in sources:
            try:
                with open(d.file, encoding="utf-8") as fh:
                    sources[d.file] = fh.read()
            except (OSError, UnicodeDecodeError):  # a binary file: no source line to show
                sources[d.file] = None
        click.echo(d.render(sources.get(d.file)), err=True)


def fail(diagnostics: list[Diagnostic], code: int = 1) -> None:
    print_diagnostics(diagnostics)
    sys.exit(code)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="dominorules")
def main() -> None:
    """dominorules: write the rules of Draw dominoes as data, check them, read them,
    play them and compare them.

    A RULESET argument is a builtin name (see `dominorules list`) or a path to a
    YAML file.
    """


# --- rulesets: list, validate, rules, diff ------------------------------------------

@main.command("list")
def list_rulesets() -> None:
    """List every builtin ruleset (house rules included) with its one-line description."""
    from interpreter.rules import builtin_rulesets

    infos = builtin_rulesets()
    width = max((len(info.name) for info in infos), default=0)
    for info in infos:
        click.echo(f"{info.name:<{width}}  {info.description}".rstrip())


@main.command("validate")
@click.argument("rulesets", nargs=-1, required=True, metavar="FILE_OR_NAME...")
def validate(rulesets: tuple[str, ...]) -> None:
    """Check rulesets (builtin names or YAML files): every problem, with file:line:col."""
    from interpreter.rules import check_ruleset

    invalid = False
    for ref in rulesets:
        diagnostics = check_ruleset(ref)
        if diagnostics:
            invalid = True
            print_diagnostics(diagnostics)
        else:
            click.echo(f"ok: {ref}")
    if invalid:
        sys.exit(1)


_FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]),
                       default="text", show_default=True, help="Output format.")


def _load_or_fail(ref: str):
    """A loaded ruleset, or its diagnostics printed and exit 1."""
    from interpreter.rules import load_ruleset

    try:
        return load_ruleset(ref)
    except DiagnosticError as err:
        fail(err.diagnostics)


@main.command("rules")
@click.argument("ruleset", metavar="RULESET")
@_FORMAT
def rules_sheet(ruleset: str, fmt: str) -> None:
    """Print a ruleset's full rule sheet in plain English, generated from its data."""
    from interpreter.rules.describe import render_sheet, rule_sheet

    click.echo(render_sheet(rule_sheet(_load_or_fail(ruleset)), fmt), nl=False)


@main.command("diff")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@_FORMAT
def diff_rulesets(a: str, b: str, fmt: str) -> None:
    """Print only the rules two rulesets tell differently, each as both word it."""
    from interpreter.rules.diff import diff, render_diff

    first, second = _load_or_fail(a), _load_or_fail(b)
    click.echo(render_diff(diff(first, second), fmt), nl=False)


# --- engine: simulate, verify ------------------------------------------------------

# --- explorer: compare ---------------------------------------------------------------

# --- terminal: play, replay ----------------------------------------------------------


if __name__ == "__main__":
    main()
