"""Tile cores: a small convolutional net marks the middle of every tile and where its corners are.

The classical maps (`agari.vision.regions`) need a face that stands out from
what lies around it, and splitting needs clear seams. Small faces seen at a
slant on a pale cloth have neither: in rendered scene 900039 the classical steps
find none of the hand's 15 faces, the net 9. The net (`models/tile_cores.onnx`,
trained on renders by `agari.models.cores_train`) reads the photo at
`CoreConfig.long_side` and gives, at half that resolution,

* for each pixel: background, face-up core or face-down core, where a core is
  the middle half of a tile's face (cores of touching tiles stay apart), and
* at each core pixel: the offsets to the face's four corners, clockwise from
  the one nearest the top left (`CORNER_NORM` pixels per unit).

Each blob of core pixels becomes one quad, its corners averaged over the blob
weighted by the core probability. The cores of small or flat faces side by side run
together into one blob; with `CoreConfig.part` its pixels are grouped by the face they
point at, one quad per group, and a blob that groups less clearly carries the quads of two
faces for the classifier to choose (`agari.vision.core_parts`). Where the tiles it finds
are small (or few), the net reads the busy parts of the photo again at twice the size
(`CoreConfig.zoom_below`).
The locator adds these quads to its own
last (`agari.vision.locate.core_proposals`): where its classical steps found a
tile, their quad fits the face better; where they found none, the net's fills
the gap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np
from agari.vision.quads import bounds_meeting, quad_bounds, quad_overlap
from agari.vision.runtime import open_session

T = TypeVar("T")

CORES_FILE = "tile_cores.onnx"
"""The shipped net's file name inside the `agari.models` package."""

STRIDE = 2
"""Output pixels are this many input pixels apart."""
CORNER_NORM = 64.0
"""Corner offsets are in units of this many input pixels."""
MULTIPLE = 8
"""Input sides are multiples of this (three stride-2 steps)."""


