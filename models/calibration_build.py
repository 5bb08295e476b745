"""From a calibration photo to a profile: views of each bound tile, colours, sanity checks.

`calibrate_photo` is what ``agari calibrate`` runs once the locator has found
the tiles: bind them to the layout, check the classifier does not clearly
contradict the layout (tiles swapped, a row out of order), cut several
*views* of every tile — the locator's crop, turned upside down (tiles lie both
ways up in play), loosely framed, lighter and darker — embed them, and add
them to the profile with the photo's face and back colours.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import cv2
import numpy as np
from agari.engine.tiles import BACK, NONE
from agari.models.calibration import PhotoRecord, TilesetProfile
from agari.models.calibration_layout import (
    DEFAULT_BIND,
    BindConfig,
    BoundTile,
    LayoutMismatch,
    ReferenceLayout,
    bind_layout,
    group_rows,
    mismatch_message,
)
from agari.models.classifier import Predictions, TileClassifier
from agari.vision.crops import crop_tile
from agari.vision.detection import TileDetection


@dataclass(frozen=True, slots=True)
class ViewConfig:
    """The views cut of each calibration tile.

    Attributes:
        views: crops per tile (the first is the plain crop; odd ones are turned 180°).
        jitter: corner noise of the loose views, as a fraction of the tile width.
        gain: brightness factors the views cycle through.
        seed: the views are a pure function of the photo and this seed.
    """

    views: int = 8
    jitter: float = 0.04
    gain: tuple[float, ...] = (1.0, 1.0, 0.8, 0.8, 1.2, 1.2, 0.65, 0.65)
    seed: int = 0


@dataclass(frozen=True, slots=True)
class CheckConfig:
    """When the classifier's reading of a tile is taken to contradict the layout.

    A tile contradicts its position when the model gives the expected kind less
    than ``max_expected`` and another tile kind (or ``back``) at least ``min_other``.
    A plain five read for its red five or the reverse never counts: that colour
    is what calibration teaches.
    """

    max_expected: float = 0.01
    min_other: float = 0.9


DEFAULT_VIEWS = ViewConfig()
DEFAULT_CHECK = CheckConfig()


@dataclass(frozen=True, slots=True)
class CalibrationReport:
    """What one photo added: tiles bound, views, and the model's own reading of the layout."""

    source: str
    tiles: int
    views: int
    model_agreement: float
    disagreements: tuple[tuple[str, str, float], ...]

    def to_json(self) -> dict:
        return {"source": self.source, "tiles": self.tiles, "views": self.views,
                "model_agreement": round(self.model_agreement, 4),
                "disagreements": [{"expected": e, "read": r, "p": round(p, 4)}
                                  for e, r, p in self.disagreements]}


def tile_views(image: np.ndarray, det: TileDetection, *, size: tuple[int, int], margin: float,
               config: ViewConfig, rng: np.random.Generator) -> np.ndarray:
    """``config.views`` crops of one tile: BGR ``uint8 (V, H, W, 3)`` (see `ViewConfig`)."""
    q = np.asarray(det.quad, np.float32)
    width = float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    out = np.empty((config.views, *size, 3), np.uint8)
    for v in range(config.views):
        quad = q if v < 2 else q + rng.normal(0, config.jitter * width, (4, 2)).astype(np.float32)
        crop = crop_tile(image, quad, sideways=det.sideways, size=size, margin=margin)
        if v % 2:
            crop = crop[::-1, ::-1]
        gain = config.gain[v % len(config.gain)]
        out[v] = crop if gain == 1.0 else cv2.convertScaleAbs(crop, alpha=gain)
    return out


def _centre_region(crop: np.ndarray, share: float = 0.5) -> np.ndarray:
    h, w = crop.shape[:2]
    dy, dx = round(h * (1 - share) / 2), round(w * (1 - share) / 2)
    return crop[dy:h - dy, dx:w - dx].reshape(-1, 3)


def colour_stats(crops: np.ndarray, names: Sequence[str]) -> tuple[tuple | None, tuple | None]:
    """``(back BGR, face BGR)`` medians from plain crops ``(N, H, W, 3)`` of known kinds.

    The face colour is each face crop's bright end (the 75th percentile of its
    centre: ink covers less than half of most faces), medianed over tiles.
    """
    backs = [np.median(_centre_region(c), axis=0) for c, n in zip(crops, names, strict=True)
             if n == BACK]
    faces = [np.percentile(_centre_region(c, 0.7), 75, axis=0)
             for c, n in zip(crops, names, strict=True) if n not in (BACK, NONE)]
    back = tuple(float(v) for v in np.median(backs, axis=0)) if backs else None
    face = tuple(float(v) for v in np.median(faces, axis=0)) if faces else None
    return back, face


def contradictions(preds: Predictions, names: Sequence[str], *,
                   config: CheckConfig = DEFAULT_CHECK) -> list[tuple[int, str, float]]:
    """Positions whose tile the model clearly reads as another kind: ``(index, read, p)``."""
    out = []
    for i, (row, name) in enumerate(zip(preds.probs, names, strict=True)):
        j = int(np.argmax(row))
        read = preds.class_names[j]
        if read in (name, NONE) or _same_five(read, name):
            continue
        if row[preds.class_names.index(name)] <= config.max_expected and row[j] >= config.min_other:
            out.append((i, read, float(row[j])))
    return out


def _same_five(a: str, b: str) -> bool:
    return {a[0], b[0]} == {"0", "5"} and a[1] == b[1] and BACK not in (a, b)


