"""Shape descriptors of tile crops: the set's own drawing, as evidence beside the CNN's embedding.

The classifier's embedding was shaped by the sets it trained on; for a set
drawn differently (other strokes, other colours, a dark face) it can blur
kinds together. A histogram of oriented gradients of the crop (HOG: the
direction of the strokes, cell by cell, normalised per block of cells) knows
nothing of any training set: compared with the views of the user's own tiles,
it says which kind a crop is drawn like. Brightness and contrast cancel out in
the block normalisation, and the crop is grey (colour is the embedding's job).

The middle colour of a crop (`centre_colours`, CIE Lab) is the other look:
a patch of table that a locator took for a tile may be shaped like a blank
白 or a tile's back, but rarely coloured like them.

Crops come as the model's input tensor (`TileClassifier.prepare`), so the
descriptors see exactly what the model sees, at its input size.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from agari.engine.errors import ModelError
from agari.models.spec import ModelSpec
from agari.vision.lab import lab_ready

ORIENTATIONS = 9
"""Unsigned gradient directions per cell (20° each)."""
CELLS_DOWN = 8
"""Cells along the crop's height (a 64-pixel crop has 8-pixel cells)."""
BLOCK = 2
"""Cells per block side; each block's histogram is normalised on its own."""
CENTRE_SHARE = 0.5
"""Share of the crop's height and width whose colour is taken (the tile's middle)."""
INK_SHARE = 0.8
"""Share of the crop's height and width whose ink is looked at (the face, without the margin)."""
INK_HUES = 12
"""Hue bins (30° each, in the CIE a*b* plane) of the ink histogram."""
INK_CHROMA = (8.0, 20.0)
"""Distance in the a*b* plane from the face's colour below which a pixel is not coloured ink
and above which it is (linear between: blurred strokes count in part)."""
INK_CONTRAST = (20.0, 40.0)
"""Lightness difference from the face below which a pixel is not grey ink and above which it
is (shading across a lit face stays below it)."""
INK_MIN = 0.01
"""Share of inked pixels below which a crop counts as blank (a 白, a back, bare table)."""
INK_BINS = INK_HUES + 3
"""Width of `ink_colours`: hue bins, grey ink darker / lighter than the face, blank."""
_EPS = 1e-3


@dataclass(frozen=True, slots=True)
class CropLooks:
    """What calibration compares besides the embedding, for N crops.

    Attributes:
        shapes: float32 ``(N, F)`` shape descriptors (`shape_features`).
        colours: float32 ``(N, 3)`` median CIE Lab colour of each crop's middle
            (L 0..100, a and b about -128..127).
        inks: float32 ``(N, K)`` ink colour histograms (`ink_colours`); ``K`` is 0
            when they were not computed (None gives that).
    """

    shapes: np.ndarray
    colours: np.ndarray
    inks: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.inks is None:
            object.__setattr__(self, "inks", np.zeros((len(self.shapes), 0), np.float32))
        if self.shapes.ndim != 2 or self.colours.shape != (len(self.shapes), 3) \
                or self.inks.ndim != 2 or len(self.inks) != len(self.shapes):
            raise ModelError(f"expected shapes (N, F), colours (N, 3) and inks (N, K), got "
                             f"{self.shapes.shape}, {self.colours.shape} and {self.inks.shape}")

    def __len__(self) -> int:
        return len(self.shapes)

    @classmethod
    def empty(cls, shape_dim: int, ink_dim: int = 0) -> CropLooks:
        return cls(np.zeros((0, shape_dim), np.float32), np.zeros((0, 3), np.float32),
                   np.zeros((0, ink_dim), np.float32))

    def subset(self, rows: np.ndarray) -> CropLooks:
        """The looks of the crops picked by ``rows`` (a boolean mask or indices)."""
        return CropLooks(self.shapes[rows], self.colours[rows], self.inks[rows])


def _rgb_from_input(x: np.ndarray, spec: ModelSpec) -> np.ndarray:
    """The model's input tensor back to RGB ``float32 (N, H, W, 3)`` in 0..1."""
    mean = np.asarray(spec.mean, np.float32)[None, :, None, None]
    std = np.asarray(spec.std, np.float32)[None, :, None, None]
    img = (np.asarray(x, np.float32) * std + mean).transpose(0, 2, 3, 1)
    return img if spec.channel_order == "RGB" else img[..., ::-1]


