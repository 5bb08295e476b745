"""Live scoring on a 720p test video: frame rate, output changes, time to score.

Usage (run with ``nice``; the machine is shared)::

    nice -n 10 python bench/webcam_eval.py                         # real locator, model
    nice -n 10 python bench/webcam_eval.py --locator oracle --classifier oracle
    nice -n 10 python bench/webcam_eval.py --classifier noisy --live

The video (`bench/webcam_video.py`, cached under ``--cache``) shows two
tables; on each, hands are laid down a few tiles at a time, held still under
camera shake, a lighting change and a bump, one tile is swapped, and the table
is cleared. The webcam loop (`agari.webcam.run`, headless) processes it and its
JSON events are compared with the truth:

- frames/s: frames processed per second of wall time (every frame processed,
  decoding included), and per second of this process's CPU time (``fps_cpu``:
  what a free core would reach on a machine shared with other work);
- output changes: reading events sent, against the true number of changes of
  what is on the table (hand, its tiles, or the empty table);
- time to score: from the frame a hand is complete and still to its first
  reading event, in stream seconds; with ``--live`` the video is fed as a live
  camera would (frames that arrive while one is processed are dropped) and the
  time is the simulated wall time, so it includes the processing delay;
- exact states: held states whose last reading has the true hand tiles and dora
  (the layout stage included); exact tiles: whose last reading has the true
  face-up tiles in view, whatever their roles (tracking, locating, classifying).

``--locator oracle`` / ``--classifier oracle`` replace a stage by the truth
(``noisy``: the truth with 10% of readings wrong, 3% of tiles missed by the
locator on each call), to measure the tracker apart from the upstream stages;
``--locator timed`` runs the real locator on every keyframe for its cost but
uses the truth's tiles, so frame rate and live latency include the real cost.
The figures are printed; ``--json`` prints them as one JSON document.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from functools import partial
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webcam_video  # noqa: E402
from agari.vision.detection import TileDetection  # noqa: E402
from agari.vision.track import TrackerConfig  # noqa: E402
from agari.vision.track_region import RegionConfig  # noqa: E402

from agari.webcam import HandReader, Session, make_tracker, run  # noqa: E402
from agari.webcam_source import FileSource, SourceConfig, SourceSpec, open_capture  # noqa: E402

NOISY_SHARE = 0.1
MISS_SHARE = 0.03
"""The oracle locator misses this share of tiles on each call."""
MIN_VISIBLE = webcam_video.SEEN


class Tap:
    """Wraps a file source: remembers the frame index; with ``live``, feeds it as a camera would.

    Live: a virtual clock advances by the loop's processing time between reads;
    the frame returned is the newest one captured by then (older ones are dropped).
    """

    def __init__(self, inner: FileSource, *, live: bool) -> None:
        self.inner, self.live, self.fps = inner, live, inner.fps
        self.index, self.dropped, self.clock = -1, 0, 0.0
        self._back: float | None = None

    def read(self):
        if self._back is not None and self.live:
            self.clock += time.perf_counter() - self._back
        newest = math.floor(self.clock * self.fps + 1e-9) if self.live else 0
        frame = self.inner.read()
        while frame is not None and frame.index < newest:
            self.dropped += 1
            frame = self.inner.read()
        if frame is None:
            return None
        self.index = frame.index
        self.clock = max(self.clock, frame.t)
        self._back = time.perf_counter()
        return frame

    def now(self) -> float:
        """The virtual wall clock (live) at this moment."""
        return self.clock + (time.perf_counter() - self._back if self._back else 0.0)

    def close(self) -> None:
        self.inner.close()


class Truth:
    """The truth file, with each frame's tiles as the camera shows them."""

    def __init__(self, path: Path) -> None:
        self.data = json.loads(path.read_text())
        self.fps = self.data["fps"]

    def tiles(self, index: int) -> list[dict]:
        state = self.data["states"][self.data["frame_states"][index]]
        m = np.array(self.data["motion"][index])
        out = []
        for t in state["tiles"]:
            if t["visible"] < MIN_VISIBLE:
                continue
            quad = cv2.transform(np.array([t["quad"]], np.float64), m)[0]
            out.append({**t, "quad": quad})
        return out

    def faces(self, index: int) -> list[str]:
        """The face-up tiles in view at frame ``index``, sorted."""
        return sorted(t["label"] for t in self.tiles(index) if not t["face_down"])


