"""Bot seat streams (engine.streams): what they are made of, and that every way of
getting one gives the same numbers."""

import hashlib
import random

import pytest

from dominorules import api
from dominorules.bots.random_bot import RandomBot
from dominorules.engine.streams import (
    FIRST,
    SeatRandom,
    seat_bits,
    seat_first,
    seat_rest,
    seat_stream,
    seat_streams,
)


def words(next32, count):
    return [next32() for _ in range(count)]


def test_a_seat_stream_is_shake128_of_the_seed_then_of_the_seat_and_block():
    first = hashlib.shake_128(b"0:bots").digest(4 * FIRST * 2)
    second = hashlib.shake_128(b"0:bots1:1").digest(8)
    got = words(seat_stream(0, 1).next32, FIRST + 2)
    assert got[0] == int.from_bytes(first[4 * FIRST:4 * FIRST + 4], "little")
    assert got[FIRST - 1] == int.from_bytes(first[-4:], "little")
    assert got[FIRST:] == [int.from_bytes(second[:4], "little"),
                           int.from_bytes(second[4:], "little")]


def test_the_match_streams_and_a_single_seat_stream_agree_across_blocks():
    for seed in (0, 7, -7, 2 ** 47 + 5):
        together = seat_streams(seed, 4)
        bits = seat_bits(seed, 4)
        first = seat_first(seed, 4)
        for seat in range(4):
            alone = words(seat_stream(seed, seat).next32, 600)
            assert words(together[seat].next32, 600) == alone
            assert words(bits[seat], 600) == alone
            # the engine's start: the first block alone, which ends, then the rest
            assert words(first[seat], FIRST) == alone[:FIRST]
            with pytest.raises(StopIteration):
                first[seat]()
            assert words(seat_rest(seed, seat), 600 - FIRST) == alone[FIRST:]


def test_seats_and_seeds_get_different_streams():
    firsts = {tuple(words(seat_stream(seed, seat).next32, 4))
              for seed in (5, -5, 6) for seat in range(4)}
    assert len(firsts) == 12


def test_random_is_the_word_over_two_to_the_32_so_the_uniform_pick_is_exact():
    a, b = seat_stream(3, 0), seat_stream(3, 0)
    for _ in range(300):
        w, x = a.next32(), b.random()
        assert x == w / 2 ** 32 and 0.0 <= x < 1.0
    for w in (0, 1, 2 ** 31, 2 ** 32 - 1, 3 * 2 ** 30 + 12345):
        for n in range(1, 92):
            assert int(w / 2 ** 32 * n) == (w * n) >> 32


def test_every_random_method_is_reproducible_from_the_seat_stream():
    def draws(rng):
        items = list(range(10))
        rng.shuffle(items)
        return (rng.choice("abcdef"), rng.randrange(1000), rng.randint(1, 6),
                rng.getrandbits(70), items, rng.gauss(0, 1), rng.sample(range(50), 3))
    first = draws(seat_stream(11, 2))
    assert first == draws(seat_stream(11, 2))
    assert first != draws(seat_stream(11, 3))
    assert 0 <= first[3] < 2 ** 70 and sorted(first[4]) == list(range(10))
    assert isinstance(seat_stream(11, 2), random.Random)


def test_reseeding_restarts_the_stream_and_state_cannot_be_saved():
    a, b = SeatRandom(), SeatRandom()
    a.seed(5)
    b.seed(5)
    assert [a.random() for _ in range(100)] == [b.random() for _ in range(100)]
    with pytest.raises(TypeError, match="no state to save"):
        a.getstate()
    with pytest.raises(TypeError, match="no state to restore"):
        a.setstate(None)


def test_the_random_bot_on_a_plain_random_picks_the_same_index_by_float():
    policy = RandomBot(0, random.Random(4)).policy(None)
    rng = random.Random(4)
    # left end fits tiles 3 and 9, right end fits 5: canonical order 3L, 9L, 5R
    picks = [policy(1 << 3 | 1 << 9, 1 << 5, False) for _ in range(30)]
    expect = [[3 << 2, 9 << 2, 5 << 2 | 1][int(rng.random() * 3)] for _ in range(30)]
    assert picks == expect
    assert not hasattr(policy, "uniform_bits")


def test_bots_given_per_seat_use_the_same_streams_as_the_simulation_fast_path():
    game = api.load_game("pagat")
    a = api.play_match(game, 3, 9, bots="random", trace=True)
    b = api.play_match(game, 3, 9, bots=["random", RandomBot, "random"], trace=True)
    c = api.play_match(game, 3, 9, bots=[RandomBot] * 3, trace=True, fast=False)
    assert a.events == b.events == c.events
