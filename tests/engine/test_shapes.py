"""Winning shapes, waits and shanten, worked by hand; shanten also checked against `mahjong`."""

import random

import pytest
from agari.engine import InvalidHand, parse_hand
from agari.engine.shanten import shanten_of
from agari.engine.shapes import counts_of, decompositions, is_chiitoitsu, is_kokushi
from agari.engine.waits import shanten, waits


def test_every_decomposition_is_found():
    # 111222333m: three triplets or three identical runs; with 789p 55s
    found = decompositions(counts_of("111222333m789p55s"))
    assert sorted(found) == sorted([(22, (0, 0, 0, 15), ()), (22, (15,), (0, 1, 2))])


def test_pair_must_be_unique_and_sets_complete():
    assert decompositions(counts_of("123m456p789s11z22z")) == ()  # two pairs
    assert decompositions(counts_of("124m456p789s111z22z")) == ()  # 124 is no set
    assert decompositions(counts_of("99m123z456p789s11z")) == ()  # honours never run


@pytest.mark.parametrize(
    "text,seven,orphans",
    [
        ("1122m3344p5566s77z", True, False),
        ("1111m3344p5566s77z", False, False),
        ("119m19p19s1234567z", False, True),
        ("19m19p19s12345677z", False, True),
        ("19m19p19s1234566z", False, False),
    ],
)
def test_special_shapes(text, seven, orphans):
    counts = counts_of(text)
    assert is_chiitoitsu(counts) == seven and is_kokushi(counts) == orphans


@pytest.mark.parametrize(
    "text,expected",
    [
        ("1112345678999m", "1m 2m 3m 4m 5m 6m 7m 8m 9m"),  # nine gates
        ("19m19p19s1234567z", "1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z"),  # 13-sided
        ("123m456p789s1122z", "1z 2z"),  # shanpon
        ("1122m3344p5566s7z", "7z"),  # seven pairs, tanki
        ("123m456p789s2345s", "2s 5s"),  # tanki or two-sided
        ("13m456p789s11z333z", "2m"),  # kanchan
        ("1111m234p567s789s", ""),  # only a fifth 1m would do: not tenpai
    ],
)
def test_waits(text, expected):
    assert " ".join(str(t) for t in waits(parse_hand(text))) == expected


def test_waits_with_melds_and_wrong_size():
    assert [str(t) for t in waits(parse_hand("5z 111m 222p 333s 444s"))] == ["5z"]
    with pytest.raises(InvalidHand, match="13-tile"):
        waits(parse_hand("123m456p789s11222z"))


@pytest.mark.parametrize(
    "text,expected",
    [
        ("123m456p789s11222z", -1),  # complete
        ("123m456p789s1122z", 0),  # tenpai
        ("123m456p789s1234z", 2),  # needs a pair and a set
        ("1122m3344p5566s12z", 0),  # 14 tiles, six pairs: discard 1z or 2z and wait
        ("19m19p19s123456z8m", 1),  # thirteen orphans: 7z and a pair missing
        ("1357m1357p1357s1z", 4),  # six two-tile partial sets, only four count
    ],
)
def test_shanten(text, expected):
    assert shanten(parse_hand(text)) == expected


def test_shanten_agrees_with_mahjong_on_random_hands():
    from mahjong.shanten import Shanten

    rng = random.Random(20)
    wall = [k for k in range(34) for _ in range(4)]
    for _ in range(1500):
        n = rng.choice((13, 13, 14, 10, 7))
        counts = [0] * 34
        for k in rng.sample(wall, n):
            counts[k] += 1
        assert shanten_of(counts, (14 - n) // 3) == Shanten.calculate_shanten(counts), counts


def test_honour_splits_are_what_the_search_finds():
    """Honours are split directly (no runs to try); every pattern of up to 14 agrees."""
    from itertools import product

    from agari.engine.shapes import _honor_splits, _suit_parts

    checked = 0
    for pattern in product(range(5), repeat=7):
        if sum(pattern) > 14 or sum(pattern) % 3 == 1:
            continue
        expected = tuple(
            (p + 27 if p >= 0 else -1, (), tuple(t + 27 for t in trips))
            for p, _, trips in _suit_parts(pattern, False)
        )
        assert _honor_splits(pattern) == expected, pattern
        checked += 1
    assert checked > 10000


def test_waits_skip_no_kind_that_completes_the_hand():
    """`waits_of` tries only kinds that can join a set (see `_may_wait`); on random
    near-complete hands it finds exactly what trying all 34 kinds finds."""
    from agari.engine.shapes import TERMINAL_HONOR_KINDS, is_complete, waits_of

    def every_kind(counts, melds):
        out = []
        for k in range(34):
            if counts[k] < 4:
                counts[k] += 1
                if is_complete(counts, melds):
                    out.append(k)
                counts[k] -= 1
        return out

    rng = random.Random(5)
    orphans = sorted(TERMINAL_HONOR_KINDS)
    found = 0
    for _ in range(3000):
        melds = rng.choice([0, 0, 1, 2])
        counts = [0] * 34
        suit, style = rng.randrange(4), rng.random()
        while sum(counts) < 13 - 3 * melds:
            if style < 0.2:
                k = rng.choice(orphans)
            elif style < 0.4 or rng.random() < 0.3:
                k = rng.randrange(34)
            else:
                k = suit * 9 + rng.randrange(9) if suit < 3 else 27 + rng.randrange(7)
            if counts[k] < 4:
                counts[k] += 1
        expected = every_kind(counts, melds)
        assert waits_of(counts, melds) == expected
        found += bool(expected)
    assert found > 50  # the hands drawn do wait, often enough to mean something
