"""A ruleset's kernel as a reader sees it: the generated source, headed by what made it.

``dominorules kernel RULESET --players N`` prints ``kernel_listing``: the code a
simulation of that ruleset runs (builtin bots, no record), so a maintainer can read,
lint or step through exactly what plays, and see which switches were on and which
writer wrote each piece (events, restrictions, opening, settlement, match end). The
header is comments and the written pieces follow as plain functions, so the whole
listing is Python a linter can read.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, UsageError
from ..generated import file_name
from . import jit_house, jit_kernel
from .generate import _narrow_source, covers, kernel_label, kernel_source, kernel_switches
from .settle import match_over_for, settlement_for

if TYPE_CHECKING:
    from ..engine.game import Game

ENGINES = ("python", "jit")


def kernel_listing(game: Game, players: int, engine: str = "python") -> str:
    """The kernel ``game`` gets at ``players`` on ``engine`` (python | jit), as text;
    raises ``UsageError`` when the JIT cannot play the ruleset."""
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r}: expected one of {', '.join(ENGINES)}")
    if game.rules.layout is not None and engine != "jit":   # (the JIT's: jit_layout)
        raise UsageError([Diagnostic(
            "engine", f"{game.rules.name} shapes its board (board.layout): no Python kernel "
            "plays it, the general loop does",
            hint="--engine jit prints the JIT's kernel, which plays it")])
    if game.rules.several is not None and engine != "jit":   # (the JIT's: jit_several)
        raise UsageError([Diagnostic(
            "engine", f"{game.rules.name} lays several tiles in one move (play.several): no "
            "Python kernel plays it, the general loop does",
            hint="--engine jit prints the JIT's kernel, which plays it")])
    text = (_jit_listing(game, players) if engine == "jit"
            else _python_listing(game, players) if covers(game)
            else _loop_listing(game, players))
    return text.rstrip("\n") + "\n"


def _comment(lines: list[str]) -> str:
    return "".join(f"# {line}".rstrip() + "\n" for line in lines)


def _head(game: Game, players: int, engine: str, made_by: str) -> list[str]:
    return [f"dominorules kernel {game.rules.name} --players {players} --engine {engine}",
            f"made by: {made_by}",
            "plays: a match of builtin bots (random, greedy, strategist), records off"]


def _switch_lines(flags: dict[str, bool]) -> list[str]:
    out = []
    for title, names in (("switches on: ", sorted(k for k, v in flags.items() if v)),
                         ("switches off:", sorted(k for k, v in flags.items() if not v))):
        out += textwrap.wrap(f"{title} {' '.join(names) or '(none)'}", 86,
                             subsequent_indent=" " * 14)
    return out


def _written(game: Game, players: int) -> tuple[list[str], list[str]]:
    """The settlement and match end written out for a general ruleset (``kernel.settle``):
    a header line for each, and their sources to print after the kernel."""
    notes, parts = [], []
    settle = settlement_for(game, players)
    if settle is None:
        notes.append("settlement: GeneralLoop._settle (a formula reads what kernel.settle "
                     "does not write)")
    else:
        notes.append("settlement: kernel.settle.settlement_source (SETTLE, below)")
        parts.append(_piece("SETTLE: kernel.settle.settlement_source", settle))
    over = match_over_for(game, players)
    if over is None:
        notes.append("match end: GeneralLoop._match_over")
    else:
        notes.append("match end: kernel.settle.match_over_source (MATCH_OVER, below)")
        parts.append(_piece("MATCH_OVER: kernel.settle.match_over_source", over))
    return notes, parts


def _piece(title: str, fn) -> str:
    return f"\n\n# --- {title}, compiled as {fn.__code__.co_filename}\n{fn.source}"


def _python_listing(game: Game, players: int) -> str:
    rules = game.rules
    flags = kernel_switches(game, players)
    source = kernel_source(game, players)
    notes: list[str] = []
    parts: list[str] = []
    if rules.events:
        notes.append("events: GeneralLoop._fire (a formula reads the tallies of hands)"
                     if flags["FIRE"] else "events: written inline (kernel.events.event_code)")
    if rules.restrictions:
        if flags["RESTRICT_INLINE"]:
            notes.append("restrictions: narrow, over the masks (kernel.events.narrow_source, "
                         "below)")
            parts.append(f"\n\n# --- narrow: kernel.events.narrow_source\n"
                         f"{_narrow_source(game, players)}\n")
        else:
            notes.append("restrictions: restrict, GeneralLoop's allowed_at with a verdict "
                         "cache")
    if flags["REDEAL_IF"]:
        notes.append("redeal: written inline (kernel.opening.redeal_source)"
                     if flags["REDEAL_INLINE"] else "redeal: GeneralLoop._redeal_asked")
    if flags["GEN_OPEN"]:
        notes.append("opening: by its allow mask (kernel.opening.opener_for)"
                     if flags["OPEN_MASK"] else "opening: GeneralLoop._open")
    else:
        notes.append("opening: the kernel's (engine.general_loop.tile_opening)"
                     if not flags["OPEN_ANY"] else "opening: any tile, by the leader")
    if flags["LEAD_FORMULA"]:
        notes.append("lead formula: GeneralLoop._lead_by_formula")
    if flags["GEN"]:
        more, pieces = _written(game, players)
        notes += more
        parts += pieces
    else:
        notes.append("settlement: the kernel's, its formulas inline (kernel.formulas.emit)"
                     if flags["INLINE_SETTLE"] else "settlement: Settler (engine.scoring)")
        notes.append("match end: engine.scoring.match_winner")
    if flags["FINAL"]:
        notes.append("final formula: GeneralLoop._final")
    head = _head(game, players, "python",
                 "kernel.specialise_kernel from kernel.python_kernel.play (real Python: "
                 "switches folded, pieces spliced)")
    head.append(f"compiled as: {file_name(kernel_label(game, players), source)}")
    return (_comment(head + _switch_lines(flags) + ["pieces:"] + [f"  {n}" for n in notes])
            + "\n\n" + source + "".join(parts))


def _loop_listing(game: Game, players: int) -> str:
    from .specialise_loop import general_kernel, loop_truths

    run = general_kernel(game, players, False)
    notes, parts = _written(game, players)
    head = _head(game, players, "python",
                 "kernel.specialise_loop: GeneralLoop.run's syntax tree with the switches "
                 "below made constants and dead branches cut")
    head.append(f"compiled as: {run.__code__.co_filename}")
    truths = loop_truths(game, players, False)
    return (_comment(head + _switch_lines(truths) + ["pieces:"] + [f"  {n}" for n in notes])
            + "\n" + run.source + "\n" + "".join(parts))


def _jit_listing(game: Game, players: int) -> str:
    reason = jit_kernel.jit_reason(game, players, need_numba=False)
    if reason is not None:
        raise UsageError([Diagnostic("engine", f"--engine jit cannot run this: {reason}",
                                     hint="use --engine python")])
    if jit_house.plays(game.rules):
        return _jit_house_listing(game, players)
    domino, blocked = jit_kernel._formulas(game)
    head = _head(game, players, "jit", "kernel.specialise_kernel from kernel.jit_loop (real "
                 "Python: switches folded, the scoring formulas put in),")
    head.insert(2, "  compiled by numba")
    head[3] = ("plays: batches of seeds, random, greedy and strategist bots, records on or "
               "off (a run-time switch)")
    head += ["the rules' numbers and switches reach it at run time as the array Q "
             "(jit_template.PARAMS), read by name (N = Q[Q_N]),",
             "so one module serves every ruleset with the same formulas, at every player "
             "count",
             f"domino formula:  {domino}", f"blocked formula: {blocked}"]
    return _comment(head) + "\n" + jit_kernel.kernel_source(game)


def _jit_house_listing(game: Game, players: int) -> str:
    """The GEN kernel's listing: the one module every such ruleset shares, headed by the
    ruleset's switches and formula programs (``jit_house``)."""
    code, starts = jit_house.programs(game)
    head = _head(game, players, "jit", "kernel.specialise_kernel from kernel.jit_loop (its "
                 "GEN lines: house rules of a round's end, the match's end,")
    head.insert(2, "  the deal, the lead or the opening, the direction of play, placement "
                "restrictions, play-time events (their sets, duties and draws), a match won "
                "mid-round, turn options, the spinner, fit rules, shaped boards, declarations "
                "and moves of several tiles; on a set over 62 tiles, its hands as words),")
    head.insert(3, "  compiled by numba")
    head[4] = ("plays: batches of seeds, random, greedy and strategist bots, records on or "
               "off (a run-time switch)")
    head += ["no ruleset's text is in it: the switches reach it as the array Q "
             "(jit_template.PARAMS), the formulas as",
             "programs in the array CODE (kernel.jit_formula), so one module serves every "
             "such ruleset, at every player count",
             *(f"switch {k} = {v}" for k, v in jit_house.params(game, players).items()
               if not k.startswith("F_")),
             f"CODE = {code}",
             *(f"program {k} starts at CODE[{at}]" for k, at in starts.items() if at >= 0)]
    return _comment(head) + "\n" + jit_kernel.kernel_source(game)
