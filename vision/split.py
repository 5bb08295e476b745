"""Split a region of touching tiles (a row, a meld, a tray grid) into single tiles.

A region is rectified by its min-area box. Along each side, the cut positions
are chosen by dynamic programming over a seam profile: every segment must be
one tile wide (upright, or a sideways tile's length, which costs a little
more), and the cuts should fall on dark seams. For a grid the axis whose cuts
are clearest goes first (the straight seams between rows); each strip is then
re-fitted and split again, so staggered and slightly curved rows come apart
cleanly and a row's perspective is followed.

Seam strength of a line is how much darker the line is than the face brightness
next to it (a black-hat across the line), taken as a low percentile along the
line so that the line must be dark over most of its length: an ink stroke or a
bamboo stick darkens only part of it. A gap in the region's mask (tiles that do
not quite touch) counts as a full seam.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from agari.vision.quads import fit_quad


@dataclass(frozen=True, slots=True)
class TileSize:
    """Apparent tile face size in working pixels (short and long side)."""

    short: float
    long: float

    def __post_init__(self) -> None:
        if not 0 < self.short <= self.long:
            raise ValueError(f"tile size needs 0 < short <= long, got {self.short}, {self.long}")


@dataclass(frozen=True, slots=True)
class SplitConfig:
    """Tuning of the splitter."""

    max_tiles: int = 40
    """A region longer than this many tiles is not a tile group (a table rim, paper)."""
    one_tile: float = 1.32
    """A box within this factor of the tile size on both sides is one tile."""
    min_fraction: float = 0.6
    """Pieces shorter than this fraction of the tile's short side are fragments, dropped."""
    min_cut_length: float = 1.6
    """Sides shorter than this many tile short sides are not cut across."""
    width_tolerance: float = 0.28
    """A segment may be this much shorter or longer than the tile extent."""
    width_penalty: float = 0.5
    """DP cost per unit of |log(segment width / tile extent)|."""
    alt_width_cost: float = 0.15
    """Extra DP cost of a segment of the other extent (a sideways tile in a row)."""
    cut_cost: float = 0.08
    """DP cost of each cut, so that cuts need some seam to pay for themselves."""
    end_slack: float = 0.2
    """The first and last cut may leave this share of a tile unused at the region's ends."""
    bins_per_tile: int = 7
    """Resolution of the DP: bins across one tile's short side."""
    seam_kernel_frac: float = 0.25
    """Black-hat length across a seam, as a fraction of the tile's short side."""
    seam_clip: float = 0.25
    """Darkness is clipped at this share of the face brightness."""
    seam_percentile: float = 30.0
    """Seam strength is this percentile of darkness along the line (most of it must be dark)."""
    seam_tolerance: int = 1
    """Lines find seams within this many pixels (the dark map is widened by it)."""
    max_slope: float = 0.2
    """Steepest lean of a seam tried, pixels along per pixel across (perspective)."""
    max_slope_steps: int = 4
    """At most this many slopes each side of upright."""
    ink_weight: float = 0.5
    """Weight of a blank band (no ink near the cut) in a cut's strength; 0 ignores ink."""
    ink_kernel_frac: float = 0.35
    """Strokes narrower than this share of the tile's short side count as ink."""
    ink_darkness: float = 0.2
    """Ink is at least this share of the face brightness darker than its surroundings."""
    ink_full: float = 0.3
    """A line this much covered by ink is not blank at all."""
    blank_band: float = 0.06
    """A cut must be clear of ink within this share of a tile on each side."""
    period_range: tuple[float, float] = (0.45, 1.1)
    """Tile widths tried for a row's repeat, as shares of the row's height."""
    min_period_corr: float = 0.3
    """Autocorrelation needed to trust a row's repeat."""
    period_tolerance: float = 0.1
    sure_period_corr: float = 0.5
    """A repeat this clear is the only width tried for the row."""
    period_alt_cost: float = 0.35
    """DP cost of a sideways tile in a row with a clear repeat."""
    """Segment widths may differ this much from a row's repeat (perspective)."""
    margin_zone: float = 0.14
    """Share of the line at each end of a region where faces are blank (0 disables the test)."""
    pad: int = 2
    """Pixels of margin around a rectified region."""


