"""Assembling classifier training and evaluation arrays from synthetic and real sources.

Every source yields ``(X, y)``: crops ``uint8 (N, H, W, 3)`` BGR and class
indices ``int64 (N,)`` into `agari.engine.tiles.CLASS_NAMES`. Synthetic crops are
made in fixed-size chunks, each seeded from ``(seed, chunk)``, so the result does
not depend on how many worker processes made them.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from agari.engine.tiles import BACK, CLASS_NAMES, NONE, TILE_NAMES
from agari.models.augment import PhotoAug, photo_damage
from agari.models.classifier import read_image
from agari.models.hardneg import DEFAULT_HARDNEG, HardNegConfig, scene_hard_chunk
from agari.models.realdata import (
    CropSpec,
    TileLike,
    negative_crops,
    tile_crops,
    whole_image_crop,
)
from agari.models.synth import MIN_DAMAGED_EDGES, NONE_TRIES, CropSynth, SynthConfig, edge_share

Arrays = tuple[np.ndarray, np.ndarray]
DEFAULT_SYNTH = SynthConfig()
DEFAULT_AUG = PhotoAug()
CHUNK = 512
"""Synthetic samples per seeded chunk (the unit of parallel work and of reproducibility)."""


@dataclass(frozen=True, slots=True)
class ClassMix:
    """Synthetic samples per class: faces and backs get ``per_class``, ``none`` more."""

    per_class: int
    none_factor: float = 3.5
    back_factor: float = 1.5

    def labels(self) -> list[int]:
        counts = {name: self.per_class for name in TILE_NAMES}
        counts[BACK] = round(self.per_class * self.back_factor)
        counts[NONE] = round(self.per_class * self.none_factor)
        return [CLASS_NAMES.index(n) for n, c in counts.items() for _ in range(c)]


_PHOTOS: list[np.ndarray] | None = None
"""Background photos for synthetic scenes, given to each worker once (not pickled per job)."""


def _init_worker(photos: list[np.ndarray] | None) -> None:
    global _PHOTOS
    _PHOTOS = photos


def _synth_chunk(args: tuple[int, int, list[int], SynthConfig, PhotoAug | None]) -> Arrays:
    seed, chunk, labels, config, aug = args
    import cv2

    cv2.setNumThreads(1)
    synth = _worker_synth(seed, config, _PHOTOS)
    synth.rng = np.random.default_rng([seed, chunk])  # this chunk's own stream
    rng = np.random.default_rng([seed, chunk, 1])
    crops = np.empty((len(labels), *config.crop_size, 3), np.uint8)
    for i, label in enumerate(labels):
        crops[i] = _damaged_sample(synth, CLASS_NAMES[label], rng, aug)
    return crops, np.asarray(labels, np.int64)


def _damaged_sample(synth: CropSynth, name: str, rng: np.random.Generator,
                    aug: PhotoAug | None) -> np.ndarray:
    """One crop of class ``name``, damaged; a `none` crop that the damage left a plain patch
    (as a tightly boxed back looks) is drawn again, up to `NONE_TRIES` times."""
    for _ in range(NONE_TRIES if name == NONE else 1):
        crop = synth.sample(name)
        crop = photo_damage(crop, rng, aug) if aug is not None else crop
        if name != NONE or edge_share(crop) >= MIN_DAMAGED_EDGES:
            break
    return crop


_SYNTH_CACHE: dict[tuple, CropSynth] = {}


def _worker_synth(seed: int, config: SynthConfig, photos) -> CropSynth:
    key = (seed, config, id(photos))
    if key not in _SYNTH_CACHE:
        _SYNTH_CACHE.clear()
        _SYNTH_CACHE[key] = CropSynth(seed, config, photos)
    return _SYNTH_CACHE[key]


def synth_arrays(
    mix: ClassMix, *, seed: int, config: SynthConfig = DEFAULT_SYNTH,
    aug: PhotoAug | None = DEFAULT_AUG, photos: list[np.ndarray] | None = None,
    workers: int = 1, progress: Callable[[int, int], None] | None = None,
) -> Arrays:
    """Synthetic crops for ``mix``, shuffled, reproducible from ``seed``.

    Args:
        workers: processes to use (each renders its own palettes once).
        progress: called with (chunks done, chunks total).
    """
    global _PHOTOS
    _PHOTOS = photos
    labels = np.random.default_rng([seed, 0]).permutation(mix.labels()).tolist()
    jobs = [(seed, i, labels[s:s + CHUNK], config, aug)
            for i, s in enumerate(range(0, len(labels), CHUNK))]
    parts = _map_chunks(_synth_chunk, jobs, workers=workers, progress=progress, photos=photos)
    return _concat(parts, config.crop_size)


def _map_chunks(func: Callable[[tuple], Arrays], jobs: list[tuple], *, workers: int,
                progress: Callable[[int, int], None] | None,
                photos: list[np.ndarray] | None = None) -> list[Arrays]:
    """``func`` over ``jobs`` in order, in this process or a pool of ``workers``."""
    parts: list[Arrays] = []

    def done(part: Arrays) -> None:
        parts.append(part)
        if progress:
            progress(len(parts), len(jobs))

    if workers <= 1:
        for job in jobs:
            done(func(job))
        return parts
    # spawn, not fork: a forked child inherits OpenCV's thread pool mid-lock and hangs.
    with mp.get_context("spawn").Pool(workers, _init_worker, (photos,)) as pool:
        for part in pool.imap(func, jobs):
            done(part)
    return parts


SceneRenderer = Callable[[int], tuple[np.ndarray, object]]
"""``seed -> (image BGR uint8, annotation with .tiles)``: a scene renderer (agari.datasets')."""


def _scene_chunk(args: tuple[SceneRenderer, list[int], CropSpec, int, int, float, float,
                             PhotoAug | None]) -> Arrays:
    render, seeds, spec, copies, negatives, min_visible, min_px, aug = args
    import cv2

    cv2.setNumThreads(1)
    crops: list[np.ndarray] = []
    labels: list[int] = []
    for seed in seeds:
        image, ann = render(seed)
        tiles = [t for t in ann.tiles if t.visible >= min_visible
                 and min(np.ptp(np.asarray(t.quad, np.float32), axis=0)) >= min_px]
        rng = np.random.default_rng([seed, 3])
        c, lab = tile_crops(image, tiles, spec, rng=rng, copies=copies, aug=aug)
        crops += c
        labels += lab
        if negatives:
            c, lab = negative_crops(image, ann.tiles, spec, rng, negatives, aug=aug)
            crops += c
            labels += lab
    return _stack(crops, labels, spec.size)


def scene_arrays(
    render: SceneRenderer, seeds: Sequence[int], spec: CropSpec, *, copies: int = 1,
    negatives: int = 2, min_visible: float = 0.7, min_px: float = 14.0,
    aug: PhotoAug | None = None, workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Arrays:
    """Crops of the tiles of rendered scenes (their true quads), plus ``none`` crops.

    Args:
        render: a picklable ``seed -> (image, annotation)`` (workers call it).
        seeds: one scene per seed; the result is a pure function of them.
        min_visible, min_px: skip tiles hidden beyond this share or narrower than this.
    """
    seeds = list(seeds)
    step = 16
    jobs = [(render, seeds[s:s + step], spec, copies, negatives, min_visible, min_px, aug)
            for s in range(0, len(seeds), step)]
    parts = _map_chunks(_scene_chunk, jobs, workers=workers, progress=progress)
    return _concat(parts, spec.size)


def scene_hard_arrays(
    render: SceneRenderer, propose: Callable, seeds: Sequence[int], spec: CropSpec, *,
    aug: PhotoAug | None = None, config: HardNegConfig = DEFAULT_HARDNEG, workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Arrays:
    """``none`` crops of the locator's proposals that are no tile in rendered scenes
    (`agari.models.hardneg`); a pure function of the seeds (and the locator).

    Args:
        render, propose: picklable (workers call them): scene renderer and locator.
    """
    seeds = list(seeds)
    step = 16
    jobs = [(render, propose, seeds[s:s + step], spec, aug, config)
            for s in range(0, len(seeds), step)]
    return _concat(_map_chunks(scene_hard_chunk, jobs, workers=workers, progress=progress),
                   spec.size)


@dataclass(frozen=True, slots=True)
class RealPhoto:
    """An annotated real photo: its image file and its tiles (quad, label, sideways)."""

    path: Path
    tiles: Sequence[TileLike]


def photo_arrays(
    photos: Sequence[RealPhoto], spec: CropSpec, *, seed: int | None, copies: int = 1,
    negatives: int = 0, aug: PhotoAug | None = None,
    read: Callable[[Path], np.ndarray] | None = None,
) -> Arrays:
    """Crops of every annotated tile plus ``negatives`` ``none`` crops per photo.

    ``seed`` None gives exact crops (evaluation); a seed gives ``copies``
    jittered, ``aug``-damaged crops per tile.
    """
    read = read or read_image
    crops: list[np.ndarray] = []
    labels: list[int] = []
    for i, photo in enumerate(photos):
        image = read(photo.path)
        rng = None if seed is None else np.random.default_rng([seed, i])
        c, lab = tile_crops(image, photo.tiles, spec, rng=rng, copies=copies, aug=aug)
        crops += c
        labels += lab
        if negatives:
            neg_rng = np.random.default_rng([seed if seed is not None else 0, i, 2])
            c, lab = negative_crops(image, photo.tiles, spec, neg_rng, negatives, aug=aug)
            crops += c
            labels += lab
    return _stack(crops, labels, spec.size)


def single_tile_arrays(
    items: Sequence[tuple[Path, str]], spec: CropSpec, *, seed: int | None, copies: int = 1,
    aug: PhotoAug | None = None, read: Callable[[Path], np.ndarray] | None = None,
) -> Arrays:
    """Crops of single-tile photos (path, class name); see `whole_image_crop`."""
    read = read or read_image
    crops: list[np.ndarray] = []
    labels: list[int] = []
    for i, (path, label) in enumerate(items):
        if label not in CLASS_NAMES:
            continue
        image = read(path)
        rng = None if seed is None else np.random.default_rng([seed, i])
        for _ in range(copies if rng is not None else 1):
            crops.append(whole_image_crop(image, spec, rng=rng, aug=aug))
            labels.append(CLASS_NAMES.index(label))
    return _stack(crops, labels, spec.size)


def _stack(crops: list[np.ndarray], labels: list[int], size: tuple[int, int]) -> Arrays:
    if not crops:
        return np.zeros((0, *size, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(crops), np.asarray(labels, np.int64)


def _concat(parts: Sequence[Arrays], size: tuple[int, int]) -> Arrays:
    parts = [p for p in parts if len(p[0])]
    if not parts:
        return np.zeros((0, *size, 3), np.uint8), np.zeros(0, np.int64)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def concat(parts: Sequence[Arrays], size: tuple[int, int]) -> Arrays:
    """Several ``(X, y)`` sources as one."""
    return _concat(parts, size)
