"""How fast the synthetic scene renderer runs: scenes per second at 1280x960.

Usage::

    python bench/synth_speed.py [--scenes 100] [--seed 0] [--size 1280x960] [--encode]

Renders in one process with one OpenCV thread (the way `agari dataset synth`
workers run), after a warm-up of a few scenes (art rasters, texture pool).
``--encode`` also JPEG-encodes each image, as writing a dataset does.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", default="1280x960")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--encode", action="store_true", help="also encode each image as JPEG")
    args = parser.parse_args()

    import cv2
    from agari.datasets.scene import SceneConfig, render_scene

    cv2.setNumThreads(1)
    width, height = (int(v) for v in args.size.lower().split("x"))
    config = SceneConfig(width=width, height=height)
    for s in range(args.warmup):
        render_scene(10_000_000 + s, config)
    times: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
    tiles = 0
    start = time.perf_counter()
    for s in range(args.seed, args.seed + args.scenes):
        t0 = time.perf_counter()
        image, ann = render_scene(s, config)
        if args.encode:
            cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        dt = time.perf_counter() - t0
        times.append(dt)
        by_kind[ann.meta_value("kind") or "?"].append(dt)
        tiles += len(ann.tiles)
    total = time.perf_counter() - start
    ms = sorted(t * 1000 for t in times)
    print(f"{args.scenes} scenes at {width}x{height}{' + JPEG' if args.encode else ''}: "
          f"{args.scenes / total:.1f} scenes/s, {tiles / args.scenes:.0f} tiles/scene")
    print(f"ms/scene: median {statistics.median(ms):.0f}, p90 {ms[int(0.9 * len(ms)) - 1]:.0f}, "
          f"max {ms[-1]:.0f}")
    for kind, ts in sorted(by_kind.items()):
        print(f"  {kind:9s} {len(ts):4d} scenes  {1000 * statistics.mean(ts):.0f} ms mean")


if __name__ == "__main__":
    main()