@dataclass(frozen=True, slots=True)
class Piece:
    """One tile cut out of a region.

    Attributes:
        quad: float32 ``(4, 2)`` corners in working pixels, unordered.
        fill: the piece's area over its min-area box's (1 for a clean rectangle).
        seam: weakest seam strength of the cuts that made it (1.0 when uncut).
        cuts: number of cuts on the way from the region to this piece.
    """

    quad: np.ndarray
    fill: float
    seam: float
    cuts: int


@dataclass(frozen=True, slots=True)
class _Frame:
    """A region rectified: image → frame homography and the frame images."""

    to_frame: np.ndarray  # float64 (3, 3)
    gray: np.ndarray  # float32 (h, w)
    mask: np.ndarray  # uint8 (h, w), 1 inside the region
    width: float  # box side along the frame's x
    height: float


def fits_one(width: float, height: float, size: TileSize, cfg: SplitConfig) -> bool:
    """True when a ``width × height`` box is one tile (either way round) within `one_tile`."""
    lim = math.log(cfg.one_tile)
    for ex, ey in ((size.short, size.long), (size.long, size.short)):
        if abs(math.log(width / ex)) <= lim and abs(math.log(height / ey)) <= lim:
            return True
    return False


def split_region(
    gray: np.ndarray, contour: np.ndarray, size: TileSize, cfg: SplitConfig = SplitConfig()
) -> list[Piece]:
    """Cut a region into tile pieces.

    Args:
        gray: ``uint8 (H, W)`` working image.
        contour: int32 ``(N, 1, 2)`` outer contour of the region.
        size: expected tile size near this region.

    Returns:
        The pieces; empty when the region is a fragment, far too long, or no
        whole number of tiles fits it.
    """
    out: list[Piece] = []
    stack: list[tuple[np.ndarray, float, int]] = [(contour, 1.0, 0)]
    while stack:
        c, seam, cuts = stack.pop()
        rect = cv2.minAreaRect(c)
        w, h = rect[1]
        if min(w, h) < cfg.min_fraction * size.short or max(w, h) > cfg.max_tiles * size.long:
            continue
        if fits_one(w, h, size, cfg):
            box = w * h
            fill = cv2.contourArea(c) / box if box > 0 else 0.0
            out.append(Piece(fit_quad(c), float(fill), seam, cuts))
            continue
        if cuts > 2 * cfg.max_tiles:
            continue
        frame = _rectify(gray, c, rect, cfg.pad)
        plan = _plan(frame, size, cfg)
        if plan is None:
            continue
        axis, positions, strength = plan
        for part in _cut(frame, axis, positions):
            stack.append((part, min(seam, strength), cuts + 1))
    return out


ROW_ASPECT = 0.5
"""A region thinner than this (short over long side) is a single row of tiles."""


def _rectify(gray: np.ndarray, contour: np.ndarray, rect: tuple, pad: int) -> _Frame:
    """Warp a region upright: by its outline's four corners when it has them (a row or
    a tray seen in perspective becomes a rectangle, its seams upright), else by its
    min-area box."""
    (cx, cy), (w, h), ang = rect
    t = math.radians(ang)
    cos, sin = math.cos(t), math.sin(t)
    # Frame x runs along the box's width direction (cos, sin), y along (-sin, cos).
    m = np.array([[cos, sin, -(cos * cx + sin * cy)], [-sin, cos, -(-sin * cx + cos * cy)],
                  [0.0, 0.0, 1.0]])
    # Only a single row is warped by its corners: a grid's outline is too ragged to trust.
    corners = _corners(contour, m) if min(w, h) < ROW_ASPECT * max(w, h) else None
    if corners is None:
        fw, fh = int(math.ceil(w)) + 2 * pad, int(math.ceil(h)) + 2 * pad
        to_frame = np.array([[1.0, 0, fw / 2], [0, 1.0, fh / 2], [0, 0, 1.0]]) @ m
    else:
        tl, tr, br, bl = corners
        w = float(np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2
        h = float(np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
        fw, fh = int(math.ceil(w)) + 2 * pad, int(math.ceil(h)) + 2 * pad
        dst = np.float32([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]])
        to_frame = cv2.getPerspectiveTransform(np.float32(corners), dst).astype(np.float64)
    g = cv2.warpPerspective(gray, to_frame, (fw, fh), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    pts = cv2.perspectiveTransform(contour.reshape(-1, 1, 2).astype(np.float64), to_frame)
    mask = np.zeros((fh, fw), np.uint8)
    cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 1)
    return _Frame(to_frame, g.astype(np.float32), mask, float(w), float(h))


def _corners(contour: np.ndarray, m: np.ndarray) -> np.ndarray | None:
    """The outline's four corners TL, TR, BR, BL (image pixels) in the box frame ``m``,
    or None when the outline is no clean quadrilateral."""
    quad = fit_quad(contour).astype(np.float64)
    q = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), m).reshape(4, 2)
    by_y = np.argsort(q[:, 1])
    top, bottom = by_y[:2], by_y[2:]
    tl, tr = top[np.argsort(q[top, 0])]
    bl, br = bottom[np.argsort(q[bottom, 0])]
    order = [tl, tr, br, bl]
    if len(set(order)) < 4 or not cv2.isContourConvex(np.float32(q[order]).reshape(-1, 1, 2)):
        return None
    return quad[order]