@dataclass(frozen=True, slots=True)
class CoreConfig:
    """How the net is run and its blobs read."""

    long_side: int = 960
    """The photo's long side is scaled to this before the net reads it."""
    threshold: float = 0.5
    """A pixel is a core where the core class's probability exceeds this."""
    min_pixels: int = 3
    """Blobs with fewer output pixels are specks."""
    min_score: float = 0.6
    """Blobs whose peak probability is below this are dropped."""
    zoom_below: float | None = 22.0
    """Where the tiles the net finds are shorter than this (the median long side, in its
    input pixels), or it finds fewer than `zoom_min`, it reads the photo again enlarged
    (`zoom_long_side`) and keeps that reading instead: at `long_side` the faces of small
    tiles blur into each other. On the 200 tuning renders (seeds 910000 and 920000, a
    quarter of them read twice) hand tiles missed fell from 479 to 284 and exact hands
    rose from 84 to 92; the real photos are never read twice. None never reads twice."""
    zoom_min: int = 4
    zoom_long_side: int = 1920
    """The long side the whole photo would have in the enlarged reading; only the parts of
    it where the first reading saw hints of tiles are read (`zoom_hint`, `zoom_margin`)."""
    zoom_hint: float = 0.1
    """Core probability (face up or down) that counts as a hint of a tile."""
    zoom_margin: float = 0.05
    """The parts read enlarged reach this much of the photo's long side past the hints
    (patches of hints apart from each other are read apart: `_busy_boxes`)."""
    zoom_threads: int = 2
    """onnxruntime threads for the enlarged reading: the locator's own steps are mostly
    done by then, and the net's wait is what the photo waits for."""
    threads: int = 1
    """onnxruntime threads: one, as the net runs beside the locator's own work."""
    model: str | None = None
    """An ``.onnx`` file to use instead of the shipped net (for evaluating candidates)."""
    company: float | None = 2.5
    """A core quad is added only with a like-sized core (0.7-1.4 times its size) within
    this many of its long sides: tiles come in rows and groups, while a lone blob on a
    sleeve or a bottle is not a tile. None adds lone ones too."""
    overlap: float = 0.45
    """A core quad overlapping a classical proposal by more than this (of the smaller)
    finds the same tile and is not added."""
    contest: float | None = 0.7
    """Core quads at least this sure (mean core probability) contest a classical proposal
    that straddles two of them or fits the one it covers badly (IoU under `misfit`),
    where `locate` is given a judge (the classifier). None: classical proposals always win.
    0.8 before: of the hand faces a classical box covered while the net framed them, 46 of
    171 on tuning renders 980000/970000 were framed at 0.7-0.8; whole `read_photo`
    (interleaved A/B x100) exact hands 980000 67 -> 69 (scores 59 -> 61, hand tiles missed
    117 -> 105), 970000 69 either way; the real photos' variants 368/390 either way."""
    misfit: float = 0.5
    doubt: float = 0.5
    """A contested classical quad gives way only when the judge rates it under this (it
    more likely holds no tile)..."""
    margin: float = 0.1
    """...and rates the core quads higher by this. Without the first rule the net's quads
    also displaced good classical ones on the real photos: their quads hold only the
    printed part of a real face, and the rows they made broke (390 tiles of the real
    photos' variants: 341 right without contests, 291 with, 338 with this rule)."""
    engulf: float | None = 3.0
    """A contested or holding classical quad at least this many times the mean area of its
    net rivals gives way too, however the judge rates it, where the judge rates every
    rival a tile at least `engulf_sure`: a box round two or three faces, or a face with its
    lying tile's front side, which the classifier rates a tile as surely as the faces, so
    the doubt rule kept it. A real face's net quad holds its printed part, 1.6-2.5 times
    smaller than the face's box, so those stay. Tuning renders: 970000 and 980000 (x100,
    whole `read_photo`) hand tiles missed 67 -> 62 and 126 -> 117, exact hands 69 and 67
    either way; locator renders 10000/20000 hand recall 0.854 -> 0.857 and 0.839 -> 0.849.
    At 2.6 a standing face's box on the real photos' variants gave way (367 of 390 tiles
    right, 368 before) and 970000 misread 12 tiles more. None: never."""
    engulf_sure: float = 0.9
    """...each rival rated a tile at least this surely by the judge."""
    part: float | None = None
    """A blob whose pixels point at more than one face is cut into one quad per face
    (`split_blob`): the cores of small or flat touching faces run together, and their
    corners averaged frame a quad half on each face. A part's pixels' face centres lie
    within this share of the blob quad's sides of each other, and the parts' middles this
    share apart. None: one quad per blob (`HAND_LOCATE`: 0.8, with `part_trim` 0.1 and
    `judged_parts` (0.5, 1.6); see `agari.vision.core_parts` for what it gained)."""
    part_trim: float = 0.0
    """A part's spread leaves out this share of its pixels at each end (pixels at a seam
    point between the faces)."""
    judged_parts: tuple[float, float] | None = None
    """A face-up blob left whole whose pixels' face centres spread over this range of shares
    of its quad's sides (`part` above) is given the two quads of its pixels' two groups as
    `CoreQuad.parts`, for a judge to choose between (`agari.vision.locate`): a pair of
    faces whose pixels blur into each other. None: no parts."""


@dataclass(frozen=True, slots=True)
class CoreQuad:
    """One tile the net found, in the photo's pixels."""

    quad: np.ndarray
    """float32 ``(4, 2)``: corners clockwise from the top left (image axes)."""
    score: float
    """Mean core probability over the blob."""
    face_down: bool
    parts: tuple[np.ndarray, ...] = ()
    """Quads of the faces the blob may be instead, as its pixels point
    (`CoreConfig.judged_parts`); none where the blob is one face or cut already."""

    def mapped(self, scale: np.ndarray, shift: np.ndarray | None = None) -> CoreQuad:
        """The same quad (and parts) scaled by ``scale`` and moved by ``shift``."""
        def move(q: np.ndarray) -> np.ndarray:
            return q * scale if shift is None else q * scale + shift
        return CoreQuad(move(self.quad), self.score, self.face_down,
                        tuple(move(q) for q in self.parts))


def default_path() -> Path:
    return Path(str(resources.files("agari.models").joinpath(CORES_FILE)))


@lru_cache(maxsize=4)
def load_session(path: str | None = None, threads: int | None = None) -> object:
    """The onnxruntime session for the net (cached: `locate` is called per frame).

    Raises:
        ModelError: the file is missing or not a readable ONNX model.
    """
    return open_session(Path(path) if path else default_path(), "tile core model", threads)


