"""Tile classifier accuracy and speed on any annotated dataset (stage 2 alone).

Usage (the machine is shared: run with ``nice``)::

    # real tray photos held out from training (split by photo root, as in training)
    nice -n 10 python bench/classify_eval.py ../shared/data/real-dev/riichi-tray \\
        --names riichi-tray --split holdout --negatives 8
    # single-tile photos listed in a CSV (image,tile); the held-out blocks only
    nice -n 10 python bench/classify_eval.py --tiles ../shared/data/real-dev/hk-crops/labels.csv \\
        --split holdout
    # synthetic validation crops (the recipe's validation seed) and batched speed
    nice -n 10 python bench/classify_eval.py --synthetic 100 --speed

Crops are cut from each annotated tile's quad with `agari.vision.crops` (the
model's input size and margin from its metadata), exactly as `agari detect`
does with located quads. ``--negatives N`` adds N crops per photo that are not
one whole tile (table, straddles, fragments), truth ``none``. Prints accuracy,
top-3, red-vs-plain five, ``none`` recall, the commonest confusions, per-class
accuracy and, with ``--speed``, crops per second through `TileClassifier.predict`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from agari.models import TileClassifier
from agari.models.dataset import ClassMix, RealPhoto, photo_arrays, single_tile_arrays, synth_arrays
from agari.models.metrics import score
from agari.models.realdata import CropSpec, read_single_tile_csv
from agari.models.recipe import Recipe, split_photos, split_single

VALIDATION_SEED_OFFSET = 7919
"""The recipe's synthetic validation seed is its training seed plus this (see recipe.py)."""


def _pick(items: list, split: str, splitter) -> list:
    if split == "all":
        return items
    train, hold = splitter(items)
    return hold if split == "holdout" else train


def load_crops(args: argparse.Namespace, spec: CropSpec) -> tuple[np.ndarray, np.ndarray]:
    parts = []
    recipe = Recipe()
    if args.dataset:
        from agari.datasets.formats import open_dataset

        ds = open_dataset(Path(args.dataset), names=args.names)
        photos = [RealPhoto(ds.image_path(a), a.tiles) for a in ds.annotations()]
        photos = _pick(photos, args.split, split_photos)
        parts.append(photo_arrays(photos, spec, seed=None, negatives=args.negatives))
    if args.tiles:
        items, _ = read_single_tile_csv(Path(args.tiles))
        items = _pick(items, args.split, lambda it: split_single(
            it, block=recipe.single_block, every=recipe.single_every))
        parts.append(single_tile_arrays(items, spec, seed=None))
    if args.synthetic:
        from agari.models.synth import SynthConfig

        config = SynthConfig(crop_size=spec.size, margin=spec.margin)
        parts.append(synth_arrays(ClassMix(args.synthetic), seed=args.seed
                                  + VALIDATION_SEED_OFFSET, config=config, workers=args.workers))
    if not parts:
        sys.exit("nothing to evaluate: give a dataset, --tiles or --synthetic")
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def crops_per_second(clf: TileClassifier, crops: np.ndarray, seconds: float) -> float:
    """Batched throughput of `TileClassifier.predict` (preprocessing included)."""
    batch = np.resize(crops, (256, *crops.shape[1:])) if len(crops) else crops
    clf.predict(batch)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        clf.predict(batch)
        done += len(batch)
    return done / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dataset", nargs="?", help="annotated dataset (YOLO folder, COCO, ...)")
    p.add_argument("--names", help="YOLO class order (a preset such as riichi-tray, or a,b,c)")
    p.add_argument("--tiles", help="CSV of single-tile photos (image,tile)")
    p.add_argument("--synthetic", type=int, default=0, help="synthetic crops per class")
    p.add_argument("--seed", type=int, default=0, help="training seed of the model (synthetic)")
    p.add_argument("--split", choices=("all", "holdout", "train"), default="all")
    p.add_argument("--negatives", type=int, default=0, help="none crops per photo")
    p.add_argument("--model", help="classifier .onnx (default: the shipped model)")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--speed", action="store_true", help="also measure crops/s")
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)

    clf = TileClassifier.load(args.model, threads=args.threads)
    spec = CropSpec(size=clf.input_size, margin=clf.spec.crop_margin)
    x, y = load_crops(args, spec)
    started = time.perf_counter()
    preds = clf.predict(x)
    elapsed = time.perf_counter() - started
    s = score(preds.probs, y, clf.class_names)
    out = {"crops": int(len(y)), **s.to_json(confusions=15),
           "predict_s": round(elapsed, 3)}
    if args.speed:
        out["crops_per_s"] = round(crops_per_second(clf, x, args.seconds), 1)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"crops {s.n}  accuracy {s.accuracy:.4f}  top-3 {s.top3:.4f}")
    if s.red_five is not None:
        print(f"red vs plain five {s.red_five:.4f}")
    if s.none_recall is not None:
        print(f"none recall {s.none_recall:.4f}")
    print("commonest confusions (truth -> read, count):")
    for t, pr, c in s.confusions[:15]:
        print(f"  {t:>5} -> {pr:<5} {c}")
    weak = sorted(((ok / n, name, n) for name, (ok, n) in s.per_class.items()))[:8]
    print("weakest classes: " + ", ".join(f"{name} {acc:.3f} (n={n})" for acc, name, n in weak))
    if args.speed:
        print(f"speed {out['crops_per_s']:.0f} crops/s (batches of 256, "
              f"{clf.spec.input_size[0]}x{clf.spec.input_size[1]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
