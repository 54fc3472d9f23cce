"""kernel.seeds: a run's match seeds computed many at a time, equal to ``api.match_seed``
(SHA-256 by hashlib), as plain Python and compiled by numba (when installed)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from dominorules import api
from dominorules.kernel import jit, seeds

BASES = (0, 7, -5, 2026, 2 ** 63 - 1, -2 ** 63)


@pytest.fixture(params=["plain", "jit"])
def kernel(request):
    if request.param == "plain":
        return jit.plain(seeds)
    pytest.importorskip("numba")
    if not jit.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    return seeds


def test_sha256_short_gives_hashlibs_first_words_for_every_one_block_length(kernel):
    w = np.empty(64, np.int64)
    for n in range(seeds.MAX_MESSAGE + 1):
        msg = np.frombuffer(hashlib.sha256(b"%d" % n).digest() * 2, np.uint8)[:n].copy()
        want = hashlib.sha256(bytes(msg)).digest()
        h0, h1 = kernel.sha256_short(msg, n, w)
        assert (h0, h1) == (int.from_bytes(want[:4], "big"), int.from_bytes(want[4:8], "big"))


def test_match_seeds_into_are_the_api_match_seeds(kernel):
    count = 300 if kernel is seeds else 3
    for base in BASES:
        out = np.zeros(count, np.int64)
        kernel.match_seeds_into(base, 98, out)
        assert out.tolist() == [api.match_seed(base, i) for i in range(98, 98 + count)], base


def test_match_seeds_takes_hashlib_for_numbers_beyond_64_bits():
    for base in (2 ** 70, -(2 ** 64)):
        assert seeds.match_seeds(base, 3, 6).tolist() == [api.match_seed(base, i)
                                                          for i in (3, 4, 5)]
    assert seeds.match_seeds(1, 5, 5).tolist() == []
