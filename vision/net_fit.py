"""Net fits: a classical box that fits the sure core-net quad over it loosely gives way to it.

The contests of `agari.vision.locate` and the holds (`agari.vision.holds`) replace a
classical proposal by the net's quads only where the judge (the classifier's
`tile_likeness`) doubts the proposal holds a tile. A box that holds a face with its
front side, half a neighbour or only part of the face still holds part of a tile, so
the judge rates it a tile surely, and it stays. On the photo renders the net's quad of
that tile frames the face far better: of the 158 proposals on seeds 1000000-1000099
fitting their one sure net rival at IoU under 0.7 where the judge rated the rival a tile
at 0.97 or more, the rival fitted the true face better in 157 (36 faces went from no box
at IoU 0.5 to one, none the other way; counted before the guards below).

On the real photos the net's quads hold a face's printed part only, and a whole-face box
round them is right (see `agari.vision.holds`, `agari.vision.spares`); there the boxes
are larger than their net quads all over the photo. So the rule is kept to photos whose
proposals, where one net quad lies over each, are about their net quads' size
(`NetFitConfig.photo_ratio`), and a net quad lying in the middle of its box, as a printed
part lies in a face, disputes nothing (`NetFitConfig.centred`).

Interleaved A/B of `read_photo` (photo_eval's settings, off -> on, exact hands/scores/
layouts of 100 renders): 1000000 66/61/43 -> 69/64/46, 950000 68/63/39 -> 69/65/41,
990000 67/66/59 -> 68/67/57, 980000 70/64/53 -> 72/65/55, guard 970000 70/66/49 ->
72/66/50; hand tiles missed 103 -> 88 (1000000), 79 -> 62 (990000), 102 -> 81 (980000).
Real photos and their variants: 368/390 tiles, 19/30 exact either way, photo by photo.
Locator alone (`bench/locate_eval.py --tray none --synth 100 --size 1920x1080 --hand`):
hand tiles found 0.8687 -> 0.8998 (seed 10000), 0.8509 -> 0.8774 (seed 20000), precision
0.783 -> 0.799, 0.787 -> 0.804; CPU time the same (137, 135 ms).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from agari.vision.proposals import Proposal
from agari.vision.quads import bounds_meeting, quad_area, quad_bounds, quad_iou, quad_overlap


@dataclass(frozen=True, slots=True)
class NetFitConfig:
    """When a classical proposal is judged against the sure net quads over it."""

    min_core: float = 0.7
    """Net quads less sure than this (mean core probability) dispute nothing."""
    overlap: float = 0.45
    """A net quad overlapping a proposal by more than this (of the smaller) is its rival."""
    fit: float = 0.7
    """A proposal fitting its best rival at this IoU or more is that tile: left alone."""
    sure: float = 0.97
    """The proposal gives way where the judge rates every rival a tile at least this surely."""
    photo_ratio: float | None = 1.5
    """Only in a photo where the median area of a proposal over its one net quad (face-up
    proposals with exactly one) is at most this: there the net frames whole faces as the
    locator does. None: every photo."""
    centred: float | None = 0.2
    """A rival whose centre lies within this share of the proposal's sides of its centre,
    `inside` the proposal and at most 1/`larger` its area, is the printed middle of the face
    the proposal holds (as the net frames real faces), and disputes nothing. A face with its
    front side lies in the top of its box, a straddled tile to one side. None never checks."""
    inside: float = 0.8
    larger: float = 1.2
    centred_above: float | None = None
    """`centred` is checked only in a photo whose median proposal-to-net-quad area (as
    `photo_ratio` measures it) is above this: where boxes are about their net quads' size
    the net frames whole faces, and a quad in the middle of a larger box is a face boxed
    with its front side (on renders 1030000-1030099 the net quad fitted the true face better
    in 95 of 122 such pairs; the real photos' medians are 1.27-2.13, one variant 0.92).
    None: always checked. Not on by default: at 1.25, `read_photo` hands/scores 1030000
    72/67 -> 73/67, 1020000 73/72 -> 75/72, 1000000 76/74 -> 75/73, 950000 74/67 -> 75/68,
    990000 73/71 -> 72/70 (sum +2 hands, -1 score), guard 980000 76/73 -> 77/74; hand tiles
    missed 248 -> 234 over the five; real variants 368/390, 19/30 exact, photo by photo.
    The loss on 990066 is the classifier reading a 4s framed better as 4p."""
    off_centre: float | None = None
    """Where the guards (`photo_ratio`, `centred`) keep disputes out, all of the photo's
    disputes are heard after all if the net quads lie off the middle of their boxes across
    the photo: the median offset of each kept-out dispute's best-fitting rival from its box's
    centre (the larger share of the box's sides, as `centred` measures it) at least this,
    over at least `off_centre_least` disputes. A face boxed with its front side (a lying
    tile seen at a slant) lies in the top of its box, 0.15-0.25 off on the renders whose
    boxes all hold front sides (950009, 950078, 950093); a printed middle lies in the middle
    (the real photos' 30 variants: median 0.08-0.13 a photo with 8 or more disputes). None
    never; 0.15 in `HAND_LOCATE` (from stop 43, with `LyingConfig.join_gap` and
    `LayoutConfig.fewer_least`; figures in docs/photo.md): at 0.15 the locator boxes
    5 -> 12, 7 -> 13 and 7 -> 14 hand tiles of those three renders, but alone whole
    `photo_eval` (/work/cache/helper-134/CC against main 7467720) reads the five tuning
    sets' hands, scores and layouts the same
    (413/395/333), hand tiles missed 235 -> 224, wrong role 321 -> 325; guard 980000 79/75/60
    the same; real variants 371/390, 21/30, photo by photo the same."""
    off_centre_least: int = 4


Dispute = tuple[Proposal, list[Proposal]]


def loose_fits(proposals: list[Proposal], found: list[Proposal], scores: list[float],
               cfg: NetFitConfig) -> list[Dispute]:
    """The face-up proposals that fit the sure face-up net quads over them loosely, each
    with those quads (all in working pixels); none where the photo's net quads are smaller
    than its proposals (`NetFitConfig.photo_ratio`), unless they lie off the middle of their
    boxes across the photo (`NetFitConfig.off_centre`).

    Args:
        proposals: classical proposals.
        found: the net's quads as proposals.
        scores: each net quad's mean core probability (as ``found``).
        cfg: tuning.
    """
    nets = [f for f in found if not f.face_down]
    sure = [s >= cfg.min_core for f, s in zip(found, scores, strict=True) if not f.face_down]
    if not nets or not proposals:
        return []
    boxes = quad_bounds([n.quad for n in nets])
    ratios, overs = [], []
    for p in proposals:
        if p.face_down:
            continue
        over = [j for j in bounds_meeting(boxes, p.quad)
                if quad_overlap(nets[j].quad, p.quad) > cfg.overlap]
        if len(over) == 1:
            ratios.append(quad_area(p.quad) / max(quad_area(nets[over[0]].quad), 1e-6))
        overs.append((p, over))
    median = float(np.median(ratios)) if ratios else None
    ratio_ok = cfg.photo_ratio is None or (median is not None and median <= cfg.photo_ratio)
    if not ratio_ok and cfg.off_centre is None:
        return []
    # Printed middles are looked for only where boxes run larger than their net quads.
    centred = cfg.centred_above is None or median is None or median > cfg.centred_above
    disputes, unguarded = [], []
    for p, over in overs:
        every = [nets[j] for j in over if sure[j]]
        rivals = [r for r in every if not (centred and _centred(r.quad, p.quad, cfg))]
        if ratio_ok and rivals and max(quad_iou(r.quad, p.quad) for r in rivals) < cfg.fit:
            disputes.append((p, rivals))
        if cfg.off_centre is not None and every \
                and max(quad_iou(r.quad, p.quad) for r in every) < cfg.fit:
            unguarded.append((p, every))
    if cfg.off_centre is not None and _off_centre(disputes, unguarded, cfg):
        return unguarded
    return disputes


def _off_centre(disputes: list[Dispute], unguarded: list[Dispute], cfg: NetFitConfig) -> bool:
    """Whether the disputes the guards keep out (in ``unguarded``, not in ``disputes``) have
    their net quads off the middle of their boxes across the photo (`NetFitConfig.off_centre`)."""
    assert cfg.off_centre is not None
    heard = {id(p) for p, _ in disputes}
    offsets = [_offset(max(rivals, key=lambda r: quad_iou(r.quad, p.quad)).quad, p.quad)
               for p, rivals in unguarded if id(p) not in heard]
    return len(offsets) >= cfg.off_centre_least and float(np.median(offsets)) >= cfg.off_centre


def _offset(net: np.ndarray, box: np.ndarray) -> float:
    """How far ``net``'s centre lies from ``box``'s: the larger share of the box's sides."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(box.astype(np.float32))
    t = np.deg2rad(angle)
    dx, dy = net.mean(axis=0) - (cx, cy)
    along = abs(dx * np.cos(t) + dy * np.sin(t)) / max(w, 1e-6)
    across = abs(-dx * np.sin(t) + dy * np.cos(t)) / max(h, 1e-6)
    return float(max(along, across))


def _centred(net: np.ndarray, box: np.ndarray, cfg: NetFitConfig) -> bool:
    """Whether ``net`` is the printed middle of the face ``box`` holds (`NetFitConfig.centred`)."""
    if cfg.centred is None or quad_overlap(net, box) < cfg.inside \
            or quad_area(box) < cfg.larger * quad_area(net):
        return False
    return _offset(net, box) <= cfg.centred


__all__ = ["NetFitConfig", "loose_fits"]
