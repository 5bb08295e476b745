"""Faces seen at a steep slant: plates sized by a row's repeat round boxes of symbols.

A row of tiles seen from low down and to one side shows its faces as sheared
parallelograms, their side edges leaning far from square to the row (0.5-2.5 px
along per px across). The locator's boxes are rectangles: there it boxes the
symbols printed on each face and no face, the classifier reads those boxes
``none``, and with no sure tile in the row, row completion has nothing to grow
from. On the tuning renders 1040000 faces sheared more than 35° from square are
87 of the 1 427 hand tiles, and 46 of the 84 the pipeline never found (more than
20°: 241, and 65 of the 84).

Here the boxes read ``none`` or unsurely that lie along one line give the row:
its direction, and a band across it. The band is resampled along the row at a
series of leans; at the faces' own lean their seams and edges line up across the
band, and the band's column profile repeats every tile pitch (its autocorrelation
is highest there). The boxes' centres give the phase. That gives a plate per tile
position, one pitch along the row, leaning as the faces do; how deep it reaches
across the row, and which way round the face lies, is left to the classifier,
which reads a few positions through each shape (twice the repeat is tried where
none reads: a face of two columns of symbols repeats at half a tile). The shape
read best is read at every position of the row, and plates read surely as faces replace the boxes
under them. Row completion (`agari.vision.fill`) grows the row from them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from agari.engine.tiles import BACK, Tile
from agari.vision.detection import Classify, TileDetection, as_quad
from agari.vision.quads import quad_overlap
from agari.vision.seams import period


@dataclass(frozen=True, slots=True)
class ShearedConfig:
    """Which boxes make a row, the leans and depths tried, and when a plate is kept."""

    min_seeds: int = 3
    """Boxes read ``none`` or unsurely (`firm`; the row's seeds) needed along one line to
    make a row."""
    level: float = 0.35
    """A seed lies on a line within this share of the seeds' long side across it."""
    reach: float = 6.0
    """Neighbouring seeds of one row lie within this many long sides of each other."""
    most_rows: int = 4
    """Rows tried per photo."""
    leans: tuple[float, ...] = tuple(float(x) for x in np.linspace(-2.5, 2.5, 21))
    """Leans of the faces' side edges tried, px along the row per px across it."""
    band: float = 1.0
    """The band sampled reaches this many seed long sides either side of the row's line."""
    pitch: tuple[float, float] = (1.2, 5.0)
    """Tile pitches searched, in seed long sides (the seeds are symbols, not faces)."""
    min_repeat: float = 0.3
    """Autocorrelation of the band's profile needed to trust the repeat."""
    depths: tuple[float, ...] = (0.4, 0.6, 0.85, 1.2)
    """A plate's depth across the row tried, in pitches."""
    samples: float = 32.0
    """The band is sampled every pixel, or this many times per seed long side where that is
    coarser (big tiles; at 16 the repeats found on small faces moved, 1000092 lost)."""
    probes: int = 4
    """Positions a shape is read at before the best shape is chosen."""
    first_probes: int = 2
    """Every shape is read at this many of them; the rest only by shapes read surely there
    (a row of no faces costs half the crops)."""
    min_probes: int = 2
    """Probes the chosen shape must read surely (one lone face may be chance)."""
    accept: float = 0.9
    """A plate is kept when read as a face (not a back) at least this surely."""
    firm: float = 0.8
    """A tile read at least this surely (or a back) is not replaced; a plate over it is
    dropped."""
    overlap: float = 0.3
    """Overlap (of the smaller quad) at which a plate and a box cover the same tile."""


DEFAULT_SHEARED = ShearedConfig()


@dataclass(frozen=True, slots=True)
class _Row:
    """A line of seeds: a point on it, unit vectors along and across, the seeds' long side,
    and the seeds' positions along it."""

    origin: np.ndarray
    along: np.ndarray
    across: np.ndarray
    size: float
    spots: np.ndarray


def sheared_faces(image: np.ndarray, detections: Sequence[TileDetection], classify: Classify,
                  *, config: ShearedConfig = DEFAULT_SHEARED) -> list[TileDetection]:
    """The detections with plates read surely as faces in place of the unsure boxes they
    cover, for each row of unsure boxes whose band repeats clearly at some lean.

    Args:
        image: BGR ``uint8 (H, W, 3)``.
        detections: classified detections.
        classify: labels a batch of detections in ``image``.
        config: tuning.
    """
    out = list(detections)
    seeds = [d for d in out if _loose(d, config)]
    if len(seeds) < config.min_seeds:
        return out
    gray = None
    for row in _rows(seeds, config):
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if gray is None else gray
        shape = _lean_and_pitch(gray, row, config)
        if shape is None:
            continue
        plates = _read_plates(image, row, *shape, classify, config)
        out = _placed(out, plates, config)
    return out


def _rows(seeds: list[TileDetection], cfg: ShearedConfig) -> list[_Row]:
    """Lines through at least `min_seeds` seeds each, the longest first, no seed twice."""
    quads = np.asarray([d.quad for d in seeds], np.float64)
    centres = quads.mean(axis=1)
    sides = np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2).max(axis=1)
    left = np.ones(len(seeds), bool)
    rows: list[_Row] = []
    while left.sum() >= cfg.min_seeds and len(rows) < cfg.most_rows:
        best = _longest_line(centres, sides, left, cfg)
        if best is None:
            break
        members = centres[best]
        mid = members.mean(axis=0)
        _, _, vt = np.linalg.svd(members - mid)
        along = vt[0] if vt[0][0] >= 0 else -vt[0]
        rows.append(_Row(mid, along, np.array([-along[1], along[0]]),
                         float(np.median(sides[best])), (members - mid) @ along))
        left[best] = False
    return rows


