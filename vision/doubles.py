"""Boxes over two or three touching tiles of a row: cut them apart and read each part.

Two identical tiles side by side (3z 3z, 9s 9s) show no seam the locator can
find and no change of ink either, so their region is boxed as one tile twice
as wide as its neighbours. The classifier was taught that such a box is no
tile, but a squeezed pair of the same face is close to some other face (two
西 read as 2p at 0.9), and the reading then loses a tile and misreads
another. Here a box whose width along its row is about two or three times
that of the tiles level with it is cut into equal parts; when every part
reads as a tile surely, the parts replace the box.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from agari.vision.detection import Classify, TileDetection, as_quad

Refine = Callable[[Sequence[TileDetection]], Sequence[TileDetection]]


@dataclass(frozen=True, slots=True)
class DoublesConfig:
    """When a box counts as several tiles, and when its parts are kept."""

    parts: tuple[int, ...] = (2, 3)
    """How many tiles a box may be cut into."""
    tolerance: float = 0.35
    """Largest distance of the width ratio from a whole number of tiles."""
    level: float = 0.35
    """A neighbour's centre lies within this share of the box's height across the row."""
    reach: float = 3.0
    """... and within this many neighbour widths of the box's side along it."""
    height: tuple[float, float] = (0.8, 1.25)
    """A neighbour's height relative to the box's (a tile of the same row)."""
    agree: float = 1.3
    """The neighbours' widths agree within this ratio (largest over smallest)."""
    min_neighbours: int = 2
    """Neighbours needed to know a tile's width."""
    accept: float = 0.8
    """Every part must be read as a tile at least this surely."""


HAND_DOUBLES = DoublesConfig()


def _frames(dets: Sequence[TileDetection]) -> tuple[np.ndarray, ...]:
    """Per detection: centre ``(N, 2)``, unit vectors along and across its row ``(N, 2)``,
    width along and height across ``(N,)``."""
    q = np.asarray([d.quad for d in dets], float).reshape(-1, 4, 2)
    along = (q[:, 1] - q[:, 0]) + (q[:, 2] - q[:, 3])
    across = (q[:, 0] - q[:, 3]) + (q[:, 1] - q[:, 2])
    width = np.linalg.norm(along, axis=1) / 2.0
    height = np.linalg.norm(across, axis=1) / 2.0
    u = along / np.maximum(2.0 * width, 1e-9)[:, None]
    v = across / np.maximum(2.0 * height, 1e-9)[:, None]
    return q.mean(axis=1), u, v, width, height


def tile_counts(dets: Sequence[TileDetection], cfg: DoublesConfig = HAND_DOUBLES
                ) -> np.ndarray:
    """How many tiles wide each detection is next to the read tiles level with it: int
    ``(N,)``, 1 where it cannot be told (too few neighbours, or they disagree)."""
    out = np.ones(len(dets), int)
    if len(dets) < cfg.min_neighbours + 1:
        return out
    centre, u, v, width, height = _frames(dets)
    read = np.array([d.label is not None for d in dets])
    d = centre[None, :, :] - centre[:, None, :]          # [i, j]: from i to j
    across = np.abs(np.einsum("ijk,ik->ij", d, v))
    along = np.abs(np.einsum("ijk,ik->ij", d, u)) - width[:, None] / 2.0
    ratio = height[None, :] / np.maximum(height[:, None], 1e-9)
    lo, hi = cfg.height
    near = (read[None, :] & ~np.eye(len(dets), dtype=bool) & (ratio >= lo) & (ratio <= hi)
            & (across <= cfg.level * height[:, None]) & (along <= cfg.reach * width[None, :]))
    for i in np.flatnonzero(near.sum(axis=1) >= cfg.min_neighbours):
        widths = width[near[i]]
        if widths.max() > cfg.agree * widths.min():
            continue
        r = width[i] / float(np.median(widths))
        n = round(r)
        if n in cfg.parts and abs(r - n) <= cfg.tolerance:
            out[i] = n
    return out


def cut(quad: np.ndarray, n: int) -> list[np.ndarray]:
    """A quad (TL, TR, BR, BL) cut into ``n`` equal parts along its row, left to right."""
    tl, tr, br, bl = np.asarray(quad, float)
    out = []
    for k in range(n):
        a, b = k / n, (k + 1) / n
        out.append(np.array([tl + a * (tr - tl), tl + b * (tr - tl),
                             bl + b * (br - bl), bl + a * (br - bl)]))
    return out


def split_doubles(image: np.ndarray, dets: Sequence[TileDetection], classify: Classify, *,
                  refine: Refine | None = None, config: DoublesConfig = HAND_DOUBLES
                  ) -> list[TileDetection]:
    """The detections with each box over several tiles of a row replaced by its parts,
    where every part reads as a tile surely.

    Args:
        image: BGR ``uint8 (H, W, 3)``.
        dets: classified detections (labels and confidences set).
        classify: labels detections in ``image``.
        refine: re-frames read parts (a cut at the middle lands a little off a tile when the
            box ran past one end, e.g. `agari.vision.reframe.reframe` bound to the image).
        config: thresholds.

    Returns:
        A new list; a box's parts stand where the box stood, left to right.
    """
    out: list[TileDetection] = list(dets)
    counts = {int(i): int(n) for i, n in enumerate(tile_counts(dets, config)) if n > 1}
    if not counts:
        return out
    # One classifier call for every part of every box.
    pending = [(i, TileDetection(as_quad(q), face_down=dets[i].face_down))
               for i, n in counts.items() for q in cut(np.asarray(dets[i].quad), n)]
    read = classify(image, [p for _, p in pending])
    if refine is not None:
        read = refine(read)
    for i in sorted(counts, reverse=True):
        parts = [r for (j, _), r in zip(pending, read, strict=True) if j == i]
        if all(p.label is not None and p.confidence >= config.accept for p in parts):
            out[i:i + 1] = parts
    return out


__all__ = ["DoublesConfig", "HAND_DOUBLES", "cut", "split_doubles", "tile_counts"]
