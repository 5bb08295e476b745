"""Candidate regions: bright tile faces and coloured tile backs at many threshold levels.

Tiles are found as connected regions of a score map thresholded at several
levels, in the spirit of maximally stable extremal regions: whatever the light,
some level separates a face from its darker surroundings (table, tray, the
shadowed seam to the next tile). Each level's outer contours become `Region`
values; the locator decides which are single tiles and which are rows or grids
to split.

Score maps are ``uint8 (H, W)``:

- faces: grey level, minus a penalty for strong colour (a coloured back is not
  a face; ivory and white faces are only slightly saturated), minus the dark
  thin lines found by a black-hat filter (seams between touching tiles).
- backs: colourfulness (HSV saturation × value), high on red/blue/green/yellow
  backs, low on faces and on grey or wooden tables.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True, slots=True)
class MapConfig:
    """Tuning of the score maps (all in 8-bit units at the working scale)."""

    face_saturation_free: int = 70
    """Saturation a face may have without penalty (ivory faces reach ~50)."""
    face_saturation_weight: float = 2.0
    """Grey levels lost per unit of saturation above `face_saturation_free`."""
    seam_kernel: int = 7
    """Black-hat kernel side: thin dark lines narrower than this are seams."""
    seam_weight: float = 2.0
    """How strongly seams (black-hat response) are subtracted from the face map."""
    fill_kernel: int = 5
    """Closing kernel of the filled face map: ink strokes narrower than this vanish."""
    ink_stroke: int = 9
    """Closing side of the ink map's stroke test: darker strokes narrower than this are ink."""
    ink_close: int = 21
    """Closing side that joins a face's symbols into one blob of ink."""
    ink_grow: int = 9
    """Ink blobs are grown by this square: a face's ink stops short of its edge."""
    neutral_kernel: int = 5
    """Closing kernel of the neutral map (a wide one blurs the faces into blocks)."""
    neutral_saturation: float = 110.0
    """Saturation at which the neutral map reaches zero (ivory faces stay near 50)."""
    back_min_value: int = 60
    """Pixels darker than this are never back candidates (shadows are unsaturated noise)."""
    smooth_sigma: float = 1.0
    """Gaussian blur before the gradient of the smoothness map."""
    smooth_percentile: float = 97.0
    """Gradient percentile that maps to zero smoothness."""


@dataclass(frozen=True, slots=True)
class LevelConfig:
    """How many threshold levels, over which range of the score map."""

    levels: int = 9
    """Threshold levels between the low and high percentiles."""
    low_percentile: float = 5.0
    high_percentile: float = 99.8
    open_kernel: int = 3
    """Each level is opened with a square this wide: cuts thin bridges (grain, faint seams)."""
    min_valid: int = 8
    """Pixels at or below this grey level are ignored for percentiles (black borders)."""


@dataclass(frozen=True, slots=True)
class Region:
    """One outer contour at one threshold level (working-image pixels).

    Attributes:
        contour: int32 ``(N, 1, 2)``.
        rect: ``cv2.minAreaRect`` of the contour: ``((cx, cy), (w, h), angle)``.
        area: contour area in square pixels.
        rectangularity: ``area / (w * h)``: 1 for a perfect rectangle.
        level: index of the threshold level (higher = brighter).
    """

    contour: np.ndarray
    rect: tuple
    area: float
    rectangularity: float
    level: int

    @property
    def aspect(self) -> float:
        """Short side over long side of the min-area box, in (0, 1]."""
        w, h = self.rect[1]
        return float(min(w, h) / max(w, h)) if max(w, h) > 0 else 0.0

    @property
    def long_side(self) -> float:
        return float(max(self.rect[1]))

    @property
    def short_side(self) -> float:
        return float(min(self.rect[1]))


