"""Mending a calibration photo's rows with the classifier's eye: the reader of candidate
tiles that `agari.models.calibration_grid.completed_rows` asks, and the check a mended
binding must pass.

The grid module is geometry; here the classifier reads candidate quads (how tile-like,
which kind, what colour) and vets the result.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from agari.engine.tiles import NONE
from agari.models.calibration_grid import Reading, TileReader, completed_rows
from agari.models.calibration_layout import (
    DEFAULT_BIND,
    BindConfig,
    BoundTile,
    LayoutMismatch,
    ReferenceLayout,
    bind_rows,
)
from agari.models.calibration_rows import BLANK_KINDS
from agari.models.classifier import TileClassifier
from agari.vision.crops import crop_tile
from agari.vision.detection import TileDetection
from agari.vision.lab import lab_ready

BLANK_SURE = 0.9
"""A tile read as blank (白 or a back) this surely is no inked kind (see `blank_where_inked`)."""


def mended_bind(image: np.ndarray, detections: Sequence[TileDetection],
                classifier: TileClassifier, layout: ReferenceLayout, *,
                bind: BindConfig = DEFAULT_BIND) -> tuple[BoundTile, ...]:
    """Bind ``detections`` to ``layout`` with the rows mended (`completed_rows`).

    Raises:
        LayoutMismatch: the mended rows still do not fit, or a tile the layout wants
            inked reads surely blank (`blank_where_inked`).
    """
    read = reader(image, classifier)
    for across in (False, True):  # rows along most quads' TL→TR edges, then across them
        try:
            bound = bind_rows(completed_rows(detections, layout, read, bind=bind,
                                             across=across), layout)
        except LayoutMismatch as err:
            mismatch = err
            continue
        if blank_where_inked(bound, read):
            raise LayoutMismatch("the photo does not match the calibration layout: a tile "
                                 "reads as blank where the layout has an inked one")
        return bound
    raise mismatch


def blank_where_inked(bound: Sequence[BoundTile], read: TileReader) -> bool:
    """Whether a tile the layout wants inked reads surely as a blank one (白 or a back).

    Mended rows let a photo bind that the locator alone could not, box and all: a box
    the locator put on bare table next to a row (a pale table reads as 白) must not
    then pass for the missing tile."""
    reading = read([np.asarray(b.detection.quad, np.float64) for b in bound])
    blank = [reading.classes.index(k) for k in BLANK_KINDS]
    p = np.exp(reading.logp[:, blank]).sum(axis=1)
    return any(b.name not in BLANK_KINDS and q >= BLANK_SURE for b, q in zip(bound, p, strict=True))


def reader(image: np.ndarray, classifier: TileClassifier) -> TileReader:
    """The classifier on candidate quads (see `Reading`); quads reaching out of the photo
    are no tiles (a tile cut by the frame is no reference tile)."""
    h, w = image.shape[:2]
    spec = classifier.spec

    def read(quads: list[np.ndarray]) -> Reading:
        inside = np.array([bool((q >= 0).all() and (q[:, 0] < w).all() and (q[:, 1] < h).all())
                           for q in quads])
        crops = np.stack([crop_tile(image, q, size=spec.input_size, margin=spec.crop_margin)
                          for q in quads])
        probs = classifier.predict(crops).probs
        lab_ready()
        lab = np.array([np.median(cv2.cvtColor(c, cv2.COLOR_BGR2LAB)[_middle(c)]
                                  .reshape(-1, 3).astype(np.float32), axis=0) for c in crops])
        lab = lab * np.array([100 / 255, 1, 1], np.float32) - np.array([0, 128, 128], np.float32)
        tile = np.where(inside, 1.0 - probs[:, spec.class_names.index(NONE)], 0.0)
        return Reading(tile, np.log(np.maximum(probs, 1e-9)), tuple(spec.class_names),
                       np.where(inside[:, None], lab, np.nan))

    return read


def _middle(crop: np.ndarray) -> tuple[slice, slice]:
    h, w = crop.shape[:2]
    return slice(h // 4, h - h // 4), slice(w // 4, w - w // 4)
