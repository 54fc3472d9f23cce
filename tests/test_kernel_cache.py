"""The kernel cache is trusted only when it is safe, and read without ever blocking.

numba's cache is pickled: an index someone else could write runs their code when
loaded. So the cache folder (and each folder up to the cache root) must belong to the
user and not be writable by others, or the JIT compiles in memory; a fixed name in a
shared folder (``$TMPDIR/dominorules-kernels``) is never used. A damaged entry (not
UTF-8, a folder, a FIFO, a link to ``/dev/zero``, a garbage or empty index, truncated
machine code) is compiled again with one notice.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

pytest.importorskip("numba")

from dominorules.kernel import cache, jit_kernel  # noqa: E402 - needs numba

ROOT = Path(__file__).resolve().parent.parent
SOURCE = "X = 1\n"
NAME = "dominorules_kernel_test"


@pytest.fixture
def said(monkeypatch, tmp_path):
    """The notices the JIT gives, with the cache root in ``tmp_path/cache``."""
    lines: list[str] = []
    monkeypatch.setenv("DOMINORULES_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "notice", lines.append)
    monkeypatch.setattr(cache, "_told", set())
    monkeypatch.setattr(jit_kernel, "notice", None)
    return lines


def _damage(path: Path, how: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    if how == "not utf-8":
        path.write_bytes(b"\xff\xfe X = 2\n")
    elif how == "folder":
        (path / "inside").mkdir(parents=True)
    elif how == "fifo":
        os.mkfifo(path)
    elif how == "link to /dev/zero":
        os.symlink("/dev/zero", path)
    elif how == "other text":
        path.write_text("import os; os.system('echo owned')\n")


@pytest.mark.parametrize("how", ["not utf-8", "folder", "fifo", "link to /dev/zero",
                                 "other text"])
def test_a_damaged_kernel_file_is_written_again_with_one_notice(said, tmp_path, how):
    folder = tmp_path / "cache" / "kernels"
    path = folder / f"{NAME}.py"
    _damage(path, how)
    assert jit_kernel._cached_file(NAME, SOURCE) == path     # a FIFO would hang here
    assert path.read_text() == SOURCE and not path.is_symlink()
    # the name is a hash of the source: other text under it is damage too
    assert said == [f"note: damaged entries of the JIT cache in {folder} are compiled again"]


def test_a_cache_root_that_is_a_file_compiles_in_memory_never_in_tmpdir(said, tmp_path,
                                                                        monkeypatch):
    root = tmp_path / "cache"
    root.write_text("a file\n")
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    assert jit_kernel._cached_file(NAME, SOURCE) is None
    assert said == [f"note: the JIT kernel cache {root}/kernels is not used: it cannot be "
                    "made (Not a directory); the kernel is compiled in memory (make the "
                    "folder yours, not writable by others, or set DOMINORULES_CACHE to one "
                    "that is)"]
    assert os.listdir(tmp_path / "tmp") == []


@pytest.mark.parametrize("whose", ["writable by others", "another user's", "parent writable"])
def test_a_cache_folder_others_can_write_is_not_used(said, tmp_path, whose):
    root = tmp_path / "cache"
    folder = root / "kernels"
    folder.mkdir(parents=True)
    planted = folder / f"{NAME}.py"
    planted.write_text("raise SystemExit('planted code ran')\n")
    if whose == "writable by others":
        folder.chmod(0o777)
    elif whose == "parent writable":
        root.chmod(0o777)
    else:
        if os.geteuid() != 0:
            pytest.skip("only root can give a folder to another user")
        os.chown(folder, 65534, -1)
    assert jit_kernel._cached_file(NAME, SOURCE) is None
    why = {"writable by others": "others may write in it",
           "another user's": "it belongs to another user",
           "parent writable": f"{root}: others may write in it"}[whose]
    assert said[0].startswith(f"note: the JIT kernel cache {folder} is not used: {why}; ")
    assert planted.read_text() == "raise SystemExit('planted code ran')\n"   # not read


def test_a_cache_folder_that_cannot_be_written_compiles_in_memory(said, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes in a read-only folder")
    folder = tmp_path / "cache" / "kernels"
    folder.mkdir(parents=True)
    folder.chmod(0o500)
    assert jit_kernel._cached_file(NAME, SOURCE) is None
    assert said[0].startswith(f"note: the JIT kernel cache {folder} cannot be written")


# six cached JIT functions, f<i>(x) = x + i, each decorator on line 4 * i (numba names
# its index files by it: tiny.f1-4, tiny.f2-8, ...)
TINY = "\nfrom dominorules.kernel.jit import njit\n" + "".join(
    f"\n@njit\ndef f{i}(x):\n    return x + {i}\n" for i in range(1, 7))
RUN = textwrap.dedent("""
    import sys
    from dominorules.kernel import cache
    cache.notice = lambda text: print(text, file=sys.stderr)
    import tiny
    print([getattr(tiny, f"f{i}")(1) for i in range(1, 7)])
