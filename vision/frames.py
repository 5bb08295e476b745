"""Frames: a region of tiles warped upright, and cut back apart.

The splitter (`agari.vision.split`) works on a region rectified into its own
frame: frame x runs along the region's longer extent or its min-area box's
width, y across it; a single row seen in perspective is warped by its four
corners so that its seams stand upright. Cuts drawn in the frame are mapped
back to image pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from agari.vision.quads import fit_quad


@dataclass(frozen=True, slots=True)
class Frame:
    """A region rectified: image → frame homography and the frame images."""

    to_frame: np.ndarray  # float64 (3, 3)
    gray: np.ndarray  # uint8 (h, w) from a uint8 image (morphology is fastest on it), else float32
    mask: np.ndarray  # uint8 (h, w), 1 inside the region
    width: float  # box side along the frame's x
    height: float


ROW_ASPECT = 0.5
"""A region thinner than this (short over long side) is a single row of tiles."""


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a region's frame lies, before any pixel is warped: image → frame homography,
    the frame's pixel size and the region's extent in it."""

    to_frame: np.ndarray  # float64 (3, 3)
    size: tuple[int, int]  # (width, height) of the frame images
    width: float  # box side along the frame's x
    height: float


def place(contour: np.ndarray, rect: tuple, pad: int, hull: np.ndarray | None = None
          ) -> Placement:
    """The frame of a region: by its outline's four corners when it has them (a row or
    a tray seen in perspective becomes a rectangle, its seams upright), else by its
    min-area box. Cheap: the splitter asks it first whether the region is long enough
    to cut at all, and warps (`rectify`) only those that are. ``hull``:
    ``cv2.convexHull(contour)``, when the caller has it."""
    (cx, cy), (w, h), ang = rect
    t = math.radians(ang)
    cos, sin = math.cos(t), math.sin(t)
    # Frame x runs along the box's width direction (cos, sin), y along (-sin, cos).
    m = np.array([[cos, sin, -(cos * cx + sin * cy)], [-sin, cos, -(-sin * cx + cos * cy)],
                  [0.0, 0.0, 1.0]])
    # Only a single row is warped by its corners: a grid's outline is too ragged to trust.
    corners = _corners(contour, m, hull, rect) if min(w, h) < ROW_ASPECT * max(w, h) else None
    if corners is None:
        fw, fh = int(math.ceil(w)) + 2 * pad, int(math.ceil(h)) + 2 * pad
        to_frame = np.array([[1.0, 0, fw / 2], [0, 1.0, fh / 2], [0, 0, 1.0]]) @ m
    else:
        tl, tr, br, bl = corners
        w = float(np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2
        h = float(np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
        fw, fh = int(math.ceil(w)) + 2 * pad, int(math.ceil(h)) + 2 * pad
        dst = np.float32([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]])
        to_frame = cv2.getPerspectiveTransform(np.float32(corners), dst).astype(np.float64)
    return Placement(to_frame, (fw, fh), float(w), float(h))


def rectify(gray: np.ndarray, contour: np.ndarray, rect: tuple, pad: int,
            placed: Placement | None = None) -> Frame:
    """Warp a region upright into its frame (`place`; ``placed``: its result, when the
    caller has it)."""
    placed = place(contour, rect, pad) if placed is None else placed
    to_frame, (fw, fh) = placed.to_frame, placed.size
    g = cv2.warpPerspective(gray, to_frame, (fw, fh), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    pts = cv2.perspectiveTransform(contour.reshape(-1, 1, 2).astype(np.float64), to_frame)
    mask = np.zeros((fh, fw), np.uint8)
    cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 1)
    g = g if g.dtype == np.uint8 else g.astype(np.float32)
    return Frame(to_frame, g, mask, placed.width, placed.height)


def _corners(contour: np.ndarray, m: np.ndarray, hull: np.ndarray | None = None,
             rect: tuple | None = None) -> np.ndarray | None:
    """The outline's four corners TL, TR, BR, BL (image pixels) in the box frame ``m``,
    or None when the outline is no clean quadrilateral (``rect``: its min-area box)."""
    quad = fit_quad(contour, hull, rect).astype(np.float64)
    q = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), m).reshape(4, 2)
    by_y = np.argsort(q[:, 1])
    top, bottom = by_y[:2], by_y[2:]
    tl, tr = top[np.argsort(q[top, 0])]
    bl, br = bottom[np.argsort(q[bottom, 0])]
    order = [tl, tr, br, bl]
    if len(set(order)) < 4 or not cv2.isContourConvex(np.float32(q[order]).reshape(-1, 1, 2)):
        return None
    return quad[order]


def cut(frame: Frame, axis: int, cuts: list[tuple[int, float]]) -> list[np.ndarray]:
    """Split the frame's mask along lines; return each part's contour in image pixels.

    Each cut is ``(position, slope)``: for axis 0 the line through ``x =
    position`` at the frame's middle height, leaning ``slope`` pixels in x per
    pixel in y (axis 1 likewise with x and y swapped).
    """
    mask = frame.mask.copy()
    h, w = mask.shape
    for pos, slope in cuts:
        if axis == 0:
            yc = (h - 1) / 2.0
            p0 = (pos + slope * (0 - yc), 0.0)
            p1 = (pos + slope * (h - 1 - yc), h - 1.0)
        else:
            xc = (w - 1) / 2.0
            p0 = (0.0, pos + slope * (0 - xc))
            p1 = (w - 1.0, pos + slope * (w - 1 - xc))
        # A 4-connected line leaves no diagonal gap for the 8-connected parts to leak through.
        cv2.line(mask, (round(p0[0]), round(p0[1])), (round(p1[0]), round(p1[1])), 0, 1,
                 lineType=4)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    parts = [c for c in contours if cv2.contourArea(c) >= 4]
    if not parts:
        return []
    # Every part's points mapped back at once (each point's own transform: the same values).
    pts = cv2.perspectiveTransform(np.concatenate(parts).astype(np.float64),
                                   np.linalg.inv(frame.to_frame))
    pts = np.round(pts).astype(np.int32)
    ends = np.cumsum([len(c) for c in parts])[:-1]
    return np.split(pts, ends)
