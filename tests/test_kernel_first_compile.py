"""A kernel's first compile is held under its own lock in the cache folder, so two
processes compiling the same kernel at once (two pytest-xdist or compare workers) do it
one after the other, the second loading what the first saved (jit_kernel.first_compile)."""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from dominorules.kernel.jit_kernel import first_compile

fcntl = pytest.importorskip("fcntl")   # (flock: not on Windows, where the lock is skipped)


class _Batch:
    """A stand-in for the kernel's numba dispatcher: its compiled signatures, and whether
    another holder could take the kernel's lock while it is called."""

    def __init__(self, lock: str, signatures: list) -> None:
        self.lock, self.signatures, self.free = lock, signatures, None

    def __call__(self) -> None:
        fd = os.open(self.lock, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            self.free = True
        except BlockingIOError:
            self.free = False
        finally:
            os.close(fd)


def _module(tmp_path, signatures: list, cached: bool = True) -> ModuleType:
    module = ModuleType("dominorules_kernel_test")
    if cached:
        module.__file__ = str(tmp_path / "dominorules_kernel_test.py")
    module.play_batch = _Batch(str(tmp_path / "dominorules_kernel_test.lock"), signatures)
    return module


def test_the_first_call_holds_the_kernels_lock(tmp_path) -> None:
    module = _module(tmp_path, [])
    with first_compile(module):
        module.play_batch()
    assert module.play_batch.free is False
    module.play_batch()        # and lets it go after
    assert module.play_batch.free is True


@pytest.mark.parametrize("signatures, cached", [([("int64",)], True), ([], False)])
def test_no_lock_once_compiled_or_without_a_cache_file(tmp_path, signatures, cached) -> None:
    module = _module(tmp_path, signatures, cached)
    with first_compile(module):
        module.play_batch()
    assert module.play_batch.free is True
