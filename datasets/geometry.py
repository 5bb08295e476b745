"""Small plane-geometry helpers shared by the format readers and writers."""

from __future__ import annotations

from collections.abc import Sequence

from agari.datasets.annotation import Quad, as_quad


def polygon_area(points: Sequence[Sequence[float]]) -> float:
    """Shoelace area of a polygon of ``(x, y)`` points."""
    n = len(points)
    s = sum(points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1]
            for i in range(n))
    return abs(s) / 2.0


def polygon_quad(points: Sequence[Sequence[float]]) -> Quad:
    """The minimum-area rectangle around a polygon, as a quad in image axes.

    Foreign polygons carry no row frame, so the corners are ordered clockwise on
    screen starting from the one with the smallest ``x + y`` (the top-left of an
    upright tile).
    """
    import cv2
    import numpy as np

    pts = np.asarray(points, dtype=np.float32).reshape(-1, 2)
    corners = cv2.boxPoints(cv2.minAreaRect(pts))
    centre = corners.mean(axis=0)
    # Increasing atan2 angle runs clockwise on screen, because image y points down.
    corners = corners[np.argsort(np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0]))]
    start = int(np.argmin(corners.sum(axis=1)))
    return as_quad([tuple(float(c) for c in corners[(start + k) % 4]) for k in range(4)])


def long_side_first(quad: Quad) -> bool:
    """Whether the TL→TR edge is longer than TL→BL: a sideways tile in the row frame."""
    (x0, y0), (x1, y1), _, (x3, y3) = quad
    return (x1 - x0) ** 2 + (y1 - y0) ** 2 > (x3 - x0) ** 2 + (y3 - y0) ** 2
