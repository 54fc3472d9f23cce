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
from .jit import available, njit

RATE = 168                 # SHAKE-128's rate in bytes: 21 lanes of the 25
RATE_LANES = RATE // 8
MAX_DIGITS = 20            # "-9223372036854775808"
CHUNK = 2 * RATE_LANES     # the words one squeezed block gives
LANES = 8                  # sponges permute8 permutes at once
GIVEN = 32                 # deals (eight groups) first_streams8 gives a match at most
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
_U1 = np.uint64(1)
_U63 = np.uint64(63)
_U8 = np.uint64(8)
_U32 = np.uint64(32)
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


@njit(inline="always")
def _rot(x, n: int):
    """The uint64 ``x`` rotated left by the constant ``n`` (0 < n < 64)."""
    return (x << np.uint64(n)) | (x >> np.uint64(64 - n))


@njit(refcounts=False)   # (every match: jit.njit)
def keccak_f1600(a) -> None:
    """Keccak-f[1600] on the uint64[25] state ``a`` (lane x + 5y), in place.

    The 25 lanes live in locals through the 24 rounds, rho and pi written out lane by
    lane (lane x + 5y goes to y + 5((2x + 3y) % 5), rotated by FIPS 202's offset):
    1-4% faster a JIT round than the loop over tables it replaces (measured interleaved,
    9 pairs of runs), each permutation being a third of a round's time."""
    a00, a01, a02, a03, a04 = a[0], a[1], a[2], a[3], a[4]
    a05, a06, a07, a08, a09 = a[5], a[6], a[7], a[8], a[9]
    a10, a11, a12, a13, a14 = a[10], a[11], a[12], a[13], a[14]
    a15, a16, a17, a18, a19 = a[15], a[16], a[17], a[18], a[19]
    a20, a21, a22, a23, a24 = a[20], a[21], a[22], a[23], a[24]
    for rnd in range(24):
        c0 = a00 ^ a05 ^ a10 ^ a15 ^ a20
        c1 = a01 ^ a06 ^ a11 ^ a16 ^ a21
        c2 = a02 ^ a07 ^ a12 ^ a17 ^ a22
        c3 = a03 ^ a08 ^ a13 ^ a18 ^ a23
        c4 = a04 ^ a09 ^ a14 ^ a19 ^ a24
        d0 = c4 ^ ((c1 << _U1) | (c1 >> _U63))
        d1 = c0 ^ ((c2 << _U1) | (c2 >> _U63))
        d2 = c1 ^ ((c3 << _U1) | (c3 >> _U63))
        d3 = c2 ^ ((c4 << _U1) | (c4 >> _U63))
        d4 = c3 ^ ((c0 << _U1) | (c0 >> _U63))
        a00, a01, a02, a03, a04 = a00 ^ d0, a01 ^ d1, a02 ^ d2, a03 ^ d3, a04 ^ d4
        a05, a06, a07, a08, a09 = a05 ^ d0, a06 ^ d1, a07 ^ d2, a08 ^ d3, a09 ^ d4
        a10, a11, a12, a13, a14 = a10 ^ d0, a11 ^ d1, a12 ^ d2, a13 ^ d3, a14 ^ d4
        a15, a16, a17, a18, a19 = a15 ^ d0, a16 ^ d1, a17 ^ d2, a18 ^ d3, a19 ^ d4
        a20, a21, a22, a23, a24 = a20 ^ d0, a21 ^ d1, a22 ^ d2, a23 ^ d3, a24 ^ d4
        b00 = a00
        b16 = _rot(a05, 36)
        b07 = _rot(a10, 3)
        b23 = _rot(a15, 41)
        b14 = _rot(a20, 18)
        b10 = _rot(a01, 1)
        b01 = _rot(a06, 44)
        b17 = _rot(a11, 10)
        b08 = _rot(a16, 45)
        b24 = _rot(a21, 2)
        b20 = _rot(a02, 62)
        b11 = _rot(a07, 6)
        b02 = _rot(a12, 43)
        b18 = _rot(a17, 15)
        b09 = _rot(a22, 61)
        b05 = _rot(a03, 28)
        b21 = _rot(a08, 55)
        b12 = _rot(a13, 25)
        b03 = _rot(a18, 21)
        b19 = _rot(a23, 56)
        b15 = _rot(a04, 27)
        b06 = _rot(a09, 20)
        b22 = _rot(a14, 39)
        b13 = _rot(a19, 8)
        b04 = _rot(a24, 14)
        a00, a01, a02, a03, a04 = (
            b00 ^ (~b01 & b02),
            b01 ^ (~b02 & b03),
            b02 ^ (~b03 & b04),
            b03 ^ (~b04 & b00),
            b04 ^ (~b00 & b01),
        )
        a05, a06, a07, a08, a09 = (
            b05 ^ (~b06 & b07),
            b06 ^ (~b07 & b08),
            b07 ^ (~b08 & b09),
            b08 ^ (~b09 & b05),
            b09 ^ (~b05 & b06),
        )
        a10, a11, a12, a13, a14 = (
            b10 ^ (~b11 & b12),
            b11 ^ (~b12 & b13),
            b12 ^ (~b13 & b14),
            b13 ^ (~b14 & b10),
            b14 ^ (~b10 & b11),
        )
        a15, a16, a17, a18, a19 = (
            b15 ^ (~b16 & b17),
            b16 ^ (~b17 & b18),
            b17 ^ (~b18 & b19),
            b18 ^ (~b19 & b15),
            b19 ^ (~b15 & b16),
        )
        a20, a21, a22, a23, a24 = (
            b20 ^ (~b21 & b22),
            b21 ^ (~b22 & b23),
            b22 ^ (~b23 & b24),
            b23 ^ (~b24 & b20),
            b24 ^ (~b20 & b21),
        )
        a00 ^= _ROUND[rnd]
    a[0], a[1], a[2], a[3], a[4] = a00, a01, a02, a03, a04
    a[5], a[6], a[7], a[8], a[9] = a05, a06, a07, a08, a09
    a[10], a[11], a[12], a[13], a[14] = a10, a11, a12, a13, a14
    a[15], a[16], a[17], a[18], a[19] = a15, a16, a17, a18, a19
    a[20], a[21], a[22], a[23], a[24] = a20, a21, a22, a23, a24

