"""kernel.shake: SHAKE-128 and the engine's random streams, byte for byte as hashlib and
engine.streams give them, both as plain Python and compiled by numba (when installed)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from itertools import chain
from pathlib import Path

import numpy as np
import pytest

from dominorules import api
from dominorules.engine.streams import FIRST, MORE, seat_first, seat_rest, shuffler
from dominorules.kernel import jit, shake

ROOT = Path(__file__).resolve().parents[1]
SEEDS = (0, 1, -7, 2 ** 47 + 5, api.match_seed(2026, 3))


@pytest.fixture(params=["plain", "jit"])
def kernel(request):
    """The module's functions as plain Python, then as numba compiled them."""
    if request.param == "plain":
        return jit.plain(shake)
    pytest.importorskip("numba")
    if not jit.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    return shake


def compiled(kernel) -> bool:
    return kernel is shake


def message(n: int) -> np.ndarray:
    return np.frombuffer(hashlib.sha256(b"%d" % n).digest() * 13, np.uint8)[:n].copy()


def test_shake128_gives_hashlibs_bytes_across_absorb_and_squeeze_blocks(kernel):
    # the rate is 168 bytes: lengths on each side of one and two blocks, plus all of
    # 0..400 once compiled (plain Python Keccak is slow)
    lengths = range(401) if compiled(kernel) else (0, 1, 8, 9, 167, 168, 169, 336, 337)
    counts = (0, 1, 4, 5, 167, 168, 169, 336, 337, 1000)
    for n in lengths:
        msg = message(n)
        for count in counts if n % 17 == 0 or not compiled(kernel) else (169,):
            out = np.zeros(count + 3, np.uint8)
            kernel.shake128(msg, n, out, count)
            assert bytes(out[:count]) == hashlib.shake_128(bytes(msg)).digest(count), (n, count)
            assert not out[count:].any()        # nothing written past count


def test_squeezed_words_are_the_little_endian_words_of_the_bytes(kernel):
    msg = message(40)
    for count in (1, 2, 41, 42, 43, 85):
        state = np.empty(25, np.uint64)
        kernel.shake128_absorb(state, msg, 40)
        out = np.zeros(count + 1, np.uint32)
        kernel.shake128_squeeze_words(state, out, count)
        want = np.frombuffer(hashlib.shake_128(bytes(msg)).digest(4 * count), "<u4")
        assert out[:count].tolist() == want.tolist() and out[count] == 0


@pytest.mark.parametrize("n", [0, 7, -7, 9, 10, -10, 99, 100, 2 ** 47 + 5, 2 ** 63 - 1, -2 ** 63])
def test_decimal_into_writes_percent_d(kernel, n):
    buf = np.full(30, 0xAA, np.uint8)
    end = kernel.decimal_into(n, buf, 3)
    text = b"%d" % n
    assert end == 3 + len(text)
    assert bytes(buf[3:end]) == text
    assert (buf[:3] == 0xAA).all() and (buf[end:] == 0xAA).all()


def engine_deals(ref: str, players: int, seed: int, count: int):
    setup = api.load_game(ref).setup(players)
    deal = shuffler(seed, setup)
    return setup, [deal() for _ in range(count)]


@pytest.mark.parametrize("ref, tiles", [("pagat", 28), ("house/double-nine", 55),
                                        ("house/double-twelve", 91)])