def face_map(bgr: np.ndarray, cfg: MapConfig = MapConfig(), *, hsv: np.ndarray | None = None,
             gray: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Face score and grey image.

    Args:
        bgr: ``uint8 (H, W, 3)`` working image.
        hsv: the image in HSV, when the caller has it.
        gray: the image in grey (``cv2.COLOR_BGR2GRAY``), likewise.

    Returns:
        ``(score, gray)``, both ``uint8 (H, W)``.
    """
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY) if gray is None else gray
    sat = _saturation(bgr, hsv)
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (cfg.seam_kernel, cfg.seam_kernel))
    seams = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, k)
    if _whole(cfg.face_saturation_free, cfg.face_saturation_weight, cfg.seam_weight):
        excess = cv2.subtract(sat, np.full_like(sat, int(cfg.face_saturation_free)))
        score = cv2.subtract(gray, cv2.convertScaleAbs(excess, alpha=cfg.face_saturation_weight))
        return cv2.subtract(score, cv2.convertScaleAbs(seams, alpha=cfg.seam_weight)), gray
    score = gray.astype(np.float32)
    excess = np.maximum(sat.astype(np.float32) - cfg.face_saturation_free, 0)
    score -= cfg.face_saturation_weight * excess
    score -= cfg.seam_weight * seams.astype(np.float32)
    return np.clip(score, 0, 255).astype(np.uint8), gray


def filled_map(bgr: np.ndarray, cfg: MapConfig = MapConfig(), *, gray: np.ndarray | None = None,
               hsv: np.ndarray | None = None) -> np.ndarray:
    """Face score with ink filled in: ``uint8 (H, W)``.

    Dense symbols (eight circles, nine sticks, a bold character) can leave only
    a thin, broken rim of bright face; a grey closing paints over ink (and over
    thin seams, so touching tiles merge into one row or grid region, which the
    splitter then cuts along the seams of the untouched grey image). ``gray``
    and ``hsv``: the image's conversions, when the caller has them.
    """
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY) if gray is None else gray
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (cfg.fill_kernel, cfg.fill_kernel))
    closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, k)
    # Coloured ink is saturated too: an opening of the saturation wipes strokes
    # narrower than the kernel and keeps the broad colour of a back.
    sat = cv2.morphologyEx(_saturation(bgr, hsv), cv2.MORPH_OPEN, k)
    if _whole(cfg.face_saturation_free, cfg.face_saturation_weight):
        excess = cv2.subtract(sat, np.full_like(sat, int(cfg.face_saturation_free)))
        return cv2.subtract(closed, cv2.convertScaleAbs(excess, alpha=cfg.face_saturation_weight))
    excess = np.maximum(sat.astype(np.int16) - cfg.face_saturation_free, 0)
    score = closed.astype(np.int16) - (cfg.face_saturation_weight * excess).astype(np.int16)
    return np.clip(score, 0, 255).astype(np.uint8)


def neutral_map(bgr: np.ndarray, cfg: MapConfig = MapConfig()) -> np.ndarray:
    """Bright and colourless, ink filled in: ``uint8 (H, W)``, value × (1 - saturation share).

    On a beige, wooden or felt table the faces may be no brighter than the
    table but they are far less coloured; on a grey table this is just
    brightness again.
    """
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (cfg.neutral_kernel, cfg.neutral_kernel))
    closed = cv2.morphologyEx(bgr, cv2.MORPH_CLOSE, k)
    if closed.ndim != 3 or closed.shape[2] != 3 or closed.dtype != np.uint8:
        hsv = cv2.cvtColor(closed, cv2.COLOR_BGR2HSV)
        index = (hsv[..., 2].astype(np.intp) << 8) | hsv[..., 1]
        return np.take(_neutral_table(float(cfg.neutral_saturation)), index)
    # One value per (value, saturation) pair, looked up: the float64 product per pixel
    # cost several ms a megapixel. HSV value is the largest channel and OpenCV's 8-bit
    # saturation a function of it and the channels' spread, so the table is indexed by
    # those two, taken by a few cheap channel-wise steps instead of the whole conversion
    # (the hue is never read): the same map, 3.0 -> 2.0 ms a megapixel.
    b, g, r = cv2.split(closed)
    value = cv2.max(cv2.max(b, g), r)
    spread = cv2.subtract(value, cv2.min(cv2.min(b, g), r))
    index = value.astype(np.uint16)
    index <<= 8
    index |= spread
    return np.take(_neutral_by_spread(float(cfg.neutral_saturation)), index)


@functools.cache
def _neutral_table(saturation: float) -> np.ndarray:
    """`neutral_map`'s value for every (value, saturation) pair, flat ``uint8 (65536,)``
    indexed by ``value * 256 + saturation``."""
    v, s = np.meshgrid(np.arange(256, dtype=np.uint8), np.arange(256, dtype=np.uint8),
                       indexing="ij")
    grey_share = 1.0 - np.minimum(s, saturation) / saturation
    return (v * grey_share).astype(np.uint8).ravel()


@functools.cache
def hsv_saturations() -> np.ndarray:
    """OpenCV's 8-bit HSV saturation for every (value, spread) pair, flat ``uint8 (65536,)``
    indexed by ``value * 256 + spread`` (value: the largest channel, spread: it less the
    smallest; 0 where spread > value, which no colour has). Read off `cv2.cvtColor` itself
    on one colour per pair, so it is the library's own rounding."""
    v, d = np.meshgrid(np.arange(256), np.arange(256), indexing="ij")
    low = np.maximum(v - d, 0).astype(np.uint8)
    colours = np.stack([v.astype(np.uint8), low, low], axis=-1)
    sat = cv2.cvtColor(colours, cv2.COLOR_BGR2HSV)[..., 1]
    return np.where(d <= v, sat, 0).astype(np.uint8).ravel()


@functools.cache
def _neutral_by_spread(saturation: float) -> np.ndarray:
    """`_neutral_table` indexed by ``value * 256 + spread`` (see `hsv_saturations`)."""
    index = (np.arange(256).repeat(256) << 8) | hsv_saturations()
    out = _neutral_table(saturation)[index]
    out.flags.writeable = False
    return out


def ink_map(gray: np.ndarray, cfg: MapConfig = MapConfig(), *, darkness: float = 0.2,
            min_valid: int = 8) -> np.ndarray:
    """Where faces carry ink: ``uint8 (H, W)``, 255 in blobs of strokes, else 0.

    Strokes are at least ``darkness`` (a share of a grey closing) darker than
    their surroundings; a closing joins a face's symbols into one blob and an
    opening drops stray specks (wood grain, text on paper is kept: that is for
    shape and the classifier to reject); the blobs are grown towards the
    face's edges. Pixels at or below ``min_valid`` (black padding) are no ink.
    """
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (cfg.ink_stroke, cfg.ink_stroke))
    closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, k)
    if 0.0 <= darkness <= 1.0:
        # Grey at or below (1 - darkness) of the closing, as float64 levels compare it:
        # on integer grey, a table of the highest inky level per closing level.
        level = np.floor((1.0 - darkness) * np.arange(256, dtype=np.uint8)).astype(np.uint8)
        ink = cv2.compare(gray, cv2.LUT(closed, level), cv2.CMP_LE)
        _, valid = cv2.threshold(gray, min_valid, 255, cv2.THRESH_BINARY)
        ink = cv2.bitwise_and(ink, valid)  # 255 on ink
    else:
        ink = (gray.astype(np.float32) <= (1.0 - darkness) * closed) & (gray > min_valid)
        ink = ink.astype(np.uint8) * 255
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (cfg.ink_close, cfg.ink_close))
    blobs = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, k)
    blobs = cv2.morphologyEx(blobs, cv2.MORPH_OPEN, k)
    g = cv2.getStructuringElement(cv2.MORPH_RECT, (cfg.ink_grow, cfg.ink_grow))
    return cv2.dilate(blobs, g)


