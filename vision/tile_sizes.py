"""The tile size at a region: from the credible single tiles in and near it.

Splitting (`agari.vision.split`) cuts a region into pieces of the local tile size. That
size comes from the regions that are one tile each (tile-shaped, found at two or more
levels, not a group of smaller ones, not a symbol inside a bigger one); failing those, a
lone row of upright tiles gives it by its height (`agari.vision.proposals` calls these).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np
from agari.vision.regions import Region
from agari.vision.split import TileSize

if TYPE_CHECKING:
    from agari.vision.proposals import ProposalConfig


def is_single(r: Region, cfg: ProposalConfig) -> bool:
    """Whether a region has one tile's shape (rectangular, a tile's aspect either way up)."""
    lo, hi = cfg.single_aspect
    return r.rectangularity >= cfg.single_min_rectangularity and lo <= r.aspect <= hi


def size_anchors(regions: list[Region], cfg: ProposalConfig) -> np.ndarray:
    """``(N, 4)`` float32 rows ``cx, cy, short, long`` of credible single tiles.

    A credible single is tile-shaped and found at two or more levels (stable).
    It is not a group: smaller tile-shaped regions inside it (each object
    counted once) do not cover much of it, as the faces of a pair or a tray of
    tiles would; symbols on a face cover little. It does not lie inside a plain
    tile-shaped region several times its size (else it is a symbol on a face:
    the bright middle of a circle, the gap between bamboo sticks). And it is
    not far larger than the others (a tray of tiles can look like one big tile).
    """
    singles = [r for r in regions if is_single(r, cfg)]
    if not singles:
        return np.zeros((0, 4), np.float32)
    cx = np.array([r.rect[0][0] for r in singles], np.float32)
    cy = np.array([r.rect[0][1] for r in singles], np.float32)
    area = np.array([r.area for r in singles], np.float32)
    group = [_covered(i, singles, cx, cy, area) >= cfg.group_cover for i in range(len(singles))]
    lo, hi = cfg.symbol_ratio
    rows = []
    for i, r in enumerate(singles):
        same = [q for q in singles if q is not r and q.level != r.level and same_box(r, q, 0.05)]
        if not same or group[i]:
            continue
        (x, y), _, _ = r.rect
        hosts = np.nonzero((area >= lo * r.area) & (area <= hi * r.area))[0]
        if any(not group[j] and _inside(singles[j], cx[i:i + 1], cy[i:i + 1]) for j in hosts):
            continue
        rows.append((x, y, r.short_side, r.long_side))
    out = np.array(rows, dtype=np.float32).reshape(-1, 4)
    if len(out) >= 3:
        out = out[out[:, 3] <= cfg.anchor_outlier * np.median(out[:, 3])]
    return out


def _covered(i: int, singles: list[Region], cx: np.ndarray, cy: np.ndarray,
             area: np.ndarray) -> float:
    """Share of region ``i`` covered by the smaller tile-shaped regions inside it
    (regions found again at other levels counted once, the largest first)."""
    r = singles[i]
    cand = np.nonzero((area < 0.65 * area[i]) & (area > 0.01 * area[i]))[0]
    if len(cand) < 2:
        return 0.0
    box = cv2.boxPoints(r.rect)
    inside = [j for j in cand
              if cv2.pointPolygonTest(box, (float(cx[j]), float(cy[j])), False) >= 0]
    kept: list[int] = []
    for j in sorted(inside, key=lambda j: -area[j]):
        reach = 0.5 * singles[j].short_side
        if all(math.hypot(cx[j] - cx[k], cy[j] - cy[k]) > reach for k in kept):
            kept.append(j)
    return float(area[kept].sum() / area[i]) if len(kept) >= 2 else 0.0


def _inside(r: Region, xs: np.ndarray, ys: np.ndarray) -> int:
    """How many of the points lie inside the region's min-area box."""
    box = cv2.boxPoints(r.rect)
    return sum(cv2.pointPolygonTest(box, (float(x), float(y)), False) >= 0
               for x, y in zip(xs, ys, strict=True))


def local_size(r: Region, anchors: np.ndarray, cfg: ProposalConfig) -> TileSize | None:
    """The tile size at a region.

    The median of the credible single tiles inside the region, else of those
    near it (within `size_radius` of their own length) that could fit in it.
    Failing those, a lone row of upright tiles takes its height as the tiles'
    long side (tiles elsewhere in the photo may be nearer or farther); a
    tile-shaped region is one tile unless it is several times the size of the
    photo's other tiles (then it is a tray of them, and they set the size).
    """
    typical = None
    if len(anchors):
        box = cv2.boxPoints(r.rect)
        reach = cfg.size_radius * anchors[:, 3]
        dist = np.full(len(anchors), np.inf)
        # Only anchors within reach of the box's bounds can be inside or near it: the
        # exact distance is measured for those alone (a pixel of slack for rounding).
        for i in np.flatnonzero(_bounds_gap(box, anchors[:, :2]) <= reach + 1.0).tolist():
            x, y = anchors[i, :2]
            dist[i] = -cv2.pointPolygonTest(box, (float(x), float(y)), True)
        inside = anchors[dist <= 0]
        near = anchors[(dist <= cfg.size_radius * anchors[:, 3])
                       & (anchors[:, 2] <= cfg.split.one_tile * r.short_side)]
        for pick in (inside, near):
            if len(pick):
                return _median_size(pick)
        typical = _median_size(anchors)
    if r.aspect < cfg.single_aspect[0] and r.short_side >= cfg.min_tile_side:
        return TileSize(cfg.tile_aspect * r.short_side, r.short_side)
    if is_single(r, cfg):
        if typical is not None and r.area > cfg.grid_factor * typical.short * typical.long:
            return typical
        return TileSize(r.short_side, r.long_side)
    return typical


def _bounds_gap(box: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Each point's distance to the axis-aligned bounds of ``box`` (0 within them): never
    more than its distance to the box itself."""
    lo, hi = box.min(axis=0).astype(np.float64), box.max(axis=0).astype(np.float64)
    p = points.astype(np.float64)
    d = np.maximum(np.maximum(lo - p, p - hi), 0.0)
    return np.hypot(d[:, 0], d[:, 1])


def _median_size(anchors: np.ndarray) -> TileSize:
    short, long_ = _median(anchors[:, 2]), _median(anchors[:, 3])
    return TileSize(min(short, long_), max(short, long_))


def _median(values: np.ndarray) -> float:
    """``float(np.median(values))`` of a short float32 column, in plain Python (numpy's
    median costs tens of microseconds, and this runs for every region): the middle value,
    or the float32 mean of the two middle values, as numpy takes it."""
    v = sorted(values.tolist())
    n = len(v)
    if n % 2:
        return v[n // 2]
    return float(np.float32(v[n // 2 - 1]) + np.float32(v[n // 2])) / 2.0


def same_box(a: Region, b: Region, tol: float) -> bool:
    (ax, ay), (aw, ah), _ = a.rect
    (bx, by), (bw, bh), _ = b.rect
    scale = max(aw, ah, bw, bh, 1.0)
    return (
        abs(ax - bx) <= tol * scale
        and abs(ay - by) <= tol * scale
        and abs(a.area - b.area) <= 2 * tol * max(a.area, b.area)
    )


__all__ = ["is_single", "local_size", "same_box", "size_anchors"]
