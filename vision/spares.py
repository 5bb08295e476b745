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

One more case is heard where `agree` (or `centred`) would keep the net out: every box the
spare overlaps reads ``none`` (`SpareConfig.bare`) and the spare is about as large as the
located tiles near it (`SpareConfig.bare_size`). A lying tile seen at a slant shows a
sheared face; the classical steps box it upright over part of that face and the front side
below (IoU 0.3-0.5 with the face), and where a whole row is boxed so, no net quad there
fits a located one and `agree` kept them all out. On the real photos the boxes of a lying
row also hold their front sides and some read ``none``, but every box beside them does too,
so the net's face is short among them (0.24-0.75 of the median near) and stays out (let in,
the table photo turned 7 degrees lost its hand, 13 tiles right -> 0). Interleaved A/B
(read_photo, tuning renders x100, bare off/on): 960000 exact hands 59 -> 60, layouts 39 ->
40, scores 58 -> 60, misread 42 -> 27, missed 110 -> 109; 940000 hands 58/58, layouts
43/43, scores 53 -> 54, missed 106 -> 102; 910000 hands 69 -> 70, layouts 58 -> 59, scores
67 -> 68, missed 68 -> 65; 920000 hands 71/71 (+920018, -920012), layouts 49/49, scores
70/70, missed 115 -> 111, misread 11 -> 18, wrong role 104 -> 98. Real variants the same
(360/390, 16/30 in the tree measured, photo by photo). Left off (`SpareConfig.bare` None): on
the tree of a little later the soft standing photo lost its hand (real variants 368 ->
365 tiles, 19 -> 18 exact).

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
    bare: float | None = None
    """A spare that `agree` or `centred` keeps out is read all the same where every located
    quad it overlaps is read ``none`` at least this surely (it holds no face: a lying tile's
    face and its front side boxed upright, a strip of body beside a sheared face), and
    replaces them as any spare does. None never: 0.5 read the tuning renders better (see the
    module's doc) but, on a later tree, the soft standing photo worse (13 -> 10 tiles right;
    a spare let in at the hand's right end, 0.67-0.79 of the photo's median box)."""
    bare_centred: bool = True
    """Whether `bare` also lets in a spare `centred` keeps out (else only `agree`'s)."""
    bare_size: float = 0.8
    """With `bare`: only a spare at least this many times the median located tile near it
    (as `size_ratio`). On the real photos the boxes of a row of lying tiles all hold their
    front sides, and the net's face among them is short (0.24-0.75 of them, 18 such on the
    30 variants): it broke the row (the table photo turned 7 degrees, 13 tiles right -> 0).
    On the renders the faces the net frames where a box holds a face and its front side
    or a sheared face's strip are like their neighbours (0.74-1.39 on seeds 940000)."""


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
    if config.size_ratio is not None or config.bare is not None:
        pairs = _like_sized(quads, pairs, config)
    if not pairs:
        return dets
    rivals = sorted({i for _, near, _ in pairs for i in near})
    spares = [_framed(q, dets[near[0]]) for q, near, _ in pairs]
    read = list(classify(image, [dets[i] for i in rivals] + spares))
    mine = dict(zip(rivals, read[:len(rivals)], strict=True))
    taken: dict[int, list[TileDetection]] = {}
    gone: set[int] = set()
    for spare, got, (_, near, vouched) in zip(spares, read[len(rivals):], pairs, strict=True):
        boxes = [mine[i] for i in near]
        if (vouched or _bare(boxes, config)) and _wins(got, boxes, config):
            taken.setdefault(near[0], []).append(spare)
            gone.update(near)
    out = []
    for i, det in enumerate(dets):
        out.extend(taken.get(i, ()))
        if i not in gone:
            out.append(det)
    return out


def _rivals(quads: list[np.ndarray], cores: Sequence[CoreQuad], cfg: SpareConfig
            ) -> list[tuple[np.ndarray, list[int], bool]]:
    """Each sure face-up net quad that no located quad fits, with the located quads it
    overlaps (at least one) and whether it is vouched for: the net's quads near it mostly
    fit located ones and it is not the middle of one. Unvouched ones only with
    `SpareConfig.bare`."""
    bounds = quad_bounds(quads)
    sure = [np.asarray(c.quad, np.float32) for c in cores
            if not c.face_down and c.score >= cfg.min_core]
    fits, overlapping = [], []
    for q in sure:
        near = [int(i) for i in bounds_meeting(bounds, q)]
        fits.append(any(quad_iou(q, quads[i]) >= cfg.same for i in near))
        overlapping.append([i for i in near if quad_overlap(q, quads[i]) > cfg.overlap])
    centres = np.array([q.mean(axis=0) for q in sure]).reshape(-1, 2)
    out = []
    for k, q in enumerate(sure):
        if fits[k] or not overlapping[k]:
            continue
        centred = _centred(q, [quads[i] for i in overlapping[k]], cfg)
        agrees = True
        if cfg.agree is not None:
            near = np.flatnonzero(np.linalg.norm(centres - centres[k], axis=1) <= _reach(q, cfg))
            near = near[near != k]
            agrees = bool(len(near)) and np.mean([fits[j] for j in near]) >= cfg.agree
        if agrees and not centred:
            out.append((q, overlapping[k], True))
        elif cfg.bare is not None and (cfg.bare_centred or not centred):
            out.append((q, overlapping[k], False))
    return out


def _bare(boxes: list[TileDetection], cfg: SpareConfig) -> bool:
    """Whether every box is read ``none`` at least `SpareConfig.bare` surely."""
    assert cfg.bare is not None
    return all(b.label is None and not b.face_down and b.confidence >= cfg.bare for b in boxes)


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
    it overlaps left out (`SpareConfig.size_ratio`; all where no other is near), and, not
    vouched for, not much smaller either (`SpareConfig.bare_size`; none where no other is
    near)."""
    keep = []
    for q, rivals, vouched in pairs:
        reach = _reach(q, cfg)
        centre = q.mean(axis=0)
        near = [quad_area(o) for i, o in enumerate(quads) if i not in rivals
                and np.linalg.norm(o.mean(axis=0) - centre) <= reach]
        typical = float(np.median(near)) if near else 0.0
        area = quad_area(q)
        if near and cfg.size_ratio is not None and area > cfg.size_ratio * typical:
            continue
        if not vouched and (not near or area < cfg.bare_size * typical):
            continue
        keep.append((q, rivals, vouched))
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
