"""The shipped agari table against the recursive definition it is made from."""

from __future__ import annotations

import random
from array import array

import pytest
from agari.engine import suit_table, suit_table_build
from agari.engine.shapes import suit_splits


def test_shipped_table_is_the_definition():
    """Every pattern, every split, in order: the file is exactly what `build_table` makes."""
    keys, offsets, codes = suit_table_build.build_table()
    shipped_keys, shipped_offsets, shipped_codes = suit_table._load()
    assert len(keys) == 21743  # complete one-suit patterns of at most 14 tiles
    assert shipped_keys == keys
    assert shipped_offsets == array("I", offsets)
    assert shipped_codes == array("I", codes)


@pytest.mark.parametrize("seed", [1, 2])
def test_lookup_matches_the_recursion_on_random_patterns(seed):
    rng = random.Random(seed)
    for _ in range(3000):
        pattern = tuple(rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(pattern) > suit_table.MAX_TILES:
            continue
        expected = suit_splits(pattern) if sum(pattern) % 3 != 1 else ()
        assert suit_table.lookup(pattern) == expected, pattern


@pytest.mark.parametrize(
    ("pattern", "splits"),
    [
        ((0,) * 9, ((-1, (), ()),)),  # an empty suit: one split, nothing in it
        ((3, 3, 3, 0, 0, 0, 0, 0, 0), ((-1, (), (0, 1, 2)), (-1, (0, 0, 0), ()))),
        ((1, 1, 4, 1, 1, 0, 0, 0, 0), ((2, (0, 2), ()),)),  # 123 345 + 33, found twice, kept once
        ((1, 0, 1, 0, 0, 0, 0, 0, 0), ()),  # 13: no split
        ((2, 0, 0, 0, 0, 0, 0, 0, 0), ((0, (), ()),)),
    ],
)
def test_worked_patterns(pattern, splits):
    assert suit_table.lookup(pattern) == splits


@pytest.mark.parametrize("split", [(-1, (), ()), (8, (0, 6), (3, 4)), (0, (6, 6, 6, 6), ())])
def test_codes_round_trip(split):
    assert suit_table.decode(suit_table_build._encode(split)) == split
