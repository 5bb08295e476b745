"""Reading a calibration photo with the real locator and the shipped classifier."""

from __future__ import annotations

import sys
from pathlib import Path

import agari.models.calibration_build as calibration_build
import numpy as np
import pytest
from agari.engine.tiles import BACK
from agari.models.calibration_apply import new_profile
from agari.models.calibration_build import bind_photo, calibrate_layout_photo, read_layout_tiles
from agari.models.calibration_layout import LayoutMismatch, ReferenceLayout, bind_layout
from agari.models.classifier import TileClassifier
from agari.vision.detection import TileDetection
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


def test_a_dark_faced_set_is_read_with_the_core_net(layout_photo):
    # The classical steps look for bright faces; on dark faces they find the pips.
    clf = layout_photo[2]
    image, tiles = render_layout(22, unseen_style(22, "dark"))
    layout = ReferenceLayout()
    with pytest.raises(LayoutMismatch):
        bind_photo(image, read_layout_tiles(image, clf, net=False), clf, layout)
    bound = bind_photo(image, read_layout_tiles(image, clf, net=True), clf, layout)
    assert [b.name for b in bound] == list(layout.names)
    ious = [quad_iou(np.float32(b.detection.quad), np.float32(t.quad))
            for b, t in zip(bound, tiles, strict=True)]
    assert min(ious) > 0.5


def test_the_nets_reading_is_tried_where_the_classical_does_not_fit(layout_photo, monkeypatch):
    image, _, clf = layout_photo
    asked = []

    def reading(image, classifier, *, net=False):
        asked.append(net)
        tiles = read_layout_tiles(image, classifier, net=net)
        return tiles if net else tiles[:10]  # the classical reading too short to mend

    monkeypatch.setattr(calibration_build, "read_layout_tiles", reading)
    profile = new_profile("club", clf)
    profile, report = calibrate_layout_photo(profile, image, clf, source="layout.jpg")
    assert asked == [False, True] and report.tiles == 38


def test_when_neither_reading_fits_the_classical_ones_error_is_given(layout_photo,
                                                                     monkeypatch):
    image, _, clf = layout_photo
    monkeypatch.setattr(calibration_build, "read_layout_tiles",
                        lambda image, classifier, *, net=False: [TileDetection(
                            quad=((0, 0), (10, 0), (10, 14), (0, 14)))] if net else [])
    with pytest.raises(LayoutMismatch, match="found 0 tiles"):
        calibrate_layout_photo(new_profile("club", clf), image, clf, source="layout.jpg")
