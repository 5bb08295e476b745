"""A tile read as ``none`` because its quad's corners were named a quarter round.

The locator names each quad's corners TL, TR, BR, BL by the shape it sees. A tile
lying flat far from the camera is foreshortened until it looks wider than tall, so
its corners are often named a quarter round: its crop is the face turned 90°, which
the classifier was taught to call ``none`` (an upright box over a called tile lying
sideways is exactly that crop). On the tuning renders (910000-910099, 920000-920099)
about 100 of the 140 hand tiles found but read ``none`` read right with their corners
named one step round; most were tiles of called melds and dora indicators, which
nothing else re-reads (`agari.vision.reread` re-crops the hand's own tiles).

Here every detection read ``none`` is read once more with its corners named one step
round, and takes that reading when it is a confident face and the quad does not lie
over a tile already read (a quad over two tiles' halves reads as a face too often).
A face read unsurely is read turned too, and takes the turned reading only when that is
far surer: a small called tile the locator left upright reads as some other face.
The tile keeps its quad; only the names of its corners change, or, for a tile the
locator took for one lying sideways, its sideways flag (a box over part of a standing
tile is often squat enough to be taken for a called tile).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from agari.engine.errors import InvalidInput
from agari.engine.tiles import Tile
from agari.vision.detection import Classify, TileDetection
from agari.vision.quads import quad_overlap


@dataclass(frozen=True, slots=True)
class QuarterConfig:
    """When a detection's quarter-turned reading replaces its ``none``."""

    accept_confidence: float = 0.6
    """The turned crop must read as one face at least this surely (tuning renders: 0.5-0.62
    gave the same exact hands, 0.75 one fewer, 0.9 six fewer)."""
    max_overlap: float = 0.2
    """Of the smaller quad, at most this much may lie over a tile already read as a face
    (without it the real table photo's unread boxes over two hand tiles became tiles)."""
    doubt_below: float | None = 0.9
    """A tile read as a face less surely than this is read turned too (None: only ``none``
    is). A called tile the locator left upright, small and foreshortened, reads as some
    other face, often unsurely (2s as 4p at 0.48, 3p as 5p at 0.34)."""
    doubt_margin: float = 0.4
    """The turned reading replaces such a face only when it is this much surer (tuning
    renders: 0.4 fixed 18 hand tiles and broke none; 0.2 fixed 22 and broke 4)."""
    sure_turn: float | None = None
    """A turned reading at least this sure replaces a face read less surely whatever
    `doubt_margin` says (None: the margin always holds). On the first readings of 1030000
    and 1020000, turned readings of 0.9 or more blocked by the margin named the true tile
    44 times in 49 (12 of 14 hand tiles; the two lost were indicators); yet read_photo A/B
    at 0.9 over the five tuning sets gave 0 hands, -1 score (1000000 -1/-1, 950000 +1/+1,
    1020000 0/-1 with an ura 1s read 1p, 990000 layouts -1; guard 980000 the same): most
    such tiles lie in ponds, and the hand's own are re-read as they lie later anyway."""
    sure_overlap: float | None = 0.45
    """A quad read ``none`` whose turned reading is at least `SURE_OVERLAP_TURN` sure may lie
    this much over a tile already read (more than `max_overlap`; None: `max_overlap` always
    holds). On the first readings of 1030000 and 1020000, such turned readings with overlaps
    of 0.2-0.45 named their own true tile 11 times in 13 (5 of them meld tiles: 1020053's
    called 3s, 1020095's 6m and 8m). read_photo A/B at 0.45, with `RepairConfig.hand_cuts`
    on (hands/scores/layouts): 1020000 75/73/57 -> 77/74/59, 1030000, 1000000, 950000,
    990000 the same; guard 980000 77/74/58 -> 78/74/58; real variants the same (370/390,
    20/30)."""

    def __post_init__(self) -> None:
        probs = (self.accept_confidence, self.max_overlap, self.doubt_margin,
                 0.0 if self.doubt_below is None else self.doubt_below,
                 0.0 if self.sure_turn is None else self.sure_turn,
                 0.0 if self.sure_overlap is None else self.sure_overlap)
        if not all(0.0 <= p <= 1.0 for p in probs):
            raise InvalidInput("quarter-turn thresholds must lie in [0, 1]")


DEFAULT_QUARTER = QuarterConfig()

SURE_OVERLAP_TURN = 0.9
"""How surely a turned reading must name a face to lie `QuarterConfig.sure_overlap` over a read
tile."""


def named_round(det: TileDetection) -> TileDetection:
    """``det`` unclassified, its corners named one step round (TL takes TR's point, ...):
    its crop turns a quarter."""
    q = det.quad
    return replace(det, quad=(q[1], q[2], q[3], q[0]), label=None, confidence=0.0,
                   alternatives=(), face_down=False)


def turn_unread(image: np.ndarray, detections: Sequence[TileDetection], classify: Classify,
                *, config: QuarterConfig = DEFAULT_QUARTER) -> list[TileDetection]:
    """The detections, each one read ``none`` replaced by its quarter-turned reading where
    that is a confident face clear of the faces already read.

    Args:
        image: BGR ``uint8 (H, W, 3)``, the image the quads refer to.
        detections: classified detections.
        classify: labels a batch of detections in ``image``.
        config: thresholds.

    Returns:
        A list of the same length and order.
    """
    out = list(detections)
    todo = [i for i, d in enumerate(out) if d.label is None or _doubtful(d, config)]
    if not todo:
        return out
    faces = {i: np.asarray(d.quad, np.float64) for i, d in enumerate(out)
             if isinstance(d.label, Tile)}
    turned = classify(image, [named_round(out[i]) for i in todo])
    for i, det in zip(todo, turned, strict=True):
        if not isinstance(det.label, Tile) or det.confidence < config.accept_confidence:
            continue
        if out[i].label is not None and det.confidence < out[i].confidence + config.doubt_margin \
                and not _sure_turn(det, out[i], config):
            continue
        quad = np.asarray(det.quad, np.float64)
        most = config.max_overlap
        if config.sure_overlap is not None and out[i].label is None \
                and det.confidence >= SURE_OVERLAP_TURN:
            most = max(most, config.sure_overlap)
        if any(quad_overlap(quad, f) > most for j, f in faces.items() if j != i):
            continue
        if out[i].sideways:
            # A sideways crop of the corners named round is the upright crop of the corners
            # as named, half turned (which reads the same): the tile stands upright.
            det = replace(det, quad=out[i].quad, sideways=False)
        out[i] = det
    return out


def _doubtful(det: TileDetection, config: QuarterConfig) -> bool:
    """A face read unsurely enough to be read turned as well."""
    return (config.doubt_below is not None and isinstance(det.label, Tile)
            and det.confidence < config.doubt_below)


def _sure_turn(turned: TileDetection, det: TileDetection, config: QuarterConfig) -> bool:
    """The turned reading is sure enough to replace a surer-looking face without the margin."""
    return config.sure_turn is not None and turned.confidence >= config.sure_turn \
        and turned.confidence > det.confidence


__all__ = ["DEFAULT_QUARTER", "SURE_OVERLAP_TURN", "QuarterConfig", "named_round", "turn_unread"]