def oracle_locator(truth: Truth, tap: Tap, seed: int):
    rng = np.random.default_rng(seed)

    def locate(frame: np.ndarray, box=None) -> list[TileDetection]:
        """The truth's tiles (those wholly inside ``box``, when given)."""
        dets = []
        for t in truth.tiles(tap.index):
            if rng.random() < MISS_SHARE or not _inside(t["quad"], box):
                continue
            q = t["quad"] + rng.normal(0, 1.0, (4, 2))
            dets.append(TileDetection(tuple(map(tuple, q)), sideways=t["sideways"],
                                      face_down=t["face_down"]))
        return dets

    return locate


def _inside(quad: np.ndarray, box) -> bool:
    """Whether a tile lies wholly inside ``box``; edges on the frame's border are open
    (as `agari.vision.track_region.locate_in` treats them)."""
    if box is None:
        return True
    x0, y0, x1, y1 = box
    w, h = webcam_video.SIZE
    return bool((x0 == 0 or (quad[:, 0] >= x0).all()) and (x1 >= w or (quad[:, 0] < x1).all())
                and (y0 == 0 or (quad[:, 1] >= y0).all())
                and (y1 >= h or (quad[:, 1] < y1).all()))


def oracle_classifier(truth: Truth, tap: Tap, seed: int, *, noisy: bool):
    from dataclasses import replace

    from agari.engine.tiles import CLASS_NAMES
    from agari.vision.track_votes import label_of

    rng = np.random.default_rng(seed + 1)

    def classify(frame: np.ndarray, dets) -> list[TileDetection]:
        from agari.vision.track_match import short_side

        tiles = truth.tiles(tap.index)
        centres = np.array([t["quad"].mean(axis=0) for t in tiles]) if tiles else None
        out = []
        for d in dets:
            name = "none"
            if centres is not None:
                dist = np.linalg.norm(centres - np.array(d.centre), axis=1)
                j = int(np.argmin(dist))
                if dist[j] < 0.5 * short_side(tiles[j]["quad"]):
                    name = tiles[j]["label"]
            other = str(rng.choice(CLASS_NAMES[:-1]))
            alts = ((other, 0.55), (name, 0.4), ("none", 0.05)) \
                if noisy and rng.random() < NOISY_SHARE else ((name, 0.97), ("none", 0.03))
            label = label_of(alts[0][0])
            out.append(replace(d, label=label, confidence=alts[0][1], alternatives=alts,
                               face_down=label == "back"))
        return out

    return classify


def stages(args: argparse.Namespace, truth: Truth, tap: Tap):
    from agari.vision.locate import LocateConfig
    from agari.vision.locate import locate as real_locate

    real = partial(real_locate, config=LocateConfig(max_pixels=args.locate_mp * 1e6))
    locate = real
    if args.locator in ("oracle", "timed"):
        oracle = oracle_locator(truth, tap, args.seed)
        locate = oracle
    if args.locator == "timed":
        from agari.vision.track_region import locate_in

        def locate(frame: np.ndarray, box=None) -> list[TileDetection]:
            locate_in(real, frame, box)  # paid for, then replaced by the truth
            return oracle(frame, box=box)
    if args.classifier in ("oracle", "noisy"):
        classify = oracle_classifier(truth, tap, args.seed, noisy=args.classifier == "noisy")
    else:
        from agari.models import TileClassifier

        clf = TileClassifier.load(args.model) if args.model else TileClassifier.load()
        classify = partial(clf.classify_detections, top_k=5)
    return locate, classify


def video_for(args: argparse.Namespace) -> Path:
    path = Path(args.cache) / f"webcam_v2_s{args.seed}_n{args.sessions}.mp4"
    if not path.is_file() or not path.with_suffix(".json").is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        print(f"rendering {path} ...", file=sys.stderr)
        webcam_video.write(webcam_video.build(args.seed, args.sessions), path, seed=args.seed)
    return path


