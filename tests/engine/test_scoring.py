"""Whole-hand scoring: dora of every kind, limits, 3-player, choice of reading, errors, JSON."""

import pytest
from agari.engine import (
    InvalidHand,
    InvalidInput,
    InvalidTile,
    NotAgari,
    NoYaku,
    Tile,
    WinContext,
    parse_hand,
)
from agari.engine.scoring import score
from agari.engine.waits import score_each_wait
from helpers import scored, yaku_of

PINFU = "234m567p34566678s"  # riichi pinfu tanyao hand; ron on 8s, 30 fu


@pytest.mark.parametrize(
    "fields,dora_rows",
    [
        (dict(dora="3m"), {"dora": 1}),  # 3m → 4m
        (dict(dora="5s"), {"dora": 3}),  # 5s → 6s: three of them
        (dict(dora="9s"), {}),  # 9s → 1s: none
        (dict(dora="3m,3m"), {"dora": 2}),  # kan dora stack
        (dict(dora="3m", ura="5s"), {"dora": 1, "ura_dora": 3}),
    ],
)
def test_dora_indicators(fields, dora_rows):
    r = scored(PINFU, riichi=True, **fields)
    rows = {k: v for k, v in yaku_of(r).items() if k.endswith("dora")}
    assert rows == dora_rows
    assert r.han == 3 + sum(dora_rows.values())


@pytest.mark.parametrize(
    "indicator,hand,count",
    [
        ("9p", "123m11p456p789s111z", 2),  # 9 wraps to 1
        ("4z", "123m456p789s11z222z", 2),  # north wraps to east
        ("7z", "123m456p789s11z555z", 3),  # red dragon wraps to white
        ("5z", "123m456p789s11z666z", 3),  # white → green
    ],
)
def test_indicator_wrap_around(indicator, hand, count):
    assert yaku_of(scored(hand, dora=indicator, win=hand[-2:]))["dora"] == count


def test_ura_counts_only_with_riichi_and_never_alone():
    assert "ura_dora" not in yaku_of(scored(PINFU, dora="1m", ura="5s"))  # ignored without riichi
    with pytest.raises(NoYaku):
        scored("13m456p789s11z333z2m", dora="1m,1m")  # dora are not a yaku


def test_red_fives_count_and_are_checked_against_the_set():
    r = scored("234m067p34066678s", riichi=True)
    assert yaku_of(r)["aka_dora"] == 2
    with pytest.raises(InvalidHand, match="2 red 5p"):
        scored("234m067p34566678s", dora="0p")  # tenhou's set has one red 5p
    with pytest.raises(InvalidHand, match="red 5s but the 'wrc'"):
        scored("234m567p34066678s", rules="wrc")  # WRC plays without red fives
    with pytest.raises(InvalidHand, match="4 plain 5p"):
        scored("123m456m789m11z 5555p")  # the fourth 5p of tenhou's set is red
    assert yaku_of(scored("123m456m789m11z 0555p"))["aka_dora"] == 1  # open ittsu + red


def test_kan_dora_can_be_switched_off(tmp_path):
    path = tmp_path / "nokandora.toml"
    path.write_text("kan_dora = false\n")
    assert yaku_of(scored(PINFU, riichi=True, dora="3m,3m", rules=str(path)))["dora"] == 1


def test_kazoe_yakuman_and_its_variants():
    # 123 456 789p 22p 345p, tsumo on 5p: riichi 1 + tsumo 1 + pinfu 1 + ittsu 2 + chinitsu 6
    # = 11, + 6 dora (two 1p indicators, each counting the three 2p held) = 17 han: kazoe yakuman
    fields = dict(riichi=True, tsumo=True, dora="1p,1p", win="5p")
    r = scored("123456789p22p345p", **fields)
    assert r.han == 17 and r.limit == "kazoe-yakuman" and r.yakuman == 0 and r.points == 32000
    wrc = scored("123456789p22p345p", rules="wrc", **fields)
    assert wrc.limit == "sanbaiman" and wrc.points == 24000


def test_best_reading_is_chosen_by_points():
    # 111222333m 789p 55s, tsumo on 3m: three concealed triplets (sanankou + tsumo, 40 fu
    # → 5200) beat three identical runs (iipeikou + tsumo, 30 fu → 2000)
    r = scored("111222333m789p55s", tsumo=True, win="3m")
    assert "sanankou" in yaku_of(r) and r.points == 5200
    assert r.decomposition == ("111m", "222m", "333m", "789p", "55s")


def test_three_player_payments_and_nuki():
    # dealer tsumo, sanma: 2 payers; 2 north set aside with a west indicator: 2 nuki + 2 dora
    r = scored(
        "123p456p789s11s222z", players=3, seat="E", tsumo=True, nuki=2, dora="3z", win="2z", honba=1
    )
    rows = yaku_of(r)
    assert rows["nuki_dora"] == 2 and rows["dora"] == 2
    assert set(r.payments) == {"non_dealer"} and r.total == 2 * r.payments["non_dealer"]
    assert r.payments["non_dealer"] == r.points // 2 + 100  # 100 per honba from each
    with pytest.raises(InvalidHand, match="no 2m-8m"):
        scored("234m456p789s11s222z", players=3)
    with pytest.raises(InvalidInput, match="only in 3-player"):
        scored(PINFU, nuki=1)


