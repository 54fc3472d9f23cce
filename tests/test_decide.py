"""One truth per turn: the Decision the match loop yields at a turn of play is the one
``GeneralLoop.decide`` computes from the position (what rule examples ask through
``engine.positions``), for every builtin ruleset. The loop's inline fast path (the line
with none of ``_fits``' rules) is held to ``_fits`` here, and a position's legal moves
cannot drift from a match's.
"""

from __future__ import annotations

import random

import pytest

from dominorules import api
from dominorules.engine.decision import DECLARE, OPEN, PLAY
from dominorules.engine.general_loop import GeneralLoop
from dominorules.engine.state import legal_pairs
from dominorules.rules import builtin_rulesets

BUILTINS = [b.name for b in builtin_rulesets()]


def _turns(name: str, seed: int) -> tuple[int, int]:
    """Play two rounds of ``name`` step by step with random legal moves; at every turn of
    play, compare the yielded Decision with ``decide``'s. (turns compared, openings)."""
    game = api.load_game(name)
    n = max(game.rules.min_players, min(3, game.rules.max_players))
    core = GeneralLoop(game, n, seed, [None] * n, record=False, max_rounds=2)
    draw_end = game.setup(n).draw_end
    rng = random.Random(seed)
    gen = core.run()
    compared = opened = 0
    try:
        d = next(gen)
        while True:
            if d.phase == PLAY:
                assert core.decide(d.player, d.drawn, d.pos, draw_end) == d, (name, d)
                compared += 1
            elif d.phase == OPEN:
                opened += 1
            if d.phase == DECLARE:
                code = rng.randrange(len(legal_pairs(game, d)))
            else:
                code = rng.choice(legal_pairs(game, d))[0]
            d = gen.send(code)
    except StopIteration:
        pass
    return compared, opened


@pytest.mark.parametrize("name", BUILTINS)
def test_the_loop_yields_the_decision_decide_computes(name):
    compared, _ = _turns(name, 7)
    assert compared > 0


def test_a_position_narrows_by_the_restriction_as_the_loop_does():
    """house/double-blank-last: [0|0] may go down only as the lone playable tile. In a
    position it is held back beside 0-3, and offered once it is alone (what ``_fits``
    narrows for the loop and positions alike)."""
    from dominorules.engine import positions

    game = api.load_game("house/double-blank-last")
    data = {"ends": [0, 4], "turn": 0, "boneyard": 0}
    both = positions.legal(game, data, [["0-0", "0-3", "6-6"], ["5-5"]])
    assert [str(a) for a in both] == ["3-0 left"]   # placed 3-0: its 0 against the 0
    alone = positions.legal(game, data, [["0-0", "6-6"], ["5-5"]])
    assert [str(a) for a in alone] == ["0-0 left"]


def test_the_specialised_kernel_inlines_the_fits():
    """The general loop's kernel (kernel.specialise_loop) splices _fits' body in at the
    turn, its switches folded: a blind row's ruleset keeps the front tile, no call."""
    from dominorules.kernel.specialise_loop import general_kernel

    blind = general_kernel(api.load_game("house/blind-hughie"), 3, False).source
    copies = general_kernel(api.load_game("house/two-sets"), 3, False).source
    assert "fits_of(" not in blind and "fits_of(" not in copies
    assert "blind_rule.front(self.rows[p])" in blind and "canonical" not in blind
    assert "canonical" in copies and "blind_rule.front" not in copies
