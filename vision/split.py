"""Split a region of touching tiles (a row, a meld, a tray grid) into single tiles.

A region is rectified (`agari.vision.frames`: by its min-area box, or a single
row by its four corners so that perspective is undone). Along each side, the
cut positions are chosen by dynamic programming over the profiles of
`agari.vision.seams`: every segment must be one tile wide (upright, or a
sideways tile's length, which costs more), and cuts should fall on dark seams
and in blank bands between faces. A row whose ink repeats clearly takes that
repeat as its tile width. For a grid the axis whose cuts are clearest goes
first (the straight seams between rows); each strip is then re-fitted and
split again, so staggered and slightly curved rows come apart cleanly.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from agari.vision.frames import Frame, cut, place, rectify
from agari.vision.quads import fit_quad
from agari.vision.seams import (
    band_centre,
    blank,
    frame_brightness,
    ink_profile,
    period,
    seam_profile,
    smooth_leans,
)


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
    """Segment widths may differ this much from a row's repeat (perspective)."""
    sure_period_corr: float = 0.5
    """A repeat this clear is the only width tried for the row."""
    period_alt_cost: float = 0.35
    """DP cost of a sideways tile in a row with a clear repeat."""
    repeat_seam_weight: float = 0.3
    """Weight of the seams beside the blank bands where a row's ink repeats clearly: there
    the bands mark the cuts, and dark columns of symbols (stacked circles) pass for seams."""
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


def fits_one(width: float, height: float, size: TileSize, cfg: SplitConfig) -> bool:
    """True when a ``width × height`` box is one tile (either way round) within `one_tile`."""
    lim = math.log(cfg.one_tile)
    for ex, ey in ((size.short, size.long), (size.long, size.short)):
        if abs(math.log(width / ex)) <= lim and abs(math.log(height / ey)) <= lim:
            return True
    return False


def split_region(
    gray: np.ndarray, contour: np.ndarray, size: TileSize, cfg: SplitConfig = SplitConfig(),
    *, rect: tuple | None = None,
) -> list[Piece]:
    """Cut a region into tile pieces.

    Args:
        gray: ``uint8 (H, W)`` working image.
        contour: int32 ``(N, 1, 2)`` outer contour of the region.
        size: expected tile size near this region.
        rect: ``cv2.minAreaRect(contour)``, when the caller has it (a region's own).

    Returns:
        The pieces; empty when the region is a fragment, far too long, or no
        whole number of tiles fits it.
    """
    out: list[Piece] = []
    stack: list[tuple[np.ndarray, float, int]] = [(contour, 1.0, 0)]
    known = rect
    while stack:
        c, seam, cuts = stack.pop()
        hull = None
        if known is None:
            # The box of the hull is the contour's own (`cv2.minAreaRect` takes the hull of
            # its points first, and a hull's hull is itself, in the same order); the hull
            # serves the quad fit or the frame's corners as well.
            hull = cv2.convexHull(c)
            rect = cv2.minAreaRect(hull)
        else:
            rect = known
        known = None
        w, h = rect[1]
        if min(w, h) < cfg.min_fraction * size.short or max(w, h) > cfg.max_tiles * size.long:
            continue
        if fits_one(w, h, size, cfg):
            box = w * h
            fill = cv2.contourArea(c) / box if box > 0 else 0.0
            out.append(Piece(fit_quad(c, hull, rect), float(fill), seam, cuts))
            continue
        if cuts > 2 * cfg.max_tiles:
            continue
        if math.hypot(w, h) < cfg.min_cut_length * size.short:
            continue  # no side of any frame in this box reaches it: spare `place` too
        placed = place(c, rect, cfg.pad, hull)
        if not _cuttable(placed.width, placed.height, size, cfg):
            continue  # no side to cut across (`_plan` would find none): spare the warp
        frame = rectify(gray, c, rect, cfg.pad, placed)
        plan = _plan(frame, size, cfg)
        if plan is None:
            continue
        axis, positions, strength = plan
        for part in cut(frame, axis, positions):
            stack.append((part, min(seam, strength), cuts + 1))
    return out


def _cuttable(width: float, height: float, size: TileSize, cfg: SplitConfig) -> bool:
    """Whether either side of a frame is long enough for `_plan` to cut across."""
    return max(width, height) >= cfg.min_cut_length * size.short


