"""``explore.metrics.features`` for a JIT batch: every match's feature vector from its rows.

``compare`` sums one integer vector per match; building ``MatchResult`` objects from
the JIT's rows only to read them back costs more than playing the matches. This folds
the rows straight into the vectors, in numba, laid out as ``metrics.feature_names``
(no skilled seat: a skill pairing's features are read from its results; of the
house-rule features, the play-time events' come from the rows, the rest are 0).
``tests/test_kernel_jit.py`` holds it to ``features`` on every ruleset the JIT plays.
"""

from __future__ import annotations

import numpy as np

from .jit import njit
from .jit_template import INDEXES

# the round row's columns (jit_template.ROUND_COLUMNS), points and scores after them, and the
# match row's, by name (numba reads these module constants as literals)
_LEADER, _RESULT, _WINNER, _TIED = (INDEXES["R_LEADER"], INDEXES["R_RESULT"],
                                    INDEXES["R_WINNER"], INDEXES["R_TIED_BLOCK"])
_SUMMED = tuple(INDEXES[f"R_{name}"] for name in (
    "TURNS", "PLACEMENTS", "DRAWS", "PASSES", "DECISIONS", "CHOICE_POINTS", "REDEALS"))
_POINTS = INDEXES["R_POINTS"]   # then scores, then play-time points (events), per side
_EXTRA, _SKIPS = INDEXES["R_EXTRA_TURNS"], INDEXES["R_SKIPS"]
_M_WINNER, _M_ROUNDS, _M_FIRST = INDEXES["M_WINNER"], INDEXES["M_ROUNDS"], INDEXES["M_FIRST_ROW"]


@njit
def match_features(matches, rounds, sides, players, side_of, teams, out, round_points):
    """Fill ``out[m]`` with match ``m``'s features and ``round_points`` with every round's
    total points, in row order."""
    summed = np.array(_SUMMED)
    for m in range(matches.shape[0]):
        winner, count, first = matches[m, _M_WINNER], matches[m, _M_ROUNDS], matches[m, _M_FIRST]
        decided = 1 if winner >= 0 else 0
        v = out[m]
        v[:] = 0
        v[0] = 1
        v[1] = sides
        v[2] = count
        blocked = tied = points = changes = trailed = 0
        leader_rounds = won_rounds = dominoes = play = extra = skips = 0
        last = -1
        for i in range(first, first + count):
            r = rounds[i]
            for k in range(summed.shape[0]):
                v[3 + k] += r[summed[k]]
            if r[_RESULT] == 1:
                blocked += 1
            elif r[_RESULT] == 0:   # (2: the match won mid-round, match.ends_in_play)
                dominoes += 1
            if r[_WINNER] >= 0:
                won_rounds += 1
                if side_of[r[_LEADER]] == r[_WINNER]:
                    leader_rounds += 1
            tied += r[_TIED]
            extra += r[_EXTRA]
            skips += r[_SKIPS]
            for s in range(sides):
                play += r[_POINTS + 2 * sides + s]
            scored = 0
            for s in range(sides):
                scored += r[_POINTS + s]
            points += scored
            round_points[i] = scored
            top = r[_POINTS + sides]
            for s in range(1, sides):
                top = max(top, r[_POINTS + sides + s])
            if decided and r[_POINTS + sides + winner] < top:
                trailed = 1
            lead, ties = -1, 0
            for s in range(sides):
                if r[_POINTS + sides + s] == top:
                    ties += 1
                    lead = s
            if ties == 1:
                if last >= 0 and lead != last:
                    changes += 1
                last = lead
        leader_won = 0
        if decided and count > 0 and side_of[rounds[first, _LEADER]] == winner:
            leader_won = 1
        v[10] = blocked
        v[11] = tied
        v[12] = points
        v[13] = 1 - decided
        v[14] = decided
        v[15] = changes
        v[16] = trailed
        v[17] = sides * leader_won - decided
        v[20] = sides * count
        v[21] = sides * leader_rounds - won_rounds
        v[22] = dominoes
        v[23] = play
        v[24] = extra
        v[25] = skips
        if decided:
            for s in teams[winner]:
                v[26 + s] = 1
    return out


def features_of(matches: np.ndarray, rounds: np.ndarray, sides: int, players: int,
                side_of: np.ndarray, teams: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(one feature row per match, every round's total points) of a JIT batch."""
    out = np.empty((matches.shape[0], 26 + players), np.int64)
    round_points = np.empty(rounds.shape[0], np.int64)
    match_features(matches, rounds, sides, players, side_of, teams, out, round_points)
    return out, round_points
