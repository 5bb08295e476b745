"""Quad helpers and the annotator."""

from __future__ import annotations

import numpy as np
import pytest
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection
from agari.vision.draw import annotate
from agari.vision.quads import fit_quad, match_quads, order_quad, quad_iou, quad_overlap

SQUARE = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])


@pytest.mark.parametrize(
    ("up", "first"),
    [((0, -1), (0, 0)), ((0, 1), (10, 10)), ((-1, 0), (0, 10)), ((1, 0), (10, 0))],
)
def test_order_quad_starts_at_the_top_left_of_the_frame(up, first):
    shuffled = SQUARE[[2, 0, 3, 1]]
    q = order_quad(shuffled, up)
    assert tuple(q[0]) == first
    # TL -> TR runs a quarter turn clockwise from up (on screen, y down).
    edge = q[1] - q[0]
    assert np.dot(edge, (-up[1], up[0])) > 0


@pytest.mark.parametrize(
    ("shift", "iou", "overlap"), [(0, 1.0, 1.0), (5, 1 / 3, 0.5), (10, 0.0, 0.0)]
)
def test_quad_iou_and_overlap(shift, iou, overlap):
    other = SQUARE + np.float32([shift, 0])
    assert quad_iou(SQUARE, other) == pytest.approx(iou, abs=1e-3)
    assert quad_overlap(SQUARE, other) == pytest.approx(overlap, abs=1e-3)


def test_fit_quad_follows_a_perspective_outline():
    trapezoid = np.int32([[20, 0], [80, 0], [100, 60], [0, 60]]).reshape(-1, 1, 2)
    q = order_quad(fit_quad(trapezoid))
    assert np.allclose(q, [[20, 0], [80, 0], [100, 60], [0, 60]], atol=1.5)


def test_annotate_draws_on_a_copy():
    img = np.full((120, 160, 3), 90, np.uint8)
    dets = [
        TileDetection(((20, 20), (50, 20), (50, 60), (20, 60)), label=Tile.parse("5m"),
                      confidence=0.9),
        TileDetection(((70, 30), (120, 30), (120, 60), (70, 60)), sideways=True, face_down=True),
    ]
    out = annotate(img, dets)
    assert (img == 90).all()
    assert out.shape == img.shape and not np.array_equal(out, img)
    assert annotate(img, []).tolist() == img.tolist()


def test_match_quads_is_one_to_one_best_first():
    truth = [SQUARE, SQUARE + np.float32([20, 0])]
    found = [SQUARE + np.float32([1, 0]), SQUARE + np.float32([3, 0]), SQUARE + np.float32([50, 0])]
    pairs = match_quads(truth, found)
    assert list(pairs) == [0]
    assert pairs[0][0] == 0 and pairs[0][1] == pytest.approx(9 / 11, abs=1e-3)


def test_quad_overlap_is_the_overlap_of_their_convex_parts():
    # Quads that do not meet are answered before their areas are measured: the same value.
    from agari.vision.quads import convex_parts, parts_overlap

    rng = np.random.default_rng(3)
    met = 0
    for _ in range(400):
        a = (rng.uniform(0, 50, 2) + rng.uniform(-12, 12, (4, 2))).astype(np.float32)
        b = np.round(a + rng.uniform(-25, 25, 2)).astype(np.float32)
        want = parts_overlap(convex_parts(a), convex_parts(b))
        assert quad_overlap(a, b) == want
        met += want > 0
    assert 0 < met < 400
