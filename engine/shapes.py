"""Winning shapes (和了形): decompositions, tenpai waits and shanten over kind counts.

Everything here works on 34-kind count vectors. Suits are split and each
suit's pattern is decomposed once and remembered (a pure function of a 9- or
7-tuple), so a batch of hands shares the work; number suits are read from
the precomputed agari table (`agari.engine.suit_table`). A standard decomposition is
``(pair, seqs, trips)``: the pair kind, sequence start kinds, triplet kinds.

>>> decompositions(counts_of("123456789m11122z"))
((28, (0, 3, 6), (27,)),)
>>> [KINDS[k] for k in waits_of(counts_of("1112345678999m"))]
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
"""

from __future__ import annotations

from functools import cache
from itertools import product

from agari.engine import suit_table
from agari.engine.tiles import KINDS, TERMINAL_HONOR_KINDS, parse_tiles

Decomposition = tuple[int, tuple[int, ...], tuple[int, ...]]
"""(pair kind, sequence start kinds, triplet kinds) of the concealed tiles."""

_YAOCHUU = tuple(sorted(TERMINAL_HONOR_KINDS))
_YAOCHUU_SET = frozenset(_YAOCHUU)
_SIMPLES = tuple(k for k in range(34) if k not in _YAOCHUU_SET)


def counts_of(text: str) -> list[int]:
    """Kind counts of compact MPSZ text (a test and doctest helper)."""
    counts = [0] * 34
    for t in parse_tiles(text):
        counts[t.kind] += 1
    return counts


# -- per-suit decomposition ---------------------------------------------------
@cache
def _suit_parts(pattern: tuple[int, ...], sequences: bool) -> tuple[Decomposition, ...]:
    """Every way to split one suit's pattern into sets and at most one pair.

    Offsets are relative to the suit (0..8); pair is -1 when absent. The
    lowest non-empty position must start a triplet, a sequence or the pair.
    A split reached twice (pair first or run first) is listed once, where first found.
    """
    counts = list(pattern)
    first = next((i for i, n in enumerate(counts) if n), -1)
    if first < 0:
        return ((-1, (), ()),)
    found: list[Decomposition] = []
    if counts[first] >= 3:
        counts[first] -= 3
        for pair, seqs, trips in _suit_parts(tuple(counts), sequences):
            found.append((pair, seqs, (first, *trips)))
        counts[first] += 3
    if sequences and first <= 6 and counts[first + 1] and counts[first + 2]:
        for i in (first, first + 1, first + 2):
            counts[i] -= 1
        for pair, seqs, trips in _suit_parts(tuple(counts), sequences):
            found.append((pair, (first, *seqs), trips))
        for i in (first, first + 1, first + 2):
            counts[i] += 1
    if counts[first] >= 2 and sum(pattern) % 3 == 2:
        counts[first] -= 2
        for pair, seqs, trips in _suit_parts(tuple(counts), sequences):
            if pair < 0:
                found.append((first, seqs, trips))
    return tuple(dict.fromkeys(found))


def suit_splits(pattern: tuple[int, ...]) -> tuple[Decomposition, ...]:
    """Every split of one number suit's nine counts into sets and at most one pair.

    The definition the shipped table (`agari.engine.suit_table`) is made from.
    """
    return _suit_parts(tuple(pattern), True)