def _plan(frame: Frame, size: TileSize, cfg: SplitConfig
          ) -> tuple[int, list[tuple[int, float]], float] | None:
    """The clearest set of cuts across one axis: ``(axis, [(position, slope)], weakest seam)``.

    Both axes are tried, each with the upright extent first and the other as
    the costlier alternative; the plan whose cuts have the strongest mean seam
    wins.
    """
    # The best plan so far: (mean, axis, positions, row, seam, slope, repeat); its cuts'
    # leans are fitted once, for the plan that wins.
    best: tuple[float, int, list[int], bool, np.ndarray, np.ndarray, float] | None = None
    for axis, length in ((0, frame.width), (1, frame.height)):
        if length < cfg.min_cut_length * size.short:
            continue
        # Only a single row leans as a whole (a standing hand seen in perspective);
        # the seams of a grid seen from above run straight.
        across = frame.height if axis == 0 else frame.width
        row = across <= cfg.one_tile * size.long
        bright = frame_brightness(frame, axis)
        seam, slope = seam_profile(frame, axis, size.short, cfg, lean=row, bright=bright)
        widths = [(size.short, size.long, cfg.width_tolerance, 0.0),
                  (size.long, size.short, cfg.width_tolerance, 0.0)]
        guide = seam
        if cfg.ink_weight:
            # Blank bands guide where a cut goes but are no evidence of a tile edge
            # (a plain table is blank everywhere): strengths stay the seams' own.
            ink = ink_profile(frame, axis, size.short, cfg, bright=bright)
            guide = seam + cfg.ink_weight * blank(ink, size.short, cfg)
            found = period(ink, cfg.period_range[0] * across, cfg.period_range[1] * across,
                            cfg.min_period_corr) if row else None
            if found is not None:
                # A row of alike tiles repeats its ink once a tile: trust that width,
                # and the repeat itself is evidence that these are tiles. A clear
                # repeat is the only width tried; a sideways tile costs more there.
                repeat = (found[0], across, cfg.period_tolerance, found[1])
                widths = [repeat] if found[1] >= cfg.sure_period_corr else [repeat, *widths]
                if found[1] >= cfg.sure_period_corr:
                    guide = cfg.repeat_seam_weight * seam + band_centre(ink, size.short, cfg)
        peaks: dict[tuple[float, int], np.ndarray] = {}  # the widths share their bins
        for main, alt, tol, repeat in widths:
            found_cuts = _dp_cuts(guide, float(cfg.pad), cfg.pad + length, main, alt,
                                  size.short, cfg, tolerance=tol,
                                  alt_cost=cfg.period_alt_cost if repeat else None, peaks=peaks)
            if found_cuts is None:
                continue
            positions, gains = found_cuts
            mean = mean_of(gains)
            if best is None or mean > best[0]:
                best = (mean, axis, positions, row, seam, slope, repeat)
    if best is None:
        return None
    _, axis, positions, row, seam, slope, repeat = best
    leans = smooth_leans(positions, slope, seam) if row else slope[positions]
    cuts = [(p, float(v)) for p, v in zip(positions, leans, strict=True)]
    return axis, cuts, max(float(np.min(seam[positions])), repeat)


def mean_of(values: list[float]) -> float:
    """``float(np.mean(values))`` of a list of floats, to the bit, without making an array
    (7 µs a call, a few thousand calls a photo): numpy's pairwise sum, which adds fewer
    than eight values in turn from 0 and more in eight running sums joined as a tree."""
    n = len(values)
    if not 0 < n <= PAIRWISE_BLOCK:
        return float(np.mean(values))
    if n < 8:
        total = 0.0
        for v in values:
            total += v
        return total / n
    sums = values[:8]
    stop = n - n % 8
    for i in range(8, stop, 8):
        for j in range(8):
            sums[j] += values[i + j]
    a, b, c, d, e, f, g, h = sums
    total = ((a + b) + (c + d)) + ((e + f) + (g + h))
    for v in values[stop:]:
        total += v
    return total / n


PAIRWISE_BLOCK = 128
"""Longest run numpy sums with eight running sums; longer ones it halves first."""


def _bin_peaks(prof: np.ndarray, start: float, b: float, bins: int) -> np.ndarray:
    """Index of the strongest line in each of ``bins`` bins of width ``b`` centred at
    ``start + k b`` (a bin outside the profile takes its nearest line)."""
    which = np.floor((np.arange(len(prof)) - start) / b + 0.5).astype(int)
    inside = np.flatnonzero((which >= 0) & (which < bins))
    order = np.lexsort((-prof[inside], which[inside]))
    ranked = which[inside][order]  # bins ascending, the strongest line first in each
    peak = np.clip(np.round(start + np.arange(bins) * b).astype(int), 0, len(prof) - 1)
    if len(ranked):
        # Each bin's first place in the ranking (`np.unique`'s first indices, without its sort).
        first = np.flatnonzero(np.concatenate(([True], ranked[1:] != ranked[:-1])))
        peak[ranked[first]] = inside[order[first]]
    return peak


