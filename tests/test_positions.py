"""A rule example's events (engine.positions.fired) come from the loop's own truth: the
action decoded and laid by Board's update as ``GeneralLoop.run`` lays it
(``_lay_tile``), its events fired by ``_fire`` and their draws paid by ``_pay_draws``.
Held here to the loop itself: at turns of real matches, the position as the record tells
it (the round's placements as ``board``, the hands, the boneyard, the scores) is handed
to ``fired`` with the action the match took, and the points and extra turns it reports
are the record's.
"""

from __future__ import annotations

import random

import pytest

from dominorules import api
from dominorules.engine import positions
from dominorules.engine.decision import PLAY
from dominorules.engine.general_loop import GeneralLoop
from dominorules.engine.tiles import Tile

# place events on a line: the ends' total, a spinner's arms, the table's tiles, another
# turn, skips
RULESETS = ("house/all-fives", "house/muggins", "house/bergen-headers",
            "house/doubles-play-again", "house/double-blank-skips")


def _tile(t: list[int]) -> str:
    return f"{t[0]}-{t[1]}"


def _position(state, d) -> dict:
    """The example's mapping for the decision ``d`` the match is at, from its record."""
    record = state.record
    start = max(i for i, e in enumerate(record) if e["event"] == "deal")
    board, passes = [], 0
    for e in record[start:]:
        if e["event"] == "place":
            board.append(_tile(e["tile"]) if e["end"] is None
                         else f"{_tile(e['tile'])} {e['end']}")
        if e["event"] in ("place", "draw"):
            passes = 0
        elif e["event"] == "pass":
            passes += 1
    core = state._core
    return {"board": board, "turn": d.player, "drawn_this_turn": d.drawn,
            "passes_in_row": passes, "scores": list(state.scores), "round": state.round,
            "boneyard": " ".join(_tile(core._tuples[t]) for t in core.deck[d.pos:])}


@pytest.mark.parametrize("name", RULESETS)
def test_fired_reports_what_the_loop_fires_at_a_real_turn(name):
    game = api.load_game(name)
    rng = random.Random(3)
    state = game.new_match(2, seed=11)
    compared = 0
    while not state.is_terminal and compared < 40:
        d = state._decision
        pairs = state._legal_pairs()
        code, action = rng.choice(pairs)
        if d.phase != PLAY:
            state.apply(action)
            continue
        data = {**_position(state, d), "action": str(action)}
        hands = [list(state.hand(s)) for s in range(2)]
        got = positions.fired(game, data, hands)
        mark = len(state.record)
        state.apply(action)
        lines = [e for e in state.record[mark:] if e["event"] in ("score", "extra_turn")]
        points = [0, 0]
        for e in lines:
            if e["event"] == "score":
                points[e["side"]] += e["points"]
        assert not isinstance(got, str), (name, data, got)
        assert (got[0], got[1]) == (points, sum(e["event"] == "extra_turn" for e in lines)), \
            (name, data)
        compared += 1
    assert compared > 10


def test_fired_lays_the_tile_through_the_loops_board_update(monkeypatch):
    """The placement goes down through ``GeneralLoop._lay_tile`` (Board's update), the
    tile and its end as the loop decodes them; the points are exact for the deal."""
    laid = []
    real = GeneralLoop._lay_tile
    monkeypatch.setattr(GeneralLoop, "_lay_tile",
                        lambda self, *a: laid.append(a) or real(self, *a))
    game = api.load_game("house/all-fives")
    got = positions.fired(game, {"ends": [5, 0], "turn": 0, "boneyard": 4,
                                 "action": "5-5 left"}, [["5-5", "1-2"], ["3-4"]])
    assert got == ([10, 0], 0, 0, 0)   # [5|5] at the 5, a 0 across: both its halves count
    assert len(laid) == 1 and laid[0][:2] == (game.tileset.index[Tile(5, 5)], 0)