""")


def _run_tiny(folder: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}
    env.pop("DOMINORULES_NO_JIT", None)
    env.pop("NUMBA_CACHE_DIR", None)
    return subprocess.run([sys.executable, "-c", RUN], cwd=folder, env=env, text=True,
                          capture_output=True, timeout=60)


def test_damaged_numba_cache_entries_are_compiled_again_never_opened_blocking(tmp_path):
    (tmp_path / "tiny.py").write_text(TINY)
    first = _run_tiny(tmp_path)
    assert (first.returncode, first.stdout, first.stderr) == (0, "[2, 3, 4, 5, 6, 7]\n", "")
    cache = tmp_path / "__pycache__"
    (cache / "tiny.f1-4.py311.nbi").write_bytes(b"garbage")              # not a pickle
    (cache / "tiny.f2-8.py311.nbi").write_bytes(b"")                     # empty
    (cache / "tiny.f3-12.py311.nbi").unlink()
    os.mkfifo(cache / "tiny.f3-12.py311.nbi")                            # would block
    code = cache / "tiny.f4-16.py311.1.nbc"
    code.write_bytes(code.read_bytes()[:100])                            # truncated
    (cache / "tiny.f5-20.py311.1.nbc").unlink()
    os.symlink("/dev/zero", cache / "tiny.f5-20.py311.1.nbc")            # never ends
    (cache / "tiny.f6-24.py311.nbi").unlink()
    (cache / "tiny.f6-24.py311.nbi").mkdir()                             # a folder
    again = _run_tiny(tmp_path)
    assert (again.returncode, again.stdout) == (0, "[2, 3, 4, 5, 6, 7]\n")
    assert again.stderr == f"note: damaged entries of the JIT cache in {cache} are " \
                           "compiled again\n"
    healed = _run_tiny(tmp_path)     # the entries were written again
    assert (healed.returncode, healed.stdout, healed.stderr) == (0, "[2, 3, 4, 5, 6, 7]\n", "")


def test_a_numba_cache_others_can_write_is_not_loaded(tmp_path):
    (tmp_path / "tiny.py").write_text(TINY)
    assert _run_tiny(tmp_path).returncode == 0
    cache = tmp_path / "__pycache__"
    marker = tmp_path / "planted-code-ran"
    planted = ("import pickle, numba, os\n"
               "class Evil:\n"
               f"    def __reduce__(self): return (os.system, ('touch {marker}',))\n"
               f"with open('{cache}/tiny.f1-4.py311.nbi', 'wb') as f:\n"
               "    pickle.dump(numba.__version__, f); f.write(pickle.dumps(Evil()))\n")
    subprocess.run([sys.executable, "-c", planted], check=True, timeout=60)
    cache.chmod(0o777)
    run = _run_tiny(tmp_path)
    assert (run.returncode, run.stdout) == (0, "[2, 3, 4, 5, 6, 7]\n")
    assert not marker.exists()
    assert run.stderr.startswith(f"note: not using numba's cache in {cache}: others may "
                                 "write in it; compiling in memory")


def test_auto_goes_on_uncached_with_one_notice_when_the_cache_cannot_be_used(tmp_path):
    """``simulate pagat --matches 10000`` failed when the cache folder could not be made,
    although the user never asked for the JIT (auto chose it)."""
    (tmp_path / "cache").write_text("a file, not a folder\n")
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "DOMINORULES_CACHE": str(tmp_path / "cache"),
           "TMPDIR": str(tmp_path / "tmp")}
    env.pop("DOMINORULES_NO_JIT", None)
    args = [sys.executable, str(ROOT / "cli.py"), "simulate", "pagat", "--matches", "10000",
            "--json"]
    jit_run = subprocess.run(args, env=env, text=True, capture_output=True, timeout=300)
    assert jit_run.returncode == 0, jit_run.stderr
    assert jit_run.stderr.splitlines() == [
        f"note: the JIT kernel cache {tmp_path}/cache/kernels is not used: it cannot be made "
        "(Not a directory); the kernel is compiled in memory (make the folder yours, not "
        "writable by others, or set DOMINORULES_CACHE to one that is)",
        "compiling a JIT kernel (in memory: it is not kept)"]
    assert os.listdir(tmp_path / "tmp") == []       # no dominorules-kernels there
    python = subprocess.run([*args, "--engine", "python"], env=env, text=True,
                            capture_output=True, timeout=300)
    import json
    jit_summary, py_summary = json.loads(jit_run.stdout), json.loads(python.stdout)
    assert jit_summary.pop("engine") == "jit" and py_summary.pop("engine") == "python"
    assert jit_summary == py_summary


def test_the_folders_made_for_the_cache_are_owner_only_whatever_the_umask(said, tmp_path):
    old = os.umask(0o002)           # Debian's user-private-group umask: folders 775
    try:
        assert jit_kernel._cached_file(NAME, SOURCE) is not None
    finally:
        os.umask(old)
    for folder in (tmp_path / "cache", tmp_path / "cache" / "kernels"):
        assert folder.stat().st_mode & 0o777 == 0o700
    assert said == []


def test_a_numba_cache_entry_is_never_read_half_saved(tmp_path):
    """numba saves a function's index, then its machine code: another process (a
    pytest-xdist worker, a compare worker) loading in between got the code an older
    source had left under that name. A save holds the folder's lock; a load waits."""
    from dominorules.kernel import jit
    if jit.numba is None:
        pytest.skip("DOMINORULES_NO_JIT is set")
    folder = str(tmp_path)
    jit._SafeIndex(folder, "f", "old source").save("key", "old code")   # f.1.nbc
    fresh = jit._SafeIndex(folder, "f", "new source")
    between, go_on = threading.Event(), threading.Event()
    write_data = fresh._save_data

    def paused(name, data):             # the index is written, the code not yet
        between.set()
        go_on.wait(30)
        write_data(name, data)

    fresh._save_data = paused
    saver = threading.Thread(target=fresh.save, args=("key", "new code"))
    saver.start()
    assert between.wait(30)
    loaded = []
    reader = threading.Thread(target=lambda: loaded.append(
        jit._SafeIndex(folder, "f", "new source").load("key")))
    reader.start()
    reader.join(0.3)
    go_on.set()
    saver.join(30)
    reader.join(30)
    assert loaded == ["new code"]


def test_a_pieces_compiled_code_is_keyed_by_every_kernel_modules_source(monkeypatch):
    """numba keys a function's cached code by its own file, but a piece keeps the pieces it
    calls compiled in (``jit_events.fire`` calls ``jit_formula.run``): each piece's key
    holds a hash of every module of the package, so editing ``jit_formula.py`` makes
    ``fire``'s cached code stale (compiled again), never silently reused."""
    from dominorules.kernel import jit, jit_support

    key = jit_support.popcount._cache._cache_file._source_stamp
    assert key[1] == jit.kernel_sources_stamp()
    before = jit.kernel_sources_stamp()
    real = Path.read_bytes

    def edited(self: Path) -> bytes:   # jit_formula.py with one byte more
        return real(self) + (b" " if self.name == "jit_formula.py" else b"")
    monkeypatch.setattr(jit, "_SOURCES_STAMP", [])
    monkeypatch.setattr(Path, "read_bytes", edited)
    assert jit.kernel_sources_stamp() != before