def grey_from_input(x: np.ndarray, spec: ModelSpec) -> np.ndarray:
    """The model's input tensor ``float32 (N, 3, H, W)`` back to grey ``float32 (N, H, W)``."""
    rgb = _rgb_from_input(x, spec)
    return 0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2]


def centre_colours(x: np.ndarray, spec: ModelSpec) -> np.ndarray:
    """Median Lab colour of the middle of each crop: float32 ``(N, 3)``."""
    rgb = _rgb_from_input(x, spec)
    n, h, w = rgb.shape[:3]
    dy, dx = round(h * (1 - CENTRE_SHARE) / 2), round(w * (1 - CENTRE_SHARE) / 2)
    mid = np.ascontiguousarray(np.clip(rgb[:, dy:h - dy, dx:w - dx], 0.0, 1.0))
    if not n:
        return np.zeros((0, 3), np.float32)
    lab_ready()
    lab = cv2.cvtColor(mid.reshape(-1, mid.shape[2], 3), cv2.COLOR_RGB2Lab)
    return np.median(lab.reshape(n, -1, 3), axis=1).astype(np.float32)


def ink_colours(x: np.ndarray, spec: ModelSpec) -> np.ndarray:
    """What colours each crop's ink is: float32 ``(N, INK_BINS)``, rows summing to 1.

    The face colour is the median of the face (`INK_SHARE` of the crop). A pixel is
    coloured ink by how far its chroma (a*, b*) lies from the face's (`INK_CHROMA`),
    shared out by its hue (soft bins); grey ink by how far its lightness lies from
    the face's (`INK_CONTRAST`: shading across a face stays below it), darker or
    lighter. A crop with less than `INK_MIN` of its face inked is all in the last
    bin (blank). Unlike the middle colour, this parts a red 5 from a purple one and
    brown numerals from red 萬.
    """
    rgb = _rgb_from_input(x, spec)
    n, h, w = rgb.shape[:3]
    if not n:
        return np.zeros((0, INK_BINS), np.float32)
    dy, dx = round(h * (1 - INK_SHARE) / 2), round(w * (1 - INK_SHARE) / 2)
    face = np.ascontiguousarray(np.clip(rgb[:, dy:h - dy, dx:w - dx], 0.0, 1.0))
    lab_ready()
    lab = cv2.cvtColor(face.reshape(-1, face.shape[2], 3), cv2.COLOR_RGB2Lab).reshape(n, -1, 3)
    base = np.median(lab, axis=1, keepdims=True)
    a, b = lab[..., 1], lab[..., 2]
    lo, hi = INK_CHROMA
    coloured = np.clip((np.hypot(a - base[..., 1], b - base[..., 2]) - lo) / (hi - lo), 0.0, 1.0)
    lo, hi = INK_CONTRAST
    shade = lab[..., 0] - base[..., 0]
    grey = (1.0 - coloured) * np.clip((np.abs(shade) - lo) / (hi - lo), 0.0, 1.0)
    pos = (np.arctan2(b, a) % (2 * np.pi)) * (INK_HUES / (2 * np.pi))
    lower = np.floor(pos).astype(np.int64)
    upper_w = pos - lower
    rows = np.arange(n)[:, None] * INK_BINS
    size = n * INK_BINS
    hist = np.bincount((rows + lower % INK_HUES).ravel(), (coloured * (1 - upper_w)).ravel(),
                       minlength=size)
    hist += np.bincount((rows + (lower + 1) % INK_HUES).ravel(), (coloured * upper_w).ravel(),
                        minlength=size)
    hist += np.bincount((rows + np.where(shade < 0, INK_HUES, INK_HUES + 1)).ravel(),
                        grey.ravel(), minlength=size)
    hist = hist.reshape(n, INK_BINS)
    total = hist.sum(axis=1, keepdims=True)
    out = hist / np.maximum(total, _EPS)
    blank = total[:, 0] < INK_MIN * lab.shape[1]
    out[blank] = 0.0
    out[blank, -1] = 1.0
    return out.astype(np.float32)


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


def crop_looks(x: np.ndarray, spec: ModelSpec) -> CropLooks:
    """Shape descriptors, middle colours and ink colours of the model's input ``(N, 3, H, W)``."""
    x = np.asarray(x, np.float32)
    return CropLooks(shape_features(grey_from_input(x, spec)), centre_colours(x, spec),
                     ink_colours(x, spec))
