"""Label Studio JSON tasks, with ground truth as annotations and model output as predictions.

``ROOT/tasks.json`` is a list of tasks ready to import, and
``ROOT/label_config.xml`` the matching labelling interface (a ``PolygonLabels``
tool named ``tile`` over the image, one label per class). Each tile is a
4-point polygon in percent of the image size (TL, TR, BR, BL). Tiles with a
``score`` go to the task's ``predictions`` (pre-annotations to review), the
others to ``annotations``. Our extra fields (face_down, sideways, role, group,
rotation, visible), the hand and meta ride in ``data.agari``, keyed by region id.

The reader also takes ``rectanglelabels`` regions (x, y, width, height in
percent, rotated about the top-left corner), as Label Studio exports them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from xml.sax.saxutils import quoteattr

from agari.datasets.annotation import TILE_FIELDS, ImageAnnotation, TileAnnotation, as_quad
from agari.datasets.geometry import long_side_first, polygon_quad
from agari.datasets.imagefiles import image_size
from agari.datasets.names import canonical_label
from agari.datasets.writers import DATASET_CLASSES, IMAGE_DIR, JournalWriter
from agari.engine.errors import InvalidInput
from agari.engine.tiles import BACK

OUTPUT_NAME = "tasks.json"
CONFIG_NAME = "label_config.xml"
FROM_NAME, TO_NAME = "tile", "image"
MODEL_VERSION = "agari"
_ATTRS = tuple(f for f in TILE_FIELDS if f != "score")


def _bad(message: str) -> InvalidInput:
    return InvalidInput(message, code="bad_annotation")


def label_config() -> str:
    """The labelling interface XML matching the tasks this module writes."""
    labels = "\n".join(f"    <Label value={quoteattr(n)}/>" for n in DATASET_CLASSES)
    return (f'<View>\n  <Image name="{TO_NAME}" value="$image" zoom="true"/>\n'
            f'  <PolygonLabels name="{FROM_NAME}" toName="{TO_NAME}" strokeWidth="2">\n'
            f"{labels}\n  </PolygonLabels>\n</View>\n")


class LabelStudioWriter(JournalWriter):
    """Writes ``ROOT/tasks.json`` and ``ROOT/label_config.xml`` (journalled).

    Args:
        image_prefix: put before each image name in ``data.image``; the default points
            at the ``images/`` folder beside ``tasks.json``. For Label Studio's local
            file serving use e.g. ``"/data/local-files/?d=mydataset/images/"``.
    """

    format = "labelstudio"
    output_name = OUTPUT_NAME

    def __init__(self, root: Path, *, resume: bool = False, image_prefix: str = f"{IMAGE_DIR}/",
                 ) -> None:
        super().__init__(root, resume=resume)
        self.image_prefix = image_prefix
        (self.root / CONFIG_NAME).write_text(label_config(), encoding="utf-8")

    def _document(self, images: list[ImageAnnotation]) -> list[dict]:
        return [task(ann, task_id=i, image_prefix=self.image_prefix)
                for i, ann in enumerate(images, start=1)]


def task(ann: ImageAnnotation, *, task_id: int, image_prefix: str = f"{IMAGE_DIR}/") -> dict:
    """One Label Studio task for ``ann`` (tiles outside the image or not a class left out)."""
    truth, predicted, extras = [], [], {}
    for i, tile in enumerate(ann.tiles):
        if tile.label not in DATASET_CLASSES or ann.clipped_box(tile) is None:
            continue
        region = _region(ann, tile, f"t{i}")
        extras[region["id"]] = {f: getattr(tile, f) for f in _ATTRS}
        (truth if tile.score is None else predicted).append(region)
    data = {"image": image_prefix + ann.image,
            "agari": {"image": ann.image, "width": ann.width, "height": ann.height,
                      "hand": ann.hand, "win": ann.win,
                      "meta": dict(ann.meta), "tiles": extras}}
    out: dict = {"id": task_id, "data": data, "annotations": [{"result": truth}] if truth else []}
    if predicted:
        mean = sum(r["score"] for r in predicted) / len(predicted)
        out["predictions"] = [{"model_version": MODEL_VERSION, "score": round(mean, 4),
                               "result": predicted}]
    return out


def _region(ann: ImageAnnotation, tile: TileAnnotation, region_id: str) -> dict:
    points = [[round(100.0 * x / ann.width, 6), round(100.0 * y / ann.height, 6)]
              for x, y in tile.quad]
    region = {"id": region_id, "type": "polygonlabels", "from_name": FROM_NAME,
              "to_name": TO_NAME, "original_width": ann.width, "original_height": ann.height,
              "image_rotation": 0,
              "value": {"points": points, "closed": True, "polygonlabels": [tile.label]}}
    if tile.score is not None:
        region["score"] = tile.score
    return region


def read_labelstudio(path: Path, *, image_root: Path | None = None) -> Iterator[ImageAnnotation]:
    """Read a Label Studio task list (a folder holding ``tasks.json``, or any export file).

    Ground truth comes from the first annotation that was not cancelled; a task
    with none falls back to its first prediction (tiles then carry scores). Tasks
    this module wrote merge both back into the one tile list they came from.
    A foreign task without regions gets its size from its image file under
    ``image_root`` (default: ``images/`` beside the export).

    Raises:
        InvalidInput: not JSON, not a task list, or a region we cannot read.
    """
    path = Path(path)
    if path.is_dir():
        path = path / OUTPUT_NAME
    image_root = Path(image_root) if image_root is not None else path.parent / IMAGE_DIR
    try:
        tasks = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _bad(f"no Label Studio file at {path}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise _bad(f"{path}: not JSON: {err}") from None
    if not isinstance(tasks, list):
        raise _bad(f"{path}: a Label Studio export is a list of tasks")
    for task_data in tasks:
        try:
            yield _read_task(task_data, image_root)
        except (KeyError, TypeError, ValueError, IndexError) as err:
            raise _bad(f"{path}: bad task {task_data.get('id')!r} ({err})") from None


def _read_task(t: dict, image_root: Path) -> ImageAnnotation:
    data = t["data"]
    extra = data.get("agari") or {}
    done = [a["result"] for a in t.get("annotations") or [] if not a.get("was_cancelled")]
    guesses = [p["result"] for p in t.get("predictions") or []]
    if extra.get("tiles") is not None:  # our own task: its regions split one tile list
        sources = [(r, False) for r in (done[:1] or [[]])[0]] + [
            (r, True) for r in (guesses[:1] or [[]])[0]]
        sources.sort(key=lambda rs: _region_order(rs[0]))
    else:
        sources = [(r, False) for r in done[0]] if done else [
            (r, True) for r in (guesses[:1] or [[]])[0]]
    regions = [(r, s) for r, s in sources if r.get("type") in ("polygonlabels", "rectanglelabels")]
    sizes = [(int(r["original_width"]), int(r["original_height"])) for r, _ in regions]
    image = extra.get("image") or str(data["image"]).rsplit("?d=", 1)[-1]
    if sizes:
        width, height = sizes[0]
    elif "width" in extra:
        width, height = int(extra["width"]), int(extra["height"])
    else:  # a foreign task without regions says nothing of its size: ask the file
        width, height = image_size(image_root / image.removeprefix(f"{IMAGE_DIR}/"))
    tiles = tuple(_read_region(r, width, height, extra.get("tiles") or {}, scored)
                  for r, scored in regions)
    return ImageAnnotation(image=image, width=width, height=height, tiles=tiles,
                           hand=extra.get("hand"), win=extra.get("win"),
                           meta=tuple((extra.get("meta") or {"source": "labelstudio"}).items()))


def _region_order(region: dict) -> int:
    rid = str(region.get("id", ""))
    return int(rid[1:]) if rid[:1] == "t" and rid[1:].isdigit() else 0


def _read_region(r: dict, width: int, height: int, extras: dict, scored: bool) -> TileAnnotation:
    v = r["value"]
    label = canonical_label((v.get("polygonlabels") or v.get("rectanglelabels"))[0])
    if r["type"] == "polygonlabels":
        # Back to pixels at the 0.01 px every other writer keeps.
        pts = [(round(x * width / 100.0, 2), round(y * height / 100.0, 2)) for x, y in v["points"]]
        quad = as_quad(pts) if len(pts) == 4 else polygon_quad(pts)
    else:
        quad = _rotated_rect(v, width, height)
    attrs = {k: val for k, val in (extras.get(r.get("id")) or {}).items()
             if k in _ATTRS and val is not None}
    attrs.setdefault("face_down", label == BACK)
    attrs.setdefault("sideways", long_side_first(quad))
    score = r.get("score") if scored or "score" in r else None
    return TileAnnotation(quad=quad, label=label,
                          score=None if score is None else float(score), **attrs)


def _rotated_rect(v: dict, width: int, height: int):
    x, y = v["x"] * width / 100.0, v["y"] * height / 100.0
    w, h = v["width"] * width / 100.0, v["height"] * height / 100.0
    a = math.radians(float(v.get("rotation", 0.0)))
    c, s = math.cos(a), math.sin(a)
    return as_quad([(x + dx * c - dy * s, y + dx * s + dy * c)
                    for dx, dy in ((0, 0), (w, 0), (w, h), (0, h))])
