"""Hard negatives: the locator's own proposals that are not tiles, as ``none`` crops.

The random ``none`` crops of `agari.models.realdata` (bare table, straddles,
fragments) are what a *careless* locator would propose; the real locator's
mistakes are rarer and harder: a keycap, a coloured notebook, a blue button, a
patch of felt boxed by its own edges. Here the locator runs on annotated
training images and every proposal that is clearly not a tile becomes a
``none`` crop, cut as `agari detect` cuts it (`crop_tile` with the proposal's
quad and orientation).

Clearly not a tile: box IoU below ``max_iou`` with *every* annotated tile
(hidden ones too) and covering no more than ``max_cover`` of any tile's box,
so a loose box around a tile, or a partly covered tile, is never called
``none``. Ambiguous proposals are skipped, not labelled.

This module never imports the locator (``models`` stays below ``vision``): the
caller passes it as a picklable ``propose(image) -> detections``.

Which photos may be mined is decided by `mining_photos`: the classifier's
training split (`is_holdout` False) *and* the locator benchmark's ``fit`` half
(`locator_half`), so neither held-out figure is measured on mined photos.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from agari.engine.tiles import CLASS_NAMES, NONE
from agari.models.augment import PhotoAug, jitter_quad, photo_damage
from agari.models.realdata import CropSpec, TileLike, is_holdout, photo_root
from agari.vision.crops import crop_tile
from agari.vision.detection import TileDetection

Proposer = Callable[[np.ndarray], Sequence[TileDetection]]
"""``image BGR uint8 (H, W, 3) -> located tiles`` (e.g. `agari.vision.locate.locate`)."""


@dataclass(frozen=True, slots=True)
class HardNegConfig:
    """Which proposals count as hard negatives and how many crops each gives."""

    max_iou: float = 0.3
    """A proposal with box IoU at or above this with any annotated tile is not used."""
    max_cover: float = 0.5
    """Nor one covering more than this share of any annotated tile's box."""
    photo_copies: int = 12
    """Jittered, damaged crops per hard negative in a real photo (they are few)."""
    scene_copies: int = 3
    """Crops per hard negative in a rendered scene (under one a scene on average)."""
    per_scene: int = 12
    """Most hard negatives taken from one rendered scene (a seeded sample)."""
    jitter: float = 0.03
    """Quad jitter of each copy, in tile sizes (`jitter_quad`)."""


DEFAULT_HARDNEG = HardNegConfig()


def locator_half(root: str) -> str:
    """``fit`` or ``check``: a fixed split of photo roots by hash, the locator
    benchmark's (``bench/locate_eval.py`` reports both; the ``check`` half is never mined)."""
    return "fit" if hashlib.sha1(root.encode()).digest()[0] % 2 == 0 else "check"


def mining_photos(photos: Sequence) -> list:
    """The photos (anything with ``.path``) that may be mined: in the classifier's
    training split and in the locator benchmark's ``fit`` half."""
    out = []
    for p in photos:
        root = photo_root(Path(p.path).name)
        if not is_holdout(root) and locator_half(root) == "fit":
            out.append(p)
    return out


def _boxes(quads: Sequence[np.ndarray]) -> np.ndarray:
    """``float64 (N, 4)`` x0, y0, x1, y1 boxes around quads."""
    return np.array([[*q.min(axis=0), *q.max(axis=0)] for q in quads], np.float64).reshape(-1, 4)


def not_tiles(proposals: Sequence[TileDetection], tiles: Sequence[TileLike], *,
              config: HardNegConfig = DEFAULT_HARDNEG) -> list[TileDetection]:
    """The proposals that are clearly no tile (see the module doc), in order."""
    truth = _boxes([np.asarray(t.quad, np.float64) for t in tiles])
    t_area = np.maximum((truth[:, 2] - truth[:, 0]) * (truth[:, 3] - truth[:, 1]), 1e-6)
    out = []
    for det in proposals:
        box = _boxes([np.asarray(det.quad, np.float64)])[0]
        area = max((box[2] - box[0]) * (box[3] - box[1]), 1e-6)
        iw = np.clip(np.minimum(box[2], truth[:, 2]) - np.maximum(box[0], truth[:, 0]), 0, None)
        ih = np.clip(np.minimum(box[3], truth[:, 3]) - np.maximum(box[1], truth[:, 1]), 0, None)
        inter = iw * ih
        iou = inter / (area + t_area - inter)
        if len(truth) and (iou.max() >= config.max_iou
                           or (inter / t_area).max() > config.max_cover):
            continue
        out.append(det)
    return out


def hard_negative_crops(
    image: np.ndarray, tiles: Sequence[TileLike], propose: Proposer, spec: CropSpec,
    rng: np.random.Generator, *, copies: int, limit: int | None = None,
    aug: PhotoAug | None = None, config: HardNegConfig = DEFAULT_HARDNEG,
) -> list[np.ndarray]:
    """``none`` crops of the proposals in ``image`` that are no tile.

    Args:
        tiles: every annotated tile of the image (hidden ones too).
        copies: crops per hard negative; the first is cut from the proposal's own
            quad, the others from jittered quads; all damaged by ``aug`` when given.
        limit: most hard negatives used (a seeded sample when there are more).

    Returns:
        BGR ``uint8 (H, W, 3)`` crops of ``spec.size``.
    """
    found = not_tiles(propose(image), tiles, config=config)
    if limit is not None and len(found) > limit:
        found = [found[i] for i in sorted(rng.choice(len(found), limit, replace=False))]
    crops = []
    for det in found:
        quad = np.asarray(det.quad, np.float32)
        for k in range(copies):
            q = quad if k == 0 else jitter_quad(quad, rng, config.jitter)
            crop = crop_tile(image, q, sideways=det.sideways, size=spec.size, margin=spec.margin)
            crops.append(photo_damage(crop, rng, aug) if aug is not None else crop)
    return crops


def _stack(crops: list[np.ndarray], size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    x = np.stack(crops) if crops else np.zeros((0, *size, 3), np.uint8)
    return x, np.full(len(x), CLASS_NAMES.index(NONE), np.int64)


def photo_hard_arrays(
    photos: Sequence, propose: Proposer, spec: CropSpec, *, seed: int,
    read: Callable[[Path], np.ndarray], aug: PhotoAug | None = None,
    config: HardNegConfig = DEFAULT_HARDNEG,
) -> tuple[np.ndarray, np.ndarray]:
    """``none`` crops mined from annotated photos (the caller picks them: `mining_photos`).

    Args:
        photos: items with ``.path`` and ``.tiles``.
        read: image reader (path -> BGR ``uint8``).
    """
    crops: list[np.ndarray] = []
    for i, photo in enumerate(photos):
        rng = np.random.default_rng([seed, i, 7])
        crops += hard_negative_crops(read(photo.path), photo.tiles, propose, spec, rng,
                                     copies=config.photo_copies, aug=aug, config=config)
    return _stack(crops, spec.size)


def scene_hard_chunk(args: tuple) -> tuple[np.ndarray, np.ndarray]:
    """One worker job: ``(render, propose, seeds, spec, aug, config)`` -> ``none`` crops."""
    render, propose, seeds, spec, aug, config = args
    import cv2

    cv2.setNumThreads(1)
    crops: list[np.ndarray] = []
    for seed in seeds:
        image, ann = render(seed)
        rng = np.random.default_rng([seed, 7])
        crops += hard_negative_crops(image, ann.tiles, propose, spec, rng,
                                     copies=config.scene_copies, limit=config.per_scene,
                                     aug=aug, config=config)
    return _stack(crops, spec.size)