def test_sanma_man_indicator_wraps_1_to_9():
    r = scored("99m123p456p789s111z", players=3, dora="1m", win="1z")
    assert yaku_of(r)["dora"] == 2


@pytest.mark.parametrize(
    "hand,fields,error,message",
    [
        ("123m456p789s11z22z5m", {}, NotAgari, "tenpai on 1z 2z"),
        ("123m456p789s1357z", {}, NotAgari, "not tenpai"),
        ("13m456p789s11z333z2m", {}, NoYaku, "no yaku"),
        ("123m456p789s11z222z", dict(win="5m"), InvalidHand, "not among the concealed"),
        (PINFU + " ", dict(ippatsu=True), InvalidInput, "ippatsu needs riichi"),
        ("234m567p66s 678s 345p", dict(riichi=True), InvalidInput, "closed hand"),
        (PINFU, dict(rinshan=True, tsumo=True), InvalidInput, "rinshan needs a kan"),
        (PINFU, dict(tenhou=True, tsumo=True), InvalidInput, "dealer"),
        (PINFU, dict(haitei=True), InvalidInput, "tsumo"),
        (PINFU, dict(dora="6s,6s"), InvalidHand, "copies of 6s counting the indicators"),
        (PINFU, dict(seat="X"), InvalidInput, "seat must be one of"),
        (PINFU, dict(dora="9x"), InvalidTile, "dora"),
        (PINFU, dict(players=5), InvalidInput, "3 or 4"),
        (PINFU, dict(honba=-1), InvalidInput, "honba"),
        (PINFU, dict(tsumo="yes"), InvalidInput, "true or false"),
        (PINFU, dict(nagashi=True, rules="no-such-rules"), InvalidInput, "unknown rules"),
    ],
)
def test_errors(hand, fields, error, message):
    with pytest.raises(error, match=message):
        scored(hand, **fields)


def test_not_agari_carries_waits():
    with pytest.raises(NotAgari) as info:
        scored("123m456p789s11z22z5m")  # without the 5m: tenpai on 1z and 2z
    assert info.value.details["waits"] == ["1z", "2z"]
    with pytest.raises(NotAgari) as info:
        score(parse_hand("123m456p789s1122z"))  # 13 tiles and no winning tile
    assert info.value.details["waits"] == ["1z", "2z"]


def test_thirteen_tiles_with_a_winning_tile_are_completed():
    r = score(parse_hand("123m456p789s1122z"), WinContext(win=Tile.parse("2z")))
    assert r.win.name == "2z" and r.hand.size == 14 and r.points == 1300


def test_each_wait_is_scored():
    results = score_each_wait(parse_hand("123m456p789s1122z"))
    assert {str(t): r.points for t, r in results.items()} == {"1z": 1300, "2z": 1300}
    results = score_each_wait(parse_hand("13m456p789s11z333z"))  # kanchan 2m, no yaku
    assert list(results) == [Tile.parse("2m")] and isinstance(results[Tile.parse("2m")], NoYaku)


def test_result_json_follows_the_contract():
    r = scored("234m406p789s11z777z", dora="4p", honba=1, sticks=2).to_json()
    assert list(r) == [
        "hand",
        "win",
        "tsumo",
        "han",
        "fu",
        "yakuman",
        "limit",
        "points",
        "payments",
        "total",
        "yaku",
        "fu_breakdown",
        "decomposition",
        "rules",
    ]
    assert r["hand"] == "234m406p789s11777z" and r["win"] == "7z" and r["tsumo"] is False
    assert (r["han"], r["fu"], r["limit"], r["points"]) == (3, 40, "none", 5200)
    assert r["payments"] == {"ron": 5500} and r["total"] == 7500
    assert r["yaku"][0] == {"name": "chun", "han": 1, "name_ja": "役牌 中"}
    assert r["decomposition"] == ["234m", "406p", "789s", "11z", "777z"]
    assert sum(f["fu"] for f in r["fu_breakdown"]) == 40 and r["rules"] == "tenhou"


def test_request_fields_map_onto_the_situation_in_order():
    """`parse_request` reads fields by their position among the `WinContext` fields."""
    from agari.engine.requests import (
        _LAST_FLAG,
        _ROUND,
        _SLOT,
        _URA,
        _WIN,
        COUNTS,
        FLAGS,
        parse_request,
    )

    flags = [_SLOT[f] for f in FLAGS]
    assert min(flags) > _WIN and max(flags) == _LAST_FLAG < _SLOT["seat"] < _ROUND
    assert _ROUND < _SLOT["dora"] < _URA < min(_SLOT[c] for c in COUNTS)
    request = {"hand": "123m456p789s11222z", "win": "2z", "tsumo": True, "riichi": True,
               "seat": "E", "round": "S", "dora": "1z", "ura": "9m", "honba": 2, "sticks": 1}
    _, ctx, _ = parse_request(request)
    assert (ctx.win.name, ctx.tsumo, ctx.riichi) == ("2z", True, True)
    assert (ctx.seat_wind, ctx.round_wind, ctx.honba, ctx.sticks) == (0, 1, 2, 1)
    assert [t.name for t in ctx.dora + ctx.ura] == ["1z", "9m"]
