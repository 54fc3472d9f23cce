"""The public Python face: load a ruleset, start or play a seeded match, bots, records.

>>> from dominorules import api
>>> game = api.load_game("my-rules.yaml")                          # doctest: +SKIP
>>> result = api.play_match(game, 3, seed=7, bots="random")        # doctest: +SKIP
>>> result.winner, result.scores                                   # doctest: +SKIP
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from .bots.guard import construct, fast_policy, is_builtin
from .bots.loader import make_bot, resolve
from .bots.seats import seat_bots
from .bots.turn import bot_turn
from .engine.actions import Action
from .engine.explain import explain_illegal
from .engine.game import Deal, Game
from .engine.game_rules import Rules
from .engine.general_loop import GeneralLoop
from .engine.observation import LoopView, MatchView, Observation
from .engine.results import MatchResult, RoundStats
from .engine.state import State
from .engine.streams import match_seed, seat_first, seat_rest, seat_stream, seat_streams
from .engine.tiles import Tile
from .kernel import engines
from .kernel import generate as kernels

__all__ = ["Action", "Deal", "Game", "MatchResult", "Observation", "RoundStats", "State",
           "Tile", "bot_rng", "explain_illegal", "game_from_rules", "load_game", "make_bots",
           "match_seed", "play_match"]

_GAMES: dict[str, Game] = {}
MAX_ROUNDS = 1000  # the round cap: a match still undecided then stops (``result.capped``)
_FAST: dict[str, type] = {}  # bot name -> its class, when it offers a fast policy
# play_match's engines: "auto" is "python" for one match (the JIT pays off over many)
_MATCH_ENGINES = ("python", "loop", "jit", "auto")


def load_game(ref: str) -> Game:
    """A builtin ruleset name or a YAML path -> ``Game``; raises ``DiagnosticError``.

    Builtin games are cached (a ``Game`` is immutable).
    """
    from .rules import load_ruleset
    from .rules.resources import builtin_paths

    if ref in _GAMES:
        return _GAMES[ref]
    ruleset = load_ruleset(ref)
    builtin = ref in builtin_paths()
    game = Game(ruleset.rules, ref=ref if builtin else ruleset.name,
                path=None if builtin else os.path.abspath(ruleset.path))
    if builtin:
        _GAMES[ref] = game
    return game


def game_from_rules(rules: Rules, ref: str | None = None) -> Game:
    """A ``Game`` from a ``Rules`` built in Python (tests, experiments)."""
    return Game(rules, ref=ref)


def bot_rng(seed: int, seat: int):
    """The bot RNG stream of ``seat`` in the match of ``seed`` (a ``random.Random``)."""
    return seat_stream(seed, seat)


def make_bots(bots: Any, players: int, seed: int) -> list:
    """Per-seat bot objects from one spec (name, class, function, object) or one per seat."""
    specs = seat_bots(_spec_list(bots), players)
    rngs = seat_streams(seed, players)
    return [make_bot(spec, seat, rngs[seat]) for seat, spec in enumerate(specs)]


def _spec_list(bots: Any) -> list:
    """The specs as given: a list or tuple holds one per seat, anything else is one."""
    if bots is None:
        return ["random"]
    return list(bots) if isinstance(bots, (list, tuple)) else [bots]


def play_match(game: Game | str, players: int, seed: int, bots: Any = "random",
               trace: bool = False, deals: Sequence[Deal] | None = None,
               start_scores: Sequence[int] | None = None, max_rounds: int = MAX_ROUNDS,
               fast: bool = True, engine: str = "python") -> MatchResult:
    """Play one match to the end; ``result.events`` holds the record when ``trace``.

    Builtin bots run as fast bitmask policies (the strategist, which reads the public
    history, as a ``decider`` over the engine's decisions); any other bot goes through
    ``Observation`` + legal ``Action`` objects. ``fast=False`` sends every bot that
    way (the two paths give identical records; a test checks it).

    ``engine``: ``"python"`` plays the ruleset's compiled kernel (``kernel``) whenever
    the ruleset and bots allow it, else the match loop; ``"loop"`` always the match loop
    (the reference the kernel is tested against); ``"jit"`` the numba kernel (an error
    where it cannot run: ``kernel.engines``). Every engine gives the same match.
    """
    engines.check_name(engine, _MATCH_ENGINES)
    if isinstance(game, str):
        game = load_game(game)
    game.check_players(players)
    if engine == "jit" and not deals and fast:
        if engines.choose(game, players, bots, engine, trace, start_scores=start_scores) == "jit":
            return engines.jit_results(game, players, [seed], bots, max_rounds,
                                       list(start_scores) if start_scores else None,
                                       trace)[0]
    bots = _one_name(bots, players)
    # a shaped board (board.layout) has any number of ends, which the bots' bitmask policies
    # (a line and a spinner's four ends) cannot be asked about: every seat decides on its
    # observation and the legal actions, which name the ends
    fast = fast and game.rules.layout is None
    # so do moves of several tiles (play.several): the policies know one placement at a time
    fast = fast and game.rules.several is None
    kernel = engine != "loop" and fast and not deals
    if fast and not deals and isinstance(bots, str):
        # the common simulation case: one builtin bot everywhere, straight to its policies
        found = _builtin_seats(game, players, seed, bots)
        if found is not None:
            return _play_fast(game, players, seed, *found, trace, start_scores, max_rounds,
                              kernel)
    seats = make_bots(bots, players, seed)
    labels = _bot_labels(bots, seats)
    policies = [(fast_policy(b, game, labels[s], s) if fast and hasattr(b, "policy") else None)
                for s, b in enumerate(seats)]
    if all(p is not None for p in policies) and not deals:
        return _play_fast(game, players, seed, None, None, policies, trace, start_scores,
                          max_rounds, kernel)
    shared: dict = {}   # what the deciders of this match read once for all seats
    deciders = [(b.decider(game, players, shared) if fast and policies[s] is None
                 and hasattr(b, "decider") and is_builtin(b) else None)
                for s, b in enumerate(seats)]
    if not deals and all(p is not None or d is not None for p, d in zip(policies, deciders,
                                                                         strict=True)):
        return _play_deciding(game, players, seed, policies, deciders, trace, start_scores,
                              max_rounds, kernel)
    state = State(game, players, seed, deals=deals, start_scores=start_scores,
                  max_rounds=max_rounds, record=True, policies=policies)
    while not state.is_terminal:
        seat = state.current_player
        bot_turn(state, seats[seat], labels[seat], seat)
    result = state.outcome
    if not trace:
        result = MatchResult(**{**result.__dict__, "events": None})
    return result


def _one_name(bots: Any, players: int) -> Any:
    """One name for every seat as that name (the same match, on the fast path); else
    ``bots`` as given."""
    if isinstance(bots, (list, tuple)) and len(bots) == players and len(set(bots)) == 1 \
            and isinstance(bots[0], str):
        return bots[0]
    return bots


def _builtin_seats(game: Game, players: int, seed: int, bots: str) -> tuple | None:
    """(uniform words, their continuation, policies) when ``bots`` names one builtin bot
    with a fast policy for every seat, else None. A uniform bot (``random``) gets no bot
    object: the engine makes its pick on the seat's words (``engine.streams``)."""
    cls = _FAST.get(bots) or resolve(bots)
    if not (isinstance(cls, type) and hasattr(cls, "policy")) or game.rules.layout is not None \
            or game.rules.several is not None:
        return None
    _FAST[bots] = cls
    if vars(cls).get("uniform_pick", False):  # not a subclass that may differ
        return seat_first(seed, players), partial(seat_rest, seed), None
    return None, None, [fast_policy(construct(cls, s, rng, bots), game, bots, s)
                        for s, rng in enumerate(seat_streams(seed, players))]


def _play_fast(game: Game, players: int, seed: int, uniform: list | None, more: Any,
               policies: list | None, record: bool | str, start_scores: Sequence[int] | None,
               max_rounds: int, kernel: bool = True) -> Any:
    """A match whose every seat decides in the engine: the ruleset's kernel, or the match
    loop (``kernel`` False); ``record="text"`` (kernel only) gives (result, record text)."""
    if kernel:
        return kernels.kernel_for(game, players, record, uniform=uniform is not None)(
            seed, uniform, more, policies, start_scores, max_rounds)
    core = GeneralLoop(game, players, seed, list(uniform) if uniform is not None else policies,
                       uniform=uniform, more=more, record=record,
                       start_scores=start_scores, max_rounds=max_rounds)
    for _ in core.run():
        raise RuntimeError("a fast policy is missing")  # pragma: no cover
    return core.result


def _kernel_match(game: Game, players: int, seed: int, bots: str, record: bool | str,
                  start_scores: Sequence[int] | None, max_rounds: int) -> Any:
    """The match played by the ruleset's Python kernel when ``bots`` names a builtin bot
    with a fast policy, else None; ``record="text"`` gives ``(result, record text)``."""
    found = _builtin_seats(game, players, seed, bots)
    if found is None:
        return None
    return _play_fast(game, players, seed, *found, record, start_scores, max_rounds)


def _play_deciding(game: Game, players: int, seed: int, policies: list, deciders: list,
                   trace: bool, start_scores, max_rounds: int, kernel: bool = True
                   ) -> MatchResult:
    """A match whose seats all have a fast policy or a builtin ``decider``: the engine's
    decisions go straight to the deciders, without State, Observations or Actions (a
    decider reads the public record, so the match is recorded even when not traced).
    Deciders that bind to the match as policies play on the ruleset's kernel."""
    if kernel and kernels.covers(game) and all(
            d is None or hasattr(d, "bind") for d in deciders):
        view = MatchView()   # the kernel keeps its record and hands; a seat sees its own
        bound = [d.bind(view.seat(s)) if d is not None else p
                 for s, (p, d) in enumerate(zip(policies, deciders, strict=True))]
        play = kernels.kernel_for(game, players, True, uniform=False, view=True)
        result = play(seed, None, None, bound, start_scores, max_rounds, view)
        if not trace:
            result.__dict__["events"] = None
        return result
    core = GeneralLoop(game, players, seed, list(policies), record=True,
                       start_scores=start_scores, max_rounds=max_rounds)
    view = LoopView(core)
    for s, decide in enumerate(deciders):
        if decide is not None and hasattr(decide, "bind"):   # it can answer as a policy
            core.policies[s] = decide.bind(view.seat(s))
    run = core.run()
    rec = core.rec
    try:
        decision = next(run)
        while True:
            decision = run.send(deciders[decision.player](decision, rec))
    except StopIteration:
        pass
    result = core.result
    if not trace:
        result = MatchResult(**{**result.__dict__, "events": None})
    return result


def _bot_labels(bots: Any, seats: list) -> list[str]:
    """What to call each seat's bot in an error: its spec when given as text."""
    specs = seat_bots(_spec_list(bots), len(seats))
    from .bots.guard import shown

    return [spec if isinstance(spec, str) else getattr(spec, "__qualname__", None) or shown(bot)
            for spec, bot in zip(specs, seats, strict=True)]


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C during ``simulate``: ``matches`` whole matches were played (and recorded);
    ``summary`` is ``simulate``'s summary of the whole matches tallied (None: none), made
    from ``tallies`` (theirs and their count) once they reach ``simulate``."""

    def __init__(self, matches: int, summary: dict[str, Any] | None = None,
                 tallies: tuple | None = None):
        super().__init__(matches)
        self.matches = matches
        self.summary = summary
        self.tallies = tallies


def simulate(game: Game, players: int, matches: int, seed: int, bots: Any = "random",
             trace_path: str | None = None, engine: str = "auto",
             progress: Callable[[int, int], None] | None = None,
             background: bool = False) -> dict[str, Any]:
    """Play ``matches`` matches (seeds ``match_seed(seed, i)``) and summarize them.

    With ``trace_path`` every match's record is written there (JSON Lines). ``engine``
    (``kernel.engines``): the summary is the same whichever plays; ``summary["engine"]``
    says which did. ``background`` (the CLI's choice): where ``auto`` takes the JIT but the
    kernel is not compiled yet, the Python engine starts at once while it compiles in
    another process, and the JIT plays the rest once it is ready (``"python+jit"``;
    ``kernel.background``). ``progress(done, matches)`` is called as matches finish. The
    summary's ``squares`` (per-match sums of squares and products of rounds, blocked
    rounds and draws) give the intervals of its rates (``explore.simulate_report``).
    """
    game.check_players(players)
    chosen = engines.choose(game, players, bots, engine, trace=trace_path is not None,
                            matches=matches)
    aside = None
    if chosen == "jit" and engine == "auto" and background:
        from .kernel import background as compiling

        aside = compiling.start([(game, players)])
    if chosen == "jit" and aside is None:
        try:
            return _summary(game, players, matches, seed, bots, _simulate_jit(
                game, players, matches, seed, bots, progress, trace_path), "jit")
        except SimulationInterrupted as stop:
            raise SimulationInterrupted(stop.matches, _partial(
                game, players, seed, bots, stop.tallies, "jit")) from None
    # a large buffer: a write per match (whole matches survive Ctrl-C: closing flushes them)
    # without a system call per match
    out = (open(trace_path, "w", encoding="utf-8", buffering=1 << 20)  # noqa: SIM115
           if trace_path else None)
    written = [0]   # the matches whose record is in the file
    played = [0]    # the matches played
    # the tallies of the whole matches so far and their count, replaced in one step a match
    kept: list[Any] = [None]
    label = "python"

    def sink(text: str, count: int) -> None:
        out.write(text)
        written[0] += count

    try:
        tallies, switch = _python_tallies(game, players, matches, seed, bots, progress, out,
                                          written, played, kept, aside)
        if switch is not None:   # the kernel is ready: the JIT plays the rest
            label = "python+jit"
            try:
                rest = _jit_tallies(game, players, matches, seed, bots, progress,
                                    sink if out is not None else None, switch)
            except SimulationInterrupted as stop:   # the Python part's and the JIT's
                if stop.tallies is not None:
                    kept[0] = (tuple(_added(a, b) for a, b in
                                     zip(tallies, stop.tallies[0], strict=True)),
                               stop.tallies[1])
                raise
            tallies = tuple(_added(a, b) for a, b in zip(tallies, rest, strict=True))
    except (KeyboardInterrupt, SimulationInterrupted) as stop:
        if aside is not None:
            aside.stop()
        done = stop.matches if isinstance(stop, SimulationInterrupted) else played[0]
        raise SimulationInterrupted(written[0] if out is not None else done, _partial(
            game, players, seed, bots, kept[0], label)) from None
    except BaseException:
        if aside is not None:
            aside.stop()
        raise
    finally:
        if out is not None:
            out.close()
    if aside is not None:
        aside.leave()
    return _summary(game, players, matches, seed, bots, tallies, label)


def _added(a: Any, b: Any) -> Any:
    """Two tallies summed: numbers, or lists of them item by item."""
    return [x + y for x, y in zip(a, b, strict=True)] if isinstance(a, list) else a + b


def _python_tallies(game: Game, players: int, matches: int, seed: int, bots: Any,
                    progress: Callable[[int, int], None] | None, out: Any,
                    written: list[int], played: list[int], kept: list[Any], aside: Any
                    ) -> tuple[tuple, Any]:
    """(tallies, None) of a run played by the Python engine, its records written to
    ``out``; with ``aside`` (a kernel compiling in the background), the tallies so far
    and the index the JIT goes on from once it is ready. ``kept[0]``: the tallies of the
    whole matches played and their count, for an interrupted run's summary."""
    from .record_lines import encode_events

    wins = [0] * len(game.teams(players))
    drawn_matches = rounds = blocked = draws = capped = 0
    squares = [0] * len(SQUARES)
    every = max(1, matches // 200)
    one = _one_name(bots, players)
    text = out is not None and isinstance(one, str)
    switch = None
    for i in range(matches):
        if aside is not None and i % 64 == 0 and aside.ready(game, players):
            switch = i
            break
        found = (_kernel_match(game, players, match_seed(seed, i), one, "text", None,
                               MAX_ROUNDS) if text else None)
        if found is not None:   # the kernel writes the record's text as it plays
            result, lines = found
            out.write(lines)
            written[0] = i + 1
        else:
            result = play_match(game, players, match_seed(seed, i), bots,
                                trace=out is not None)
            if out is not None:  # one write a match: Ctrl-C leaves whole matches only
                out.write(encode_events(result.events))
                written[0] = i + 1
        played[0] = i + 1
        if result.capped:
            capped += 1
        elif result.winner is None:
            drawn_matches += 1
        else:
            wins[result.winner] += 1
        mr = len(result.rounds)
        mb = sum(r.result == "blocked" for r in result.rounds)
        md = sum(r.draws for r in result.rounds)
        rounds += mr
        blocked += mb
        draws += md
        for k, v in enumerate((mr * mr, mb * mb, md * md, mr * mb, mr * md)):
            squares[k] += v
        kept[0] = ((list(wins), drawn_matches, capped, rounds, blocked, draws,
                    list(squares)), i + 1)
        if progress is not None and (i + 1) % every == 0:
            progress(i + 1, matches)
    return (wins, drawn_matches, capped, rounds, blocked, draws, squares), switch


SEED_BLOCK = 1 << 20   # match seeds the JIT run derives at a time
# a summary's per-match sums of squares and products, in this order
SQUARES = ("rounds2", "blocked2", "draws2", "rounds_blocked", "rounds_draws")


def _simulate_jit(game: Game, players: int, matches: int, seed: int, bots: Any,
                  progress: Callable[[int, int], None] | None = None,
                  trace_path: str | None = None) -> tuple:
    """(wins, drawn, capped, rounds, blocked, draws, squares) of a run, played by the JIT
    in batches; with ``trace_path`` their record is written there as the JIT makes it."""
    out = (open(trace_path, "w", encoding="utf-8", buffering=1 << 20)  # noqa: SIM115
           if trace_path else None)
    written = [0]   # the matches whose record is in the file

    def sink(text: str, played: int) -> None:
        out.write(text)
        written[0] += played

    try:
        return _jit_tallies(game, players, matches, seed, bots, progress,
                            sink if out is not None else None)
    except SimulationInterrupted as stop:   # the file holds whole matches only
        raise SimulationInterrupted(written[0] if out is not None else stop.matches,
                                    tallies=stop.tallies) from None
    finally:
        if out is not None:
            out.close()


def _jit_tallies(game: Game, players: int, matches: int, seed: int, bots: Any,
                 progress: Callable[[int, int], None] | None, sink: Any,
                 first: int = 0) -> tuple:
    """``_simulate_jit``'s tallies of matches ``first`` to ``matches``; ``sink`` gets the
    record's text (``JitKernel.run``)."""
    import numpy as np

    from .kernel.jit_template import MATCH_COLUMNS, ROUND_COLUMNS
    from .kernel.seeds import match_seeds

    winner, capped_col = MATCH_COLUMNS.index("winner"), MATCH_COLUMNS.index("capped")
    result_col, draws_col = ROUND_COLUMNS.index("result"), ROUND_COLUMNS.index("draws")
    sides = len(game.teams(players))
    wins = np.zeros(sides, np.int64)
    drawn = capped = rounds = blocked = draws = 0
    done = first
    squares = [0] * len(SQUARES)
    rounds_col = MATCH_COLUMNS.index("rounds")
    kept = None   # the tallies of the whole batches so far, replaced in one step a batch
    try:
        for start in range(first, matches, SEED_BLOCK):   # never every seed at once: 8 bytes each
            seeds = match_seeds(seed, start, min(start + SEED_BLOCK, matches))
            for chunk, m, r in engines.jit_batches(game, players, seeds, bots, MAX_ROUNDS,
                                                   sink=sink):
                cap = m[:, capped_col] != 0
                won = m[:, winner]
                wins += np.bincount(won[(won >= 0) & ~cap], minlength=sides)
                drawn += int(((won < 0) & ~cap).sum())
                capped += int(cap.sum())
                rounds += len(r)
                blocked += int((r[:, result_col] == 1).sum())
                draws += int(r[:, draws_col].sum())
                done += len(chunk)
                per = m[:, rounds_col].astype(np.int64)      # each match's rows, in order
                which = np.repeat(np.arange(len(per)), per)
                mb = np.bincount(which, (r[:, result_col] == 1),
                                 len(per)).round().astype(np.int64)
                md = np.bincount(which, r[:, draws_col], len(per)).round().astype(np.int64)
                for k, v in enumerate((per * per, mb * mb, md * md, per * mb, per * md)):
                    squares[k] += int(v.sum())
                kept = ((wins.tolist(), drawn, capped, rounds, blocked, draws,
                         list(squares)), done)
                if progress is not None:
                    progress(done, matches)
    except KeyboardInterrupt:
        raise SimulationInterrupted(done, tallies=kept) from None
    return wins.tolist(), drawn, capped, rounds, blocked, draws, squares


def _partial(game: Game, players: int, seed: int, bots: Any, kept: Any, engine: str
             ) -> dict[str, Any] | None:
    """The summary of an interrupted run's whole matches (``kept``: their tallies and
    count), as ``simulate`` gives a finished one's; None when no match was finished."""
    if not isinstance(kept, tuple) or not kept[1]:
        return None
    tallies, done = kept
    return _summary(game, players, done, seed, bots, tallies, engine)


def _bot_text(bot: Any) -> str:
    from .bots.guard import shown

    return shown(bot, str)


def _summary(game: Game, players: int, matches: int, seed: int, bots: Any, tallies: tuple,
             engine: str) -> dict[str, Any]:
    wins, drawn_matches, capped, rounds, blocked, draws, squares = tallies
    return {
        "ruleset": game.ref, "players": players, "matches": matches, "seed": seed,
        "bots": bots if isinstance(bots, str) else [_bot_text(b) for b in bots],
        "teams": [list(t) for t in game.teams(players)], "wins": wins,
        "drawn_matches": drawn_matches, "capped_matches": capped, "max_rounds": MAX_ROUNDS,
        "rounds": rounds, "mean_rounds_per_match": rounds / matches if matches else 0.0,
        "blocked_rate": blocked / rounds if rounds else 0.0,
        "mean_draws_per_round": draws / rounds if rounds else 0.0,
        "blocked_rounds": blocked, "draws": draws,
        "squares": dict(zip(SQUARES, squares, strict=True)),
        "engine": engine,
    }
