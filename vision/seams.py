"""Seam and ink profiles across a rectified region: where one tile ends and the next begins.

Each function reads a `agari.vision.frames.Frame` along one axis and returns a
value per line across that axis:

- seam strength: a low percentile of the line's darkness against the faces
  beside it (most of the line must be dark, as a seam is; an ink stroke or a
  bamboo stick darkens only part of it), capped by its darkness in the
  region's end zones, where faces keep a blank margin; lines are tried at a
  few leans for rows seen in perspective;
- ink share: strokes in the middle of the region; the band where two faces
  meet is blank, so a row's ink repeats once a tile (`period`).
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

import cv2
import numpy as np
from agari.vision.frames import Frame

if TYPE_CHECKING:
    from agari.vision.split import SplitConfig


def seam_profile(frame: Frame, axis: int, tile_short: float, cfg: SplitConfig, *,
                  lean: bool = True, bright: float | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Seam strength (0..1) and slope of the best line through each position along ``axis``.

    Lines cross the axis (axis 0: near-vertical lines at each x). Each is tried
    at a few slopes, because the seams of a row seen in perspective lean
    towards a vanishing point. A line's strength is a low percentile of its
    pixels' darkness against the faces beside them (so most of the line must be
    dark), capped by its mean darkness in the region's two end zones, where
    faces keep a blank margin and only a seam is dark.

    Returns:
        ``(strength, slope)``, float32 arrays as long as the frame along ``axis``;
        slope is the line's offset along the axis per pixel across it. With
        ``lean`` False only upright lines are tried. ``bright``: the
        `frame_brightness` along ``axis``, when the caller has it.
    """
    g, mask = _along(frame, axis)
    k = max(3, int(round(cfg.seam_kernel_frac * tile_short)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, 1))
    h, w = g.shape
    steps = min(cfg.max_slope_steps, int(math.ceil(cfg.max_slope * h / max(cfg.seam_tolerance, 2))))
    steps = steps if lean else 0
    slopes, upright = _slopes(float(cfg.max_slope), steps)
    # All slopes at once: each shear is written into one stack, and one partition and
    # one mean per end zone serve every slope (numpy calls, not pixels, cost most here).
    sheared = np.empty((len(slopes), h, w), np.float32)
    black = cv2.morphologyEx(g, cv2.MORPH_BLACKHAT, kernel)
    bright = face_brightness(g, mask > 0) if bright is None else bright
    cap = cfg.seam_clip * max(bright, 1.0)
    written = -1  # the slot of the stack that already holds the upright lines
    if black.dtype == np.uint8 and upright >= 0:
        # One look-up per pixel, written straight into the upright slot of the stack: the
        # clipped share of each grey level, by the same float32 steps as a float frame's.
        written = upright
        slot = sheared[written]
        dark = cv2.LUT(black, _clipped_shares(cap), dst=slot)
        if dark is not slot:  # OpenCV wrote elsewhere (it returns ``dst`` itself when used)
            written = -1
    else:
        dark = np.minimum(black.astype(np.float32), cap) / cap
    dark[mask == 0] = 1.0  # background: a gap across the whole line is a perfect seam
    if cfg.seam_tolerance > 1:
        # Widen by a pixel so that a line slightly off the seam still finds it.
        dark = cv2.dilate(dark, np.ones((1, cfg.seam_tolerance), np.uint8))
        written = -1
    zone = max(1, int(round(cfg.margin_zone * h)))
    rows = _sample_rows(h)
    kth = int(cfg.seam_percentile / 100.0 * (len(rows) - 1))
    for i, m in enumerate(_shears(float(cfg.max_slope), steps, h)):
        if m is None:  # upright lines: the warp would copy every pixel where it is
            if i != written:
                sheared[i] = dark
            continue
        cv2.warpAffine(dark, m, (w, h), dst=sheared[i],
                       flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
                       borderMode=cv2.BORDER_REPLICATE)
    # Lines last (contiguous): numpy sorts a contiguous axis far faster. Sorted, not
    # partitioned: the k-th value is the same, and numpy's vectorised sort of a line's 32
    # values took half the time of its partition (9 slopes of 1337 lines: 0.95 -> 0.51 ms).
    picked = sheared if len(rows) == h else sheared[:, rows]  # a short frame reads every row
    lines = np.ascontiguousarray(picked.transpose(0, 2, 1))
    strength = np.sort(lines, axis=2)[..., kth]  # a copy: ``lines`` may be ``sheared`` itself
    if cfg.margin_zone:
        ends = np.minimum(_mean_rows(sheared[:, :zone]), _mean_rows(sheared[:, h - zone:]))
        strength = np.minimum(strength, ends)
    pick = strength.argmax(axis=0)  # the first of equally strong slopes, in the order tried
    return strength[pick, np.arange(w)], slopes[pick].astype(np.float32)


