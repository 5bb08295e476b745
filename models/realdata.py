"""Real training and evaluation crops from annotated photos.

Readers live in `agari.datasets` (which may import us, not the reverse), so
this module takes annotations by shape: anything with ``.tiles``, each tile
with ``.quad``, ``.label`` and ``.sideways`` (an `ImageAnnotation` fits).

Splits never mix copies of one photo: augmented exports (Roboflow's
``IMG_1234_jpg.rf.<hash>.jpg``) share a *root*, and a root's side of the
split is a fixed function of its name (`is_holdout`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from agari.engine.tiles import CLASS_NAMES, NONE
from agari.models.augment import PhotoAug, jitter_quad, photo_damage
from agari.vision.crops import box_quad, crop_tile

HOLDOUT_BUCKETS = 5
"""One root in this many (by name hash) is held out for evaluation."""


class TileLike(Protocol):
    quad: tuple
    label: str
    sideways: bool


class AnnotationLike(Protocol):
    tiles: Sequence[TileLike]


def photo_root(name: str) -> str:
    """The original photo's name: Roboflow copies share the part before ``.rf.``."""
    base = name.rsplit("/", 1)[-1]
    return base.split(".rf.", 1)[0]


def is_holdout(root: str, *, buckets: int = HOLDOUT_BUCKETS) -> bool:
    """Whether a photo root belongs to the held-out evaluation side (stable across runs)."""
    digest = hashlib.sha1(root.encode("utf-8")).digest()
    return digest[0] % buckets == 0


@dataclass(frozen=True, slots=True)
class CropSpec:
    """How crops are cut: the model's input size and margin."""

    size: tuple[int, int] = (64, 48)
    margin: float = 0.06


def tile_crops(
    image: np.ndarray, tiles: Iterable[TileLike], spec: CropSpec, *,
    rng: np.random.Generator | None = None, copies: int = 1, jitter: float = 0.04,
    aug: PhotoAug | None = None,
) -> tuple[list[np.ndarray], list[int]]:
    """Crops of annotated tiles and their class indices (into `CLASS_NAMES`).

    With ``rng`` None the crops are exact (evaluation); otherwise each tile gives
    ``copies`` crops with jittered quads and, if ``aug``, photographic damage.
    """
    crops, labels = [], []
    for t in tiles:
        if t.label not in CLASS_NAMES:
            continue
        quad = np.asarray(t.quad, np.float32)
        for _ in range(copies if rng is not None else 1):
            q = quad if rng is None else jitter_quad(quad, rng, jitter)
            crop = crop_tile(image, q, sideways=t.sideways, size=spec.size, margin=spec.margin)
            if rng is not None and aug is not None:
                crop = photo_damage(crop, rng, aug)
            crops.append(crop)
            labels.append(CLASS_NAMES.index(t.label))
    return crops, labels


def _overlap(quad: np.ndarray, boxes: np.ndarray) -> float:
    """Largest share of ``quad``'s box covered by any of ``boxes`` (x0, y0, x1, y1)."""
    if not len(boxes):
        return 0.0
    x0, y0 = quad.min(axis=0)
    x1, y1 = quad.max(axis=0)
    iw = np.clip(np.minimum(x1, boxes[:, 2]) - np.maximum(x0, boxes[:, 0]), 0, None)
    ih = np.clip(np.minimum(y1, boxes[:, 3]) - np.maximum(y0, boxes[:, 1]), 0, None)
    return float((iw * ih).max() / max((x1 - x0) * (y1 - y0), 1e-6))


