"""Locator accuracy and speed: precision, recall, mean IoU at IoU 0.5, false tiles per empty photo.

Datasets (any combination):

- ``--tray DIR``: a YOLO folder (default: ``../shared/data/real-dev/riichi-tray``
  when present; class order ``--names``, default ``riichi-tray``). Its labels are
  axis-aligned boxes, so each detection's bounding box is compared. Photos are
  split by photo root (copies of one photo share the name before ``.rf.``) into
  the half the score weights were fitted on (``fit``) and the other half
  (``check``); both are reported, apart.
- ``--synth N``: N scenes rendered by `agari.datasets.scene.render_scene`
  (seeds from ``--seed``), compared quad to quad; tiles less than half visible
  are neither required nor counted as false when found.

``--classify [MODEL]`` runs the classifier after the locator and drops what it
calls ``none`` (the veto `agari detect` applies); ``--fill`` with it completes
rows as well (`agari.vision.fill`), which is all of `agari detect`. ``--hand`` runs the
locator as `agari photo` does (`HAND_LOCATE`: small photos enlarged, the core net
filling gaps, the classifier settling where net and classical quads disagree) instead of
as `agari detect` does. ``--fit-weights`` prints a
fresh fit of `agari.vision.scoring.ScoreWeights` on the tray's fit half and on
``--synth`` rendered scenes from seed 20000 (never the evaluation seeds).

Examples::

    python bench/locate_eval.py --step 3
    python bench/locate_eval.py --step 1 --classify --fill     # as agari detect
    python bench/locate_eval.py --tray none --synth 200 --size 1920x1080
    python bench/locate_eval.py --tray none --synth 200 --size 1920x1080 --hand  # as agari photo
    python bench/locate_eval.py --fit-weights --step 3 --synth 40
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

# Photo roots and their fit/check split (the classifier's hard negatives are mined
# only from the fit half).
from agari.models.hardneg import locator_half as half_of
from agari.models.realdata import photo_root

REPO = Path(__file__).resolve().parents[1]
DEFAULT_TRAY = REPO.parent / "shared" / "data" / "real-dev" / "riichi-tray"
MATCH_IOU = 0.5
MIN_VISIBLE = 0.5


@dataclass
class Tally:
    """Running totals for one dataset (or one half of it)."""

    images: int = 0
    truth: int = 0
    found: int = 0
    matched: int = 0
    ious: list[float] = field(default_factory=list)
    empty_images: int = 0
    empty_false: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    megapixels: float = 0.0

    def add(self, n_truth: int, n_found: int, ious: list[float], seconds: float, mp: float,
            ignored: int = 0, cpu: float = 0.0) -> None:
        self.images += 1
        self.truth += n_truth
        self.found += n_found - ignored
        self.matched += len(ious)
        self.ious += ious
        self.seconds += seconds
        self.cpu_seconds += cpu
        self.megapixels += mp
        if n_truth == 0:
            self.empty_images += 1
            self.empty_false += n_found - ignored

    def report(self) -> dict:
        return {
            "images": self.images,
            "tiles": self.truth,
            "recall": round(self.matched / self.truth, 4) if self.truth else None,
            "precision": round(self.matched / self.found, 4) if self.found else None,
            "mean_iou": round(float(np.mean(self.ious)), 4) if self.ious else None,
            "empty_images": self.empty_images,
            "false_per_empty": round(self.empty_false / self.empty_images, 3)
            if self.empty_images else None,
            "ms_per_image": round(1e3 * self.seconds / max(1, self.images), 1),
            "ms_per_megapixel": round(1e3 * self.seconds / max(1e-9, self.megapixels), 1),
            "cpu_ms_per_image": round(1e3 * self.cpu_seconds / max(1, self.images), 1),
        }


def match(truth: list[np.ndarray], found: list[np.ndarray], iou: Callable
          ) -> tuple[list[float], dict[int, int]]:
    """Greedy one-to-one matching at `MATCH_IOU`: IoUs of the pairs and truth → found."""
    from agari.vision.quads import match_quads

    pairs = match_quads(truth, found, iou=iou, min_iou=MATCH_IOU)
    return [v for _, v in pairs.values()], {i: j for i, (j, _) in pairs.items()}


def _boxes_touch(a: np.ndarray, b: np.ndarray) -> bool:
    return bool((a[:, 0].min() < b[:, 0].max()) and (b[:, 0].min() < a[:, 0].max())
                and (a[:, 1].min() < b[:, 1].max()) and (b[:, 1].min() < a[:, 1].max()))


def box_iou(a: np.ndarray, b: np.ndarray) -> float:
    """IoU of the axis-aligned boxes around two point sets."""
    from agari.vision.quads import box_iou as iou

    def box(q: np.ndarray) -> tuple[float, float, float, float]:
        x0, y0 = q.min(axis=0)
        x1, y1 = q.max(axis=0)
        return float(x0), float(y0), float(x1 - x0), float(y1 - y0)

    return iou(box(a), box(b))


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    from agari.vision.quads import quad_iou as iou

    return iou(a, b)


def tray_items(root: Path, names: str, step: int
               ) -> Iterator[tuple[str, np.ndarray, list, str]]:
    """``(half, image, truth quads, photo root)`` for every ``step``-th photo of a YOLO folder."""
    from agari.datasets.yolo import read_yolo
    from agari.models.classifier import read_image

    for i, ann in enumerate(read_yolo(root, names=names)):
        if i % step:
            continue
        image = read_image(root / "images" / ann.image)
        quads = [np.asarray(t.quad, np.float32) for t in ann.tiles]
        root_name = photo_root(ann.image)
        yield half_of(root_name), image, quads, root_name


HAND_ROLES = ("concealed", "win", "meld", "dora", "ura")
"""Tiles of the shown hand: what the photo pipeline must read."""


def synth_items(n: int, seed: int, size: tuple[int, int]
                ) -> Iterator[tuple[str, np.ndarray, dict[str, list], list]]:
    """``(kind, image, required quads by group, optional quads)`` of rendered scenes.

    Groups: ``hand`` (face-up tiles of the shown hand), ``other`` (other face-up
    tiles: ponds, loose tiles) and ``back`` (face-down tiles). Tiles less than
    half visible are optional: neither required nor false when found.
    """
    from agari.datasets.scene import SceneConfig, render_scene

    config = SceneConfig(width=size[0], height=size[1])
    for k in range(n):
        image, ann = render_scene(seed + k, config)
        required: dict[str, list] = {"hand": [], "other": [], "back": []}
        optional = []
        for t in ann.tiles:
            if ann.clipped_box(t) is None:
                continue
            q = np.asarray(t.quad, np.float32)
            if t.visible < MIN_VISIBLE:
                optional.append(q)
            elif t.face_down:
                required["back"].append(q)
            else:
                required["hand" if t.role in HAND_ROLES else "other"].append(q)
        yield ann.meta_value("kind", "synth"), image, required, optional


class Detect:
    """What is run on each photo: the locator, then optionally the classifier's veto and
    row completion (as `agari detect` does)."""

    def __init__(self, classifier=None, *, fill: bool = False, hand: bool = False,
                 judge=None) -> None:
        self.classifier, self.fill, self.hand, self.judge = classifier, fill, hand, judge

    def __call__(self, image: np.ndarray) -> list:
        from agari.vision.fill import read_tiles
        from agari.vision.locate import DEFAULT_CONFIG, HAND_LOCATE, locate

        if self.classifier is None:
            if self.hand:
                return locate(image, config=HAND_LOCATE, judge=self.judge)
            return locate(image, config=DEFAULT_CONFIG)
        return [d for d in read_tiles(image, self.classifier, fill=self.fill)
                if d.label is not None]


def run_one(image: np.ndarray, detect: Detect) -> tuple[list[np.ndarray], float, float]:
    """Detections' quads, and the wall-clock and CPU seconds the locator (and classifier)
    took (CPU time is steadier on a shared machine)."""
    t0, c0 = time.perf_counter(), time.process_time()
    dets = detect(image)
    return ([np.asarray(d.quad, np.float32) for d in dets], time.perf_counter() - t0,
            time.process_time() - c0)


def eval_tray(root: Path, names: str, step: int, detect: Detect) -> dict[str, dict]:
    """Tallies for the two halves; with a classifier also for the photo roots it was
    trained on and those it held out (`agari.models.realdata.is_holdout`)."""
    tallies = {"fit": Tally(), "check": Tally()}
    held = None
    if detect.classifier is not None:
        from agari.models.realdata import is_holdout

        held = is_holdout
    for half, image, truth, root_name in tray_items(root, names, step):
        found, secs, cpu = run_one(image, detect)
        ious, _ = match(truth, found, box_iou)
        mp = image.shape[0] * image.shape[1] / 1e6
        keys = [half]
        if held is not None:
            keys.append("veto-heldout" if held(root_name) else "veto-trained")
        for key in keys:
            tallies.setdefault(key, Tally()).add(len(truth), len(found), ious, secs, mp, cpu=cpu)
    return {f"tray/{k}": v.report() for k, v in tallies.items()}


def eval_synth(n: int, seed: int, size: tuple[int, int], detect: Detect) -> dict[str, dict]:
    """Recall per group and scene kind; precision over all groups (a found back or pond
    tile is not false, nor is a half-hidden tile)."""
    tallies: dict[str, Tally] = {}
    for kind, image, required, optional in synth_items(n, seed, size):
        found, secs, cpu = run_one(image, detect)
        mp = image.shape[0] * image.shape[1] / 1e6
        everything = [q for g in required.values() for q in g]
        ious, pairs = match(everything, found, quad_iou)
        matched = set(pairs.values())
        rest = [f for j, f in enumerate(found) if j not in matched]
        _, extra = match(optional, rest, quad_iou)
        for key in ("synth/all", f"synth/{kind}"):
            tallies.setdefault(key, Tally()).add(len(everything), len(found), ious, secs, mp,
                                                 ignored=len(extra), cpu=cpu)
        start = 0
        for group, quads in required.items():
            sub = {i - start: j for i, j in pairs.items() if start <= i < start + len(quads)}
            start += len(quads)
            got = [quad_iou(quads[i], found[j]) for i, j in sub.items()]
            tallies.setdefault(f"synth/{group}", Tally()).add(len(quads), len(sub), got, 0.0, 0.0)
    reports = {k: v.report() for k, v in tallies.items()}
    for group in ("hand", "other", "back"):
        for key in ("precision", "empty_images", "false_per_empty", "ms_per_image",
                    "ms_per_megapixel", "cpu_ms_per_image"):
            reports.get(f"synth/{group}", {}).pop(key, None)
    return reports


FIT_SEED = 20_000
"""Rendered scenes for fitting start here, far from the evaluation seeds (``--seed``)."""


def _labelled_proposals(image: np.ndarray, truth: list[np.ndarray], iou: Callable
                        ) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows and labels (IoU ≥ 0.5 with some truth) of all candidates in one image;
    ambiguous candidates (IoU 0.3-0.5) are left out."""
    from agari.vision.locate import DEFAULT_CONFIG
    from agari.vision.proposals import propose
    from agari.vision.scale import choose_scale, shrink
    from agari.vision.scoring import FEATURES, feature_matrix

    cfg = DEFAULT_CONFIG
    work = shrink(image, choose_scale(image, cfg.max_pixels, cfg.scale))
    s = work.shape[1] / image.shape[1]
    props = propose(work, cfg.proposals, keep_all=True)
    if not props:
        return np.zeros((0, len(FEATURES))), np.zeros(0, bool)
    scaled = [q * s for q in truth]
    best = np.array([max((iou(p.quad, t) for t in scaled if _boxes_touch(p.quad, t)),
                         default=0.0) for p in props])
    keep = (best >= MATCH_IOU) | (best < 0.3)
    feats = {k: np.array([p.features[k] for p in props]) for k in FEATURES}
    return feature_matrix(feats)[keep], best[keep] >= MATCH_IOU