def _seam_profile(frame: _Frame, axis: int, tile_short: float, cfg: SplitConfig, *,
                  lean: bool = True) -> tuple[np.ndarray, np.ndarray]:
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
        ``lean`` False only upright lines are tried.
    """
    g, mask = frame.gray, frame.mask
    if axis == 1:
        g, mask = g.T, mask.T
    k = max(3, int(round(cfg.seam_kernel_frac * tile_short)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, 1))
    dark = cv2.morphologyEx(g, cv2.MORPH_BLACKHAT, kernel)
    inside = mask > 0
    bright = _bright(g, inside)
    cap = cfg.seam_clip * max(bright, 1.0)
    dark = np.minimum(dark, cap) / cap
    dark[~inside] = 1.0  # background: a gap across the whole line is a perfect seam
    if cfg.seam_tolerance > 1:
        # Widen by a pixel so that a line slightly off the seam still finds it.
        dark = cv2.dilate(dark, np.ones((1, cfg.seam_tolerance), np.uint8))
    h = dark.shape[0]
    steps = min(cfg.max_slope_steps, int(math.ceil(cfg.max_slope * h / max(cfg.seam_tolerance, 2))))
    steps = steps if lean else 0
    slopes = np.linspace(-cfg.max_slope, cfg.max_slope, 2 * steps + 1) if steps else np.zeros(1)
    zone = max(1, int(round(cfg.margin_zone * h)))
    best = np.full(dark.shape[1], -1.0, np.float32)
    best_slope = np.zeros(dark.shape[1], np.float32)
    yc = (h - 1) / 2.0
    for slope in slopes:
        m = np.array([[1.0, slope, -slope * yc], [0.0, 1.0, 0.0]])
        sheared = cv2.warpAffine(dark, m, (dark.shape[1], h),
                                 flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
                                 borderMode=cv2.BORDER_REPLICATE)
        strength = _low_percentile(sheared, cfg.seam_percentile)
        if cfg.margin_zone:
            head = sheared[:zone].mean(axis=0)
            tail = sheared[h - zone:].mean(axis=0)
            strength = np.minimum(strength, np.minimum(head, tail))
        better = strength > best
        best[better] = strength[better]
        best_slope[better] = slope
    return best, best_slope


def _bright(g: np.ndarray, inside: np.ndarray) -> float:
    """The faces' brightness in a frame: the 90th percentile of the pixels inside (sampled)."""
    v = g[inside][::3]
    if v.size == 0:
        return 255.0
    k = int(0.9 * (v.size - 1))
    return float(np.partition(v, k)[k])


def _low_percentile(a: np.ndarray, q: float, max_rows: int = 32) -> np.ndarray:
    """Per-column ``q``-th percentile (no interpolation) of ``a``, on at most ``max_rows``
    evenly spaced rows: enough to tell a seam that runs the whole line from a stroke."""
    if len(a) > max_rows:
        a = a[np.linspace(0, len(a) - 1, max_rows).astype(int)]
    k = int(q / 100.0 * (len(a) - 1))
    return np.partition(a, k, axis=0)[k]


