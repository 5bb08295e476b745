"""Working scale: a quick, small look at how big the tiles are, then work at a scale to suit.

Every threshold of the locator is tuned for tiles about `ScaleConfig.target_long`
pixels long. A quick probe on a small copy of the photo finds tile-shaped
regions (and rows of standing tiles); the working scale brings the smaller
tiles among them to the target length, but never above `max_pixels`. A photo
of big tiles is thus worked on small (fast); a table of small tiles keeps its
resolution. Where asked (`ScaleConfig.max_upscale`), a small photo (a
phone's reduced copy) whose tiles are much shorter than the target is
enlarged, within `max_pixels`: the seams and edge windows are tuned in
pixels, and tiles under 40 pixels long lose them (a 960×720 copy of the real
table photo read 1 of its 13 hand tiles, enlarged 11; 100 renders at 960×540:
797 hand tiles missed instead of 834). It is not the default: on tile-free
photos the probe takes keycaps and print for tiny tiles, and enlarged, more of
them pass as tiles (real tray photos: 0.49 false tiles per tile-free photo
instead of 0.23). Nor is it always a gain: flat drawn tiles 14-16 px wide (the
unit tests' rows) are found a little less often enlarged (31-38 of 42 against
42). Without any tile-like region in the probe
(or with too few alike to trust) the photo is worked on at the largest
allowed size, never enlarged.
"""

from __future__ import annotations

import math
from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import dataclass

import cv2
import numpy as np
from agari.vision.memo_scope import memo_scope
from agari.vision.regions import (
    LevelConfig,
    contrast_map,
    face_map,
    level_regions,
    threshold_levels,
)

AREA_PIXELS = 1.2e6
"""Below this size the last resize step averages areas; above, it is bilinear (faster)."""


@dataclass(frozen=True, slots=True)
class ScaleConfig:
    """Probe and target sizes (pixels)."""

    target_long: float = 64.0
    """Tiles' long side at the working scale."""
    probe_pixels: float = 0.3e6
    """Size of the probe copy."""
    probe_levels: int = 8
    min_probe_long: float = 9.0
    """Regions shorter than this in the probe are too small to tell a tile from noise."""
    percentile: float = 25.0
    """Which tile length sets the scale: a low percentile favours the smaller tiles."""
    min_agree: int = 5
    """Regions of about the same length needed before the probe is trusted."""
    agree: float = 1.25
    """Lengths within this factor of each other are about the same."""
    min_work_side: int = 240
    """The working image's shorter side is at least this (or the photo's own)."""
    max_upscale: float = 1.0
    """Small tiles in a small photo are enlarged at most this much (1, the default, never
    enlarges; `agari.vision.locate.HAND_LOCATE` enlarges up to 2)."""
    enlarge_below: float = 40.0
    """Only tiles shorter than this are enlarged: tiles a little short of the target read
    as well as they are."""


def shrink(image: np.ndarray, scale: float, *, area_pixels: float = AREA_PIXELS) -> np.ndarray:
    """Resize by ``scale``: down by halvings with ``pyrDown`` first, then bilinear; up
    (``scale`` > 1) bicubic, which keeps a seam a seam; 1 returns ``image`` itself.

    Area averaging straight from a large photo is slow (tens of ms for a few
    megapixels); each Gaussian halving is cheap and keeps thin seams from
    aliasing, and the last step, less than a halving, is fair for bilinear on
    big images (area averaging on smaller ones: up to ``area_pixels``).
    """
    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    if scale >= 1.0:
        return image if size == (w, h) else cv2.resize(image, size,
                                                       interpolation=cv2.INTER_CUBIC)
    out = image
    while out.shape[1] >= 2 * size[0] and out.shape[0] >= 2 * size[1]:
        out = cv2.pyrDown(out)
    if out.shape[1] == size[0] and out.shape[0] == size[1]:
        return out
    # Area averaging is best but slow on big images; under `area_pixels` it costs little.
    area = out.shape[0] * out.shape[1] <= area_pixels
    return cv2.resize(out, size, interpolation=cv2.INTER_AREA if area else cv2.INTER_LINEAR)


def pixel_scale(height: int, width: int, max_pixels: float) -> float:
    """Downscale factor (≤ 1) that brings ``height × width`` under ``max_pixels``."""
    pixels = float(height) * float(width)
    return 1.0 if pixels <= max_pixels else math.sqrt(max_pixels / pixels)


_probes: ContextVar[dict | None] = ContextVar("agari_probes", default=None)
"""The probes `remembered_probes` keeps: ``(id(bgr), cfg) -> (bgr, (lengths, scale))``."""


