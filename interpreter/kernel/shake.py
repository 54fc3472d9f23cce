"""SHAKE-128 and the engine's random streams over it, in numba's nopython subset.

The Python engine takes all its randomness from ``hashlib.shake_128``
(``engine.streams``): the shuffle keys of every deal and the bot seats' words. A
compiled kernel cannot call hashlib, so this module computes the same bytes itself --
Keccak-f[1600] on a ``uint64[25]`` state, the SHAKE-128 sponge (rate 168 bytes,
padding ``0x1F ... 0x80``) -- and builds the same keys (``b"%d" % n`` is
``decimal_into``). Only numpy arrays and integers cross these functions, so each is
compiled by ``jit.njit`` when numba is there and runs as plain Python otherwise;
``jit.plain(shake)`` is the plain copy when both are wanted.

Every uint64 operation takes uint64 operands (``_U`` constants): numba turns a uint64
mixed with an int64 into a float64.

>>> import hashlib, numpy as np
>>> out = np.zeros(5, np.uint8)
>>> shake128(np.frombuffer(b"abc", np.uint8), 3, out, 5)
>>> bytes(out) == hashlib.shake_128(b"abc").digest(5)
True
"""

from __future__ import annotations

import numpy as np

from ..engine.streams import FIRST, MORE
from .jit import njit

RATE = 168                 # SHAKE-128's rate in bytes: 21 lanes of the 25
RATE_LANES = RATE // 8
MAX_DIGITS = 20            # "-9223372036854775808"
CHUNK = 2 * RATE_LANES     # the words one squeezed block gives
MSG = 3 * MAX_DIGITS + 16  # a message buffer long enough for every key below

# Keccak's 24 round constants (FIPS 202, 3.2.5)
_ROUND = np.array([
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
    0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
    0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
], dtype=np.uint64)
# rho and pi walked as one cycle from lane 1: the lane each step moves to, and its rotation
_PI_LANE = np.array([10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20,
                     14, 22, 9, 6, 1], dtype=np.int64)
_RHO = np.array([1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18,
                 39, 61, 20, 44], dtype=np.uint64)

_U1 = np.uint64(1)
_U8 = np.uint64(8)
_U32 = np.uint64(32)
_U64 = np.uint64(64)
_U10 = np.uint64(10)
_BYTE = np.uint64(0xFF)
_WORD = np.uint64(0xFFFFFFFF)
_PAD_FIRST = np.uint64(0x1F)            # SHAKE's domain bits and the first pad bit
_PAD_LAST = np.uint64(0x80) << np.uint64(56)   # the pad's last bit: byte 167, lane 20

_SHUFFLE = np.frombuffer(b":shuffle:", dtype=np.uint8)
_BOTS = np.frombuffer(b":bots", dtype=np.uint8)
_COLON = np.frombuffer(b":", dtype=np.uint8)
_ZERO_DIGIT = np.uint8(ord("0"))
_MINUS = np.uint8(ord("-"))


@njit
def _rotl(x, n):
    """x rotated left by n (0 < n < 64), both uint64."""
    return (x << n) | (x >> (_U64 - n))


@njit
def keccak_f1600(a) -> None:
    """Keccak-f[1600] on the uint64[25] state ``a`` (lane x + 5y), in place."""
    for rnd in range(24):
        # theta: each column's parity into its neighbours
        c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20]
        c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21]
        c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22]
        c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23]
        c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24]
        d0 = c4 ^ _rotl(c1, _U1)
        d1 = c0 ^ _rotl(c2, _U1)
        d2 = c1 ^ _rotl(c3, _U1)
        d3 = c2 ^ _rotl(c4, _U1)
        d4 = c3 ^ _rotl(c0, _U1)
        for y in range(0, 25, 5):
            a[y] ^= d0
            a[y + 1] ^= d1
            a[y + 2] ^= d2
            a[y + 3] ^= d3
            a[y + 4] ^= d4
        # rho and pi: rotate each lane and move it along pi's one cycle
        t = a[1]
        for i in range(24):
            j = _PI_LANE[i]
            b = a[j]
            a[j] = _rotl(t, _RHO[i])
            t = b
        # chi: the one non-linear step, row by row
        for y in range(0, 25, 5):
            b0, b1, b2, b3, b4 = a[y], a[y + 1], a[y + 2], a[y + 3], a[y + 4]
            a[y] = b0 ^ (~b1 & b2)
            a[y + 1] = b1 ^ (~b2 & b3)
            a[y + 2] = b2 ^ (~b3 & b4)
            a[y + 3] = b3 ^ (~b4 & b0)
            a[y + 4] = b4 ^ (~b0 & b1)
        # iota
        a[0] ^= _ROUND[rnd]


