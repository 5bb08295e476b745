"""Where to look again: locate tiles only in the part of the frame that changed.

Locating a whole 720p frame costs far more than following it. When the tracker
knows where the table changed (the change map's cells) or where its new tiles
are, it locates only in that box, grown by a margin of a few tile lengths so
that the locator sees whole rows; tracks outside the box are carried over as
they are. A box that would cover most of the frame becomes the whole frame.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
from agari.vision.detection import TileDetection
from agari.vision.track_motion import ChangeMap

Box = tuple[int, int, int, int]
"""``(x0, y0, x1, y1)`` in frame pixels, x1 and y1 exclusive."""


@dataclass(frozen=True, slots=True)
class RegionConfig:
    """Tuning of partial locating."""

    margin_tiles: float = 1.5
    """Context around the changed area, in tile lengths."""
    default_tile: float = 0.08
    """Tile length as a share of the frame height when no tile is tracked yet."""
    full_share: float = 0.5
    """A box larger than this share of the frame's area is widened to the whole frame."""
    edge_px: float = 2.0
    """Tiles touching an inner edge of the box (cut by it) are left out."""


DEFAULT_REGION = RegionConfig()


def changed_box(change: ChangeMap, motion: np.ndarray, scale: float) -> Box | None:
    """Frame-pixel box around the changed cells.

    Args:
        change: change map in keyframe thumbnail coordinates.
        motion: ``(2, 3)`` thumbnail transform keyframe → current frame.
        scale: thumbnail pixels per frame pixel.
    """
    rows, cols = np.nonzero(change.cells)
    if len(rows) == 0:
        return None
    c = change.cell
    corners = np.array([[[cols.min() * c, rows.min() * c]], [[(cols.max() + 1) * c,
                        rows.min() * c]], [[cols.min() * c, (rows.max() + 1) * c]],
                        [[(cols.max() + 1) * c, (rows.max() + 1) * c]]], np.float64)
    pts = cv2.transform(corners, motion)[:, 0] / scale
    return _bounds(pts)


def quads_box(quads: Sequence[np.ndarray]) -> Box | None:
    """Frame-pixel box around some quads (``(4, 2)`` each)."""
    if not quads:
        return None
    return _bounds(np.concatenate([np.asarray(q, np.float64) for q in quads]))


def _bounds(pts: np.ndarray) -> Box:
    x0, y0 = np.floor(pts.min(axis=0)).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
    return int(x0), int(y0), int(x1), int(y1)


def tile_length(quads: Sequence[np.ndarray], frame_height: int, config: RegionConfig) -> float:
    """Typical tile length in pixels: the tracked tiles' median long side, or a default."""
    if not quads:
        return config.default_tile * frame_height
    sides = [max(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0])) for q in quads]
    return float(np.median(sides))


def search_box(box: Box | None, tile: float, size: tuple[int, int],
               config: RegionConfig = DEFAULT_REGION) -> Box | None:
    """``box`` grown by the margin and clipped to the frame ``(width, height)``.

    None means the whole frame (no box, or one too large to be worth cutting).
    """
    if box is None:
        return None
    w, h = size
    m = config.margin_tiles * tile
    x0, y0 = max(0, int(box[0] - m)), max(0, int(box[1] - m))
    x1, y1 = min(w, int(box[2] + m)), min(h, int(box[3] + m))
    if x1 <= x0 or y1 <= y0:
        return None
    if (x1 - x0) * (y1 - y0) > config.full_share * w * h:
        return None
    return x0, y0, x1, y1


def takes_box(locate: Callable[..., Sequence[TileDetection]]) -> bool:
    """Whether a locator searches a box itself: it takes a ``box`` keyword argument."""
    try:
        return "box" in inspect.signature(locate).parameters
    except (TypeError, ValueError):
        return False


def locate_in(locate: Callable[..., Sequence[TileDetection]], frame: np.ndarray,
              box: Box | None, config: RegionConfig = DEFAULT_REGION) -> list[TileDetection]:
    """Tiles located in ``box`` of ``frame`` (the whole frame for None), in frame pixels.

    The box is cut out and searched, unless the locator `takes_box` (then it is
    asked for the box's tiles in frame pixels). Tiles that touch an edge of the
    box inside the frame are dropped: they are cut by the box and will be found
    whole when their part of the frame is searched.
    """
    if box is None:
        return list(locate(frame))
    if takes_box(locate):
        return list(locate(frame, box=box))
    x0, y0, x1, y1 = box
    h, w = frame.shape[:2]
    found = locate(np.ascontiguousarray(frame[y0:y1, x0:x1]))
    e = config.edge_px
    out = []
    for d in found:
        q = np.asarray(d.quad, np.float64)
        cut = ((x0 > 0 and q[:, 0].min() < e) or (y0 > 0 and q[:, 1].min() < e)
               or (x1 < w and q[:, 0].max() > x1 - x0 - e)
               or (y1 < h and q[:, 1].max() > y1 - y0 - e))
        if not cut:
            out.append(replace(d, quad=tuple((float(x + x0), float(y + y0)) for x, y in q)))
    return out
