"""Builds the agari table file (`agari.engine.suit_table`) from the recursive definition.

Only for rebuilding the shipped file and for its test; scoring never loads this.
"""

from __future__ import annotations

import os
import sys
from array import array
from itertools import product
from operator import mul

from agari.engine.suit_table import _POW5, MAGIC, MAX_TILES, PATH, Split


def _encode(split: Split) -> int:
    pair, seqs, trips = split
    code, shift = pair + 1 | len(seqs) << 4 | len(trips) << 7, 10
    for offset in (*seqs, *trips):
        code |= offset << shift
        shift += 4
    return code


def build_table() -> tuple[list[int], list[int], list[int]]:
    """(keys, offsets, codes) from `agari.engine.shapes`' recursive definition (takes seconds)."""
    from agari.engine.shapes import suit_splits

    found = []
    for counts in product(range(5), repeat=9):
        pattern = counts[::-1]  # product varies the last digit fastest: keys come out sorted
        n = sum(pattern)
        if n <= MAX_TILES and n % 3 != 1:
            splits = suit_splits(pattern)
            if splits:
                found.append((sum(map(mul, pattern, _POW5)), splits))
    keys, offsets, codes = [], [0], []
    for key, splits in found:
        keys.append(key)
        codes.extend(_encode(s) for s in splits)
        offsets.append(len(codes))
    return keys, offsets, codes


def write_table(path: str = PATH) -> None:
    """Rebuild the shipped table file from the recursive definition."""
    keys, offsets, codes = build_table()
    data = array("I", [MAGIC, len(keys), len(codes), *keys, *offsets, *codes])
    if sys.byteorder == "big":
        data.byteswap()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data.tobytes())
