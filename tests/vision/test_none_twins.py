"""Boxes read `none` over a tile another box reads surely (`agari.vision.none_twins`)."""

from __future__ import annotations

import pytest
from agari.engine.errors import InvalidInput
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection
from agari.vision.none_twins import NoneTwinsConfig, drop_none_twins

TALL = ((0.0, 0.0), (40.0, 0.0), (40.0, 60.0), (0.0, 60.0))


def _moved(quad, dx: float, dy: float = 0.0) -> tuple:
    return tuple((x + dx, y + dy) for x, y in quad)


def _det(quad, label=None, p: float = 0.9, sideways: bool = False) -> TileDetection:
    return TileDetection(quad, label=label, confidence=p, sideways=sideways)


def test_a_none_box_over_a_sure_face_the_other_way_round_is_left_out():
    face = _det(TALL, Tile.parse("7s"), 0.96)
    twin = _det(_moved(TALL, 2.0, 4.0), sideways=True)   # the tile read lying sideways
    beside = _det(_moved(TALL, 42.0), sideways=True)     # its neighbour, read none
    assert drop_none_twins([twin, face, beside]) == [face, beside]
    called = _det(TALL, Tile.parse("7s"), 0.96, sideways=True)
    upright = _det(_moved(TALL, 2.0))
    assert drop_none_twins([upright, called]) == [called]


def test_a_none_box_lying_the_same_way_stays_unless_asked():
    # Another framing of the tile, which may hold part of its neighbour too.
    face = _det(TALL, Tile.parse("7s"), 0.96)
    same = _det(_moved(TALL, 2.0, 4.0))
    assert drop_none_twins([same, face]) == [same, face]
    assert drop_none_twins([same, face], config=NoneTwinsConfig(turned_only=False)) == [face]


def test_unsure_faces_backs_and_loose_overlaps_keep_the_none_box():
    twin = _det(_moved(TALL, 2.0), sideways=True)
    unsure = _det(TALL, Tile.parse("7s"), 0.6)
    back = _det(TALL, "back", 0.99)
    half = _det(_moved(TALL, 20.0), Tile.parse("7s"), 0.99)   # over half of it: IoU 1/3
    for other in (unsure, back, half):
        assert drop_none_twins([twin, other]) == [twin, other]
    assert drop_none_twins([twin, unsure], config=NoneTwinsConfig(sure=0.5)) == [unsure]


def test_faces_are_never_left_out():
    a = _det(TALL, Tile.parse("1m"), 0.99)
    b = _det(_moved(TALL, 1.0), Tile.parse("1m"), 0.95)
    assert drop_none_twins([a, b]) == [a, b]
    assert drop_none_twins([]) == []


@pytest.mark.parametrize("kw", [{"iou": 0.0}, {"iou": 1.5}, {"sure": -0.1}])
def test_thresholds_are_checked(kw):
    with pytest.raises(InvalidInput):
        NoneTwinsConfig(**kw)
