"""A first run's JIT kernels compiled in a process of their own while the Python engine plays.

``--engine auto`` takes the JIT for a long run; where the ruleset's kernel is not in the
cache yet, numba would hold the run for twenty seconds to a minute. Asked to (the CLI
does), a run starts at once on the Python engine instead, while a child process compiles
the kernel on another core, out of this one's interpreter lock, into numba's cache, where
the run then loads it from; the batches handed out once it is ready play on the JIT. Both
engines play the same matches, and runs sum them in seed order, so the numbers do not
depend on when the switch comes.

A run that ends first leaves the child to finish on its own, so the next run starts on
the JIT at once: numba writes each file of its cache under a temporary name and renames
it, the index and the code under the folder's lock (``jit._SafeIndex``), and a reader
finding an index without its code compiles again, so a child stopped at any moment leaves
nothing that loads wrong. A daemon thread reaps it while this process lives (init does
after), so it never lingers as a zombie. Ctrl-C stops it: the user wants the machine
back. Children hold the kernels folder's lock while they compile, so two runs never
compile at once in one cache: the second waits, then finds the code there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.game import Game

# called with a sentence when a compile starts, when its kernel is ready (the JIT takes
# over), when it fails, and when a run ends before it (the CLI prints it on stderr)
notice: Callable[[str], None] | None = None
# called as the JIT takes over, so a progress bar's time left follows the faster rate
moved: Callable[[], None] | None = None
_LEFT: list[subprocess.Popen] = []   # children a finished run left to finish (reaped)
_CHILD = ("import importlib, json, sys; spec = json.loads(sys.argv[1]); "
          "sys.path[:] = spec['path']; "
          "sys.exit(importlib.import_module(spec['module']).main(spec['jobs']))")


def _tell(text: str) -> None:
    if notice is not None:
        notice(text)


def start(jobs: list[tuple[Game, int]]) -> Compile | None:
    """A compile in the background of the kernels of ``jobs`` (game, players) that are not in
    the cache yet; None when there is none to make there: each is cached (it loads in a
    second), compiles in memory (nothing would be kept), or belongs to a game no other
    process can load again (made in memory); or the system is not POSIX. Those the JIT
    compiles at first use, as it would without this."""
    from . import engines, jit_kernel

    found: dict[str, tuple[str, int]] = {}
    labels: dict[str, list[str]] = {}
    kernels: dict[tuple[Game, int], str] = {}
    for game, players in jobs:
        source = _source(game)
        if source is None or engines.on_disk(game, players) is not False:
            continue
        name = kernels[game, players] = jit_kernel.kernel(game, players).module.__name__
        found.setdefault(name, (source, players))
        if game.ref not in labels.setdefault(name, []):
            labels[name].append(game.ref)
    # the child's lines are read where it writes them (os.pread), its session its own: POSIX
    if not found or not sys.executable or not hasattr(os, "pread"):
        return None
    try:
        return Compile(labels, kernels, _child_argv(found))
    except OSError:   # no process to be had: the JIT compiles at first use
        return None


def _source(game: Game) -> str | None:
    """What a child loads the game from: its file, or its builtin name; None for a game
    made in memory."""
    from ..rules.resources import builtin_paths

    if game.path and os.path.isfile(game.path):
        return game.path
    return game.ref if game.ref in builtin_paths() else None


def _child_argv(jobs: dict[str, tuple[str, int]]) -> list[str]:
    """The child's command: this Python, with this process's import path (the same
    package, however it was found), running ``main`` on the jobs."""
    spec = {"path": sys.path, "module": __name__,
            "jobs": [[source, players, name] for name, (source, players) in jobs.items()]}
    return [sys.executable, "-c", _CHILD, json.dumps(spec)]


class Compile:
    """A child process compiling kernels (``labels``: by module name, the rulesets each is
    for; ``kernels``: the name of each (game, players) that waits for one), asked between
    batches whether a game's is ready (``ready``)."""

    def __init__(self, labels: dict[str, list[str]], kernels: dict[tuple[Game, int], str],
                 argv: list[str]):
        from . import jit_kernel

        self.labels, self.kernels = labels, kernels
        self.done: set[str] = set()
        self.failed: str | None = None
        self.started = time.monotonic()
        self.output = tempfile.TemporaryFile()   # the child's lines: done NAME, failed WHY
        # its own session: a Ctrl-C at the terminal is the run's to handle (``stop``)
        self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self.output,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        _tell(f"engine auto: compiling the JIT kernel for {self._what(labels)} in the "
              f"background (once; kept in {jit_kernel.cache_dir()}); the python engine "
              "plays meanwhile")

    @staticmethod
    def _what(labels: dict[str, list[str]]) -> str:
        return ", ".join(ref for refs in labels.values() for ref in refs)

    def ready(self, game: Game, players: int) -> bool:
        """Whether the JIT may play ``game`` at ``players`` now: its kernel is compiled, or
        was never this child's to compile."""
        name = self.kernels.get((game, players))
        if name is None:
            return True
        self._poll()
        return name in self.done

    def _poll(self) -> None:
        if self.failed is not None or len(self.done) == len(self.labels):
            return
        code = self.process.poll()   # before the lines: once it ended, all of them are there
        text = os.pread(self.output.fileno(), 1 << 16, 0).decode("utf-8", "replace")
        why = None
        for line in text.splitlines():
            kind, _, rest = line.partition(" ")
            if kind == "done" and rest in self.labels and rest not in self.done:
                self.done.add(rest)
                _tell(f"engine auto: the JIT kernel for {', '.join(self.labels[rest])} is "
                      f"compiled ({time.monotonic() - self.started:.0f} s); the JIT plays "
                      "the rest of the run")
                if moved is not None:
                    moved()
            elif kind == "failed":
                why = rest
        if code is not None and len(self.done) < len(self.labels):
            self.failed = why or f"its process ended with code {code}"
            _tell(f"engine auto: the background compile of the JIT kernel failed "
                  f"({self.failed}); the python engine plays the rest of the run")

    def stop(self) -> None:
        """End the child now (Ctrl-C, an error): what it saved is whole, the rest is lost."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.output.close()

    def leave(self) -> None:
        """The run is over: a child still compiling finishes on its own (a thread reaps it),
        so the next run finds its kernel compiled."""
        self.output.close()
        if self.process.poll() is not None:
            return
        waiting = [ref for name, refs in self.labels.items() if name not in self.done
                   for ref in refs]
        _tell(f"engine auto: the run ended before the JIT kernel for {', '.join(waiting)} "
              f"was compiled; its compile goes on in the background (process "
              f"{self.process.pid}), so the next run starts on the JIT")
        _LEFT.append(self.process)
        threading.Thread(target=_reap, args=(self.process,), name="compile-reaper",
                         daemon=True).start()


def _reap(process: subprocess.Popen) -> None:
    process.wait()
    _LEFT.remove(process)


def main(jobs: list[list]) -> int:
    """The child: compile each job's kernel (source, players, module name) in turn, one
    ``done NAME`` line on standard output (a file the run reads, never the terminal) as
    each is in the cache; ``failed WHY`` and 1
    when one cannot be made."""
    from ..diagnostics import DiagnosticError
    from ..engine.game import Game
    from ..rules import load_ruleset
    from . import engines, jit_kernel
    from .cache import locked

    try:
        # every ruleset read first: a run's own files (a sweep's) go when it ends
        games = [(Game(load_ruleset(source).rules), source, players, name)
                 for source, players, name in jobs]
        with locked(jit_kernel.cache_dir(), exclusive=True):   # one compile at a time
            for game, source, players, name in games:
                if jit_kernel.kernel(game, players).module.__name__ != name:
                    raise ValueError(f"{source} changed after the run read it")
                engines.compile_now(game, players)
                print("done", name, flush=True)
    except DiagnosticError as exc:
        print("failed", exc.diagnostics[0].message, flush=True)
        return 1
    except Exception as exc:   # noqa: BLE001 - said in one line; the run goes on in Python
        print("failed", (str(exc).strip().splitlines() or [type(exc).__name__])[0],
              flush=True)
        return 1
    return 0
