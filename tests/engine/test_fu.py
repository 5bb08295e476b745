"""Fu, item by item, worked by hand (tenhou rules; ron, seat South, round East unless stated)."""

import pytest
from helpers import scored

# hand, fields, items (reason, fu) in order, total
CASES = [
    # closed ron: base 20 + closed ron 10; 20 + 10 = 30 exactly (pinfu)
    ("234m567p34566678s", {}, [("base", 20), ("closed ron", 10)], 30),
    # pinfu tsumo: no tsumo fu, 20 flat
    ("234m567p34566678s", dict(tsumo=True), [("base", 20)], 20),
    # kanchan 2m (13 + 2): 20 + 10 + 2 = 32 → 40
    (
        "13m567p345678s66s2m",
        dict(riichi=True),
        [("base", 20), ("closed ron", 10), ("kanchan wait", 2), ("round up", 8)],
        40,
    ),
    # penchan 3p (12 + 3) and 7p (89 + 7)
    (
        "12p456m345678s66s3p",
        dict(riichi=True),
        [("base", 20), ("closed ron", 10), ("penchan wait", 2), ("round up", 8)],
        40,
    ),
    (
        "89p456m345678s66s7p",
        dict(riichi=True),
        [("base", 20), ("closed ron", 10), ("penchan wait", 2), ("round up", 8)],
        40,
    ),
    # tanki on a non-value pair (99s can only be the pair), tsumo: 20 + 2 + 2 = 24 → 30
    (
        "234m567p345678s9s9s",
        dict(riichi=True, tsumo=True),
        [("base", 20), ("tanki wait", 2), ("tsumo", 2), ("round up", 6)],
        30,
    ),
    # closed simple triplet 4, closed terminal 8, ron-completed triplet counts open (555p: 2)
    (
        "222m999s234p66s555p",
        dict(riichi=True),
        [
            ("base", 20),
            ("closed ron", 10),
            ("closed triplet 222m", 4),
            ("open triplet 555p", 2),
            ("closed triplet 999s", 8),
            ("round up", 6),
        ],
        50,
    ),
    # the same completed by tsumo stays closed: 20 + 4 + 8 + 4 + 2 = 38 → 40
    (
        "222m999s234p66s555p",
        dict(riichi=True, tsumo=True),
        [
            ("base", 20),
            ("closed triplet 222m", 4),
            ("closed triplet 555p", 4),
            ("closed triplet 999s", 8),
            ("tsumo", 2),
            ("round up", 2),
        ],
        40,
    ),
    # melds: pon 111z open honour 4, open kan 8 (simple), closed kan 32 (terminal)
    (
        "234m66s 111z 4444p [9999s]",
        {},
        [
            ("base", 20),
            ("open triplet 111z", 4),
            ("open kan 4444p", 8),
            ("closed kan 9999s", 32),
            ("tanki wait", 2),
            ("round up", 4),
        ],
        70,
    ),
    # value pairs: dragon 2; seat wind (South) 2; round wind (East) 2; tanki 2
    (
        "123m456p789s234s77z",
        dict(riichi=True),
        [
            ("base", 20),
            ("closed ron", 10),
            ("value pair 77z", 2),
            ("tanki wait", 2),
            ("round up", 6),
        ],
        40,
    ),
    (
        "123m456p789s234s22z",
        dict(riichi=True),
        [
            ("base", 20),
            ("closed ron", 10),
            ("value pair 22z", 2),
            ("tanki wait", 2),
            ("round up", 6),
        ],
        40,
    ),
    # dealer in the East round: East pair is double wind, 4 fu under tenhou
    (
        "123m456p789s234s11z",
        dict(riichi=True, seat="E"),
        [
            ("base", 20),
            ("closed ron", 10),
            ("double wind pair 11z", 4),
            ("tanki wait", 2),
            ("round up", 4),
        ],
        40,
    ),
    # seven pairs: 25 flat, tsumo or not
    ("1122m3344p5566s77z", dict(tsumo=True), [("chiitoitsu", 25)], 25),
    # open hand with no fu at all (win 7p two-sided): fixed 30
    ("66s234m567p 678s 345p", {}, [("base", 20), ("open hand without fu (fixed 30)", 10)], 30),
    # open hand with only tsumo fu: 22 → 30 by rounding
    ("66s234m567p 678s 345p", dict(tsumo=True), [("base", 20), ("tsumo", 2), ("round up", 8)], 30),
]


@pytest.mark.parametrize("hand,fields,items,total", CASES)
def test_fu_items(hand, fields, items, total):
    r = scored(hand, **fields)
    assert list(r.fu_items) == items
    assert r.fu == total == sum(f for _, f in r.fu_items)


def test_double_wind_pair_is_2_fu_under_wrc():
    r = scored("123m456p789s234s11z", riichi=True, seat="E", rules="wrc")
    assert ("double wind pair 11z", 2) in r.fu_items and r.fu == 40  # 20+10+2+2 = 34 → 40


def test_rinshan_counts_as_tsumo_for_fu():
    # 234m 567p 66s 678s [2222p]: 20 + 16 (closed simple kan) + 2 (tsumo) = 38 → 40
    r = scored("234m567p66678s [2222p]", tsumo=True, rinshan=True)
    assert ("tsumo", 2) in r.fu_items and r.fu == 40


def test_the_wait_reading_worth_more_is_taken():
    # 3455m + 678p 234s 789s, win 5m: tanki on 55 (1 han 40 fu = 1300) or two-sided 34-5 with
    # pinfu (2 han 30 fu = 2000): the pinfu reading pays more
    r = scored("3455m678p234s789s5m", riichi=True)
    assert r.wait == "ryanmen" and {y.name for y in r.yaku} == {"riichi", "pinfu"}
    assert (r.han, r.fu, r.points) == (2, 30, 2000)
