"""The dominorules command line: parse arguments, call one library function, print.

This is the only module that prints or exits. Exit codes: 0 success, 1 invalid
input found (a broken ruleset, a record that does not verify), 2 usage errors, 70 a bug
of ours (one line naming it; ``DOMINORULES_DEBUG=1`` shows the traceback).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import contextmanager

import click
from click.shell_completion import CompletionItem

from dominorules import __version__
from dominorules.diagnostics import Diagnostic, DiagnosticError, UsageError
from dominorules.visible import visible

MAX_SHOWN = 50  # diagnostics printed at once: fix these first, the rest often follow from them
MAX_MATCHES = 10 ** 9  # matches one run may ask for: days of play, and counts stay in memory
_MATCHES = click.IntRange(2, MAX_MATCHES)


class _Seed(click.ParamType):
    """A seed: any whole number; text gets what to write, not click's "not a valid
    integer" alone."""

    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        try:
            return int(str(value).strip())
        except ValueError:
            self.fail(f"{value!r} is not a whole number: a seed is one, e.g. --seed 7 (the "
                      "same seed plays the same matches)", param, ctx)


_SEED = _Seed()


def print_diagnostics(diagnostics: list[Diagnostic]) -> None:
    """Render diagnostics to stderr, each with its source line and caret."""
    import dataclasses

    from dominorules.dash import shown_path
    from dominorules.files import read_bytes

    texts: dict[str, str | None] = {}
    for d in diagnostics[:MAX_SHOWN]:
        if d.file and d.file not in texts:
            raw = read_bytes(d.file, "ruleset")  # the same gate: never a FIFO or a device
            try:
                texts[d.file] = None if isinstance(raw, Diagnostic) else raw.decode("utf-8")
            except UnicodeDecodeError:  # a binary file: no line of it to show
                texts[d.file] = None
        text = texts.get(d.file)
        shown = shown_path(d.file) if d.file else d.file
        if shown != d.file:   # standard input (``-``): not its temporary file's path
            d = dataclasses.replace(d, file=shown)
        click.echo(visible(d.render(text)), err=True)
    if len(diagnostics) > MAX_SHOWN:
        click.echo(f"... and {len(diagnostics) - MAX_SHOWN} more problems (the first "
                   f"{MAX_SHOWN} are shown)", err=True)


def fail(diagnostics: list[Diagnostic], code: int = 1) -> None:
    """Print every diagnostic and exit: 2 when a file named on the command line does not
    exist (a usage error, like an unknown bot), else ``code``."""
    from dominorules.files import NOT_FOUND

    print_diagnostics(diagnostics)
    if diagnostics and all(d.code == NOT_FOUND for d in diagnostics):
        code = 2
    sys.exit(code)


class _Commands(click.Group):
    """The command group, with Ctrl-C anywhere (a ruleset still loading, say) told in
    one line, exit 130, instead of a traceback or click's bare "Aborted!"."""

    def main(self, *args, **kwargs):
        """Also: a standard stream the shell closed (``>&-``, ``<&-``) and ``--help`` or
        ``--version`` into a full disk end in one line, not a traceback."""
        import os

        if sys.stdout is None:
            if sys.stderr is not None:
                click.echo("error: cannot write the output: standard output is closed",
                           err=True)
            sys.exit(1)
        if sys.stdin is None:        # nothing to read: the end of input at once
            sys.stdin = open(os.devnull)  # noqa: SIM115 - for the whole run
        if sys.stderr is None:
            sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the whole run
        try:
            return super().main(*args, **kwargs)
        except OSError as exc:       # click's own output (--help, --version) failed
            _write_failed(exc)

    def invoke(self, ctx: click.Context):
        try:
            try:
                with _sigterm_interrupts():
                    return super().invoke(ctx)
            finally:  # output still buffered fails here (a full disk): not after exit
                sys.stdout.flush()
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(_interrupted_code())
        except MemoryError:          # a limit (ulimit -v, a container's) met by a big input
            click.echo("error: out of memory", err=True)
            sys.exit(1)
        except OSError as exc:  # stdout is a closed pipe, a full disk, /dev/full
            _write_failed(exc)
        except DiagnosticError as err:   # a diagnostic no command caught: still one message
            fail(err.diagnostics)
        except (click.exceptions.ClickException, click.exceptions.Exit,
                click.exceptions.Abort):
            raise   # click's own: usage errors, --help's exit
        except Exception as exc:
            _internal_error(exc)


def _internal_error(exc: Exception) -> None:
    """A bug of ours met at run time: one line that says so and how to report it, exit
    70 (EX_SOFTWARE); ``DOMINORULES_DEBUG=1`` shows Python's traceback instead."""
    import os

    if os.environ.get("DOMINORULES_DEBUG"):
        raise exc
    import dominorules

    ours = (os.path.dirname(os.path.abspath(dominorules.__file__)),
            os.path.dirname(os.path.abspath(__file__)))
    where = ""
    tb = exc.__traceback__
    while tb is not None:   # the innermost frame of ours, to quote in a report
        code = tb.tb_frame.f_code
        if os.path.abspath(code.co_filename).startswith(ours):
            where = f" (in {code.co_name}, {os.path.basename(code.co_filename)} line " \
                    f"{tb.tb_lineno})"
        tb = tb.tb_next
    click.echo(f"error: internal error: {type(exc).__name__}: {exc}{where}", err=True)
    click.echo("  hint: this is a bug in dominorules, not in your input; run again with "
               "DOMINORULES_DEBUG=1 for the traceback, and report it with the command",
               err=True)
    sys.exit(70)


def _stdout_console():
    """A rich Console on stdout (piped output, having no width to measure, gets one wide
    enough for a question a line) whose closed pipe raises ``BrokenPipeError`` like any
    write: rich's own answer is a silent exit 1, before the report files are written."""
    from dominorules.textlayout import terminal_columns
    from dominorules.visible import VisibleConsole

    console = VisibleConsole(width=None if terminal_columns() else 130)

    def closed() -> None:
        console.quiet = True
        raise BrokenPipeError(32, "Broken pipe")
    console.on_broken_pipe = closed
    return console


def _write_failed(exc: OSError) -> None:
    """A write to stdout failed: say so in one line, exit 1, and silence the final flush.

    A closed pipe (``dominorules list | head -3``) is the reader having read enough:
    no message, and exit 141 as a command ended by SIGPIPE does (what ``set -o
    pipefail`` sees); files the command writes itself are written before."""
    import errno
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    if exc.errno == errno.EPIPE:
        sys.exit(141)
    try:
        click.echo(f"error: cannot write the output: {exc.strerror or exc}", err=True)
    except OSError:
        pass
    sys.exit(1)


_TERMINATED: list[int] = []   # the SIGTERM received, if one was: exit 143, not 130


def _interrupted_code() -> int:
    """The exit code of an interrupted command: 143 after SIGTERM, 130 after Ctrl-C."""
    return 143 if _TERMINATED else 130


def _interrupt_name() -> str:
    return "SIGTERM" if _TERMINATED else "Ctrl-C"