def _plan(frame: _Frame, size: TileSize, cfg: SplitConfig
          ) -> tuple[int, list[tuple[int, float]], float] | None:
    """The clearest set of cuts across one axis: ``(axis, [(position, slope)], weakest seam)``.

    Both axes are tried, each with the upright extent first and the other as
    the costlier alternative; the plan whose cuts have the strongest mean seam
    wins.
    """
    best: tuple[float, int, list[tuple[int, float]], float] | None = None
    for axis, length in ((0, frame.width), (1, frame.height)):
        if length < cfg.min_cut_length * size.short:
            continue
        # Only a single row leans as a whole (a standing hand seen in perspective);
        # the seams of a grid seen from above run straight.
        across = frame.height if axis == 0 else frame.width
        row = across <= cfg.one_tile * size.long
        seam, slope = _seam_profile(frame, axis, size.short, cfg, lean=row)
        widths = [(size.short, size.long, cfg.width_tolerance, 0.0),
                  (size.long, size.short, cfg.width_tolerance, 0.0)]
        guide = seam
        if cfg.ink_weight:
            # Blank bands guide where a cut goes but are no evidence of a tile edge
            # (a plain table is blank everywhere): strengths stay the seams' own.
            ink = _ink_profile(frame, axis, size.short, cfg)
            guide = seam + cfg.ink_weight * _blank(ink, size.short, cfg)
            found = _period(ink, cfg.period_range[0] * across, cfg.period_range[1] * across,
                            cfg.min_period_corr) if row else None
            if found is not None:
                # A row of alike tiles repeats its ink once a tile: trust that width,
                # and the repeat itself is evidence that these are tiles. A clear
                # repeat is the only width tried; a sideways tile costs more there.
                period = (found[0], across, cfg.period_tolerance, found[1])
                widths = [period] if found[1] >= cfg.sure_period_corr else [period, *widths]
        for main, alt, tol, repeat in widths:
            found_cuts = _dp_cuts(guide, float(cfg.pad), cfg.pad + length, main, alt,
                                  size.short, cfg, tolerance=tol,
                                  alt_cost=cfg.period_alt_cost if repeat else None)
            if found_cuts is None:
                continue
            positions, gains = found_cuts
            mean = float(np.mean(gains))
            if best is None or mean > best[0]:
                leans = _smooth_leans(positions, slope, seam) if row else slope[positions]
                cuts = [(p, float(v)) for p, v in zip(positions, leans, strict=True)]
                strength = max(float(np.min(seam[positions])), repeat)
                best = (mean, axis, cuts, strength)
    return None if best is None else best[1:]


def _smooth_leans(positions: list[int], slope: np.ndarray, seam: np.ndarray) -> np.ndarray:
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


