"""`waits_of` reads each candidate tile's suit alone: the same waits, in the same order, as
trying `is_complete` on the whole hand one tile more (the definition it replaced)."""

import random

from agari.engine.shapes import _may_wait, clear_caches, counts_of, is_complete, waits_of
from agari.engine.tiles import TERMINAL_HONOR_KINDS


def _reference(counts, melds=0, held=None):
    held = counts if held is None else held
    orphans = melds == 0 and not any(counts[k] for k in range(34)
                                     if k not in TERMINAL_HONOR_KINDS)
    found = []
    for kind in range(34):
        if held[kind] >= 4 or not _may_wait(counts, kind, orphans):
            continue
        base = list(counts)
        base[kind] += 1
        if is_complete(base, melds):
            found.append(kind)
    return found


def _random_hand(rng: random.Random, size: int, kinds: range) -> list[int]:
    counts = [0] * 34
    while sum(counts) < size:
        k = rng.choice(kinds)
        if counts[k] < 4:
            counts[k] += 1
    return counts


def test_known_waits():
    assert waits_of(counts_of("1112345678999m")) == list(range(9))
    assert waits_of(counts_of("19m19p19s1234567z")) == [0, 8, 9, 17, 18, 26, *range(27, 34)]
    assert waits_of(counts_of("1122334455667z")) == [33]  # seven pairs
    assert waits_of(counts_of("1111m")) == []  # 1m held four times: no wait
    assert waits_of(counts_of("1m"), melds=4) == [0]
    # Remembered per hand and whether it has melds: seven pairs only without them.
    assert waits_of(counts_of("1122334455667z"), melds=1) == []
    # ... and filtered by what is held each time: 7z held four times over the melds.
    held = counts_of("1122334455667777z")
    assert waits_of(counts_of("1122334455667z"), 0, held) == []
    assert waits_of(counts_of("1122334455667z")) == [33]


def test_same_as_whole_hand_tries():
    clear_caches()
    rng = random.Random(7)
    for n in range(4000):
        melds = rng.choice((0, 0, 0, 1, 2, 3, 4))
        size = 13 - 3 * melds
        # Few kinds make many near-complete hands (the cases with waits).
        start = rng.choice((0, 9, 18))
        kinds = range(34) if n % 3 == 0 else range(start, start + 9)
        if n % 5 == 0:
            kinds = range(27, 34)
        counts = _random_hand(rng, size, kinds)
        held = list(counts)
        for _ in range(melds * 3):
            held[rng.randrange(34)] += 1
        for args in ((counts, melds), (counts, melds, held), (tuple(counts), melds)):
            assert waits_of(*args) == _reference(*args), (counts, args[1:])
