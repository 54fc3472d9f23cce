"""The strategist on a spinner in the JIT (``kernel.jit_strategist_arms.choose_arms``),
held to ``bots.strategist_fast`` position by position.

Every choice the Python strategist makes in seeded matches on a spinner (two to four
players, a partnership, muggins' fives) is asked again of ``choose_arms``, with what the
record tells of each seat kept by the JIT's own ``know_*`` from the same record and the
same random words: it must pick the same placement (or the same draw), using the same
words for its ties. The functions run as plain Python (``jit.plain``), so this compiles
nothing; ``test_kernel_jit_strategist.py`` plays whole matches on both engines.
"""

from __future__ import annotations

import numpy as np
import pytest

from dominorules import api
from dominorules.bots import strategist_fast
from dominorules.bots.strategy import END_INDEX, Knowledge
from dominorules.engine.actions import DRAW
from dominorules.engine.board import Board
from dominorules.engine.mechanisms.matching import left_open
from dominorules.kernel import jit, jit_strategist, jit_strategist_arms

# the pieces jit_strategist_arms takes from jit_strategist
SHARED = ("best", "blocks", "next_suits", "pick", "rank", "sides", "suited", "unseen")


class _Words:
    """A seat's random stream that notes every value it gives (the JIT's word is the
    value times 2**32)."""

    def __init__(self, rng):
        self.rng, self.given = rng, []

    def random(self) -> float:
        r = self.rng.random()
        self.given.append(r)
        return r


# the seats' words come from the spy (seat_word); a kernel's WS beside them (no Twister:
# not the expert's playouts, whose ties draw from one)
NO_WORDS = (None, None, None, None, None, np.zeros(1, np.int64))
# the tiles fitting each end (left, right, up, down), then those fitting it two ways
ROWS = tuple(range(8))


def arms_call(arms, seat: int, masks, can_draw: bool, hand: int, ends, ne: int, left: int,
              drawn: int, K, S, TS, TC, players: int) -> int:
    """``choose_arms`` over the kernel's sets as a narrow kernel names them (``jit_masks``:
    one mask a set), the ends' masks given as ints."""
    M = np.array([*masks, 0, 0, 0, 0], np.int64)
    return arms.choose_arms(seat, M, ROWS, ne, can_draw, np.array([hand], np.int64), 0,
                            tuple(ends), left, drawn, K, S, TS, TC, 0, players, NO_WORDS,
                            None, np.zeros(2, np.int64))

def _positions(monkeypatch, ref: str, players: int, seeds: range) -> list[tuple]:
    """Every choice of the strategists' bound policies in matches of ``ref``: (seat, the
    policy's arguments, hand, record so far, the words it drew, its answer)."""
    seen: list[tuple] = []
    made = strategist_fast.make_decider

    def spy(rng, known, game, n, seat):
        words = _Words(rng)
        decide = made(words, known, game, n, seat)
        bind = decide.bind

        def bound(view):
            policy = bind(view)

            def noted(m0, m1, can_draw, m2=0, m3=0):
                before = len(words.given)
                hand, record = view.hand, list(view.record)
                got = policy(m0, m1, can_draw, m2, m3)
                seen.append((seat, (m0, m1, m2, m3), can_draw, hand, record,
                             words.given[before:], got))
                return got
            return noted
        decide.bind = bound
        return decide

    monkeypatch.setattr(strategist_fast, "make_decider", spy)
    game = api.load_game(ref)
    for seed in seeds:
        api.play_match(game, players, api.match_seed(7, seed), "strategist", trace=True)
    return seen


def _popcount(m) -> int:
    return int(m).bit_count()


def _low_index(m) -> int:
    m = int(m)
    return (m & -m).bit_length() - 1


