"""Re-read a hand's tiles cropped the way the hand lies (after a first layout).

The classifier reads each tile from a crop cut along the quad's own corners.
The locator names those corners in the frame of the row it put the tile in; a
tile it left in a row of its own (a short quad, a tile lying flat at a slant)
is often framed a quarter off, and a called tile lying sideways is cut
upright unless the locator flagged it. Either way the classifier sees a face
turned a quarter, which it reads as no tile or as some other one. Once the
layout has found the hand's row and its called tiles, each hand tile can be
cut as it lies: upright in the hand's frame, or turned a quarter when it is a
meld's sideways tile. The better reading of the two is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
from agari.engine.errors import NoTiles
from agari.engine.tiles import NONE
from agari.vision.detection import TileDetection
from agari.vision.layout import DEFAULT_LAYOUT, LayoutConfig, LayoutPlan, analyse_layout
from agari.vision.layout_frame import aligned
from agari.vision.reading_cuts import called as called_in
from agari.vision.reading_cuts import cut_differently

Classify = Callable[[np.ndarray, Sequence[TileDetection]], list[TileDetection]]
"""``(image, detections) -> classified copies``, as `TileClassifier.classify_detections`."""


def reread_in_hand_frame(image: np.ndarray, dets: Sequence[TileDetection], classify: Classify,
                         *, layout: LayoutConfig = DEFAULT_LAYOUT,
                         plans: Sequence[LayoutPlan] | None = None) -> list[TileDetection]:
    """``dets`` with each hand tile read again as it lies, where that reads it more surely.

    A tile is read again when the first layout's plan cuts it differently from the
    locator: its corners named a quarter turn round, or its sideways flag changed.
    The new reading replaces the old one (quad and flag with it) when its likeliest
    tile (any class but ``none``) is likelier than the old reading's. ``plans``: the
    first layout (`analyse_layout` of ``dets`` with ``layout``), when the caller has it.
    """
    dets = list(dets)
    try:
        plan = (plans if plans is not None else analyse_layout(dets, config=layout))[0]
    except NoTiles:
        return dets
    framed = aligned(dets, plan.frame)
    called = called_in(plan)
    todo = [(i, replace(framed[i], sideways=i in called)) for i in sorted(plan.role_of())
            if cut_differently(dets[i], framed[i], i in called)]
    if not todo:
        return dets
    again = classify(image, [d for _, d in todo])
    for (i, _), new in zip(todo, again, strict=True):
        if likeliest_tile(new) > likeliest_tile(dets[i]):
            dets[i] = new
    return dets


def likeliest_tile(det: TileDetection) -> float:
    """The probability of the detection's likeliest class other than ``none``."""
    return max((p for name, p in det.alternatives if name != NONE), default=0.0)


__all__ = ["Classify", "likeliest_tile", "reread_in_hand_frame"]