def calibrate_photo(profile: TilesetProfile, image: np.ndarray,
                    detections: Sequence[TileDetection], classifier: TileClassifier, *,
                    source: str, force: bool = False, bind: BindConfig = DEFAULT_BIND,
                    views: ViewConfig = DEFAULT_VIEWS, check: CheckConfig = DEFAULT_CHECK,
                    ) -> tuple[TilesetProfile, CalibrationReport]:
    """Add one calibration photo to ``profile``.

    Args:
        image: BGR ``uint8 (H, W, 3)``, the photo the detections were found in.
        detections: the locator's tiles in it.
        classifier: the (uncalibrated) model the profile is for.
        source: the photo's name, kept in the profile.
        force: keep the layout's kinds even where the model clearly reads another.

    Raises:
        LayoutMismatch: the rows do not fit the layout (which row, what is missing
            or extra), or, unless ``force``, the model contradicts the layout.
    """
    layout = _layout(profile)
    spec = classifier.spec
    try:
        bound = bind_layout(detections, layout, config=bind)
    except LayoutMismatch as err:
        raise _explained(err, image, detections, classifier, layout, bind) from None
    names = [b.name for b in bound]
    plain = np.stack([crop_tile(image, b.detection.quad, sideways=b.detection.sideways,
                                size=spec.input_size, margin=spec.crop_margin) for b in bound])
    preds = classifier.predict(plain)
    bad = contradictions(preds, names, config=check)
    if bad and not force:
        raise LayoutMismatch(_contradiction_message(bound, bad), positions=[
            {"row": bound[i].row + 1, "tile": bound[i].col + 1, "expected": bound[i].name,
             "read": r, "p": round(p, 4)} for i, r, p in bad])
    rng = np.random.default_rng(views.seed)
    crops = np.concatenate([tile_views(image, b.detection, size=spec.input_size,
                                       margin=spec.crop_margin, config=views, rng=rng)
                            for b in bound])
    emb = classifier.predict(crops).embeddings
    back, face = colour_stats(plain, names)
    record = PhotoRecord(source=source, tiles=len(bound),
                         added=datetime.now(UTC).isoformat(timespec="seconds"))
    labels = [n for n in names for _ in range(views.views)]
    ids = np.repeat(np.arange(len(bound)), views.views)
    updated = profile.added(emb, labels, ids, photo=record, back_colour=back, face_colour=face)
    agree = float(np.mean([b == n for b, n in zip(preds.best, names, strict=True)]))
    report = CalibrationReport(source=source, tiles=len(bound), views=len(labels),
                               model_agreement=agree,
                               disagreements=tuple((n, b, float(preds.probs[i].max()))
                                                   for i, (b, n) in enumerate(
                                                       zip(preds.best, names, strict=True))
                                                   if b != n))
    return updated, report


def _layout(profile: TilesetProfile) -> ReferenceLayout:
    return ReferenceLayout(reds=profile.reds)


def _contradiction_message(bound: Sequence[BoundTile], bad: list[tuple[int, str, float]]) -> str:
    parts = [f"row {bound[i].row + 1} tile {bound[i].col + 1} should be {bound[i].name} but "
             f"reads as {read} ({p:.2f})" for i, read, p in bad[:4]]
    more = f" and {len(bad) - 4} more" if len(bad) > 4 else ""
    return ("the photo does not match the calibration layout: " + "; ".join(parts) + more +
            " (tiles out of order? --force keeps the layout's kinds)")


def _explained(err: LayoutMismatch, image: np.ndarray, detections: Sequence[TileDetection],
               classifier: TileClassifier, layout: ReferenceLayout,
               bind: BindConfig) -> LayoutMismatch:
    """``err`` with, for rows one tile short or long, which kind the model thinks is off."""
    rows = group_rows(detections, config=bind)
    found = [len(r) for r in rows]
    if len(rows) != len(layout.rows):
        return err
    if sum(a == b for a, b in zip(found[::-1], layout.counts, strict=True)) > \
            sum(a == b for a, b in zip(found, layout.counts, strict=True)):
        rows = [r[::-1] for r in rows[::-1]]
    notes = []
    spec = classifier.spec
    for k, (row, names) in enumerate(zip(rows, layout.rows, strict=True)):
        if abs(len(row) - len(names)) != 1:
            continue
        crops = np.stack([crop_tile(image, d.quad, sideways=d.sideways, size=spec.input_size,
                                    margin=spec.crop_margin) for d in row])
        logp = np.log(np.maximum(classifier.predict(crops).probs, 1e-9))
        notes.append(f"row {k + 1}: " + _odd_one(logp, names, spec.class_names))
    if not notes:
        return err
    return LayoutMismatch(mismatch_message(found, layout) + " (" + "; ".join(notes) + ")",
                          **err.details)


def _odd_one(logp: np.ndarray, names: Sequence[str], classes: Sequence[str]) -> str:
    """Which expected kind is missing (one tile short) or which tile is extra (one long)."""
    cols = [classes.index(n) for n in names]
    if len(logp) < len(names):
        scores = [sum(logp[j, cols[j if j < k else j + 1]] for j in range(len(logp)))
                  for k in range(len(names))]
        return f"{names[int(np.argmax(scores))]} seems to be missing"
    scores = [sum(logp[j if j < k else j + 1, cols[j]] for j in range(len(names)))
              for k in range(len(logp))]
    k = int(np.argmax(scores))
    read = classes[int(np.argmax(logp[k]))]
    return f"tile {k + 1} (reads as {read}) seems to be extra"
