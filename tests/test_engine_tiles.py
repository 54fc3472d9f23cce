"""Tiles are parsed, counted and range-checked in ``engine/tiles.py`` alone: every
spelling a user writes reads the same, and the set's size is one formula."""

from __future__ import annotations

import pytest

from dominorules.engine.tiles import (
    Tile,
    TileSet,
    in_set,
    not_in_set,
    parse_pair,
    parse_tiles,
    set_pairs,
    tile_count,
)


@pytest.mark.parametrize("text", ["6-4", "4-6", "[6|4]", "[4|6]", " 4 , 6 ", "[ 6 | 4 ]"])
def test_every_spelling_of_a_tile_reads_the_same(text):
    assert Tile.parse(text) == Tile(4, 6)
    assert parse_pair(text) == (4, 6)


@pytest.mark.parametrize("text", ["6", "6-", "6-4-2", "a-b", "٣-٤", "-1-2"])
def test_what_is_no_tile_is_refused(text):
    with pytest.raises(ValueError, match="is not a tile: write it like 6-4"):
        Tile.parse(text)


@pytest.mark.parametrize("max_pip, count", [(0, 1), (6, 28), (9, 55), (12, 91), (18, 190)])
def test_a_double_n_set_has_one_tile_per_pair_of_values(max_pip, count):
    assert tile_count(max_pip) == count == len(set_pairs(max_pip))
    assert TileSet(max_pip).tile_count == count
    assert [(t.low, t.high) for t in TileSet(max_pip).tiles] == set_pairs(max_pip)


def test_a_tile_is_in_a_set_when_both_halves_are_up_to_its_top():
    assert in_set(Tile(6, 6), 6) and in_set((6, 0), 6)
    assert not in_set(Tile(7, 0), 6) and not in_set((0, 7), 6) and not in_set((-1, 2), 6)
    assert not_in_set("tile 7-0", 6) == "tile 7-0 is not in a double-6 set"


def test_a_hand_is_tiles_separated_by_spaces():
    assert parse_tiles(" 6-4  0-0 ") == [Tile(4, 6), Tile(0, 0)]
    assert parse_tiles("") == []