@functools.lru_cache(maxsize=1024)
def _clipped_shares(cap: float) -> np.ndarray:
    """``min(level, cap) / cap`` in float32 for each grey level 0..255: `seam_profile`'s
    darkness of a black-hat level, the same float32 steps on a table instead of a frame
    (read-only and kept: a frame's cap comes of a grey level, so few are ever asked)."""
    out = np.minimum(np.arange(256, dtype=np.float32), cap) / cap
    out.flags.writeable = False
    return out


@functools.cache
def _slopes(max_slope: float, steps: int) -> tuple[np.ndarray, int]:
    """The leans `seam_profile` tries (read-only), and the index of upright among them (-1
    if none): made once per count, not per frame."""
    slopes = np.linspace(-max_slope, max_slope, 2 * steps + 1) if steps else np.zeros(1)
    slopes.flags.writeable = False
    upright = np.flatnonzero(slopes == 0.0)
    return slopes, int(upright[0]) if len(upright) else -1


@functools.lru_cache(maxsize=4096)
def _shears(max_slope: float, steps: int, h: int) -> tuple[np.ndarray | None, ...]:
    """`seam_profile`'s inverse warp for each lean of `_slopes` in a frame ``h`` rows high
    (None for upright): read-only and kept, each height recurs."""
    yc = (h - 1) / 2.0
    out = []
    for slope in _slopes(max_slope, steps)[0]:
        if slope == 0.0:
            out.append(None)
            continue
        m = np.array([[1.0, slope, -slope * yc], [0.0, 1.0, 0.0]])
        m.flags.writeable = False
        out.append(m)
    return tuple(out)


def _mean_rows(stack: np.ndarray) -> np.ndarray:
    """``stack.mean(axis=1)`` of a float32 ``(S, rows, w)`` stack, to the bit, without the
    wrapper (numpy's mean: a sum, divided in place by the count as its integer type)."""
    total = np.add.reduce(stack, axis=1)
    return np.true_divide(total, np.intp(stack.shape[1]), out=total, casting="unsafe")


