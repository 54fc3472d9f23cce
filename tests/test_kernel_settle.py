"""The settlement and match end written out per ruleset (``kernel.settle``): one truth with
``GeneralLoop._settle`` and ``_match_over``.

Constructed house rules use the settlement options no builtin ruleset uses (a rank
formula over round facts, highest wins, ties to each or to a named seat, every side's
points reading ``won``, drawn tiles paid to the winner, a domino settled as a block,
matches over a number of rounds, drawn-match conditions): for random round ends the
generated function and the loop's own method give the same winner and points, and whole
matches give the same records either way. A ruleset whose settlement is written out has
no call to the interpreted one in its kernel.
"""

from __future__ import annotations

import random

import pytest

from dominorules import api
from dominorules.engine.board import Board
from dominorules.engine.general_loop import GeneralLoop, RoundEnd
from dominorules.kernel.generate import covers, kernel_for, kernel_source
from dominorules.kernel.settle import match_over_for, settlement_for
from dominorules.rules import builtin_rulesets

RULES = {
    "rank": """extends: pagat
scoring:
  tile_value: "25 if tile.pips == 0 else tile.pips"
  blocked:
    winner: highest
    rank: "side.doubles * 10 + side.tiles - side.score + side.rounds_won
      + sum(side.players.pips)"
    tie: next_player
    points: "sum(opponents.pips) + winner.doubles + (last_tile.pips if both_ends
      else last_tile.high) + passes + drawn + boneyard + round + target // 10
      + boneyard_value * 2 + boneyard_pips % 7 + end_total * 3 + sum(ends) + count(ends)"
""",
    "each": """extends: mexican
scoring:
  blocked:
    winner: lowest_hand
    tie: each
    points: "sum(opponents.value) + min(winner.players.value) + count(seats)"
  every_side: "side.rounds_won - (side.value if blocked and not side.won else 0)
    + (1 if last_player.seat == side.index else 0) + sum(side.players.doubles)"
match:
  minimum_to_start: 15
""",
    "as_blocked": """extends: pagat
drawing:
  cost: 2
  cost_to: round_winner
scoring:
  domino_winner: as_blocked
  domino: "sum(opponents.value) + (10 if last_tile.is_double else 0) + max(seats.tiles)"
  blocked:
    winner: lowest_side
    tie: last_player
match:
  exact: true
  draw_if: "round >= 30"
""",
    "rounds": """extends: pagat
scoring:
  blocked:
    winner: lowest
    rank: "side.value - side.drawn + (3 if last_tile == [6|6] else 0)"
match:
  end: rounds
  target: 4
  winner: lowest
  tie: play_on
  draw_if: "round >= 6 and max(sides.score) - min(sides.score) < 20"
""",
    "rounds_won": """extends: mexican
scoring:
  blocked:
    tie: each
match:
  end: rounds_won
  target: 3
  draw_if: "sum(sides.rounds_won) >= 5 and round >= players"
""",
}
# readings the generator does not write: the loop's own methods settle these
FALLBACK = {
    "won_list": """extends: pagat
scoring:
  every_side: "count(sides) - sum(sides.drawn) if side.won else 0"
  domino: "sum(opponents.value) + (1 if winner.won else 0)"
match:
  draw_if: "round >= 40 or sum(sides.value) > 1000"
""",
}


def _game(tmp_path, text: str):
    path = tmp_path / "house.yaml"
    path.write_text("title: A house rule\n" + text)
    return api.load_game(str(path))


def _counts(game) -> list[int]:
    r = game.rules
    return [n for n in range(r.min_players, r.max_players + 1)
            if not r.partnerships or n in (2, 4)]


