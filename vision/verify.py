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

from dataclasses import dataclass

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
    """

    sides: np.ndarray
    spread: np.ndarray
    brightness: np.ndarray


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
        return Support(np.zeros((0, 4), np.float32), z, z)
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
    return Support(ok.mean(axis=2).astype(np.float32), ((q75 - q25) / bright).astype(np.float32),
                   bright.astype(np.float32))


def _sample(gray: np.ndarray, pts: np.ndarray, normal: np.ndarray, depth: np.ndarray
            ) -> np.ndarray:
    """Grey levels at ``pts + depth * normal`` (nearest pixel, clamped). ``(N, 4, S)``."""
    h, w = gray.shape
    p = pts + normal[:, :, None, :] * depth[..., None]
    x = np.clip(np.rint(p[..., 0]), 0, w - 1).astype(np.intp)
    y = np.clip(np.rint(p[..., 1]), 0, h - 1).astype(np.intp)
    return gray[y, x].astype(np.float32)