def known_of(js, record: list, game, players: int, blind=None, S=None) -> np.ndarray:
    """What the record tells of each seat, as the JIT kernel keeps it (``know_*``): from
    the round's deal, each placement (under the ruleset's fit rule) and each draw or pass
    at every open end; with ``blind`` (``jit_strategist_blind``) a hidden row's shown
    tiles too."""
    ts, fit = game.tileset, game.rules.fit
    tiles = {(ts.low[t], ts.high[t]): t for t in range(ts.tile_count)}
    K = np.zeros((js.KNOW_ROWS + players, max(players, ts.tile_count)), np.int64)
    board = None
    for e in record:
        kind = e["event"]
        if kind == "deal":
            js.know_deal(K)
            board = None
        elif kind == "place":
            a, b = e["tile"]
            t, p = tiles[a, b], e["player"]
            if blind is not None:
                blind.know_front(K, p, S, t)
            if e["end"] is None:
                board = Board(game.rules.spinner == "first_double")
                board.open_with(a, b, a == b)
                js.know_open(K, p, t, a, b)
            else:
                at = END_INDEX[e["end"]]
                board.place(at, a, b, a == b,
                            left_open((a, b), board.values[at], fit, e.get("meets")))
                js.know_place(K, p, t, board.values[at])
        elif kind in ("draw", "pass") and board is not None:
            ends = board.values[:board.count]
            js.know_lack(K, e["player"], ends[0], ends[1])
            if len(ends) == 4:
                js.know_lack(K, e["player"], ends[2], ends[3])
            if blind is not None and e.get("tile") is not None:
                a, b = e["tile"]
                blind.know_shown(K, e["player"], S, tiles[a, b])
    return K


@pytest.mark.parametrize(("ref", "players"), [("house/spinner", 2), ("house/spinner", 3),
                                              ("partners", 4), ("house/muggins", 3)])
def test_choose_arms_makes_strategist_fasts_choice_in_every_position(monkeypatch, tmp_path,
                                                                     ref, players):
    if ref == "partners":
        path = tmp_path / "partners.yaml"
        path.write_text("title: Spinning partners\nextends: house/spinner\nplayers:\n"
                        "  min: 4\n  max: 4\n  sides: partnerships\n")
        ref = str(path)
    arms = jit.plain(jit_strategist_arms) if jit.available() else jit_strategist_arms
    js = jit.plain(jit_strategist) if jit.available() else jit_strategist
    words: list[int] = []

    def seat_word(seed, p, N, WS):
        return words.pop(0)
    for module in (arms, js):   # the plain copies call each other, the words from the spy
        monkeypatch.setattr(module, "seat_word", seat_word, raising=False)
        monkeypatch.setattr(module, "popcount", _popcount, raising=False)   # (jit_support's
        monkeypatch.setattr(module, "low_index", _low_index, raising=False)   # own tests)
    for name in SHARED:   # the terms the pieces share, as plain Python too
        monkeypatch.setattr(arms, name, getattr(js, name))
    positions = _positions(monkeypatch, ref, players, range(6))
    game = api.load_game(ref)
    ts = game.tileset
    T = ts.tile_count
    S = jit_strategist.tables(game, players)
    TS, TC = np.zeros(4 * T + 2), np.zeros(4 * T, np.int64)
    reserve = game.rules.reserve
    asked = four = tied = draws = 0
    for seat, masks, can_draw, hand, record, given, got in positions:
        known = Knowledge(players, game.rules.max_pip, True)
        known.read(record)
        if known.ends is None:   # the opening: jit_strategist.opening (its own tests)
            continue
        ends = (*known.ends, 0, 0)[:4]
        left = known.boneyard - reserve - known.draws
        words[:] = [int(r * 2 ** 32) for r in given]
        assert all(w == r * 2 ** 32 for w, r in zip(words, given, strict=True))
        want = -1 if got == DRAW else got
        assert arms_call(arms, seat, masks, can_draw, hand, ends, len(known.ends), left,
                         known.drawn(seat), known_of(js, record, game, players), S, TS, TC,
                         players) == want, (seat, masks, record[-3:])
        assert not words   # the same words, no more
        asked += 1
        four += len(known.ends) == 4
        tied += bool(given)
        draws += want == -1
    # the positions hold four open ends, ties broken by the words (and, at two players,
    # draws the strategist wanted)
    assert asked > 100 and four > 30 and tied > 3, (asked, four, tied, draws)
    assert draws or players > 2   # a draw wanted: an opponent next known to hold a suit
