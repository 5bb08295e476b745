"""Photo → score accuracy and latency on synthetic scenes (unseen seeds) and annotated photos.

Usage (run with ``nice``; the machine is shared)::

    nice -n 10 python bench/photo_eval.py --scenes 200 --seed 900000
    nice -n 10 python bench/photo_eval.py --scenes 200 --detections truth   # stages 3-4 alone
    nice -n 10 python bench/photo_eval.py --real ../shared/data/real-dev/scenes --scenes 0
    nice -n 10 python bench/photo_eval.py --scenes 200 --no-cores   # without the core net
    nice -n 10 python bench/photo_eval.py --scenes 20 --profile photo.prof  # where time goes

Synthetic scenes come from `agari.datasets.scene.render_scene` with the whole
hand in frame (``fit_prob=1``); seeds start at ``--seed`` (pick seeds the
classifier was not trained on). ``--detections truth`` feeds the layout and
reading stages the ground-truth tiles (a perfect locator and classifier) to
measure them apart from stages 1-2; ``--detections classify`` gives the true
quads to the real classifier (a perfect locator); ``--detections noisy`` jitters the quads
and misreads a share of the faces (``--misread``), to measure how much of a
fallible classifier the hand-constrained reading corrects.

Per scene the hand is scored in a situation where the true hand has a yaku
(ron; else tsumo; riichi when ura are shown), and the pipeline gets the same
situation, as a user would give it. Reported:

- exact hand: concealed tiles, winning tile and melds all right;
- exact layout: that, plus each meld's source and the dora/ura indicators;
- exact score: han, fu, points and yaku equal to the true hand's score;
- tile errors: hand tiles missed, misread, or given the wrong role;
- latency of the whole pipeline per photo (median, p95), and its CPU time: all threads, and
  the calling thread's alone (its critical path while the second core is free; on a
  loaded, shared machine these move far less than the wall time).

Rates are given over all scenes and over the "readable" ones, whose hand tiles
and indicators are all at least half visible (the renderer sometimes hides a
dora indicator behind a standing hand, or lays it into a pond).

Annotated real photos (``--real DIR``: a folder with ``labels.json`` as in
``real-dev/scenes``) are read and their concealed tiles compared as multisets.
``--variants`` reads each of them again as a phone might have taken or passed
it on (`PHOTO_VARIANTS`: halved, doubled, turned a little, a quarter or half
round, darker, brighter, warmer, heavily compressed, soft, grainy, the top fifth cut off):
the same tiles, other pixels — a check of how far the pipeline's thresholds
carry, with two photos' worth of scenes.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
from agari.engine.context import WinContext
from agari.engine.errors import AgariError
from agari.engine.rules import Rules
from agari.engine.scoring import score
from agari.engine.tiles import Tile
from agari.engine.waits import score_each_wait
from agari.models.polarity import face_polarity
from agari.vision.cores import CoreConfig
from agari.vision.fill import HAND_FILL
from agari.vision.layout import DEFAULT_LAYOUT
from agari.vision.layout_extras import ExtrasConfig
from agari.vision.layout_truth import expected_layout, hand_key, layout_key
from agari.vision.locate import HAND_LOCATE
from agari.vision.reading_checks import Situation
from agari.vision.reframe import DEFAULT_REFRAME

from agari.pipeline import (
    DEFAULT_RETRY,
    PhotoResult,
    PipelineConfig,
    load_image,
    read_detections,
    read_photo,
)

VISIBLE_MIN = 0.5
"""Ground-truth tiles less visible than this are left out of perfect detections."""
IOU_MATCH = 0.5


def situation_for(layout, rules: Rules) -> tuple[Situation, object]:
    """A situation in which the true hand scores, and the true score.

    The true score is a `ScoreResult` (14 tiles), a ``{wait: ScoreResult}`` dict
    (13 tiles), or the engine's error when nothing scores.

    The renderer deals open hands with no yaku of their own (no real winning hand lacks
    one); those win on the last discard (houtei, 1 han whatever the shape). Given a tsumo
    instead, any closed reading of the same tiles would score (menzen tsumo) where the
    true open hand cannot, and the reading would be pushed away from the melds.
    """
    hand = layout.hand()
    tries = [{}, {"tsumo": True}]
    if hand.closed:
        tries += [{"riichi": True}, {"riichi": True, "tsumo": True}]
    tries.append({"houtei": True})
    if layout.ura:
        tries = [t for t in tries if t.get("riichi")] or [{"riichi": True}]
    last = None
    for flags in tries:
        ctx = WinContext(**flags, win=layout.win, dora=layout.dora,
                         ura=layout.ura if flags.get("riichi") else ())
        situation = Situation(rules, WinContext(**flags))
        if hand.size == 13:
            each = {t: r for t, r in score_each_wait(hand, ctx, rules).items()
                    if not isinstance(r, AgariError)}
            if each:
                return situation, each
            last = (situation, AgariError("no wait scores"))
            continue
        try:
            return situation, score(hand, ctx, rules)
        except AgariError as err:
            last = (situation, err)
    return last


def score_key(result) -> tuple | None:
    """What must match for an exact score (per wait for a 13-tile hand)."""
    if isinstance(result, dict):
        keys = {str(t): score_key(r) for t, r in result.items()}
        keys = {t: k for t, k in keys.items() if k is not None}
        return tuple(sorted(keys.items())) or None
    if result is None or isinstance(result, AgariError):
        return None
    return (result.han, result.fu, result.yakuman, result.points,
            tuple(sorted((y.name, y.han) for y in result.yaku)))


def predicted_score(result: PhotoResult):
    """The pipeline's score: one result, or per wait for a 13-tile hand."""
    if result.waits:
        return {o.tile: o.result for o in result.waits if o.result is not None}
    return result.score


