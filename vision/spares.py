"""Spares: the core net's quads left out, read where the tile kept in their place reads badly.

The locator adds a core-net quad (`agari.vision.cores`) only where no classical proposal
covers it, and lets the judge (`TileClassifier.tile_likeness`: how likely a crop holds *a*
tile) settle the clearer disagreements (`agari.vision.locate`, `agari.vision.holds`). A
box that sits half a tile off, straddles two tiles or holds a lying tile's front side still
often stays: it holds part of a tile, so the judge rates it a tile, and the net's quad of
that tile, left out, is lost for good. On the tuning renders (seed 910000) 36 of the 85 hand
tiles with no detection at IoU 0.5 had a net quad at IoU 0.5 or more under such a box
(box IoU 0.3-0.5), which the classifier read as the right face at 0.93-0.98 where the box
read ``none`` or a face unsurely.

So the classifier reads both: the boxes it cannot name surely (`SpareConfig.weak`) that a
left-out net quad overlaps, and those net quads. A net quad read as a face surely
(`SpareConfig.accept`), and more surely than every weak box it overlaps by a margin,
replaces them, its corners named in the frame of the box it replaces. Boxes read surely
are never replaced: on the real photos the net's quads hold only a face's printed part,
and a sure box there is the whole face (see `agari.vision.holds`).

Only where the net frames tiles as the locator does (`SpareConfig.agree`) and the net quad
is not just the middle of the box (`SpareConfig.centred`): on the real photos the net's
quads hold a face's printed part, and short quads in a row of tall boxes broke the rows.
Tuning renders 910000 + 920000, interleaved A/B (locator run once, settled both ways):
exact hands 117 -> 118, exact scores 113 -> 115, hand tiles missed 215 -> 206; 24 of the
200 photos changed. Real variants: 356 of 390 tiles either way, 14 -> 15 exact. About 2 ms
of CPU a photo (process time over 30 tuning renders; a few crops read twice, one classifier
call), ~19 ms of wall time when first measured on the loaded shared machine.

Like the contests, this only chooses between quads the locator made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from agari.engine.tiles import BACK, Tile
from agari.vision.cores import CoreQuad
from agari.vision.detection import Classify, TileDetection, as_quad
from agari.vision.layout_tokens import WHITE_DRAGON
from agari.vision.quads import (
    bounds_meeting,
    order_quad,
    quad_area,
    quad_bounds,
    quad_iou,
    quad_overlap,
    quad_sides,
)
from agari.vision.reframe import face_probability


@dataclass(frozen=True, slots=True)
class SpareConfig:
    """When a left-out net quad is read, and when it replaces the boxes over it."""

    min_core: float = 0.6
    """Net quads less sure than this (mean core probability) are not read."""
    same: float = 0.7
    """A net quad that fits a located quad at this IoU or more is that tile: not a spare."""
    overlap: float = 0.3
    """A spare and a located quad overlapping by more than this (of the smaller) compete."""
    weak: float = 0.8
    """A located quad read as a face less surely than this (or read ``none``) may give way;
    read as surely or more (or as a back), it keeps its place and the spares over it."""
    accept: float = 0.9
    """A spare takes the place of the weak quads it overlaps when read as a face at least
    this surely..."""
    accept_white: float = 0.97
    """...(a blank 白 this surely: a net quad on a tile's blank top or side reads so)..."""
    margin: float = 0.1
    """...and more surely than each of them reads as a face by this."""
    size_ratio: float | None = 1.5
    """A spare larger than this many times the median located tile near it (within `near` of
    its long sides; those it overlaps left out) is not read: a net quad over two touching
    tiles reads as one of them too. (Smaller is no sign: the boxes near may all hold their
    tiles' front sides.) None never checks."""
    near: float = 4.0
    centred: float | None = 0.2
    """A spare inside one located quad (`inside` of it) whose centre lies within this share
    of that quad's sides of its centre is not read: it is the printed middle of the face the
    quad holds (as the net frames real faces), not a tile the quad missed. A face with its
    front side lies in the top of its box, a straddled tile to one side. None never checks."""
    inside: float = 0.85
    agree: float | None = 0.8
    """A spare is read only where at least this share of the net's other quads near it (within
    `near` of its long sides; at least one) fit a located quad (IoU `same`): there the net
    and the locator frame tiles alike. On the real photos the net's quads hold only a face's
    printed part, so few fit and most are spares; replaced, the boxes read unsurely became
    short quads in a row of tall ones, and the row fell apart (the standing hand's 13 tiles
    right -> 7; real variants 358 -> 340 tiles right at 0.5, 357 at 0.8). None never checks."""


DEFAULT_SPARES = SpareConfig()


def settle_spares(image: np.ndarray, detections: Sequence[TileDetection],
                  cores: Sequence[CoreQuad], classify: Classify, *,
                  config: SpareConfig = DEFAULT_SPARES) -> list[TileDetection]:
    """The located detections with weak ones replaced by the left-out net quads over them.

    Args:
        image: BGR ``uint8 (H, W, 3)``, the photo the quads refer to.
        detections: located tiles (photo pixels, corners in their rows' frames).
        cores: every tile the core net found (photo pixels).
        classify: labels a batch of detections in ``image``.
        config: tuning.

    Returns:
        The detections, unlabelled as given, in the same order; each replaced one gives its
        place to the net quads that replace it.
    """
    dets = list(detections)
    if not dets or not cores:
        return dets
    quads = [np.asarray(d.quad, np.float32) for d in dets]
    pairs = _rivals(quads, cores, config)
    if config.size_ratio is not None:
        pairs = _like_sized(quads, pairs, config)
    if not pairs:
        return dets
    rivals = sorted({i for _, near in pairs for i in near})
    spares = [_framed(q, dets[near[0]]) for q, near in pairs]
    read = list(classify(image, [dets[i] for i in rivals] + spares))
    mine = dict(zip(rivals, read[:len(rivals)], strict=True))
    taken: dict[int, list[TileDetection]] = {}
    gone: set[int] = set()
    for spare, got, (_, near) in zip(spares, read[len(rivals):], pairs, strict=True):
        if _wins(got, [mine[i] for i in near], config):
            taken.setdefault(near[0], []).append(spare)
            gone.update(near)
    out = []
    for i, det in enumerate(dets):
        out.extend(taken.get(i, ()))
        if i not in gone:
            out.append(det)
    return out


def _rivals(quads: list[np.ndarray], cores: Sequence[CoreQuad], cfg: SpareConfig
            ) -> list[tuple[np.ndarray, list[int]]]:
    """Each sure face-up net quad that no located quad fits, with the located quads it
    overlaps (at least one), where the net's quads near it mostly fit located ones."""
    bounds = quad_bounds(quads)
    sure = [np.asarray(c.quad, np.float32) for c in cores
            if not c.face_down and c.score >= cfg.min_core]
    fits, overlapping = [], []
    for q in sure:
        near = [int(i) for i in bounds_meeting(bounds, q)]
        fits.append(any(quad_iou(q, quads[i]) >= cfg.same for i in near))
        overlapping.append([i for i in near if quad_overlap(q, quads[i]) > cfg.overlap])
    if cfg.agree is None:
        return [(q, o) for q, f, o in zip(sure, fits, overlapping, strict=True)
                if o and not f and not _centred(q, [quads[i] for i in o], cfg)]
    centres = np.array([q.mean(axis=0) for q in sure]).reshape(-1, 2)
    out = []
    for k, q in enumerate(sure):
        if fits[k] or not overlapping[k] or _centred(q, [quads[i] for i in overlapping[k]], cfg):
            continue
        reach = _reach(q, cfg)
        near = np.flatnonzero(np.linalg.norm(centres - centres[k], axis=1) <= reach)
        near = near[near != k]
        if len(near) and np.mean([fits[j] for j in near]) >= cfg.agree:
            out.append((q, overlapping[k]))
    return out


def _reach(q: np.ndarray, cfg: SpareConfig) -> float:
    """How far from a net quad its neighbours are looked for: `SpareConfig.near` of its
    longest side."""
    return cfg.near * float(max(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)))