def _ink_profile(frame: _Frame, axis: int, tile_short: float, cfg: SplitConfig) -> np.ndarray:
    """Share of ink (symbol strokes) on each line across ``axis``, in the middle of the region.

    Ink sits in the middle of every face; the band where two faces meet is
    blank (two margins and the seam), so a row's ink comes and goes once per tile.
    """
    g, mask = frame.gray, frame.mask
    if axis == 1:
        g, mask = g.T, mask.T
    k = max(3, int(round(cfg.ink_kernel_frac * tile_short)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    dark = cv2.morphologyEx(g, cv2.MORPH_BLACKHAT, kernel)
    inside = mask > 0
    bright = _bright(g, inside)
    ink = (dark >= cfg.ink_darkness * bright) & inside
    h = ink.shape[0]
    z = int(cfg.margin_zone * h)
    return ink[z:max(z + 1, h - z)].mean(axis=0).astype(np.float32)


def _blank(ink: np.ndarray, tile_short: float, cfg: SplitConfig) -> np.ndarray:
    """1 where a cut would cross no ink within a few pixels, falling to 0 as ink appears."""
    r = max(1, int(round(cfg.blank_band * tile_short)))
    near = cv2.dilate(ink.reshape(1, -1), np.ones((1, 2 * r + 1), np.uint8)).ravel()
    return np.clip(1.0 - near / cfg.ink_full, 0.0, 1.0).astype(np.float32)


def _period(ink: np.ndarray, lo: float, hi: float, min_corr: float
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


def _bin_peaks(prof: np.ndarray, start: float, b: float, bins: int) -> np.ndarray:
    """Index of the strongest line in each of ``bins`` bins of width ``b`` centred at
    ``start + k b`` (a bin outside the profile takes its nearest line)."""
    idx = np.arange(len(prof))
    which = np.floor((idx - start) / b + 0.5).astype(int)
    inside = (which >= 0) & (which < bins)
    order = np.lexsort((-prof[inside], which[inside]))
    keys, first = np.unique(which[inside][order], return_index=True)
    peak = np.clip(np.round(start + np.arange(bins) * b).astype(int), 0, len(prof) - 1)
    peak[keys] = idx[inside][order][first]
    return peak


def _dp_cuts(prof: np.ndarray, start: float, end: float, main: float, alt: float,
             short: float, cfg: SplitConfig, *, tolerance: float | None = None,
             alt_cost: float | None = None) -> tuple[list[int], list[float]] | None:
    """Cut positions between ``start`` and ``end`` (frame pixels) by dynamic programming.

    Every segment is ``main`` (or, at a cost, ``alt``) wide within the width
    tolerance; the total seam strength at the cuts, less the costs, is maximal.

    Returns:
        ``(positions, seam strengths)`` of the inner cuts, or None when no
        whole number of segments fits or the region is one tile.
    """
    tol = cfg.width_tolerance if tolerance is None else tolerance
    # Bins fine enough that the width tolerance spans a few of them.
    b = max(1.0, min(short / cfg.bins_per_tile, main * tol / 1.5))
    n = int(round((end - start) / b))
    if n < 2:
        return None
    peak = _bin_peaks(prof, start, b, n + 1)
    gain = prof[peak].astype(float).tolist()
    steps: list[tuple[int, float]] = []
    other = cfg.alt_width_cost if alt_cost is None else alt_cost
    for width, extra in ((main, 0.0), (alt, other)):
        k_lo = max(1, math.floor(width * (1 - tol) / b))
        k_hi = math.ceil(width * (1 + tol) / b)
        for k in range(k_lo, k_hi + 1):
            cost = extra + cfg.width_penalty * abs(math.log(k * b / width))
            steps.append((k, cost))
    slack = int(cfg.end_slack * short / b)
    neg = -math.inf
    # best[i]: score of the best cuts ending with a cut at bin i; back[i]: previous cut,
    # -1 for a start position (the region's first edge, within the slack).
    best = [0.0 if i <= slack else neg for i in range(n + 1)]
    back = [-1] * (n + 1)
    for i in range(1, n + 1):
        g = gain[i] - cfg.cut_cost
        for k, cost in steps:
            j = i - k
            if j >= 0 and best[j] != neg and best[j] + g - cost > best[i]:
                best[i], back[i] = best[j] + g - cost, j
    ends = [i for i in range(max(1, n - slack), n + 1) if back[i] != -1]
    if not ends:
        return None
    i = max(ends, key=lambda e: best[e] + cfg.cut_cost - gain[e])  # the end is no cut
    cuts: list[int] = []
    while back[i] != -1:
        i = back[i]
        if back[i] != -1:
            cuts.append(i)
    if not cuts:
        return None
    cuts.reverse()
    return [peak[c] for c in cuts], [gain[c] for c in cuts]


def _cut(frame: _Frame, axis: int, cuts: list[tuple[int, float]]) -> list[np.ndarray]:
    """Split the frame's mask along lines; return each part's contour in image pixels.

    Each cut is ``(position, slope)``: for axis 0 the line through ``x =
    position`` at the frame's middle height, leaning ``slope`` pixels in x per
    pixel in y (axis 1 likewise with x and y swapped).
    """
    mask = frame.mask.copy()
    h, w = mask.shape
    for pos, slope in cuts:
        if axis == 0:
            yc = (h - 1) / 2.0
            p0 = (pos + slope * (0 - yc), 0.0)
            p1 = (pos + slope * (h - 1 - yc), h - 1.0)
        else:
            xc = (w - 1) / 2.0
            p0 = (0.0, pos + slope * (0 - xc))
            p1 = (w - 1.0, pos + slope * (w - 1 - xc))
        # A 4-connected line leaves no diagonal gap for the 8-connected parts to leak through.
        cv2.line(mask, tuple(int(round(v)) for v in p0), tuple(int(round(v)) for v in p1), 0, 1,
                 lineType=4)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    back = np.linalg.inv(frame.to_frame)
    out = []
    for c in contours:
        if cv2.contourArea(c) < 4:
            continue
        pts = cv2.perspectiveTransform(c.astype(np.float64), back)
        out.append(np.round(pts).astype(np.int32))
    return out
