"""The deal's, the set's and the round end's mechanisms on the JIT (the kernel pieces beside
``engine.mechanisms.leftover``, ``turn_up``, ``side_out``, ``blind`` and ``position``;
``kernel/jit_copies.py``): the tiles left over given to a seat (``deal.leftover``), the
stock's tile turned up to start the line (``deal.turn_up``), two sets shuffled together
(``set.copies``), play on until a side is out (``play.until``), hidden hands played from
the front of a row (``deal.blind``), the seat after a seat (``play.direction``).

The pieces answer as their mechanisms (``leftover.receiver``, ``turn_up.stand_in``,
``side_out``, ``blind``, ``Position.next_seat``, ``TileSet.canonical``) for every seat
count, leader and direction, as plain Python and compiled into a caller as a kernel
compiles them; and the GEN kernel, playing them, gives the Python engine's matches field
for field, with every builtin bot, on rulesets built to reach what the builtin ones do
not (a turned-up tile in the Draw game, under play-time events, played to the right; the
tiles left over to the seat before the leader; two sets to the right; hidden rows with a
turned-up tile, or to the right; seats going out under events, to the right). The
builtin rulesets themselves are in ``test_kernel_jit_house.py``'s cases. Nothing here
compiles a kernel of its own.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from dominorules import api
from dominorules.engine.mechanisms import blind, leftover, position, side_out, turn_up
from dominorules.kernel import jit_kernel


def pieces_as(way: str, *fns):
    """The pieces as plain Python, or each compiled into a caller as a kernel compiles it
    (skipped without numba or with the JIT off)."""
    if way == "plain":
        return fns
    pytest.importorskip("numba")
    if not jit_kernel.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    from piece_checks import compiled_caller

    return tuple(compiled_caller(f) for f in fns)


@pytest.mark.parametrize("way", ["plain", "compiled"])
def test_the_pieces_answer_as_their_mechanisms(way):
    seat_after, before, receiver = pieces_as(
        way, position.seat_after_piece, turn_up.before_piece, leftover.receiver_piece)
    rules = api.load_game("pagat").rules
    for players in (2, 3, 4, 5):
        for right in (0, 1):
            pos = position.Position(replace(rules, direction="right" if right else "left"),
                                    players, tuple((s,) for s in range(players)), 100,
                                    [0] * players, [0] * players)
            nxt = [(s - 1) % players if right else (s + 1) % players for s in range(players)]
            assert [seat_after(s, players, right) for s in range(players)] == [
                pos.next_seat(s) for s in range(players)] == nxt
            for leader in range(players):
                assert before(leader, players, right) == turn_up.stand_in(
                    leader, nxt.__getitem__, players)
                for rule, code in leftover.LEFTOVER_CODES.items():
                    want = leftover.receiver(rule, leader, nxt.__getitem__, players)
                    assert receiver(code, leader, players, right) == (
                        -1 if want is None else want)


@pytest.mark.parametrize("way", ["plain", "compiled"])
def test_the_side_out_pieces_answer_as_their_mechanism(way):
    import numpy as np

    next_in, goes_on = pieces_as(way, side_out.next_in_piece, side_out.goes_on_piece)
    for players in (2, 4, 6):
        teams = np.array([[s, s + players // 2] for s in range(players // 2)], np.int64)
        for right in (0, 1):
            nxt = [(s - 1) % players if right else (s + 1) % players for s in range(players)]
            for outs in range(1 << players):
                out = {s for s in range(players) if outs >> s & 1}
                if len(out) == players:
                    continue
                hands = np.array([0 if s in out else 1 << s for s in range(players)],
                                 np.int64)
                for seat in range(players):
                    assert next_in(seat, players, right, outs) == side_out.next_in(
                        nxt.__getitem__, seat, out)
                for side, team in enumerate(teams.tolist()):
                    assert goes_on(side, hands, teams) == side_out.goes_on(
                        "side_out", team, lambda s, h=hands: bool(h[s]))


def test_the_copies_piece_answers_as_the_tile_set():
    import random

    from dominorules.engine.tiles import TileSet
    from dominorules.kernel import jit_copies

    ts = TileSet(6, copies=2)
    rng = random.Random(5)
    masks = [0, (1 << 56) - 1, 0b11, 0b10, 0b0110] + [rng.getrandbits(56) for _ in range(300)]
    for m in masks:
        assert jit_copies.canonical(m, ts.seconds) == ts.canonical(m)
    assert TileSet(6).seconds == 0


@pytest.mark.parametrize("max_pip", [6, 9, 12])
def test_the_copies_piece_answers_as_the_tile_set_over_words(max_pip):
    """``canonical_at`` on a jit_masks set: one int64 mask (two double-six sets, the second
    copies' mask given itself), or rows of words (the second copies' words in a table at
    0: two double-nine sets, 110 tiles; two double-twelve sets, 182 tiles), each word a
    set of whole pairs of copies."""
    import random

    from dominorules.engine.tiles import TileSet
    from dominorules.kernel import jit, jit_bits, jit_copies

    copies = jit.plain(jit_copies) if jit.available() else jit_copies
    ts = TileSet(max_pip, copies=2)
    T = ts.tile_count
    W = jit_bits.words(T) if T > 62 else 0
    rng = random.Random(max_pip)
    masks = [0, (1 << T) - 1, ts.seconds, ts.seconds >> 1] + [rng.getrandbits(T)
                                                              for _ in range(200)]
    sec = jit_bits.wide([ts.seconds], W)[0] if W else np.zeros(1, np.int64)   # (CODE)
    for m in masks:
        A = jit_bits.wide([m], W) if W else np.array([m], np.int64)
        copies.canonical_at(A, 0, sec, 0 if W else ts.seconds)
        got = sum(int(x) << (w * jit_bits.BITS) for w, x in enumerate(A[0])) if W else int(A[0])
        assert got == ts.canonical(m), m


def test_the_jit_takes_copies_beside_what_names_a_tile(tmp_path):
    """(an event, a settlement naming a tile, with every tile twice: once refused, now
    played; their matches are tests/test_kernel_jit_turns.py's)"""
    for extra in ("events:\n  - after: place\n    if: \"tile.is_double\"\n    points: 5\n",
                  "scoring:\n  domino: \"sum(opponents.pips) + (50 if last_tile == [0|0] "
                  "else 0)\"\n"):
        file = tmp_path / "two.yaml"
        file.write_text("title: Two\nextends: house/two-sets\n" + extra, encoding="utf-8")
        assert jit_kernel.jit_reason(api.load_game(str(file)), 3, need_numba=False) is None


@pytest.mark.parametrize("way", ["plain", "compiled"])
def test_the_blind_rows_answer_as_their_mechanism(way):
    """The ring pieces (as plain Python, and compiled into a caller as the kernel compiles
    them) against the rows of the reference, turn after turn of random fronts placed or
    put back, until the rows are empty."""
    import random

    import numpy as np

    if way == "plain":
        rows_of, front, pop_front, to_back = (blind.rows_of_piece, blind.front_piece,
                                              blind.pop_front_piece, blind.to_back_piece)
    else:
        pytest.importorskip("numba")
        if not jit_kernel.available():
            pytest.skip("DOMINORULES_NO_JIT is set")
        from piece_checks import compiled_caller

        rows_of, front, pop_front, to_back = (
            compiled_caller(f) for f in (blind.rows_of_piece, blind.front_piece,
                                         blind.pop_front_piece, blind.to_back_piece))
    def ring(ROWS, head, count, s):   # seat s's ring, front first
        return [int(ROWS[s, (head[s] + i) % ROWS.shape[1]]) for i in range(count[s])]

    rng = random.Random(3)
    for players, size in ((3, 5), (2, 7), (4, 1)):
        deck = np.array(rng.sample(range(28), 28), np.int64)
        ROWS = np.zeros((players, size), np.int64)
        head, count = np.zeros(players, np.int64), np.zeros(players, np.int64)
        rows_of(deck, players, size, ROWS, head, count)
        want = blind.rows_of(deck.tolist(), players, size)
        assert [ring(ROWS, head, count, s) for s in range(players)] == want
        while any(want):   # turns: the front placed, or put back
            s = rng.randrange(players)
            if not want[s]:
                continue
            assert front(ROWS, head, s) == blind.front(want[s])
            if rng.random() < 0.3:
                pop_front(ROWS, head, count, s)
                want[s].pop(0)
            else:
                to_back(ROWS, head, count, s)
                blind.to_back(want[s])
            assert ring(ROWS, head, count, s) == want[s]


RULESETS = {
    # the Draw game with a turned-up tile: draws, the strategist's boneyard count
    "up-draw": "extends: pagat\ndeal:\n  turn_up: true\n",
    # play-time events (none for the turned-up tile) and the spinner-free fives count
    "up-events": "extends: house/all-fives\ndeal:\n  turn_up: true\n",
    # the stand-in is the seat before the leader the other way round
    "up-right": "extends: house/turned-up-starter\nplay:\n  direction: right\n",
    "left-before": ("extends: house/leftover-to-leader\ndeal:\n  leftover: before_leader\n"
                    "play:\n  direction: right\n"),
    # every tile twice, to the right (the strategist plays in Python there: jit_reason)
    "copies-right": "extends: house/two-sets\nplay:\n  direction: right\n",
    # hidden rows with the 28th tile turned up (three seats), and to the right
    "blind-up": ("extends: house/blind-hughie\nplayers:\n  min: 3\n  max: 3\n"
                 "deal:\n  hand_size: 9\n  turn_up: true\n"),
    "blind-right": "extends: house/blind-hughie\nplay:\n  direction: right\n",
    # seats going out under events (their points count), played to the right
    "side-events": ("extends: house/all-fives\nplayers:\n  min: 4\n  max: 4\n"
                    "  sides: partnerships\nplay:\n  until: side_out\n  direction: right\n"),
}
SEATS = {"side-events": (4,), "blind-up": (3,)}   # the seats they are for


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("deal")
    out = {}
    for name, text in RULESETS.items():
        path = folder / f"{name}.yaml"
        path.write_text(f"title: {name}\ndescription: a test\nsource: a test\n{text}",
                        encoding="utf-8")
        out[name] = api.load_game(str(path))
    return out


@pytest.mark.parametrize("name", list(RULESETS))
def test_the_jit_gives_the_python_engines_matches(games, name):
    pytest.importorskip("numba")
    if not jit_kernel.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    from dominorules.kernel import engines

    game = games[name]
    seeds = [api.match_seed(6, i) for i in range(4)]
    for players in SEATS.get(name, (2, 3, 4)):
        for bots in ("random", "greedy", "strategist",
                     ["strategist", "greedy", "random", "strategist"][:players]):
            # (the strategist's own policy for two sets and hidden rows too:
            # jit_strategist_arms, jit_strategist_blind)
            assert jit_kernel.jit_reason(game, players, bots) is None
            got = engines.jit_results(game, players, seeds, bots)
            for seed, match in zip(seeds, got, strict=True):
                assert match == api.play_match(game, players, seed, bots), (players, bots)
