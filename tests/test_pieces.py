"""Kernel pieces beside their mechanisms (``engine.pieces``): marked without numba, registered
with numba by ``kernel/jit.py`` whatever the order of imports, their options kept, and
their files in the kernels' cache key. Each piece's own differential test is beside its
mechanism's (``test_kernel_jit_table.py``: match's reached_in_play; ``test_kernel_jit_settle.py``:
settle and match's end; ``test_kernel_jit_deal.py``: blind, leftover, turn_up, side_out,
position)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dominorules.engine import pieces
from dominorules.engine.mechanisms import (
    blind,
    leftover,
    match,
    position,
    settle,
    side_out,
    turn_up,
)

ROOT = Path(__file__).resolve().parents[1]
MECHANISMS = ROOT / "interpreter" / "engine" / "mechanisms"


def test_the_pieces_are_marked_and_stay_plain_functions():
    for fn in (match.reached_in_play_piece, match.match_over_piece, blind.rows_of_piece,
               blind.front_piece, blind.pop_front_piece, blind.to_back_piece,
               settle.hand_rank_piece, settle.best_sides_piece, settle.winner_seat_piece,
               settle.counted_piece, leftover.receiver_piece, turn_up.before_piece,
               side_out.goes_on_piece, side_out.next_in_piece, position.seat_after_piece):
        assert fn in pieces.marked(), fn.__name__
        assert type(fn).__name__ == "function"
    assert pieces.sources() == [MECHANISMS / f"{m}.py" for m in (
        "blind", "leftover", "match", "position", "settle", "side_out", "turn_up")]


def test_a_mechanism_with_pieces_loads_no_numba():
    """The pieces live in the engine, below the kernels: importing them (numba installed,
    the JIT on) must not load numba; the kernels' jit module does, and registers them."""
    program = ("import sys\n"
               "from dominorules.engine.mechanisms import (\n"
               "    blind, leftover, match, position, settle, side_out, turn_up)\n"
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

    for name in ("blind.py", "settle.py", "side_out.py", "leftover.py", "turn_up.py"):
        def edited(self: Path, name=name) -> bytes:   # the module with one byte more
            return real(self) + (b" " if self == MECHANISMS / name else b"")
        monkeypatch.setattr(jit, "_SOURCES_STAMP", [])
        monkeypatch.setattr(Path, "read_bytes", edited)
        assert jit.kernel_sources_stamp() != before, name
    monkeypatch.setattr(jit, "_SOURCES_STAMP", [])
    monkeypatch.setattr(Path, "read_bytes", real)
    assert jit.kernel_sources_stamp() == before


def test_the_kernels_name_hashes_every_file_it_compiles_in(monkeypatch):
    """The kernel module's name (``kernel.compiled_in.digest``) reads the files its imports
    reach, not a hand-kept list: every kernel module the source imports and those they
    import, and the engine's piece modules among them. A byte more in a moved piece's module
    renames the house rules' kernel, whose GEN lines call it, and leaves the plain kernel's
    name alone; ``position.py`` (the seat after a seat, compiled into both) renames both."""
    import ast

    from dominorules import api
    from dominorules.kernel import compiled_in, jit_kernel

    gen = jit_kernel.kernel_source(api.load_game("house/all-fives"))
    plain = jit_kernel.kernel_source(api.load_game("pagat"))
    kernel = ROOT / "interpreter" / "kernel"
    named = {node.module.rsplit(".", 1)[-1] for node in ast.walk(ast.parse(gen))
             if isinstance(node, ast.ImportFrom) and node.module.startswith("dominorules.")}
    named |= {alias.name for node in ast.walk(ast.parse(gen))   # from dominorules.kernel import x
              if isinstance(node, ast.ImportFrom) and node.module == "dominorules.kernel"
              for alias in node.names}
    found = compiled_in.files(gen)
    assert {p.stem for p in found} >= named - {"kernel"}
    assert {MECHANISMS / f"{m}.py" for m in ("settle", "leftover", "side_out", "turn_up",
                                              "match", "blind", "position")} <= set(found)
    assert kernel / "jit_opening_allow.py" in found and kernel / "jit_bits.py" in found
    assert MECHANISMS / "settle.py" not in compiled_in.files(plain)
    assert kernel / "jit_declare.py" not in compiled_in.files(plain)
    assert ROOT / "interpreter" / "engine" / "general_loop.py" not in found   # no piece
    # a module named by a kernel's import is in, with what it imports
    layout = compiled_in.files("from dominorules.kernel.jit_layout import place\n")
    assert kernel / "jit_layout.py" in layout and kernel / "jit_support.py" in layout
    assert kernel / "jit_declare.py" not in layout

    before = compiled_in.digest(gen), compiled_in.digest(plain)
    real = Path.read_text

    def edited(name: str):
        def read(self: Path, *args, **kwargs) -> str:   # the module with one byte more
            return real(self, *args, **kwargs) + (" " if self == MECHANISMS / name else "")
        return read
    monkeypatch.setattr(Path, "read_text", edited("settle.py"))
    assert compiled_in.digest(gen) != before[0]
    assert compiled_in.digest(plain) == before[1]
    monkeypatch.setattr(Path, "read_text", edited("position.py"))
    assert compiled_in.digest(gen) != before[0] and compiled_in.digest(plain) != before[1]
    monkeypatch.setattr(Path, "read_text", real)
    assert (compiled_in.digest(gen), compiled_in.digest(plain)) == before


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