def net_input(bgr: np.ndarray, long_side: int) -> tuple[np.ndarray, tuple[float, float]]:
    """The photo scaled for the net, float32 ``(1, 3, H, W)`` BGR 0..255, and the factors
    ``(sx, sy)`` from the net's input pixels back to the photo's."""
    h, w = bgr.shape[:2]
    k = long_side / max(h, w)
    nw = max(MULTIPLE, int(round(w * k / MULTIPLE)) * MULTIPLE)
    nh = max(MULTIPLE, int(round(h * k / MULTIPLE)) * MULTIPLE)
    small = cv2.resize(bgr, (nw, nh), interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    return small.transpose(2, 0, 1)[None].astype(np.float32), (w / nw, h / nh)


def find_cores(bgr: np.ndarray, cfg: CoreConfig = CoreConfig(), *,
               session: object | None = None) -> list[CoreQuad]:
    """Tiles the net finds in a BGR photo, as quads in the photo's pixels (read again
    enlarged where they are small or few: `CoreConfig.zoom_below`)."""
    out, factors = _run(bgr, cfg.long_side, cfg.model, cfg.threads, session)
    found = _decode(out, factors, cfg)
    if not _zoom_wanted(found, bgr.shape, cfg):
        return found
    enlarged: list[CoreQuad] = []
    for x0, y0, x1, y1 in _busy_boxes(out[0], factors, bgr.shape, cfg):
        crop = bgr[y0:y1, x0:x1]
        long_side = round(max(crop.shape[:2]) * cfg.zoom_long_side / max(bgr.shape[:2]))
        part, part_factors = _run(crop, long_side, cfg.model, cfg.zoom_threads, session)
        shift = np.float32([x0, y0])
        enlarged += [c.mapped(np.float32(1), shift) for c in _decode(part, part_factors, cfg)]
    return enlarged


def _zoom_wanted(found: list[CoreQuad], shape: tuple[int, ...], cfg: CoreConfig) -> bool:
    """Whether the tiles found are few or small enough to read the photo again enlarged."""
    if cfg.zoom_below is None or cfg.zoom_long_side <= cfg.long_side:
        return False
    if len(found) < max(cfg.zoom_min, 1):
        return True
    sides = [np.linalg.norm(c.quad - np.roll(c.quad, 1, axis=0), axis=1).max() for c in found]
    return float(np.median(sides)) * cfg.long_side / max(shape[:2]) < cfg.zoom_below


def _busy_boxes(out: np.ndarray, factors: tuple[float, float], shape: tuple[int, ...],
                cfg: CoreConfig) -> list[tuple[int, int, int, int]]:
    """``[(x0, y0, x1, y1)]``, photo pixels: where the net (``out``: its class probabilities,
    ``(3, H/2, W/2)`` or more channels) saw any hint of a tile (core
    probability above `CoreConfig.zoom_hint`), each patch of hints widened by
    `CoreConfig.zoom_margin` of the photo's size, patches whose widened boxes overlap
    joined; the whole photo when it saw none. Only these parts are read enlarged: the
    hand, the walls and the discards of a table photo lie apart, and the table between
    them, a good half of their common box, need not be read again."""
    h, w = shape[:2]
    hints = (out[1] + out[2] > cfg.zoom_hint).astype(np.uint8)
    ys, xs = np.nonzero(hints)
    if not len(xs):
        return [(0, 0, w, h)]
    pad = cfg.zoom_margin * max(h, w)
    sx, sy = factors[0] * STRIDE, factors[1] * STRIDE
    # Hints whose widened boxes touch are one patch: widen in the net's pixels first (a
    # photo has a few patches but may have hundreds of specks of hints).
    reach = 2 * math.ceil(pad / min(sx, sy)) + 1
    _, patch = cv2.connectedComponents(cv2.dilate(hints, np.ones((reach, reach), np.uint8)))
    boxes = []
    for k in np.unique(patch[ys, xs]):
        px, py = xs[patch[ys, xs] == k], ys[patch[ys, xs] == k]
        boxes.append((px.min() * sx - pad, py.min() * sy - pad,
                      (px.max() + 1) * sx + pad, (py.max() + 1) * sy + pad))
    return [(max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1)))
            for x0, y0, x1, y1 in _joined(boxes)]


def _joined(boxes: list[tuple[float, ...]]) -> list[tuple[float, ...]]:
    """The boxes ``(x0, y0, x1, y1)`` with every two that overlap replaced by their
    common box, until none overlap; top to bottom, left to right."""
    boxes = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    boxes[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]),
                                max(a[3], b[3]))
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return sorted(boxes, key=lambda b: (b[1], b[0]))