def _iou(a, b) -> float:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    ix = max(0.0, min(ax + aw, bx + bw) - max(ax, bx))
    iy = max(0.0, min(ay + ah, by + bh) - max(ay, by))
    inter = ix * iy
    return inter / max(aw * ah + bw * bh - inter, 1e-9)


def tile_errors(ann, result: PhotoResult) -> Counter:
    """Hand tiles (concealed, win, meld, dora, ura) missed, misread or given the wrong role."""
    out: Counter = Counter()
    boxes = [d.box for d in result.detections]
    for t in ann.tiles:
        if t.role == "other" or t.visible < VISIBLE_MIN or t.label == "back":
            continue
        out["hand tiles"] += 1
        best, best_iou = None, 0.0
        for i, b in enumerate(boxes):
            iou = _iou(t.box, b)
            if iou > best_iou:
                best, best_iou = i, iou
        if best is None or best_iou < IOU_MATCH:
            out["missed"] += 1
            continue
        role = result.roles[best].split()[0]
        if role != t.role:
            out["wrong role"] += 1
        elif result.read[best] != t.label:
            out["misread"] += 1
    return out


def truth_detections(ann) -> list:
    return [t.to_detection() for t in ann.tiles if t.visible >= VISIBLE_MIN]


def _confusable(name: str, rng: random.Random) -> str:
    """A name a classifier may mistake ``name`` for: a neighbour, the other five, an honour."""
    if name[1] == "z":
        return rng.choice([f"{n}z" for n in range(1, 8) if f"{n}z" != name])
    if name[0] in "05" and rng.random() < 0.5:
        return ("5" if name[0] == "0" else "0") + name[1]
    n = int(name[0]) or 5
    return f"{min(9, max(1, n + rng.choice((-1, 1))))}{name[1]}"


def noisy_detections(ann, rng: random.Random, rate: float) -> list:
    """Ground truth as a fallible locator and classifier would give it.

    Quad corners jitter by 3% of the tile's size; a face is misread with
    probability ``rate`` (a confusable name first, the true one second), else
    read right with 85-99.9% and a confusable runner-up.
    """
    out = []
    for det in truth_detections(ann):
        x, y, w, h = det.box
        quad = tuple((px + rng.gauss(0, 0.03 * w), py + rng.gauss(0, 0.03 * h))
                     for px, py in det.quad)
        name = det.label_name
        if name == "back":
            alts = (("back", 0.99),)
        elif rng.random() < rate:
            p1 = rng.uniform(0.45, 0.75)
            p2 = rng.uniform(0.1, 1.0 - p1)
            alts = ((_confusable(name, rng), p1), (name, p2))
        else:
            p1 = rng.uniform(0.85, 0.999)
            alts = ((name, p1), (_confusable(name, rng), (1.0 - p1) * 0.8))
        label = alts[0][0]
        out.append(replace(det, quad=quad, label="back" if label == "back" else Tile.parse(label),
                           confidence=alts[0][1], alternatives=alts))
    return out