@contextmanager
def _sigterm_interrupts():
    """While inside: SIGTERM (a shell's kill, a job scheduler's timeout) stops a run as
    Ctrl-C does: the workers end with it and what was finished is still reported.
    A second SIGTERM is ignored: the finished work is being written."""
    import signal
    import threading

    def interrupt(signum, _frame):
        if not _TERMINATED:
            _TERMINATED.append(signum)
            raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _check_outputs(outputs: dict[str, str | None], inputs=(), force: bool = False) -> None:
    """Every output path checked before any work: a problem is a usage error (exit 2).

    ``inputs`` are ruleset references: neither they nor a file they extend may be an
    output; an output that exists already is replaced only with ``--force``."""
    from dominorules.outputs import check_outputs
    from dominorules.rules.load import chain_files

    problems = check_outputs(outputs, [f for ref in inputs for f in chain_files(ref)])
    if problems:
        fail(problems, 2)
    for path in outputs.values():
        _no_overwrite(path, force)


def complete_ruleset(ctx: click.Context, param: click.Parameter,
                     incomplete: str) -> list[CompletionItem]:
    """Shell completion of a RULESET: builtin names, folders and ``.yaml`` files."""
    import glob
    import os

    from dominorules.rules.resources import builtin_paths

    items = [CompletionItem(name) for name in builtin_paths() if name.startswith(incomplete)]
    for path in sorted(glob.glob(os.path.expanduser(incomplete) + "*")):
        if os.path.isdir(path):
            items.append(CompletionItem(path.rstrip(os.sep) + os.sep))
        elif path.endswith((".yaml", ".yml")):
            items.append(CompletionItem(path))
    return items


def _stop_and_fail(stop: Callable[[], None], exc: Exception) -> None:
    """End the progress line, then report a run's problem, or a file it could not write."""
    stop()
    if isinstance(exc, DiagnosticError):
        fail(exc.diagnostics)
    fail([Diagnostic("file", f"cannot write {exc.filename or 'a temporary file'}: "
                     f"{exc.strerror or exc}",
                     file=str(getattr(exc, "filename", "") or ""))])


def _exit_interrupted() -> None:
    """Exit 130 (143 after SIGTERM) after an interrupted run whose numbers are printed and
    files written.

    The worker pool was ended with SIGKILL; joining its manager thread at interpreter exit
    can wait forever on a queue a killed worker held, so nothing is left to atexit.
    """
    import os

    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(_interrupted_code())


def _examples(*lines: str) -> str:
    """The end of a command's --help: a few commands to copy (kept unwrapped by \\b)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


# The environment variables a command reads, in its --help (before the examples).
ENVIRONMENT = ("\b\nEnvironment:\n"
               "  DOMINORULES_CACHE     folder of the JIT's compiled kernels (default:\n"
               "                        ~/.cache/dominorules/kernels; safe to delete)\n"
               "  DOMINORULES_NO_JIT=1  never use the JIT (numba), whatever --engine says\n"
               "  TMPDIR                where sweep, tune and --by-rule write the rulesets\n"
               "                        they make up (a shared folder for --scheduler)\n"
               "  COLUMNS               the width tables are laid out for\n\n")
WIDTH_ENVIRONMENT = ("\b\nEnvironment:\n"
                     "  COLUMNS  the width lines are filled to (default: the terminal's, "
                     "at most 100)")


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=_examples("dominorules list", "dominorules rules dutch",
                              "dominorules compare pagat dutch --players 3 --matches 500")
             + "\n\nShell completion: see `Shell completion` in the README.")
@click.version_option(__version__, prog_name="dominorules")
def main() -> None:
    """dominorules: write the rules of Draw dominoes as data, check them, read them,
    play them and compare them.

    A RULESET argument is a builtin name (see `dominorules list`) or a path to a
    YAML file.
    """


# --- rulesets: list, validate, rules, diff ------------------------------------------

@main.command("list", epilog=WIDTH_ENVIRONMENT + _examples(
    "dominorules list", "dominorules list | grep house/", "dominorules list --json"))
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON list: each ruleset's name, description and file.")
def list_rulesets(as_json: bool) -> None:
    """List every builtin ruleset (house rules included) with its one-line description."""
    from dominorules.rules import builtin_rulesets
    from dominorules.textlayout import terminal_columns, terminal_width, two_columns

    infos = builtin_rulesets()
    if as_json:
        import json

        click.echo(json.dumps([{"name": i.name, "description": i.description,
                                "path": str(i.path)} for i in infos], indent=2))
        return
    width = terminal_width() if terminal_columns() else None   # a pipe: a line a ruleset
    for line in two_columns([(i.name, i.description) for i in infos], width):
        click.echo(visible(line))


@main.command("validate", epilog=_examples(
    "dominorules validate my-rules.yaml",
    "dominorules validate rulesets/house/*.yaml",
    "dominorules validate - --json < my-rules.yaml"))
@click.argument("rulesets", nargs=-1, required=True, metavar="FILE_OR_NAME...",
                shell_complete=complete_ruleset)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON list: each ruleset, "
              "ok or not, and its problems and warnings with file, line and column.")
def validate(rulesets: tuple[str, ...], as_json: bool) -> None:
    """Check rulesets (builtin names or YAML files, - for standard input): every problem,
    with file:line:col."""
    from dominorules.dash import ruleset_ref
    from dominorules.files import NOT_FOUND
    from dominorules.rules import check_ruleset

    codes = set()
    report = []
    for shown in rulesets:
        ref = ruleset_ref(shown)
        diagnostics = check_ruleset(ref)
        if diagnostics:
            codes.add(2 if all(d.code == NOT_FOUND for d in diagnostics) else 1)
        else:
            diagnostics = _rule_warnings(ref) + _reach_warnings(ref) + _exercise_warnings(ref)
        report.append({"ruleset": shown, "ok": not any(d.severity == "error"
                                                        for d in diagnostics),
                       "problems": [_diagnostic_json(d) for d in diagnostics]})
        if not as_json:
            print_diagnostics(diagnostics)
            if report[-1]["ok"]:
                click.echo(f"ok: {shown}")
    if as_json:
        import json

        click.echo(json.dumps(report, indent=2))
    if codes:
        sys.exit(min(codes))  # an invalid ruleset (1) outweighs a missing file (2)


def _rule_warnings(ref: str) -> list[Diagnostic]:
    """Warnings for two rules deciding the same thing: which one wins (``rules.precedence``)."""
    from dominorules.rules import rule_warnings

    return rule_warnings(ref)


def _diagnostic_json(d: Diagnostic) -> dict:
    return {"severity": d.severity, "code": d.code, "message": d.message, "file": d.file,
            "line": d.line, "column": d.column, "path": d.path, "hint": d.hint}


def _reach_warnings(ref: str) -> list[Diagnostic]:
    """Warnings for a valid ruleset whose sample matches never end (``dominorules.reach``)."""
    from dominorules import api
    from dominorules.reach import reach_warnings

    game = api.load_game(ref)
    return reach_warnings(game, game.path or ref)


def _exercise_warnings(ref: str) -> list[Diagnostic]:
    """Warnings for a valid ruleset's rules that random bots never exercised
    (``dominorules.exercise``)."""
    from dominorules import api
    from dominorules.exercise import exercise_warnings
    from dominorules.rules import merged_ruleset

    data, marks = merged_ruleset(ref)
    return exercise_warnings(api.load_game(ref), data, marks) if data is not None else []


_FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]),
                       default="text", show_default=True, help="Output format.")


def _stdin(ref: str) -> str:
    """A RULESET argument; ``-`` is standard input (kept in a temporary file)."""
    from dominorules.dash import ruleset_ref

    return ruleset_ref(ref)


def _load_or_fail(ref: str):
    """A loaded ruleset, or its diagnostics printed and exit 1."""
    from dominorules.rules import load_ruleset

    try:
        return load_ruleset(ref)
    except DiagnosticError as err:
        fail(err.diagnostics)


@main.command("rules", epilog=WIDTH_ENVIRONMENT + _examples(
    "dominorules rules dutch",
    "dominorules rules house/pay-per-draw --format markdown",
    "dominorules rules my-rules.yaml --format json"))
@click.argument("ruleset", metavar="RULESET", shell_complete=complete_ruleset)
@_FORMAT
def rules_sheet(ruleset: str, fmt: str) -> None:
    """Print a ruleset's full rule sheet in plain English, generated from its data."""
    from dominorules.rules.describe import render_sheet, rule_sheet
    from dominorules.textlayout import terminal_width

    click.echo(visible(render_sheet(rule_sheet(_load_or_fail(_stdin(ruleset))), fmt,
                                    terminal_width()), fmt == "json"), nl=False)


