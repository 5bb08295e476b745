"""Re-framing: a located tile the classifier could not read is looked at through other quads.

The locator's quad for a tile is often near the tile but not on its face: a
box over a tile and a half where seams were faint, a quad holding a lying
tile's front side as well as its foreshortened face (low cameras), an upright
box over a called tile that lies sideways. The classifier then calls it
``none`` or reads it unsurely, and row completion (`agari.vision.fill`) has no
confident anchor to start from. Here each such detection is read again through
a few variants of its own quad (shifted, trimmed to a part, turned sideways),
moving to the variant with the most face probability while that keeps rising,
and the result replaces the detection when read confidently as a face.

Like row completion, this verifies classical proposals; it never searches the
picture: every quad tried is derived from one the locator made.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

import numpy as np
from agari.engine.errors import InvalidInput
from agari.engine.tiles import BACK, NONE, Tile
from agari.vision.detection import Classify, TileDetection, as_quad
from agari.vision.layout import WHITE_DRAGON
from agari.vision.quads import inside_image, quad_overlap

Frame = tuple[float, float, float, float]
"""A sub-rectangle ``(x0, y0, x1, y1)`` of a quad in its own unit square (TL = (0, 0),
BR = (1, 1)); values outside [0, 1] reach past the quad."""

SHIFTS: tuple[Frame, ...] = (
    (0.25, 0.0, 1.25, 1.0), (-0.25, 0.0, 0.75, 1.0),  # along the row, a quarter tile
    (0.0, -0.2, 1.0, 0.8),  # up: located quads run down into what lies below a face
)
TRIMS: tuple[Frame, ...] = (
    (0.0, 0.0, 1.0, 0.8),  # a standing tile's face without the table or rim below it
    (0.0, 0.0, 0.75, 1.0), (0.25, 0.0, 1.0, 1.0),  # a box over a tile and its neighbour's edge
    (0.0, 0.0, 1.0, 0.45), (0.0, 0.0, 1.0, 0.6),  # a lying tile's face above its front side
)
"""Located quads err downwards in the picture: a lying tile's front side and a standing
tile's table lie below its face, and merge with it. So the variants look up and along the
row, not down (on renders 910000-910099 the downward variants were taken for 8 of the 135
tiles re-framed; without them the same renders read 14 more hand tiles right, and the
classifier has fewer crops to read)."""


@dataclass(frozen=True, slots=True)
class ReframeConfig:
    """Which detections are read again, through which quads, and when a new reading stands."""

    weak_confidence: float = 0.80
    """Detections read as a face less confidently than this (or not as a face) are re-framed."""
    accept_confidence: float = 0.85
    """A re-framed detection replaces the original when read as a face at least this surely."""
    climb: float = 0.05
    """A variant is moved to only when it raises the face probability by more than this."""
    trim_handicap: float = 0.05
    """A trim must read more surely than the best moved or turned quad by this much to be
    chosen over it: a moved quad also tells where the tile is, a trim only what it is."""
    rounds: int = 2
    """Variants of the best quad so far are tried this many times."""
    max_tiles: int = 40
    """At most this many detections per photo are re-framed (the likeliest faces first)."""
    frames: tuple[Frame, ...] = SHIFTS + TRIMS
    sideways: bool = True
    """Also try the quad turned a quarter about its centre (a called tile lying sideways)."""
    max_overlap: float = 0.1
    """A quad turned sideways may overlap tiles read as faces by at most this (of the
    smaller): a called tile lies beside its neighbours, not over them, while an upright
    tile turned in a row of touching ones overlaps each neighbour by about a sixth."""
    never: tuple[Tile, ...] = (WHITE_DRAGON,)
    """Readings never taken from a variant (see `_acceptable`)."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.weak_confidence <= 1.0 or not 0.0 <= self.accept_confidence <= 1.0:
            raise InvalidInput("re-framing confidences must lie in [0, 1]")
        if self.rounds < 1 or self.max_tiles < 0:
            raise InvalidInput("re-framing needs rounds >= 1 and max_tiles >= 0")