def _run(bgr: np.ndarray, long_side: int, model: str | None, threads: int,
         session: object | None) -> tuple[tuple[np.ndarray, np.ndarray], tuple[float, float]]:
    """The net's output for the photo scaled to ``long_side``: float32 class probabilities
    ``(3, H/2, W/2)`` and corner offsets ``(8, H/2, W/2)``, and the input-to-photo factors.

    Reads both forms of the net: as trained (one output ``cores``, probabilities and
    offsets stacked) and as shipped (``logits`` and ``corners``, `bench/cores_rewrite.py`:
    the softmax over three classes costs numpy a fraction of what onnxruntime takes).
    """
    x, factors = net_input(bgr, long_side)
    sess = session if session is not None else load_session(model, threads)
    outs = sess.run(None, {"image": x})
    if len(outs) == 1:
        return (outs[0][0, :3], outs[0][0, 3:]), factors
    logits, corners = outs  # the rewritten graph's outputs, in this order
    return (_softmax(logits[0]), corners[0]), factors


def _softmax(logits: np.ndarray) -> np.ndarray:
    """Softmax over the first axis of float32 ``(C, H, W)`` logits (a new array)."""
    e = np.exp(logits - logits.max(axis=0))
    e /= e.sum(axis=0)
    return e


def _decode(out: tuple[np.ndarray, np.ndarray], factors: tuple[float, float],
            cfg: CoreConfig) -> list[CoreQuad]:
    """The net's blobs (``out``: probabilities and offsets, `_run`) as quads in the
    photo's pixels."""
    prob, offsets = out
    found: list[CoreQuad] = []
    for cls, face_down in ((1, False), (2, True)):
        found += _blobs(prob[cls], offsets, cfg, face_down)
    scale = np.float32(factors)
    return [c.mapped(scale) for c in found]


def _blobs(prob: np.ndarray, offsets: np.ndarray, cfg: CoreConfig, face_down: bool
           ) -> list[CoreQuad]:
    mask = (prob > cfg.threshold).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    found = []
    for i in range(1, n):
        x0, y0, bw, bh, area = stats[i]
        if area < cfg.min_pixels:
            continue
        ys, xs = np.nonzero(labels[y0:y0 + bh, x0:x0 + bw] == i)
        ys, xs = ys + y0, xs + x0
        p = prob[ys, xs]
        if p.max() < cfg.min_score:
            continue
        at = np.stack([(xs + 0.5) * STRIDE, (ys + 0.5) * STRIDE], -1)  # input pixels
        corners = offsets[:, ys, xs].T.reshape(-1, 4, 2) * CORNER_NORM + at[:, None, :]
        # The face centres the pixels point at, and their spread, serve both the split
        # and the judged parts: made once a blob.
        looks = _Looks(corners, p, cfg.part_trim)
        parts = [np.arange(len(p))] if cfg.part is None else split_blob(
            corners, p, cfg.part, trim=cfg.part_trim, looks=looks)
        for part in parts:
            if len(parts) > 1 and (len(part) < cfg.min_pixels or p[part].max() < cfg.min_score):
                continue
            found.append(CoreQuad(_mean_quad(corners[part], p[part]), float(p[part].mean()),
                                  face_down))
        if len(parts) == 1 and cfg.judged_parts is not None and not face_down:
            found[-1] = replace(found[-1], parts=two_faces(corners, p, cfg.judged_parts,
                                                          cfg.part_trim, looks=looks))
    return found


class _Looks:
    """A blob's `_centres` and their `_spread` (``trim`` left out), each made when first
    asked for: `split_blob` and `two_faces` ask for the same of a blob."""

    def __init__(self, corners: np.ndarray, p: np.ndarray, trim: float) -> None:
        self.corners, self.p, self.trim = corners, p, trim
        self._at: tuple[np.ndarray | None] | None = None
        self._spread: float | None = None

    def at(self) -> np.ndarray | None:
        if self._at is None:
            self._at = (_centres(self.corners, self.p),)
        return self._at[0]

    def spread(self, trim: float) -> float:
        at = self.at()
        assert at is not None
        if trim != self.trim:
            return _spread(at, trim)
        if self._spread is None:
            self._spread = _spread(at, trim)
        return self._spread


