"""The match seeds of a run (``api.match_seed``) for the JIT engine, many at a time.

``api.match_seed(base, i)`` is the first 48 bits of SHA-256(``b"%d/%d" % (base, i)``).
Through hashlib a seed costs some 0.7 us of Python calls, as much as a fifth of a JIT
round; here one numba loop hashes a whole run's messages (each a single SHA-256 block)
and gives the same integers. Only numpy arrays and integers cross these functions, so
they also run as plain Python (``jit.plain``), where they are slow: ``match_seeds``
takes hashlib there.
"""

from __future__ import annotations

import numpy as np

from ..engine.streams import match_seed
from .jit import njit
from .shake import MAX_DIGITS, decimal_into

# SHA-256's round constants and initial hash (FIPS 180-4, 4.2.2 and 5.3.3)
_K = np.array([
    0x428A2F98, 0x71374491, 0xB5C0FBCF, 0xE9B5DBA5, 0x3956C25B, 0x59F111F1, 0x923F82A4,
    0xAB1C5ED5, 0xD807AA98, 0x12835B01, 0x243185BE, 0x550C7DC3, 0x72BE5D74, 0x80DEB1FE,
    0x9BDC06A7, 0xC19BF174, 0xE49B69C1, 0xEFBE4786, 0x0FC19DC6, 0x240CA1CC, 0x2DE92C6F,
    0x4A7484AA, 0x5CB0A9DC, 0x76F988DA, 0x983E5152, 0xA831C66D, 0xB00327C8, 0xBF597FC7,
    0xC6E00BF3, 0xD5A79147, 0x06CA6351, 0x14292967, 0x27B70A85, 0x2E1B2138, 0x4D2C6DFC,
    0x53380D13, 0x650A7354, 0x766A0ABB, 0x81C2C92E, 0x92722C85, 0xA2BFE8A1, 0xA81A664B,
    0xC24B8B70, 0xC76C51A3, 0xD192E819, 0xD6990624, 0xF40E3585, 0x106AA070, 0x19A4C116,
    0x1E376C08, 0x2748774C, 0x34B0BCB5, 0x391C0CB3, 0x4ED8AA4A, 0x5B9CCA4F, 0x682E6FF3,
    0x748F82EE, 0x78A5636F, 0x84C87814, 0x8CC70208, 0x90BEFFFA, 0xA4506CEB, 0xBEF9A3F7,
    0xC67178F2], dtype=np.int64)
_H0 = np.array([0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C,
                0x1F83D9AB, 0x5BE0CD19], dtype=np.int64)
_M32 = 0xFFFFFFFF
_SLASH = np.uint8(ord("/"))
MAX_MESSAGE = 55            # what one padded SHA-256 block holds


@njit(inline="always")
def _ror(x: int, n: int) -> int:
    """The 32-bit word ``x`` (held in an int64) rotated right by ``n``."""
    return ((x >> n) | (x << (32 - n))) & _M32


@njit
def sha256_short(msg, length: int, w) -> tuple[int, int]:
    """The first two 32-bit words of SHA-256(``msg[:length]``), ``length <= MAX_MESSAGE``
    (one block); ``w``: an int64 scratch array of 64."""
    for i in range(16):
        w[i] = 0
    for i in range(length):
        w[i >> 2] |= np.int64(msg[i]) << (24 - 8 * (i & 3))
    w[length >> 2] |= 0x80 << (24 - 8 * (length & 3))
    w[15] = 8 * length
    for i in range(16, 64):
        x, y = w[i - 15], w[i - 2]
        s0 = _ror(x, 7) ^ _ror(x, 18) ^ (x >> 3)
        s1 = _ror(y, 17) ^ _ror(y, 19) ^ (y >> 10)
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) & _M32
    a, b, c, d = _H0[0], _H0[1], _H0[2], _H0[3]
    e, f, g, h = _H0[4], _H0[5], _H0[6], _H0[7]
    for i in range(64):
        t1 = (h + (_ror(e, 6) ^ _ror(e, 11) ^ _ror(e, 25)) + ((e & f) ^ (~e & g & _M32))
              + _K[i] + w[i])
        t2 = (_ror(a, 2) ^ _ror(a, 13) ^ _ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))
        h, g, f, e = g, f, e, (d + t1) & _M32
        d, c, b, a = c, b, a, (t1 + t2) & _M32
    return (a + _H0[0]) & _M32, (b + _H0[1]) & _M32


@njit
def match_seeds_into(base: int, start: int, out) -> None:
    """``out[i] = api.match_seed(base, start + i)`` for every i of int64 ``out``."""
    msg = np.empty(2 * MAX_DIGITS + 1, np.uint8)
    w = np.empty(64, np.int64)
    at = decimal_into(base, msg, 0)
    msg[at] = _SLASH
    at += 1
    for i in range(out.shape[0]):
        h0, h1 = sha256_short(msg, decimal_into(start + i, msg, at), w)
        out[i] = (h0 << 16) | (h1 >> 16)


def match_seeds(base: int, start: int, stop: int) -> np.ndarray:
    """The seeds of matches ``start .. stop - 1`` of a run started with ``base``, as int64
    (``api.match_seed``'s values); numba when it compiles, else hashlib."""
    from . import jit

    out = np.empty(max(0, stop - start), np.int64)
    if jit.available() and -(1 << 63) <= base < 1 << 63 and 0 <= start <= stop < 1 << 63:
        match_seeds_into(base, start, out)
    else:
        out[:] = [match_seed(base, i) for i in range(start, stop)]
    return out
