"""Edge support: does a candidate quad sit on a tile's real outline?

Every proposal, whichever map or split produced it, is judged the same way: a
tile face is brighter than the line just outside each of its four sides (the
table, the shadowed outline, or the dark seam to the next tile). Along each
side a few normals are sampled; a normal supports the side when the darkest
point just outside is darker, by a margin, than the brightest point just
inside. The windows are a few pixels wide so that a quad off by a pixel or
two still finds its edge; a cut through the middle of a face finds none.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True, slots=True)
class VerifyConfig:
    """Sampling of the edge test (depths as fractions of the quad's short side)."""

    samples: int = 10
    """Normals per side."""
    end_margin: float = 0.15
    """Skip this share of each side at both ends (rounded corners)."""
    inside: tuple[float, ...] = (0.08, 0.14)
    """Depths of the face's blank margin, sampled just inside each side."""
    outside: tuple[float, float] = (-0.05, 0.1)
    """Outer window along the normal: from slightly inside (a quad a pixel too big) to outside."""
    ring: tuple[float, ...] = (0.2, 0.35)
    """Depths outside the sides where the surroundings are sampled for the plate contrast."""
    contrast: float = 0.08
    """Required drop from the side's margin to the outline, as a share of face brightness."""
    min_px: float = 1.0
    """The outer window is at least this many pixels deep."""


@dataclass(frozen=True, slots=True)
class Support:
    """Edge-test results for N quads.

    Attributes:
        sides: float32 ``(N, 4)``: share of each side's normals that find a darker outline.
        spread: float32 ``(N,)``: interquartile range of the margin samples over
            the face brightness (a blank margin is uniform; wood grain is not).
        brightness: float32 ``(N,)``: median margin grey level.
        plate: float32 ``(N,)``: how much brighter the margin is than a ring of
            surroundings a little way out (median over the ring, as a share of
            the brightness). A face lying on a table stands out; a patch of the
            table does not, however grainy.
    """

    sides: np.ndarray
    spread: np.ndarray
    brightness: np.ndarray
    plate: np.ndarray


def edge_support(gray: np.ndarray, quads: np.ndarray, cfg: VerifyConfig = VerifyConfig()
                 ) -> Support:
    """Edge test of each quad.

    Args:
        gray: ``uint8 (H, W)`` image.
        quads: float32 ``(N, 4, 2)`` quads, corners in order around the quad
            (either direction).
    """
    n = len(quads)
    if n == 0:
        z = np.zeros(0, np.float32)
        return Support(np.zeros((0, 4), np.float32), z, z, z)
    q = quads.astype(np.float32)
    a, b = q, np.roll(q, -1, axis=1)  # side i runs from corner i to corner i+1
    t = np.linspace(cfg.end_margin, 1 - cfg.end_margin, cfg.samples, dtype=np.float32)
    pts = a[:, :, None, :] + (b - a)[:, :, None, :] * t[None, None, :, None]  # (N,4,S,2)
    d = b - a
    normal = np.stack([-d[..., 1], d[..., 0]], axis=-1)
    normal /= np.maximum(np.linalg.norm(normal, axis=-1, keepdims=True), 1e-6)
    mid = (a + b) / 2
    inward = np.sum((q.mean(axis=1, keepdims=True) - mid) * normal, axis=-1, keepdims=True) >= 0
    normal = np.where(inward, normal, -normal)
    short = np.linalg.norm(d, axis=-1).min(axis=1)[:, None, None]  # (N,1,1)
    margin = np.mean([_sample(gray, pts, normal, f * short) for f in cfg.inside], axis=0)
    lo, hi = cfg.outside
    depths = np.linspace(0.0, 1.0, 4, dtype=np.float32)
    d_lo = lo * short
    d_hi = np.maximum(hi * short, d_lo + cfg.min_px)
    outer = np.min([_sample(gray, pts, normal, d_lo + (d_hi - d_lo) * s) for s in depths], axis=0)
    flat = margin.reshape(n, -1)
    bright = np.maximum(np.median(flat, axis=1), 1.0)
    q25, q75 = np.percentile(flat, [25, 75], axis=1)
    side_level = np.median(margin, axis=2, keepdims=True)  # (N,4,1)
    ok = (side_level - outer) >= cfg.contrast * bright[:, None, None]
    ring = np.concatenate([_sample(gray, pts, normal, -f * short).reshape(n, -1)
                           for f in cfg.ring], axis=1)
    plate = (bright - np.median(ring, axis=1)) / bright
    return Support(ok.mean(axis=2).astype(np.float32), ((q75 - q25) / bright).astype(np.float32),
                   bright.astype(np.float32), plate.astype(np.float32))


def ink_share(gray: np.ndarray, quads: np.ndarray, *, kernel: int | np.ndarray,
              darkness: float = 0.2, inner: float = 0.6) -> np.ndarray:
    """Share of ink pixels in the middle of each quad: float32 ``(N,)``.

    Ink is a stroke at least ``darkness`` (a share of the local background,
    found by a grey closing with a ``kernel`` square) darker than its
    surroundings. The middle is the quad's bounding box shrunk to ``inner`` of
    its size. A face nearly always carries ink; a patch of table does not.

    Args:
        kernel: closing side, one for all quads or int ``(N,)``, one per quad
            (strokes scale with the tile: a kernel fit for a small tile misses
            a large tile's symbols).
    """
    n = len(quads)
    if n == 0:
        return np.zeros(0, np.float32)
    per = np.broadcast_to(np.asarray(kernel, int), (n,))
    out = np.zeros(n, np.float32)
    for k in np.unique(per):
        sel = per == k
        out[sel] = _ink_in(gray, quads[sel], int(k), darkness, inner)
    return out


def _ink_in(gray: np.ndarray, quads: np.ndarray, kernel: int, darkness: float,
            inner: float) -> np.ndarray:
    h, w = gray.shape
    lo, hi = quads.min(axis=1), quads.max(axis=1)
    c, half = (lo + hi) / 2, (hi - lo) * inner / 2
    x0 = np.clip(np.round(c[:, 0] - half[:, 0]), 0, w).astype(int)
    x1 = np.clip(np.round(c[:, 0] + half[:, 0]), 0, w).astype(int)
    y0 = np.clip(np.round(c[:, 1] - half[:, 1]), 0, h).astype(int)
    y1 = np.clip(np.round(c[:, 1] + half[:, 1]), 0, h).astype(int)
    # The closing is made only around the middles it is read in: a closing's value
    # depends on no pixel farther than the kernel's side, so that margin makes it exact.
    cx0, cy0 = max(int(x0.min()) - kernel, 0), max(int(y0.min()) - kernel, 0)
    cx1, cy1 = min(int(x1.max()) + kernel, w), min(int(y1.max()) + kernel, h)
    crop = gray[cy0:cy1, cx0:cx1]
    if crop.size == 0:
        return np.zeros(len(quads), np.float32)
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (kernel, kernel))
    closed = cv2.morphologyEx(crop, cv2.MORPH_CLOSE, k)
    if crop.dtype == np.uint8 and darkness <= 1.0:
        # Grey at or below (1 - darkness) of the closing, the levels in float32 as for
        # float grey: on integer grey a table of the highest inky level per closing level,
        # in 8 bits (no level is below 0 unless darkness > 1), looked up and compared by
        # OpenCV (numpy's look-up and mixed-type comparison cost twice as much).
        ink = cv2.compare(crop, cv2.LUT(closed, _ink_levels(float(darkness))), cv2.CMP_LE)
        ink &= 1  # 255 -> 1: the integral counts ink pixels
    elif crop.dtype == np.uint8:
        level = np.floor((1.0 - darkness) * np.arange(256, dtype=np.float32))
        ink = crop <= np.clip(level, -1, 255).astype(np.int16)[closed]
    else:
        ink = crop.astype(np.float32) <= (1.0 - darkness) * closed.astype(np.float32)
    table = cv2.integral(ink.view(np.uint8))
    x0, x1, y0, y1 = x0 - cx0, x1 - cx0, y0 - cy0, y1 - cy0
    total = table[y1, x1] - table[y0, x1] - table[y1, x0] + table[y0, x0]
    area = np.maximum((x1 - x0) * (y1 - y0), 1)
    return (total / area).astype(np.float32)


@functools.lru_cache(maxsize=64)
def _ink_levels(darkness: float) -> np.ndarray:
    """`_ink_in`'s highest inky grey level for each closing level, ``uint8 (256,)``, for
    ``darkness`` in [0, 1] (read-only and kept: a locator asks for one or two)."""
    level = np.floor((1.0 - darkness) * np.arange(256, dtype=np.float32))
    out = np.clip(level, 0, 255).astype(np.uint8)
    out.flags.writeable = False
    return out


def _sample(gray: np.ndarray, pts: np.ndarray, normal: np.ndarray, depth: np.ndarray
            ) -> np.ndarray:
    """Grey levels at ``pts + depth * normal`` (nearest pixel, clamped). ``(N, 4, S)``."""
    h, w = gray.shape
    p = pts + normal[:, :, None, :] * depth[..., None]
    x = np.clip(np.rint(p[..., 0]), 0, w - 1).astype(np.intp)
    y = np.clip(np.rint(p[..., 1]), 0, h - 1).astype(np.intp)
    return gray[y, x].astype(np.float32)