@main.command("diff", epilog=WIDTH_ENVIRONMENT + _examples(
    "dominorules diff pagat dutch",
    "dominorules diff dutch my-rules.yaml --format markdown"))
@click.argument("a", metavar="A", shell_complete=complete_ruleset)
@click.argument("b", metavar="B", shell_complete=complete_ruleset)
@_FORMAT
def diff_rulesets(a: str, b: str, fmt: str) -> None:
    """Print only the rules two rulesets tell differently, each as both word it."""
    from dominorules.rules.diff import diff, render_diff

    first, second = _load_or_fail(_stdin(a)), _load_or_fail(_stdin(b))
    from dominorules.textlayout import terminal_width

    click.echo(visible(render_diff(diff(first, second), fmt, terminal_width()),
                       fmt == "json"), nl=False)


def _game_for_players(ruleset: str, players: int | None):
    """The loaded ruleset (``-`` reads standard input) and the player count to play it at
    (the fewest it allows by default): a broken ruleset exits 1, a count it does not allow 2."""
    from dominorules import api

    try:
        game = api.load_game(_stdin(ruleset))
    except DiagnosticError as err:
        fail(err.diagnostics)
    n_players = players if players is not None else game.rules.min_players
    try:
        game.check_players(n_players)
    except DiagnosticError as err:
        fail(err.diagnostics, 2)
    return game, n_players


@main.command("kernel", epilog=_examples(
    "dominorules kernel pagat --players 3",
    "dominorules kernel house/all-fives --players 2 | less",
    "dominorules kernel dutch --engine jit > dutch_kernel.py"))
@click.argument("ruleset", metavar="RULESET", shell_complete=complete_ruleset)
@click.option("--players", type=click.IntRange(1),
              help="Player count (default: the fewest allowed).")
@click.option("--engine", type=click.Choice(["python", "jit"]), default="python",
              show_default=True, help="Whose kernel: the Python engine's, or the JIT's "
              "numba module (printed without numba installed).")
def kernel_cmd(ruleset: str, players: int | None, engine: str) -> None:
    """Print the generated code a ruleset's simulations run, headed by what it is made of:
    the switches on and off, and which writer wrote each piece."""
    from dominorules.kernel.listing import kernel_listing

    game, n_players = _game_for_players(ruleset, players)
    try:
        text = kernel_listing(game, n_players, engine)
    except UsageError as err:   # --engine jit for a ruleset the JIT cannot play
        fail(err.diagnostics, 2)
    except DiagnosticError as err:
        fail(err.diagnostics)
    click.echo(text, nl=False)


# --- engine: simulate, verify ------------------------------------------------------

def _usage_error(message: str) -> None:
    """One line on stderr, exit 2 (a bad option value, an unknown bot, a bad player count)."""
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def _no_overwrite(path: str | None, force: bool) -> None:
    """Ask before a record replaces an existing file (refused without a terminal to ask)."""
    import os

    if not path or force or not os.path.isfile(path):   # /dev/null, /dev/full: no file to lose
        return
    if not sys.stdin.isatty():
        _usage_error(f"{path} already exists: add --force to overwrite it")
    if not click.confirm(f"{path} already exists. Overwrite it?", default=False, err=True):
        click.echo(f"{path} left as it was", err=True)
        sys.exit(1)


def _force_option(what: str = "the --trace file"):
    return click.option("--force", is_flag=True, help=f"Overwrite {what} if it exists.")


_FORCE = _force_option()


def _engine_option(limits: str):
    """``--engine``, with what the JIT cannot play in this command (``limits``)."""
    return click.option(
        "--engine", type=click.Choice(["auto", "python", "jit"]), default="auto",
        show_default=True,
        help="What plays the matches: python, or jit (numba, from pip install "
             f"'dominorules[fast]'; the random, greedy and strategist bots, rulesets whose "
             f"house rules, if any, act at a round's end, the match's end, the deal, the lead, "
             f"the opening or during play on a line without a spinner (direction, "
             f"restrictions, events, turn options){limits}). The results are the same; auto "
             "takes jit for runs of 10,000 matches or more when it can. Compiled kernels are "
             "kept in $DOMINORULES_CACHE/kernels (default ~/.cache/dominorules/kernels, used only "
             "when it is yours and not writable by others); deleting it is always safe.")


_ENGINE = _engine_option("; it writes --trace records too")
_ENGINE_COMPARE = _engine_option("; an expert or plug-in skilled seat plays in Python")


def _say_when_compiling() -> None:
    """Print one line on stderr when the JIT compiles a kernel new to this machine (the
    first run of a ruleset pauses for seconds, or under auto starts on the Python engine
    while the kernel compiles in the background, with a line as the JIT takes over; later
    runs load it)."""
    import importlib.util

    if importlib.util.find_spec("numba") is None:
        return
    from dominorules.kernel import background, cache, jit_kernel
    jit_kernel.notice = cache.notice = background.notice = \
        lambda text: click.echo(text, err=True)




@main.command("simulate", epilog=ENVIRONMENT + _examples(
    "dominorules simulate pagat --players 3 --matches 500 --seed 7",
    "dominorules simulate mexican --bots strategist,random,strategist,random --trace m.jsonl",
    "dominorules simulate my-rules.yaml --players 4 --json"))
@click.argument("ruleset", metavar="RULESET", shell_complete=complete_ruleset)
@click.option("--players", type=click.IntRange(1),
              help="Player count (default: the fewest allowed).")
@click.option("--matches", type=click.IntRange(1, MAX_MATCHES), default=100, show_default=True,
              help="Matches to play.")
