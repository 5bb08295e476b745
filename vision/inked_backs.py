"""Backs with green ink: a 發 on dark-faced tile art that the classifier takes for a back.

On black-faced tiles the green dragon's dim green ink is nearly all the face shows, and
the classifier may call the tile a back (0.6-0.9). Where the layout then takes that back
face up among the concealed tiles (`agari.vision.layout._faced_backs`), the reading names
it 白 first (`agari.vision.reading.FACED_WHITE_P`): 66z read 55z (tuning render 1040026),
666z read 555z (1030000). A dark face whose centre shows green ink is no blank 白: here its
發 is made at least as likely as `InkConfig.green_p`, above that floor, and the hand's
constraints still decide. A dark green back (real sets have green backs) passes the same
test; it matters only where a back is already taken face up among the concealed tiles, and
there 發 at 0.1 is only a name the hand may choose, not a label.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from agari.vision.crops import crop_tiles
from agari.vision.detection import TileDetection

GREEN = "6z"
"""發, the one face whose ink is green alone."""
INK_SIZE = (48, 36)
"""Crop (height, width) the ink is measured on: enough pixels for a fraction."""


@dataclass(frozen=True, slots=True)
class InkConfig:
    """When a back is taken for an inked 發."""

    dark: float = 60.0
    """The face's centre is darker than this (mean of each pixel's brightest channel): a
    dark-faced tile's face, not a pale back or a lit one."""
    excess: float = 6.0
    """A pixel is green ink where its green exceeds both red and blue by this much."""
    share: float = 0.03
    """Green ink covers at least this share of the face's centre (renders: 1040026's dim
    發 0.04 and 0.10, 1030000's 0.94-0.97; the blue and cyan backs of the same photos
    0)."""
    green_p: float = 0.1
    """Probability 發 is given at least on such a back: above `reading.FACED_WHITE_P`."""
    back_p: float = 0.1
    """A tile the classifier calls a back with at least this probability counts as one
    (1030000: the third 發 of 666z read ``none`` 0.69, back 0.26, with no 發 among its
    names; read 白 all the same)."""


DEFAULT_INK = InkConfig()


def green_ink(crop: np.ndarray, config: InkConfig = DEFAULT_INK) -> bool:
    """True where the centre of an upright BGR tile crop is dark and partly green."""
    h, w = crop.shape[:2]
    centre = crop[h // 5: 4 * h // 5, w // 5: 4 * w // 5].astype(np.int16)
    if centre.size == 0 or float(centre.max(axis=2).mean()) >= config.dark:
        return False
    b, g, r = centre[..., 0], centre[..., 1], centre[..., 2]
    ink = (g - np.maximum(r, b)) > config.excess
    return float(ink.mean()) >= config.share


def with_green(det: TileDetection, p: float) -> TileDetection:
    """``det`` with 發 among its names at probability ``p`` at least (the label kept)."""
    names = dict(det.alternatives)
    names[GREEN] = max(names.get(GREEN, 0.0), p)
    alts = tuple(sorted(names.items(), key=lambda np_: -np_[1]))
    return replace(det, alternatives=alts)


def inked_backs(image: np.ndarray, dets: Sequence[TileDetection],
                config: InkConfig = DEFAULT_INK) -> list[TileDetection]:
    """The detections with every back whose face shows green ink given its 發
    (`with_green`); other detections unchanged."""
    out = list(dets)
    backs = [i for i, d in enumerate(dets) if not d.sideways and (
        d.label == "back" or dict(d.alternatives).get("back", 0.0) >= config.back_p)]
    if not backs:
        return out
    # Cut together (`crop_tiles`: `crop_tile`'s pixels, its checks made once for the batch).
    crops = crop_tiles(image, [dets[i].quad for i in backs], size=INK_SIZE, margin=0.0)
    for i, crop in zip(backs, crops, strict=True):
        if green_ink(crop, config):
            out[i] = with_green(dets[i], config.green_p)
    return out
