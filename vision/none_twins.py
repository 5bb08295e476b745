"""None twins: a box read ``none`` lying over a tile another box reads surely is left out.

The locator's steps, row completion and the quarter turns may each frame a tile: the
net's quad and a classical box, a step re-framed beside the box it started from, an
upright box and its sideways reading. Where one of the two reads the face surely and the
other ``none`` (a called tile's box cut the other way round, a box taking in the front
side), the ``none`` box adds nothing but doubt: the reading may still take it for a tile
(a quad it overrules the classifier on), and the photo check counts the tile unnamed when
the ``none`` box fits it a little better. On the first readings of the tuning renders,
about a third of the hand tiles whose best box read ``none`` had such a twin read right
(12 of 34 on 950000, 13 of 30 on 990000, 6 of 41 on 980000), nearly always the same quad
flagged the other way round (sideways against upright): the tile's other orientation,
which the classifier rightly calls no tile. Only those are left out (`turned_only`).

Interleaved A/B of the whole read_photo (x100, off -> on), exact hands/scores/layouts:
950000 63/59/36 -> 65/61/37 (misread hand tiles 34 -> 22, wrong role 145 -> 134, missed
66 -> 64), 990000 and 980000 the same (see `agari.pipeline.PipelineConfig.none_twins`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from agari.engine.errors import InvalidInput
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection
from agari.vision.quads import bounds_meeting, quad_bounds, quad_iou


@dataclass(frozen=True, slots=True)
class NoneTwinsConfig:
    """When a box read ``none`` is another box's twin."""

    iou: float = 0.6
    """The two quads' intersection over union at least this."""
    sure: float = 0.9
    """The other box read as a face at least this surely."""
    turned_only: bool = True
    """Only a ``none`` box lying the other way round from the face (sideways against upright):
    the tile's other orientation, read as no tile. A ``none`` box lying the same way is
    another framing, which may hold part of a neighbour too: left out, the real table
    photo turned 7 degrees read 10 of its 13 tiles right instead of 13."""

    def __post_init__(self) -> None:
        if not (0.0 < self.iou <= 1.0 and 0.0 <= self.sure <= 1.0):
            raise InvalidInput("twin thresholds must lie in (0, 1] and [0, 1]")


DEFAULT_NONE_TWINS = NoneTwinsConfig()


def drop_none_twins(detections: Sequence[TileDetection], *,
                    config: NoneTwinsConfig = DEFAULT_NONE_TWINS) -> list[TileDetection]:
    """The detections without the boxes read ``none`` that are twins of a sure face (the
    others as given, in their order)."""
    out = list(detections)
    sure = [d for d in out if isinstance(d.label, Tile) and d.confidence >= config.sure]
    if not sure or all(d.label is not None for d in out):
        return out
    faces = [np.asarray(d.quad, np.float64) for d in sure]
    bounds = quad_bounds(faces)

    def twin(d: TileDetection) -> bool:
        q = np.asarray(d.quad, np.float64)
        return any(quad_iou(q, faces[j]) >= config.iou for j in bounds_meeting(bounds, q)
                   if not config.turned_only or sure[j].sideways != d.sideways)

    return [d for d in out if d.label is not None or not twin(d)]


__all__ = ["DEFAULT_NONE_TWINS", "NoneTwinsConfig", "drop_none_twins"]
