"""YOLO (axis-aligned boxes) and YOLO-OBB (four corners), as Ultralytics lays them out.

Layout: ``ROOT/images/<name>.jpg``, ``ROOT/labels/<name>.txt`` (same relative
path, ``.txt`` suffix) and ``ROOT/data.yaml`` with the class names. One line
per tile: ``class cx cy w h`` (boxes) or ``class x1 y1 x2 y2 x3 y3 x4 y4``
(OBB, our TL, TR, BR, BL order), all normalised to 0..1 by the image size.
The reader also takes segmentation polygons (boxed by their minimum-area rectangle).

YOLO keeps only geometry and class: face-down is class ``back``; role,
rotation and the hand are not stored. Boxes do not say which way a tile lies,
so the reader takes a box wider than tall as a sideways tile.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from agari.datasets.annotation import ImageAnnotation, TileAnnotation, as_quad, box_quad
from agari.datasets.geometry import long_side_first, polygon_quad
from agari.datasets.imagefiles import image_size, list_images
from agari.datasets.names import canonical_label, resolve_class_order
from agari.datasets.writers import DATASET_CLASSES, IMAGE_DIR, AnnotationWriter
from agari.engine.errors import InvalidInput
from agari.engine.tiles import BACK

LABEL_DIR = "labels"
NAME_FILES = ("data.yaml", "dataset.yaml", "data.yml", "classes.txt", "obj.names", "classes.names")


def _bad(message: str) -> InvalidInput:
    return InvalidInput(message, code="bad_annotation")


class YoloWriter(AnnotationWriter):
    """Writes YOLO boxes (``obb=False``) or YOLO-OBB corners (``obb=True``)."""

    def __init__(self, root: Path, *, obb: bool = False, resume: bool = False) -> None:
        super().__init__(root, resume=resume)
        self.obb = obb
        self.format = "yolo-obb" if obb else "yolo"
        (self.root / LABEL_DIR).mkdir(exist_ok=True)
        self._write_names()
        if resume:  # an image counts as done once its label file exists
            images = self.root / IMAGE_DIR
            self._seen.update(
                p.relative_to(images).as_posix() for p in list_images(images)
                if (self.root / LABEL_DIR / p.relative_to(images)).with_suffix(".txt").exists())

    def _write_names(self) -> None:
        names = "\n".join(f"  {i}: '{n}'" for i, n in enumerate(DATASET_CLASSES))
        task = "obb" if self.obb else "detect"
        (self.root / "data.yaml").write_text(
            f"# agari tile dataset ({task}); class ids follow agari.engine.tiles.CLASS_NAMES\n"
            f"path: .\ntrain: {IMAGE_DIR}\nval: {IMAGE_DIR}\nnc: {len(DATASET_CLASSES)}\n"
            f"names:\n{names}\n", encoding="utf-8")

    def label_path(self, ann: ImageAnnotation) -> Path:
        return (self.root / LABEL_DIR / ann.image).with_suffix(".txt")

    def _write(self, ann: ImageAnnotation) -> None:
        lines = [self._line(ann, t) for t in ann.tiles if t.label in DATASET_CLASSES]
        path = self.label_path(ann)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(line + "\n" for line in lines if line), encoding="utf-8")

    def _line(self, ann: ImageAnnotation, tile: TileAnnotation) -> str:
        cls = DATASET_CLASSES.index(tile.label)
        w, h = ann.width, ann.height
        if ann.clipped_box(tile) is None:
            return ""
        if self.obb:
            coords = [(min(max(x / w, 0.0), 1.0), min(max(y / h, 0.0), 1.0)) for x, y in tile.quad]
            return f"{cls} " + " ".join(f"{x:.6f} {y:.6f}" for x, y in coords)
        box = ann.clipped_box(tile)
        if box is None:
            return ""
        bx, by, bw, bh = box
        return f"{cls} {(bx + bw / 2) / w:.6f} {(by + bh / 2) / h:.6f} {bw / w:.6f} {bh / h:.6f}"


def find_class_names(root: Path) -> tuple[str, ...] | None:
    """Class names from ``data.yaml``/``classes.txt``/``obj.names`` in ``root``, as ours."""
    for name in NAME_FILES:
        path = Path(root) / name
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            raw = _yaml_names(text) if path.suffix in (".yaml", ".yml") else [
                ln.strip() for ln in text.splitlines() if ln.strip()]
            if raw:
                return tuple(canonical_label(n) for n in raw)
    return None


_FLOW = re.compile(r"^names\s*:\s*\[(.*)\]\s*$", re.S | re.M)
_ITEM = re.compile(r"^\s+(?:-\s*|(\d+)\s*:\s*)(.+?)\s*$")


def _yaml_names(text: str) -> list[str]:
    """The ``names`` entry of a YOLO data.yaml: a flow list, a block list or an index map."""
    m = _FLOW.search(text)
    if m:
        return [p.strip().strip("'\"") for p in m.group(1).split(",") if p.strip()]
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if re.match(r"^names\s*:\s*$", ln)), None)
    if start is None:
        return []
    found: dict[int, str] = {}
    for ln in lines[start + 1:]:
        item = _ITEM.match(ln)
        if not item:
            break
        index = int(item.group(1)) if item.group(1) is not None else len(found)
        found[index] = item.group(2).strip().strip("'\"")
    return [found[i] for i in sorted(found)]


def read_yolo(root: Path, *, names: str | tuple[str, ...] | list[str] | None = None,
              ) -> Iterator[ImageAnnotation]:
    """Read a YOLO or YOLO-OBB dataset (each line's length says which), images in path order.

    Args:
        root: the folder with ``images/`` and ``labels/``.
        names: class order (see `agari.datasets.names.resolve_class_order`); default:
            the dataset's ``data.yaml``/``classes.txt``.

    Raises:
        InvalidInput: no class list, a malformed label line, an unknown class id.
    """
    root = Path(root)
    classes = resolve_class_order(names) if names is not None else find_class_names(root)
    if classes is None:
        raise _bad(f"no class list in {root} (data.yaml or classes.txt); pass the class order")
    image_root = root / IMAGE_DIR
    if not image_root.is_dir():
        raise _bad(f"no {IMAGE_DIR}/ folder in {root}")
    for path in list_images(image_root):
        rel = path.relative_to(image_root)
        width, height = image_size(path)
        label_path = (root / LABEL_DIR / rel).with_suffix(".txt")
        lines = label_path.read_text(encoding="utf-8").splitlines() if label_path.exists() else []
        tiles = tuple(_parse_line(ln, classes, width, height, label_path, i + 1)
                      for i, ln in enumerate(lines) if ln.strip())
        yield ImageAnnotation(image=rel.as_posix(), width=width, height=height, tiles=tiles,
                              meta=(("source", "yolo"),))


def _parse_line(line: str, classes: tuple[str, ...], w: int, h: int,
                path: Path, lineno: int) -> TileAnnotation:
    parts = line.split()
    where = f"{path}:{lineno}"
    try:
        cls = int(parts[0])
        vals = [float(v) for v in parts[1:]]
    except (ValueError, IndexError):
        raise _bad(f"{where}: not a YOLO line: {line!r}") from None
    if not 0 <= cls < len(classes):
        raise _bad(f"{where}: class id {cls} outside the {len(classes)} classes")
    label = classes[cls]
    if len(vals) == 4:
        cx, cy, bw, bh = vals[0] * w, vals[1] * h, vals[2] * w, vals[3] * h
        quad = box_quad(cx - bw / 2, cy - bh / 2, bw, bh)
    elif len(vals) >= 6 and len(vals) % 2 == 0:
        pts = [(vals[i] * w, vals[i + 1] * h) for i in range(0, len(vals), 2)]
        # Eight numbers are an OBB in our corner order; other polygons (segmentation
        # exports, often closed by repeating the first point) are boxed by area.
        quad = as_quad(pts) if len(pts) == 4 else polygon_quad(pts)
    else:
        raise _bad(f"{where}: expected a box (4 numbers) or a polygon, got {len(vals)} numbers")
    sideways = long_side_first(quad)
    return TileAnnotation(quad=quad, label=label, face_down=label == BACK, sideways=sideways)
