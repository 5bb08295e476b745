"""What the camera and the room do to a rendered scene: light, colour, blur, noise, JPEG.

`sample_look` draws one `Look` per scene; `apply_look` turns a clean render
into a photo-like image. Everything runs on whole frames with cheap OpenCV
operations (one gain field, one lookup table, one blur, noise from a fixed
bank) to keep rendering fast.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

NOISE_BANK_SIZE = 1024
_GAIN_ONE = 64.0
"""Fixed-point unit of the gain field (uint8 gains up to ~4x)."""
_NOISE_SCALE = 16.0
"""The bank holds N(0, 1) noise times this, as int8."""


@dataclass(frozen=True)
class Look:
    """Photometric settings of one photo.

    Attributes:
        exposure: overall gain; gamma: tone curve exponent; contrast: around mid-grey.
        white_balance: BGR gains (a warm or cool cast).
        saturation: 1 keeps colours, < 1 washes them out.
        gradient: ``(angle in degrees, strength)`` of a linear light fall-off across the frame.
        vignette: darkening of the corners (0..1).
        shadow: strength of one large soft shadow over the frame (a person, a lamp), 0 if none.
        blur: Gaussian defocus sigma (px); motion: ``(length px, angle)`` or None.
        depth_blur: extra blur towards the top of the frame (shallow depth of field), sigma px.
        noise: sensor noise sigma (0..255 scale).
        downscale: resample through this fraction of the size (a cheaper camera), 1 = none.
        jpeg: JPEG quality, or None for no compression.
    """

    exposure: float = 1.0
    gamma: float = 1.0
    contrast: float = 1.0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    saturation: float = 1.0
    gradient: tuple[float, float] = (0.0, 0.0)
    vignette: float = 0.0
    shadow: float = 0.0
    blur: float = 0.0
    motion: tuple[float, float] | None = None
    depth_blur: float = 0.0
    noise: float = 0.0
    downscale: float = 1.0
    jpeg: int | None = None


def sample_look(rng: np.random.Generator, *, low_view: bool = False) -> Look:
    """A random but plausible phone photo; ``low_view`` (a seat-height shot) adds depth blur."""
    warmth = float(rng.normal(0, 0.08))
    wb = (1.0 - warmth + rng.normal(0, 0.02), 1.0 + rng.normal(0, 0.02), 1.0 + warmth)
    return Look(
        exposure=float(np.exp(rng.normal(0, 0.22))),
        gamma=float(np.exp(rng.normal(0, 0.12))),
        contrast=float(rng.uniform(0.8, 1.2)),
        white_balance=tuple(float(v) for v in wb),
        saturation=float(rng.uniform(0.7, 1.2)),
        gradient=(float(rng.uniform(0, 360)), float(rng.uniform(0, 0.45))),
        vignette=float(rng.uniform(0, 0.4)),
        shadow=float(rng.uniform(0.15, 0.5)) if rng.random() < 0.2 else 0.0,
        blur=float(rng.choice([0.0, rng.uniform(0.3, 1.0), rng.uniform(1.0, 2.2)],
                              p=[0.45, 0.4, 0.15])),
        motion=(float(rng.uniform(3, 10)), float(rng.uniform(0, 180))) if rng.random() < 0.08
        else None,
        depth_blur=float(rng.uniform(0.5, 3.0)) if low_view and rng.random() < 0.6 else 0.0,
        noise=float(rng.choice([rng.uniform(0, 3), rng.uniform(3, 10)], p=[0.7, 0.3])),
        downscale=float(rng.uniform(0.45, 0.95)) if rng.random() < 0.25 else 1.0,
        jpeg=int(rng.integers(35, 96)) if rng.random() < 0.85 else None,
    )


def apply_look(image: np.ndarray, look: Look, rng: np.random.Generator) -> np.ndarray:
    """A photo-like copy of ``image`` (BGR ``uint8``)."""
    h, w = image.shape[:2]
    gain = np.clip(_gain_field(look, rng, w, h) * _GAIN_ONE, 0, 255).astype(np.uint8)
    img = cv2.multiply(image, cv2.merge([gain, gain, gain]), scale=1.0 / _GAIN_ONE)
    img = cv2.LUT(cv2.transform(img, _colour_matrix(look)), _curve(look))
    img = _blur(img, look)
    if look.downscale < 1.0:
        small_size = (max(8, round(w * look.downscale)), max(8, round(h * look.downscale)))
        small = cv2.resize(img, small_size, interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if look.noise > 0.2:
        img = _add_noise(img, look.noise, rng)
    if look.jpeg is not None:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else img
    return img


def _gain_field(look: Look, rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Exposure x light gradient x vignette x large shadow, built small and scaled up."""
    sw, sh = 64, 48
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    u, v = xs / (sw - 1) - 0.5, ys / (sh - 1) - 0.5
    angle, strength = look.gradient
    a = math.radians(angle)
    field = look.exposure * (1.0 + strength * (math.cos(a) * u + math.sin(a) * v))
    field *= 1.0 - look.vignette * (u * u + v * v) * 2.0
    if look.shadow > 0:
        blob = np.zeros((sh, sw), np.float32)
        pts = (rng.uniform(-0.2, 1.2, (5, 2)) * (sw, sh)).astype(np.int32)
        cv2.fillConvexPoly(blob, cv2.convexHull(pts), 1.0)
        field *= 1.0 - look.shadow * cv2.GaussianBlur(blob, (0, 0), 4)
    return cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)


