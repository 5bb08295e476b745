"""Shanten (向聴): how many tiles a hand is from tenpai, over every winning shape.

Works on 34-kind count vectors like `agari.engine.shapes`; each suit's
reachable (sets, partial sets, pair) are found once per pattern and cached.

>>> from agari.engine.shapes import counts_of
>>> shanten_of(counts_of("123m456p789s1234z"))
2
"""

from __future__ import annotations

from functools import cache
from itertools import product

from agari.engine.tiles import TERMINAL_HONOR_KINDS

_SUIT_STARTS = (0, 9, 18)
_YAOCHUU = tuple(sorted(TERMINAL_HONOR_KINDS))


@cache
def _suit_blocks(pattern: tuple[int, ...], sequences: bool) -> frozenset[tuple[int, int, int]]:
    """Reachable (sets, partial sets, pair) for one suit; a partial set is one tile from a set."""
    counts = list(pattern)
    first = next((i for i, n in enumerate(counts) if n), -1)
    if first < 0:
        return frozenset({(0, 0, 0)})
    out: set[tuple[int, int, int]] = set()

    def take(offsets: tuple[int, ...], add: tuple[int, int, int]) -> None:
        if any(first + o >= len(counts) or counts[first + o] == 0 for o in set(offsets)):
            return
        if any(counts[first + o] < offsets.count(o) for o in set(offsets)):
            return
        for o in offsets:
            counts[first + o] -= 1
        for m, t, p in _suit_blocks(tuple(counts), sequences):
            if add[2] and p:
                continue
            out.add((m + add[0], t + add[1], p + add[2]))
        for o in offsets:
            counts[first + o] += 1

    take((0, 0, 0), (1, 0, 0))
    take((0, 0), (0, 0, 1))
    take((0, 0), (0, 1, 0))
    if sequences:
        take((0, 1, 2), (1, 0, 0))
        take((0, 1), (0, 1, 0))
        take((0, 2), (0, 1, 0))
    take((0,), (0, 0, 0))  # leave the first tile isolated
    return frozenset(_pareto(out))


def _pareto(options: set[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    return [
        a
        for a in options
        if not any(b != a and b[0] >= a[0] and b[1] >= a[1] and b[2] >= a[2] for b in options)
    ]


def _standard_shanten(counts: tuple[int, ...], melds: int) -> int:
    best = 8
    suits = [_suit_blocks(counts[s : s + 9], True) for s in _SUIT_STARTS]
    suits.append(_suit_blocks(counts[27:34], False))
    for combo in product(*suits):
        m = melds + sum(c[0] for c in combo)
        t = sum(c[1] for c in combo)
        p = sum(c[2] for c in combo)
        if p > 1:
            t += p - 1  # extra pairs still serve as partial sets
            p = 1
        t = min(t, 4 - m)
        best = min(best, 8 - 2 * m - t - p)
    return best


def shanten_of(counts: list[int] | tuple[int, ...], melds: int = 0) -> int:
    """Tiles away from tenpai (0 = tenpai, -1 = complete) over every winning shape."""
    counts = tuple(counts)
    result = _standard_shanten(counts, melds)
    if melds == 0 and sum(counts) >= 13:
        kinds = sum(1 for n in counts if n)
        pairs = sum(1 for n in counts if n >= 2)
        result = min(result, 6 - pairs + max(0, 7 - kinds))
        yaochuu = sum(1 for k in _YAOCHUU if counts[k])
        has_pair = any(counts[k] >= 2 for k in _YAOCHUU)
        result = min(result, 13 - yaochuu - has_pair)
    return result
