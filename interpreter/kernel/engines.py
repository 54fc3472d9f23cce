"""Which engine plays a run: ``python`` (the compiled Python kernel, else the match loop)
or ``jit`` (the numba kernel), and the JIT's batches of whole matches.

``auto`` takes the JIT when numba is installed and the run allows it (a ruleset without
house rules, or whose house rules act at a round's end, the match's end, the deal, the
lead, the opening or during play (``jit_house``; on a set of any size), the random,
greedy and strategist bots; records too, unless the ruleset's hold lines the JIT does not
write: ``jit_trace.reason``); otherwise Python. Asking for ``jit`` where it cannot run is
an error that says why. Both engines give the same matches: the choice is only speed. A
seat playing the expert keeps the match loop on Python, but its playouts run on the JIT
where ``kernel.jit_continuation`` plays them (``bots.expert.jit_playouts``), and auto says
so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..bots import expert
from ..diagnostics import Diagnostic, DiagnosticError, UsageError

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.results import MatchResult

ENGINES = ("auto", "python", "jit")
BATCH = 2048   # matches a JIT call plays (Ctrl-C is seen between calls)
# auto takes the JIT from this many matches: loading numba and a cached kernel costs about
# a second, what the Python kernel needs for some 10,000 matches of a double-six game
# (measured on a double-six ruleset, 3 players: 10,000 matches take 1.3 s either way,
# 30,000 take 3.7 s in Python and 1.4 s with the JIT)
AUTO_MIN_MATCHES = 10_000


def jit_reason(game: Game, players: int, bots: Any, trace: bool = False,
               start_scores: Any = None) -> str | None:
    """Why the JIT cannot play this run, or None when it can (numba is imported only here)."""
    if start_scores and max(abs(int(s)) for s in start_scores) > 1 << 40:
        return "start scores beyond 2**40 need the python engine's integers"
    from . import jit_kernel
    why = jit_kernel.jit_reason(game, players, bots)
    if why is None and trace:
        from .jit_trace import reason
        why = reason(game)
    return why


def check_name(engine: str, names: tuple[str, ...] = ENGINES) -> None:
    """A usage error for an engine name not among ``names``."""
    if engine not in names:
        raise UsageError([Diagnostic(
            "engine", f"unknown engine '{engine}'", hint=f"use one of: {', '.join(names)}")])


def choose(game: Game, players: int, bots: Any, engine: str = "auto",
           trace: bool = False, matches: int | None = None, start_scores: Any = None) -> str:
    """``"python"`` or ``"jit"`` for this run; ``engine="jit"`` where it cannot run raises a
    usage error naming the reason. ``auto`` stays with Python for a run of fewer than
    ``AUTO_MIN_MATCHES`` matches (``matches`` None: one match, asked for directly)."""
    check_name(engine)
    if engine == "python" or (engine == "auto" and (matches or 0) < AUTO_MIN_MATCHES):
        return "python"
    reason = jit_reason(game, players, bots, trace, start_scores)
    if reason is None:
        return "jit"
    if engine == "jit":
        raise UsageError([Diagnostic("engine", f"--engine jit cannot run this: {reason}",
                                     hint="use --engine python (the same results, slower)")])
    return "python"


def bots_keep_python(game: Game, players: int, bots: Any, engine: str = "auto",
                     matches: int = 0) -> str | None:
    """``auto``'s one sentence when the run is long enough for the JIT and the JIT plays the
    ruleset, but a seat's bot (a plug-in, the expert) keeps the Python engine; None
    otherwise (without numba there is nothing to say: auto never takes the JIT). An
    expert whose playouts run on the JIT is named at any length of run: they do whatever
    the run's length, and an expert's run is rarely long."""
    if engine != "auto":
        return None
    from . import jit_kernel
    if not jit_kernel.available() or jit_kernel.bot_kinds(bots, players) is not None:
        return None
    if jit_kernel.jit_reason(game, players, "random") is not None:   # the ruleset's own
        return None
    searching = expert_seats_on_jit(game, players, bots)
    if searching:
        seat, spec = searching[0]
        return ("engine auto: the python engine plays this run's match loop, though the JIT "
                f"plays the ruleset: seat {seat} plays '{spec}', whose playouts run on the JIT")
    if matches < AUTO_MIN_MATCHES:
        return None
    return ("engine auto: the python engine plays this run, though the JIT plays the "
            f"ruleset: {jit_kernel.jit_reason(game, players, bots)}")


def expert_seats_on_jit(game: Game, players: int, bots: Any) -> list[tuple[int, str]]:
    """(seat, bot) of the seats whose expert plays its playouts on the JIT, when every
    other seat's bot is one the JIT kernel plays; else [] (why the message differs: the
    match loop stays on Python, most of the expert's time does not)."""
    from . import jit_kernel

    specs = [bots] * players if isinstance(bots, str) else list(bots)
    if len(specs) != players or not all(isinstance(s, str) for s in specs):
        return []
    found = []
    for seat, spec in enumerate(specs):
        name, _, options = spec.strip().partition(":")
        if name.strip().lower() in jit_kernel.BOT_KINDS:
            continue
        if name.strip().lower() != "expert":
            return []
        try:
            expert.parse_options(options)   # (every rollout bot's playouts: jit_continuation)
        except DiagnosticError:
            return []
        if expert_playouts_reason(game, players) is not None:
            return []
        found.append((seat, spec.strip()))
    return found


