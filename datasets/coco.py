"""COCO object detection JSON with polygons (loads in pycocotools).

One document, ``ROOT/annotations.json``: ``images`` (id, file_name, width,
height), ``categories`` (id = class index + 1 in `DATASET_CLASSES`, with a
supercategory per suit) and ``annotations`` with a clipped ``bbox``, the quad
as a 4-point ``segmentation`` polygon (TL, TR, BR, BL), its ``area``, and our
extra fields under ``attributes`` (face_down, sideways, role, group, rotation,
visible) plus ``score`` for predictions. Image-level ``hand``/``win``/``meta``
ride along as extra keys; other tools ignore them.

The reader accepts any COCO file: category names go through
`canonical_label`; a 4-point polygon is taken as the quad in order, a longer
polygon by its minimum-area rectangle, a missing one by the bbox.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from agari.datasets.annotation import (
    TILE_FIELDS,
    ImageAnnotation,
    TileAnnotation,
    as_quad,
    box_quad,
)
from agari.datasets.geometry import long_side_first, polygon_area, polygon_quad
from agari.datasets.names import canonical_label
from agari.datasets.writers import DATASET_CLASSES, JournalWriter
from agari.engine.errors import InvalidInput
from agari.engine.tiles import BACK

OUTPUT_NAME = "annotations.json"
_SUPER = {"m": "manzu", "p": "pinzu", "s": "souzu", "z": "jihai"}
_ATTRS = tuple(f for f in TILE_FIELDS if f != "score")


def _bad(message: str) -> InvalidInput:
    return InvalidInput(message, code="bad_annotation")


def categories() -> list[dict]:
    """COCO categories for `DATASET_CLASSES` (ids from 1)."""
    return [{"id": i + 1, "name": n, "supercategory": _SUPER.get(n[-1], "back")}
            for i, n in enumerate(DATASET_CLASSES)]


class CocoWriter(JournalWriter):
    """Writes ``ROOT/annotations.json`` (journalled; see `JournalWriter`)."""

    format = "coco"
    output_name = OUTPUT_NAME

    def _document(self, images: list[ImageAnnotation]) -> dict:
        return coco_document(images)


def coco_document(images: list[ImageAnnotation]) -> dict:
    """The COCO dict for ``images`` (ids 1.. in order; tiles outside the image left out)."""
    out_images, out_anns = [], []
    for image_id, ann in enumerate(images, start=1):
        record: dict = {"id": image_id, "file_name": ann.image,
                        "width": ann.width, "height": ann.height}
        record.update({k: v for k, v in (("hand", ann.hand), ("win", ann.win)) if v is not None})
        if ann.meta:
            record["meta"] = dict(ann.meta)
        out_images.append(record)
        for tile in ann.tiles:
            box = ann.clipped_box(tile)
            if box is None or tile.label not in DATASET_CLASSES:
                continue
            item = {"id": len(out_anns) + 1, "image_id": image_id,
                    "category_id": DATASET_CLASSES.index(tile.label) + 1,
                    "bbox": [round(v, 2) for v in box],
                    "segmentation": [[round(c, 2) for p in tile.quad for c in p]],
                    "area": round(polygon_area(tile.quad), 2), "iscrowd": 0,
                    "attributes": {f: getattr(tile, f) for f in _ATTRS}}
            if tile.score is not None:
                item["score"] = tile.score
            out_anns.append(item)
    return {"info": {"description": "agari tile annotations"}, "images": out_images,
            "annotations": out_anns, "categories": categories()}


def read_coco(path: Path) -> Iterator[ImageAnnotation]:
    """Read a COCO JSON file (or a folder holding ``annotations.json``), images in file order.

    Raises:
        InvalidInput: unreadable JSON, missing keys, unknown category or image ids.
    """
    path = Path(path)
    if path.is_dir():
        path = path / OUTPUT_NAME
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        cats = {int(c["id"]): canonical_label(c["name"]) for c in doc["categories"]}
        images = doc["images"]
        by_image: dict[int, list[dict]] = defaultdict(list)
        for a in doc.get("annotations", []):
            by_image[int(a["image_id"])].append(a)
    except FileNotFoundError:
        raise _bad(f"no COCO file at {path}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise _bad(f"{path}: not JSON: {err}") from None
    except (KeyError, TypeError, ValueError) as err:
        raise _bad(f"{path}: not a COCO detection file ({err})") from None
    for img in images:
        try:
            tiles = tuple(_tile(a, cats) for a in by_image.get(int(img["id"]), []))
            meta = img.get("meta") or {}
            yield ImageAnnotation(
                image=str(img["file_name"]), width=int(img["width"]), height=int(img["height"]),
                tiles=tiles, hand=img.get("hand"), win=img.get("win"),
                meta=tuple((str(k), str(v)) for k, v in meta.items()) or (("source", "coco"),))
        except (KeyError, TypeError, ValueError) as err:
            raise _bad(f"{path}: bad record for image {img.get('id')!r} ({err})") from None


def _tile(a: dict, cats: dict[int, str]) -> TileAnnotation:
    cat = int(a["category_id"])
    if cat not in cats:
        raise _bad(f"annotation {a.get('id')!r} has unknown category {cat}")
    label = cats[cat]
    quad = _quad(a)
    attrs = {k: v for k, v in (a.get("attributes") or {}).items() if k in _ATTRS and v is not None}
    attrs.setdefault("face_down", label == BACK)
    attrs.setdefault("sideways", long_side_first(quad))
    score = a.get("score")
    return TileAnnotation(quad=quad, label=label, score=None if score is None else float(score),
                          **attrs)


def _quad(a: dict):
    seg = a.get("segmentation")
    if isinstance(seg, list) and seg and isinstance(seg[0], list) and len(seg[0]) >= 8:
        pts = [(seg[0][i], seg[0][i + 1]) for i in range(0, len(seg[0]) - 1, 2)]
        return as_quad(pts) if len(pts) == 4 else polygon_quad(pts)
    x, y, w, h = (float(v) for v in a["bbox"])
    return box_quad(x, y, w, h)
