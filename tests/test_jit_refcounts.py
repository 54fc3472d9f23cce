"""The JIT pieces a kernel calls every round are compiled without numba's reference counts
(``jit.njit(refcounts=False)``): their atomic increments and decrements were 14% of the
house rules' kernel's CPU (perf on house/all-fives), so a piece losing the option again
is a measurable slowdown no record would show. Read from the dispatchers, nothing
compiled."""

from __future__ import annotations

import pytest

from dominorules.kernel import jit, jit_opening, jit_settle, shake

# every piece a round calls with arrays: the deal's and the seats' words, the opening, the
# settlement and the match's end
ROUND_PIECES = (
    (shake, ("shake128_absorb", "squeeze_more", "shuffle_absorb", "shuffle_keys",
             "seat_more_absorb", "seat_words_start", "seat_words_next")),
    (jit_settle, ("tallies", "hand_rank", "best_sides", "winner_seat", "counted",
                  "match_over")),
    (jit_opening, ("holder_of", "heaviest", "in_boneyard", "highest_double", "open_round")),
)


@pytest.mark.skipif(not jit.available(), reason="numba is not installed or is switched off")
@pytest.mark.parametrize("module, names", ROUND_PIECES,
                         ids=[m.__name__.rsplit(".", 1)[-1] for m, _ in ROUND_PIECES])
def test_the_pieces_of_every_round_count_no_references(module, names):
    counted = [n for n in names if getattr(module, n).targetoptions.get("_nrt", True)]
    assert counted == []
