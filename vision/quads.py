"""Quad geometry for the locator: fitting, ordering, overlap.

A quad here is a float32 ``(4, 2)`` array of image points. Helpers accept any
sequence of four ``(x, y)`` points.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

import cv2
import numpy as np

QUAD_FIT_EPSILON = (0.02, 0.04, 0.06, 0.08)
"""approxPolyDP tolerances tried, as fractions of the contour's perimeter."""

QUAD_FIT_MIN_FILL = 0.92
"""A 4-gon fit must cover at least this share of the contour's convex hull."""


_NEXT = {4: np.array([1, 2, 3, 0])}
"""Index of each corner's successor, for the usual four corners."""


def rect_quad(rect: tuple) -> np.ndarray:
    """The corners of a ``cv2.minAreaRect`` result as a float32 ``(4, 2)`` quad."""
    return cv2.boxPoints(rect).astype(np.float32)


def fit_quad(contour: np.ndarray, hull: np.ndarray | None = None,
             rect: tuple | None = None) -> np.ndarray:
    """A perspective quad around a contour: a convex 4-gon if one fits, else the min-area box.

    Args:
        contour: int32 or float32 ``(N, 1, 2)`` contour points.
        hull: ``cv2.convexHull(contour)``, when the caller has it.
        rect: ``cv2.minAreaRect`` of the contour (or of its hull: the same box), when the
            caller has it.

    Returns:
        float32 ``(4, 2)`` corners, in no particular order (see `order_quad`).
    """
    hull = cv2.convexHull(contour) if hull is None else hull
    hull_area = cv2.contourArea(hull)
    peri = cv2.arcLength(hull, True)
    for eps in QUAD_FIT_EPSILON:
        poly = cv2.approxPolyDP(hull, eps * peri, True)
        if len(poly) < 4:
            break
        if len(poly) == 4 and cv2.isContourConvex(poly):
            if cv2.contourArea(poly) >= QUAD_FIT_MIN_FILL * hull_area:
                return poly.reshape(4, 2).astype(np.float32)
            break
    return rect_quad(cv2.minAreaRect(hull) if rect is None else rect)


def order_quad(quad: np.ndarray, up: tuple[float, float] = (0.0, -1.0)) -> np.ndarray:
    """Order a quad's corners TL, TR, BR, BL for a frame whose up direction is ``up``.

    The corners are sorted by angle around the centre; the first is the one
    whose edge to the next faces ``up`` best, so the TL→TR edge is the top.

    Args:
        quad: float ``(4, 2)`` corners in any order.
        up: unit vector in image coordinates (y down) pointing to the frame's top.

    Returns:
        float32 ``(4, 2)`` TL, TR, BR, BL.
    """
    q = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    c = q.mean(axis=0)
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(ang)]  # clockwise on screen (y down)
    u = np.asarray(up, dtype=np.float32)
    mids = (q + q[_NEXT[4]]) / 2.0 - c
    start = int(np.argmax(mids @ u))
    return q[(np.arange(4) + start) % 4]