def _dp_cuts(prof: np.ndarray, start: float, end: float, main: float, alt: float,
             short: float, cfg: SplitConfig, *, tolerance: float | None = None,
             alt_cost: float | None = None,
             peaks: dict[tuple[float, int], np.ndarray] | None = None
             ) -> tuple[list[int], list[float]] | None:
    """Cut positions between ``start`` and ``end`` (frame pixels) by dynamic programming.

    Every segment is ``main`` (or, at a cost, ``alt``) wide within the width
    tolerance; the total seam strength at the cuts, less the costs, is maximal.

    ``peaks``: a cache of the bins' strongest lines for calls on the same
    ``prof`` and ``start`` (the upright and sideways widths bin alike).

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
    peak = None if peaks is None else peaks.get((b, n))
    if peak is None:
        peak = _bin_peaks(prof, start, b, n + 1)
        if peaks is not None:
            peaks[(b, n)] = peak
    gain = prof[peak].astype(float).tolist()
    other = cfg.alt_width_cost if alt_cost is None else alt_cost
    steps = _steps(main, alt, b, tol, other, cfg.width_penalty)
    slack = int(cfg.end_slack * short / b)
    best, back = _dp_table(gain, steps, slack, cfg.cut_cost)
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


@functools.lru_cache(maxsize=4096)
def _steps(main: float, alt: float, b: float, tol: float, other: float, penalty: float
           ) -> tuple[tuple[int, float], ...]:
    """The DP's undominated steps ``(bins, cost)``: ``main`` wide, or at ``other`` more
    ``alt`` wide, within ``tol``, in bins of ``b`` (kept: a photo's regions share a few
    tile sizes, and each is split along both axes)."""
    steps: list[tuple[int, float]] = []
    for width, extra in ((main, 0.0), (alt, other)):
        k_lo = max(1, math.floor(width * (1 - tol) / b))
        k_hi = math.ceil(width * (1 + tol) / b)
        for k in range(k_lo, k_hi + 1):
            cost = extra + penalty * abs(math.log(k * b / width))
            steps.append((k, cost))
    return tuple(_undominated(steps))


DOMINATED = 1e-9
"""A step costlier than another of the same length by more than this never scores
highest: scores are sums of a few hundred terms of order 1, whose rounding is far finer."""


def _undominated(steps: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """The steps less those that another step of the same length beats outright.

    The upright and sideways widths' lengths overlap (a third of the steps); a
    step of the same length and a clearly higher cost scores lower at every bin,
    so it is never the first of the highest-scoring steps `_dp_table` takes:
    dropping it leaves the table the same, to the bit, at a third less work.
    """
    cheapest: dict[int, float] = {}
    for k, cost in steps:
        cheapest[k] = min(cost, cheapest.get(k, math.inf))
    return [(k, cost) for k, cost in steps if cost <= cheapest[k] + DOMINATED]


def _dp_table(gain: list[float], steps: Sequence[tuple[int, float]], slack: int, cut_cost: float
              ) -> tuple[list[float], list[int]]:
    """The DP's table: ``best[i]``, the score of the best cuts ending with a cut at bin
    ``i``, and ``back[i]``, the previous cut (-1 for a start position: the region's first
    edge, within ``slack`` bins).

    Each bin takes the first step (in the order given) that scores highest. The table is
    padded in front with unreachable bins so that the inner loop, which runs for every
    bin and step of every plan, needs no bounds test.
    """
    n = len(gain) - 1
    pad = max(k for k, _ in steps)
    best = [-math.inf] * pad + [0.0 if i <= slack else -math.inf for i in range(n + 1)]
    back = [-1] * (n + 1)
    offsets = [(pad - k, cost) for k, cost in steps]  # best[i + offset] is bin i - k
    for i in range(1, n + 1):
        g = gain[i] - cut_cost
        scores = [best[i + off] + g - cost for off, cost in offsets]
        top = max(scores)  # the first step of the highest score: list.index finds it
        if top > best[pad + i]:
            best[pad + i], back[i] = top, i + offsets[scores.index(top)][0] - pad
    return best[pad:], back