def permute8(states) -> None:
    """Keccak-f[1600] on each of the ``LANES`` states in the columns of the C-contiguous
    uint64 (25, LANES) ``states``, in place: here one column at a time; compiled, all at
    once as vectors (``kernel.keccak8``, registered below)."""
    one = np.empty(25, np.uint64)
    for lane in range(LANES):
        for i in range(25):
            one[i] = states[i, lane]
        keccak_f1600(one)
        for i in range(25):
            states[i, lane] = one[i]


if available():
    from .keccak8 import register

    register(permute8, [int(c) for c in _ROUND])


@njit(refcounts=False)   # (every round: jit.njit)
def shake128_pad(state, msg, length: int) -> None:
    """Reset the uint64[25] ``state`` and absorb ``msg[0:length]`` (uint8), padded, all
    but the permutation that ends absorbing (``shake128_absorb``; ``permute8`` does it for
    eight states at once)."""
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


@njit(refcounts=False)   # (every round: jit.njit)
def shake128_absorb(state, msg, length: int) -> None:
    """Reset the uint64[25] ``state`` and absorb ``msg[0:length]`` (uint8), padded:
    ``state`` is then ready to squeeze its first block."""
    shake128_pad(state, msg, length)
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


@njit(refcounts=False)   # (every match: jit.njit)
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


@njit(refcounts=False)   # (every match: jit.njit)
def bytes_into(src, buf, at: int) -> int:
    """Copy uint8 ``src`` into ``buf`` from ``at``; return the end."""
    for i in range(src.shape[0]):
        buf[at + i] = src[i]
    return at + src.shape[0]


@njit(refcounts=False)   # (every round: jit.njit)
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
    words_of(state, out, at, n)
    return produced + n


@njit(inline="always")
def words_of(state, out, at: int, n: int) -> None:
    """The first ``n <= CHUNK`` words of a squeezed ``state``'s block into uint32
    ``out[at:]``: two little-endian words a lane."""
    for i in range(0, n - 1, 2):
        v = state[i >> 1]
        out[at + i] = v & _WORD
        out[at + i + 1] = v >> _U32
    if n & 1:
        out[at + n - 1] = state[(n - 1) >> 1] & _WORD


