"""Frames: placing a region before warping it, and the splitter's test of whether to warp."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from agari.vision.frames import place, rectify
from agari.vision.split import SplitConfig, TileSize, _cuttable, _plan


def _outline(points: list[tuple[int, int]]) -> np.ndarray:
    return np.int32(points).reshape(-1, 1, 2)


@pytest.mark.parametrize("points", [
    [(40, 50), (400, 58), (398, 110), (42, 103)],  # a row seen in perspective: its corners
    [(40, 50), (200, 50), (200, 170), (40, 170)],  # a grid: its min-area box
])
def test_rectify_uses_the_placement_it_is_given(points):
    rng = np.random.default_rng(0)
    gray = rng.integers(0, 255, (240, 480), dtype=np.uint8)
    c = _outline(points)
    rect = cv2.minAreaRect(c)
    placed = place(c, rect, 2)
    alone, given = rectify(gray, c, rect, 2), rectify(gray, c, rect, 2, placed)
    assert (alone.width, alone.height) == (placed.width, placed.height)
    assert alone.gray.shape == (placed.size[1], placed.size[0])
    for a, b in ((alone.gray, given.gray), (alone.mask, given.mask),
                 (alone.to_frame, given.to_frame)):
        assert np.array_equal(a, b)


def test_a_frame_too_short_to_cut_has_no_plan():
    cfg, size = SplitConfig(), TileSize(40.0, 53.0)
    rng = np.random.default_rng(1)
    gray = rng.integers(0, 255, (200, 200), dtype=np.uint8)
    for side in (60, 63, 65, 66, 90):  # the limit is 1.6 short sides, 64 pixels
        c = _outline([(20, 20), (20 + side, 20), (20 + side, 75), (20, 75)])
        rect = cv2.minAreaRect(c)
        placed = place(c, rect, cfg.pad)
        if not _cuttable(placed.width, placed.height, size, cfg):
            assert _plan(rectify(gray, c, rect, cfg.pad, placed), size, cfg) is None
        assert _cuttable(placed.width, placed.height, size, cfg) == (side > 64)
