"""The player counts a differential test plays a ruleset at, chosen once for the suite.

Its fewest players (the deepest boneyard, the most draws), 4 where 4 lies between
(partnerships sit there), and its most (the fullest table, the shallowest boneyard).
The counts between deal, draw and score by the same code: both engines take the count
as a number (the JIT at run time, the Python kernel as a constant in the same lines), so
playing every count repeated the same paths at the suite's cost (about a third of
tests/test_kernel.py and tests/test_engine_playout.py). A test about one count names it.
"""

from __future__ import annotations

from typing import Any


def played_counts(game: Any) -> list[int]:
    """The counts (ascending) ``game`` is played at by the suite's every-ruleset tests,
    of those ``game.check_players`` accepts."""
    lo, hi = game.rules.min_players, game.rules.max_players
    counts = []
    for n in sorted({lo, hi} | ({4} if lo < 4 < hi else set())):
        try:
            game.check_players(n)
        except Exception:   # noqa: BLE001 - a count this ruleset does not take
            continue
        counts.append(n)
    return counts