def _longest_line(centres: np.ndarray, sides: np.ndarray, left: np.ndarray,
                  cfg: ShearedConfig) -> np.ndarray | None:
    """Indices of the longest chain of seeds still ``left`` on one line through two near
    seeds (each seed and its three nearest), or None under `min_seeds`."""
    idx = np.flatnonzero(left)
    pts, size = centres[idx], sides[idx]
    dist = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    np.fill_diagonal(dist, np.inf)
    best: np.ndarray | None = None
    for i in range(len(idx)):
        for j in np.argsort(dist[i])[:3]:
            reach = cfg.reach * max(size[i], size[j])
            if not np.isfinite(dist[i, j]) or dist[i, j] > reach:
                continue
            along = (pts[j] - pts[i]) / dist[i, j]
            off = (pts - pts[i]) @ np.array([-along[1], along[0]])
            on = np.flatnonzero(np.abs(off) <= cfg.level * max(size[i], size[j]))
            chain = _chain_through(i, on, (pts[on] - pts[i]) @ along, reach)
            if best is None or len(chain) > len(best):
                best = chain
    if best is None or len(best) < cfg.min_seeds:
        return None
    return idx[best]


def _chain_through(i: int, on: np.ndarray, t: np.ndarray, reach: float) -> np.ndarray:
    """The seeds of ``on`` (at positions ``t`` along the line) linked to seed ``i`` by gaps
    no longer than ``reach``."""
    order = np.argsort(t)
    ts, ids = t[order], on[order]
    at = int(np.flatnonzero(ids == i)[0])
    lo = at
    while lo > 0 and ts[lo] - ts[lo - 1] <= reach:
        lo -= 1
    hi = at
    while hi < len(ts) - 1 and ts[hi + 1] - ts[hi] <= reach:
        hi += 1
    return ids[lo:hi + 1]