@njit
def shake128_absorb(state, msg, length: int) -> None:
    """Reset the uint64[25] ``state`` and absorb ``msg[0:length]`` (uint8), padded:
    ``state`` is then ready to squeeze its first block."""
    for i in range(25):
        state[i] = 0
    pos = 0
    for p in range(length):
        state[pos >> 3] ^= np.uint64(msg[p]) << np.uint64((pos & 7) << 3)
        pos += 1
        if pos == RATE:
            keccak_f1600(state)
            pos = 0
    state[pos >> 3] ^= _PAD_FIRST << np.uint64((pos & 7) << 3)
    state[RATE_LANES - 1] ^= _PAD_LAST
    keccak_f1600(state)


@njit
def shake128_squeeze(state, out, count: int) -> None:
    """The first ``count`` output bytes of a freshly absorbed ``state`` into uint8
    ``out[0:count]`` (the state is used up)."""
    lane = 0
    shift = 0
    for p in range(count):
        if shift == 64:
            lane += 1
            shift = 0
            if lane == RATE_LANES:
                keccak_f1600(state)
                lane = 0
        out[p] = (state[lane] >> np.uint64(shift)) & _BYTE
        shift += 8


@njit
def shake128_squeeze_words(state, out, count: int) -> None:
    """The first ``count`` little-endian 32-bit words of a freshly absorbed ``state``
    into uint32 ``out[0:count]`` (the state is used up): two words a lane."""
    lane = 0
    for i in range(0, count, 2):
        if lane == RATE_LANES:
            keccak_f1600(state)
            lane = 0
        v = state[lane]
        out[i] = v & _WORD
        if i + 1 < count:
            out[i + 1] = v >> _U32
        lane += 1


@njit
def shake128(msg, length: int, out, count: int) -> None:
    """``hashlib.shake_128(bytes(msg[:length])).digest(count)`` into uint8 ``out``."""
    state = np.zeros(25, np.uint64)
    shake128_absorb(state, msg, length)
    shake128_squeeze(state, out, count)


@njit
def decimal_into(n: int, buf, at: int) -> int:
    """Write ``b"%d" % n`` (any int64) into uint8 ``buf`` from ``at``; return the end."""
    if n < 0:
        buf[at] = _MINUS
        at += 1
        m = np.uint64(-(n + 1)) + _U1       # |n| without overflowing at -2**63
    else:
        m = np.uint64(n)
    digits = 1
    rest = m // _U10
    while rest > 0:
        digits += 1
        rest //= _U10
    end = at + digits
    for p in range(end - 1, at - 1, -1):
        buf[p] = _ZERO_DIGIT + np.uint8(m % _U10)
        m //= _U10
    return end


@njit
def bytes_into(src, buf, at: int) -> int:
    """Copy uint8 ``src`` into ``buf`` from ``at``; return the end."""
    for i in range(src.shape[0]):
        buf[at + i] = src[i]
    return at + src.shape[0]


@njit
def squeeze_more(state, out, at: int, produced: int, total: int) -> int:
    """A sponge's next block of words, squeezed only when they are wanted: words
    ``produced .. min(produced + CHUNK, total)`` of ``state``'s stream into uint32
    ``out[at:]``; returns the words now produced. ``produced`` is 0 (the state is freshly
    absorbed: its first block is ready) or the end of an earlier block (permuted first).

    The streams are defined by how many words each takes, but a match reads far fewer
    of them than a stream holds: squeezing block by block as the words are read skips
    the permutations (a quarter of a microsecond each) of blocks no one reads."""
    if produced:
        keccak_f1600(state)
    n = min(CHUNK, total - produced)
    for i in range(0, n - 1, 2):
        v = state[i >> 1]
        out[at + i] = v & _WORD
        out[at + i + 1] = v >> _U32
    if n & 1:
        out[at + n - 1] = state[(n - 1) >> 1] & _WORD
    return produced + n


