"""Bot seats' random streams: ``random.Random`` objects fed by SHAKE-128, not a seeded Twister.

Seeding a Mersenne Twister costs ~5 us, a fifth of a short match for four seats.
A seat stream instead reads 32-bit words from SHAKE-128 of ``(seed, seat)``, a
block at a time: ``next32`` is the C ``__next__`` of an ``itertools.chain`` over
the blocks (as cheap a call as the Twister's ``random``; Python runs once a
block). Every seat's first block comes out of one SHAKE call for the whole match
(an XOF: its first ``k`` bytes do not depend on how many are asked for), so
``seat_streams(seed, n)[s]`` and ``seat_stream(seed, s)`` give the same words.

``random()`` is ``next32() / 2**32``, so ``int(rng.random() * n) == (next32() * n) >> 32``
exactly for any ``n < 2**21``: the engine inlines the ``random`` bot's pick on the
words, and the bot's ``choose`` gives the same index. Every other ``random.Random``
method (``choice``, ``shuffle``, ``getrandbits``...) is derived from the words, so a
bot may use any of them.
"""

from __future__ import annotations

import hashlib
import os
import random
import sys
from array import array
from collections.abc import Callable
from itertools import chain

FIRST = 48                # words in a seat's first block: a short match needs 20 to 30
MORE = 128                # words in each later block
_shake = hashlib.shake_128
SCALE = 1.0 / 4294967296.0
_SWAP = sys.byteorder != "little"
assert array("I").itemsize == 4


def match_seed(base_seed: int, index: int) -> int:
    """The seed of match ``index`` in a run started with ``base_seed`` (stable, 48 bits;
    ``api.match_seed``): every stream of the match is derived from it."""
    digest = hashlib.sha256(f"{base_seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def words(raw: bytes) -> array:
    """Little-endian 32-bit words; an array makes each int only when it is read."""
    a = array("I")
    a.frombytes(raw)
    if _SWAP:  # pragma: no cover - big-endian machines read the same words
        a.byteswap()
    return a


def _later(key: bytes):
    """Blocks k >= 1 of a stream: SHAKE-128(key + k); resumed once a block."""
    k = 1
    while True:
        yield words(_shake(key + b"%d" % k).digest(4 * MORE))
        k += 1


def _blocks(first: array, key: bytes, seat: int | None = None):
    """The first block, then the later ones (their key is built only when needed)."""
    yield first
    yield from _later(key if seat is None else key + b"%d:" % seat)


class SeatRandom(random.Random):
    """A ``random.Random`` whose numbers come from a SHAKE-128 stream (see the module doc)."""

    def __init__(self, key: bytes | None = None, first: array | None = None):
        # no Random.__init__: it would seed a Twister this class never reads
        self._start(key, first)

    def _start(self, key: bytes | None, first: array | None) -> None:
        if key is None:
            key = os.urandom(16)
        if first is None:
            first = words(_shake(key + b":0").digest(4 * FIRST))
        self.gauss_next = None
        self.next32 = chain.from_iterable(_blocks(first, key + b":")).__next__

    def random(self) -> float:
        """The next word over 2**32: a float in [0, 1) with 32 random bits."""
        return self.next32() * SCALE

    def getrandbits(self, k: int) -> int:
        """``k`` random bits, 32 from each word."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        nxt = self.next32
        x = 0
        for shift in range(0, k, 32):
            x |= nxt() << shift
        return x & ((1 << k) - 1)

    def seed(self, a=None, version: int = 2) -> None:
        """Restart the stream from ``a`` (None: from the OS's entropy)."""
        self._start(None if a is None else b"seed:" + repr(a).encode(), None)

    def getstate(self):
        raise TypeError("a seat stream has no state to save: make it again from (seed, seat)")

    def setstate(self, state) -> None:
        raise TypeError("a seat stream has no state to restore: make it again from (seed, seat)")


def _key(seed: int) -> bytes:
    return b"%d:bots" % seed


def seat_bits(seed: int, players: int) -> list:
    """The ``next32`` of seats ``0 .. players-1`` in the match of ``seed``, without the
    ``SeatRandom`` around them (the engine's inlined ``random`` bot reads only these)."""
    key = _key(seed)
    block = words(_shake(key).digest(4 * FIRST * players))
    return [chain.from_iterable(_blocks(block[i:i + FIRST], key, s)).__next__
            for s, i in enumerate(range(0, FIRST * players, FIRST))]


def seat_first(seed: int, players: int) -> list:
    """Per seat, the ``__next__`` of its first block alone: it raises ``StopIteration``
    once the block is used up, and ``seat_rest(seed, seat)`` goes on from there. The
    cheapest start for the engine's inlined ``random`` bot (most matches end within it)."""
    block = words(_shake(_key(seed)).digest(4 * FIRST * players))
    return [iter(block[i:i + FIRST]).__next__ for i in range(0, FIRST * players, FIRST)]


def seat_rest(seed: int, seat: int):
    """The ``next32`` of seat ``seat``'s stream after its first block."""
    return chain.from_iterable(_later(_key(seed) + b"%d:" % seat)).__next__


def seat_streams(seed: int, players: int) -> list[SeatRandom]:
    """The random streams of seats ``0 .. players-1`` in the match of ``seed``."""
    out = []
    new = SeatRandom.__new__
    for bits in seat_bits(seed, players):
        rng = new(SeatRandom)
        rng.gauss_next = None
        rng.next32 = bits
        out.append(rng)
    return out


def seat_stream(seed: int, seat: int) -> SeatRandom:
    """The random stream of bot seat ``seat`` in the match of ``seed``."""
    key = _key(seed)
    block = words(_shake(key).digest(4 * FIRST * (seat + 1))[4 * FIRST * seat:])
    rng = SeatRandom.__new__(SeatRandom)
    rng.gauss_next = None
    rng.next32 = chain.from_iterable(_blocks(block, key, seat)).__next__
    return rng


def shuffler(seed: int, setup) -> Callable[[], tuple[list[int], list[int]]]:
    """``deal() -> (deck, hands)`` for one match: deal k sorts the set on T 32-bit keys, the
    k-th T words of SHAKE-128(``"{seed}:shuffle:"``), four deals' keys per SHAKE call; the
    hands are the deck's first tiles in seat order. A pure function of the seed: every
    match loop deals through here, so rulesets with the same set share their deals.
    """
    key = b"%d:shuffle:" % seed
    shake = hashlib.shake_128
    T, size, dealt, key_bytes = setup.tile_count, setup.hand_size, setup.dealt, setup.key_bytes
    unpack, full, BIT = setup.words, setup.tiles, setup.bit
    made = 0
    block = None

    def deal() -> tuple[list[int], list[int]]:
        nonlocal made, block
        j = made & 3
        if not j:
            block = unpack(shake(key + (made >> 2).to_bytes(8, "little")).digest(key_bytes))
        made += 1
        keys = block[j * T:j * T + T]
        deck = sorted(full, key=keys.__getitem__)
        hands = []
        for i in range(0, dealt, size):
            h = 0
            for t in deck[i:i + size]:
                h |= BIT[t]
            hands.append(h)
        return deck, hands
    return deal