def test_the_deals_are_the_engines_decks_and_hands(kernel, ref, tiles):
    deals = 10                                  # three SHAKE blocks: 4 deals each
    for seed in SEEDS if compiled(kernel) else SEEDS[2:4]:
        setup, want = engine_deals(ref, 4, seed, deals)
        T = setup.tile_count
        assert T == tiles
        words = np.zeros(4 * T, np.uint32)
        deck = np.zeros(T, np.int64)
        for k, (want_deck, want_hands) in enumerate(want):
            if k % 4 == 0:
                kernel.shuffle_block(seed, k // 4, T, words)
            kernel.deal_order(words, (k % 4) * T, T, deck)
            assert deck.tolist() == want_deck, (seed, k)
            hands = [sum(1 << int(t) for t in deck[i:i + setup.hand_size])
                     for i in range(0, setup.dealt, setup.hand_size)]
            assert hands == want_hands


def test_deal_order_breaks_ties_by_tile_and_reads_from_the_offset(kernel):
    words = np.array([99, 99, 5, 3, 5, 3, 0, 3], np.uint32)
    deck = np.zeros(5, np.int32)
    kernel.deal_order(words, 2, 5, deck)
    assert deck.tolist() == [4, 1, 3, 0, 2]     # keys 5 3 5 3 0: equal keys in tile order


@pytest.mark.parametrize("T", [1, 2, 28, 91])
def test_deal_order_is_a_stable_sort_whatever_the_keys(kernel, T):
    rng = np.random.default_rng(T)
    spread = rng.integers(0, 2 ** 32, 6, dtype=np.uint64).astype(np.uint32)
    for words in (rng.integers(0, 2 ** 32, T, dtype=np.uint64).astype(np.uint32),
                  rng.choice(spread, T),                  # many ties, in a few buckets
                  np.full(T, 2 ** 32 - 1, np.uint32), np.arange(T, 0, -1, dtype=np.uint32)):
        deck = np.zeros(T, np.int64)
        kernel.deal_order(words, 0, T, deck)
        assert deck.tolist() == sorted(range(T), key=words.__getitem__)


@pytest.mark.parametrize("players", [2, 4])
def test_seat_words_are_the_engines_seat_streams(kernel, players):
    for seed in SEEDS if compiled(kernel) else SEEDS[1:3]:
        first = np.zeros(FIRST * players, np.uint32)
        kernel.seat_first_words(seed, players, first)
        more = np.zeros(MORE, np.uint32)
        for seat, want_first in enumerate(seat_first(seed, players)):
            assert first[seat * FIRST:(seat + 1) * FIRST].tolist() == [
                want_first() for _ in range(FIRST)]
            rest = seat_rest(seed, seat)
            for k in (1, 2) if compiled(kernel) or seat == players - 1 else (1,):
                kernel.seat_more_words(seed, seat, k, more)
                assert more.tolist() == [rest() for _ in range(MORE)], (seed, seat, k)


def test_the_jit_path_compiles_in_nopython_mode():
    pytest.importorskip("numba")
    if not jit.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    words = np.zeros(4 * 28, np.uint32)
    shake.shuffle_block(5, 0, 28, words)
    assert shake.shuffle_block.nopython_signatures     # a numba dispatcher that compiled


def test_no_jit_variable_and_plain_import_never_load_numba():
    program = ("import sys, dominorules, dominorules.kernel; assert 'numba' not in sys.modules\n"
               "from dominorules.kernel import jit, shake\n"
               "assert 'numba' not in sys.modules and not jit.available()\n"
               "assert type(shake.keccak_f1600).__name__ == 'function'\n")
    env = {**os.environ, "DOMINORULES_NO_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", program], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_shuffle_keys_squeezes_lazily_the_same_keys_as_shuffle_block(kernel):
    T = 28
    for seed in SEEDS[:2] if compiled(kernel) else SEEDS[2:3]:
        state, msg = np.empty(25, np.uint64), np.empty(shake.MSG, np.uint8)
        lazy, eager = np.zeros(4 * T, np.uint32), np.zeros(4 * T, np.uint32)
        have = 0
        for made in range(6):
            have = kernel.shuffle_keys(seed, made, T, lazy, state, msg, have)
            if made % 4 == 0:
                kernel.shuffle_block(seed, made // 4, T, eager)
            j = made % 4
            assert lazy[j * T:(j + 1) * T].tolist() == eager[j * T:(j + 1) * T].tolist()
            assert have == min(4 * T, -(-(j + 1) * T // shake.CHUNK) * shake.CHUNK)


@pytest.mark.parametrize("players", [2, 3])
def test_seat_words_read_lazily_are_the_engines_seat_streams(kernel, players):
    # seats read in an uneven order, well past their first block and into a second later one
    reads = [0, 1, 1, 0] * 40 + [players - 1] * 260 if compiled(kernel) else [players - 1] * 60
    for seed in SEEDS[:2] if compiled(kernel) else SEEDS[1:2]:
        buf = np.zeros(shake.seat_buffer_size(players), np.uint32)
        pos, end, block, made = (np.zeros(players, np.int64) for _ in range(4))
        shared = np.zeros(1, np.int64)
        first, states = np.empty(25, np.uint64), np.empty((players, 25), np.uint64)
        msg = np.empty(shake.MSG, np.uint8)
        kernel.seat_words_start(seed, players, buf, pos, end, block, shared, first, msg)
        want = [chain(iter(f, None), iter(seat_rest(seed, s), None)).__next__
                for s, f in enumerate(seat_first(seed, players))]
        for p in reads:
            if pos[p] == end[p]:
                kernel.seat_words_next(seed, p, players, buf, pos, end, block, made, shared,
                                       first, states, msg)
            assert buf[pos[p]] == want[p](), (seed, p)
            pos[p] += 1


def test_permute8_permutes_each_column_as_keccak_f1600(kernel):
    # compiled: the vector code of kernel.keccak8; plain: keccak_f1600 column by column
    rng = np.random.default_rng(8)
    for states in (rng.integers(0, 2 ** 63, (25, shake.LANES), dtype=np.uint64),
                   np.zeros((25, shake.LANES), np.uint64)):
        want = states.copy()
        for lane in range(shake.LANES):
            column = want[:, lane].copy()
            shake.keccak_f1600(column)
            want[:, lane] = column
        kernel.permute8(states)
        assert states.tolist() == want.tolist()


@pytest.mark.parametrize("players", [2, 3])
def test_eight_matches_streams_at_once_are_each_matchs_own(kernel, players):
    # first_streams8 gives the first deals (a whole group, groups in part, none), the
    # seats' first block and their block 1's first words (or not) of up to eight matches;
    # given_keys and seat_words_given read them as shuffle_keys and seat_words_start
    # would, and seat_words_next goes on past them as it does
    T, deals, lanes = 28, 11, shake.LANES
    seeds = np.array([api.match_seed(9, k) for k in range(lanes)] + [5], np.int64)
    cases = ((1, 8, 0, True), (0, 3, 6, False)) if compiled(kernel) else ((1, 2, 5, True),)
    B8 = (np.zeros(lanes * shake.GIVEN * T, np.uint32),
          np.zeros(lanes * FIRST * players, np.uint32),
          np.zeros(lanes * players * shake.CHUNK, np.uint32),
          np.zeros((lanes * players, 25), np.uint64), np.empty((25, lanes), np.uint64),
          np.empty(25, np.uint64))
    deals8 = B8[0]
    msg = np.empty(shake.MSG, np.uint8)
    for at, count, given, more in cases:
        kernel.first_streams8(seeds, at, count, players, T, given, more, B8, msg)
        for lane in range(count):
            seed = int(seeds[at + lane])
            state, msg1 = np.empty(25, np.uint64), np.empty(shake.MSG, np.uint8)
            got, want = np.zeros(4 * T, np.uint32), np.zeros(4 * T, np.uint32)
            have = 0
            for made in range(deals):
                have = kernel.given_keys(deals8, lane * shake.GIVEN * T, given, seed, made, T,
                                         got, state, msg1, have)
                if made % 4 == 0:
                    kernel.shuffle_block(seed, made // 4, T, want)
                j = made % 4
                assert got[j * T:(j + 1) * T].tolist() == want[j * T:(j + 1) * T].tolist(), (
                    seed, given, made)
            buf = np.zeros(shake.seat_buffer_size(players), np.uint32)
            pos, end, block, made_ = (np.zeros(players, np.int64) for _ in range(4))
            shared = np.zeros(1, np.int64)
            first, states = np.empty(25, np.uint64), np.empty((players, 25), np.uint64)
            made_[:] = 7   # whatever a previous match left
            kernel.seat_words_given(B8, lane, players, more, buf, pos, end, block, made_,
                                    shared, states)
            wanted = [chain(iter(f, None), iter(seat_rest(seed, s), None)).__next__
                      for s, f in enumerate(seat_first(seed, players))]
            for p in [0, 1] * 100 + [players - 1] * 150:
                if pos[p] == end[p]:
                    kernel.seat_words_next(seed, p, players, buf, pos, end, block, made_,
                                           shared, first, states, msg1)
                assert buf[pos[p]] == wanted[p](), (seed, p)
                pos[p] += 1
