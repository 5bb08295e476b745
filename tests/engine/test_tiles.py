import pytest
from agari.engine.errors import InvalidTile
from agari.engine.tiles import (
    CLASS_NAMES,
    KINDS,
    TILE_NAMES,
    Tile,
    format_tiles,
    kind_counts,
    parse_tiles,
)


def test_tile_list_shape():
    assert len(KINDS) == 34 and len(set(KINDS)) == 34
    assert TILE_NAMES[34:] == ("0m", "0p", "0s")
    assert CLASS_NAMES[-2:] == ("back", "none") and len(CLASS_NAMES) == 39


@pytest.mark.parametrize(
    "text,kind,red",
    [("1m", 0, False), ("9m", 8, False), ("0m", 4, True), ("5p", 13, False), ("0s", 22, True),
     ("1z", 27, False), ("7z", 33, False), ("5mr", 4, True), ("E", 27, False), ("P", 31, False),
     ("F", 32, False), ("C", 33, False)],
)
def test_parse_one(text, kind, red):
    t = Tile.parse(text)
    assert (t.kind, t.red) == (kind, red)


@pytest.mark.parametrize("bad", ["8z", "0z", "x", "5q", "", "10m", "5zr"])
def test_parse_one_rejects(bad):
    with pytest.raises(InvalidTile):
        Tile.parse(bad)


def test_red_only_on_fives():
    with pytest.raises(InvalidTile, match="only fives"):
        Tile(3, red=True)


def test_parse_and_format_round_trip():
    tiles = parse_tiles("123m406p789s1122z")
    assert [str(t) for t in tiles][:6] == ["1m", "2m", "3m", "4p", "0p", "6p"]
    assert format_tiles(tiles) == "123m406p789s1122z"
    assert format_tiles(parse_tiles("5p0p")) == "05p"


@pytest.mark.parametrize("bad", ["123", "123m4", "12x3m", "m123", "8z"])
def test_parse_tiles_rejects(bad):
    with pytest.raises(InvalidTile):
        parse_tiles(bad)


def test_tenhou_136_ids():
    assert Tile.from_136(16) == Tile.parse("0m")
    assert Tile.from_136(17) == Tile.parse("5m")
    assert Tile.from_136(16, red_fives=False) == Tile.parse("5m")
    assert Tile.from_136(135) == Tile.parse("7z")
    for name in TILE_NAMES:
        t = Tile.parse(name)
        assert Tile.from_136(t.to_136()) == t
    with pytest.raises(InvalidTile):
        Tile.from_136(136)


def test_mjai_names_round_trip():
    for name in TILE_NAMES:
        t = Tile.parse(name)
        assert Tile.from_mjai(t.mjai) == t


def test_structure_predicates():
    assert Tile.parse("1m").is_terminal and Tile.parse("9s").is_yaochuu
    assert Tile.parse("5z").is_honor and not Tile.parse("5z").is_terminal
    assert not Tile.parse("5p").is_yaochuu
    assert kind_counts(parse_tiles("0m5m5m"))[4] == 3


def test_group_reading_matches_the_plain_reader_on_random_text():
    """Runs are read once and remembered; tiles, canonical text and errors stay those of the
    plain left-to-right reader."""
    import random

    from agari.engine.tiles import _RUNS, _parse_slowly, parse_group

    rng = random.Random(3)
    for _ in range(20000):
        text = "".join(rng.choice("01234567899mpsz ,x") for _ in range(rng.randint(0, 14)))
        if rng.random() < 0.1:
            _RUNS.clear()
        try:
            fast = parse_group(text)
        except InvalidTile as err:
            fast = str(err)
        try:
            plain = _parse_slowly(text)[:2]
        except InvalidTile as err:
            plain = str(err)
        assert fast == plain, text
