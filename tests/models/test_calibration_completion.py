"""Tiles the locator missed on a rendered layout photo, completed with the shipped classifier —
and tiles really taken away from the layout, never made up."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from agari.models.calibration_build import bind_photo
from agari.models.calibration_layout import LayoutMismatch, ReferenceLayout
from agari.models.classifier import TileClassifier
from agari.vision.detection import TileDetection
from agari.vision.quads import quad_iou

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_calibration_scenes import render_layout, unseen_style  # noqa: E402

LAYOUT = ReferenceLayout()
SETS = [("plain", 100_003), ("offpalette", 100_004)]
"""Tuning sets (seeds 100000+), one seen and one unseen look."""
MISSED = {
    "5p, mid-row": (13,),
    "9m, a row's end": (8,),
    "the back": (37,),
    "7z and 1z, both ends of a row": (27, 33),
    "the souzu row": tuple(range(18, 27)),
}


@pytest.fixture(scope="module")
def clf() -> TileClassifier:
    return TileClassifier.load(threads=1)


def truth_detections(tiles, skip: tuple[int, ...]) -> list[TileDetection]:
    return [TileDetection(quad=t.quad) for i, t in enumerate(tiles) if i not in skip]


@pytest.mark.parametrize(("family", "seed"), SETS)
@pytest.mark.parametrize("missed", list(MISSED.values()), ids=list(MISSED))
def test_missed_tiles_are_completed_where_they_lie(clf, family, seed, missed):
    image, tiles = render_layout(seed, unseen_style(seed, family))
    bound = bind_photo(image, truth_detections(tiles, missed), clf, LAYOUT)
    assert [b.name for b in bound] == list(LAYOUT.names)
    for i in missed:
        made = np.float32(bound[i].detection.quad)
        assert quad_iou(made, np.float32(tiles[i].quad)) > 0.5, LAYOUT.names[i]


ABSENT = {"5p, mid-row": (13,), "9m, a row's end": (8,), "1z, a row's start": (27,),
          "the back": (37,), "5z (blank), mid-row": (31,)}


@pytest.mark.parametrize(("family", "seed"), SETS)
@pytest.mark.parametrize("absent", list(ABSENT.values()), ids=list(ABSENT))
def test_a_tile_taken_away_is_reported_missing(clf, family, seed, absent):
    style = unseen_style(seed, family)
    image, tiles = render_layout(seed, style, absent=absent)
    assert len(tiles) == len(LAYOUT.names) - len(absent)
    row = next(r for r, names in enumerate(LAYOUT.rows) if LAYOUT.names[absent[0]] in names)
    with pytest.raises(LayoutMismatch, match=rf"row {row + 1} .* has {len(LAYOUT.rows[row]) - 1}"):
        bind_photo(image, [TileDetection(quad=t.quad) for t in tiles], clf, LAYOUT)
