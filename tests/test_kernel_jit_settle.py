"""The settlement's and the match end's kernel pieces (``engine.mechanisms.settle``'s
``hand_rank_piece``, ``best_sides_piece``, ``winner_seat_piece``, ``counted_piece``;
``match.match_over_piece``) against the reference functions beside them (``compare``,
``winning_seat``, ``counted``, ``decided``), on random positions: every ``blocked.winner``,
``blocked.tie`` and ``blocked.among``, one to four sides, both directions of play, every
``match.end``, winner and tie. Each piece runs as plain Python and compiled into a caller
as a kernel compiles it (``piece_checks.compiled_caller``); whole matches on both engines
are the house rules' tests (``test_kernel_jit_house.py``)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from dominorules.engine.mechanisms import match, settle
from dominorules.engine.mechanisms.position import Position, seat_after_piece
from dominorules.rules import load_ruleset

np = pytest.importorskip("numpy")

HOW = {"lowest_hand": settle.LOWEST_HAND, "lowest_side": settle.LOWEST_SIDE,
       "lowest": settle.LOWEST, "highest": settle.HIGHEST}
TIE = {"nothing": settle.TIE_NOTHING, "each": settle.TIE_EACH,
       "last_player": settle.TIE_LAST, "next_player": settle.TIE_NEXT}
END = {"points": match.END_POINTS, "rounds": match.END_ROUNDS,
       "rounds_won": match.END_ROUNDS_WON}
RULES = load_ruleset("pagat").rules
TILES = [(a, b) for b in range(7) for a in range(b + 1)]


def pieces_as(way: str, *fns):
    """The pieces as plain Python, or each compiled into a caller (skipped without numba
    or with the JIT off)."""
    if way == "plain":
        return fns
    pytest.importorskip("numba")
    from dominorules.kernel import jit
    if not jit.available():
        pytest.skip("DOMINORULES_NO_JIT is set")
    from piece_checks import compiled_caller

    return tuple(compiled_caller(f) for f in fns)


def random_position(rng: random.Random, rules) -> Position:
    """Two to six seats, alone or in partnerships of two or three, random hands (ties in
    their values are frequent), a last placer."""
    players = rng.choice([2, 3, 4, 6])
    per = rng.choice([n for n in (1, 2, 3) if players % n == 0 and players // n >= 2] or [1])
    sides = tuple(tuple(range(i, players, players // per)) for i in range(players // per))
    pos = Position(rules, players, sides, 100, [0] * len(sides), [0] * len(sides))
    deal = rng.sample(TILES, 28)
    pos.hands = [deal[4 * s: 4 * s + rng.randint(0, 2)] for s in range(players)]
    pos.drawn = [0] * players
    pos.last_player = rng.randrange(players)
    return pos


def arrays(pos: Position):
    teams = np.array(pos.sides, np.int64)
    side_of = np.array([pos.side_of(s) for s in range(pos.players)], np.int64)
    values = np.array([pos.hand_value(s) for s in range(pos.players)], np.int64)
    return teams, side_of, values


@pytest.mark.parametrize("way", ["plain", "compiled"])
def test_the_blocked_comparison_and_its_winner_are_compare_and_winning_seat(way):
    hand_rank, best_sides, winner_seat = pieces_as(
        way, settle.hand_rank_piece, settle.best_sides_piece, settle.winner_seat_piece)
    rng = random.Random(11)
    seen = set()
    for _ in range(1500):
        how, tie = rng.choice(list(HOW)), rng.choice(list(TIE))
        among, direction = rng.choice(["all", "last_two"]), rng.choice(["left", "right"])
        ranks: dict[int, int] = {}
        rules = replace(RULES, blocked_winner=how, blocked_tie=tie, blocked_among=among,
                        direction=direction,
                        blocked_rank=lambda env, r=ranks: r[env["side"].index])
        pos = random_position(rng, rules)
        n_sides = len(pos.sides)
        ranks.update({i: rng.randint(0, 3) for i in range(n_sides)})
        want_winner, want_scoring = settle.compare(pos, {})
        teams, side_of, values = arrays(pos)
        R = np.zeros(n_sides, np.int64)
        if how == "lowest_hand":
            hand_rank(values, teams, R)
        elif how == "lowest_side":
            R[:] = [sum(values[s] for s in side) for side in pos.sides]
        else:
            R[:] = [ranks[i] for i in range(n_sides)]
        lowest = np.zeros(n_sides, np.int64)
        right = int(direction == "right")
        n = best_sides(R, n_sides, HOW[how], among == "last_two", TIE[tie], pos.last_player,
                       seat_after_piece(pos.last_player, pos.players, right), side_of, lowest)
        winner = int(lowest[0]) if n == 1 else None
        scoring = ([winner] if n == 1 else
                   sorted(int(x) for x in lowest[:n]) if tie == "each" else [])
        assert (winner, scoring) == (want_winner, sorted(want_scoring)), (how, tie, among)
        seen.add((how, n == 1, tie if n > 1 else ""))
        if winner is not None:
            assert winner_seat(winner, -1, side_of, teams, values) == settle.winning_seat(
                pos, winner, True, None)
            dominoer = rng.randrange(pos.players)
            assert winner_seat(winner, dominoer, side_of, teams, values) == (
                settle.winning_seat(pos, winner, False, dominoer))
    # every way of ranking reached both a single winner and a tie of each kind
    assert {(h, True, "") for h in HOW} <= seen
    assert {(h, False, t) for h in ("lowest_hand", "highest") for t in TIE} <= seen


@pytest.mark.parametrize("way", ["plain", "compiled"])
def test_the_points_counted_are_counted(way):
    (counted,) = pieces_as(way, settle.counted_piece)
    rng = random.Random(5)
    for _ in range(800):
        minimum, exact = rng.choice([0, 0, 10, 25]), rng.random() < 0.5
        rules = replace(RULES, minimum_to_start=minimum, exact_target=exact)
        sides = rng.randint(2, 4)
        pos = Position(rules, sides, tuple((s,) for s in range(sides)), rng.choice([50, 61]),
                       [rng.choice([0, 0, 20, 45, 60]) for _ in range(sides)], [0] * sides)
        points = np.array([rng.choice([0, 5, 10, 15, 30]) for _ in range(sides)], np.int64)
        want = [settle.counted(pos, i, int(points[i])) for i in range(sides)]
        counted(points, np.array(pos.scores, np.int64), minimum, exact, pos.target)
        assert points.tolist() == want


@pytest.mark.parametrize("way", ["plain", "compiled"])
def test_the_match_end_is_decided(way):
    """(``draw_if`` is the kernel's own program, asked after the piece; a round adds a
    rounds-won to one side only, so no two sides reach the target together)"""
    (match_over,) = pieces_as(way, match.match_over_piece)
    rng = random.Random(9)
    seen = set()
    for _ in range(1500):
        end, winner, tie = (rng.choice(list(END)), rng.choice(["highest", "lowest"]),
                            rng.choice(["draw", "play_on"]))
        rules = replace(RULES, match_end=end, match_winner=winner, match_tie=tie,
                        draw_if=None)
        sides, target = rng.randint(2, 4), rng.choice([3, 5, 61])
        scores = [rng.choice([0, 30, 61, 61, 70]) for _ in range(sides)]
        won = [rng.randint(0, target - 1) for _ in range(sides)]
        if rng.random() < 0.4:
            won[rng.randrange(sides)] = target
        pos = Position(rules, sides, tuple((s,) for s in range(sides)), target, scores, won,
                       round=rng.randint(1, 8))
        over, side = match_over(END[end], winner == "lowest", target, tie == "play_on",
                                pos.round, np.array(scores, np.int64),
                                np.array(won, np.int64), sides)
        want = match.decided(pos)
        assert (bool(over), None if side < 0 else int(side)) == want, (end, winner, tie)
        seen.add((end, want))
    assert {e for e, (over, _) in seen if over} == set(END)
    assert {e for e, (over, _) in seen if not over} == set(END)
    assert any(over and w is None for _, (over, w) in seen)   # a drawn match