def _detections(args, ann, image, seed: int, classifier) -> list:
    """Stage 1-2 output for the ``truth``, ``noisy`` and ``classify`` modes."""
    if args.detections == "truth":
        return truth_detections(ann)
    if args.detections == "noisy":
        return noisy_detections(ann, random.Random(seed), args.misread)
    boxes = [replace(d, label=None, confidence=0.0, alternatives=(), face_down=False)
             for d in truth_detections(ann)]
    dets = classifier.classify_detections(image, boxes, top_k=args.config.top_k)
    if args.config.polarity is not None:
        # As `read_photo` does: a dark-faced set is read with its crops' lightness inverted.
        reader = face_polarity(classifier, image, dets, args.config.polarity)
        if reader is not classifier:
            dets = reader.classify_detections(image, boxes, top_k=args.config.top_k)
    return dets


def read_scene(args, image, ann, situation, seed: int, classifier
               ) -> tuple[PhotoResult, float, tuple[float, float]]:
    """One scene through the chosen stages; (result, milliseconds, (process CPU ms, this
    thread's CPU ms)).

    In ``pipeline`` mode the photo is timed from its JPEG bytes, as ``agari photo`` reads it.
    """
    import cv2

    data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1] \
        if args.detections == "pipeline" else None
    t0, c0, m0 = time.perf_counter(), time.process_time(), time.thread_time()
    try:
        if data is not None:
            photo = cv2.imdecode(data, cv2.IMREAD_COLOR)
            result = read_photo(photo, situation, name=ann.image, classifier=classifier,
                                config=args.config)
        else:
            dets = _detections(args, ann, image, seed, classifier)
            result = read_detections(dets, situation, name=ann.image,
                                     size=(ann.width, ann.height), config=args.config)
    except AgariError as err:
        result = PhotoResult(ann.image, ann.width, ann.height, error=err)
    cpu = ((time.process_time() - c0) * 1e3, (time.thread_time() - m0) * 1e3)
    return result, (time.perf_counter() - t0) * 1e3, cpu


def _failure(seed: int, kind: str, readable: bool, truth, result: PhotoResult,
             row: dict) -> dict:
    got = result.layout
    return {"seed": seed, "kind": kind, "readable": readable,
            # Which of the three checks failed: a wrong layout alone is a role or a
            # winning tile, not a misread tile.
            "exact_hand": row["hand"], "exact_score": row["score"], "truth": truth.hand_text,
            "truth_dora": [str(t) for t in truth.dora], "truth_ura": [str(t) for t in truth.ura],
            "read": got.hand_text if got else None,
            "dora": [str(t) for t in got.dora] if got else None,
            "ura": [str(t) for t in got.ura] if got else None,
            "error": result.error.message if result.error else None}


