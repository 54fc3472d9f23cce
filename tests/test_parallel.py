"""The default run is parallel (``tests/conftest.py``): ``python -m pytest`` on the suite
starts pytest-xdist workers, while one file, ``-p no:xdist`` and ``-n 0`` run in one
process, as a developer running one file or a debugger expects."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# each test writes the worker that ran it ("main": no worker) and the COLUMNS it sees (a
# worker once saw 80 whatever the run's were) to a file named after it
PROBE = """import os, pathlib
def test_{name}():
    pathlib.Path(os.environ["SEEN"], "{name}").write_text(
        os.environ.get("PYTEST_XDIST_WORKER", "main") + " " + os.environ.get("COLUMNS", "-"))
"""


def _seen(project: Path, *args: str) -> dict[str, str]:
    """Which worker ran each probe in a pytest run of ``project`` with ``args``."""
    seen = project / "seen"
    shutil.rmtree(seen, ignore_errors=True)
    seen.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(SEEN=str(seen), PYTEST_XDIST_AUTO_NUM_WORKERS="2", COLUMNS="123")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-p", "no:hypothesispytest",
                          *args], cwd=project, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    return {p.name: p.read_text() for p in seen.iterdir()}


def test_the_suite_runs_on_workers_and_one_file_in_one_process(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\ntestpaths = tests\n")
    tests = tmp_path / "tests"
    tests.mkdir()
    shutil.copy(HERE / "conftest.py", tests / "conftest.py")
    for name in ("a", "b"):
        (tests / f"test_{name}.py").write_text(PROBE.format(name=name))
    everything = _seen(tmp_path)
    assert set(everything) == {"a", "b"}
    assert all(seen.startswith("gw") and seen.endswith(" 123")
               for seen in everything.values()), everything
    assert _seen(tmp_path, "tests/test_a.py") == {"a": "main 123"}
    assert _seen(tmp_path, "-p", "no:xdist") == {"a": "main 123", "b": "main 123"}
    assert _seen(tmp_path, "-n", "0") == {"a": "main 123", "b": "main 123"}
