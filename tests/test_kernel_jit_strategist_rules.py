"""The strategist on the JIT under a fit rule, hidden rows and two sets: the Python's.

``bots.strategist_fast`` weighs these through ``Knowledge`` (``make_decider``): a fit
rule's placements each way round, the front tile's end on hidden rows
(``_blind_decider``), a tile held twice as two tiles. The JIT plays them with
``jit_strategist_arms.choose_arms`` and ``jit_strategist_blind.choose_blind``; here each
is asked every choice of seeded Python matches (as plain Python: nothing compiled), then
whole matches of every player count each ruleset takes are played on both engines, the
results equal field for field and the records byte for byte. The kernel is the shared
house-rule kernel the other JIT tests compile.
"""

from __future__ import annotations

import numpy as np
import pytest
from jit_record_checks import player_counts
from test_kernel_jit_strategist_arms import (
    SHARED,
    _low_index,
    _popcount,
    _positions,
    arms_call,
    known_of,
)

from dominorules import api
from dominorules.bots.strategy import Knowledge
from dominorules.engine.actions import DRAW, FLIP
from dominorules.kernel import (
    engines,
    jit,
    jit_matching,
    jit_strategist,
    jit_strategist_arms,
    jit_strategist_blind,
)
from dominorules.record_lines import encode_events

RULESETS = ("house/matador", "house/matador-nine", "house/blind-hughie", "house/two-sets")


# the seats' words come from the spy (seat_word); a kernel's WS beside them (no Twister:
# not the expert's playouts, whose ties draw from one)
NO_WORDS = (None, None, None, None, None, np.zeros(1, np.int64))

def _plain(monkeypatch, words: list[int]):
    """The strategist's numba pieces as plain Python, their words from ``words``."""
    mods = [jit.plain(m) if jit.available() else m
            for m in (jit_strategist_arms, jit_strategist_blind, jit_strategist)]

    def seat_word(seed, p, N, WS):
        return words.pop(0)
    for module in mods:
        monkeypatch.setattr(module, "seat_word", seat_word, raising=False)
        monkeypatch.setattr(module, "popcount", _popcount, raising=False)
        monkeypatch.setattr(module, "low_index", _low_index, raising=False)
    for name in SHARED:   # the terms the pieces share, as plain Python too
        monkeypatch.setattr(mods[0], name, getattr(mods[2], name))
    monkeypatch.setattr(mods[1], "tied", mods[2].tied)   # (hidden rows' ties)
    return mods


@pytest.mark.parametrize(("ref", "players"), [("house/matador", 2), ("house/matador", 4),
                                              ("house/blind-hughie", 3),
                                              ("house/blind-hughie", 4)])
def test_the_jit_pieces_make_strategist_fasts_choice_in_every_position(monkeypatch, ref,
                                                                       players):
    words: list[int] = []
    arms, blind, js = _plain(monkeypatch, words)
    positions = _positions(monkeypatch, ref, players, range(8))
    game = api.load_game(ref)
    T, reserve = game.tileset.tile_count, game.rules.reserve
    S = jit_strategist.tables(game, players)
    TS, TC = np.zeros(4 * T + 2), np.zeros(4 * T, np.int64)
    asked = flips = tied = 0
    for seat, masks, can_draw, hand, record, given, got in positions:
        known = Knowledge(players, game.rules.max_pip, False, game.rules.fit)
        known.read(record)
        if known.ends is None:   # the opening: jit_strategist.opening
            continue
        ends = (*known.ends, 0, 0)[:4]
        words[:] = [int(r * 2 ** 32) for r in given]
        K = known_of(js, record, game, players, blind, S)
        want = -1 if got == DRAW else (got & ~FLIP) | (jit_matching.FLIP if got & FLIP else 0)
        if game.rules.blind:
            found = blind.choose_blind(seat, np.array(masks, np.int64), (0, 1, 2, 3), 2, ends,
                                       K, S, TC, 0, players, NO_WORDS, np.zeros(2, np.int64))
        else:
            left = known.boneyard - reserve - known.draws
            found = arms_call(arms, seat, masks, can_draw, hand, ends, 2, left,
                              known.drawn(seat), K, S, TS, TC, players)
        assert found == want, (seat, masks, record[-3:])
        assert not words   # the same words, no more
        asked += 1
        flips += bool(got & FLIP)
        tied += bool(given)
    # the positions hold ties broken by the words, and under the fit rule second ways
    assert asked > 40 and tied > 3, (asked, tied)
    assert flips or game.rules.blind


def test_the_jit_plays_the_strategist_on_these_rulesets():
    from dominorules.kernel import jit_kernel
    for name in RULESETS:
        game = api.load_game(name)
        for players in player_counts(game, 8):
            assert jit_kernel.jit_reason(game, players, "strategist",
                                         need_numba=False) is None, name
    # a 91-tile set under house rules plays there too (the GEN lines over words)
    assert jit_kernel.jit_reason(api.load_game("house/matador-twelve"), 2,
                                 "strategist", need_numba=False) is None


def _matches():
    for name in RULESETS:
        for players in player_counts(api.load_game(name), 8):
            yield name, players


@pytest.mark.parametrize(("name", "players"), list(_matches()))
def test_the_jit_strategist_plays_the_python_engines_matches_and_records(name, players):
    pytest.importorskip("numba")
    from dominorules.kernel import jit_kernel
    if not jit_kernel.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    game = api.load_game(name)
    seeds = [api.match_seed(23, i) for i in range(2)]
    mixed = [("strategist", "random", "greedy")[s % 3] for s in range(players)]
    for bots in ("strategist", mixed):
        jit_got = engines.jit_results(game, players, seeds, bots, trace=True)
        for seed, got in zip(seeds, jit_got, strict=True):
            want = api.play_match(game, players, seed, bots, trace=True, engine="python")
            assert got == want, (bots, seed)
            assert encode_events(got.events) == encode_events(want.events), (bots, seed)


# the mechanisms together: a fit rule on a spinner, hidden rows and a fit rule with two sets
TOGETHER = {"fit-spinner": "extends: house/matador\nboard:\n  spinner: first_double\n"
                           "matching:\n  doubles: across\n",
            "blind-copies": "extends: house/blind-hughie\nset:\n  copies: 2\n",
            "fit-copies": "extends: house/matador\nset:\n  copies: 2\n"}


@pytest.mark.parametrize("name", list(TOGETHER))
def test_the_mechanisms_together_play_the_python_engines_matches(tmp_path, name):
    pytest.importorskip("numba")
    from dominorules.kernel import jit_kernel
    if not jit_kernel.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"title: {name}\n{TOGETHER[name]}", encoding="utf-8")
    game = api.load_game(str(path))
    seeds = [api.match_seed(29, i) for i in range(2)]
    for players, bots in ((2, "strategist"), (3, ["strategist", "greedy", "strategist"])):
        assert jit_kernel.jit_reason(game, players, bots) is None
        jit_got = engines.jit_results(game, players, seeds, bots, trace=True)
        for seed, got in zip(seeds, jit_got, strict=True):
            want = api.play_match(game, players, seed, bots, trace=True, engine="python")
            assert got == want, (bots, seed)
            assert encode_events(got.events) == encode_events(want.events), (bots, seed)