@click.option("--seed", type=_SEED, default=1, show_default=True, help="Base seed of the run.")
@click.option("--bots", default="random", show_default=True,
              help="One bot for every seat, or one per seat, comma separated "
                   "(random, greedy, drawer, strategist, expert[:playouts=N], or "
                   "module:object).")
@click.option("--trace", "trace_path", metavar="FILE", default=None,
              help="Write every match's record to this JSON Lines file.")
@_FORCE
@_ENGINE
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def simulate_cmd(ruleset: str, players: int | None, matches: int, seed: int, bots: str,
                 trace_path: str | None, force: bool, engine: str, as_json: bool) -> None:
    """Play seeded matches between bots and print a short summary, with 95% intervals
    (RULESET - reads standard input)."""
    from dominorules import api

    n_matches, base_seed = matches, seed
    _check_outputs({"--trace": trace_path}, [ruleset], force)
    game, n_players = _game_for_players(ruleset, players)
    names = _seat_bots(_bot_names(bots, "random"), n_players)
    update, stop = _progress_reporter(sys.stderr.isatty() and not as_json)
    try:
        _say_when_compiling()
        from dominorules.kernel.engines import bots_keep_python
        note = bots_keep_python(game, n_players, names, engine, n_matches)
        if note:
            click.echo(note, err=True)
        summary = api.simulate(game, n_players, n_matches, base_seed, names, trace_path,
                               engine=engine, progress=update, background=True)
        stop()
    except UsageError as err:  # --engine jit where it cannot run
        stop()
        fail(err.diagnostics, 2)
    except DiagnosticError as err:  # a plug-in bot that fails or answers wrongly
        stop()
        fail(err.diagnostics)
    except api.SimulationInterrupted as interrupted:
        stop()
        _simulate_interrupted(interrupted, names, trace_path, as_json)
    except OSError as err:
        stop()
        click.echo(f"error: cannot write {trace_path}: {err.strerror}", err=True)
        sys.exit(1)
    _print_simulation(summary, names, as_json)
    if trace_path and not as_json:
        click.echo(f"record written to {trace_path}")


def _print_simulation(summary: dict, names: list[str], as_json: bool) -> None:
    import json

    from dominorules.explore import simulate_report

    if as_json:
        click.echo(json.dumps(summary | {"intervals": simulate_report.intervals_json(summary)}))
        return
    for line in simulate_report.lines(summary, list(names)):
        click.echo(line)


def _simulate_interrupted(interrupted: object, names: list[str], trace_path: str | None,
                          as_json: bool) -> None:
    """A stopped ``simulate`` keeps what it finished: the summary of the whole matches
    played (on stdout, as a finished run's), and one line saying what it covers."""
    summary = getattr(interrupted, "summary", None)
    recorded = getattr(interrupted, "matches", 0)
    if summary is not None:
        _print_simulation(summary, names, as_json)
    said = []
    if summary is not None and trace_path and summary["matches"] == recorded:
        said.append(f"the summary above and {trace_path} cover the {recorded} whole matches "
                    "finished")
    else:
        if summary is not None:
            said.append(f"the summary above covers the {summary['matches']} whole matches "
                        "finished")
        if trace_path:
            said.append(f"{trace_path} holds the {recorded} whole matches played")
    click.echo("interrupted" + (f": {' and '.join(said)} before {_interrupt_name()}"
                                if said else ""), err=True)
    sys.exit(_interrupted_code())


@main.command("verify", epilog=_examples(
    "dominorules simulate pagat --matches 10 --trace p.jsonl && dominorules verify p.jsonl",
    "dominorules verify game.jsonl",
    "dominorules verify --strict game.jsonl"))
@click.argument("file")
@click.option("--strict", is_flag=True,
              help="Also read the record against the rules as the docs state them, through "
                   "the rulebook: a second, deliberately simple implementation that shares no "
                   "code with the engine's match loops and kernels. Each reading's first "
                   "disagreement is one line, marked engine: or rulebook:.")
def verify_cmd(file: str, strict: bool) -> None:
    """Re-play a game record through the engine; report the first wrong event."""
    from dominorules.files import NOT_FOUND
    from dominorules.records import verify_file

    problems = verify_file(file)
    if strict:
        _verify_strict(file, problems)
        return
    if problems:
        code = 2 if problems[0].code == NOT_FOUND else 1
        for d in problems:
            where = f"{d.file}:{d.line}" if d.line else d.file
            click.echo(visible(f"{where}: {d.message}"), err=True)
            if d.hint:
                click.echo(visible(f"  hint: {d.hint}"), err=True)
        sys.exit(code)
    click.echo(f"{file}: ok")


def _verify_strict(file: str, engine_problems: list[Diagnostic]) -> None:
    """``verify --strict``: the engine's replay and the rulebook's reading, one line for
    each one's disagreement (a line both refuse alike is said once)."""
    from dominorules.files import NOT_FOUND
    from dominorules.records import check_file_strict

    rulebook_problems = check_file_strict(file)
    lines = []
    for reader, problems in (("engine", engine_problems), ("rulebook", rulebook_problems)):
        for d in problems:
            where = f"{d.file}:{d.line}" if d.line else d.file
            lines.append((where, reader, d.message, d.hint))
    if len(lines) == 2 and lines[0][::2] == lines[1][::2]:   # the same unreadable line
        lines = [(lines[0][0], "", lines[0][2], lines[0][3])]
    for where, reader, message, hint in lines:
        click.echo(f"{where}: {reader + ': ' if reader else ''}{message}", err=True)
        if hint:
            click.echo(f"  hint: {hint}", err=True)
    if lines:
        codes = [d.code for d in engine_problems + rulebook_problems]
        sys.exit(2 if codes and all(c == NOT_FOUND for c in codes) else 1)
    click.echo(f"{file}: ok (the engine's replay and the rulebook's reading)")


# --- explorer: compare ---------------------------------------------------------------

def _names(text: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in text.split(",") if n.strip())


def _bot_names(text: str, default: str | None = None) -> tuple[str, ...]:
    """``--bots`` text -> names (``default`` when none is given); a bad list exits 2."""
    from dominorules.bots.seats import split_names

    try:
        names = split_names(text)
    except UsageError as exc:
        fail(exc.diagnostics, 2)
    return names or ((default,) if default else ())


def _seat_bots(names: tuple[str, ...], players: int) -> tuple[str, ...]:
    """A bot name for every seat; too many, too few or an unknown bot exits 2, with the
    same message as in every other command (``bots.seats``)."""
    from dominorules.bots.seats import seat_bots

    try:
        return seat_bots(names, players)
    except UsageError as exc:
        fail(exc.diagnostics, 2)


