"""A first auto run starts on the Python engine while its kernel compiles in another
process, and its numbers are those of a run on either engine alone.

One test pays a real compile (pagat's plain kernel, from a fresh cache, through the CLI);
the others put a stand-in in the compile's place (``Aside``: ready from its n-th question
on) to move a run to the JIT at a known batch, on the kernel other tests compile anyway,
or run the real ``Compile`` on a tiny child that plays a compile's part.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("numba")

from dominorules import api  # noqa: E402 - needs numba
from dominorules.explore.compare import CompareSettings, compare  # noqa: E402
from dominorules.explore.report import to_json  # noqa: E402
from dominorules.explore.runner import ProcessBackend, SerialBackend  # noqa: E402
from dominorules.explore.worker import run_batch  # noqa: E402
from dominorules.kernel import background, engines  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


class Aside:
    """A compile's stand-in: ready from its ``after``-th question on (None: never)."""

    def __init__(self, after: int | None):
        self.after, self.asked, self.ended = after, 0, []

    def ready(self, game, players) -> bool:
        self.asked += 1
        return self.after is not None and self.asked >= self.after

    def stop(self) -> None:
        self.ended.append("stop")

    def leave(self) -> None:
        self.ended.append("leave")


@pytest.fixture
def aside(monkeypatch):
    """Runs of 300 matches or more are long enough for auto's JIT; ``aside.after`` sets
    when the stand-in compile is ready."""
    monkeypatch.setattr(engines, "AUTO_MIN_MATCHES", 300)
    made = Aside(3)
    monkeypatch.setattr(background, "start", lambda jobs: made)
    return made