def two_faces(corners: np.ndarray, p: np.ndarray, spread: tuple[float, float],
              trim: float = 0.0, *, looks: _Looks | None = None) -> tuple[np.ndarray, ...]:
    """The quads of a blob's pixels' two groups (k-means of the face centres they point at),
    where those centres spread over ``spread`` (shares of the blob quad's sides, ``trim`` of
    the pixels left out at each end); none otherwise. ``looks``: the blob's, if made."""
    looks = _Looks(corners, p, trim) if looks is None else looks
    at = looks.at()
    if at is None or not spread[0] < looks.spread(trim) <= spread[1] or len(p) < 2:
        return ()
    labels = _kmeans(at, 2)
    if not np.all(np.bincount(labels, minlength=2)):
        return ()
    return tuple(_mean_quad(corners[labels == j], p[labels == j]) for j in range(2))


def _centres(corners: np.ndarray, p: np.ndarray) -> np.ndarray | None:
    """The face centres the pixels point at, along and across the blob's mean quad in
    shares of its sides, from their mean (None for a degenerate quad)."""
    quad = _mean_quad(corners, p)
    across, down = quad[1] - quad[0], quad[3] - quad[0]
    sides = np.array([np.linalg.norm(across), np.linalg.norm(down)])
    if sides.min() < 1e-6:
        return None
    axes = np.stack([across / sides[0], down / sides[1]])
    centres = corners.mean(axis=1)
    return (centres - centres.mean(axis=0)) @ axes.T / sides


def _spread(points: np.ndarray, trim: float) -> float:
    """The points' widest range along either axis, ``trim`` of them left out at each end."""
    if not trim:
        return float(np.ptp(points, axis=0).max())
    ordered = np.sort(points, axis=0)
    lo, hi = (_quantile(ordered, q) for q in (trim, 1 - trim))
    return float((hi - lo).max())


def _quantile(ordered: np.ndarray, q: float) -> np.ndarray:
    """``np.quantile(x, q, axis=0)`` (its linear method, to the bit) of ``ordered``, ``x``
    sorted along axis 0: a fifth of its time, for the many small blobs of a photo."""
    n = len(ordered)
    at = (n - 1) * q
    below = np.floor(at)
    t = at - below
    a = ordered[min(max(int(below), 0), n - 1)]
    b = ordered[min(max(int(below) + 1, 0), n - 1)]
    step = b - a
    return b - step * (1 - t) if t >= 0.5 else a + step * t


