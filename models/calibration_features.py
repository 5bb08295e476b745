"""Shape descriptors of tile crops: the set's own drawing, as evidence beside the CNN's embedding.

The classifier's embedding was shaped by the sets it trained on; for a set
drawn differently (other strokes, other colours, a dark face) it can blur
kinds together. A histogram of oriented gradients of the crop (HOG: the
direction of the strokes, cell by cell, normalised per block of cells) knows
nothing of any training set: compared with the views of the user's own tiles,
it says which kind a crop is drawn like. Brightness and contrast cancel out in
the block normalisation, and the crop is grey (colour is the embedding's job).

Crops come as the model's input tensor (`TileClassifier.prepare`), so the
descriptors see exactly what the model sees, at its input size.
"""

from __future__ import annotations

import numpy as np
from agari.models.spec import ModelSpec

ORIENTATIONS = 9
"""Unsigned gradient directions per cell (20° each)."""
CELLS_DOWN = 8
"""Cells along the crop's height (a 64-pixel crop has 8-pixel cells)."""
BLOCK = 2
"""Cells per block side; each block's histogram is normalised on its own."""
_EPS = 1e-3


def grey_from_input(x: np.ndarray, spec: ModelSpec) -> np.ndarray:
    """The model's input tensor ``float32 (N, 3, H, W)`` back to grey ``float32 (N, H, W)``."""
    mean = np.asarray(spec.mean, np.float32)[None, :, None, None]
    std = np.asarray(spec.std, np.float32)[None, :, None, None]
    img = x * std + mean
    r, g, b = (0, 1, 2) if spec.channel_order == "RGB" else (2, 1, 0)
    return 0.299 * img[:, r] + 0.587 * img[:, g] + 0.114 * img[:, b]


def shape_features(grey: np.ndarray) -> np.ndarray:
    """HOG descriptors of grey crops.

    Args:
        grey: float32 ``(N, H, W)``.

    Returns:
        float32 ``(N, F)``: per block of ``BLOCK``×``BLOCK`` cells, the L2-normalised
        orientation histograms of its cells; ``F`` depends only on ``H, W``.
    """
    n, h, w = grey.shape
    cell = max(2, h // CELLS_DOWN)
    ch, cw = h // cell, w // cell
    if ch < BLOCK or cw < BLOCK:
        return np.zeros((n, 0), np.float32)
    hh, ww = ch * cell, cw * cell
    g = np.asarray(grey, np.float32)
    # The classic HOG gradient: central differences [-1, 0, 1], zero on the border.
    gx = np.zeros((n, hh, ww), np.float32)
    gy = np.zeros((n, hh, ww), np.float32)
    gx[:, :, 1:-1] = g[:, :hh, 2:ww] - g[:, :hh, :ww - 2]
    gy[:, 1:-1, :] = g[:, 2:hh, :ww] - g[:, :hh - 2, :ww]
    hist = _cell_histograms(gx, gy, cell)
    blocks = np.stack([hist[:, r:r + BLOCK, c:c + BLOCK].reshape(n, -1)
                       for r in range(ch - BLOCK + 1) for c in range(cw - BLOCK + 1)], axis=1)
    blocks /= np.linalg.norm(blocks, axis=2, keepdims=True) + _EPS
    return blocks.reshape(n, -1).astype(np.float32)


def _cell_histograms(gx: np.ndarray, gy: np.ndarray, cell: int) -> np.ndarray:
    """``(N, H/cell, W/cell, ORIENTATIONS)`` magnitude-weighted histograms, linear in angle."""
    n, h, w = gx.shape
    ch, cw = h // cell, w // cell
    mag = np.hypot(gx, gy)
    pos = (np.arctan2(gy, gx) % np.pi) * (ORIENTATIONS / np.pi)
    lower = np.floor(pos).astype(np.int64)
    upper_w = pos - lower
    lower %= ORIENTATIONS
    # One flat bin index per pixel: (crop, cell row, cell column, orientation).
    cells = ((np.arange(h) // cell)[:, None] * cw + (np.arange(w) // cell)[None, :])
    base = (np.arange(n)[:, None, None] * (ch * cw) + cells[None]) * ORIENTATIONS
    size = n * ch * cw * ORIENTATIONS
    out = np.bincount((base + lower).ravel(), (mag * (1 - upper_w)).ravel(), minlength=size)
    out += np.bincount((base + (lower + 1) % ORIENTATIONS).ravel(), (mag * upper_w).ravel(),
                       minlength=size)
    return out.reshape(n, ch, cw, ORIENTATIONS).astype(np.float32)


def crop_shapes(x: np.ndarray, spec: ModelSpec) -> np.ndarray:
    """`shape_features` of the model's input tensor ``(N, 3, H, W)``."""
    return shape_features(grey_from_input(np.asarray(x, np.float32), spec))