def negative_quads(
    image_shape: tuple[int, ...], tiles: Sequence[TileLike], rng: np.random.Generator, n: int,
    *, tile_size: tuple[float, float] | None = None, max_overlap: float = 0.2,
) -> list[np.ndarray]:
    """Quads of tile size that are not a whole tile: table, tray, splits, fragments.

    Half are placed where no tile is (overlap with every tile box below
    ``max_overlap``); the rest straddle two neighbouring tiles or cut a fragment
    of one, the locator's usual mistakes.
    """
    h, w = image_shape[:2]
    quads = [np.asarray(t.quad, np.float32) for t in tiles]
    boxes = np.array([[*q.min(axis=0), *q.max(axis=0)] for q in quads]).reshape(-1, 4)
    if tile_size is None:
        sizes = [np.ptp(q, axis=0) for q in quads] or [np.array([min(h, w) / 12] * 2)]
        tw, th = np.median(sizes, axis=0)
        tw, th = min(tw, th), max(tw, th)
    else:
        tw, th = tile_size
    out: list[np.ndarray] = []
    for _ in range(n * 4):
        if len(out) >= n:
            break
        if quads and rng.random() < 0.5:
            q = quads[int(rng.integers(len(quads)))]
            centre = q.mean(axis=0)
            size = np.ptp(q, axis=0)
            if rng.random() < 0.6:  # straddle: shift by about half a tile
                sign = rng.choice([-1, 1], 2) * (rng.random(2) < 0.6)
                shift = rng.uniform(0.4, 0.6) * size * sign
                if not shift.any():
                    shift[0] = 0.5 * size[0]
                cand = q + shift
            else:  # fragment: zoom into part of the tile
                anchor = q.min(axis=0) + size * rng.uniform(0.2, 0.8, 2)
                cand = anchor + (q - centre) * rng.uniform(0.3, 0.55)
            out.append(cand.astype(np.float32))
            continue
        s = rng.uniform(0.7, 1.5)
        x, y = rng.uniform(0, max(w - tw * s, 1)), rng.uniform(0, max(h - th * s, 1))
        cand = np.array(box_quad(x, y, tw * s, th * s), np.float32)
        if _overlap(cand, boxes) < max_overlap:
            out.append(cand)
    return out


def negative_crops(
    image: np.ndarray, tiles: Sequence[TileLike], spec: CropSpec, rng: np.random.Generator,
    n: int, *, aug: PhotoAug | None = None,
) -> tuple[list[np.ndarray], list[int]]:
    """``n`` crops of the ``none`` class from one annotated photo (see `negative_quads`)."""
    crops = []
    for q in negative_quads(image.shape, tiles, rng, n):
        crop = crop_tile(image, q, size=spec.size, margin=spec.margin)
        crops.append(photo_damage(crop, rng, aug) if aug is not None else crop)
    return crops, [CLASS_NAMES.index(NONE)] * len(crops)


def whole_image_crop(
    image: np.ndarray, spec: CropSpec, *, rng: np.random.Generator | None = None,
    inset: float = 0.03, aug: PhotoAug | None = None,
) -> np.ndarray:
    """A ready-cut single-tile photo as a model crop (landscape images turned portrait).

    ``inset`` trims the photo's border (such crops are cut loosely around the
    tile); with ``rng`` the quad is jittered and ``aug`` damage applied.
    """
    h, w = image.shape[:2]
    quad = np.array(box_quad(w * inset, h * inset, w * (1 - 2 * inset), h * (1 - 2 * inset)),
                    np.float32)
    if rng is not None:
        quad = jitter_quad(quad, rng, 0.03)
    crop = crop_tile(image, quad, sideways=w > h, size=spec.size, margin=spec.margin)
    if rng is not None and aug is not None:
        crop = photo_damage(crop, rng, aug)
    return crop


def read_single_tile_csv(path: Path) -> tuple[list[tuple[Path, str]], int]:
    """Single-tile photos listed as ``image,tile`` rows (MPSZ, ``back`` or ``none``).

    Returns:
        ``([(image path, class name)...] in file order, rows skipped)``; rows whose
        tile is not one of our classes (flowers, seasons) are skipped and counted.

    Raises:
        InvalidInput: the file is missing or lacks the ``image`` and ``tile`` columns.
    """
    import csv

    from agari.engine.errors import InvalidInput

    path = Path(path)
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror or exc}") from None
    if rows and not {"image", "tile"} <= set(rows[0]):
        raise InvalidInput(f"{path}: expected columns 'image' and 'tile'")
    root = path.parent / "images"
    root = root if root.is_dir() else path.parent
    items = [(root / r["image"], r["tile"].strip()) for r in rows
             if r["tile"].strip() in CLASS_NAMES]
    return items, len(rows) - len(items)