def _centred(q: np.ndarray, rivals: list[np.ndarray], cfg: SpareConfig) -> bool:
    """Whether ``q`` is the middle of the one located quad among ``rivals`` it lies in (see
    `SpareConfig.centred`)."""
    if cfg.centred is None or len(rivals) != 1 or quad_overlap(q, rivals[0]) < cfg.inside:
        return False
    box = rivals[0]
    across = (box[1] - box[0] + box[2] - box[3]) / 2.0
    down = (box[3] - box[0] + box[2] - box[1]) / 2.0
    off = q.mean(axis=0) - box.mean(axis=0)
    return all(abs(float(off @ v)) / max(float(v @ v), 1e-9) <= cfg.centred for v in (across, down))


def _like_sized(quads: list[np.ndarray], pairs: list, cfg: SpareConfig) -> list:
    """The pairs whose spare is not much larger than the median located tile near it, those
    it overlaps left out (`SpareConfig.size_ratio`); all where no other is near."""
    keep = []
    for q, rivals in pairs:
        reach = _reach(q, cfg)
        centre = q.mean(axis=0)
        near = [quad_area(o) for i, o in enumerate(quads) if i not in rivals
                and np.linalg.norm(o.mean(axis=0) - centre) <= reach]
        if not near or quad_area(q) <= cfg.size_ratio * float(np.median(near)):
            keep.append((q, rivals))
    return keep


def _framed(quad: np.ndarray, like: TileDetection) -> TileDetection:
    """A detection over ``quad`` with its corners named in ``like``'s frame (its row's), and
    sideways only where ``like`` is and the quad, so named, is as wide as it."""
    q = order_quad(quad, like.up)
    across, down = quad_sides(q)
    return TileDetection(as_quad(q), sideways=like.sideways and across >= down)


def _wins(spare: TileDetection, boxes: list[TileDetection], cfg: SpareConfig) -> bool:
    """Whether the spare's reading takes the place of every box it overlaps."""
    if not isinstance(spare.label, Tile):
        return False
    need = cfg.accept_white if spare.label == WHITE_DRAGON else cfg.accept
    if spare.confidence < need:
        return False
    for box in boxes:
        if box.label == BACK or box.face_down:
            return False
        if isinstance(box.label, Tile) and box.confidence >= cfg.weak:
            return False
        if spare.confidence < face_probability(box) + cfg.margin:
            return False
    return True


__all__ = ["DEFAULT_SPARES", "SpareConfig", "settle_spares"]