DEFAULT_REFRAME = ReframeConfig()


def reframe(image: np.ndarray, detections: Sequence[TileDetection], classify: Classify, *,
            config: ReframeConfig = DEFAULT_REFRAME,
            only: Collection[int] | None = None) -> list[TileDetection]:
    """The detections with those read unsurely replaced by a better-framed reading.

    Args:
        image: BGR ``uint8 (H, W, 3)``, the image the quads refer to.
        detections: classified detections (label, confidence and alternatives set).
        classify: labels a batch of detections in ``image``.
        config: tuning.
        only: the indices that may be re-framed (None: any).

    Returns:
        A list of the same length and order; a detection is either as given or its
        re-framed reading (a confident face, perhaps now sideways).
    """
    out = list(detections)
    todo = sorted((i for i, d in enumerate(out)
                   if _is_weak(d, config) and (only is None or i in only)),
                  key=lambda i: -face_probability(out[i]))[:config.max_tiles]
    best, trimmed, whole = _climb(image, {i: out[i] for i in todo}, classify, config)
    faces = {j: np.asarray(d.quad, np.float64) for j, d in enumerate(out)
             if isinstance(d.label, Tile)}
    for i in todo:
        det = best[i]
        if det is out[i] or not _acceptable(det, config):
            continue
        if det.sideways and not out[i].sideways:
            if det.label == out[i].label:  # read so upright already: turning proves nothing
                det = replace(det, quad=out[i].quad, sideways=False)
            elif _crowded(det, [f for j, f in faces.items() if j != i], config):
                continue  # turned, it would lie across its neighbours
        if trimmed[i]:
            # A part of the quad read better, but the tile is still the whole quad (moved
            # as the other steps moved it): the layout measures rows, gaps and sideways
            # tiles from the locator's shapes.
            det = replace(det, quad=as_quad(whole[i]))
        out[i] = det
    return out


def _climb(image: np.ndarray, start: dict[int, TileDetection], classify: Classify,
           config: ReframeConfig
           ) -> tuple[dict[int, TileDetection], dict[int, bool], dict[int, np.ndarray]]:
    """From each detection, move to its variant with the most face probability while that
    rises by more than `ReframeConfig.climb`, for at most `ReframeConfig.rounds` rounds.

    Returns:
        The reading each detection ended at (itself if no variant did better); whether any
        step on the way was a trim; and the whole tile's quad: the start quad moved and
        turned as the steps were, trims left out.
    """
    size = image.shape[1::-1]
    best = dict(start)
    score = {i: face_probability(d) for i, d in start.items()}
    trimmed = dict.fromkeys(start, False)
    whole = {i: np.asarray(d.quad, np.float64) for i, d in start.items()}
    active = [i for i in start if _can_rise(score[i], config)]
    for _ in range(config.rounds):
        trials, owners = [], []
        for i in active:
            for det, trim in variants(best[i], config):
                if inside_image(np.asarray(det.quad), size):
                    trials.append(det)
                    owners.append((i, trim))
        if not trials:
            break
        top: dict[int, tuple[float, float, TileDetection, bool]] = {}
        for det, (i, trim) in zip(classify(image, trials), owners, strict=True):
            p = face_probability(det)
            rank = p - config.trim_handicap if trim else p
            if i not in top or rank > top[i][0]:
                top[i] = (rank, p, det, trim)
        moved = [i for i, (_, p, _, _) in top.items() if p > score[i] + config.climb]
        for i in moved:
            before = best[i]
            _, score[i], best[i], trim = top[i]
            trimmed[i] |= trim
            if best[i].sideways and not before.sideways:
                whole[i] = turned_quad(whole[i])
            elif not trim:
                whole[i] = whole[i] + (np.mean(best[i].quad, axis=0)
                                       - np.mean(before.quad, axis=0))
        active = [i for i in moved if not best[i].sideways and _can_rise(score[i], config)]
    return best, trimmed, whole