def held_tiles(event: dict) -> dict | None:
    """An event's hand as the truth file writes it (sorted tiles, dora)."""
    layout = event.get("layout")
    if layout is None:
        return None
    tiles = list(layout["concealed"]) + ([layout["win"]] if layout["win"] else [])
    for m in layout["melds"]:
        tiles += m["tiles"]
    return {"tiles": sorted(tiles), "dora": sorted(layout["dora"])}


def evaluate(events: list[tuple[dict, float]], truth: Truth) -> dict:
    held = truth.data["held"]
    fps = truth.fps
    changes, last = 0, None
    for h in held:
        key = json.dumps(h["hand"], sort_keys=True)
        changes += key != last
        last = key
    latencies, exact, exact_tiles, missed = [], 0, 0, 0
    for k, h in enumerate(held):
        end = held[k + 1]["frame"] if k + 1 < len(held) else truth.data["frames"]
        mine = [(e, at) for e, at in events if h["frame"] <= e["frame"] < end]
        if h["hand"] is not None:
            if mine:
                latencies.append(mine[0][1] - h["frame"] / fps)
            else:
                missed += 1
        final = mine[-1][0] if mine else _before(events, h["frame"])
        exact += (held_tiles(final) if final else None) == h["hand"]
        exact_tiles += _faces(final) == truth.faces(h["frame"])
    return {"true_changes": changes, "output_changes": len(events), "held_states": len(held),
            "exact_states": exact, "exact_tiles": exact_tiles, "hands_never_scored": missed,
            "latency_s": [round(x, 3) for x in latencies]}


def _faces(event: dict | None) -> list[str]:
    """The face-up tiles an event read, sorted (whatever their role)."""
    if event is None:
        return []
    return sorted(t["tile"] for t in event["tiles"] if t["tile"] not in (None, "back"))


def _before(events: list[tuple[dict, float]], frame: int) -> dict | None:
    prior = [e for e, _ in events if e["frame"] < frame]
    return prior[-1] if prior else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sessions", type=int, default=2)
    ap.add_argument("--cache", default="/work/cache/webcam")
    ap.add_argument("--locator", choices=("real", "oracle", "timed"), default="real",
                    help="timed: run the real locator for its cost, use the truth's tiles.")
    ap.add_argument("--classifier", choices=("model", "oracle", "noisy"), default="model")
    ap.add_argument("--model", default=None)
    ap.add_argument("--locate-mp", type=float, default=1.0,
                    help="Locator working size in megapixels.")
    ap.add_argument("--live", action="store_true", help="Feed the video as a live camera.")
    ap.add_argument("--whole-frames", action="store_true",
                    help="Locate in whole frames, never in a box around the change.")
    ap.add_argument("--threads", type=int, default=1, help="OpenCV threads.")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    cv2.setNumThreads(args.threads)
    path = video_for(args)
    truth = Truth(path.with_suffix(".json"))
    spec = SourceSpec("file", str(path))
    tap = Tap(FileSource(spec, open_capture(spec, SourceConfig()), SourceConfig()),
              live=args.live)
    locate, classify = stages(args, truth, tap)
    events: list[tuple[dict, float]] = []

    def on_event(e: dict) -> None:
        events.append((e, tap.now() if args.live else e["t"]))

    cpu0 = time.process_time()
    config = TrackerConfig(region=RegionConfig(full_share=0.0)) if args.whole_frames else None
    summary = run(Session(tap, make_tracker(locate, classify, config), HandReader(),
                          on_event=on_event))
    cpu = time.process_time() - cpu0
    report = {"video": str(path), "frames": truth.data["frames"], "processed": summary.frames,
              "dropped": tap.dropped, "wall_s": round(summary.wall_s, 2),
              "fps": round(summary.fps, 1), "cpu_s": round(cpu, 2),
              "fps_cpu": round(summary.frames / cpu, 1) if cpu > 0 else None,
              "keyframes": summary.located,
              "crops_classified": summary.classified, "live": args.live,
              "locator": args.locator, "classifier": args.classifier,
              "whole_frames": args.whole_frames,
              **evaluate(events, truth)}
    lat = report["latency_s"]
    report["latency_median_s"] = round(statistics.median(lat), 3) if lat else None
    report["latency_max_s"] = round(max(lat), 3) if lat else None
    if args.json:
        print(json.dumps(report))
    else:
        for k, v in report.items():
            print(f"{k:>20}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