@njit(refcounts=False)   # (every round: jit.njit)
def shuffle_absorb(seed: int, j: int, state, msg) -> None:
    """Absorb the key of deals 4j .. 4j+3 of match ``seed`` into ``state``:
    ``b"%d:shuffle:" % seed + j.to_bytes(8, "little")`` (``msg``: a uint8 buffer of at
    least ``MSG`` bytes)."""
    shake128_absorb(state, msg, shuffle_key(seed, j, msg))


@njit(refcounts=False)   # (every match: jit.njit)
def shuffle_key(seed: int, j: int, msg) -> int:
    """``b"%d:shuffle:" % seed + j.to_bytes(8, "little")`` into ``msg``; its length."""
    at = bytes_into(_SHUFFLE, msg, decimal_into(seed, msg, 0))
    for k in range(8):
        msg[at + k] = (j >> (8 * k)) & 0xFF
    return at + 8


@njit
def shuffle_block(seed: int, j: int, T: int, out_words) -> None:
    """The shuffle keys of deals 4j .. 4j+3 of match ``seed`` into uint32
    ``out_words[0:4T]`` (deal 4j+i reads ``[iT, iT+T)``): the words of
    SHAKE-128(``b"%d:shuffle:" % seed + j.to_bytes(8, "little")``)."""
    msg = np.empty(MSG, np.uint8)
    state = np.empty(25, np.uint64)
    shuffle_absorb(seed, j, state, msg)
    shake128_squeeze_words(state, out_words, 4 * T)


@njit(refcounts=False)   # (every round: jit.njit)
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


@njit(refcounts=False)   # (every match: jit.njit)
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


@njit(refcounts=False)   # (every round: jit.njit)
def seat_more_absorb(seed: int, seat: int, k: int, state, msg) -> None:
    """Absorb the key of block ``k >= 1`` of seat ``seat``'s stream into ``state``:
    ``b"%d:bots" % seed + b"%d:" % seat + b"%d" % k``."""
    shake128_absorb(state, msg, seat_more_key(seed, seat, k, msg))


@njit(refcounts=False)   # (every match: jit.njit)
def seat_more_key(seed: int, seat: int, k: int, msg) -> int:
    """``b"%d:bots" % seed + b"%d:" % seat + b"%d" % k`` into ``msg``; its length."""
    at = bytes_into(_COLON, msg, decimal_into(seat, msg, _bots_key(seed, msg)))
    return decimal_into(k, msg, at)


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


@njit(refcounts=False)   # (every round: jit.njit)
def seat_words_start(seed: int, players: int, buf, pos, end, block, shared, state,
                     msg) -> None:
    """A new match: the seats' shared first block absorbed and its first words squeezed."""
    shake128_absorb(state, msg, _bots_key(seed, msg))
    _seats_start(players, pos, end, block, shared, squeeze_more(state, buf, 0, 0,
                                                                FIRST * players))


@njit(inline="always")
def _seats_start(players: int, pos, end, block, shared, got: int) -> None:
    """Every seat at the start of its share of the first block, ``got`` words of it made."""
    shared[0] = got
    for s in range(players):
        pos[s] = s * FIRST
        end[s] = max(s * FIRST, min(got, (s + 1) * FIRST))
        block[s] = 0


@njit(refcounts=False)   # (every round: jit.njit)
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
    at = total + p * CHUNK
    if block[p] == 0 and made[p] < 0:   # block 1's first words given (seat_words_given)
        block[p] = 1
        made[p] = -made[p]
        pos[p] = at
        end[p] = at + made[p]
        return
    if block[p] == 0 or made[p] == MORE:
        block[p] += 1
        seat_more_absorb(seed, p, block[p], states[p], msg)
        made[p] = 0
    got = squeeze_more(states[p], buf, at, made[p], MORE)
    pos[p] = at
    end[p] = at + got - made[p]
    made[p] = got


# Eight matches' first streams at once. A match's streams depend on its seed alone, so the
# kernel squeezes the words the next eight matches read first -- each one's first deals'
# keys and its seats' shared first block -- eight sponges a permutation (``permute8``),
# the same words ``shuffle_keys`` and ``seat_words_start`` give one sponge at a time.


@njit(refcounts=False)   # (every eight matches: jit.njit)
def squeeze8(states8, count: int, out, at: int, stride: int, total: int, one) -> None:
    """The first ``total`` words of the ``count <= LANES`` sponges whose padded keys are
    ``states8``'s columns (``shake128_pad``, not yet permuted): sponge l's into uint32
    ``out[at + l * stride:]``; ``one``: a uint64[25] scratch state."""
    produced = 0
    while produced < total:
        permute8(states8)
        n = min(CHUNK, total - produced)
        for lane in range(count):
            for i in range(RATE_LANES):
                one[i] = states8[i, lane]
            words_of(one, out, at + lane * stride + produced, n)
        produced += n


