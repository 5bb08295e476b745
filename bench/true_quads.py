"""How well the classifier names a rendered photo's hand, meld and indicator tiles given their
true quads, by role, face width and art (a diagnostic for issue #7, not a benchmark of the
pipeline: `photo_eval.py --detections classify` scores whole hands the same way).

Usage::

    python bench/true_quads.py --seed 1040000 --scenes 100 [--plain]

Each scene is rendered as `photo_eval.py` renders it (1920x1080, shown / standing / table).
Its face-up hand, meld, dora and ura tiles at least half visible are cut from their true quads
and read as `agari photo` reads a photo's tiles: by the shipped classifier, the crops' lightness
inverted where the photo reads surer so (`agari.models.polarity`; ``--plain``: never). One
line per group: tiles right of all, and the share wrong.
"""
from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np
from agari.datasets.scene import SceneConfig, render_scene
from agari.models.polarity import DEFAULT_POLARITY, face_polarity
from agari.vision.detection import TileDetection

from agari.pipeline import default_classifier

SCENES = SceneConfig(width=1920, height=1080, kinds=("shown", "standing", "table"), fit_prob=1.0)
ROLES = {"concealed": "hand", "win": "hand", "meld": "meld", "dora": "dora", "ura": "dora"}
WIDTHS = ((20, "<20 px"), (30, "20-30 px"), (45, "30-45 px"), (float("inf"), "45+ px"))


def width_group(quad) -> str:
    """The face's shorter side in pixels, grouped."""
    q = np.asarray(quad, np.float64)
    short = min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1]))
    return next(name for top, name in WIDTHS if short < top)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1040000)
    ap.add_argument("--scenes", type=int, default=100)
    ap.add_argument("--plain", action="store_true", help="never read crops inverted")
    args = ap.parse_args()
    clf = default_classifier()
    counts: dict[tuple[str, ...], list[int]] = defaultdict(lambda: [0, 0])
    for seed in range(args.seed, args.seed + args.scenes):
        image, ann = render_scene(seed, SCENES)
        tiles = [t for t in ann.tiles if t.role in ROLES and t.visible >= 0.5
                 and not t.face_down and t.label != "back"]
        if not tiles:
            continue
        boxes = [TileDetection(tuple(map(tuple, t.quad)), sideways=t.sideways) for t in tiles]
        read = clf.classify_detections(image, boxes)
        reader = clf if args.plain else face_polarity(clf, image, read, DEFAULT_POLARITY)
        if reader is not clf:
            read = reader.classify_detections(image, boxes)
        art = ann.meta_value("art", "?")
        for t, d in zip(tiles, read, strict=True):
            role, width = ROLES[t.role], width_group(t.quad)
            for key in (("all",), ("art", art), ("role", role), ("width", width),
                        ("role, width", role, width)):
                counts[key][0] += d.label_name == t.label
                counts[key][1] += 1
    for key in sorted(counts):
        right, n = counts[key]
        print(f"{' '.join(key):24s} {right:5d}/{n:<5d} {100 * (n - right) / n:5.1f} % wrong")


if __name__ == "__main__":
    main()
