"""Quads the classifier called ``none`` that sit in the hand's row where a tile belongs.

A tile of a called meld lying flat (small, foreshortened) or at the end of a
row is often read as ``none``: it then drops out of the geometry and leaves a
gap in its meld, which no longer reads as one. `in_line` finds such quads:
level with a tile of the row (overlapping it across the row as row
neighbours do), touching the row along it, not lying over a tile already
there, and of a tile's size. The layout offers plans with them as extra,
less likely candidates; the reading takes them only when they make a better
hand (a meld's other tiles can name them, `agari.vision.reading_implied`).

A ``none`` quad lying over two faces already read is the opposite case: a box
across two tiles (the locator boxes a pair of touching tiles as one called tile
lying sideways). Kept in the geometry, it joins one of them in a column and
pushes the other out of the hand; `straddling` finds such quads.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection
from agari.vision.layout_geometry import HandFrame
from agari.vision.quads import bounds_meeting, convex_parts, parts_overlap, quad_bounds


@dataclass(frozen=True, slots=True)
class InlineConfig:
    """How a ``none`` quad must sit to count as a tile of the row (lengths in tile widths)."""

    max_gap: float = 0.5
    """Largest gap along the row between the quad and the nearest tile level with it."""
    overlap: float = 0.45
    """Least overlap across the row with that tile, as a fraction of the smaller height."""
    max_cover: float = 0.4
    """Largest overlap along the row with any tile of the row, as a fraction of the
    narrower one (more: a second quad over one tile)."""
    size: tuple[float, float] = (0.6, 1.6)
    """Its extent across the row, relative to its neighbour's."""
    max_added: int = 4
    """Quads taken into the row at most (a meld's worth and one)."""


DEFAULT_INLINE = InlineConfig()

STRADDLE_OVERLAP = 0.5
"""A ``none`` quad straddles two faces when each lies under it by at least this much of the
smaller quad (tuning renders: 0.5 and 0.7 alike, +2 exact hands of 200, none lost; any one
face under it instead of two lost 2 hands: a loose box round a misread tile is no copy)."""


def in_line(ext: np.ndarray, row: list[int], loose: list[int], frame: HandFrame,
            cfg: InlineConfig = DEFAULT_INLINE) -> list[int]:
    """Quads of ``loose`` that sit in ``row`` as a tile of it would.

    Args:
        ext: float ``(N, 4)`` extents ``u0, u1, v0, v1`` of every detection in the hand's frame.
        row: detection indices of the hand's row.
        loose: candidate detection indices (the ``none`` quads).
        frame: the hand's frame.
        cfg: thresholds.

    Returns:
        The chosen indices, in the order they joined (nearest first).
    """
    members, added = list(row), []
    pending = list(loose)
    # Grown one quad at a time, nearest first: two unread tiles side by side join in turn.
    while members and pending and len(added) < cfg.max_added:
        fits = [(gap, j) for j in pending
                if (gap := _fit(ext, members, j, frame, cfg)) is not None]
        if not fits:
            break
        _, j = min(fits)
        members.append(j)
        added.append(j)
        pending.remove(j)
    return added


def _fit(ext: np.ndarray, row: list[int], j: int, frame: HandFrame, cfg: InlineConfig
         ) -> float | None:
    """The gap (px) from quad ``j`` to the row tile it sits beside, or None if it does not."""
    r, e = ext[row], ext[j]
    height = e[3] - e[2]
    over_v = np.minimum(r[:, 3], e[3]) - np.maximum(r[:, 2], e[2])
    level = over_v >= cfg.overlap * np.minimum(r[:, 3] - r[:, 2], height)
    gap = np.maximum(r[:, 0] - e[1], e[0] - r[:, 1])
    near = level & (gap <= cfg.max_gap * frame.tile_width)
    if not near.any():
        return None
    cover = (np.minimum(r[:, 1], e[1]) - np.maximum(r[:, 0], e[0])) \
        / np.maximum(np.minimum(r[:, 1] - r[:, 0], e[1] - e[0]), 1e-6)
    if (cover > cfg.max_cover).any():
        return None
    k = int(np.argmin(np.where(near, gap, np.inf)))
    lo, hi = cfg.size
    if not lo <= height / max(r[k, 3] - r[k, 2], 1e-6) <= hi:
        return None
    return float(gap[k])


def straddling(dets: list[TileDetection], idx: list[int]) -> set[int]:
    """The detections of ``idx`` read ``none`` that lie over two faces read (boxes across two
    tiles, no tile of their own)."""
    unread = [i for i in idx if dets[i].label is None]
    if not unread:
        return set()
    faces = np.asarray([d.quad for d in dets if isinstance(d.label, Tile)],
                       np.float32).reshape(-1, 4, 2)
    # Only faces whose boxes meet a box can overlap it: those alone are measured (each
    # face's parts made once), in `convex_parts`' own float32 values, so the same count.
    bounds = quad_bounds(faces)
    parts: dict[int, tuple] = {}
    out = set()
    for i in unread:
        q = np.asarray(dets[i].quad, np.float32)
        box = convex_parts(q)
        over = 0
        for j in bounds_meeting(bounds, q).tolist():
            if j not in parts:
                parts[j] = convex_parts(faces[j])
            over += parts_overlap(box, parts[j]) >= STRADDLE_OVERLAP
        if over >= 2:
            out.add(i)
    return out


__all__ = ["DEFAULT_INLINE", "InlineConfig", "STRADDLE_OVERLAP", "in_line", "straddling"]
