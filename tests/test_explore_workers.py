"""No worker process outlives ``compare``: not on Ctrl-C, SIGTERM or SIGKILL of the parent,
not while a worker is stuck inside a slow bot. And ``--workers``/``--scheduler`` are
checked as usage errors before anything starts.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from children import default_sigint

ROOT = Path(__file__).resolve().parent.parent

SLEEPER = '''
import os
import time


class Sleeper:
    """Stuck in its first move: tells the test where it is, then sleeps for an hour."""

    def __init__(self, seat, rng):
        pass

    def choose(self, obs, legal):
        open(os.path.join(os.environ["STUCK_DIR"], str(os.getpid())), "w").close()
        time.sleep(3600)
'''

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc (Linux)")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _wait(condition, seconds: float = 30.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


@pytest.fixture()
def stuck(tmp_path):
    """A compare whose two workers are both stuck in a bot; yields (process, worker pids)."""
    (tmp_path / "sleepy.py").write_text(SLEEPER)
    marks = tmp_path / "stuck"
    marks.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
           "STUCK_DIR": str(marks)}
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "compare", "pagat", "hoyle",
                             "--matches", "8", "--batch-size", "2", "--workers", "2",
                             "--no-skill", "--bots", "sleepy:Sleeper"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint)   # (an xdist worker ignores SIGINT)
    assert _wait(lambda: len(os.listdir(marks)) == 2), "the workers never reached the bot"
    workers = [int(p) for p in os.listdir(marks)]
    yield proc, workers
    for pid in [proc.pid, *workers]:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    proc.communicate()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_or_sigterm_ends_workers_stuck_in_a_bot_at_once(stuck, sig):
    proc, workers = stuck
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == (130 if sig == signal.SIGINT else 143)
    assert "Traceback" not in err
    assert err.splitlines()[-1] == ("interrupted: the numbers above cover the matches "
                                    "finished before "
                                    + ("Ctrl-C" if sig == signal.SIGINT else "SIGTERM"))
    assert _wait(lambda: not any(map(_alive, workers)))


def test_workers_end_when_the_parent_is_killed(stuck):
    proc, workers = stuck
    proc.kill()
    proc.wait(timeout=30)
    assert _wait(lambda: not any(map(_alive, workers)))


@pytest.mark.parametrize("args, says", [
    (["--workers", "100000"], "error: --workers 100000 is more than this machine can use: "
     "at most {most} (four per core)"),
    (["--scheduler", "not an address"], "error: --scheduler 'not an address' is not a "
     "scheduler address"),
    (["--scheduler", "tcp://localhost:99999"], "error: --scheduler 'tcp://localhost:99999' "
     "is not a scheduler address"),
])
def test_workers_and_scheduler_are_usage_errors(args, says):
    from click.testing import CliRunner

    from cli import main
    from dominorules.explore.runner import max_workers

    result = CliRunner().invoke(main, ["compare", "pagat", "dutch", *args])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == says.format(most=max_workers())