def back_map(bgr: np.ndarray, cfg: MapConfig = MapConfig(), *,
             hsv: np.ndarray | None = None) -> np.ndarray:
    """Colourfulness ``uint8 (H, W)``: saturation scaled by value, 0 where dark (``hsv``:
    the image in HSV, when the caller has it)."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV) if hsv is None else hsv
    _, sat, hi = cv2.split(hsv)  # whole planes: OpenCV reads strided channel views slowly
    score = cv2.multiply(sat, hi, scale=1.0 / 255)
    _, bright = cv2.threshold(hi, cfg.back_min_value - 1, 255, cv2.THRESH_BINARY)
    return cv2.bitwise_and(score, bright)  # 0 where darker than back_min_value


def contrast_map(gray: np.ndarray, block: int) -> np.ndarray:
    """Local contrast ``uint8 (H, W)``: 128 plus the grey level above its ``block`` box mean.

    A face is brighter than the dark outline and shadow around it even when it
    is no brighter than the table itself (ivory on pale wood); thresholding
    this map a few steps above 128 is an adaptive threshold.
    """
    mean = cv2.blur(gray, (block, block), borderType=cv2.BORDER_REPLICATE)
    if gray.dtype == np.uint8:
        # Whole numbers in float arithmetic, saturated to 8 bits: clip(gray - mean + 128).
        return cv2.addWeighted(gray, 1.0, mean, -1.0, 128.0)
    d = gray.astype(np.int16) - mean.astype(np.int16) + 128
    return np.clip(d, 0, 255).astype(np.uint8)


def smooth_map(gray: np.ndarray, cfg: MapConfig = MapConfig()) -> np.ndarray:
    """Smoothness ``uint8 (H, W)``: high where the grey level barely changes.

    A face is a smooth plate bounded by strong edges (its outline, the seam to
    the next tile) even where it is no brighter than the table, e.g. ivory
    tiles on light wood. The gradient is scaled by a high percentile of its
    own values so that the map does not depend on the exposure.
    """
    g = cv2.GaussianBlur(gray, (0, 0), cfg.smooth_sigma)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.magnitude(gx, gy)
    ref = float(np.percentile(mag[::4, ::4], cfg.smooth_percentile)) or 1.0
    return np.clip(255.0 - mag * (255.0 / ref), 0, 255).astype(np.uint8)


def _whole(*values: float) -> bool:
    """True when the map formulas' float arithmetic is exact in saturating uint8 steps:
    whole, non-negative weights and offsets within 8 bits (every penalty is then >= 0,
    so clipping at each step equals clipping once)."""
    return all(float(v).is_integer() and 0 <= v <= 255 for v in values)


def _saturation(bgr: np.ndarray, hsv: np.ndarray | None = None) -> np.ndarray:
    """HSV saturation ``uint8 (H, W)`` (from ``hsv`` when given), contiguous: OpenCV copies
    a strided channel view on every call that reads it."""
    return cv2.extractChannel(cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV) if hsv is None else hsv, 1)


def threshold_levels(score: np.ndarray, cfg: LevelConfig = LevelConfig()) -> np.ndarray:
    """Evenly spaced thresholds between two percentiles of the non-black pixels (float32)."""
    percents = [cfg.low_percentile, cfg.high_percentile]
    if score.dtype == np.uint8:
        lo, hi = _u8_percentiles(score, cfg.min_valid, percents)
    else:
        valid = score[score > cfg.min_valid]
        if valid.size == 0:
            return np.zeros(0, dtype=np.float32)
        lo, hi = np.percentile(valid, percents)
    if np.isnan(lo) or hi - lo < 2:
        return np.zeros(0, dtype=np.float32)
    return np.linspace(lo, hi, cfg.levels + 2, dtype=np.float32)[1:-1]


def _u8_percentiles(score: np.ndarray, floor: int, percents: list[float]) -> np.ndarray:
    """``np.percentile(score[score > floor], percents)`` (linear method) from a histogram.

    A megapixel map has 256 grey levels: its order statistics are read from the
    cumulative histogram instead of partitioning a copy of the pixels (several
    ms per map). The interpolation is numpy's own, step for step, so the
    values are the same to the bit. NaN when no pixel is above ``floor``.
    """
    first = max(floor + 1, 0)
    if score.size < 1 << 24:  # calcHist counts in float32, exact below 2**24
        counts = cv2.calcHist([score], [0], None, [256], [0, 256]).ravel().astype(np.int64)
    else:
        counts = np.bincount(score.ravel(), minlength=256)
    counts = counts[first:]
    n = int(counts.sum())
    if n == 0:
        return np.full(len(percents), np.nan)
    v = (n - 1) * np.true_divide(np.asarray(percents, np.float64), 100)
    prev = np.clip(np.floor(v), 0, n - 1)
    nxt = np.clip(prev + 1, 0, n - 1)
    order = np.cumsum(counts)
    a = (np.searchsorted(order, prev, side="right") + first).astype(np.float64)
    b = (np.searchsorted(order, nxt, side="right") + first).astype(np.float64)
    t = v - prev
    d = b - a
    return np.where(t >= 0.5, b - d * (1 - t), a + d * t)


class LevelContours:
    """The outer contours of one score map's opened levels, each level traced once.

    The face map is thresholded at the same levels for the region proposals and for
    the standing rows' bright tops; one of these, handed to both `level_regions`
    calls, saves tracing those levels twice. A cache, so not frozen; it answers only
    for its own map and opening (`level_regions` checks).
    """

    def __init__(self, score: np.ndarray, open_kernel: int = 3) -> None:
        self.score, self.open_kernel = score, open_kernel
        self._opened: np.ndarray | None = None
        self._row_max: np.ndarray | None = None
        self._col_max: np.ndarray | None = None
        self._traced: dict[float, tuple[np.ndarray, ...]] = {}
        self._areas: dict[float, list[float]] = {}
        self._rects: dict[tuple[float, int], tuple] = {}
        self._levels: dict[LevelConfig, np.ndarray] = {}

    def levels(self, cfg: LevelConfig = LevelConfig()) -> np.ndarray:
        """`threshold_levels` of the map (the proposals and the standing rows both ask)."""
        if cfg not in self._levels:
            self._levels[cfg] = threshold_levels(self.score, cfg)
        return self._levels[cfg]

    def open(self) -> None:
        """Open the map (once): `at` does so first; two threads that share the tracing call
        this before either traces."""
        if self._opened is None:
            kernel = cv2.getStructuringElement(
                cv2.MORPH_RECT, (self.open_kernel, self.open_kernel))
            opened = cv2.morphologyEx(self.score, cv2.MORPH_OPEN, kernel)
            self._row_max = opened.max(axis=1)
            self._col_max = opened.max(axis=0)
            self._opened = opened

    def at(self, threshold: float) -> tuple[np.ndarray, ...]:
        """Outer contours of ``opened score > threshold``."""
        if threshold not in self._traced:
            self.open()
            assert self._opened is not None
            assert self._row_max is not None and self._col_max is not None
            # Only the box around every pixel above the level is thresholded and traced:
            # the contours (offset back) are the same, in the same order, and the scan of
            # the empty rest is spared (half the pixels of a level, on the median).
            rows = np.flatnonzero(self._row_max > threshold)
            if rows.size == 0:
                self._traced[threshold] = ()
                return ()
            cols = np.flatnonzero(self._col_max > threshold)
            y0, y1, x0, x1 = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
            _, binary = cv2.threshold(self._opened[y0:y1, x0:x1], threshold, 1,
                                      cv2.THRESH_BINARY)
            self._traced[threshold], _ = cv2.findContours(
                binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x0, y0))
        return self._traced[threshold]

    def areas(self, threshold: float) -> list[float]:
        """``cv2.contourArea`` of each contour `at` ``threshold`` (the proposals and the
        standing rows both filter the face levels' contours by area)."""
        if threshold not in self._areas:
            self._areas[threshold] = list(map(cv2.contourArea, self.at(threshold)))
        return self._areas[threshold]

    def rect(self, threshold: float, index: int) -> tuple:
        """``cv2.minAreaRect`` of contour ``index`` `at` ``threshold``."""
        key = (threshold, index)
        if key not in self._rects:
            self._rects[key] = cv2.minAreaRect(self.at(threshold)[index])
        return self._rects[key]


def level_regions(
    score: np.ndarray,
    thresholds: np.ndarray,
    *,
    min_area: float,
    max_area: float,
    min_rectangularity: float,
    open_kernel: int = 3,
    traced: LevelContours | None = None,
) -> list[Region]:
    """Outer contours of ``score > t`` for each threshold, filtered by size and shape.

    Each binary level is opened with a 3×3 square first, which cuts one-pixel
    bridges (wood grain, a faint seam) between regions. A flat opening commutes
    with thresholding, so the score map is opened once in grey and each level is
    thresholded from it (the same levels, one opening instead of one per level).

    Args:
        score: ``uint8 (H, W)`` score map.
        thresholds: the levels, ascending.
        min_area, max_area: contour area bounds in square pixels.
        min_rectangularity: lowest ``area / min-area-box area`` kept.
        traced: contours of this map's levels already traced, shared with other callers
            (ignored unless made for ``score`` and ``open_kernel``).
    """
    if traced is None or traced.score is not score or traced.open_kernel != open_kernel:
        traced = LevelContours(score, open_kernel)
    out: list[Region] = []
    for i, t in enumerate(thresholds):
        level = float(t)
        contours = traced.at(level)
        for j, area in enumerate(traced.areas(level)):
            if not min_area <= area <= max_area or len(contours[j]) < 4:
                continue
            c = contours[j]
            rect = traced.rect(level, j)
            box = rect[1][0] * rect[1][1]
            rectangularity = area / box if box > 0 else 0.0
            if rectangularity >= min_rectangularity:
                out.append(Region(c, rect, float(area), float(rectangularity), i))
    return out