@njit
def shuffle_absorb(seed: int, j: int, state, msg) -> None:
    """Absorb the key of deals 4j .. 4j+3 of match ``seed`` into ``state``:
    ``b"%d:shuffle:" % seed + j.to_bytes(8, "little")`` (``msg``: a uint8 buffer of at
    least ``MSG`` bytes)."""
    at = bytes_into(_SHUFFLE, msg, decimal_into(seed, msg, 0))
    for k in range(8):
        msg[at + k] = (j >> (8 * k)) & 0xFF
    shake128_absorb(state, msg, at + 8)


@njit
def shuffle_block(seed: int, j: int, T: int, out_words) -> None:
    """The shuffle keys of deals 4j .. 4j+3 of match ``seed`` into uint32
    ``out_words[0:4T]`` (deal 4j+i reads ``[iT, iT+T)``): the words of
    SHAKE-128(``b"%d:shuffle:" % seed + j.to_bytes(8, "little")``)."""
    msg = np.empty(MSG, np.uint8)
    state = np.empty(25, np.uint64)
    shuffle_absorb(seed, j, state, msg)
    shake128_squeeze_words(state, out_words, 4 * T)


@njit
def shuffle_keys(seed: int, made: int, T: int, block, state, msg, have: int) -> int:
    """Make deal ``made``'s keys readable at ``block[(made % 4) * T:][:T]``, as
    ``shuffle_block`` would write them, squeezing only the blocks up to them; ``have``:
    the words of the current group of four deals squeezed so far (returned updated).
    Called before every deal, in order."""
    j = made & 3
    if j == 0:
        shuffle_absorb(seed, made >> 2, state, msg)
        have = 0
    while have < (j + 1) * T:
        have = squeeze_more(state, block, have, have, 4 * T)
    return have


@njit
def deal_order(words, offset: int, T: int, deck_out) -> None:
    """One deal's deck into ``deck_out[0:T]``: the tiles 0 .. T-1 sorted by their keys
    ``words[offset + t]``, ties in tile order (as the engine's stable ``sorted``)."""
    deal_into(words, offset, T, deck_out, np.empty(2 * T + 2, np.int64))


@njit(inline="always")   # called every deal: inlined, no call or array reference counts
def deal_into(words, offset: int, T: int, deck_out, scratch) -> None:
    """``deal_order`` with a scratch int64 array of at least ``2T + 2`` (the kernel keeps
    one, where an allocation a deal would cost a third of the sort).

    Up to 32 tiles, each tile's place is the count of keys below its own, the keys made
    distinct as ``key << 8 | tile``: a loop without branches the compiler vectorises
    (0.11 us for 28 tiles, against 0.16 for the buckets below). Beyond, a counting
    pass on the keys' top bits (about one tile a bucket) leaves a deck an insertion
    pass finishes in linear time, where insertion alone is quadratic (1.8 us for 91
    tiles against 0.5). Both keep equal keys in tile order."""
    if T <= 32:
        for t in range(T):
            scratch[t] = (np.int64(words[offset + t]) << 8) | t
        for t in range(T):
            key = scratch[t]
            place = 0
            for u in range(T):
                place += scratch[u] < key
            deck_out[place] = t
        return
    bits = 1
    while (1 << bits) < T:
        bits += 1
    shift = 32 - bits
    start = scratch                                 # bucket b's first slot, then its next
    for b in range((1 << bits) + 1):
        start[b] = 0
    for t in range(T):
        start[(words[offset + t] >> shift) + 1] += 1
    for b in range(1 << bits):
        start[b + 1] += start[b]
    for t in range(T):
        b = words[offset + t] >> shift
        deck_out[start[b]] = t
        start[b] += 1
    for i in range(1, T):
        t = deck_out[i]
        key = words[offset + t]
        j = i
        while j > 0 and words[offset + deck_out[j - 1]] > key:
            deck_out[j] = deck_out[j - 1]
            j -= 1
        deck_out[j] = t