def fit_weights(tray: Path | None, names: str, step: int, synth: int,
                size: tuple[int, int]) -> dict:
    """Balanced logistic fit of the proposal score on the tray's fit half and on rendered
    scenes with light faces from `FIT_SEED` (printed, not applied)."""
    from agari.datasets.scene import SceneConfig, render_scene
    from agari.vision.scoring import FEATURES

    xs, ys = [], []
    if tray is not None:
        for half, image, truth, _ in tray_items(tray, names, step):
            if half == "fit":
                x, y = _labelled_proposals(image, truth, box_iou)
                xs.append(x)
                ys.append(y)
    config = SceneConfig(width=size[0], height=size[1])
    for k in range(synth):
        image, ann = render_scene(FIT_SEED + k, config)
        if ann.meta_value("art") != "light":
            continue
        truth = [np.asarray(t.quad, np.float32) for t in ann.tiles if t.visible >= 0.3]
        x, y = _labelled_proposals(image, truth, quad_iou)
        xs.append(x)
        ys.append(y)
    x = np.concatenate(xs).astype(np.float64)
    y = np.concatenate(ys).astype(np.float64)
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = (x - mu) / sd
    balance = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    w, b = np.zeros(z.shape[1]), 0.0
    for _ in range(4000):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        w -= 0.5 * (z.T @ (balance * (p - y)) / len(y) + 1e-3 * w)
        b -= 0.5 * float(np.mean(balance * (p - y)))
    coef = w / sd
    return {"weights": {k: round(float(c), 2) for k, c in zip(FEATURES, coef, strict=True)},
            "bias": round(float(b - np.sum(w * mu / sd)), 2), "samples": int(len(y))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tray", default=str(DEFAULT_TRAY),
                    help="YOLO folder of real photos ('none' to skip)")
    ap.add_argument("--names", default="riichi-tray", help="class order of the YOLO folder")
    ap.add_argument("--step", type=int, default=1, help="use every STEP-th photo")
    ap.add_argument("--synth", type=int, default=0, help="rendered scenes to evaluate")
    ap.add_argument("--seed", type=int, default=10_000, help="first scene seed")
    ap.add_argument("--size", default="1280x960", help="rendered scene size WxH")
    ap.add_argument("--classify", nargs="?", const="", default=None,
                    help="drop what the classifier calls none (optional model path)")
    ap.add_argument("--fill", action="store_true",
                    help="with --classify: complete rows too (agari.vision.fill), as agari detect")
    ap.add_argument("--hand", action="store_true",
                    help="without --classify: the locator as agari photo runs it (HAND_LOCATE: "
                         "small photos enlarged, the core net filling gaps)")
    ap.add_argument("--fit-weights", action="store_true", help="print a fit of the score weights")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    classifier = None
    if args.classify is not None:
        from agari.models.classifier import TileClassifier

        classifier = TileClassifier.load(args.classify or None)
    if args.hand and classifier is not None:
        ap.error("--hand measures the locator alone: leave out --classify")
    judge = None
    if args.hand:
        from agari.models.classifier import TileClassifier

        judge = TileClassifier.load().tile_likeness  # as agari photo settles contests
    detect = Detect(classifier, fill=args.fill, hand=args.hand, judge=judge)
    results: dict[str, dict] = {}
    tray = None if args.tray == "none" else Path(args.tray)
    if tray is not None and not tray.is_dir():
        tray = None
    w, h = (int(v) for v in args.size.lower().split("x"))
    if args.fit_weights:
        print(json.dumps(fit_weights(tray, args.names, args.step, args.synth, (w, h))))
        return 0
    if tray is not None:
        results.update(eval_tray(tray, args.names, args.step, detect))
    if args.synth:
        results.update(eval_synth(args.synth, args.seed, (w, h), detect))
    for name, rep in results.items():
        print(json.dumps({"dataset": name, **rep}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
