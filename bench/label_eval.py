"""Score `agari label`'s COCO output against a labelled dataset: mAP@0.5 with pycocotools.

Usage::

    nice python bench/label_eval.py [--dataset DIR] [--names riichi-tray] [--count 60]
                                    [--workers 2] [--model M.onnx] [--out DIR]

The dataset is any folder `agari.datasets.formats.open_dataset` reads (default:
``../shared/data/real-dev/riichi-tray``, YOLO boxes, class order
``riichi-tray``). Its images are labelled by `run_label` (COCO format), the
truth is written as COCO by the same writer, and COCOeval scores the
predictions (``score`` = tile confidence) per class and class-agnostic (where
the tiles are, whatever their class: the locator alone). Datasets whose truth
has no red fives are scored with predicted red fives counted as plain fives.

Say which photos the classifier was trained on when quoting the figure: the
tray photos are development data, not a held-out set.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TRAY = REPO.parent / "shared" / "data" / "real-dev" / "riichi-tray"
RED = {"0m": "5m", "0p": "5p", "0s": "5s"}


def truth(args: argparse.Namespace):
    """The first ``count`` annotated images (name order) and their dataset."""
    from agari.datasets.formats import open_dataset

    dataset = open_dataset(Path(args.dataset), names=args.names)
    anns = sorted(dataset.annotations(), key=lambda a: a.image)[: args.count]
    return dataset, anns


def coco_eval(gt_doc: dict, dt_doc: dict, *, agnostic: bool) -> tuple[float, float]:
    """``(mAP@0.5, mAP@0.5:0.95)`` of ``dt_doc``'s annotations against ``gt_doc``."""
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    ids = {img["file_name"]: img["id"] for img in gt_doc["images"]}
    dt_ids = {img["id"]: ids[img["file_name"]] for img in dt_doc["images"]}
    gt_doc = json.loads(json.dumps(gt_doc))
    results = [{"image_id": dt_ids[a["image_id"]], "category_id": a["category_id"],
                "bbox": a["bbox"], "score": a["score"]} for a in dt_doc["annotations"]]
    if agnostic:
        for a in gt_doc["annotations"] + results:
            a["category_id"] = 1
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO()
        gt.dataset = gt_doc
        gt.createIndex()
        if not results:
            return 0.0, 0.0
        ev = COCOeval(gt, gt.loadRes(results), "bbox")
        ev.evaluate()
        ev.accumulate()
        ev.summarize()
    return float(ev.stats[1]), float(ev.stats[0])


def fold_red(doc: dict) -> dict:
    """Predicted red fives relabelled as plain fives (for truth without red fives)."""
    from agari.datasets.writers import DATASET_CLASSES

    to_plain = {DATASET_CLASSES.index(r) + 1: DATASET_CLASSES.index(p) + 1
                for r, p in RED.items()}
    for a in doc["annotations"]:
        a["category_id"] = to_plain.get(a["category_id"], a["category_id"])
    return doc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default=str(TRAY))
    parser.add_argument("--names", default="riichi-tray", help="YOLO class order")
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--model", help="classifier .onnx (default: the shipped model)")
    parser.add_argument("--out", help="keep the labelled output here")
    parser.add_argument("--no-fill", action="store_true", help="skip row completion")
    args = parser.parse_args()

    from agari.datasets.coco import coco_document
    from agari.datasets.label import LabelOptions, run_label
    from agari.engine.errors import AgariError

    dataset, anns = truth(args)
    with tempfile.TemporaryDirectory(prefix="agari-label-eval-") as tmp:
        inputs = Path(tmp) / "images"
        for ann in anns:
            link = inputs / ann.image
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(dataset.image_path(ann).resolve())
        out = Path(args.out) if args.out else Path(tmp) / "out"
        try:
            summary = run_label(LabelOptions(
                inputs=(str(inputs),), out=out, formats=("coco",), workers=args.workers,
                images="none", model=Path(args.model) if args.model else None,
                fill=not args.no_fill))
        except AgariError as err:
            sys.exit(f"label_eval: {err.message}")
        predicted = json.loads((out / "annotations.json").read_text())
    gt_doc = coco_document([replace(a, meta=()) for a in anns])
    has_red = any(t.label in RED for a in anns for t in a.tiles)
    if not has_red:
        predicted = fold_red(predicted)
    ap50, ap = coco_eval(gt_doc, predicted, agnostic=False)
    loc50, _ = coco_eval(gt_doc, predicted, agnostic=True)
    print(f"{summary.done} images ({len(summary.failed)} failed), "
          f"{sum(len(a.tiles) for a in anns)} true tiles, {summary.tiles} predicted; "
          f"{summary.images_per_s:.1f} images/s")
    print(f"mAP@0.5 {ap50:.3f}   mAP@0.5:0.95 {ap:.3f}   class-agnostic AP@0.5 {loc50:.3f}"
          + ("" if has_red else "   (red fives scored as fives: the truth has none)"))


if __name__ == "__main__":
    main()
