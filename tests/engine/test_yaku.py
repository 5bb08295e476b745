"""Every yaku, with hands worked by hand from the rules (tenhou rules unless stated).

Default situation: ron, seat South, round East (so 1z is the round wind and
2z the seat wind). Each row: hand, request fields, expected yaku → han,
expected (han, fu, points). Comments show the count.
"""

import pytest
from agari.engine import NoYaku
from helpers import scored, yaku_of

# hand, fields, yaku (exact, dora rows included), (han, fu, points)
CASES = [
    # riichi 1 + pinfu 1 + tanyao 1; fu 20 + 10 closed ron = 30 → 3900
    ("234m567p34566678s", dict(riichi=True), {"riichi": 1, "pinfu": 1, "tanyao": 1}, (3, 30, 3900)),
    # + tsumo: pinfu tsumo stays 20 fu; 4 han 20 fu → 1300/2600
    (
        "234m567p34566678s",
        dict(riichi=True, tsumo=True),
        {"menzen_tsumo": 1, "riichi": 1, "pinfu": 1, "tanyao": 1},
        (4, 20, 5200),
    ),
    (
        "234m567p34566678s",
        dict(riichi=True, ippatsu=True),
        {"riichi": 1, "ippatsu": 1, "pinfu": 1, "tanyao": 1},
        (4, 30, 7700),
    ),
    (
        "234m567p34566678s",
        dict(double_riichi=True),
        {"double_riichi": 2, "pinfu": 1, "tanyao": 1},
        (4, 30, 7700),
    ),
    # 234m 234m 567p 678s 99s, win 6s two-sided: iipeikou 1 + pinfu 1, 30 fu → 2000
    ("223344m567p78996s", {}, {"iipeikou": 1, "pinfu": 1}, (2, 30, 2000)),
    # seat wind South triplet completed by ron (open, honour 4) + East pair (round wind 2):
    # 20 + 10 + 4 + 2 = 36 → 40; 1 han 40 fu → 1300
    ("123m456p789s11z222z", {}, {"seat_wind_south": 1}, (1, 40, 1300)),
    # dealer in East round: 1z triplet is seat and round wind, 2 han; 20+10+4+0 = 34 → 40
    (
        "123m456p789s22z111z",
        dict(seat="E"),
        {"seat_wind_east": 1, "round_wind_east": 1},
        (2, 40, 3900),
    ),
    ("123m456p789s11z555z", {}, {"haku": 1}, (1, 40, 1300)),
    ("123m456p789s11z666z", {}, {"hatsu": 1}, (1, 40, 1300)),
    ("123m456p789s11z777z", {}, {"chun": 1}, (1, 40, 1300)),
    # 123m 789m 999p 789s 11z, tanki on 1z: 20+10+8 (999p closed)+2 (round-wind pair)+2 = 42 → 50
    ("123789m999p789s11z", {}, {"chanta": 2}, (2, 50, 3200)),
    # open chanta is 1 han: 20 + 8 (999p) + 2 + 2 = 32 → 40
    ("789m999p789s11z 123m", {}, {"chanta": 1}, (1, 40, 1300)),
    # junchan: 20+10+8+2 (tanki on 1s) = 40
    ("123789m999p78911s", {}, {"junchan": 3}, (3, 40, 5200)),
    # 123 456 789m + 234p + 11s, win 9m two-sided (78 waiting 6/9): ittsu 2 + pinfu 1
    ("12345678m234p11s9m", {}, {"ittsu": 2, "pinfu": 1}, (3, 30, 3900)),
    ("45678m234p11s9m 123m", {}, {"ittsu": 1}, (1, 30, 1000)),  # open ittsu: 1 han, 20+0 → 30
    # 123m 456m 123p 99s 123s, win 3s = penchan 12-3: 20+10+2 = 32 → 40
    ("123456m123p99s123s", {}, {"sanshoku": 2}, (2, 40, 2600)),
    # 222m 222p 222s 345m 11s, win 5m two-sided: sanshoku doukou 2 + sanankou 2;
    # 20+10+4+4+4 = 42 → 50; 4 han 50 fu → mangan
    ("222m222p222s11s345m", {}, {"sanshoku_doukou": 2, "sanankou": 2}, (4, 50, 8000)),
    # open: 11m 555z | 222p 333s 444z; win 5z shanpon by ron → open 555z:
    # 20 + 4 + 2 + 2 + 4 = 32 → 40; toitoi 2 + haku 1
    ("11m555z 222p 333s 444z", {}, {"toitoi": 2, "haku": 1}, (3, 40, 5200)),
    # 111m 222p 333s 99p 456m, win 6m: 20+10+8+4+4 = 46 → 50
    ("111m222p333s99p456m", {}, {"sanankou": 2}, (2, 50, 3200)),
    # tsumo: no closed-ron 10 but tsumo 2: 20+8+4+4+2 = 38 → 40
    ("111m222p333s99p456m", dict(tsumo=True), {"menzen_tsumo": 1, "sanankou": 2}, (3, 40, 5200)),
    # three kans: [1111m] 32, 2222p 8, 3333s 8, chun pair 2, tanki 2: 20+52 = 72 → 80
    (
        "456m77z [1111m] 2222p 3333s",
        {},
        {
            "sankantsu": 2,
        },
        (2, 80, 5200),
    ),
    # 555z closed 8, 666z ron-completed 4, 77z pair 2: 20+10+14 = 44 → 50; 4 han → mangan
    ("123m456p77z555666z", {}, {"haku": 1, "hatsu": 1, "shousangen": 2}, (4, 50, 8000)),
    # 111m 999p 11z 111s(ron) | 999s: toitoi 2 + honroutou 2; 20+8+8+4+4+2 = 46 → 50
    ("111m999p11z111s 999s", {}, {"toitoi": 2, "honroutou": 2}, (4, 50, 8000)),
    ("1122m3344p5566s77z", {}, {"chiitoitsu": 2}, (2, 25, 1600)),
    ("1122m3344p5566s77z", dict(tsumo=True), {"menzen_tsumo": 1, "chiitoitsu": 2}, (3, 25, 3200)),
    # 234567888m 11z | 222z pon: honitsu 2 (open) + seat wind 1; 20+4+4+2+2 = 32 → 40
    ("234567888m11z 222z", {}, {"honitsu": 2, "seat_wind_south": 1}, (3, 40, 5200)),
    # open chinitsu 5: 11 234 567 888(ron) | 789 chi: 20 + 2 = 22 → 30
    ("11234567888m 789m", {}, {"chinitsu": 5}, (5, 30, 8000)),
    # ryanpeikou (3) beats seven pairs (2 han 25 fu): 20+10+2 tanki = 32 → 40
    ("112233m556677p99s", {}, {"ryanpeikou": 3}, (3, 40, 5200)),
    (
        "234m567p34566678s",
        dict(riichi=True, haitei=True, tsumo=True),
        {"menzen_tsumo": 1, "riichi": 1, "pinfu": 1, "tanyao": 1, "haitei": 1},
        (5, 20, 8000),
    ),
    ("234m567p34566678s", dict(houtei=True), {"pinfu": 1, "tanyao": 1, "houtei": 1}, (3, 30, 3900)),
    (
        "234m567p34566678s",
        dict(chankan=True),
        {"pinfu": 1, "tanyao": 1, "chankan": 1},
        (3, 30, 3900),
    ),
    # rinshan after a closed kan: 20 + 16 ([2222p] simple closed kan) + 2 tsumo = 38 → 40
    (
        "234m567s66678s [2222p]",
        dict(tsumo=True, rinshan=True),
        {"menzen_tsumo": 1, "rinshan": 1, "tanyao": 1},
        (3, 40, 5200),
    ),
]


