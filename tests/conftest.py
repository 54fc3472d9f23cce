"""The suite runs in parallel by default: ``python -m pytest`` starts one pytest-xdist
worker per usable CPU (at most ``MAX_WORKERS``), because the whole suite on one core
takes about ten minutes and CI has two cores.

Set here rather than as ``-n`` in ``addopts`` so that every other way of running still
works as it did: ``-n 0`` or ``-p no:xdist`` runs in one process, a checkout without
pytest-xdist runs serially instead of failing on an unknown option, ``-n N`` and
``--dist`` given on the command line win, and one test file (``python -m pytest
tests/test_x.py``), ``-s`` (prints shown as they happen) and ``--pdb`` run in one
process as before.
"""

from __future__ import annotations

import os

import pytest

# Past a handful of workers the wall time is the longest file (tests/test_kernel_jit_
# strategist.py, about 15% of the suite's time in the first parallel runs: past 7 workers
# it sets the wall time), while each worker costs a second of startup, its collection and
# its own compiles of the kernels it meets: more only loads the machine.
MAX_WORKERS = 8
# each test file goes to one worker: its module-level setup (games compiled, kernels
# built, fixtures of module scope) is made once, as in a serial run
DIST = "loadfile"
# test files that compile the same slow kernel go to one worker, one after another, as
# if they were one file: the first compiles it, the next load it from the cache. Run
# side by side, the second waited on the first's compile lock (jit_kernel.first_compile)
# with its core idle: some three minutes of the suite's wall time in a cold run (the
# house-rule kernel, the house rules' strategist and the wide kernel for sets over 62
# tiles, which every file here compiles or loads first)
KERNEL_GROUPS = {
    "house-kernel": ("test_kernel_jit_house.py", "test_kernel_jit_strategist.py"),
    "wide-kernel": ("test_kernel_jit_gen_wide.py", "test_kernel_jit_records.py",
                    "test_kernel_jit_records_deal.py", "test_kernel_jit_wide.py",
                    "test_kernel_jit_wide_board.py", "test_kernel_jit_wide_declare.py",
                    "test_kernel_jit_wide_facts.py", "test_kernel_jit_wide_layout.py"),
}
GROUP_OF = {f"tests/{name}": group for group, names in KERNEL_GROUPS.items()
            for name in names}
# a worker starts with COLUMNS=80 and LINES=24 in its environment whatever the run's were
# (the tests of output widths then see an 80-column terminal): each gets the run's back
TERMINAL = ("COLUMNS", "LINES")


def _workers() -> int:
    """``$PYTEST_XDIST_AUTO_NUM_WORKERS`` (pytest-xdist's own knob for ``-n auto``) when
    set, else the CPUs this process may run on (its affinity, not the machine's count),
    at most ``MAX_WORKERS``."""
    asked = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    if asked.strip().isdigit():
        return int(asked)
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:            # macOS, Windows
        usable = os.cpu_count() or 1
    return min(usable, MAX_WORKERS)


def _one_file(config: pytest.Config) -> bool:
    """The command line names tests of a single file (or a single doctest module)."""
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        return False
    files = {arg.split("::", 1)[0] for arg in config.args}
    return len(files) == 1 and next(iter(files)).endswith(".py")


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Turn on pytest-xdist (before it reads its options) when the command line left it
    off: not inside a worker, not with ``--dist``, ``-s`` or ``--pdb`` given, not for one
    file; with ``-n N`` alone, still one worker a file."""
    if (os.environ.get("PYTEST_XDIST_WORKER") is not None
            or not config.pluginmanager.hasplugin("xdist") or config.option.dist != "no"):
        return
    if config.option.numprocesses is not None:
        config.option.dist = DIST
        return
    if (config.getoption("usepdb", False) or config.option.collectonly
            or config.getoption("capture", "fd") == "no" or _one_file(config)):
        return
    workers = _workers()
    if workers > 1:
        config.option.numprocesses = workers
        config.option.dist = DIST


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """(In the run, for each worker it starts) hand the worker the run's ``TERMINAL``."""
    node.workerinput["terminal"] = {name: os.environ.get(name) for name in TERMINAL}


def pytest_configure(config: pytest.Config) -> None:
    """(In a worker) put back the run's ``TERMINAL``, as a serial run sees it."""
    terminal = getattr(config, "workerinput", {}).get("terminal")
    for name, value in (terminal or {}).items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """(In the run) one file a worker, as ``--dist loadfile``, but the files of one
    ``KERNEL_GROUPS`` entry as one unit."""
    if config.getvalue("dist") != DIST:
        return None
    from xdist.scheduler import LoadFileScheduling

    class FileOrKernelScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            file = super()._split_scope(nodeid)
            return GROUP_OF.get(file, file)

    return FileOrKernelScheduling(config, log)
