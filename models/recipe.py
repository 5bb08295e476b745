"""The training recipe of the shipped classifier: which data, how split, how trained.

`run` is what ``agari train classifier`` calls: it builds (and caches) the
crop arrays — synthetic crops from the CC0 art, real crops from annotated
photos and single-tile photos where given — trains `TileNet`, scores every
validation set and exports the ONNX file. Real data arrives already read
(`RealSources`), because dataset readers live in `agari.datasets`.

Splits: annotated photos by photo root (`agari.models.realdata.is_holdout`),
single-tile photos by blocks of consecutive files (catalogue crops come in
runs from one set), so no photo and, as far as possible, no set is on both sides.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from agari.engine.tiles import CLASS_NAMES, NONE
from agari.models.augment import PhotoAug
from agari.models.dataset import (
    Arrays,
    ClassMix,
    RealPhoto,
    SceneRenderer,
    concat,
    photo_arrays,
    read_image,
    scene_arrays,
    scene_hard_arrays,
    single_tile_arrays,
    synth_arrays,
)
from agari.models.hardneg import HardNegConfig, Proposer, mining_photos, photo_hard_arrays
from agari.models.realdata import CropSpec, is_holdout, photo_root
from agari.models.synth import DRAW_VERSION, SynthConfig

RECIPE_VERSION = "2"
"""Bump when crop generation changes, so cached arrays are rebuilt."""

SCRATCH_LR = 3e-3
"""Peak one-cycle learning rate from random weights."""
FINE_TUNE_LR = 3e-4
"""Peak learning rate when fine-tuning (``Recipe.init``): a tenth, to stay near the start."""


@dataclass(frozen=True, slots=True)
class Recipe:
    """Everything that decides the trained model, besides the data itself."""

    seed: int = 0
    per_class: int = 2000
    val_per_class: int = 100
    photo_copies: int = 6
    photo_negatives: int = 8
    empty_photo_negatives: int = 24
    single_copies: int = 8
    single_block: int = 36
    single_every: int = 4
    max_table_photos: int = 40
    scenes: int = 400
    scene_copies: int = 2
    scene_negatives: int = 3
    hard_negatives: bool = False
    """Add the locator's own non-tile proposals as ``none`` crops (`agari.models.hardneg`)."""
    hardneg: HardNegConfig = field(default_factory=HardNegConfig)
    epochs: int = 6
    workers: int = 2
    threads: int = 2
    init: str | None = None
    """An exported classifier (ONNX) to fine-tune instead of training from scratch."""
    lr: float | None = None
    """Peak learning rate; None: `SCRATCH_LR`, or `FINE_TUNE_LR` with ``init``."""
    synth: SynthConfig = field(default_factory=SynthConfig)

    @property
    def crop(self) -> CropSpec:
        return CropSpec(size=self.synth.crop_size, margin=self.synth.margin)


@dataclass(frozen=True, slots=True)
class RealSources:
    """Real data read by the caller.

    Attributes:
        photos: annotated photos (tiles with quads); split by photo root.
        single_tiles: ``(path, class name)`` single-tile photos, in file order.
        scenes: a picklable scene renderer (``seed -> (image, annotation)``); its
            scenes add crops of tiles drawn in 3-D with camera, light and clutter.
        propose: a picklable locator (``image -> detections``) for hard negatives.
    """

    photos: Sequence[RealPhoto] = ()
    single_tiles: Sequence[tuple[Path, str]] = ()
    scenes: SceneRenderer | None = None
    propose: Proposer | None = None


def _read_small(path: Path, longest: int = 480) -> np.ndarray:
    import cv2

    img = read_image(path)
    f = longest / max(img.shape[:2])
    return cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1 else img


def _describe(func: object) -> str:
    """A stable name for a (partial) function: module, name and bound keywords, no address."""
    inner = getattr(func, "func", func)
    name = f"{getattr(inner, '__module__', '')}.{getattr(inner, '__qualname__', type(inner))}"
    return name + repr(sorted(getattr(func, "keywords", {}).items()))


def split_photos(photos: Sequence[RealPhoto]) -> tuple[list[RealPhoto], list[RealPhoto]]:
    """``(train, holdout)`` with every copy of a photo root on one side."""
    train, hold = [], []
    for p in photos:
        (hold if is_holdout(photo_root(Path(p.path).name)) else train).append(p)
    return train, hold