@pytest.mark.parametrize("hand,fields,yaku,expected", CASES)
def test_yaku(hand, fields, yaku, expected):
    r = scored(hand, **fields)
    assert yaku_of(r) == yaku
    assert (r.han, r.fu, r.points) == expected


def test_tanyao_open_only_with_kuitan(tmp_path):
    # 22m 345p 678s | 456m chi | 777s pon, win 8s two-sided: open, 20 + 2 (777s) = 22 → 30
    r = scored("22m345p678s 456m 777s")
    assert yaku_of(r) == {"tanyao": 1} and (r.han, r.fu, r.points) == (1, 30, 1000)
    rules = tmp_path / "no-kuitan.toml"
    rules.write_text('base = "tenhou"\nkuitan = false\n')
    with pytest.raises(NoYaku):
        scored("22m345p678s 456m 777s", rules=str(rules))
    closed = scored("22m345p678s456m777s", rules=str(rules))
    assert "tanyao" in yaku_of(closed)


YAKUMAN = [
    # hand, fields, yaku, points under tenhou
    ("119m19p19s1234567z", {}, {"kokushi": 13}, 32000),
    ("19m19p19s12345677z", {}, {"kokushi_13": 13}, 32000),  # tenhou: single yakuman
    ("111m222p333s55z444z", dict(tsumo=True), {"suuankou": 13}, 32000),
    ("111m222p333s444z55z", {}, {"suuankou_tanki": 13}, 32000),
    ("123m55p555666z777z", {}, {"daisangen": 13}, 32000),
    ("11m111z222z333z444z", {}, {"daisuushii": 13}, 32000),
    ("123m111z222z333z44z", {}, {"shousuushii": 13}, 32000),
    ("11122z 555z 666z 777z", {}, {"daisangen": 13, "tsuuiisou": 13}, 64000),  # two yakuman add up
    ("111m999m111p999p11s", dict(tsumo=True), {"suuankou_tanki": 13, "chinroutou": 13}, 64000),
    ("22334466888s666z", {}, {"ryuuiisou": 13}, 32000),
    ("11123455678999m", {}, {"chuuren": 13}, 32000),  # win 9m: not the nine-sided wait
    ("11123455678999m", dict(win="5m"), {"junsei_chuuren": 13}, 32000),  # 1112345678999 + 5m
    ("55z [1111m] [2222p] 3333s 4444z", {}, {"suukantsu": 13}, 32000),
    ("234m567p34566678s", dict(seat="E", tsumo=True, tenhou=True), {"tenhou": 13}, 48000),
    ("234m567p34566678s", dict(tsumo=True, chiihou=True), {"chiihou": 13}, 32000),
]