@njit(refcounts=False)   # (every eight matches: jit.njit)
def first_streams8(seeds, at: int, count: int, players: int, T: int, given: int,
                   more: bool, B8, msg) -> None:
    """The words matches ``seeds[at:at + count]`` (``count <= LANES``) read first, into
    ``B8 = (deals, seats, later, later_states, states8, one)``: the shuffle keys of each
    one's first ``given <= GIVEN`` deals (match l's group g at ``deals[(l * GIVEN // 4 +
    g) * 4T:]``, as ``shuffle_block`` writes it, its last group as far as deal
    ``given``), its seats' shared first block (``FIRST * players`` words at
    ``seats[l * FIRST * players:]``) and, if ``more``, the first ``CHUNK`` words of each
    seat's block 1 (seat s's at ``later[(l * players + s) * CHUNK:]``, its sponge then in
    ``later_states[l * players + s]``). ``states8``, ``one``: scratch states."""
    deals, seats, later, later_states, states8, one = B8
    W = 4 * T
    for g in range((given + 3) >> 2):
        for lane in range(count):
            shake128_pad(one, msg, shuffle_key(seeds[at + lane], g, msg))
            for i in range(25):
                states8[i, lane] = one[i]
        squeeze8(states8, count, deals, g * W, (GIVEN >> 2) * W, min(W, (given - 4 * g) * T),
                 one)
    total = FIRST * players
    for lane in range(count):
        shake128_pad(one, msg, _bots_key(seeds[at + lane], msg))
        for i in range(25):
            states8[i, lane] = one[i]
    squeeze8(states8, count, seats, 0, total, total, one)
    if not more:
        return
    for first in range(0, count * players, LANES):   # LANES seats' sponges at a time
        n = min(LANES, count * players - first)
        for k in range(n):
            lane, s = divmod(first + k, players)
            shake128_pad(one, msg, seat_more_key(seeds[at + lane], s, 1, msg))
            for i in range(25):
                states8[i, k] = one[i]
        squeeze8(states8, n, later, first * CHUNK, CHUNK, CHUNK, one)
        for k in range(n):
            for i in range(25):
                later_states[first + k, i] = states8[i, k]


@njit(refcounts=False)   # (every round: jit.njit)
def given_keys(deals, at: int, given: int, seed: int, made: int, T: int, block, state,
               msg, have: int) -> int:
    """``shuffle_keys`` for a match whose first ``given`` deals' keys ``first_streams8``
    squeezed (its lane's at ``deals[at:]``): theirs copied, a group at a time, the later
    deals' squeezed as ``shuffle_keys`` squeezes them."""
    j = made & 3
    if made < given:
        if j == 0:
            n = min(4, given - made) * T
            src = at + (made >> 2) * 4 * T
            for i in range(n):
                block[i] = deals[src + i]
            return n
        return have
    if made == given and j:   # a group given in part: its sponge from its start
        shuffle_absorb(seed, made >> 2, state, msg)
        have = 0
    return shuffle_keys(seed, made, T, block, state, msg, have)


@njit(refcounts=False)   # (every match: jit.njit)
def seat_words_given(B8, lane: int, players: int, more: bool, buf, pos, end, block, made,
                     shared, states) -> None:
    """``seat_words_start`` for match ``lane`` of ``first_streams8``'s ``B8``: its seats'
    shared first block copied, and with ``more`` each seat's first words of block 1 put
    where ``seat_words_next`` reads them (its sponge in ``states``, ``made`` negative
    until they are read)."""
    seats, later, later_states = B8[1], B8[2], B8[3]
    total = FIRST * players
    at = lane * total
    for i in range(total):
        buf[i] = seats[at + i]
    _seats_start(players, pos, end, block, shared, total)
    for s in range(players):
        made[s] = 0
        if more:
            k = lane * players + s
            for i in range(CHUNK):
                buf[total + s * CHUNK + i] = later[k * CHUNK + i]
            for i in range(25):
                states[s, i] = later_states[k, i]
            made[s] = -CHUNK