def _part(pattern: tuple[int, ...], start: int):
    """(holds the pair, decompositions in absolute kinds, the only one or None) for one suit."""
    tiles = sum(pattern)
    rest = tiles % 3
    if rest == 1:
        return _IMPOSSIBLE
    most = max(pattern)
    if start == 27 and most <= 4:
        splits = _honor_splits(pattern)
    elif start < 27 and tiles <= suit_table.MAX_TILES and most <= 4:
        shifted = _SHIFTED[start // 9]
        splits = tuple([shifted.get(code) or _shift_code(shifted, code, start)
                        for code in suit_table.codes(pattern)])
    else:
        splits = tuple([_shift(split, start) for split in _suit_parts(pattern, start < 27)])
    if not splits:
        return _IMPOSSIBLE
    return rest == 2, splits, splits[0] if len(splits) == 1 else None


def _honor_splits(pattern: tuple[int, ...]) -> tuple[Decomposition, ...]:
    """The split of the honour counts (no runs): each kind is a triplet, the pair or absent.

    What `_suit_parts` finds for honours of at most four copies each, without the search
    (checked against it in ``tests/engine/test_shapes.py``).
    """
    if 1 in pattern or 4 in pattern or pattern.count(2) > 1:
        return ()
    pair = 27 + pattern.index(2) if 2 in pattern else -1
    return ((pair, (), tuple([27 + i for i, n in enumerate(pattern) if n == 3])),)


def _shift(split: Decomposition, start: int) -> Decomposition:
    """A split within one suit (offsets 0..8) in absolute kinds."""
    pair, seqs, trips = split
    return (
        pair + start if pair >= 0 else -1,
        tuple([x + start for x in seqs]),
        tuple([x + start for x in trips]),
    )


_SHIFTED: tuple[dict, dict, dict] = ({}, {}, {})
"""Per number suit: table code → its split in absolute kinds (codes recur across patterns)."""


def _shift_code(shifted: dict, code: int, start: int) -> Decomposition:
    """The split a table code stands for (`agari.engine.suit_table.decode`), in absolute kinds."""
    split = shifted[code] = _shift(suit_table.decode(code), start)
    return split


_SUIT_MEMO: tuple[dict, dict, dict, dict] = ({}, {}, {}, {})
"""Per suit (m, p, s, z): pattern → `_part` of it. Real hands repeat suit patterns a lot."""
_IMPOSSIBLE = (False, (), None)


def _suit(memo: dict, pattern: tuple[int, ...], start: int):
    part = memo[pattern] = _part(pattern, start)
    return part


def decompositions(counts: list[int] | tuple[int, ...]) -> tuple[Decomposition, ...]:
    """All standard decompositions (sets + one pair) of concealed ``counts``; ``()`` if none."""
    if type(counts) is not tuple:
        counts = tuple(counts)
    mm, pm, sm, zm = _SUIT_MEMO
    m = mm.get(counts[0:9]) or _suit(mm, counts[0:9], 0)
    p = pm.get(counts[9:18]) or _suit(pm, counts[9:18], 9)
    s = sm.get(counts[18:27]) or _suit(sm, counts[18:27], 18)
    z = zm.get(counts[27:34]) or _suit(zm, counts[27:34], 27)
    if m[0] + p[0] + s[0] + z[0] != 1:
        return ()
    a, b, c, d = m[2], p[2], s[2], z[2]
    if a and b and c and d:  # one way to split each suit: the usual case
        pair = max(a[0], b[0], c[0], d[0])
        return ((pair, a[1] + b[1] + c[1] + d[1], a[2] + b[2] + c[2] + d[2]),)
    if not (m[1] and p[1] and s[1] and z[1]):
        return ()
    return tuple(_join(combo) for combo in product(m[1], p[1], s[1], z[1]))


def clear_caches() -> None:
    """Forget every suit pattern and hand seen (benchmarks time hands that are all new)."""
    for memo in (*_SUIT_MEMO, *_SHIFTED, _WAITS):
        memo.clear()
    _suit_parts.cache_clear()


def _join(parts) -> Decomposition:
    pair = max(parts[0][0], parts[1][0], parts[2][0], parts[3][0])
    return (
        pair,
        parts[0][1] + parts[1][1] + parts[2][1] + parts[3][1],
        parts[0][2] + parts[1][2] + parts[2][2] + parts[3][2],
    )


def is_chiitoitsu(counts: list[int] | tuple[int, ...]) -> bool:
    """七対子: exactly seven different pairs (a four-of-a-kind is not two pairs)."""
    return tuple(counts).count(2) == 7


def is_kokushi(counts: list[int] | tuple[int, ...]) -> bool:
    """国士無双: one of each terminal and honour, one of them twice."""
    return (
        sum(counts) == 14
        and all(counts[k] for k in _YAOCHUU)
        and sum(counts[k] for k in _YAOCHUU) == 14
    )


def is_complete(counts: list[int] | tuple[int, ...], melds: int = 0) -> bool:
    """Any winning shape: sets + pair, or (with no melds) seven pairs or thirteen orphans."""
    if decompositions(counts):
        return True
    return melds == 0 and sum(counts) == 14 and (is_chiitoitsu(counts) or is_kokushi(counts))


# -- waits ----------------------------------------------------------------------
def waits_of(
    counts: list[int] | tuple[int, ...], melds: int = 0, held: list[int] | None = None
) -> list[int]:
    """Kinds that complete a 3n+1 concealed hand (``melds`` called sets beside it).

    ``held`` (default ``counts``) counts every copy the player holds, melds
    included: a kind already held four times cannot be a wait.
    """
    if type(counts) is not tuple:
        counts = tuple(counts)
    key = (counts, melds == 0)  # all `is_complete` asks of the melds
    kinds = _WAITS.get(key)
    if kinds is None:
        if len(_WAITS) >= _WAITS_MAX:
            _WAITS.clear()
        kinds = _WAITS[key] = _completing(counts, melds == 0)
    held = counts if held is None else held
    return [kind for kind in kinds if held[kind] < 4]


_WAITS: dict[tuple, tuple[int, ...]] = {}
"""(counts, no melds) → `_completing`: a photo's reading asks about the same few shapes
in thousands of assignments, and again at each retry."""
_WAITS_MAX = 1 << 16


def _completing(counts: tuple[int, ...], closed: bool) -> tuple[int, ...]:
    """The kinds that make ``counts`` complete (`is_complete`, no melds if ``closed``), held
    four times or not. A tile changes only its own suit's pattern, so the other suits' parts
    are looked up once, not once a kind."""
    orphans = closed and not any(counts[k] for k in _SIMPLES)  # thirteen orphans possible
    patterns = (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
    parts = [_SUIT_MEMO[i].get(pattern) or _suit(_SUIT_MEMO[i], pattern, 9 * i)
             for i, pattern in enumerate(patterns)]
    pairs = sum(part[0] for part in parts)
    broken = sum(not part[1] for part in parts)  # suits with no split
    fourteen = closed and sum(counts) == 13
    found = []
    for kind in range(34):
        if not _may_wait(counts, kind, orphans):
            continue
        i = kind // 9  # honours (27..33) are suit 3 too
        was = parts[i]
        if broken - (not was[1]) == 0:  # every other suit splits
            pattern = list(patterns[i])
            pattern[kind - 9 * i] += 1
            pattern = tuple(pattern)
            memo = _SUIT_MEMO[i]
            part = memo.get(pattern) or _suit(memo, pattern, 9 * i)
            if part[1] and pairs - was[0] + part[0] == 1:
                found.append(kind)
                continue
        if fourteen:
            base = list(counts)
            base[kind] += 1
            if is_chiitoitsu(base) or is_kokushi(base):
                found.append(kind)
    return tuple(found)


def _may_wait(counts: list[int] | tuple[int, ...], kind: int, orphans: bool) -> bool:
    """Whether ``kind`` can complete the hand at all: the tile joins a pair or a triplet
    (a copy is held), a run (a suit neighbour within two is held), or thirteen orphans
    (a terminal or honour, in a hand of nothing else). Every other kind is skipped
    without a decomposition."""
    if counts[kind] or (orphans and kind in _YAOCHUU_SET):
        return True
    if kind >= 27:
        return False
    return any(counts[k] for k in _NEAR[kind])


_NEAR = tuple(tuple(range(max(k - k % 9, k - 2), min(k - k % 9 + 8, k + 2) + 1))
              for k in range(27))
"""Per number kind: the kinds of its suit within two of it (those a run through it needs)."""


def kind_names(kinds: list[int]) -> list[str]:
    """MPSZ names of kind ids."""
    return [KINDS[k] for k in kinds]