def split_single(items: Sequence[tuple[Path, str]], *, block: int, every: int
                 ) -> tuple[list[tuple[Path, str]], list[tuple[Path, str]]]:
    """``(train, holdout)``: every ``every``-th block of ``block`` consecutive items held out."""
    train, hold = [], []
    for i, item in enumerate(items):
        (hold if (i // block) % every == every - 1 else train).append(item)
    return train, hold


def _cached(cache: Path | None, key: dict, make: Callable[[], Arrays],
            log: Callable[[str], None]) -> Arrays:
    if cache is None:
        return make()
    digest = hashlib.sha1(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()[:16]
    path = cache / f"{key['name']}-{digest}.npz"
    if path.exists():
        with np.load(path) as f:
            log(f"{key['name']}: cached {path}")
            return f["x"], f["y"]
    x, y = make()
    cache.mkdir(parents=True, exist_ok=True)
    np.savez(path.with_suffix(".tmp.npz"), x=x, y=y)
    path.with_suffix(".tmp.npz").replace(path)
    return x, y


def build_data(recipe: Recipe, real: RealSources, *, cache: Path | None,
               log: Callable[[str], None]) -> tuple[Arrays, dict[str, Arrays]]:
    """Training arrays and named validation arrays (see module doc for the splits)."""
    photos_train, photos_hold = split_photos(real.photos)
    single_train, single_hold = split_single(
        real.single_tiles, block=recipe.single_block, every=recipe.single_every)
    base = {"version": RECIPE_VERSION, "synth": asdict(recipe.synth), "seed": recipe.seed}
    aug = PhotoAug()

    def progress(name: str) -> Callable[[int, int], None]:
        return lambda done, total: log(f"{name}: chunk {done}/{total}") if done % 20 == 0 \
            or done == total else None

    # Tile-free training photos (desks, posters, keyboards) double as synthetic tables.
    tables = [p.path for p in photos_train if not p.tiles][:recipe.max_table_photos]
    # Only the synthetic arrays depend on the drawing code: the real and scene arrays keep
    # their keys (and caches) when it changes.
    drawn = {**base, "draw": DRAW_VERSION}
    synth = _cached(cache, {**drawn, "name": "synth-train", "n": recipe.per_class,
                            "tables": [str(t) for t in tables]}, lambda: (
        synth_arrays(ClassMix(recipe.per_class), seed=recipe.seed, config=recipe.synth,
                     aug=aug, photos=[_read_small(t) for t in tables] or None,
                     workers=recipe.workers, progress=progress("synth-train"))), log)
    synth_val = _cached(cache, {**drawn, "name": "synth-val", "n": recipe.val_per_class}, lambda: (
        synth_arrays(ClassMix(recipe.val_per_class), seed=recipe.seed + 7919,
                     config=recipe.synth, aug=aug, workers=recipe.workers)), log)
    paths = {"photos": sorted(str(p.path) for p in real.photos),
             "single": [str(p) for p, _ in real.single_tiles]}
    key = {**base, **paths, "copies": recipe.photo_copies, "neg": recipe.photo_negatives,
           "empty_neg": recipe.empty_photo_negatives, "single_copies": recipe.single_copies}
    real_train = _cached(cache, {**key, "name": "real-train"}, lambda: concat([
        photo_arrays([p for p in photos_train if p.tiles], recipe.crop, seed=recipe.seed,
                     copies=recipe.photo_copies, negatives=recipe.photo_negatives, aug=aug),
        photo_arrays([p for p in photos_train if not p.tiles], recipe.crop, seed=recipe.seed,
                     negatives=recipe.empty_photo_negatives, aug=aug),
        single_tile_arrays(single_train, recipe.crop, seed=recipe.seed,
                           copies=recipe.single_copies, aug=aug),
    ], recipe.crop.size), log)
    if real.scenes is not None and recipe.scenes:
        scene_key = {**base, "name": "scene-train", "n": recipe.scenes,
                     "copies": recipe.scene_copies, "neg": recipe.scene_negatives,
                     "renderer": _describe(real.scenes)}
        scenes = _cached(cache, scene_key, lambda: scene_arrays(
            real.scenes, range(recipe.seed * 100_003, recipe.seed * 100_003 + recipe.scenes),
            recipe.crop, copies=recipe.scene_copies, negatives=recipe.scene_negatives, aug=aug,
            workers=recipe.workers, progress=progress("scene-train")), log)
        real_train = concat([real_train, scenes], recipe.crop.size)
    if recipe.hard_negatives and real.propose is not None:
        hard = hard_negative_arrays(recipe, real, cache=cache, log=log)
        real_train = concat([real_train, hard], recipe.crop.size)
    val = {"synth_val": synth_val}
    if photos_hold:
        val["photo_holdout"] = _cached(cache, {**key, "name": "photo-holdout"}, lambda: (
            photo_arrays(photos_hold, recipe.crop, seed=None)), log)
        x, y = _cached(cache, {**key, "name": "photo-holdout-with-none"}, lambda: (
            photo_arrays(photos_hold, recipe.crop, seed=None,
                         negatives=recipe.photo_negatives)), log)
        none = y == CLASS_NAMES.index(NONE)  # the tiles themselves are in photo_holdout
        val["photo_holdout_none"] = (x[none], y[none])
    if single_hold:
        val["single_holdout"] = _cached(cache, {**key, "name": "single-holdout"}, lambda: (
            single_tile_arrays(single_hold, recipe.crop, seed=None)), log)
    train = concat([synth, real_train], recipe.crop.size)
    log(f"training crops: {len(train[1])} (synthetic crops {len(synth[1])}, "
        f"real and scene crops {len(real_train[1])})")
    return train, val


def _code_digest(func: object) -> str:
    """A digest of the source files of ``func``'s package (the locator's code decides what
    it proposes, so cached hard negatives are rebuilt when it changes)."""
    import inspect

    inner = getattr(func, "func", func)
    try:
        folder = Path(inspect.getfile(inner)).parent
    except TypeError:
        return "unknown"
    h = hashlib.sha1()
    for path in sorted(folder.glob("*.py")):
        h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()[:16]


def hard_negative_arrays(recipe: Recipe, real: RealSources, *, cache: Path | None,
                    log: Callable[[str], None]) -> Arrays:
    """``none`` crops of the locator's non-tile proposals: on the training scenes' seeds
    and on the photos `mining_photos` allows (classifier train split, locator fit half)."""
    photos = mining_photos(real.photos)
    key = {"version": RECIPE_VERSION, "seed": recipe.seed, "name": "hardneg-train",
           "config": asdict(recipe.hardneg), "locator": _describe(real.propose),
           "locator_code": _code_digest(real.propose), "crop": asdict(recipe.crop),
           "photos": sorted(str(p.path) for p in photos)}
    scene_seeds = range(recipe.seed * 100_003, recipe.seed * 100_003 + recipe.scenes)
    if real.scenes is not None:
        key |= {"scenes": recipe.scenes, "renderer": _describe(real.scenes)}

    def make() -> Arrays:
        parts = [photo_hard_arrays(photos, real.propose, recipe.crop, seed=recipe.seed,
                                   read=read_image, aug=PhotoAug(), config=recipe.hardneg)]
        log(f"hard negatives: {len(parts[0][1])} crops from {len(photos)} photos")
        if real.scenes is not None and recipe.scenes:
            parts.append(scene_hard_arrays(
                real.scenes, real.propose, scene_seeds, recipe.crop, aug=PhotoAug(),
                config=recipe.hardneg, workers=recipe.workers))
            log(f"hard negatives: {len(parts[1][1])} crops from {recipe.scenes} scenes")
        return concat(parts, recipe.crop.size)

    x, y = _cached(cache, key, make, log)
    log(f"hard negatives: {len(y)} none crops in all")
    return x, y


START_CHECK_CROPS = 64
"""Validation crops on which a net loaded from ONNX must reproduce the file."""


def _start_model(path: Path, crops: np.ndarray, log: Callable[[str], None]) -> tuple[object, str]:
    """The `TileNet` to fine-tune, loaded from ``path`` and checked against it, and the
    ``name@sha256`` recorded in the new model's metadata."""
    from agari.models.net import TileNet
    from agari.models.training import to_tensor
    from agari.models.training_init import file_digest, start_from

    model = TileNet(len(CLASS_NAMES))
    diff = start_from(model, path, to_tensor(crops[:START_CHECK_CROPS]))
    label = f"{path.name}@{file_digest(path)}"
    log(f"starting from {label}: torch reproduces its outputs within {diff:.1e}")
    return model, label


def run(recipe: Recipe, real: RealSources, out: Path, *, cache: Path | None,
        log: Callable[[str], None] = lambda _: None) -> dict:
    """Build data, train, export ``out`` (ONNX) and score it with onnxruntime.

    Returns:
        A JSON-able report: recipe, data sizes, per-validation-set `Scores`.
    """
    from agari.models.classifier import TileClassifier
    from agari.models.export import export_onnx
    from agari.models.metrics import score
    from agari.models.training import TrainConfig, model_spec, train

    data, val = build_data(recipe, real, cache=cache, log=log)
    lr = recipe.lr if recipe.lr is not None else FINE_TUNE_LR if recipe.init else SCRATCH_LR
    config = TrainConfig(epochs=recipe.epochs, seed=recipe.seed, threads=recipe.threads, lr=lr,
                         freeze_bn=recipe.init is not None)
    small_val = {k: (v[0][:2000], v[1][:2000]) for k, v in val.items()}
    extra = {"seed": recipe.seed, "recipe": RECIPE_VERSION, "synth_draw": DRAW_VERSION,
             "epochs": recipe.epochs, "per_class": recipe.per_class, "lr": lr,
             "hard_negatives": int(recipe.hard_negatives and real.propose is not None)}
    init = None
    if recipe.init is not None:
        init, extra["init"] = _start_model(Path(recipe.init), val["synth_val"][0], log)
    model = train(data, config=config, val=small_val, log=log, init=init)
    spec = model_spec(recipe.crop.size, recipe.crop.margin, extra)
    export_onnx(model, spec, out)
    clf = TileClassifier.load(out, threads=recipe.threads)
    report = {"recipe": asdict(recipe), "train_crops": int(len(data[1])), "sets": {}}
    for name, (x, y) in val.items():
        scores = score(clf.predict(x).probs, y)
        report["sets"][name] = scores.to_json()
        log(f"{name}: n={scores.n} accuracy={scores.accuracy:.4f} red_five={scores.red_five} "
            f"none={scores.none_recall} top confusions={list(scores.confusions[:5])}")
    return report