def _lean_and_pitch(gray: np.ndarray, row: _Row, cfg: ShearedConfig
                    ) -> tuple[float, float] | None:
    """``(lean, pitch)`` at which the row's band repeats most clearly, or None where it
    repeats clearly at no lean."""
    s = row.size
    step = max(1.0, s / cfg.samples)  # px a sample
    t0, t1 = float(row.spots.min()) - 2 * s, float(row.spots.max()) + 2 * s
    ts = np.arange(t0, t1, step, dtype=np.float32)
    us = np.arange(-cfg.band * s, cfg.band * s + step / 2, step, dtype=np.float32)
    grid_t, grid_u = np.meshgrid(ts, us)
    blur = max(3, int(s / step) | 1)
    best: tuple[float, float, float] | None = None
    # The offsets across the row are the same at every lean: made once (the same values).
    off_x, off_y = grid_u * row.across[0], grid_u * row.across[1]
    for lean in cfg.leans:
        t = grid_t + np.float32(lean) * grid_u
        x = row.origin[0] + t * row.along[0] + off_x
        y = row.origin[1] + t * row.along[1] + off_y
        band = cv2.remap(gray, x.astype(np.float32), y.astype(np.float32), cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
        profile = _column_means(band)
        # The repeat of the profile's detail (seams, edges), its slow shading taken off.
        detail = profile - cv2.blur(profile.reshape(1, -1), (blur, 1)).ravel()
        found = period(detail, cfg.pitch[0] * s / step, cfg.pitch[1] * s / step,
                       cfg.min_repeat)
        if found is not None and (best is None or found[1] > best[2]):
            best = (lean, found[0] * step, found[1])
    return None if best is None else (best[0], best[1])


def _column_means(band: np.ndarray) -> np.ndarray:
    """``band.mean(axis=0, dtype=np.float64)`` of a sampled band: for ``uint8`` grey the
    columns' sums are whole numbers, exact in any order, so OpenCV's integer sums divided
    by the count are the same float64 means (numpy's float64 reduction across rows cost
    about a third more; 21 leans a row)."""
    if band.dtype != np.uint8 or band.ndim != 2 or band.shape[0] >= 1 << 23:
        return band.mean(axis=0, dtype=np.float64)
    sums = cv2.reduce(band, 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel()
    return sums / band.shape[0]


def _read_plates(image: np.ndarray, row: _Row, lean: float, pitch: float, classify: Classify,
                 cfg: ShearedConfig) -> list[TileDetection]:
    """The plates of the row's best shape read surely as faces (none if no shape reads
    surely at `min_probes` probes). The repeat found may be half the pitch (a face of two
    columns of symbols repeats twice a tile): where no shape reads at it, twice it is
    tried, if in range."""
    for p in (pitch, 2 * pitch):
        if p > cfg.pitch[1] * row.size:
            break
        shapes = [(p, depth, side) for depth in cfg.depths for side in (1, -1)]
        spots = _spots(row, p)
        best, best_key, kept = _best_shape(image, row, lean, shapes, spots[:cfg.probes],
                                           classify, cfg)
        if best is not None and best_key[0] >= cfg.min_probes:
            rest = spots[cfg.probes:]
            again = classify(image, [_plate(row, spot, lean, *best) for spot in rest])
            kept += [(spot, d) for spot, d in zip(rest, again, strict=True)
                     if _face(d, cfg.accept)]
            return [d for _, d in sorted(kept, key=lambda sd: sd[0])]
    return []


def _best_shape(image: np.ndarray, row: _Row, lean: float, shapes: list[tuple],
                probes: list[float], classify: Classify, cfg: ShearedConfig):
    """``(shape, (sure probes, their summed confidence), [(spot, plate)])`` of the shape
    read surely at the most ``probes`` (None if none at any). Every shape is read at the
    first `first_probes` (the likeliest faces); the rest only by shapes read surely there."""
    first, later = probes[:cfg.first_probes], probes[cfg.first_probes:]
    read = iter(classify(image, [_plate(row, spot, lean, *shape)
                                 for shape in shapes for spot in first]))
    sure = {shape: [(spot, d) for spot in first for d in [next(read)]
                    if _face(d, cfg.accept)] for shape in shapes}
    hopeful = [shape for shape in shapes if sure[shape]]
    if later and hopeful:
        read = iter(classify(image, [_plate(row, spot, lean, *shape)
                                     for shape in hopeful for spot in later]))
        for shape in hopeful:
            sure[shape] += [(spot, d) for spot in later for d in [next(read)]
                            if _face(d, cfg.accept)]
    best, best_key, kept = None, (0, 0.0), []
    for shape in shapes:
        key = (len(sure[shape]), sum(d.confidence for _, d in sure[shape]))
        if key > best_key:
            best, best_key, kept = shape, key, sure[shape]
    return best, best_key, kept


def _spots(row: _Row, pitch: float) -> list[float]:
    """The faces' centres along the row one ``pitch`` apart, from a tile before the first
    seed to one past the last, those nearest a seed first (there a face is likeliest)."""
    # The seeds' mean phase on the repeat places the faces (symbols sit mid-face).
    phase = float(np.angle(np.exp(2j * np.pi * row.spots / pitch).mean())) / (2 * np.pi) * pitch
    first = math.floor((row.spots.min() - phase) / pitch) - 1
    last = math.ceil((row.spots.max() - phase) / pitch) + 1
    spots = phase + pitch * np.arange(first, last + 1)
    near = np.abs(spots[:, None] - row.spots[None]).min(axis=1)
    return [float(spots[k]) for k in np.argsort(near, kind="stable")]


def _face(d: TileDetection, sure: float) -> bool:
    return isinstance(d.label, Tile) and d.confidence >= sure


def _plate(row: _Row, spot: float, lean: float, pitch: float, depth: float, side: int
           ) -> TileDetection:
    """The plate one ``pitch`` along the row centred at ``spot``, ``depth`` pitches deep
    across it and leaning ``lean``; ``side`` names its corners the other way round across
    the row (the mirror image), as the face's top may lie either side."""
    centre = row.origin + spot * row.along
    step = pitch * row.along
    deep = depth * pitch
    down = side * (deep * row.across + lean * deep * row.along)
    tl = centre - step / 2 - down / 2
    return TileDetection(as_quad([tl, tl + step, tl + step + down, tl + down]))


def _placed(dets: list[TileDetection], plates: list[TileDetection], cfg: ShearedConfig
            ) -> list[TileDetection]:
    """``dets`` with each plate that covers no firm tile in place of the unsure boxes
    under it (where the first of them stood; at the end if none)."""
    out = list(dets)
    for plate in plates:
        q = np.asarray(plate.quad, np.float32)
        under = [i for i, d in enumerate(out)
                 if quad_overlap(q, np.asarray(d.quad, np.float32)) > cfg.overlap]
        if any(not _loose(out[i], cfg) for i in under):
            continue
        at = under[0] if under else len(out)
        out = [d for i, d in enumerate(out) if i not in set(under)]
        out.insert(min(at, len(out)), plate)
    return out


def _loose(d: TileDetection, cfg: ShearedConfig) -> bool:
    """Read ``none`` or unsurely (no back): a box a plate may replace."""
    if d.face_down or d.label == BACK:
        return False
    return d.label is None or d.confidence < cfg.firm


__all__ = ["DEFAULT_SHEARED", "ShearedConfig", "sheared_faces"]
