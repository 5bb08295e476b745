"""Augmentation for classifier training crops: loose quads and photographic damage.

Applied alike to synthetic and real crops so that the model meets the lighting,
blur, noise, compression, occlusion and framing of phone and webcam pictures.
Colour changes are bounded so that a red five stays red: hue is never shifted
and white balance moves at most `WHITE_BALANCE` per channel.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True, slots=True)
class PhotoAug:
    """Strengths of the photographic damage (probabilities and ranges)."""

    white_balance: float = 0.08
    contrast: tuple[float, float] = (0.55, 1.3)
    brightness: tuple[float, float] = (-45.0, 40.0)
    gamma: tuple[float, float] = (0.7, 1.45)
    saturation: tuple[float, float] = (0.55, 1.35)
    p_shadow: float = 0.35
    p_glare: float = 0.2
    p_blur: float = 0.45
    blur_sigma: tuple[float, float] = (0.3, 1.4)
    p_motion: float = 0.1
    p_lowres: float = 0.3
    lowres: tuple[float, float] = (0.35, 0.9)
    noise: tuple[float, float] = (0.0, 9.0)
    p_jpeg: float = 0.5
    jpeg_quality: tuple[int, int] = (25, 95)
    p_occlude: float = 0.12
    p_upside_down: float = 0.5
    p_grey_world: float = 0.0


def jitter_quad(quad: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    """A quad moved as a loose locator and a tilted camera would: shift, scale, turn, corners.

    Args:
        quad: float32 ``(4, 2)``.
        amount: standard deviation of the corner noise as a fraction of the tile width.
    """
    q = np.asarray(quad, np.float32)
    centre = q.mean(axis=0)
    width = float(np.linalg.norm(q[1] - q[0])) or 1.0
    t = np.radians(rng.normal(0, 2.5))
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    scale = rng.uniform(0.92, 1.14, 2).astype(np.float32)
    out = (q - centre) * scale @ rot.T + centre
    out += rng.normal(0, amount * width, 2).astype(np.float32)
    out += rng.normal(0, amount * width, (4, 2)).astype(np.float32)
    return out


def _ramp(h: int, w: int, rng: np.random.Generator, low: float) -> np.ndarray:
    angle = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    proj = (xx - w / 2) * np.cos(angle) + (yy - h / 2) * np.sin(angle)
    proj = (proj - proj.min()) / (np.ptp(proj) + 1e-6)
    return (low + (1 - low) * proj)[..., None]


def _occlude(img: np.ndarray, rng: np.random.Generator) -> None:
    """Cover part of one edge (a finger, a neighbouring object), in place."""
    h, w = img.shape[:2]
    colour = (rng.uniform(60, 200), rng.uniform(80, 200), rng.uniform(120, 240)) \
        if rng.random() < 0.5 else tuple(float(c) for c in rng.uniform(0, 255, 3))
    side = rng.integers(4)
    depth = rng.uniform(0.1, 0.3)
    cx, cy = {0: (rng.uniform(0, w), 0), 1: (w, rng.uniform(0, h)),
              2: (rng.uniform(0, w), h), 3: (0, rng.uniform(0, h))}[int(side)]
    axes = (int(w * rng.uniform(0.15, 0.5)), int(max(h, w) * depth))
    cv2.ellipse(img, (int(cx), int(cy)), axes, float(rng.uniform(0, 180)), 0, 360, colour, -1,
                cv2.LINE_AA)


def photo_damage(crop: np.ndarray, rng: np.random.Generator, aug: PhotoAug = PhotoAug()
                 ) -> np.ndarray:
    """Lighting, colour, blur, resolution, noise, JPEG, occlusion and turning.

    Args:
        crop: BGR ``uint8 (H, W, 3)``.

    Returns:
        A new BGR ``uint8 (H, W, 3)`` crop.
    """
    h, w = crop.shape[:2]
    img = crop.astype(np.float32)
    if rng.random() < aug.p_occlude:
        _occlude(img, rng)
    img *= 1 + rng.uniform(-aug.white_balance, aug.white_balance, 3).astype(np.float32)
    grey = img.mean(axis=2, keepdims=True)
    img = grey + (img - grey) * rng.uniform(*aug.saturation)
    img = (img - 128) * rng.uniform(*aug.contrast) + 128 + rng.uniform(*aug.brightness)
    if rng.random() < aug.p_shadow:
        img *= _ramp(h, w, rng, rng.uniform(0.45, 0.9))
    if rng.random() < aug.p_glare:
        img += _ramp(h, w, rng, 0.0) ** 3 * rng.uniform(30, 110)
    img = np.clip(img, 0, 255)
    img = 255 * (img / 255) ** rng.uniform(*aug.gamma)
    if rng.random() < aug.p_lowres:
        f = rng.uniform(*aug.lowres)
        small = cv2.resize(img, (max(4, round(w * f)), max(4, round(h * f))),
                           interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < aug.p_blur:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(*aug.blur_sigma))
    if rng.random() < aug.p_motion:
        k = int(rng.integers(3, 6))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
        img = cv2.filter2D(img, -1, cv2.warpAffine(kernel, rot, (k, k)))
    img += rng.normal(0, rng.uniform(*aug.noise), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < aug.p_jpeg:
        q = int(rng.integers(*aug.jpeg_quality))
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if rng.random() < aug.p_upside_down:
        out = np.ascontiguousarray(out[::-1, ::-1])
    return out