def quad_sides(quad: np.ndarray) -> tuple[float, float]:
    """Mean lengths of the TL→TR/BL→BR edges (across) and TL→BL/TR→BR edges (down)."""
    q = np.asarray(quad, dtype=np.float32)
    across = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2.0
    down = (np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2.0
    return float(across), float(down)


def quad_area(quad: np.ndarray) -> float:
    """Area of a simple quad (shoelace), in square pixels."""
    q = np.asarray(quad, dtype=np.float64)
    if q.shape == (4, 2):
        # Four corners in Python floats (a third of the time; ~1 400 calls a photo). The
        # two dot products are summed as numpy's float64 dot of four sums them, even terms
        # and odd terms apart, then together: the same value to the bit (checked on 200 000
        # random quads, `tests/vision/test_quads_fast.py`).
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = q.tolist()
        ab = (x0 * y1 + x2 * y3) + (x1 * y2 + x3 * y0)
        ba = (y0 * x1 + y2 * x3) + (y1 * x2 + y3 * x0)
        return abs(ab - ba) / 2.0
    x, y = q[:, 0], q[:, 1]
    # Indexing by the next corner is np.roll(., -1) at a fraction of its cost (hot in NMS).
    nxt = _NEXT[len(q)] if len(q) in _NEXT else np.roll(np.arange(len(q)), -1)
    return float(abs(np.dot(x, y[nxt]) - np.dot(y, x[nxt])) / 2.0)



def quad_areas(quads: np.ndarray) -> np.ndarray:
    """Areas of N simple quads ``(N, 4, 2)`` at once: float64 ``(N,)``."""
    q = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    x, y = q[..., 0], q[..., 1]
    return np.abs(np.sum(x * np.roll(y, -1, axis=1) - y * np.roll(x, -1, axis=1), axis=1)) / 2.0


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    a32 = np.asarray(a, dtype=np.float32).reshape(4, 2)
    b32 = np.asarray(b, dtype=np.float32).reshape(4, 2)
    inter, _ = cv2.intersectConvexConvex(_ccw(a32), _ccw(b32))
    union = quad_area(a32) + quad_area(b32) - inter
    return float(inter / union) if union > 0 else 0.0


def quad_overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over the smaller quad's area: 1 when one lies inside the other."""
    qa = np.asarray(a, dtype=np.float32).reshape(4, 2)
    qb = np.asarray(b, dtype=np.float32).reshape(4, 2)
    inter, _ = cv2.intersectConvexConvex(_ccw(qa), _ccw(qb))
    if inter == 0.0:
        return 0.0  # `parts_overlap` of quads that do not meet, without their areas
    small = min(quad_area(qa), quad_area(qb))
    return float(inter / small) if small > 0 else 0.0


ConvexParts = tuple[np.ndarray, float]
"""A quad's convex hull, float32 ``(k, 2)`` counter-clockwise, and its area."""


def convex_parts(quad: np.ndarray) -> ConvexParts:
    """What `quad_overlap` measures of a quad, made once for a quad compared with many."""
    q = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    return _ccw(q), quad_area(q)


def parts_overlap(a: ConvexParts, b: ConvexParts) -> float:
    """`quad_overlap` of two quads given by their `convex_parts`."""
    inter, _ = cv2.intersectConvexConvex(a[0], b[0])
    small = min(a[1], b[1])
    return float(inter / small) if small > 0 else 0.0


HULL_CACHE = 4096
"""Quads' hulls `convex_hull` keeps (the latest used)."""


def convex_hull(q: np.ndarray) -> np.ndarray:
    """The convex hull of a float32 ``(4, 2)`` quad, ``(k, 2)`` counter-clockwise (the first
    of its `convex_parts`); read-only.

    One photo's reading measures the same quads' overlaps again and again (row completion's
    known tiles, the layout's faces, the locator's proposals), so a float32 quad's hull is
    kept by its bytes (the hull depends on the eight values alone)."""
    if q.dtype == np.float32 and q.size == 8:
        return _hull_of(q.tobytes())
    return cv2.convexHull(q).reshape(-1, 2)


@lru_cache(maxsize=HULL_CACHE)
def _hull_of(corners: bytes) -> np.ndarray:
    hull = cv2.convexHull(np.frombuffer(corners, np.float32).reshape(4, 2)).reshape(-1, 2)
    hull.flags.writeable = False
    return hull


_ccw = convex_hull


def match_quads(truth: Sequence[np.ndarray], found: Sequence[np.ndarray], *,
                iou: Callable[[np.ndarray, np.ndarray], float] | None = None,
                min_iou: float = 0.5) -> dict[int, tuple[int, float]]:
    """Greedy one-to-one matching, best overlap first (as detection benchmarks do).

    Args:
        truth, found: point sets ``(k, 2)`` (quads, usually).
        iou: overlap measure; default `quad_iou`.
        min_iou: pairs below this never match.

    Returns:
        ``{truth index: (found index, iou)}``.
    """
    measure = quad_iou if iou is None else iou
    pairs = sorted(((measure(t, f), i, j) for i, t in enumerate(truth)
                    for j, f in enumerate(found) if _bounds_touch(t, f)), reverse=True)
    used: set[int] = set()
    out: dict[int, tuple[int, float]] = {}
    for v, i, j in pairs:
        if v < min_iou:
            break
        if i in out or j in used:
            continue
        used.add(j)
        out[i] = (j, float(v))
    return out


def quad_bounds(quads: Sequence[np.ndarray]) -> np.ndarray:
    """Each quad's bounding box ``(x0, y0, x1, y1)``: ``float32 (N, 4)``."""
    try:
        qs = np.asarray(quads)
    except ValueError:  # ragged point sets
        qs = None
    if qs is not None and qs.ndim == 3 and qs.shape[2] == 2 and qs.shape[1] > 0 \
            and qs.dtype.kind == "f":
        # All at once: a minimum picks one of the values, so the same boxes as quad by quad.
        return np.concatenate([qs.min(axis=1), qs.max(axis=1)], axis=1).astype(np.float32)
    return np.array([[*np.min(q, axis=0), *np.max(q, axis=0)] for q in quads],
                    np.float32).reshape(-1, 4)


def bounds_meeting(bounds: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Indices of the ``bounds`` (`quad_bounds`) that overlap ``quad``'s bounding box: the
    only quads it can overlap, found before the costlier exact test."""
    lo, hi = np.min(quad, axis=0), np.max(quad, axis=0)
    return np.nonzero((bounds[:, 0] < hi[0]) & (bounds[:, 2] > lo[0])
                      & (bounds[:, 1] < hi[1]) & (bounds[:, 3] > lo[1]))[0]


def _bounds_touch(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return bool((a[:, 0].min() < b[:, 0].max()) and (b[:, 0].min() < a[:, 0].max())
                and (a[:, 1].min() < b[:, 1].max()) and (b[:, 1].min() < a[:, 1].max()))


def inside_image(q: np.ndarray, size: tuple[int, int]) -> bool:
    """Every corner of quad ``q`` lies inside an image of ``size`` = (width, height)."""
    w, h = size
    # Four corners: Python comparisons of the same values, without eight numpy calls.
    return all(0 <= x < w and 0 <= y < h for x, y in np.asarray(q).tolist())


def box_iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """IoU of two axis-aligned ``(x, y, w, h)`` boxes."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    ix = max(0.0, min(ax + aw, bx + bw) - max(ax, bx))
    iy = max(0.0, min(ay + ah, by + bh) - max(ay, by))
    inter = ix * iy
    union = aw * ah + bw * bh - inter
    return inter / union if union > 0 else 0.0
