"""A second look at the dora and ura indicators a layout picked but read unsurely.

An indicator lies flat, often seen obliquely: its face is foreshortened along its length,
and the locator's box tends to stop short of the face's far end, cutting off a stroke
(a 3m cut at its top stroke reads 2m, a 1z cut at its top reads 2z). Nothing in the hand
checks an indicator's name, so such a misreading goes straight into the score. Here each
indicator of the layout's plans read under `IndicatorLookConfig.below` is read again from
its box stretched at one end or the other along the tile's length, each cut both ways up;
where every sure cut names one face (none a back or no tile), other than the first reading,
that face stands (the detection keeps the locator's quad: the layout measures the locator's
shapes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from agari.engine.errors import InvalidInput, NoTiles
from agari.engine.tiles import Tile
from agari.vision.detection import Classify, TileDetection, as_quad
from agari.vision.lab import inverted_lightness, lab_ready
from agari.vision.layout import LayoutConfig, LayoutPlan, analyse_layout


@dataclass(frozen=True, slots=True)
class IndicatorLookConfig:
    """Which indicators are read again, through which cuts, and when a cut's name stands."""

    below: float = 0.9
    """An indicator read as a face less surely than this is looked at again."""
    stretch: tuple[float, ...] = (0.1, 0.2, 0.3)
    """Each cut lengthens the box by this share of its length at one end (the far end
    or the near one): the top strokes a foreshortened box misses lie that far out."""
    sure: float = 0.85
    """A cut counts where it names a face at least this surely; every such cut must agree."""
    turned: bool = True
    """The box itself, turned half round, is a cut too: a foreshortened face the classifier
    misreads one way up it may name surely the other (990020: a 7m read 5m at 0.30 reads
    7m at 0.91 turned; its stretched cuts alone did not rename it)."""
    dark: float | None = 90.0
    """An indicator whose cuts name no face and whose face is dark (`face_lightness` below
    this: the tuning renders' dark plates lie at 30-40, light ones seen dimly at 110-150) is
    read again through the same cuts
    with the image's lightness turned over (`agari.vision.lab.inverted_lightness`), under
    the same agreement: a dark-faced set read as it is, where the photo's tiles as a whole
    did not turn the reading over (`agari.models.polarity`), misreads a flat, oblique face
    (1040042: a navy 1s read 4m at 0.24 reads 1s at 0.86 inverted). None: never."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.below <= 1.0 or not 0.0 <= self.sure <= 1.0:
            raise InvalidInput("the indicators' second look needs 'below' and 'sure' in [0, 1]")


DEFAULT_INDICATOR_LOOK = IndicatorLookConfig()


def stretched(quad: np.ndarray, sideways: bool, share: float, far: bool) -> np.ndarray:
    """``quad`` (TL, TR, BR, BL) lengthened by ``share`` of its length at one end: the top
    (``far``) or the bottom end of an upright tile, the left or right end of a sideways one
    (whose TL→TR edge is its long side)."""
    q = np.asarray(quad, np.float64).copy()
    ends = ((0, 1), (3, 2)) if sideways else ((0, 3), (1, 2))  # (start, end) along its length
    for a, b in ends:
        length = q[b] - q[a]
        if far:
            q[a] = q[a] - share * length
        else:
            q[b] = q[b] + share * length
    return q


def half_turned(quad: np.ndarray) -> np.ndarray:
    """``quad`` with its corners named half round (BR, BL, TL, TR): its crop turned 180°."""
    return np.asarray(quad)[[2, 3, 0, 1]]


def look_at_indicators(image: np.ndarray, dets: list[TileDetection], classify: Classify, *,
                       plans: Sequence[LayoutPlan] | None = None, flip: bool | None = None,
                       layout: LayoutConfig,
                       config: IndicatorLookConfig = DEFAULT_INDICATOR_LOOK):
    """``(dets, plans)`` with the plans' unsure indicators named by their stretched cuts
    where those agree; ``plans`` is kept where nothing changed and None where something did
    (the layout is made again)."""
    try:
        first = plans or analyse_layout(dets, config=layout, flip=flip)
    except NoTiles:
        return dets, plans
    todo = sorted({i for p in first for i in (*p.dora, *p.ura)
                   if isinstance(dets[i].label, Tile) and dets[i].confidence < config.below})
    if not todo:
        return dets, first
    cuts: dict[int, list[TileDetection]] = {}
    for i in todo:
        q, side = np.asarray(dets[i].quad, np.float64), dets[i].sideways
        shapes = [half_turned(q)] if config.turned else []
        for share in config.stretch:
            for far in (True, False):
                s = stretched(q, side, share, far)
                shapes += [s, half_turned(s)]
        cuts[i] = [TileDetection(as_quad(c), sideways=side) for c in shapes]
    named = _named(image, cuts, todo, classify, config)
    dark = [i for i in todo if named[i] is None and config.dark is not None
            and face_lightness(image, dets[i].quad) < config.dark]
    if dark:
        named |= _named(inverted_lightness(image), cuts, dark, classify, config)
    out = [det if i not in named or named[i] is None or named[i].label == det.label
           else replace(named[i], quad=det.quad, sideways=det.sideways)
           for i, det in enumerate(dets)]
    if out == dets:
        return dets, first
    return out, None


def _named(image: np.ndarray, cuts: dict[int, list[TileDetection]], which: list[int],
           classify: Classify, config: IndicatorLookConfig) -> dict[int, TileDetection | None]:
    """Per indicator of ``which``: its cuts (``cuts``), read in one batch in ``image``, where
    they agree (`_agreed`), else None."""
    reads = iter(classify(image, [c for i in which for c in cuts[i]]))
    return {i: _agreed([next(reads) for _ in cuts[i]], config) for i in which}


def _agreed(reads: Sequence[TileDetection], config: IndicatorLookConfig
            ) -> TileDetection | None:
    """The surest of ``reads`` where every sure one names one face (a cut read surely as no
    tile or a back disagrees too), else None."""
    sure = [r for r in reads if r.confidence >= config.sure]
    if len({r.label for r in sure}) != 1 or not isinstance(sure[0].label, Tile):
        return None
    return max(sure, key=lambda r: r.confidence)


def face_lightness(image: np.ndarray, quad) -> float:
    """The median L* (OpenCV's 8-bit scale) inside ``quad`` in the BGR ``image``: its plate,
    which most of a face is, more than its ink; 255 where it holds no pixel."""
    import cv2

    q = np.asarray(quad, np.float64).reshape(4, 2)
    h, w = image.shape[:2]
    x0, y0 = np.floor(q.min(axis=0)).astype(int).clip(0, (w, h))
    x1, y1 = np.ceil(q.max(axis=0)).astype(int).clip(0, (w, h))
    if x1 <= x0 or y1 <= y0:
        return 255.0
    patch = np.ascontiguousarray(image[y0:y1, x0:x1])
    mask = np.zeros(patch.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(q - (x0, y0)).astype(np.int32), 1)
    if not mask.any():
        return 255.0
    lab_ready()
    lightness = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)[..., 0]
    return float(np.median(lightness[mask > 0]))


__all__ = ["DEFAULT_INDICATOR_LOOK", "IndicatorLookConfig", "face_lightness", "half_turned",
           "look_at_indicators", "stretched"]