def remembered_probes() -> AbstractContextManager[None]:
    """Within it, `probe_lengths` measures each photo array once per `ScaleConfig` (on this
    thread): a photo read again at other working-size caps (`agari.pipeline`'s retries)
    is probed the same way each time, as the probe ignores the cap. The arrays are held
    until the block ends (an id is not reused meanwhile) and must not change within it."""
    return memo_scope(_probes)


def probe_lengths(bgr: np.ndarray, cfg: ScaleConfig = ScaleConfig()) -> tuple[np.ndarray, float]:
    """Long sides of tile-like regions in a small copy of the photo.

    Returns:
        ``(lengths, probe_scale)``: float32 lengths in the probe's pixels and the
        probe's scale relative to ``bgr`` (read-only where `remembered_probes` keeps it).
    """
    memo = _probes.get()
    if memo is None:
        return _probe_lengths(bgr, cfg)
    key = (id(bgr), cfg)
    kept = memo.get(key)
    if kept is None or kept[0] is not bgr:
        lengths, s = _probe_lengths(bgr, cfg)
        lengths.flags.writeable = False
        kept = memo[key] = (bgr, (lengths, s))
    return kept[1]


def _probe_lengths(bgr: np.ndarray, cfg: ScaleConfig) -> tuple[np.ndarray, float]:
    """`probe_lengths`, measured."""
    h, w = bgr.shape[:2]
    s = pixel_scale(h, w, cfg.probe_pixels)
    # Bilinear after the halvings: the probe only measures tiles, and area averaging cost
    # twice the rest of the shrink (4 of 6 ms CPU on a 1080p photo).
    small = shrink(bgr, s, area_pixels=0.0)
    score, gray = face_map(small)
    levels = threshold_levels(score, LevelConfig(levels=cfg.probe_levels))
    kw = {"min_area": cfg.min_probe_long ** 2 * 0.5, "max_area": 0.25 * score.size,
          "min_rectangularity": 0.8}
    regions = level_regions(score, levels, **kw)
    block = max(15, int(min(gray.shape) * 0.05) | 1)
    regions += level_regions(contrast_map(gray, block), 128.0 + np.float32([4, 10]), **kw)
    found: list[tuple[float, float, float]] = []  # centre x, y and length of distinct objects
    for r in regions:
        if 0.5 <= r.aspect <= 0.95 and r.rectangularity >= 0.85:
            length = r.long_side
        elif r.aspect < 0.4 and r.rectangularity >= 0.85:
            length = r.short_side  # a row of upright tiles: its height
        else:
            continue
        (cx, cy), _, _ = r.rect
        # The same object found again at another level counts once.
        if length >= cfg.min_probe_long and not any(
                math.hypot(cx - x, cy - y) < 0.5 * max(length, v) for x, y, v in found):
            found.append((cx, cy, length))
    return np.array([v for _, _, v in found], np.float32), s


def _typical(lengths: np.ndarray, cfg: ScaleConfig) -> float | None:
    """A low percentile of the lengths that have company: at least `min_agree` regions
    within `agree` of them. Tiles come in numbers; a stray rectangle does not."""
    if len(lengths) < cfg.min_agree:
        return None
    ratio = lengths[:, None] / lengths[None, :]
    company = ((ratio <= cfg.agree) & (ratio >= 1 / cfg.agree)).sum(axis=1)
    good = lengths[company >= cfg.min_agree]
    return float(np.percentile(good, cfg.percentile)) if len(good) else None


def choose_scale(bgr: np.ndarray, max_pixels: float, cfg: ScaleConfig = ScaleConfig()) -> float:
    """The working scale for a photo: within ``max_pixels``; above 1 (at most
    ``cfg.max_upscale``) only where the probe found tiles shorter than ``cfg.enlarge_below``."""
    h, w = bgr.shape[:2]
    cap = pixel_scale(h, w, max_pixels)
    lengths, s = probe_lengths(bgr, cfg)
    long_px = _typical(lengths, cfg)
    if long_px is None:
        return cap
    long_px /= s
    limit = cap
    if long_px < cfg.enlarge_below:  # small tiles: room to enlarge a small photo
        limit = max(cap, min(cfg.max_upscale, math.sqrt(max_pixels / (float(h) * float(w)))))
    scale = min(limit, cfg.target_long / long_px)
    floor = min(1.0, cfg.min_work_side / min(h, w))
    return max(scale, min(floor, cap))