@pytest.mark.parametrize("hand,fields,yaku,points", YAKUMAN)
def test_yakuman(hand, fields, yaku, points):
    r = scored(hand, **fields)
    assert yaku_of(r) == yaku
    assert r.points == points and r.yakuman == sum(yaku.values()) // 13
    assert r.limit == "yakuman" and r.han == 13 * r.yakuman


@pytest.mark.parametrize(
    "hand,fields,name",
    [
        ("19m19p19s12345677z", {}, "kokushi_13"),
        ("111m222p333s444z55z", {}, "suuankou_tanki"),
        ("11m111z222z333z444z", {}, "daisuushii"),
        ("11123455678999m", dict(win="5m"), "junsei_chuuren"),
    ],
)
def test_double_yakuman_per_rules(hand, fields, name):
    assert scored(hand, **fields).yakuman == 1
    double = scored(hand, rules="mahjongsoul", **fields)
    assert yaku_of(double) == {name: 26} and double.yakuman == 2 and double.points == 64000


def test_yakuman_do_not_add_up_without_stacking():
    r = scored("11122z 555z 666z 777z", rules="ema")
    assert r.yakuman == 1 and r.points == 32000


def test_renhou_per_rules():
    # 123m (kanchan 2m) 456p 789s 11z 333z: no yaku of its own (3z is neither seat nor round)
    hand = "13m456p789s11z333z2m"
    with pytest.raises(NoYaku):
        scored(hand, renhou=True)  # tenhou has no renhou: the flag adds nothing
    assert yaku_of(scored(hand, renhou=True, rules="wrc")) == {"renhou": 5}
    assert scored(hand, renhou=True, rules="wrc").points == 8000
    assert yaku_of(scored(hand, renhou=True, rules="ema")) == {"renhou": 13}


def test_nagashi_mangan():
    r = scored("123m456p789s1122z3z", nagashi=True, honba=2, sticks=1)
    assert yaku_of(r) == {"nagashi_mangan": 5} and r.payments == {
        "dealer": 4000,
        "non_dealer": 2000,
    }
    assert r.total == 8000  # tenhou: honba and sticks stay on the table
    ema = scored("123m456p789s1122z3z", nagashi=True, honba=2, rules="ema")
    assert ema.payments == {"dealer": 4200, "non_dealer": 2200}