def _progress_reporter(enabled: bool):
    """A progress callback that shows a bar on stderr once a run has lasted a second."""
    import time

    from rich.progress import Progress

    from dominorules.explore.report import progress_columns
    from dominorules.visible import VisibleConsole

    state: dict = {"bar": None, "task": None, "t0": time.monotonic()}

    def update(done: int, total: int) -> None:
        if not enabled:
            return
        if state["bar"] is None:
            if time.monotonic() - state["t0"] < 1.0:
                return
            state["bar"] = Progress(*progress_columns(), console=VisibleConsole(stderr=True),
                                    transient=True)
            state["bar"].start()
            state["task"] = state["bar"].add_task("simulating", total=total)
        state["bar"].update(state["task"], completed=done, total=total)

    def stop() -> None:
        if state["bar"] is not None:
            state["bar"].stop()

    _rate_restarts_when_the_jit_takes_over(state)
    return update, stop


def _rate_restarts_when_the_jit_takes_over(state: dict) -> None:
    """The bar's speed and time left forget the Python engine's rate once the JIT takes
    over from it (``kernel.background``): the estimate follows the faster rate at once."""
    from dominorules.kernel import background

    def restart() -> None:
        bar = state["bar"]
        if bar is not None:
            task = bar.tasks[0]
            bar.reset(state["task"], total=task.total, completed=task.completed)

    background.moved = restart


def _finite(_ctx: click.Context, param: click.Parameter, value: float | None):
    """A float option that must be a real number: nan and inf pass FloatRange's bounds."""
    import math

    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number; give e.g. 0.01", param=param)
    return value


@main.command("compare", epilog=ENVIRONMENT + _examples(
    "dominorules compare pagat dutch --players 3 --matches 2000",
    "dominorules compare pagat rulesets/house/pay-per-draw.yaml --json > out.json",
    "dominorules compare pagat dutch --precision 0.01 --html report.html"))
@click.argument("rulesets", nargs=-1, required=True, metavar="RULESET...",
                shell_complete=complete_ruleset)
@click.option("--players", type=click.IntRange(1), help="Player count for every ruleset "
              "(default: the smallest count all of them allow).")
@click.option("--matches", type=_MATCHES, default=1000, show_default=True,
              help="Matches per ruleset (each played on the same seeded deals).")
@click.option("--seed", type=_SEED, default=1, show_default=True, help="Base seed of the run.")
@click.option("--bots", default="random", show_default=True,
              help="Bot for every seat, or one per seat separated by commas.")
@click.option("--skill-bots", default="strategist,random", show_default=True,
              metavar="SKILLED,OTHERS", help="The skill pairing: one seat (rotating) plays "
              "SKILLED, the others OTHERS.")
@click.option("--skill", metavar="BOT", expose_value=False,
              callback=lambda ctx, _p, v: _skill_bot(ctx, v),
              help="The skilled bot of the skill pairing (e.g. expert): short for "
              "--skill-bots BOT,OTHERS.")
@click.option("--no-skill", is_flag=True, help="Skip the skill pairing.")
@click.option("--precision", type=click.FloatRange(0, min_open=True), callback=_finite,
              help="Keep simulating "
              "until every 95% interval is within ±this: rates in absolute terms (0.01 = one "
              "percentage point), other numbers relative to their value (0.01 = 1%).")
@click.option("--max-matches", type=_MATCHES, default=100_000, show_default=True,
              help="With --precision: stop here even if the intervals are still too wide.")
@click.option("--workers", type=click.IntRange(1), help="Local worker processes "
              "(default: the machine's cores).")
@click.option("--scheduler", metavar="ADDRESS", help="Run on a Dask cluster "
              "(e.g. tcp://127.0.0.1:8786; needs dominorules[cluster]). Its workers load "
              "ruleset files by path (with --by-rule, the mixes written under TMPDIR).")
@click.option("--batch-size", type=click.IntRange(1), default=None,
              help="Matches per batch handed to a worker (default: 50 with --precision, "
                   "which checks its intervals after each batch; else a twentieth of "
                   "--matches, 50 to 5000, so fast engines are not held up by handing out "
                   "batches; on several workers a fixed run's last batches shrink so the "
                   "workers finish together; the numbers do not depend on it).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")
@click.option("--csv", "csv_path", metavar="FILE",
              help="Write one row per round to this CSV file.")
@click.option("--html", "html_path", metavar="FILE",
              help="Write a self-contained HTML report (tables and charts).")
@click.option("--plot", "plot_path", metavar="FILE",
              help="Write the charts to a PNG (needs dominorules[plot]).")
@click.option("--by-rule", is_flag=True, help="With two rulesets: split each difference "
              "among the rules that differ (plays the mixes between them; --csv then "
              "writes that split).")