def _round_end(rng: random.Random, game, n: int) -> tuple:
    """A random, possible round end: hands, draws, who went out, the last tile, a board."""
    T = game.tileset.tile_count
    deck = list(range(T))
    rng.shuffle(deck)
    pos = rng.randrange(n, T - 1)
    hands = [0] * n
    for t in deck[:pos]:
        if rng.random() < 0.5:
            hands[rng.randrange(n)] |= 1 << t
    domino = rng.choice([None, None, rng.randrange(n)])
    if domino is not None:
        hands[domino] = 0
    if rng.random() < 0.3:   # equal hands: ties
        hands[1] = hands[0] if domino is None else 0
    board = Board(False)
    board.open_with(rng.randrange(7), rng.randrange(7), rng.random() < 0.3)
    for _ in range(rng.randrange(3)):
        board.place(rng.randrange(2), rng.randrange(7), rng.randrange(7), rng.random() < 0.3)
    return (hands, [rng.randrange(4) for _ in range(n)], domino, rng.randrange(n),
            rng.randrange(T), rng.random() < 0.3, board, deck, pos, rng.randrange(9),
            rng.randrange(1, 40))


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_written_settlement_is_the_loops(tmp_path, name):
    game = _game(tmp_path, RULES[name])
    assert covers(game) and game.rules.general
    rng = random.Random(name)
    for n in _counts(game):
        settle, over = settlement_for(game, n), match_over_for(game, n)
        assert settle is not None and over is not None
        core = GeneralLoop(game, n, 0, [None] * n, record=False)
        sides = len(game.teams(n))
        target = game.target(n)
        for _ in range(300):
            (hands, drawn_by, domino, last_player, last_tile, last_both, board, deck, pos,
             passes, rnd) = _round_end(rng, game, n)
            scores = [rng.choice([0, 0, 5, target - 3, target, target + 2]) for _ in range(sides)]
            won = [rng.randrange(4) for _ in range(sides)]
            core.scores, core.rounds_won, core.hands = list(scores), list(won), hands
            seats = core._seat_tallies(drawn_by)
            ended = RoundEnd(hands=hands, drawn_by=drawn_by, domino=domino,
                             last_player=last_player, last_tile=last_tile, last_both=last_both,
                             board=board, deck=deck, pos=pos, passes=passes, rnd=rnd,
                             scores=scores, rounds_won=won)
            expected = ([s.value for s in seats], *core._settle(seats, ended))
            got = settle(ended)
            assert got == expected
            assert scores == core.scores and won == core.rounds_won   # read, not changed
            play_on = game.setup(n).play_on
            assert over(rnd, scores, won) == core._match_over(rnd, play_on)


@pytest.mark.parametrize("name", sorted(RULES) + sorted(FALLBACK))
def test_whole_matches_settle_alike_on_the_kernel_and_the_loop(tmp_path, name):
    game = _game(tmp_path, {**RULES, **FALLBACK}[name])
    assert covers(game)
    for n in _counts(game):
        for i in range(5):
            seed = api.match_seed(31, i)
            for bots in ("random", "greedy"):
                a = api.play_match(game, n, seed, bots, trace=True)
                b = api.play_match(game, n, seed, bots, trace=True, engine="loop")
                assert a == b and a.events == b.events, (n, seed, bots)


def test_a_reading_the_generator_does_not_write_keeps_the_loops_methods(tmp_path):
    game = _game(tmp_path, FALLBACK["won_list"])
    assert settlement_for(game, 3) is None and match_over_for(game, 3) is None
    play = kernel_for(game, 3)
    assert play.__globals__["SETTLE"].__doc__.startswith("``settlement_for``'s function")


GENERAL = [b.name for b in builtin_rulesets()
           if api.load_game(b.name).rules.general and covers(api.load_game(b.name))]


@pytest.mark.parametrize("name", GENERAL)
def test_a_builtin_settlement_is_written_out_not_interpreted(name):
    """A regression to the interpreted settlement (Tally objects, closures, a GeneralLoop
    per match) fails here."""
    game = api.load_game(name)
    n = game.rules.max_players
    settle, over = settlement_for(game, n), match_over_for(game, n)
    assert settle is not None and over is not None
    for text in (settle.source, over.source, kernel_source(game, n)):
        assert "_settle(" not in text and "_match_over(" not in text and "Tally" not in text
    assert "GeneralLoop(" not in kernel_source(game, n)
    globals_ = kernel_for(game, n).__globals__
    assert globals_["SETTLE"] is settle and globals_["MATCH_OVER"] is over
