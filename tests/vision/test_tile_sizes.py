"""The tile size at a region: the fast paths give what the plain computation gives."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from agari.vision.proposals import ProposalConfig
from agari.vision.regions import Region
from agari.vision.split import TileSize
from agari.vision.tile_sizes import _median, is_single, local_size

CFG = ProposalConfig()


def _plain_local_size(r: Region, anchors: np.ndarray) -> TileSize | None:
    """`local_size` as first written: every anchor measured, numpy medians."""
    def median_size(a: np.ndarray) -> TileSize:
        short, long_ = float(np.median(a[:, 2])), float(np.median(a[:, 3]))
        return TileSize(min(short, long_), max(short, long_))

    box = cv2.boxPoints(r.rect)
    dist = np.array([-cv2.pointPolygonTest(box, (float(x), float(y)), True)
                     for x, y in anchors[:, :2]])
    inside = anchors[dist <= 0]
    near = anchors[(dist <= CFG.size_radius * anchors[:, 3])
                   & (anchors[:, 2] <= CFG.split.one_tile * r.short_side)]
    for pick in (inside, near):
        if len(pick):
            return median_size(pick)
    typical = median_size(anchors)
    if r.aspect < CFG.single_aspect[0] and r.short_side >= CFG.min_tile_side:
        return TileSize(CFG.tile_aspect * r.short_side, r.short_side)
    if is_single(r, CFG):
        if r.area > CFG.grid_factor * typical.short * typical.long:
            return typical
        return TileSize(r.short_side, r.long_side)
    return typical


def _region(rng: np.random.Generator) -> Region:
    cx, cy = rng.uniform(0, 1000, 2)
    w, h = rng.uniform(20, 400, 2)
    rect = ((float(cx), float(cy)), (float(w), float(h)), float(rng.uniform(-90, 0)))
    contour = np.round(cv2.boxPoints(rect)).astype(np.int32).reshape(-1, 1, 2)
    return Region(contour, rect, float(w * h), 1.0, 0)


def test_local_size_measures_only_the_anchors_within_reach_and_finds_the_same_size():
    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(1, 60))
        long_ = rng.uniform(30, 90, n)
        anchors = np.stack([rng.uniform(0, 1000, n), rng.uniform(0, 1000, n),
                            long_ * rng.uniform(0.6, 0.8, n), long_], axis=1).astype(np.float32)
        r = _region(rng)
        assert local_size(r, anchors, CFG) == _plain_local_size(r, anchors)


@pytest.mark.parametrize("n", [1, 2, 3, 8, 15, 40])
def test_median_equals_numpy(n: int):
    rng = np.random.default_rng(n)
    for _ in range(200):
        v = rng.uniform(5, 200, n).astype(np.float32)
        assert _median(v) == float(np.median(v))
        v = (rng.integers(5, 9, n) + rng.uniform(0, 1e-3, n)).astype(np.float32)
        assert _median(v) == float(np.median(v))