def run_synthetic(args, rules: Rules, classifier) -> dict:
    from agari.datasets.scene import SceneConfig, render_scene

    cfg = SceneConfig(width=args.width, height=args.height, kinds=tuple(args.kinds.split(",")),
                      fit_prob=1.0)
    stats: Counter = Counter()
    per_kind: dict[str, Counter] = {}
    per_art: dict[str, Counter] = {}
    per_size: dict[str, Counter] = {}
    tiles: Counter = Counter()
    latency: list[float] = []
    cpu: list[tuple[float, float]] = []
    stages: dict[str, list[float]] = {}
    failures = []
    for seed in range(args.seed, args.seed + args.scenes):
        image, ann = render_scene(seed, cfg)
        if ann.hand is None:
            continue
        kind = ann.meta_value("kind", "?")
        truth = expected_layout(ann.hand, ann.win, ann.tiles)
        situation, true_score = situation_for(truth, rules)
        result, ms, used = read_scene(args, image, ann, situation, seed, classifier)
        latency.append(ms)
        cpu.append(used)
        for stage, stage_ms in result.timings:
            stages.setdefault(stage, []).append(stage_ms)
        got = result.layout
        readable = all(t.visible >= VISIBLE_MIN for t in ann.tiles if t.role != "other")
        row = {"scenes": 1, "readable": readable,
               "hand": got is not None and hand_key(got) == hand_key(truth),
               "layout": got is not None and layout_key(got) == layout_key(truth),
               "score": score_key(predicted_score(result)) is not None
               and score_key(predicted_score(result)) == score_key(true_score),
               "scorable": score_key(true_score) is not None}
        for k, v in row.items():
            stats[k] += int(v)
            per_kind.setdefault(kind, Counter())[k] += int(v)
            per_art.setdefault(ann.meta_value("art", "?"), Counter())[k] += int(v)
            per_size.setdefault(size_band(ann), Counter())[k] += int(v)
            if readable and k != "readable":
                stats[f"readable {k}"] += int(v)
        tiles += tile_errors(ann, result)  # a photo with no tile found misses them all
        if not row["layout"] and len(failures) < args.show_failures:
            failures.append(_failure(seed, kind, readable, truth, result, row))
    summary = _summary(stats, per_kind, tiles, latency, failures, cpu)
    # Light faces are what riichi sets have; the dark (black-faced) art is rarer.
    summary["per_art"] = {a: {"scenes": c["scenes"], "exact_hand": _rate(c["hand"], c["scenes"]),
                              "exact_score": _rate(c["score"], c["scorable"])}
                          for a, c in sorted(per_art.items())}
    summary["per_tile_width"] = {b: {"scenes": c["scenes"],
                                     "exact_hand": _rate(c["hand"], c["scenes"]),
                                     "exact_score": _rate(c["score"], c["scorable"])}
                                 for b, c in sorted(per_size.items(),
                                                    key=lambda bc: SIZE_BANDS.index(bc[0]))}
    summary["stage_median_ms"] = {k: round(statistics.median(v), 1) for k, v in stages.items()}
    return summary


SIZE_BANDS = ("under 25 px", "25-40 px", "40-60 px", "60 px and over")


def size_band(ann) -> str:
    """The scene's hand tiles' median face width in pixels, as a band of `SIZE_BANDS`
    (a tile 25 px wide in a 1920x1080 photo fills 1/77 of its width: a hand shot from
    across a room)."""
    widths = [min(np.linalg.norm(np.subtract(t.quad[1], t.quad[0])),
                  np.linalg.norm(np.subtract(t.quad[2], t.quad[3])))
              for t in ann.tiles if t.role != "other" and t.visible >= VISIBLE_MIN]
    w = float(np.median(widths)) if widths else 0.0
    return SIZE_BANDS[int(np.searchsorted([25.0, 40.0, 60.0], w, side="right"))]


def _rate(n: int, d: int) -> str:
    return f"{100.0 * n / d:.1f}% ({n}/{d})" if d else "n/a"


def _summary(stats, per_kind, tiles, latency, failures, cpu=()) -> dict:
    n = stats["scenes"]
    out = {
        "scenes": n,
        "exact_hand": _rate(stats["hand"], n),
        "exact_layout": _rate(stats["layout"], n),
        "exact_score": _rate(stats["score"], stats["scorable"]),
        "readable_scenes": stats["readable"],
        "readable_exact_hand": _rate(stats["readable hand"], stats["readable"]),
        "readable_exact_layout": _rate(stats["readable layout"], stats["readable"]),
        "readable_exact_score": _rate(stats["readable score"], stats["readable scorable"]),
        "per_kind": {k: {"scenes": c["scenes"], "exact_hand": _rate(c["hand"], c["scenes"]),
                         "exact_score": _rate(c["score"], c["scorable"])}
                     for k, c in sorted(per_kind.items())},
        "tiles": dict(tiles),
        "latency_ms": {"median": round(statistics.median(latency), 1) if latency else None,
                       "p95": round(sorted(latency)[int(0.95 * (len(latency) - 1))], 1)
                       if latency else None},
        "cpu_ms": {"process_median": round(statistics.median(c for c, _ in cpu), 1)
                   if cpu else None,
                   "main_thread_median": round(statistics.median(m for _, m in cpu), 1)
                   if cpu else None},
        "failures": failures,
    }
    return out


