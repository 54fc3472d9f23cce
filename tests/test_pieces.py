"""Kernel pieces beside their mechanisms (``engine.pieces``): marked without numba, registered
with numba by ``kernel/jit.py`` whatever the order of imports, their options kept, and
their files in the kernels' cache key. Each piece's own differential test is beside its
mechanism's (``test_kernel_jit_table.py``: match; ``test_kernel_jit_deal.py``: blind)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dominorules.engine import pieces
from dominorules.engine.mechanisms import blind, match

ROOT = Path(__file__).resolve().parents[1]
MECHANISMS = ROOT / "interpreter" / "engine" / "mechanisms"


def test_the_pieces_are_marked_and_stay_plain_functions():
    for fn in (match.reached_in_play_piece, blind.rows_of_piece, blind.front_piece,
               blind.pop_front_piece, blind.to_back_piece):
        assert fn in pieces.marked(), fn.__name__
        assert type(fn).__name__ == "function"
    assert pieces.sources() == [MECHANISMS / "blind.py", MECHANISMS / "match.py"]


def test_a_mechanism_with_pieces_loads_no_numba():
    """The pieces live in the engine, below the kernels: importing them (numba installed,
    the JIT on) must not load numba; the kernels' jit module does, and registers them."""
    program = ("import sys\n"
               "from dominorules.engine.mechanisms import blind, match\n"
               "assert 'numba' not in sys.modules, 'numba loaded'\n"
               "assert match.reached_in_play_piece([3, 1], 2, 3) == 0\n")
    env = {k: v for k, v in os.environ.items() if k != "DOMINORULES_NO_JIT"}
    out = subprocess.run([sys.executable, "-c", program], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_editing_a_piece_changes_the_kernels_cache_key(monkeypatch):
    """A piece is compiled into its callers, whose cached code numba keys by their own
    files: the key's hash of the sources (``jit.kernel_sources_stamp``) reads the pieces'
    files too, so an edited piece compiles its callers again."""
    from dominorules.kernel import jit

    before = jit.kernel_sources_stamp()
    real = Path.read_bytes

    def edited(self: Path) -> bytes:   # blind.py with one byte more
        return real(self) + (b" " if self == MECHANISMS / "blind.py" else b"")
    monkeypatch.setattr(jit, "_SOURCES_STAMP", [])
    monkeypatch.setattr(Path, "read_bytes", edited)
    assert jit.kernel_sources_stamp() != before
    monkeypatch.setattr(jit, "_SOURCES_STAMP", [])
    monkeypatch.setattr(Path, "read_bytes", real)
    assert jit.kernel_sources_stamp() == before


def test_a_piece_marked_after_numba_loaded_is_registered_with_its_options(monkeypatch):
    """``on_piece`` hears of a piece marked later as well (a mechanism imported after the
    kernels); ``refcounts=False`` reaches numba as ``_nrt=False``: a piece that allocates
    is then refused, as ``njit(refcounts=False)`` refuses such a function."""
    pytest.importorskip("numba")
    import numpy as np

    from dominorules.kernel import jit
    if not jit.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    from piece_checks import compiled_caller

    monkeypatch.setattr(pieces, "_MARKED", list(pieces._MARKED))

    @pieces.piece
    def twice_the_sum(x, n):
        total = 0
        for i in range(n):
            total += x[i]
        return 2 * total

    @pieces.piece(refcounts=False)
    def allocates(n):
        return np.zeros(n).sum()

    @pieces.piece
    def allocates_counted(n):
        return np.zeros(n).sum()

    assert compiled_caller(twice_the_sum)(np.arange(5, dtype=np.int64), 3) == 6
    assert allocates(3) == 0.0                         # plain Python: as it is
    assert compiled_caller(allocates_counted)(3) == 0.0   # counted, it may allocate
    with pytest.raises(Exception, match="allocates"):  # numba: no implementation for it
        compiled_caller(allocates)(3)