def expert_playouts(game: Game, players: int, start_scores: Any = (),
                    rollout: str = "strategist") -> Any:
    """The JIT's continuation kernel for the expert's playouts of ``game`` by ``rollout``
    (``jit_continuation.continuations``), or None when they stay on the python engine."""
    if expert_playouts_reason(game, players, start_scores) is not None:
        return None
    from .jit_continuation import continuations
    return continuations(game, players, rollout)


def expert_playouts_reason(game: Game, players: int, start_scores: Any = ()) -> str | None:
    """Why the expert's playouts of ``game`` stay on the python engine, or None when the JIT
    plays them (numba is imported only here, as in ``jit_reason``)."""
    from . import jit_kernel
    if not jit_kernel.available():
        return jit_kernel.jit_reason(game, players)
    from .jit_continuation import reason
    return reason(game, players, start_scores)


expert.use_jit_playouts(expert_playouts)   # (bots sit below the kernel: it hands them in)


def on_disk(game: Game, players: int) -> bool | None:
    """Whether the kernel of ``game`` at ``players`` is compiled in the cache (its first
    call loads it, in about a second), False when a compile would be kept there, None
    when it compiles in memory (``jit.on_disk``). Makes the kernel's module (importing
    numba) without its compile notice: what comes next decides what to say."""
    from . import jit, jit_kernel

    said, jit_kernel.notice = jit_kernel.notice, None
    try:
        module = jit_kernel.kernel(game, players).module
    finally:
        jit_kernel.notice = said
    return jit.on_disk(module.play_batch)


def compile_now(game: Game, players: int) -> None:
    """Compile (or load) the kernel of ``game`` at ``players`` and what a run of it calls
    besides (the seeds' hash, the feature rows) by playing one match: numba compiles at a
    function's first call and keeps the code in its cache (``background``'s child)."""
    from .seeds import match_seeds

    JitBatch(game, players, match_seeds(1, 0, 1).tolist(), "random").features()


def jit_batches(game: Game, players: int, seeds: list[int], bots: Any, max_rounds: int = 1000,
                start_scores: list[int] | None = None,
                sink: Callable[[str, int], None] | None = None
                ) -> Iterator[tuple[Any, Any, Any]]:
    """(seeds, match rows, round rows) of ``seeds``, ``BATCH`` matches at a time; ``sink``
    gets their record's text as it is made (``JitKernel.run``)."""
    import numpy as np

    from . import jit_kernel

    kernel = jit_kernel.kernel(game, players)
    kinds = jit_kernel.bot_kinds(bots, players)
    for i in range(0, len(seeds), BATCH):
        chunk = np.array(seeds[i:i + BATCH], np.int64)
        matches, rounds = kernel.run(chunk, kinds, max_rounds, start_scores, sink)
        yield chunk, matches, rounds


def jit_results(game: Game, players: int, seeds: list[int], bots: Any, max_rounds: int = 1000,
                start_scores: list[int] | None = None, trace: bool = False
                ) -> list[MatchResult]:
    """The matches of ``seeds`` played by the JIT, as ``MatchResult`` objects (``trace``:
    with their ``events``, read back from the record's text the JIT writes)."""
    import json

    from . import jit_kernel

    kernel = jit_kernel.kernel(game, players)
    out: list[MatchResult] = []
    texts: list[str] = []
    sink = (lambda text, _: texts.append(text)) if trace else None
    for chunk, matches, rounds in jit_batches(game, players, seeds, bots, max_rounds,
                                              start_scores, sink):
        out += kernel.results(chunk, matches, rounds, start_scores)
    if trace:
        events = [json.loads(line) for text in texts for line in text.splitlines()]
        starts = [i for i, e in enumerate(events) if e["event"] == "match_start"]
        for result, a, b in zip(out, starts, [*starts[1:], len(events)], strict=True):
            result.__dict__["events"] = events[a:b]
    return out


class JitBatch:
    """One batch of matches played by the JIT, read as ``MatchResult`` objects (``results``)
    or folded straight into ``compare``'s feature rows (``features``)."""

    def __init__(self, game: Game, players: int, seeds: list[int], bots: Any):
        import numpy as np

        from . import jit_kernel

        self.kernel = jit_kernel.kernel(game, players)
        self.seeds = np.array(seeds, np.int64)
        self.matches, self.rounds = self.kernel.run(self.seeds,
                                                    jit_kernel.bot_kinds(bots, players))

    @cached_property
    def results(self) -> list[MatchResult]:
        return self.kernel.results(self.seeds, self.matches, self.rounds)

    def features(self) -> tuple[Any, Any, int]:
        """(feature rows, every round's total points, matches stopped by the round cap)."""
        import numpy as np

        from ..engine.results import MECHANISM_COUNTERS
        from .jit_features import features_of

        k = self.kernel
        rows, points = features_of(self.matches, self.rounds, k.sides, k.players,
                                   k.side_of, k.teams)
        # the mechanisms' counters (engine.results): on the JIT the variables' sum as a
        # match ended and what the GEN lines count (jit_template.COUNTED), the others 0
        rows = np.pad(rows, ((0, 0), (0, len(MECHANISM_COUNTERS))))
        if k.general:
            from .jit_template import COUNTED, INDEXES

            first = rows.shape[1] - len(MECHANISM_COUNTERS)
            at = INDEXES["M_SCORES"] + k.sides
            if k.game.rules.variables:
                rows[:, first + MECHANISM_COUNTERS.index("variables_final")] = \
                    self.matches[:, at]
            for j, name in enumerate(COUNTED):
                rows[:, first + MECHANISM_COUNTERS.index(name)] = self.matches[:, at + 1 + j]
        return rows, points, int(self.matches[:, 1].sum())
