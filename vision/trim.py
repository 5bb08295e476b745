"""Trim a tile's body off its face: the quad of the face alone.

Seen from the side, a tile lying flat shows its face above its front side, and
a standing tile shows the top of its body above its face; on an ivory set both
are as bright as the face, so a bright region (and the quad split from it)
often holds face and body together. The face carries the ink, the body none,
and a shading edge runs between them. A proposal whose ink leaves a wide blank
band on one side only (top or bottom in the image) is cut at the first clear
brightness edge in that band, past the ink. Faces seen from above (trays) have
narrow blank margins on every side and are left as they are; so are blank
faces (no ink to go by).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from agari.vision.quads import order_quad


@dataclass(frozen=True, slots=True)
class TrimConfig:
    """Tuning of the trim (shares of the quad's height unless said otherwise)."""

    blank: float = 0.25
    """A band without ink at least this deep on one side may be a tile's body."""
    other: float = 0.15
    """The other side's blank band must be shallower than this (a face's own margin)."""
    row_ink: float = 0.04
    """A line across the quad holding this share of ink is inked."""
    darkness: float = 0.25
    """Ink is this share darker than a grey closing of the patch."""
    ink_kernel: float = 0.35
    """Closing side for the ink test, as a share of the quad's shorter side."""
    side_margin: float = 0.15
    """Share of the width left out at each side (outline, neighbours' seams)."""
    edge_share: float = 0.5
    """The cut is the first edge at least this share of the band's strongest one."""
    end: float = 0.08
    """Edges this close to the quad's far end are its outline, not the face's edge."""
    skip: int = 2
    """Pixels past the ink before the edge search starts (the ink's own blurred edge)."""
    min_step: float = 0.06
    """The face and the body beside the cut differ in brightness by at least this share
    (a shading edge; a face's blank margin is one even tone)."""
    min_side: int = 8
    """Quads smaller than this (pixels) are left as they are."""


def trim_to_face(gray: np.ndarray, quad: np.ndarray, cfg: TrimConfig = TrimConfig()
                 ) -> np.ndarray | None:
    """The face part of a quad holding face and body, or None to keep the quad.

    Args:
        gray: ``uint8 (H, W)`` image.
        quad: float ``(4, 2)`` corners in any order.

    Returns:
        float32 ``(4, 2)`` corners TL, TR, BR, BL of the trimmed quad, or None.
    """
    q = order_quad(np.asarray(quad, np.float32))
    w = int(round((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2))
    h = int(round((np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2))
    if min(w, h) < cfg.min_side:
        return None
    m = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    patch = cv2.warpPerspective(gray, m, (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    x0 = int(cfg.side_margin * w)
    x1 = max(w - x0, x0 + 1)
    end = max(1, int(cfg.end * h))
    # Dark lines at the quad's very ends are its outline (or the table), not symbols.
    inked = end + np.nonzero(
        _ink_rows(patch, cfg)[end:h - end, x0:x1].mean(axis=1) > cfg.row_ink)[0]
    if len(inked) < 3:
        return None
    first, last = int(inked[0]), int(inked[-1])
    top, bottom = first / h, (h - 1 - last) / h
    grad = _row_edges(patch[:, x0:x1])
    if bottom > cfg.blank and top < cfg.other:
        y = _first_edge(grad, last + 1 + cfg.skip, h - end, cfg.edge_share, from_start=True)
        box = [[0, 0], [w, 0], [w, y], [0, y]]
    elif top > cfg.blank and bottom < cfg.other:
        y = _first_edge(grad, end, first - cfg.skip, cfg.edge_share, from_start=False)
        box = [[0, y], [w, y], [w, h], [0, h]]
    else:
        return None
    if y is None or not _is_step(patch[:, x0:x1], y, first, last, cfg):
        return None
    back = np.linalg.inv(m)
    return cv2.perspectiveTransform(np.float32(box).reshape(-1, 1, 2), back).reshape(4, 2)


def _is_step(patch: np.ndarray, y: int, first: int, last: int, cfg: TrimConfig) -> bool:
    """Whether the brightness steps at line ``y`` between the face's blank band (beside
    its ink) and the body beyond."""
    h = len(patch)
    if y > last:
        face, body = patch[last + 1:y], patch[y + 1:min(h, 2 * y - last)]
    else:
        face, body = patch[y + 1:first], patch[max(0, 2 * y - first):y]
    if not face.size or not body.size:
        return False
    a, b = float(np.median(face)), float(np.median(body))
    return abs(a - b) >= cfg.min_step * max(a, b, 1.0)


def _ink_rows(patch: np.ndarray, cfg: TrimConfig) -> np.ndarray:
    """Ink mask ``bool (h, w)`` of a rectified patch."""
    k = max(3, int(cfg.ink_kernel * min(patch.shape)) | 1)
    closed = cv2.morphologyEx(patch, cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    return patch.astype(np.float32) <= (1.0 - cfg.darkness) * closed.astype(np.float32)


def _row_edges(patch: np.ndarray) -> np.ndarray:
    """|d/dy| of the smoothed mean brightness of each line: float32 ``(h,)``."""
    mean = patch.astype(np.float32).mean(axis=1).reshape(-1, 1)
    return np.abs(np.gradient(cv2.GaussianBlur(mean, (1, 5), 0).ravel())).astype(np.float32)


def _first_edge(grad: np.ndarray, lo: int, hi: int, share: float, *, from_start: bool
                ) -> int | None:
    """The first (or last) local peak of ``grad[lo:hi]`` reaching ``share`` of its maximum."""
    if hi - lo < 2:
        return None
    seg = grad[lo:hi]
    left = np.r_[True, seg[1:] >= seg[:-1]]
    right = np.r_[seg[:-1] >= seg[1:], True]
    peaks = np.nonzero(left & right & (seg >= share * seg.max()))[0]
    if not len(peaks) or seg.max() <= 0:
        return None
    return lo + int(peaks[0] if from_start else peaks[-1])
