"""The agari table (和了テーブル): every complete one-suit pattern and its splits, precomputed.

A *pattern* is the nine counts of one number suit. ``data/suit_parts.bin``,
shipped in the package, holds every pattern of at most 14 tiles that splits
into sets and at most one pair (21,743 of them) with each of its splits, in
the order `agari.engine.shapes` enumerates them, so a suit never seen before
costs a look-up instead of a search. The file is made from the recursive
definition in `shapes` and checked against it (``tests/engine/test_suit_table.py``);
rebuild it after changing that definition::

    python -c "from agari.engine.suit_table_build import write_table; write_table()"

Layout (little-endian uint32): magic, pattern count, split count, the sorted
pattern keys (base 5, lowest number first), per-pattern offsets into the
splits (one more than the patterns), then one code per split: bits 0-3 the
pair offset + 1 (0: none), 4-6 the sequence count, 7-9 the triplet count, then
4 bits per sequence start and per triplet, lowest first.

>>> lookup((3, 3, 3, 0, 0, 0, 0, 0, 0))  # 111222333: three triplets or three runs
((-1, (), (0, 1, 2)), (-1, (0, 0, 0), ()))
>>> lookup((1, 0, 1, 0, 0, 0, 0, 0, 0))
()
"""

from __future__ import annotations

import os
import sys
from array import array
from bisect import bisect_left
from operator import mul

PATH = os.path.join(os.path.dirname(__file__), "data", "suit_parts.bin")
MAGIC = 0x41475354  # "AGST"
MAX_TILES = 14
_POW5 = tuple(5**i for i in range(9))
_TABLE: tuple[list[int], array, array] | None = None

Split = tuple[int, tuple[int, ...], tuple[int, ...]]
"""(pair offset or -1, sequence start offsets, triplet offsets) within the suit (0..8)."""


def in_table(pattern: tuple[int, ...]) -> bool:
    """Whether the table covers ``pattern`` (nine counts 0..4, at most 14 tiles)."""
    return len(pattern) == 9 and sum(pattern) <= MAX_TILES and max(pattern) <= 4


def lookup(pattern: tuple[int, ...]) -> tuple[Split, ...]:
    """Every split of a covered pattern into sets and at most one pair (``()`` if none)."""
    return tuple([decode(code) for code in codes(pattern)])


def codes(pattern: tuple[int, ...]) -> array:
    """The codes of every split of a covered pattern (see `decode`); empty if none."""
    keys, offsets, all_codes = _TABLE or _load()
    key = sum(map(mul, pattern, _POW5))
    i = bisect_left(keys, key)
    if i == len(keys) or keys[i] != key:
        return _NONE
    return all_codes[offsets[i] : offsets[i + 1]]


_NONE = array("I")


def decode(code: int) -> Split:
    """The split a table code stands for."""
    pair = (code & 15) - 1
    n_seqs, n_trips = (code >> 4) & 7, (code >> 7) & 7
    code >>= 10
    seqs = []
    for _ in range(n_seqs):
        seqs.append(code & 15)
        code >>= 4
    trips = []
    for _ in range(n_trips):
        trips.append(code & 15)
        code >>= 4
    return pair, tuple(seqs), tuple(trips)


def _load() -> tuple[list[int], array, array]:
    global _TABLE
    with open(PATH, "rb") as f:
        data = array("I", f.read())
    if sys.byteorder == "big":
        data.byteswap()
    magic, n_patterns, n_splits = data[0:3]
    if magic != MAGIC or len(data) != 3 + 2 * n_patterns + 1 + n_splits:
        raise RuntimeError(f"{PATH} is not a suit table: rebuild it (suit_table_build)")
    keys = data[3 : 3 + n_patterns].tolist()  # a list: bisect reads it without making ints
    offsets = data[3 + n_patterns : 4 + 2 * n_patterns]
    _TABLE = keys, offsets, data[4 + 2 * n_patterns :]
    return _TABLE
