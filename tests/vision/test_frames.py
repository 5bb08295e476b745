"""Frames: placing a region before warping it, and the splitter's test of whether to warp."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from agari.vision.frames import Frame, cut, place, rectify
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


def _cut_part_by_part(frame, axis, cuts):
    """`cut` as first written: each part's points mapped back on their own."""
    mask = frame.mask.copy()
    h, w = mask.shape
    for pos, slope in cuts:
        if axis == 0:
            yc = (h - 1) / 2.0
            p0, p1 = (pos + slope * (0 - yc), 0.0), (pos + slope * (h - 1 - yc), h - 1.0)
        else:
            xc = (w - 1) / 2.0
            p0, p1 = (0.0, pos + slope * (0 - xc)), (w - 1.0, pos + slope * (w - 1 - xc))
        cv2.line(mask, tuple(int(round(v)) for v in p0), tuple(int(round(v)) for v in p1), 0, 1,
                 lineType=4)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    back = np.linalg.inv(frame.to_frame)
    return [np.round(cv2.perspectiveTransform(c.astype(np.float64), back)).astype(np.int32)
            for c in contours if cv2.contourArea(c) >= 4]


@pytest.mark.parametrize("axis", [0, 1])
def test_cut_maps_all_parts_back_as_each_alone(axis):
    rng = np.random.default_rng(axis)
    gray = rng.integers(0, 255, (240, 480), dtype=np.uint8)
    c = _outline([(40, 50), (400, 58), (398, 110), (42, 103)] if axis == 0
                 else [(60, 20), (112, 24), (108, 220), (58, 216)])
    frame = rectify(gray, c, cv2.minAreaRect(c), 2)
    length = frame.mask.shape[1 - axis]
    spots = range(length // 9, length - 4, length // 9)
    cuts = list(zip(spots, rng.uniform(-0.2, 0.2, len(spots)), strict=True))
    got, want = cut(frame, axis, cuts), _cut_part_by_part(frame, axis, cuts)
    assert len(got) == len(want) > 3
    for a, b in zip(got, want, strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert cut(frame, axis, []) and not cut(Frame(frame.to_frame, frame.gray,
                                                  np.zeros_like(frame.mask), 1.0, 1.0), axis, [])
