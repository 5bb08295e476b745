"""Reading a calibration photo with the real locator and the shipped classifier."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from agari.engine.tiles import BACK
from agari.models.calibration_build import read_layout_tiles
from agari.models.calibration_layout import LayoutMismatch, ReferenceLayout, bind_layout
from agari.models.classifier import TileClassifier
from agari.vision.fill import read_tiles
from agari.vision.quads import quad_iou

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_calibration_scenes import render_layout, unseen_style  # noqa: E402


@pytest.fixture(scope="module")
def layout_photo():
    image, tiles = render_layout(12, unseen_style(12, "plain"))
    return image, tiles, TileClassifier.load(threads=1)


def test_the_face_down_tile_the_locator_missed_is_found_beside_the_last_row(layout_photo):
    image, tiles, clf = layout_photo
    layout = ReferenceLayout()
    # As bulk labelling reads it (a back beside a tile needs 0.97), the last row is one short.
    with pytest.raises(LayoutMismatch, match=r"row 5 .* has 3, expected 4"):
        bind_layout(read_tiles(image, clf), layout)
    bound = bind_layout(read_layout_tiles(image, clf), layout)
    assert [b.name for b in bound] == list(layout.names)
    back = bound[-1]
    assert back.name == BACK
    assert quad_iou(np.float32(back.detection.quad), np.float32(tiles[-1].quad)) > 0.5
