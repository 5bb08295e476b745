"""HAND notation and hand validation, with the exact reason for each rejection."""

import pytest
from agari.engine import Hand, InvalidHand, InvalidTile, Meld, Tile, parse_hand, parse_tiles


def test_parse_concealed_and_melds():
    h = parse_hand("55p 777z [1111s] 2222p 678s")
    assert [m.kind for m in h.melds] == ["pon", "ankan", "minkan", "chi"]
    assert h.melds[1].opened is False and h.melds[2].is_kan
    assert not h.closed and h.size == 14
    assert str(h) == "55p 777z [1111s] 2222p 678s"


def test_closed_kans_keep_the_hand_closed():
    assert parse_hand("123m456p11z [7777s] [2222z]").closed


def test_red_fives_anywhere():
    h = parse_hand("406m067p505s340s11z")
    assert sum(t.red for t in h.all_tiles()) == 4


@pytest.mark.parametrize(
    "text,error,message",
    [
        ("", InvalidHand, "empty hand"),
        ("123m456p789s11z", InvalidHand, "got 11"),
        ("123m456p789s1122z33z", InvalidHand, "got 15"),
        ("11111m234p567s77z", InvalidHand, "5 copies of 1m"),
        ("123m456p11z 111z 1111z", InvalidHand, "9 copies of 1z"),
        ("123m456p789s11z 124m", InvalidHand, "not three consecutive"),
        ("123m456p789s11z 899m", InvalidHand, "not three consecutive"),
        ("123m456p789s11z 123z", InvalidHand, "not three consecutive"),
        ("123m456p789s11z [1112m]", InvalidHand, "four copies"),
        ("123m456p789s11z [111m", InvalidHand, "unbalanced"),
        ("[1111m] 123m456p789s11z", InvalidHand, "first group"),
        ("123m456p789s11z 12m", InvalidHand, "has 2 tiles"),
        ("123m456p789s11x22z", InvalidTile, "concealed tiles"),
        ("123m456p789s1188z", InvalidTile, "1z..7z"),
        ("123m456p78s1122z9", InvalidTile, "suit letter"),
    ],
)
def test_rejections(text, error, message):
    with pytest.raises(error, match=message):
        parse_hand(text)


@pytest.mark.parametrize(
    "text,message",
    [
        ("123p456p789s11z 555m", "no 2m-8m, got 5m"),
        ("11m456p789s11z 234p", "no chi"),
    ],
)
def test_three_player_rejections(text, message):
    with pytest.raises(InvalidHand, match=message):
        parse_hand(text, players=3)


def test_meld_validation():
    t = parse_tiles
    assert Meld("chi", t("312m"), called=0, source="left").first == 0
    with pytest.raises(InvalidHand, match="only be called from the left"):
        Meld("chi", t("123m"), called=0, source="right")
    with pytest.raises(InvalidHand, match="no called tile"):
        Meld("ankan", t("1111m"), called=1)
    with pytest.raises(InvalidHand, match="outside"):
        Meld("pon", t("111m"), called=3)
    with pytest.raises(InvalidHand, match="meld kind"):
        Meld("kong", t("111m"))


def test_hand_built_directly_is_validated():
    with pytest.raises(InvalidHand, match="Tile values"):
        Hand(("1m",) * 14)
    assert Hand(tuple(parse_tiles("123m456p789s1122z"))).counts[27] == 2
    assert Tile.parse("0m") in parse_hand("406m456p789s1122z").concealed