def _can_rise(p: float, cfg: ReframeConfig) -> bool:
    """Whether a variant could be moved to from face probability ``p``: it must read more
    than `ReframeConfig.climb` higher, and no probability exceeds 1 (a step read at 0.95
    or more stays; its variants, about nine crops, are not read)."""
    return p + cfg.climb < 1.0


def _crowded(det: TileDetection, faces: list[np.ndarray], cfg: ReframeConfig) -> bool:
    """The quad overlaps a tile read as a face by more than `ReframeConfig.max_overlap`."""
    q = np.asarray(det.quad, np.float64)
    return any(quad_overlap(q, f) > cfg.max_overlap for f in faces)


def _acceptable(det: TileDetection, cfg: ReframeConfig) -> bool:
    """A confident face, and not the blank white dragon: a moved or trimmed quad easily lands
    on a blank patch of ivory (a tile's top or side), which reads as 白 and nothing else."""
    return (isinstance(det.label, Tile) and det.confidence >= cfg.accept_confidence
            and det.label not in cfg.never)


def face_probability(det: TileDetection) -> float:
    """The probability of the likeliest face class among the detection's readings."""
    if isinstance(det.label, Tile):
        return det.confidence
    return max((p for name, p in det.alternatives if name not in (BACK, NONE)), default=0.0)


def variants(det: TileDetection, config: ReframeConfig) -> list[tuple[TileDetection, bool]]:
    """Unclassified detections over the variant quads of ``det`` (TL, TR, BR, BL kept), each
    with whether it is a trim (a part of the quad rather than the quad moved or turned)."""
    q = np.asarray(det.quad, np.float64)
    out = [(_detection(sub_quad(q, frame), det.sideways), _is_trim(frame))
           for frame in config.frames]
    if config.sideways and not det.sideways:
        out.append((_detection(turned_quad(q), True), False))
    return out


def _is_trim(frame: Frame) -> bool:
    x0, y0, x1, y1 = frame
    return abs((x1 - x0) - 1.0) > 1e-6 or abs((y1 - y0) - 1.0) > 1e-6


def sub_quad(q: np.ndarray, frame: Frame) -> np.ndarray:
    """The corners of ``frame`` mapped bilinearly into quad ``q`` ``(4, 2)``."""
    x0, y0, x1, y1 = frame
    return np.array([_at(q, x0, y0), _at(q, x1, y0), _at(q, x1, y1), _at(q, x0, y1)])


def turned_quad(q: np.ndarray) -> np.ndarray:
    """The quad of a tile of ``q``'s size lying a quarter turned about ``q``'s centre: its
    long side along ``q``'s width direction (TL→TR stays the long side, as for a sideways
    `TileDetection`)."""
    across = ((q[1] - q[0]) + (q[2] - q[3])) / 2.0
    down = ((q[3] - q[0]) + (q[2] - q[1])) / 2.0
    wide, tall = np.linalg.norm(across), np.linalg.norm(down)
    if wide == 0 or tall == 0:
        return q.copy()
    a = across / wide * tall / 2.0
    b = down / tall * wide / 2.0
    c = q.mean(axis=0)
    return np.array([c - a - b, c + a - b, c + a + b, c - a + b])


def _at(q: np.ndarray, x: float, y: float) -> np.ndarray:
    return (1 - x) * (1 - y) * q[0] + x * (1 - y) * q[1] + x * y * q[2] + (1 - x) * y * q[3]


def _detection(q: np.ndarray, sideways: bool) -> TileDetection:
    return TileDetection(as_quad(q), sideways=sideways)


def _is_weak(det: TileDetection, cfg: ReframeConfig) -> bool:
    """Upright detections not read confidently as a face (backs are left as they are)."""
    if det.face_down or det.label == BACK or det.sideways:
        return False
    return not isinstance(det.label, Tile) or det.confidence < cfg.weak_confidence


__all__ = ["DEFAULT_REFRAME", "SHIFTS", "TRIMS", "ReframeConfig", "face_probability",
           "reframe", "sub_quad", "turned_quad", "variants"]
