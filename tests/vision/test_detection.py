"""`TileDetection`'s own checks (agari.vision.detection)."""

from __future__ import annotations

import numpy as np
import pytest
from agari.engine.errors import InvalidInput
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection

SQUARE = ((0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0))


@pytest.mark.parametrize("quad", [
    ((0, 0), (1, 0), (1, 1)),
    ((0, 0, 0), (1, 0), (1, 1), (0, 1)),
    ((0, 0), (1, 0), (1, 1), (0, 1), (0, 0)),
    ((0, 0), (1, 0), 5, (0, 1)),
    ((0, 0), (1, float("nan")), (1, 1), (0, 1)),
    ((0, 0), (1, 0), (1, 1), (0, float("inf"))),
    ((float("-inf"), 0), (1, 0), (1, 1), (0, 1)),
])
def test_a_malformed_quad_is_refused(quad):
    with pytest.raises(InvalidInput):
        TileDetection(quad)


def test_finite_coordinates_whose_sum_overflows_are_taken():
    big = 1e308
    assert TileDetection(((big, big), (big, big), (big, big), (big, big))).quad[0][0] == big


def test_quads_of_any_numbers_are_taken():
    assert TileDetection(np.zeros((4, 2), np.float32)).box == (0.0, 0.0, 0.0, 0.0)
    assert TileDetection(((0, 0), (4, 0), (4, 4), (0, 4))).centre == (2.0, 2.0)


@pytest.mark.parametrize(("field", "value"), [("confidence", 1.5), ("confidence", -0.1),
                                              ("label", "5m")])
def test_a_bad_label_or_confidence_is_refused(field, value):
    with pytest.raises(InvalidInput):
        TileDetection(SQUARE, **{field: value})


def test_a_classified_tile_keeps_its_fields():
    det = TileDetection(SQUARE, sideways=True, label=Tile.parse("5m"), confidence=0.9,
                        alternatives=(("5m", 0.9),))
    assert (det.sideways, det.label, det.confidence) == (True, Tile.parse("5m"), 0.9)
