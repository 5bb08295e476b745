"""`quad_area` and `quad_bounds` fast paths: the same values to the bit as numpy's way."""

from __future__ import annotations

import numpy as np
from agari.vision.quads import quad_area, quad_bounds


def _numpy_area(quad) -> float:
    q = np.asarray(quad, dtype=np.float64)
    x, y = q[:, 0], q[:, 1]
    nxt = np.array([1, 2, 3, 0])
    return float(abs(np.dot(x, y[nxt]) - np.dot(y, x[nxt])) / 2.0)


def test_quad_area_matches_numpy_dot_bit_for_bit():
    rng = np.random.default_rng(7)
    for _ in range(20000):
        scale = rng.choice([3.0, 700.0, 2500.0])
        q = (rng.random((4, 2)) * scale).astype(rng.choice([np.float32, np.float64]))
        assert quad_area(q) == _numpy_area(q)


def test_quad_area_of_a_box_and_other_polygons():
    assert quad_area(((0, 0), (4, 0), (4, 3), (0, 3))) == 12.0
    assert quad_area(np.float32([[0, 0], [2, 0], [0, 2]])) == 2.0  # not four corners


def test_quad_bounds_the_same_as_quad_by_quad():
    rng = np.random.default_rng(3)
    quads = [(rng.random((4, 2)) * 900).astype(np.float32) for _ in range(30)]
    quads += [tuple(map(tuple, (rng.random((4, 2)) * 900).tolist())) for _ in range(5)]
    slow = np.array([[*np.min(q, axis=0), *np.max(q, axis=0)] for q in quads], np.float32)
    fast = quad_bounds(quads)
    assert fast.dtype == np.float32 and np.array_equal(fast, slow)
    assert quad_bounds([]).shape == (0, 4)


def test_convex_hull_kept_by_the_quads_bytes():
    import cv2
    from agari.vision.quads import convex_hull

    rng = np.random.default_rng(7)
    for _ in range(200):
        q = (rng.random((4, 2)) * 100).astype(np.float32)
        hull = convex_hull(q)
        np.testing.assert_array_equal(hull, cv2.convexHull(q).reshape(-1, 2))
        assert not hull.flags.writeable
        assert convex_hull(q.copy()) is hull