def _gone(pid: int) -> bool:
    """The process has ended (a zombie left to a parent that does not reap counts too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


def test_a_first_auto_run_starts_on_python_and_the_next_finds_the_kernel(tmp_path):
    """From a fresh cache: the run starts on the Python engine at once, says so, leaves the
    compile to finish, and gives the python engine's summary; the next run is on the JIT,
    silent, with the same summary, and the compile left no temporary file behind."""
    env = {**os.environ, "DOMINORULES_CACHE": str(tmp_path / "cache")}
    env.pop("DOMINORULES_NO_JIT", None)
    args = [sys.executable, str(ROOT / "cli.py"), "simulate", "pagat", "--players", "3",
            "--matches", "10000", "--json"]
    first = subprocess.run(args, env=env, text=True, capture_output=True, timeout=600)
    assert first.returncode == 0, first.stderr
    said = first.stderr.splitlines()
    assert said[0] == (f"engine auto: compiling the JIT kernel for pagat in the background "
                       f"(once; kept in {tmp_path}/cache/kernels); the python engine plays "
                       "meanwhile")
    summary = json.loads(first.stdout)
    del summary["intervals"]   # the CLI's, from the summary's numbers
    if summary["engine"] == "python":   # the run ended first (10,000 matches: some seconds)
        assert len(said) == 2 and said[1].startswith(
            "engine auto: the run ended before the JIT kernel for pagat was compiled; its "
            "compile goes on in the background (process ")
        pid = int(said[1].split("(process ")[1].split(")")[0])
        deadline = time.monotonic() + 600
        while not _gone(pid):
            assert time.monotonic() < deadline, "the compile never ended"
            time.sleep(0.5)
    else:   # a fast machine: compiled while the run went on
        assert summary["engine"] == "python+jit"
        assert said[1].startswith("engine auto: the JIT kernel for pagat is compiled (")
    python = api.simulate(api.load_game("pagat"), 3, 10_000, 1, ["random"] * 3,
                          engine="python")
    assert python.pop("engine") == "python"
    assert {**summary, "engine": None} == {**python, "engine": None}
    second = subprocess.run(args, env=env, text=True, capture_output=True, timeout=600)
    assert (second.returncode, second.stderr) == (0, "")
    again = json.loads(second.stdout)
    del again["intervals"]
    assert again == {**python, "engine": "jit"}
    left = [p.name for p in (tmp_path / "cache").rglob("*") if ".tmp" in p.name]
    assert left == []


@pytest.mark.parametrize(("after", "engine", "asked"), [(3, "python+jit", 3),
                                                        (None, "python", 7)])
def test_simulate_moves_to_the_jit_once_ready_and_keeps_summary_and_record(
        aside, tmp_path, after, engine, asked):
    """Asked every 64 matches, ready at the third question: matches 0-127 on Python, the
    rest on the JIT; the summary and the record are the python engine's, byte for byte.
    Never ready (a failed compile), the whole run stays on Python."""
    aside.after = after
    game = api.load_game("pagat")
    mixed = api.simulate(game, 3, 400, 7, trace_path=str(tmp_path / "mixed.jsonl"),
                         background=True)
    plain = api.simulate(game, 3, 400, 7, trace_path=str(tmp_path / "python.jsonl"),
                         engine="python")
    assert (mixed.pop("engine"), plain.pop("engine")) == (engine, "python")
    assert mixed == plain
    assert (tmp_path / "mixed.jsonl").read_bytes() == (tmp_path / "python.jsonl").read_bytes()
    assert (aside.asked, aside.ended) == (asked, ["leave"])


def test_simulate_without_background_never_asks(aside):
    """The library's auto compiles first, as a script expects (``background`` is the CLI's)."""
    assert api.simulate(api.load_game("pagat"), 3, 300, 7)["engine"] == "jit"
    assert aside.asked == 0


def test_ctrl_c_stops_the_compile_and_keeps_the_matches_played(aside):
    aside.after = None

    def progress(done: int, total: int) -> None:
        if done == 100:
            raise KeyboardInterrupt

    with pytest.raises(api.SimulationInterrupted) as stop:
        api.simulate(api.load_game("pagat"), 3, 20_000, 7, progress=progress,
                     background=True)
    assert (stop.value.matches, aside.ended) == (100, ["stop"])


@pytest.mark.parametrize("workers", [1, 2])
def test_compare_moves_to_the_jit_between_batches_and_its_numbers_stay(aside, workers):
    """Ready at the third batch handed out: the first two play on Python, the rest on the
    JIT (one worker: seen batch by batch); the numbers are the python engine's, for one
    worker or two, however the batches finish."""
    seen: list[str] = []

    def played(spec):
        seen.append(spec.engine)
        return run_batch(spec)

    def numbers(engine: str, backend) -> dict:
        s = CompareSettings(("pagat",), 3, 400, 4, skill_bots=("greedy", "random"),
                            batch_size=50, engine=engine, background=True)
        out = to_json(compare(s, backend))
        del out["run"]
        return out

    mixed = numbers("auto", SerialBackend(played) if workers == 1 else ProcessBackend(2))
    assert mixed == numbers("python", SerialBackend())
    assert aside.ended == ["leave"]
    if workers == 1:
        assert seen == ["python"] * 2 + ["auto"] * 14


def _compile(code: str):
    """The real ``Compile`` on a child running ``code``, its kernel named ``k`` (for the
    game ``"g"`` at 3 players)."""
    return background.Compile({"k": ["pagat"]}, {("g", 3): "k"}, [sys.executable, "-c", code])


@pytest.fixture
def said(monkeypatch):
    lines: list[str] = []
    moves: list[int] = []
    monkeypatch.setattr(background, "notice", lines.append)
    monkeypatch.setattr(background, "moved", lambda: moves.append(1))
    return lines, moves


def _wait_ready(job, game="g") -> bool:
    deadline = time.monotonic() + 60
    while job.process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return job.ready(game, 3)


def test_a_compiled_kernel_is_said_once_and_moves_the_bar(said):
    lines, moves = said
    job = _compile("print('done k', flush=True)")
    assert _wait_ready(job) and job.ready("g", 3)
    assert job.ready("another game", 3)          # not this child's: the JIT may play it
    assert len(lines) == 2 and lines[1].startswith(
        "engine auto: the JIT kernel for pagat is compiled (")
    assert lines[1].endswith(" s); the JIT plays the rest of the run") and moves == [1]
    job.leave()
    assert len(lines) == 2                       # it had ended: nothing more to say


@pytest.mark.parametrize(("code", "why"), [
    ("import sys; print('failed numba could not lower this', flush=True); sys.exit(1)",
     "numba could not lower this"),
    ("import os; os._exit(3)", "its process ended with code 3")])
def test_a_failed_compile_is_said_once_and_python_goes_on(said, code, why):
    lines, moves = said
    job = _compile(code)
    assert not _wait_ready(job) and not job.ready("g", 3)
    assert lines[1:] == [f"engine auto: the background compile of the JIT kernel failed "
                         f"({why}); the python engine plays the rest of the run"]
    assert moves == []
    job.leave()


def test_stop_ends_the_child_at_once(said):
    job = _compile("import time; time.sleep(60)")
    t0 = time.monotonic()
    job.stop()
    assert job.process.returncode is not None and time.monotonic() - t0 < 5


def test_a_run_that_ends_first_leaves_the_child_to_finish_and_reaps_it(said):
    lines, _ = said
    job = _compile("import time; time.sleep(0.5)")
    job.leave()
    assert lines[1] == ("engine auto: the run ended before the JIT kernel for pagat was "
                        "compiled; its compile goes on in the background (process "
                        f"{job.process.pid}), so the next run starts on the JIT")
    deadline = time.monotonic() + 30
    while background._LEFT and time.monotonic() < deadline:
        time.sleep(0.05)
    assert background._LEFT == [] and job.process.returncode == 0   # reaped: no zombie


def test_the_child_says_why_in_one_line(tmp_path, capsys):
    missing = str(tmp_path / "gone.yaml")
    assert background.main([[missing, 3, "k"]]) == 1
    out = capsys.readouterr().out
    assert out.startswith("failed ") and out.count("\n") == 1 and "gone.yaml" in out


def test_nothing_to_compile_aside_for_a_cached_kernel():
    game = api.load_game("pagat")
    engines.compile_now(game, 3)                 # the kernel other tests compile too
    assert engines.on_disk(game, 3) is True
    assert background.start([(game, 3)]) is None


def test_the_bar_forgets_the_python_rate_as_the_jit_takes_over(monkeypatch):
    """Time left follows the JIT's rate at once: the bar's speed samples start again at the
    switch, its count kept."""
    import io

    from rich.console import Console
    from rich.progress import Progress

    import cli

    monkeypatch.setattr(background, "moved", None)
    clock = iter(range(100)).__next__
    bar = Progress(console=Console(file=io.StringIO()), get_time=lambda: float(clock()))
    task = bar.add_task("simulating", total=1000)
    for done in (100, 200, 300):
        bar.update(task, completed=done)
    assert bar.tasks[0].speed == 100.0
    cli._rate_restarts_when_the_jit_takes_over({"bar": bar, "task": task})
    background.moved()
    assert (bar.tasks[0].speed, bar.tasks[0].completed, bar.tasks[0].total) == (None, 300, 1000)
    for done in (600, 900):            # the JIT's 300 matches a tick, alone
        bar.update(task, completed=done)
    assert bar.tasks[0].speed == 300.0
