"""HAND notation and hand validation, with the exact reason for each rejection."""

import pytest
from agari.engine import Hand, InvalidHand, InvalidTile, Meld, Tile, parse_hand, parse_tiles
from agari.engine.tiles import format_tiles


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


def _random_notation(rng) -> str:
    """Hand-like text of 13 or 14 tiles: runs in or out of suit order, melds, some fifth copies."""
    melds = [rng.choice(["123m", "555p", "[1111z]", "2222s", "789s", "0555m", "345s"])
             for _ in range(rng.randint(0, 2))]
    tiles = [rng.choice("01234567899") + rng.choice("mps") if rng.random() < 0.8
             else rng.choice("1234567") + "z" for _ in range(rng.choice((13, 14)) - 3 * len(melds))]
    runs, i = [], 0
    while i < len(tiles):
        size = rng.randint(1, 5)
        run = tiles[i : i + size]
        runs.extend(sorted(run, key=lambda t: t[1]) if rng.random() < 0.7 else run)
        i += size
    if rng.random() < 0.5:
        runs.sort(key=lambda t: "mpsz".index(t[1]))
    text = "".join(t[0] + t[1] if k + 1 == len(runs) or runs[k + 1][1] != t[1] else t[0]
                   for k, t in enumerate(runs))
    return " ".join([text, *melds])


def _meld(text: str) -> Meld:
    tiles = tuple(parse_tiles(text.strip("[]")))
    if text.startswith("["):
        return Meld("ankan", tiles)
    if len(tiles) == 4:
        return Meld("minkan", tiles)
    return Meld("pon" if len({t.kind for t in tiles}) == 1 else "chi", tiles)


def test_parsed_hands_equal_hands_built_from_tiles():
    """The parser counts tiles run by run; the result is the value `Hand` makes from tiles."""
    import random

    rng = random.Random(11)
    checked = 0
    for _ in range(4000):
        text = _random_notation(rng)
        try:
            parsed = parse_hand(text)
        except InvalidHand as err:
            parsed = err
        groups = text.split()
        try:
            built = Hand(tuple(parse_tiles(groups[0])), tuple(_meld(g) for g in groups[1:]))
        except InvalidHand as err:
            built = err
        if isinstance(parsed, InvalidHand) or isinstance(built, InvalidHand):
            assert str(parsed) == str(built), text
            continue
        checked += 1
        assert parsed == built
        for name in ("counts", "held", "reds", "closed"):
            assert getattr(parsed, name) == getattr(built, name), (text, name)
        assert str(parsed) == " ".join(
            [format_tiles(built.concealed), *(m.text for m in built.melds)]
        )
    assert checked > 500