@njit
def _bots_key(seed: int, msg) -> int:
    """``b"%d:bots" % seed`` into ``msg``; its length."""
    return bytes_into(_BOTS, msg, decimal_into(seed, msg, 0))


@njit
def seat_first_words(seed: int, players: int, out) -> None:
    """Every seat's first block, ``FIRST`` words each, seat s at ``[s*FIRST, (s+1)*FIRST)``
    of uint32 ``out``: the words of SHAKE-128(``b"%d:bots" % seed``)."""
    msg = np.empty(MAX_DIGITS + _BOTS.shape[0], np.uint8)
    state = np.empty(25, np.uint64)
    shake128_absorb(state, msg, _bots_key(seed, msg))
    shake128_squeeze_words(state, out, FIRST * players)


@njit
def seat_more_absorb(seed: int, seat: int, k: int, state, msg) -> None:
    """Absorb the key of block ``k >= 1`` of seat ``seat``'s stream into ``state``:
    ``b"%d:bots" % seed + b"%d:" % seat + b"%d" % k``."""
    at = bytes_into(_COLON, msg, decimal_into(seat, msg, _bots_key(seed, msg)))
    shake128_absorb(state, msg, decimal_into(k, msg, at))


@njit
def seat_more_words(seed: int, seat: int, k: int, out) -> None:
    """Block ``k >= 1`` of seat ``seat``'s stream, ``MORE`` words into uint32 ``out``:
    SHAKE-128(``b"%d:bots" % seed + b"%d:" % seat + b"%d" % k``)."""
    msg = np.empty(MSG, np.uint8)
    state = np.empty(25, np.uint64)
    seat_more_absorb(seed, seat, k, state, msg)
    shake128_squeeze_words(state, out, MORE)


# The seats' words read lazily (``seat_words_start``, then ``seat_words_next`` whenever a
# seat has read all it has): one uint32 buffer holds the shared first block (seat s's
# first ``FIRST`` words at ``[s*FIRST, (s+1)*FIRST)``, squeezed as far as some seat has
# read) and then one ``CHUNK`` of each seat's later block (seat s's at
# ``FIRST*players + s*CHUNK``). Seat s reads ``buf[pos[s]]`` while ``pos[s] < end[s]``.
# ``block[s]`` is the stream block seat s reads (0: the shared first one), ``made[s]``
# the words of its later block squeezed so far; ``shared[0]`` the shared words squeezed.


def seat_buffer_size(players: int) -> int:
    """The length of the seats' word buffer for ``players`` seats."""
    return (FIRST + CHUNK) * players


@njit
def seat_words_start(seed: int, players: int, buf, pos, end, block, shared, state,
                     msg) -> None:
    """A new match: the seats' shared first block absorbed and its first words squeezed."""
    shake128_absorb(state, msg, _bots_key(seed, msg))
    got = squeeze_more(state, buf, 0, 0, FIRST * players)
    shared[0] = got
    for s in range(players):
        pos[s] = s * FIRST
        end[s] = max(s * FIRST, min(got, (s + 1) * FIRST))
        block[s] = 0


@njit
def seat_words_next(seed: int, p: int, players: int, buf, pos, end, block, made, shared,
                    first_state, states, msg) -> None:
    """Seat ``p`` has read every word it has (``pos[p] == end[p]``): make its next words
    readable at ``buf[pos[p]:end[p]]``, the same words ``seat_first_words`` then
    ``seat_more_words`` give, squeezing only as far as they reach."""
    total = FIRST * players
    if block[p] == 0:
        stop = (p + 1) * FIRST
        if end[p] < stop:           # the shared block is not squeezed as far as this seat
            while shared[0] <= pos[p]:
                shared[0] = squeeze_more(first_state, buf, shared[0], shared[0], total)
            end[p] = min(shared[0], stop)
            return
    if block[p] == 0 or made[p] == MORE:
        block[p] += 1
        seat_more_absorb(seed, p, block[p], states[p], msg)
        made[p] = 0
    at = total + p * CHUNK
    got = squeeze_more(states[p], buf, at, made[p], MORE)
    pos[p] = at
    end[p] = at + got - made[p]
    made[p] = got