def _turned(image: np.ndarray, degrees: float) -> np.ndarray:
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    return cv2.warpAffine(image, m, (w, h), borderMode=cv2.BORDER_REFLECT)


def _scaled(image: np.ndarray, f: float) -> np.ndarray:
    return cv2.resize(image, None, fx=f, fy=f,
                      interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_CUBIC)


def _graded(image: np.ndarray, gain, offset: float = 0.0) -> np.ndarray:
    return np.clip(image * np.asarray(gain, np.float32) + offset, 0, 255).astype(np.uint8)


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], 1)


def _grainy(image: np.ndarray, sigma: float) -> np.ndarray:
    noise = np.random.default_rng(0).normal(0, sigma, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


PHOTO_VARIANTS = {
    "as taken": lambda i: i,
    "half size": lambda i: _scaled(i, 0.5),
    "double size": lambda i: _scaled(i, 2.1),
    "turned +7°": lambda i: _turned(i, 7),
    "turned -7°": lambda i: _turned(i, -7),
    "quarter turn": lambda i: cv2.rotate(i, cv2.ROTATE_90_CLOCKWISE),
    "half turn": lambda i: cv2.rotate(i, cv2.ROTATE_180),
    "darker": lambda i: _graded(i, 0.55),
    "brighter": lambda i: _graded(i, 1.3, 10),
    "warmer": lambda i: _graded(i, (0.8, 0.95, 1.1)),
    "jpeg 30": lambda i: _jpeg(i, 30),
    "soft": lambda i: cv2.GaussianBlur(i, (0, 0), 1.5),
    "grainy": lambda i: _grainy(i, 8),
    "grainy half size": lambda i: _scaled(_grainy(i, 8), 0.5),
    "cropped": lambda i: i[i.shape[0] // 5:],  # the hand stays whole in both photos
}
"""Phone-photo variations of a real photo (BGR in, BGR out; deterministic)."""


def run_real(folder: Path, rules: Rules, classifier, config: PipelineConfig, *,
             variants: bool = False) -> dict:
    """Annotated real photos through the same pipeline settings as the renders: the
    concealed tiles read, compared as a multiset (with ``variants``, every photo in
    every `PHOTO_VARIANTS` form)."""
    labels = json.loads((folder / "labels.json").read_text())
    forms = PHOTO_VARIANTS if variants else {"as taken": PHOTO_VARIANTS["as taken"]}
    rows = []
    for (name, info), (form, change) in itertools.product(labels.items(), forms.items()):
        want = Counter(info.get("structure", {}).get("concealed", []))
        t0 = time.perf_counter()
        try:
            result = read_photo(change(load_image(folder / name)), Situation(rules, WinContext()),
                                name=name, classifier=classifier, config=config)
            got = Counter(str(t) for t in result.layout.concealed) if result.layout else Counter()
            if result.layout and result.layout.win:
                got[str(result.layout.win)] += 1
            error = result.error.message if result.error else None
        except AgariError as err:
            got, error = Counter(), err.message
        ms = (time.perf_counter() - t0) * 1e3
        right = sum((want & got).values())
        rows.append({"image": name, "variant": form, "exact": want == got, "right": right,
                     "expected": sum(want.values()), "read": sum(got.values()),
                     "ms": round(ms, 1), "error": error})
    out: dict = {"photos": rows}
    if variants:
        out["variants"] = {"photos": len(rows), "exact": sum(r["exact"] for r in rows),
                           "tiles_right": sum(r["right"] for r in rows),
                           "tiles": sum(r["expected"] for r in rows)}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenes", type=int, default=100)
    ap.add_argument("--seed", type=int, default=900_000)
    ap.add_argument("--kinds", default="shown,standing,table")
    ap.add_argument("--width", type=int, default=1920)
    ap.add_argument("--height", type=int, default=1080)
    ap.add_argument("--detections", choices=("pipeline", "truth", "noisy", "classify"),
                    default="pipeline",
                    help="pipeline: the real stages 1-2; truth: perfect detections; noisy: "
                         "truth with jittered quads and --misread of the faces misread; "
                         "classify: true quads named by the real classifier (dark sets inverted, "
                         "as agari photo reads them)")
    ap.add_argument("--misread", type=float, default=0.05,
                    help="share of faces the noisy classifier gets wrong first")
    ap.add_argument("--real", type=Path, default=None, help="folder with labels.json")
    ap.add_argument("--variants", action="store_true",
                    help="read each --real photo in every PHOTO_VARIANTS form too")
    ap.add_argument("--rules", default="tenhou")
    ap.add_argument("--show-failures", type=int, default=10)
    ap.add_argument("--threads", type=int, default=None, help="classifier threads")
    ap.add_argument("--model", type=Path, default=None, help="classifier .onnx (default: shipped)")
    ap.add_argument("--no-fill", action="store_true",
                    help="skip row completion (agari.vision.fill) after classifying")
    ap.add_argument("--reframe", action="store_true",
                    help="also re-frame unsure located tiles before row completion "
                         "(agari.vision.reframe; off in agari photo)")
    ap.add_argument("--no-cores", action="store_true",
                    help="locate without the core net (agari.vision.cores), as before it")
    ap.add_argument("--cores-model", type=Path, default=None,
                    help="core net .onnx to use instead of the shipped one")
    ap.add_argument("--no-zoom", action="store_true",
                    help="the core net reads each photo once, small tiles too "
                         "(CoreConfig.zoom_below=None)")
    ap.add_argument("--no-retry", action="store_true",
                    help="never read a photo that made no hand again at other scales "
                         "(PipelineConfig.retry=None), as before it")
    ap.add_argument("--no-crops", action="store_true",
                    help="when reading again, other scales only: no crops round the hand "
                         "(RetryConfig.zooms=()), as before them")
    ap.add_argument("--ura-above", action="store_true",
                    help="read loose ura indicators above the dora (the renderer's habit)")
    ap.add_argument("--profile", type=Path, default=None,
                    help="profile the calling thread (cProfile) and write its stats to this "
                         "file (`python -m pstats FILE`); the 25 costliest calls go to stderr")
    args = ap.parse_args(argv)
    rules = Rules.preset(args.rules) if "/" not in args.rules else Rules.resolve(args.rules)
    layout = replace(DEFAULT_LAYOUT, extras=ExtrasConfig(ura_below=not args.ura_above))
    cores = None if args.no_cores else replace(
        HAND_LOCATE.cores or CoreConfig(),
        model=str(args.cores_model) if args.cores_model else None)
    if cores is not None and args.no_zoom:
        cores = replace(cores, zoom_below=None)
    args.config = PipelineConfig(layout=layout, fill=None if args.no_fill else HAND_FILL,
                                 reframe=DEFAULT_REFRAME if args.reframe else None,
                                 locate=replace(HAND_LOCATE, cores=cores),
                                 retry=None if args.no_retry else replace(
                                     DEFAULT_RETRY, zooms=() if args.no_crops else
                                     DEFAULT_RETRY.zooms))
    classifier = None
    if args.detections in ("pipeline", "classify") or args.real:
        from agari.models import TileClassifier

        classifier = TileClassifier.load(args.model, threads=args.threads)
    report = {"args": {k: str(v) for k, v in vars(args).items() if k != "config"}}
    profile = None
    if args.profile is not None:
        import cProfile

        profile = cProfile.Profile()
        profile.enable()
    if args.scenes:
        report["synthetic"] = run_synthetic(args, rules, classifier)
    if args.real:
        report["real"] = run_real(args.real, rules, classifier, args.config,
                                  variants=args.variants)
    if profile is not None:
        import pstats

        profile.disable()
        profile.dump_stats(args.profile)
        pstats.Stats(profile, stream=sys.stderr).sort_stats("tottime").print_stats(25)
    json.dump(report, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
