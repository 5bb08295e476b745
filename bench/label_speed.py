"""How fast `agari label` runs: images/s on 640x640 photos with 1 and 2 worker processes.

Usage::

    nice python bench/label_speed.py [--images DIR] [--count 64] [--workers 1 2]
                                     [--model M.onnx] [--cluster local] [--json]

Photos: ``--images DIR`` (recursive), else the real 640x640 tray photos in
``../shared/data/real-dev/riichi-tray/images``, else photos rendered at 640x640
by the scene renderer. Each worker count runs the whole job (`run_label`: read,
decode, locate, classify, journal commit, COCO export) into a fresh folder.

Reported per run: the steady rate (images finished after the first, over the
time since the first: what a long job sees), the overall rate including worker
start-up and export, and where one image's time goes when run alone in one
process (decode, locate, classify), so a slow figure can be traced to its stage,
and its CPU time, which says what a worker with a free core would reach when the
machine is shared.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TRAY = REPO.parent / "shared" / "data" / "real-dev" / "riichi-tray" / "images"
SIZE = (640, 640)


def photo_folder(args: argparse.Namespace, scratch: Path) -> tuple[Path, str]:
    """The folder of photos to label and a description of where they came from."""
    if args.images:
        return Path(args.images), f"{args.images}"
    if TRAY.is_dir():
        chosen = scratch / "tray"
        chosen.mkdir()
        for path in sorted(TRAY.glob("*.jpg"))[: args.count]:
            (chosen / path.name).symlink_to(path)
        return chosen, "real riichi-tray photos (640x640)"
    from agari.datasets.imagefiles import write_image
    from agari.datasets.scene import SceneConfig, render_scene

    rendered = scratch / "rendered"
    config = SceneConfig(width=SIZE[0], height=SIZE[1])
    for seed in range(args.count):
        write_image(rendered / f"scene_{seed:03d}.jpg", render_scene(seed, config)[0])
    return rendered, "rendered scenes (640x640; ../shared absent)"


def stage_times(folder: Path, model: str | None, count: int = 16) -> dict[str, float]:
    """Mean ms per image of each stage (wall) and of CPU in all, one process, one thread.

    CPU time does not grow when other programs share the cores, so ``1000 / cpu``
    is what one worker with a core to itself would reach.
    """
    import cv2
    from agari.datasets.label_worker import decode_image
    from agari.models.classifier import TileClassifier
    from agari.vision.locate import locate

    cv2.setNumThreads(1)
    clf = TileClassifier.load(model, threads=1)
    totals = {"decode": 0.0, "locate": 0.0, "classify": 0.0, "tiles": 0.0}
    paths = sorted(folder.rglob("*.jpg"))[:count]
    cpu0 = time.process_time()
    for path in paths:
        t0 = time.perf_counter()
        image = decode_image(path.read_bytes(), path.name)
        t1 = time.perf_counter()
        dets = locate(image)
        t2 = time.perf_counter()
        clf.classify_detections(image, dets)
        t3 = time.perf_counter()
        for key, dt in (("decode", t1 - t0), ("locate", t2 - t1), ("classify", t3 - t2)):
            totals[key] += 1000 * dt
        totals["tiles"] += len(dets)
    totals["cpu"] = 1000 * (time.process_time() - cpu0)
    return {k: round(v / max(1, len(paths)), 1) for k, v in totals.items()}


def run(folder: Path, workers: int, args: argparse.Namespace, scratch: Path) -> dict:
    from agari.datasets.label import ImageFinished, LabelOptions, run_label

    out = scratch / f"out-{workers}-{args.cluster or 'pool'}"
    shutil.rmtree(out, ignore_errors=True)
    stamps: list[float] = []

    def on_event(event: object) -> None:
        if isinstance(event, ImageFinished):
            stamps.append(time.perf_counter())

    start = time.perf_counter()
    summary = run_label(LabelOptions(inputs=(str(folder),), out=out, formats=("coco",),
                                     workers=workers, cluster=args.cluster, images="none",
                                     model=Path(args.model) if args.model else None),
                        on_event=on_event)
    total = time.perf_counter() - start
    steady = (len(stamps) - 1) / (stamps[-1] - stamps[0]) if len(stamps) > 2 else 0.0
    return {"workers": workers, "cluster": args.cluster, "images": summary.done,
            "failed": len(summary.failed), "tiles": summary.tiles,
            "steady_images_per_s": round(steady, 2),
            "overall_images_per_s": round(summary.done / total, 2),
            "wall_s": round(total, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", help="folder of photos (default: real tray photos)")
    parser.add_argument("--count", type=int, default=64, help="photos taken from the default set")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--model", help="classifier .onnx (default: the shipped model)")
    parser.add_argument("--cluster", help="run on Dask instead: local or tcp://HOST:PORT")
    parser.add_argument("--json", action="store_true", help="one JSON line per run")
    args = parser.parse_args()

    from agari.engine.errors import AgariError

    with tempfile.TemporaryDirectory(prefix="agari-label-bench-") as tmp:
        scratch = Path(tmp)
        folder, source = photo_folder(args, scratch)
        try:
            stages = stage_times(folder, args.model)
            results = [run(folder, w, args, scratch) for w in args.workers]
        except AgariError as err:
            sys.exit(f"label_speed: {err.message}")
    if args.json:
        for r in results:
            print(json.dumps({"source": source, "stages_ms": stages, **r}))
        return
    print(f"photos: {source}")
    print(f"one image alone (ms): decode {stages['decode']}, locate {stages['locate']}, "
          f"classify {stages['classify']} ({stages['tiles']:.0f} tiles/image); "
          f"CPU {stages['cpu']} ms/image = {1000 / max(stages['cpu'], 1e-3):.1f} images/s "
          "per free core")
    for r in results:
        where = f"Dask {r['cluster']}" if r["cluster"] else "process pool"
        print(f"{r['workers']} worker(s), {where}: {r['steady_images_per_s']:.1f} images/s "
              f"steady, {r['overall_images_per_s']:.1f} overall ({r['images']} images, "
              f"{r['tiles']} tiles, {r['wall_s']:.1f} s with start-up and export)")


if __name__ == "__main__":
    main()
