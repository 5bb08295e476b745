"""Row completion: look for the tiles the locator missed beside the ones it found.

Tiles in a hand touch or nearly touch, so a tile that was located and read
with confidence says where its neighbours must be: one tile pitch further
along its row, with much the same shape. The locator misses tiles whose faces
merge with their neighbours or the tile body; here each confidently read face
proposes the quads one pitch to either side, the classifier judges them, and
what it names as a face with high confidence is kept, which in turn proposes
its own neighbours. The classifier's ``none`` class (trained on straddling
crops, fragments and bare table) is what stops a row at its real end. For a
shown hand, a step that lands a little off its tile is re-framed
(`agari.vision.reframe`) before it is given up, and a located box read unsurely
gives way to a step read surely over it (or, shaped like a called tile lying
sideways, to itself read sideways).

This is a verifier on top of the classical locator, not a learned detector:
only quads derived from located tiles are ever looked at.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial

import cv2
import numpy as np
from agari.engine.errors import InvalidInput
from agari.engine.tiles import BACK, Tile
from agari.vision.detection import Classify, TileDetection, as_quad
from agari.vision.layout_tokens import WHITE_DRAGON
from agari.vision.memo_scope import memo_scope
from agari.vision.quads import (
    ConvexParts,
    convex_hull,
    convex_parts,
    inside_image,
    quad_area,
    quad_bounds,
    quad_overlap,
    quad_sides,
)
from agari.vision.reframe import ReframeConfig, face_probability, reframe


@dataclass(frozen=True, slots=True)
class FillConfig:
    """When a located tile may propose neighbours, and when a proposal is kept."""

    anchor_confidence: float = 0.80
    """A located face read at least this confidently proposes its neighbours."""
    accept_confidence: float = 0.90
    """A proposed neighbour is kept when read as a face at least this confidently."""
    accept_back: float = 0.97
    """A proposed neighbour read as a back is kept only above this (bare felt looks alike)."""
    accept_white: float = 0.90
    """A proposed neighbour read as a blank 白 is kept above this. A shown hand asks as much
    as of a back (`HAND_FILL`): a step past a row's end or into the gap before a tile set
    apart lands on bare table, which on a pale table reads as 白 (tuning renders 910000 +
    920000: misread hand tiles 68 -> 45, exact hands 108 -> 109). Trays keep 0.90 (any
    face): at 0.97 the real tray photos lost real 白 (locator recall 0.990 -> 0.983)."""
    pitches: tuple[float, ...] = (1.0, 1.06)
    """Steps tried, in tile widths along the row (touching, and with a thin gap)."""
    far_pitches: tuple[float, ...] = ()
    """Longer steps, tried beside a tile only where no step of `pitches` found one: the
    gaps of a shown hand (the winning tile set a little apart, melds further along)."""
    plain_below: float | None = None
    """A far step over a patch whose grey level varies less than this (standard deviation,
    0-255) is bare table and is not read. On 100 tuning renders every far step the
    classifier accepted as a tile varied by 11 or more, a quarter of all far steps by
    under 5; the 200 tuning renders read the same hands with the rule as without it, the
    classifier a tenth fewer crops. None reads every far step."""
    rescue_floor: float | None = None
    """Beside a tile where no step was read surely as a tile, the step read likeliest as a
    face (at least this likely) is re-framed (`agari.vision.reframe`: moved, trimmed) and
    kept if it then reads as surely as `accept_confidence` asks; the same for the far steps.
    A step lands a little off its tile wherever the row bends, a gap is wider than the
    steps or the anchor's quad is loose; None skips."""
    seen_pitch: tuple[float, float] | None = None
    """Where a known tile lies one tile behind an anchor (its centre this many of the
    anchor's widths back along the row), the step ahead is also tried at the spacing the
    two show: at a steep slant a face's box is a rectangle wider than the face and
    turned off the row, so steps by its own width and edge drift off the row and land
    between tiles after a few (1040035, 990011). None steps by the anchor's box alone."""
    seen_across: float = 0.35
    """The tile behind lies within this many anchor widths of the row's line (`seen_pitch`)."""
    seen_alike: float = 1.0
    """The tile behind counts (`seen_pitch`) only where its box's width and height are each
    within this share of the anchor's: boxes of standing tiles that take in the top or not
    sit up to a third of a tile apart across the row (1020030)."""
    seen_differs: float = 0.0
    """The step at the spacing seen is tried only where it ends more than this many anchor
    widths from the box's own step: where the two agree it only moves a step a hair, and
    the layout reads the shifted boxes otherwise (1020030: the winning tile's gap)."""
    far_at_ends: bool = False
    """Take far steps (`far_pitches`) only beside a row's end: not on a side where the first
    near step lands on another tile stepping in the same round (one of its frontier), as
    that tile steps across any gap beyond it itself (far, or near where a tile lies there).
    From inside a row the far steps land on or past the neighbours, where the neighbour's
    own steps look too. False: far steps beside every tile where no near step found one.
    Off in `HAND_FILL`: it saves ~30 of ~295 crops a first reading (process CPU -39 ms
    median, paired), but merged at stop 44 it read 2 fewer of the real variants' tiles
    (one photo turned half round, its 1z sure only from an inner far step's re-framing)."""
    max_overlap: float = 0.30
    """A proposal overlapping a known tile by more than this (of the smaller) is not tried."""
    firm_confidence: float = 0.0
    """Located tiles read as a face less surely than this do not stand in the way of a
    step, and a step kept over one replaces it: a box over part of a tile, or straddling
    two, would otherwise hide the tile beside a sure one for good (0: every reading
    stands). At most `anchor_confidence`: an anchor is never replaced."""
    max_rounds: int = 12
    """Each round extends every row by at most one tile at either end."""
    max_new: int = 40
    """Most tiles added to one photo."""
    sideways: bool = False
    """Also try a called tile lying sideways beside an upright one (bottom edges in line);
    one found is kept but proposes no further neighbours. On for shown hands (`agari
    photo`: melds); off for bulk labelling, where a sideways guess is more often wrong."""
    sideways_aspect: float = 0.0
    """Where the upright tile's picture is squatter than this (height over width: a tile's
    true shape), a called tile tried beside it (`sideways`) is this many of its widths long
    along the row and this many times shallower than it across: tiles lying flat seen at a
    slant are foreshortened across the row only, so the picture's height is not the tile's
    length. A picture as tall or taller is seen square on and sizes the called tile itself
    (as long as it is high, as deep as it is wide), as 0 does everywhere. On the tuning
    renders the called tile beside its meld's upright one was covered at IoU >= 0.5 by 20 of
    53 such steps sized by the picture, by 51 at 1.31 (the misses: added kans' upper tiles)."""
    sideways_trim: float = 0.0
    """Also try the called tile beside the top this share of the upright tile's quad: a
    tile lying flat is often boxed with its front side below its face, and the called
    tile lies level with the face (0: never). On tuning renders 960000 (x100) 0.6 found 5
    more called tiles (0.75: 3, 0.45: none)."""
    squat_aspect: float = 0.0
    """Where an upright step is kept over a loose located tile (`firm_confidence`) at least
    this much longer along the row than across it, in the step's frame, and
    `squat_length` times as long as the step is wide, that box is read once more lying
    sideways and kept so, in place of the step, if that reads as surely as a step must: it
    is a called tile boxed whole, whose upright half the step reads surely as another tile
    (4p as 2p at 0.98). 0 never."""
    squat_length: tuple[float, float] = (1.15, 1.6)
    """See `squat_aspect`: shorter is a box over part of an upright tile (squat too),
    longer a box over two tiles."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.firm_confidence <= self.anchor_confidence:
            raise InvalidInput("firm_confidence must lie in [0, anchor_confidence]")


DEFAULT_FILL = FillConfig()
HAND_FILL = FillConfig(sideways=True, far_pitches=(1.25, 1.5, 1.8, 2.2, 2.7, 3.3), plain_below=5.0,
                       rescue_floor=0.3, firm_confidence=0.8, accept_white=0.97, squat_aspect=1.2,
                       seen_pitch=(0.7, 1.3), seen_alike=0.15, seen_differs=0.15,
                       sideways_aspect=1.31, sideways_trim=0.6)
"""Row completion for a shown hand, called tiles and the gaps between groups included
(`agari.pipeline`)."""


def fill_rows(image: np.ndarray, detections: Sequence[TileDetection], classify: Classify, *,
              config: FillConfig = DEFAULT_FILL) -> list[TileDetection]:
    """Add the confidently read neighbours of confidently read tiles.

    Args:
        image: BGR ``uint8 (H, W, 3)``, the image the quads refer to.
        detections: classified detections (label and confidence set).
        classify: labels a batch of detections in ``image``.
        config: tuning.

    Returns:
        The detections with the found neighbours inserted beside the tile that
        proposed them (so a row stays in reading order).
    """
    out = list(detections)
    known = _Tiles([d for d in out if not _is_loose(d, config)])
    h, w = image.shape[:2]
    frontier = [d for d in out if _is_anchor(d, config)]
    added = 0
    for _ in range(config.max_rounds):
        if not frontier or added >= config.max_new:
            break
        trials, owners = _neighbours(frontier, known, (w, h), config.pitches, config)
        if not trials:
            break
        read = classify(image, trials)
        kept = _best_per_side(read, owners, config)
        if config.rescue_floor is not None:
            kept += _rescued(image, read, owners, kept, classify, config)
        if config.far_pitches:
            kept += _across_gaps(image, frontier, kept, known, classify, config)
        frontier = []
        for anchor, side, det in kept:
            if added >= config.max_new or known.overlaps(np.asarray(det.quad),
                                                         config.max_overlap):
                continue
            under = [d for d in out if _is_loose(d, config) and quad_overlap(
                np.asarray(d.quad, np.float32), np.asarray(det.quad, np.float32))
                > config.max_overlap]
            if config.squat_aspect and not det.sideways:
                det = _called_under(image, under, det, classify, config) or det
            out = [d for d in out if not any(d is u for u in under)]
            at = next(i for i, d in enumerate(out) if d is anchor)
            out.insert(at + (1 if side > 0 else 0), det)
            known.add(det)
            if not det.sideways:  # its own width is not the row's step
                frontier.append(det)
            added += 1
    return out


def read_tiles(image: np.ndarray, classifier, *, top_k: int = 3, fill: bool = True,
               config: FillConfig = DEFAULT_FILL) -> list[TileDetection]:
    """Stages 1-2 as `agari detect` runs them: locate, classify, complete rows.

    Args:
        image: BGR ``uint8 (H, W, 3)``.
        classifier: has ``classify_detections(image, dets, top_k=k)`` (a `TileClassifier`).
        top_k: alternatives kept per tile.
        fill: complete rows (`fill_rows`).

    Returns:
        Classified detections in reading order, those the classifier calls ``none``
        included (label None).
    """
    from agari.models.polarity import face_polarity
    from agari.vision.locate import locate

    classify = partial(classifier.classify_detections, top_k=top_k)
    dets = classify(image, locate(image))
    reader = face_polarity(classifier, image, dets)  # a dark-faced set: crops read inverted
    if reader is not classifier:
        classify = partial(reader.classify_detections, top_k=top_k)
        dets = classify(image, dets)
    return fill_rows(image, dets, classify, config=config) if fill else dets


def _is_anchor(det: TileDetection, cfg: FillConfig) -> bool:
    """Upright faces read confidently propose neighbours (a sideways one's row frame is
    the upright tiles', so its own width would be the wrong step)."""
    return (isinstance(det.label, Tile) and not det.sideways
            and det.confidence >= cfg.anchor_confidence)


def _is_loose(det: TileDetection, cfg: FillConfig) -> bool:
    """Read as a face, but less surely than `FillConfig.firm_confidence`."""
    return isinstance(det.label, Tile) and det.confidence < cfg.firm_confidence


def _accepted(det: TileDetection, cfg: FillConfig) -> bool:
    if det.label == WHITE_DRAGON:
        return det.confidence >= cfg.accept_white
    if isinstance(det.label, Tile):
        return det.confidence >= cfg.accept_confidence
    return det.label == BACK and det.confidence >= cfg.accept_back


def _neighbours(frontier: list[TileDetection], known: _Tiles, size: tuple[int, int],
                pitches: tuple[float, ...], cfg: FillConfig, *, sideways: bool = True,
                done: set[tuple[int, int]] | None = None
                ) -> tuple[list[TileDetection], list[tuple[TileDetection, int]]]:
    """Quads ``pitches`` tile widths either side of each frontier tile (and, if ``sideways``
    and configured, a called tile lying beside it and a step at the spacing seen behind it,
    `FillConfig.seen_pitch`) that cover nothing known yet; none on
    the sides in ``done`` (``(id(tile), side)``: a neighbour found there already)."""
    trials: list[TileDetection] = []
    owners: list[tuple[TileDetection, int]] = []
    steps: list[tuple[np.ndarray, bool, TileDetection, int]] = []
    for det in frontier:
        q = np.asarray(det.quad, np.float64)
        step = ((q[1] - q[0]) + (q[2] - q[3])) / 2.0  # the row's direction, one tile wide
        for side in (1, -1):
            if done and (id(det), side) in done:
                continue
            shapes = [(q + side * pitch * step, False) for pitch in pitches]
            seen = _seen_step(q, step, side, known, cfg) if sideways else None
            if seen is not None:
                shapes.append((q + seen, False))
            if sideways and cfg.sideways and not det.sideways:
                shapes.append((_sideways_beside(q, side, cfg.sideways_aspect), True))
                if cfg.sideways_trim:  # the upright tile's face alone, its front side cut off
                    face = q.copy()
                    face[2:] = q[1::-1] + (q[2:] - q[1::-1]) * cfg.sideways_trim
                    shapes.append((_sideways_beside(face, side, cfg.sideways_aspect), True))
            steps += [(nq, turned, det, side) for nq, turned in shapes
                      if inside_image(nq, size)]
    # Known tiles are the same for every step: the near ones of all found at once.
    clear = known.overlapping([nq for nq, _, _, _ in steps], cfg.max_overlap)
    for (nq, turned, det, side), covers in zip(steps, clear, strict=True):
        if not covers:
            trials.append(TileDetection(as_quad(nq), sideways=turned))
            owners.append((det, side))
    return trials, owners


def _seen_step(q: np.ndarray, step: np.ndarray, side: int, known: _Tiles,
               cfg: FillConfig) -> np.ndarray | None:
    """The spacing from the known tile one step behind ``q`` (away from ``side``) to ``q``,
    or None (`FillConfig.seen_pitch`)."""
    if cfg.seen_pitch is None or not len(known.centres):
        return None
    width = float(np.linalg.norm(step))
    if width <= 0:
        return None
    along_dir = step / width
    d = q.mean(axis=0) - known.centres  # from each known tile to this one
    along = side * (d @ along_dir) / width
    across = np.abs(d[:, 0] * along_dir[1] - d[:, 1] * along_dir[0]) / width
    lo, hi = cfg.seen_pitch
    near = np.flatnonzero((along >= lo) & (along <= hi) & (across <= cfg.seen_across))
    near = [k for k in near.tolist() if _alike(known.quads[k], q, cfg.seen_alike)]
    if not len(near):
        return None
    seen = d[min(near, key=lambda k: abs(along[k] - 1.0))]
    return seen if np.linalg.norm(seen - side * step) > cfg.seen_differs * width else None


def _alike(a: np.ndarray, b: np.ndarray, share: float) -> bool:
    """Whether quads ``a`` and ``b`` have widths and heights within ``share`` of b's."""
    sa, sb = np.array(quad_sides(a)), np.array(quad_sides(b))
    return bool(np.all(np.abs(sa - sb) <= share * sb))


def _across_gaps(image: np.ndarray, frontier: list[TileDetection],
                 kept: list[tuple[TileDetection, int, TileDetection]], known: _Tiles,
                 classify: Classify, cfg: FillConfig
                 ) -> list[tuple[TileDetection, int, TileDetection]]:
    """Beside each frontier tile where no near step found a tile: the best one a far step
    (`FillConfig.far_pitches`) away, across a gap."""
    found = {(id(anchor), side) for anchor, side, _ in kept}
    h, w = image.shape[:2]
    if cfg.far_at_ends:
        found |= _inside_rows(frontier, cfg)
    trials, owners = _neighbours(frontier, known, (w, h), cfg.far_pitches, cfg, sideways=False,
                                 done=found)
    open_ends = [k for k in range(len(trials))
                 if not _plain(image, trials[k].quad, cfg.plain_below)]
    if not open_ends:
        return []
    read = classify(image, [trials[k] for k in open_ends])
    ends = [owners[k] for k in open_ends]
    found_far = _best_per_side(read, ends, cfg)
    if cfg.rescue_floor is not None:
        found_far += _rescued(image, read, ends, found_far, classify, cfg)
    return found_far


def _inside_rows(frontier: list[TileDetection], cfg: FillConfig) -> set[tuple[int, int]]:
    """``(id(tile), side)`` of each side of a frontier tile whose first near step lands on
    another frontier tile (`FillConfig.far_at_ends`)."""
    sides, quads = [], []
    for det in frontier:
        q = np.asarray(det.quad, np.float64)
        step = ((q[1] - q[0]) + (q[2] - q[3])) / 2.0
        for side in (1, -1):
            sides.append((id(det), side))
            quads.append(q + side * cfg.pitches[0] * step)
    covered = _Tiles(frontier).overlapping(quads, cfg.max_overlap)
    return {key for key, hit in zip(sides, covered, strict=True) if hit}


PLAIN_SAMPLES = 24
"""A patch's grey level is sampled on about this many points across its shorter side."""


_plains: ContextVar[dict | None] = ContextVar("agari_plains", default=None)
"""What `remembered_plains` keeps: ``(id(image), quad bytes, below) -> (image, plain)``."""


def remembered_plains() -> AbstractContextManager[None]:
    """Within it (on this thread), `_plain` measures each patch once: one photo's reading
    asks again about the same far steps (row completion at each reading, the flat-meld
    search's scans and climbs). The images are held until the block ends (an id is not
    reused meanwhile) and must not change within it."""
    return memo_scope(_plains)


def _plain(image: np.ndarray, quad: object, below: float | None) -> bool:
    """Whether the box round ``quad`` in the BGR ``image`` is nearly one grey level (its
    standard deviation under ``below``; never where ``below`` is None)."""
    if below is None:
        return False
    q = np.asarray(quad, np.float64)
    memo = _plains.get()
    if memo is None:
        return _plain_patch(image, q, below)
    key = (id(image), q.tobytes(), q.shape, below)
    kept = memo.get(key)
    if kept is not None and kept[0] is image:
        return kept[1]
    plain = _plain_patch(image, q, below)
    memo[key] = (image, plain)
    return plain


def _plain_patch(image: np.ndarray, q: np.ndarray, below: float) -> bool:
    """`_plain` of a float64 quad, measured."""
    h, w = image.shape[:2]
    x0, y0 = np.maximum(np.floor(q.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(q.max(axis=0)).astype(int)
    x1, y1 = min(int(x1), w), min(int(y1), h)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return False
    step = max(1, min(x1 - x0, y1 - y0) // PLAIN_SAMPLES)
    patch = np.ascontiguousarray(image[y0:y1:step, x0:x1:step])
    return float(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).std()) < below


def _rescued(image: np.ndarray, read: Sequence[TileDetection],
             owners: list[tuple[TileDetection, int]],
             kept: list[tuple[TileDetection, int, TileDetection]], classify: Classify,
             cfg: FillConfig) -> list[tuple[TileDetection, int, TileDetection]]:
    """Beside each anchor where no step was kept: its likeliest face among the steps,
    re-framed, if that then reads surely (see `FillConfig.rescue_floor`)."""
    done = {(id(anchor), side) for anchor, side, _ in kept}
    best: dict[tuple[int, int], tuple[float, TileDetection, TileDetection, int]] = {}
    for det, (anchor, side) in zip(read, owners, strict=True):
        key = (id(anchor), side)
        p = face_probability(det)
        if key in done or det.sideways or p < cfg.rescue_floor:
            continue
        if key not in best or p > best[key][0]:
            best[key] = (p, det, anchor, side)
    if not best:
        return []
    steps = list(best.values())
    rescue = ReframeConfig(weak_confidence=1.0, accept_confidence=cfg.accept_confidence,
                           sideways=False)
    again = reframe(image, [det for _, det, _, _ in steps], classify, config=rescue)
    return [(anchor, side, new) for (_, det, anchor, side), new in zip(steps, again, strict=True)
            if new is not det and _accepted(new, cfg)]


def _sideways_beside(q: np.ndarray, side: int, aspect: float = 0.0) -> np.ndarray:
    """The quad of a tile lying sideways next to upright ``q`` (TL, TR, BR, BL), its long
    side along the row and its bottom edge in line with ``q``'s, as called tiles lie;
    ``aspect``: the tile's height over its width (`FillConfig.sideways_aspect`)."""
    across = ((q[1] - q[0]) + (q[2] - q[3])) / 2.0  # the upright tile's width, along the row
    down = ((q[3] - q[0]) + (q[2] - q[1])) / 2.0  # its height, towards the row's bottom
    if aspect > 0:  # a picture squatter than the tile is foreshortened across the row only
        wide, high = float(np.linalg.norm(across)) or 1.0, float(np.linalg.norm(down)) or 1.0
        along = across * max(aspect, high / wide)
        up = -down * min(1.0 / aspect, wide / high)
    else:
        along = across / (np.linalg.norm(across) or 1.0) * np.linalg.norm(down)
        up = -down / (np.linalg.norm(down) or 1.0) * np.linalg.norm(across)
    if side > 0:
        bl = q[2]
        return np.array([bl + up, bl + up + along, bl + along, bl])
    br = q[3]
    return np.array([br + up - along, br + up, br, br - along])


def _called_under(image: np.ndarray, under: list[TileDetection], step: TileDetection,
                  classify: Classify, cfg: FillConfig) -> TileDetection | None:
    """The first box in ``under`` shaped like a called tile in upright ``step``'s frame
    (`FillConfig.squat_aspect`) that reads surely lying sideways, so read; else None."""
    q = np.asarray(step.quad, np.float64)
    boxes = [d for d in under if _called_shape(np.asarray(d.quad, np.float64), q, cfg)]
    if not boxes:
        return None
    again = classify(image, [TileDetection(d.quad, sideways=True) for d in boxes])
    return next((d for d in again if _accepted(d, cfg)), None)


def _called_shape(box: np.ndarray, step: np.ndarray, cfg: FillConfig) -> bool:
    """Whether ``box``, measured along and across upright ``step``'s row, is as squat and as
    long as a called tile lying beside it (`FillConfig.squat_aspect`, `squat_length`)."""
    across = ((step[1] - step[0]) + (step[2] - step[3])) / 2.0
    down = ((step[3] - step[0]) + (step[2] - step[1])) / 2.0
    width = float(np.linalg.norm(across)) or 1.0
    along = float(np.ptp(box @ (across / width)))
    tall = float(np.ptp(box @ (down / (np.linalg.norm(down) or 1.0)))) or 1.0
    shortest, longest = cfg.squat_length
    return along / tall >= cfg.squat_aspect and shortest <= along / width <= longest


def _best_per_side(read: list[TileDetection], owners: list[tuple[TileDetection, int]],
                   cfg: FillConfig) -> list[tuple[TileDetection, int, TileDetection]]:
    """The most confident accepted reading for each (anchor, side)."""
    best: dict[tuple[int, int], tuple[TileDetection, int, TileDetection]] = {}
    for det, (anchor, side) in zip(read, owners, strict=True):
        if not _accepted(det, cfg):
            continue
        key = (id(anchor), side)
        if key not in best or det.confidence > best[key][2].confidence:
            best[key] = (anchor, side, det)
    return list(best.values())


class _Tiles:
    """The tiles known so far (what the classifier called ``none`` is not a tile and never
    stands in the way), with their centres for a quick look at the near ones."""

    def __init__(self, detections: Sequence[TileDetection]) -> None:
        self.quads = [np.asarray(d.quad, np.float32) for d in detections if d.label is not None]
        self.parts = [convex_parts(q) for q in self.quads]  # measured once, asked often
        self.centres = np.array([q.mean(axis=0) for q in self.quads]).reshape(-1, 2)
        self.bounds = quad_bounds(self.quads).reshape(-1, 4)

    def add(self, det: TileDetection) -> None:
        if det.label is not None:
            q = np.asarray(det.quad, np.float32)
            self.quads.append(q)
            self.parts.append(convex_parts(q))
            self.centres = np.vstack([self.centres, q.mean(axis=0)])
            self.bounds = np.vstack([self.bounds, quad_bounds([q])])

    def overlaps(self, q: np.ndarray, limit: float) -> bool:
        """Whether ``q`` covers more than ``limit`` of a known tile (or it of ``q``)."""
        return self.overlapping([q], limit)[0]

    def overlapping(self, quads: Sequence[np.ndarray], limit: float) -> list[bool]:
        """`overlaps` of each of ``quads``, the near tiles of all found in one numpy pass
        (quads further apart than a diagonal can't meet)."""
        if not self.quads or not quads:
            return [False] * len(quads)
        q = np.asarray(quads, np.float64)
        reach = np.linalg.norm(q[:, 0] - q[:, 2], axis=1)
        dist = np.linalg.norm(self.centres[None] - q.mean(axis=1)[:, None], axis=2)
        # Of the near tiles, only those whose boxes meet the quad's can overlap it: the others
        # give `parts_overlap` 0, never above the limit, so they are left out (a third of
        # them), and so are the quads that meet none (boxes of the quads' float32 points,
        # which `_overlaps_any` measures).
        b = self.bounds
        q32 = q.astype(np.float32)
        lo, hi = q32.min(axis=1), q32.max(axis=1)
        meet = ((dist < reach[:, None])
                & (b[None, :, 0] < hi[:, None, 0]) & (b[None, :, 2] > lo[:, None, 0])
                & (b[None, :, 1] < hi[:, None, 1]) & (b[None, :, 3] > lo[:, None, 1]))
        out = [False] * len(q)
        for k in np.flatnonzero(meet.any(axis=1)).tolist():
            out[k] = _overlaps_any(q[k], [self.parts[i] for i in np.flatnonzero(meet[k]).tolist()],
                                   limit)
        return out


def _overlaps_any(quad: np.ndarray, parts: list[ConvexParts], limit: float) -> bool:
    """Whether ``quad`` covers more than ``limit`` of any of ``parts`` or they of it:
    `parts_overlap` of each, the quad's area measured only once one meets it."""
    q = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    hull = convex_hull(q)
    area = None
    for other_hull, other_area in parts:
        inter, _ = cv2.intersectConvexConvex(hull, other_hull)
        if inter == 0.0:
            overlap = 0.0  # as `parts_overlap` gives for quads that do not meet
        else:
            area = quad_area(q) if area is None else area
            small = min(area, other_area)
            overlap = float(inter / small) if small > 0 else 0.0
        if overlap > limit:
            return True
    return False


__all__ = ["DEFAULT_FILL", "HAND_FILL", "FillConfig", "fill_rows", "read_tiles",
           "remembered_plains"]