_LUMA = np.array([0.114, 0.587, 0.299], np.float32)
"""BGR weights of luma (ITU-R BT.601)."""


def _colour_matrix(look: Look) -> np.ndarray:
    """White balance and saturation as one 3x3 BGR matrix: mix towards grey, then gain."""
    s = look.saturation
    mix = s * np.eye(3, dtype=np.float32) + (1.0 - s) * np.tile(_LUMA, (3, 1))
    return np.diag(np.asarray(look.white_balance, np.float32)) @ mix


def _curve(look: Look) -> np.ndarray:
    x = np.arange(256, dtype=np.float32) / 255.0
    y = x ** look.gamma
    y = (y - 0.5) * look.contrast + 0.5
    return np.clip(y * 255.0 + 0.5, 0, 255).astype(np.uint8)


def _blur(img: np.ndarray, look: Look) -> np.ndarray:
    if look.blur > 0.25:
        img = cv2.GaussianBlur(img, (0, 0), look.blur)
    if look.motion is not None:
        length, angle = look.motion
        k = int(round(length)) | 1
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), angle, 1.0)
        kernel = cv2.warpAffine(kernel, rot, (k, k))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    if look.depth_blur > 0.3:
        h = img.shape[0]
        far = cv2.GaussianBlur(img, (0, 0), look.depth_blur)
        ramp = np.clip(1.0 - np.linspace(0, 1, h, dtype=np.float32) * 1.8, 0, 1)[:, None, None]
        img = (img * (1 - ramp) + far * ramp).astype(np.uint8)
    return img


_BANK: list[np.ndarray] = []


def _noise_bank() -> np.ndarray:
    """Fixed int8 Gaussian noise, tiled 2 x 2 so that any window up to the bank size fits."""
    if not _BANK:
        base = np.random.default_rng(20240611).standard_normal(
            (NOISE_BANK_SIZE, NOISE_BANK_SIZE, 3), dtype=np.float32)
        _BANK.append(np.tile(np.clip(base * _NOISE_SCALE, -127, 127).astype(np.int8), (2, 2, 1)))
    return _BANK[0]


def _add_noise(img: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    bank = _noise_bank()
    h, w = img.shape[:2]
    if h > bank.shape[0] // 2 or w > bank.shape[1] // 2:
        bank = np.tile(bank, (-(-h // NOISE_BANK_SIZE), -(-w // NOISE_BANK_SIZE), 1))
    oy = int(rng.integers(0, bank.shape[0] - h + 1))
    ox = int(rng.integers(0, bank.shape[1] - w + 1))
    scaled = cv2.multiply(bank[oy:oy + h, ox:ox + w], sigma / _NOISE_SCALE, dtype=cv2.CV_16S)
    return cv2.add(img, scaled, dtype=cv2.CV_8U)