def _mean_quad(corners: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The pixels' corners ``(N, 4, 2)`` averaged, weighted by their probabilities ``p``."""
    w = p / p.sum()
    return (corners * w[:, None, None]).sum(axis=0).astype(np.float32)


def split_blob(corners: np.ndarray, p: np.ndarray, part: float, gap: float | None = None,
               most: int = 6, trim: float = 0.0, *, looks: _Looks | None = None
               ) -> list[np.ndarray]:
    """The pixels of one blob (each pixel's face corners ``(N, 4, 2)``, core probabilities
    ``p``) grouped by the face they point at: index arrays, one per face.

    Each pixel's face centre is measured along and across the blob's mean quad, in shares
    of its sides. One face's pixels point within ``part`` of each other; where they spread
    wider, the fewest groups (at most ``most``, by k-means) whose centres each lie within
    ``part``, their middles at least ``gap`` apart (None: ``part``), are taken, and the blob
    is one face if none are. A spread leaves out ``trim`` of the pixels at each end.
    ``looks``: the blob's centres, if made.
    """
    whole = [np.arange(len(p))]
    if len(p) < 2:
        return whole
    looks = _Looks(corners, p, trim) if looks is None else looks
    at = looks.at()
    if at is None or looks.spread(trim) <= part:
        return whole
    for k in range(2, min(most, len(p)) + 1):
        labels = _kmeans(at, k)
        groups = [np.flatnonzero(labels == j) for j in range(k)]
        if any(not len(g) for g in groups):
            continue
        if all(_spread(at[g], trim) <= part for g in groups):
            middles = np.stack([at[g].mean(axis=0) for g in groups])
            gaps = np.abs(middles[:, None] - middles[None]).max(axis=2)
            np.fill_diagonal(gaps, np.inf)
            return groups if gaps.min() >= (part if gap is None else gap) else whole
    return whole


def _kmeans(points: np.ndarray, k: int, rounds: int = 20) -> np.ndarray:
    """Each point's group of ``k`` (Lloyd's k-means from the farthest points in turn:
    the same answer each time)."""
    if points.dtype != np.float64 or points.ndim != 2 or points.shape[1] != 2:
        return _kmeans_slow(points, k, rounds)
    # Float64 points in the plane (`_centres`), by whole columns: per-group means and
    # distances as numpy made them (a mean over axis 0 adds its rows in turn, as bincount
    # does; a norm of two is the root of their squares' sum), at a third of the calls.
    x, y = points[:, 0], points[:, 1]
    seeds = [int(np.argmin(x + y))]
    dist = None
    for _ in range(k - 1):
        dx, dy = x - x[seeds[-1]], y - y[seeds[-1]]
        near = np.sqrt(dx * dx + dy * dy)
        dist = near if dist is None else np.minimum(dist, near)
        seeds.append(int(np.argmax(dist)))
    mx, my = x[seeds].copy(), y[seeds].copy()
    labels = np.zeros(len(points), dtype=int)
    for _ in range(rounds):
        dx, dy = x[:, None] - mx[None], y[:, None] - my[None]
        labels = np.argmin(np.sqrt(dx * dx + dy * dy), axis=1)
        count = np.bincount(labels, minlength=k)
        some = count > 0
        nx = np.where(some, np.bincount(labels, x, k) / np.maximum(count, 1), mx)
        ny = np.where(some, np.bincount(labels, y, k) / np.maximum(count, 1), my)
        # np.allclose(moved, middles), a quarter of its time (the middles are finite)
        if np.all(np.abs(nx - mx) <= 1e-8 + 1e-5 * np.abs(mx)) \
                and np.all(np.abs(ny - my) <= 1e-8 + 1e-5 * np.abs(my)):
            break
        mx, my = nx, ny
    return labels


def _kmeans_slow(points: np.ndarray, k: int, rounds: int = 20) -> np.ndarray:
    """`_kmeans` of any points, by rows."""
    seeds = [int(np.argmin(points[:, 0] + points[:, 1]))]
    for _ in range(k - 1):
        dist = np.min([np.linalg.norm(points - points[i], axis=1) for i in seeds], axis=0)
        seeds.append(int(np.argmax(dist)))
    middles = points[seeds].copy()
    labels = np.zeros(len(points), dtype=int)
    for _ in range(rounds):
        labels = np.argmin(np.linalg.norm(points[:, None] - middles[None], axis=2), axis=1)
        moved = np.stack([points[labels == j].mean(axis=0) if np.any(labels == j) else middles[j]
                          for j in range(k)])
        # np.allclose(moved, middles), a quarter of its time (the middles are finite)
        if np.all(np.abs(moved - middles) <= 1e-8 + 1e-5 * np.abs(middles)):
            break
        middles = moved
    return labels


def in_company(cores: list[CoreQuad], reach: float) -> list[CoreQuad]:
    """The cores that have a like-sized core within ``reach`` of their long sides."""
    if len(cores) < 2:
        return []
    centres = np.stack([c.quad.mean(axis=0) for c in cores])
    sides = np.stack([np.linalg.norm(c.quad - np.roll(c.quad, 1, axis=0), axis=1) for c in cores])
    long = sides.max(axis=1)
    size = np.sqrt(sides[:, 0] * sides[:, 1])
    dist = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    ratio = size[:, None] / size[None]
    near = (dist <= reach * long[:, None]) & (ratio >= 0.7) & (ratio <= 1 / 0.7)
    np.fill_diagonal(near, False)
    return [c for c, ok in zip(cores, near.any(axis=1), strict=True) if ok]


def uncovered(items: list[T], quads: list[np.ndarray], overlap: float) -> list[T]:
    """The items (anything with a ``quad``) that overlap none of ``quads`` by more than
    ``overlap`` (of the smaller quad)."""
    if not quads:
        return list(items)
    boxes = quad_bounds(quads)
    kept = []
    for c in items:
        near = bounds_meeting(boxes, c.quad)
        if all(quad_overlap(c.quad, quads[j]) <= overlap for j in near):
            kept.append(c)
    return kept


__all__ = ["CORES_FILE", "CoreConfig", "CoreQuad", "find_cores", "load_session", "net_input",
           "split_blob", "two_faces", "uncovered"]
