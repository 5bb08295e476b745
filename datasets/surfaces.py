"""Tileable table textures: felt, wood, cloth, laminate and automatic-table cloth.

Each texture is a ``TEXTURE_SIZE`` square BGR ``uint8`` patch that repeats
seamlessly, so it can cover the whole table through one perspective warp with
``BORDER_WRAP``. All noise is built from periodic low-resolution grids.
"""

from __future__ import annotations

import cv2
import numpy as np

TEXTURE_SIZE = 512

FELT_COLOURS = {  # BGR: mats and automatic-table cloth
    "green": (60, 110, 30), "dark green": (40, 70, 20), "blue": (120, 70, 25),
    "navy": (80, 40, 20), "black": (32, 30, 30), "grey": (120, 118, 115),
    "light grey": (165, 163, 160), "red": (40, 40, 120), "purple": (90, 50, 70),
    "teal": (100, 100, 30),
}
WOOD_COLOURS = ((70, 110, 160), (40, 70, 110), (110, 150, 190), (150, 170, 190),
                (30, 45, 70), (95, 120, 140), (160, 175, 185))
PLAIN_COLOURS = ((235, 235, 235), (200, 200, 198), (60, 60, 60), (170, 185, 200),
                 (220, 225, 230), (110, 110, 112))
KINDS = ("felt", "wood", "cloth", "plain", "auto")
KIND_PROBS = (0.3, 0.25, 0.1, 0.1, 0.25)


def periodic_noise(rng: np.random.Generator, size: int, cells: int,
                   cells_x: int | None = None) -> np.ndarray:
    """Smooth, seamlessly repeating noise ``float32 (size, size)`` with unit std.

    ``cells`` bumps down the patch and ``cells_x`` (default the same) across it.
    """
    cells_x = cells if cells_x is None else cells_x
    grid = rng.standard_normal((cells, cells_x)).astype(np.float32)
    pad = 2
    wrapped = np.pad(grid, pad, mode="wrap")
    sy, sx = size / cells, size / cells_x
    big = cv2.resize(wrapped, (round((cells_x + 2 * pad) * sx), round((cells + 2 * pad) * sy)),
                     interpolation=cv2.INTER_CUBIC)
    oy, ox = round(pad * sy), round(pad * sx)
    out = big[oy:oy + size, ox:ox + size]
    return out / (out.std() + 1e-6)


def _grain(rng: np.random.Generator, size: int, amount: float) -> np.ndarray:
    """Per-texel fine noise (fibres, pores), already periodic because it is white."""
    return rng.normal(0.0, amount, (size, size, 1)).astype(np.float32)


def felt(rng: np.random.Generator, colour: tuple[int, int, int], size: int = TEXTURE_SIZE,
         ) -> np.ndarray:
    base = np.array(colour, np.float32) * rng.uniform(0.85, 1.15)
    blotch = periodic_noise(rng, size, int(rng.integers(4, 12)))[..., None] * rng.uniform(2, 8)
    fibre = cv2.GaussianBlur(_grain(rng, size, rng.uniform(6, 16)), (0, 0), 0.7)[..., None]
    return _clip(base + blotch + fibre)


def wood(rng: np.random.Generator, size: int = TEXTURE_SIZE) -> np.ndarray:
    """Wood or wood-look laminate: fine fibres along one axis, faint growth rings."""
    base = np.array(WOOD_COLOURS[int(rng.integers(len(WOOD_COLOURS)))], np.float32)
    base *= rng.uniform(0.85, 1.15)
    ys = np.mgrid[0:size, 0:size][0].astype(np.float32) / size
    warp = periodic_noise(rng, size, int(rng.integers(2, 6))) * rng.uniform(0.01, 0.03)
    rings = np.sin(2 * np.pi * int(rng.integers(4, 24)) * (ys + warp))
    fibres = periodic_noise(rng, size, 256, 4)
    tone = rings * rng.uniform(1, 6) + fibres * rng.uniform(2, 7)
    img = base * (1 + tone[..., None] / 100.0) + _grain(rng, size, 2)
    if rng.random() < 0.5:
        img = img.transpose(1, 0, 2)
    return _clip(img)


def cloth(rng: np.random.Generator, size: int = TEXTURE_SIZE) -> np.ndarray:
    """Woven cloth, sometimes a plaid tablecloth."""
    names = list(FELT_COLOURS)
    base = np.array(FELT_COLOURS[names[int(rng.integers(len(names)))]], np.float32)
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32)
    period = int(rng.choice([4, 8, 16]))
    weave = np.sin(2 * np.pi * xs / period) * np.sin(2 * np.pi * ys / period)
    img = base + weave[..., None] * rng.uniform(4, 14)
    if rng.random() < 0.3:  # a plaid: two crossing sets of soft stripes
        band = int(rng.choice([64, 128, 256]))
        plaid = 0.5 * (np.sin(2 * np.pi * xs / band) > 0.6) + 0.5 * (
            np.sin(2 * np.pi * ys / band) > 0.6)
        other = rng.uniform(60, 230, 3).astype(np.float32)
        img = img * (1 - 0.35 * plaid[..., None]) + other * 0.35 * plaid[..., None]
    return _clip(img + _grain(rng, size, 4))


def plain(rng: np.random.Generator, size: int = TEXTURE_SIZE) -> np.ndarray:
    base = np.array(PLAIN_COLOURS[int(rng.integers(len(PLAIN_COLOURS)))], np.float32)
    blotch = periodic_noise(rng, size, 6)[..., None] * rng.uniform(1, 4)
    return _clip(base * rng.uniform(0.9, 1.1) + blotch + _grain(rng, size, 2))


def surface(rng: np.random.Generator, kind: str) -> np.ndarray:
    """A texture of ``kind`` (one of `KINDS`)."""
    if kind in ("felt", "auto"):
        names = ["grey", "light grey", "blue", "green", "dark green", "navy"] if kind == "auto" \
            else list(FELT_COLOURS)
        return felt(rng, FELT_COLOURS[names[int(rng.integers(len(names)))]])
    if kind == "wood":
        return wood(rng)
    if kind == "cloth":
        return cloth(rng)
    return plain(rng)


def _clip(img: np.ndarray) -> np.ndarray:
    return np.clip(img, 0, 255).astype(np.uint8)