def _along(frame: Frame, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """The frame's grey image and mask with ``axis`` as their columns."""
    return (frame.gray.T, frame.mask.T) if axis == 1 else (frame.gray, frame.mask)


def frame_brightness(frame: Frame, axis: int) -> float:
    """`face_brightness` of a frame read along ``axis`` (the seam and ink profiles share it)."""
    g, mask = _along(frame, axis)
    return face_brightness(g, mask > 0)


def face_brightness(g: np.ndarray, inside: np.ndarray) -> float:
    """The faces' brightness in a frame: the 90th percentile of the pixels inside (sampled)."""
    v = g[inside][::3]
    if v.size == 0:
        return 255.0
    k = int(0.9 * (v.size - 1))
    if v.dtype == np.uint8:
        # The k-th smallest grey level read off the counts of each level (a quarter less
        # time than partitioning a copy, on the recorded frames).
        return float(np.searchsorted(np.cumsum(np.bincount(v, minlength=256)), k, side="right"))
    return float(np.partition(v, k)[k])


SEAM_ROWS = 32
"""A seam's percentile is read on at most this many evenly spaced rows: enough to tell a
seam that runs the whole line from a stroke."""


@functools.lru_cache(maxsize=4096)
def _sample_rows(h: int, max_rows: int = SEAM_ROWS) -> np.ndarray:
    """Indices of at most ``max_rows`` evenly spaced rows of ``h`` (read-only and kept: frames
    are a few hundred rows high at most, and each height recurs)."""
    rows = np.arange(h) if h <= max_rows else np.linspace(0, h - 1, max_rows).astype(int)
    rows.flags.writeable = False
    return rows


def smooth_leans(positions: list[int], slope: np.ndarray, seam: np.ndarray) -> np.ndarray:
    """The seams' leans along a row, fitted as a straight line in the position.

    Seen in perspective, a row's seams lean towards one vanishing point, so the
    lean changes linearly along the row; a weighted least-squares line (weights:
    seam strength) keeps one faint seam from leaning the wrong way.
    """
    p = np.asarray(positions, np.float64)
    s = slope[positions].astype(np.float64)
    w = np.maximum(seam[positions].astype(np.float64), 0.05)
    if len(p) < 3:
        return np.full(len(p), float(np.average(s, weights=w)))
    a = np.stack([np.ones_like(p), p - p.mean()], axis=1) * np.sqrt(w)[:, None]
    coef, *_ = np.linalg.lstsq(a, s * np.sqrt(w), rcond=None)
    lo, hi = float(slope.min()), float(slope.max())
    return np.clip(coef[0] + coef[1] * (p - p.mean()), lo, hi)


def ink_profile(frame: Frame, axis: int, tile_short: float, cfg: SplitConfig, *,
                bright: float | None = None) -> np.ndarray:
    """Share of ink (symbol strokes) on each line across ``axis``, in the middle of the region.

    Ink sits in the middle of every face; the band where two faces meet is
    blank (two margins and the seam), so a row's ink comes and goes once per tile.
    ``bright``: the `frame_brightness` along ``axis``, when the caller has it.
    """
    g, mask = _along(frame, axis)
    k = max(3, int(round(cfg.ink_kernel_frac * tile_short)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    dark = cv2.morphologyEx(g, cv2.MORPH_BLACKHAT, kernel)
    bright = face_brightness(g, mask > 0) if bright is None else bright
    # The level in float32, as the float frames this was tuned on compared it.
    level = np.float32(cfg.ink_darkness * bright)
    h = dark.shape[0]
    z = int(cfg.margin_zone * h)
    band = slice(z, max(z + 1, h - z))  # only the middle of the region is read
    if dark.dtype == np.uint8 and len(dark[band]) > 0 and math.isfinite(level):
        # Whole grey levels at or above the float32 level are those at or above its ceiling:
        # an integer comparison, and counts for the mean of the band's lines.
        ink = dark[band] >= min(max(math.ceil(float(level)), 0), 256)
        ink &= mask[band] > 0
        return (np.count_nonzero(ink, axis=0) / len(ink)).astype(np.float32)
    ink = (dark >= level) & (mask > 0)
    return ink[band].mean(axis=0).astype(np.float32)


def blank(ink: np.ndarray, tile_short: float, cfg: SplitConfig) -> np.ndarray:
    """1 where a cut would cross no ink within a few pixels, falling to 0 as ink appears."""
    r = max(1, int(round(cfg.blank_band * tile_short)))
    near = cv2.dilate(ink.reshape(1, -1), np.ones((1, 2 * r + 1), np.uint8)).ravel()
    return np.clip(1.0 - near / cfg.ink_full, 0.0, 1.0).astype(np.float32)


SEAM_INK = 0.9
"""A line whose middle is this much ink is a seam (symbols leave gaps)."""


def band_centre(ink: np.ndarray, tile_short: float, cfg: SplitConfig) -> np.ndarray:
    """`blank` averaged over a band as wide as two faces' margins: highest in the middle
    of a blank band between two faces, where their seam is. A line dark from end to end
    is that seam, not a symbol: it does not spoil the band."""
    r = max(1, int(round(cfg.blank_band * tile_short)))
    b = blank(np.where(ink >= SEAM_INK, 0.0, ink).astype(np.float32), tile_short, cfg)
    b = b.reshape(1, -1)
    return cv2.blur(b, (2 * r + 1, 1), borderType=cv2.BORDER_REPLICATE).ravel()


def period(ink: np.ndarray, lo: float, hi: float, min_corr: float
            ) -> tuple[float, float] | None:
    """``(lag, correlation)``: the lag in ``[lo, hi]`` at which the ink profile best
    repeats itself, if clearly."""
    x = ink - ink.mean()
    n = len(x)
    energy = float(x @ x)
    lo_i, hi_i = max(2, int(math.floor(lo))), min(n // 2, int(math.ceil(hi)))
    if energy <= 1e-9 or hi_i <= lo_i:
        return None
    ac = np.correlate(x, x, mode="full")[n - 1:]
    lags = np.arange(lo_i, hi_i + 1)
    r = ac[lags] / energy * n / (n - lags)  # unbiased: longer lags overlap less
    j = int(np.argmax(r))
    if r[j] < min_corr:
        return None
    lag = float(lags[j])
    if 0 < j < len(r) - 1:  # parabolic refinement around the peak
        den = r[j - 1] - 2 * r[j] + r[j + 1]
        if den < 0:
            lag += 0.5 * (r[j - 1] - r[j + 1]) / den
    return lag, float(r[j])
