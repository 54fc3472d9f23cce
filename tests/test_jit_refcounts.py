"""The JIT pieces a kernel calls every round are compiled without numba's reference counts
(``jit.njit(refcounts=False)``): their atomic increments and decrements were 14% of the
house rules' kernel's CPU (perf on house/all-fives), so a piece losing the option again
is a measurable slowdown no record would show. Read from the dispatchers, nothing
compiled. The settlement's and the match end's pieces beside their mechanisms
(``engine.pieces``) carry the option as their mark, ``@piece(refcounts=False)``, which
``kernel/jit.py`` hands numba as ``_nrt=False`` (``tests/test_pieces.py``)."""

from __future__ import annotations

import pytest

from dominorules.engine import pieces
from dominorules.engine.mechanisms import match, settle
from dominorules.kernel import jit, jit_opening, jit_settle, shake

# every piece a round calls with arrays: the deal's and the seats' words, the opening, the
# settlement and the match's end
ROUND_PIECES = (
    (shake, ("shake128_absorb", "squeeze_more", "shuffle_absorb", "shuffle_keys",
             "seat_more_absorb", "seat_words_start", "seat_words_next", "keccak_f1600",
             "shake128_pad", "shuffle_key", "seat_more_key", "decimal_into", "bytes_into",
             "squeeze8", "first_streams8", "given_keys", "seat_words_given")),
    (jit_settle, ("tallies",)),
    (jit_opening, ("holder", "heaviest", "highest_double", "lead_holder", "tile_opening",
                   "_allowed", "tile_alone", "_seek_to", "in_boneyard", "open_round")),
)


@pytest.mark.skipif(not jit.available(), reason="numba is not installed or is switched off")
@pytest.mark.parametrize("module, names", ROUND_PIECES,
                         ids=[m.__name__.rsplit(".", 1)[-1] for m, _ in ROUND_PIECES])
def test_the_pieces_of_every_round_count_no_references(module, names):
    counted = [n for n in names if getattr(module, n).targetoptions.get("_nrt", True)]
    assert counted == []


# the same, as kernel pieces beside their mechanisms
ROUND_MECHANISM_PIECES = (
    (settle, ("hand_rank_piece", "best_sides_piece", "winner_seat_piece", "counted_piece")),
    (match, ("match_over_piece",)),
)


@pytest.mark.parametrize("module, names", ROUND_MECHANISM_PIECES,
                         ids=[m.__name__.rsplit(".", 1)[-1] for m, _ in ROUND_MECHANISM_PIECES])
def test_the_mechanisms_pieces_of_every_round_count_no_references(module, names):
    marks = dict(pieces._MARKED)   # piece -> refcounts
    counted = [n for n in names if marks[getattr(module, n)]]
    assert counted == []
