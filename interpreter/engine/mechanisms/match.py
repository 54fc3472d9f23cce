"""The match: when it ends, who wins it, and its final scores.

From the schema's ``match`` (target, end, winner, tie, draw_if, final) and
``docs/variants.md``: after each round the match ends when a side has reached the
target (``end: points``), after ``target`` rounds (``rounds``) or when a side has won
``target`` rounds (``rounds_won``). The unique highest (or, ``winner: lowest``,
lowest) total wins; a tie is a drawn match, or with ``tie: play_on`` another round.
``draw_if`` ends an undecided match drawn; after 1000 rounds a match stops
undecided (``docs/api.md``, Limits); ``final`` rewrites the final scores.
With ``ends_in_play`` the match also ends the moment points scored during play give one
side the highest score at or over the target (``reached_in_play``): the round stops
there, unsettled, and its ``round_end`` says ``result: target``.

``reached_in_play_piece`` is the same rule over the JIT kernel's array of scores (a kernel
piece, ``engine.pieces``): ``kernel.jit_events.fire`` asks it after each event rule's
points; ``tests/test_kernel_jit_table.py`` holds the two to each other.
``match_over_piece`` is ``decided`` but its ``draw_if`` for the kernel's ``GEN`` lines
(``match.end`` a code: ``END_POINTS``...; the kernel evaluates ``draw_if`` itself), held
to it by ``tests/test_kernel_jit_settle.py``.
"""

from __future__ import annotations

from ..pieces import piece
from .environment import sides_names
from .position import Position, SideView

MAX_ROUNDS = 1000
# match.end as the kernel's codes (kernel.jit_house reads the words)
END_POINTS, END_ROUNDS, END_ROUNDS_WON = 0, 1, 2


def _by_total(pos: Position) -> tuple[bool, int | None]:
    """(the match is over, the winner) when the totals decide it now."""
    scores = pos.scores
    best = (min if pos.rules.match_winner == "lowest" else max)(scores)
    tied = [i for i, s in enumerate(scores) if s == best]
    if len(tied) == 1:
        return True, tied[0]
    return pos.rules.match_tie == "draw", None


def reached_in_play(ends_in_play: bool, scores: list[int], target: int) -> int | None:
    """The side that has won the match during play, or None: with ``match.ends_in_play``,
    a side alone at the highest score, at or over the target. Asked after each rule of
    the events that scores (the match loop and the rulebook both ask here)."""
    if not ends_in_play:
        return None
    best = max(scores)
    if best < target or scores.count(best) > 1:
        return None
    return scores.index(best)


@piece
def reached_in_play_piece(scores, sides: int, target: int) -> int:
    """``reached_in_play`` over ``scores[:sides]`` (an int64 array) for the kernels: the
    side alone at the highest score, at or over ``target``; -1: none (nobody there yet,
    or a tie at the top). The caller asks only with ``match.ends_in_play``."""
    best = scores[0]
    at = 0
    for s in range(1, sides):
        if scores[s] > best:
            best = scores[s]
            at = s
    if best < target:
        return -1
    for s in range(sides):
        if s != at and scores[s] == best:
            return -1
    return at


def decided(pos: Position) -> tuple[bool, int | None]:
    """Whether the match is over after the round just settled, and its winner."""
    rules = pos.rules
    if rules.match_end == "rounds_won":
        reached = [i for i, won in enumerate(pos.rounds_won) if won >= pos.target]
        if reached:
            return True, reached[0] if len(reached) == 1 else None
    elif rules.match_end == "rounds":
        if pos.round >= pos.target:
            over, winner = _by_total(pos)
            if over:
                return True, winner
    elif any(s >= pos.target for s in pos.scores):
        over, winner = _by_total(pos)
        if over:
            return True, winner
    if rules.draw_if is not None:
        sides = tuple(SideView(i, (), 0, 0, 0, 0, 0, pos.scores[i], False, pos.rounds_won[i])
                      for i in range(len(pos.sides)))
        if rules.draw_if(sides_names(pos, sides)):
            return True, None
    if pos.round >= MAX_ROUNDS:
        return True, None
    return False, None


@piece(refcounts=False)   # (every round: no reference counts)
def match_over_piece(end, lowest_wins, target, play_on, rnd, scores, rounds_won, sides):
    """``GeneralLoop._match_over`` but its ``draw_if``: (over, winning side or -1)."""
    if end == END_ROUNDS_WON:
        top = rounds_won[0]
        at = 0
        for i in range(1, sides):
            if rounds_won[i] > top:
                top, at = rounds_won[i], i
        if top >= target:
            return 1, at
        return 0, -1
    if end == END_ROUNDS:
        due = rnd >= target
    else:
        top = scores[0]
        for i in range(1, sides):
            top = max(top, scores[i])
        due = top >= target
    if not due:
        return 0, -1
    best = scores[0]
    for i in range(1, sides):
        best = min(best, scores[i]) if lowest_wins else max(best, scores[i])
    count = 0
    at = -1
    for i in range(sides):
        if scores[i] == best:
            count += 1
            at = i
    if count == 1:
        return 1, at
    if not play_on:
        return 1, -1
    return 0, -1


def final_scores(pos: Position, winner: int | None) -> list[int]:
    """The scores ``match_end`` states: ``match.final`` applied to each side."""
    if pos.rules.final is None:
        return list(pos.scores)
    sides = tuple(SideView(i, (), 0, 0, 0, 0, 0, pos.scores[i], i == winner,
                           pos.rounds_won[i]) for i in range(len(pos.sides)))
    env = sides_names(pos, sides)
    return [pos.rules.final({**env, "side": side}) for side in sides]