@_ENGINE_COMPARE
@_force_option("the --csv, --html and --plot files")
def compare_cmd(rulesets: tuple[str, ...], players: int | None, matches: int, seed: int,
                bots: str, skill_bots: str, no_skill: bool, precision: float | None,
                max_matches: int, workers: int | None, scheduler: str | None,
                batch_size: int, as_json: bool, csv_path: str | None, html_path: str | None,
                plot_path: str | None, by_rule: bool, engine: str, force: bool) -> None:
    """Compare rulesets on the same seeded deals: what do the rules change?"""
    import json

    from dominorules.explore import html, report, summary
    from dominorules.explore.compare import CompareSettings, compare
    from dominorules.explore.runner import make_backend

    skill = _skill_pair(skill_bots, no_skill)
    rulesets = tuple(_stdin(r) for r in rulesets)
    named = {"--csv": csv_path, "--html": html_path, "--plot": plot_path}
    dashed = _dashed_output(named, as_json, ("--csv", "--html"))
    csv_path, html_path = _output_path(csv_path), _output_path(html_path)
    _check_outputs({"--csv": csv_path, "--html": html_path, "--plot": plot_path}, rulesets,
                   force)
    from dominorules.explore.runner import check_backend_options

    problem = check_backend_options(workers, scheduler)
    if problem is not None:
        fail([problem], 2)
    if batch_size is None:
        batch_size = 50 if precision is not None else max(50, min(5000, matches // 20))
    settings = CompareSettings(
        tuple(rulesets), players, matches, seed, _bot_names(bots, "random"),
        skill, precision, max_matches, batch_size, engine=engine, background=True)
    _say_when_compiling()
    if by_rule and len(rulesets) != 2:
        _usage_error(f"--by-rule splits the difference between two rulesets, not "
                     f"{len(rulesets)}")
    if by_rule and precision is not None:
        _usage_error("--by-rule plays a fixed --matches; leave out --precision")
    update, stop = _progress_reporter(sys.stderr.isatty() and not as_json)
    attribution, by_rule_cut = None, False
    try:
        with _sigterm_interrupts():
            comparison = compare(settings, make_backend(workers, scheduler), update,
                                 None if by_rule else csv_path)
            if by_rule and not comparison.outcome.interrupted:
                try:
                    attribution = _attribute(comparison, settings,
                                             make_backend(workers, scheduler), update)
                except KeyboardInterrupt:   # before the mixes' run: the comparison stands
                    by_rule_cut = True
        stop()
    except UsageError as exc:  # an unknown bot, a player count no ruleset allows
        stop()
        fail(exc.diagnostics, 2)
    except DiagnosticError as exc:
        stop()
        fail(exc.diagnostics)
    for warning in comparison.outcome.warnings:
        click.echo(visible(f"warning: {warning}"), err=True)
    out = comparison.outcome
    if sys.stderr.isatty() and not as_json and out.seconds:
        click.echo(f"{out.matches:,} matches in {out.seconds:.1f} s "
                   f"({out.matches / out.seconds:,.0f} matches/s, {comparison.backend_name})",
                   err=True)
    unprinted = None    # stdout closed early (``| head``): the files are written all the same
    try:
        if dashed:   # stdout holds the file: the tables would break it
            pass
        elif as_json:
            out_json = report.to_json(comparison)
            if attribution is not None:
                from dominorules.explore import attribution_report

                out_json["by_rule"] = attribution_report.to_json(attribution)
            click.echo(json.dumps(out_json, indent=2))
        else:
            # piped output has no width to measure: wide enough that each question is one line
            console = _stdout_console()
            for paragraph in summary.paragraphs(comparison) + comparison.notes:
                console.print(paragraph, highlight=False)
                console.print()
            for table in report.tables(comparison, console.width):
                console.print(table)
            console.print(summary.bots_footer(comparison), highlight=False)
            console.print(summary.method_footer(comparison), highlight=False)
            if attribution is not None:
                from dominorules.explore import attribution_report

                console.print()
                for line in attribution_report.summary(attribution, _base_values(comparison)):
                    console.print(line, highlight=False)
                console.print(attribution_report.table(attribution, console.width))
                for line in attribution_report.lines(attribution):
                    console.print(line, highlight=False)
                console.print(attribution_report.method_footer(attribution), highlight=False)
        sys.stdout.flush()
    except OSError as exc:
        unprinted = exc
    # the files last: a write that fails (a full disk) loses none of the numbers above
    failed = list(comparison.outcome.write_errors)
    if attribution is not None and csv_path:
        from dominorules.explore import attribution_report

        failed += _write_file(csv_path,
                              lambda: attribution_report.write_csv(attribution, csv_path))
    if html_path:
        failed += _write_file(html_path, lambda: _write_html(html_path, html, comparison,
                                                            attribution))
    if plot_path:
        from dominorules.explore.plot import write_png

        failed += _write_file(plot_path, lambda: write_png(comparison, plot_path))
    by_rule_cut = by_rule_cut or (attribution is not None
                                  and getattr(attribution.outcome, "interrupted", False))
    if comparison.outcome.interrupted or by_rule_cut:
        click.echo("interrupted: the numbers above cover the matches finished before "
                   f"{_interrupt_name()}", err=True)
        _exit_interrupted()
    if failed:
        print_diagnostics(failed)
        sys.exit(1)
    if unprinted is not None:
        _write_failed(unprinted)
    _written(named, {"--csv": csv_path, "--html": html_path, "--plot": plot_path}, dashed)


def _dashed_output(named: dict[str, str | None], as_json: bool,
                   allowed: tuple[str, ...]) -> str | None:
    """The one option whose file is ``-`` (standard output), or None; a misuse of ``-``
    is a usage error (``dash.stdout_option``)."""
    from dominorules.dash import stdout_option

    dashed, problem = stdout_option(named, as_json, allowed)
    if problem:
        _usage_error(problem)
    return dashed


def _output_path(path: str | None) -> str | None:
    from dominorules.dash import output_path

    return output_path(path)


def _written(named: dict[str, str | None], paths: dict[str, str | None],
             dashed: str | None) -> None:
    """Name the files written (on stderr), then copy a ``-`` output to standard output."""
    from dominorules.dash import finish

    files = finish(named, paths, dashed)
    if files:
        click.echo(f"written: {', '.join(files)}", err=True)


def _write_html(path: str, html, comparison, attribution=None) -> None:
    extra = []
    if attribution is not None:
        from dominorules.explore import attribution_report

        extra.append(attribution_report.html_section(attribution, _base_values(comparison)))
    _write_text(path, visible(html.render(comparison, extra)))


def _write_text(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def _base_values(comparison) -> dict:
    """The first ruleset's value of every metric (the --by-rule summary's scale)."""
    return {row.metric.key: row.estimates[0].value for row in comparison.rows}


def _write_file(path: str, write) -> list[Diagnostic]:
    """Run ``write``; a failure to write ``path`` as one diagnostic (none when it worked)."""
    try:
        write()
    except OSError as exc:
        return [Diagnostic("file", f"cannot write {path}: {exc.strerror or exc}", file=path)]
    except DiagnosticError as exc:
        return exc.diagnostics
    return []


# --- explorer: sweep, tune -----------------------------------------------------------

def _labelled_progress(enabled: bool):
    """A progress bar on stderr that names what is running (a combination, a rung)."""
    import time

    from rich.progress import Progress, TextColumn

    from dominorules.explore.report import progress_columns
    from dominorules.visible import VisibleConsole

    state: dict = {"bar": None, "task": None, "t0": time.monotonic()}

    def update(done: int, total: int, label: str) -> None:
        if not enabled:
            return
        if state["bar"] is None:
            if time.monotonic() - state["t0"] < 1.0:
                return
            state["bar"] = Progress(TextColumn("{task.description}"), *progress_columns()[1:],
                                    console=VisibleConsole(stderr=True), transient=True)
            state["bar"].start()
            state["task"] = state["bar"].add_task(label, total=total)
        state["bar"].update(state["task"], completed=done, total=total, description=label)

    def stop() -> None:
        if state["bar"] is not None:
            state["bar"].stop()

    _rate_restarts_when_the_jit_takes_over(state)
    return update, stop


def _varies(texts: tuple[str, ...]):
    """Parsed --vary options; a malformed one is a usage error (exit 2) before anything runs."""
    from dominorules.explore.variation import parse_vary

    try:
        return tuple(parse_vary(t) for t in texts)
    except DiagnosticError as exc:
        fail(exc.diagnostics, 2)


def _skill_bot(ctx: click.Context, value: str | None) -> None:
    """--skill BOT, kept for _skill_pair (it names the skilled half of --skill-bots)."""
    if value is not None:
        ctx.meta["skill_bot"] = value.strip()


def _skill_pair(skill_bots: str, no_skill: bool):
    """--skill-bots as (skilled, others), both resolved now: a bad one exits 2 before any
    match is played, in compare, sweep and tune alike. --skill BOT replaces the skilled one."""
    from dominorules.bots.seats import check_names

    if no_skill:
        return None
    skill = _bot_names(skill_bots)
    if len(skill) != 2:
        raise click.BadParameter("give two bot names: SKILLED,OTHERS", param_hint="--skill-bots")
    skilled = click.get_current_context().meta.get("skill_bot")
    if skilled is not None:
        if not skilled or "," in skilled:
            raise click.BadParameter("give one bot name, e.g. --skill expert",
                                     param_hint="--skill")
        skill = (skilled, skill[1])
    try:
        check_names(skill)
    except UsageError as exc:
        fail(exc.diagnostics, 2)
    return (skill[0], skill[1])


def _explorer_options(no_skill_help: str):
    """The options sweep and tune share with compare (``--no-skill`` means a little
    different in each: its help says how)."""
    return lambda fn: _add_explorer_options(fn, no_skill_help)


def _add_explorer_options(fn, no_skill_help: str):
    for option in reversed([
        click.option("--vary", "vary", multiple=True, required=True, metavar="FIELD=VALUES",
                     help="A rule's schema path and values: a list (31,61,101), a range "
                     "(5..7 or 20..200:20), formulas allowed. Repeat for more fields."),
        click.option("--players", type=click.IntRange(1),
                     help="Player count (default: the fewest the ruleset allows)."),
        click.option("--seed", type=_SEED, default=1, show_default=True,
                     help="Base seed of the run."),
        click.option("--bots", default="random", show_default=True,
                     help="Bot for every seat, or one per seat separated by commas."),
        click.option("--skill-bots", default="strategist,random", show_default=True,
                     metavar="SKILLED,OTHERS", help="The skill rows' bots."),
        click.option("--skill", metavar="BOT", expose_value=False,
                     callback=lambda ctx, _p, v: _skill_bot(ctx, v),
                     help="The skill rows' skilled bot (e.g. expert): short for "
                     "--skill-bots BOT,OTHERS."),
        click.option("--no-skill", is_flag=True, help=no_skill_help),
        click.option("--workers", type=click.IntRange(1), help="Local worker processes "
                     "(default: the machine's cores)."),
        click.option("--scheduler", metavar="ADDRESS", help="Run on a Dask cluster; the "
                     "variants are written under TMPDIR, which its workers must read at the "
                     "same path (a shared folder)."),
        click.option("--batch-size", type=click.IntRange(1), default=50, show_default=True,
                     help="Matches per batch handed to a worker."),
        click.option("--json", "as_json", is_flag=True, help="Print one JSON object."),
    ]):
        fn = option(fn)
    return fn


@main.command("sweep", epilog=ENVIRONMENT + _examples(
    "dominorules sweep pagat --vary match.target=31,61,101 --players 3",
    "dominorules sweep pagat --vary match.target=31,61 --vary deal.hand_size=5,6,7 --html s.html"))
@click.argument("ruleset", metavar="RULESET")
@_explorer_options("Skip the skill rows (halves the time).")
@click.option("--matches", type=_MATCHES, default=1000, show_default=True,
              help="Matches per combination (every combination plays the same deals).")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, writable=True),
              help="Write one row per combination and metric to this CSV file.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, writable=True),
              help="Write each metric against the varied values as an HTML page.")
@_force_option("the --csv and --html files")
def sweep_cmd(ruleset: str, vary: tuple[str, ...], players: int | None, seed: int, bots: str,
              skill_bots: str, no_skill: bool, workers: int | None, scheduler: str | None,
              batch_size: int, as_json: bool, matches: int, csv_path: str | None,
              html_path: str | None, force: bool) -> None:
    """Play every combination of the varied rules and report each metric per combination."""
    import json

    from dominorules.explore import sweep_html, sweep_report
    from dominorules.explore.runner import make_backend
    from dominorules.explore.sweep import SweepSettings, check_settings, sweep

    _check_outputs({"--csv": csv_path, "--html": html_path}, [ruleset], force)
    varies = _varies(vary)
    ruleset = _stdin(ruleset)
    named = {"--csv": csv_path, "--html": html_path}
    dashed = _dashed_output(named, as_json, ("--csv", "--html"))
    csv_path, html_path = _output_path(csv_path), _output_path(html_path)
    settings = SweepSettings(ruleset, varies, players, matches, seed, _bot_names(bots, "random"),
                             _skill_pair(skill_bots, no_skill), batch_size, background=True)
    _say_when_compiling()
    _check_explorer(ruleset, varies, players, settings.bots, check_settings)
    update, stop = _labelled_progress(sys.stderr.isatty() and not as_json)
    try:
        result = sweep(settings, make_backend(workers, scheduler), update)
        stop()
    except (DiagnosticError, OSError) as exc:
        _stop_and_fail(stop, exc)
    failed = []   # the files first: the tables on a closed stdout must not lose them
    if csv_path:
        failed += _write_file(csv_path, lambda: sweep_report.write_csv(result, csv_path))
    if html_path:
        failed += _write_file(html_path, lambda: _write_text(
            html_path, visible(sweep_html.render(result))))
    for line in sweep_report.invalid_lines(result) + [f"warning: {w}" for w in
                                                       result.outcome.warnings]:
        click.echo(visible(line), err=True)
    if dashed:   # stdout holds the file
        pass
    elif as_json:
        click.echo(json.dumps(sweep_report.to_json(result), indent=2))
    else:
        console = _stdout_console()
        for line in sweep_report.summary(result) + result.notes:
            console.print(line, highlight=False)
            console.print()
        for table in sweep_report.tables(result, console.width):
            console.print(table)
        console.print(sweep_report.method_footer(result), highlight=False)
    if result.outcome.interrupted:
        click.echo("interrupted: finished combinations are complete; the one running is "
                   "marked with the matches it finished; the rest did not run", err=True)
        print_diagnostics(failed)
        _exit_interrupted()
    if failed:
        fail(failed)
    _written(named, {"--csv": csv_path, "--html": html_path}, dashed)


@main.command("tune", epilog=ENVIRONMENT + _examples(
    'dominorules tune pagat --vary match.target=20..200 --goal "turns_per_match ~ 120"',
    "dominorules tune pagat --vary match.target=20..200 --goal \"rounds_per_match ~ 5\" "
    "--out tuned.yaml"))
@click.argument("ruleset", metavar="RULESET")
@_explorer_options("Never play the skill pairing (tune plays it only for a goal on a skill "
                   "metric, such as skill_gap; with --no-skill such a goal is refused).")
@click.option("--goal", "goals", multiple=True, required=True, metavar="GOAL",
              help="METRIC ~ TARGET [+- TOL], METRIC < BOUND or METRIC > BOUND "
              "(a metric key of docs/metrics.md; shares as 0.01 or 1%). Repeatable.")
@click.option("--matches", type=_MATCHES, default=200, show_default=True,
              help="Matches each candidate plays in the first rung.")
@click.option("--max-matches", type=_MATCHES, default=5400, show_default=True,
              help="Matches the last candidates reach at most.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, writable=True),
              help="Write the best settings as a ruleset that extends RULESET.")
@_force_option("the --out file")
def tune_cmd(ruleset: str, vary: tuple[str, ...], players: int | None, seed: int, bots: str,
             skill_bots: str, no_skill: bool, workers: int | None, scheduler: str | None,
             batch_size: int, as_json: bool, goals: tuple[str, ...], matches: int,
             max_matches: int, out_path: str | None, force: bool) -> None:
    """Search the varied rules for values that meet the goals (a zooming grid, then
    successive halving)."""
    import json

    from dominorules.explore.runner import make_backend
    from dominorules.explore.sweep import check_settings
    from dominorules.explore.tune import TuneSettings, check, tune, winning_yaml

    _check_outputs({"--out": out_path}, [ruleset], force)
    varies = _varies(vary)
    ruleset = _stdin(ruleset)
    skill = _skill_pair(skill_bots, no_skill)
    settings = TuneSettings(ruleset, varies, goals, players, matches, max_matches, seed,
                            _bot_names(bots, "random"), skill, batch_size, background=True)
    _say_when_compiling()
    _check_explorer(ruleset, varies, players, settings.bots, check_settings)
    try:
        check(settings)
    except DiagnosticError as exc:
        fail(exc.diagnostics, 2)
    update, stop = _labelled_progress(sys.stderr.isatty() and not as_json)
    try:
        result = tune(settings, lambda: make_backend(workers, scheduler), update)
        stop()
    except (DiagnosticError, OSError) as exc:
        _stop_and_fail(stop, exc)
    failed = []
    if out_path and result.ranked:
        failed = _write_file(out_path, lambda: _write_tuned(result, out_path, winning_yaml))
    for text, problem in result.invalid:
        click.echo(visible(f"not tried: {text}: {problem}"), err=True)
    rows = [_tuned_row(result, c) for c in result.ranked]
    if as_json:
        click.echo(json.dumps({"settings": {"ruleset": ruleset, "players": result.players,
                                            "goals": list(goals), "seed": seed,
                                            "first_rung": matches, "max_matches": max_matches},
                               "candidates": rows}, indent=2))
    elif not rows:
        click.echo("no candidate finished its first matches")
    else:
        from dominorules.explore.tune import METHOD
        from dominorules.explore.tune import summary as tune_summary
        from dominorules.textlayout import terminal_width, wrap

        for line in tune_summary(result):
            click.echo(wrap(line, "", terminal_width()) + "\n")
        best = rows[0]
        click.echo(f"best: {best['label']} ({best['matches']} matches)")
        for g in best["goals"]:
            sure = "n/a" if g["confidence"] is None else f"{g['confidence']:.0%}"
            click.echo(f"  {g['goal']}: {g['estimate']} -> {sure} sure it is met")
        click.echo("runners-up: " + "; ".join(f"{r['label']} (loss {r['loss']:.3g}, "
                                              f"{r['matches']} matches)" for r in rows[1:4]))
        if out_path and not failed:
            click.echo(f"written to {out_path}")
        click.echo(wrap(METHOD, "", terminal_width()))
    print_diagnostics(failed)
    if result.interrupted:
        click.echo("interrupted: the ranking covers the rungs finished before "
                   f"{_interrupt_name()}", err=True)
        _exit_interrupted()
    if failed:
        sys.exit(1)


def _tuned_row(result, c) -> dict:
    from dominorules.explore.report import fmt_estimate

    goals = []
    for g in result.goals:
        e = c.estimates.get(g.metric.key)
        goals.append({"goal": g.text, "metric": g.metric.key,
                      "estimate": fmt_estimate(g.metric, e) if e else "n/a",
                      "value": e.to_json() if e else None,
                      "confidence": g.confidence(e) if e else None})
    main = c.aggs.get("main")
    return {"label": c.label, "values": c.overrides, "loss": c.loss, "rung": c.rung,
            "matches": main.n if main else 0, "goals": goals}


def _write_tuned(result, out_path: str, winning_yaml) -> None:
    """The winning ruleset file; restricted to the tuned player count if it only works there."""
    from dominorules.rules import load_ruleset

    for only_players in (False, True):
        _write_text(out_path, winning_yaml(result, out_path, only_players))
        try:
            load_ruleset(out_path)
            return
        except DiagnosticError:
            continue


def _check_explorer(ruleset: str, varies, players: int | None, bots: tuple[str, ...],
                    check_settings) -> None:
    """Usage errors (--vary, --players, --bots) exit 2 before anything runs; a broken
    ruleset file exits 1."""

    try:
        base, n = check_settings(ruleset, varies, players)
    except DiagnosticError as exc:
        fail(exc.diagnostics, 2 if exc.diagnostics[0].code == "vary" else 1)
    try:
        base.check_players(n)
    except DiagnosticError as exc:
        fail(exc.diagnostics, 2)
    _seat_bots(bots, n)


def _attribute(comparison, settings, backend, update):
    """The --by-rule run: the two rulesets and the mixes between them, on the same seeds."""
    import tempfile

    from dominorules.bots.seats import seat_bots
    from dominorules.explore.attribution import attribute

    a, b = comparison.rulesets
    players = comparison.outcome.runs[0].pairing.players
    with tempfile.TemporaryDirectory(prefix="dominorules-by-rule-") as directory:
        return attribute(a.ref, b.ref, (a.label, b.label), players,
                         seat_bots(settings.bots, players), settings.seed, settings.matches,
                         settings.batch_size, backend, directory, update,
                         partnerships=a.partnerships or b.partnerships,
                         skill_bots=settings.skill_bots)


# --- terminal: play, replay ----------------------------------------------------------

def _seats(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(s) for s in _names(text))
    except ValueError:
        raise click.BadParameter("give seat numbers separated by commas, e.g. 0,2",
                                 param_hint="--humans") from None


@main.command("play", epilog=_examples(
    "dominorules play pagat",
    "dominorules play mexican --bots strategist",
    "dominorules play dutch --players 3 --humans 0,1 --seed 11 --trace game.jsonl"))
@click.argument("ruleset", metavar="RULESET", shell_complete=complete_ruleset)
@click.option("--humans", default="0", show_default=True,
              help="Seats played at this terminal, separated by commas (hot-seat when several).")
@click.option("--bots", default="", help="Bot for every other seat, or one per bot seat "
              "separated by commas (default: the strongest bot).")
@click.option("--players", type=click.IntRange(1), help="Player count (default: the fewest "
              "the ruleset allows that seat the humans).")
@click.option("--seed", type=_SEED, help="Seed of the match (default: random, printed).")
@click.option("--trace", metavar="FILE", help="Write the match record to "
              "this file as it is played (JSON Lines).")
@_FORCE
@click.option("--fast", is_flag=True, help="No pauses between the bots' moves.")
def play_cmd(ruleset: str, humans: str, bots: str, players: int | None, seed: int | None,
             trace: str | None, force: bool, fast: bool) -> None:
    """Play a ruleset in the terminal against bots or friends."""
    from dominorules.play import PlaySettings, RichTerminal, play

    _check_outputs({"--trace": trace}, [ruleset], force)
    settings = PlaySettings(ruleset, _seats(humans), _bot_names(bots), players, seed, trace,
                            fast)
    try:
        code = play(settings, RichTerminal(fast=fast))
    except UsageError as exc:   # seats, players or bots that do not fit the ruleset
        fail(exc.diagnostics, 2)
    except DiagnosticError as exc:
        fail(exc.diagnostics)
    sys.exit(code)


@main.command("replay", epilog=_examples(
    "dominorules play dutch --trace game.jsonl && dominorules replay game.jsonl",
    "dominorules replay game.jsonl"))
@click.argument("file")
def replay_cmd(file: str) -> None:
    """Step through a recorded match with every hand visible (the record is verified first)."""
    from dominorules.play import RichTerminal, replay

    try:
        code = replay(file, RichTerminal())
    except DiagnosticError as exc:
        fail(exc.diagnostics)
    sys.exit(code)


if __name__ == "__main__":
    main()
