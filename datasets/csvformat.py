"""CSV: one row per tile, every field we know, for spreadsheets and pandas.

``ROOT/annotations.csv`` with the columns of `COLUMNS`. An image without tiles
still gets one row with an empty ``label``, so negatives survive a round trip.
Image-level ``hand``, ``win`` and ``meta`` (``key=value;...``) repeat on each row.
Rows are appended and flushed one image at a time.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

from agari.datasets.annotation import ImageAnnotation, TileAnnotation
from agari.datasets.writers import AnnotationWriter
from agari.engine.errors import InvalidInput

OUTPUT_NAME = "annotations.csv"
COLUMNS = (
    "image", "width", "height", "label", "x1", "y1", "x2", "y2", "x3", "y3", "x4", "y4",
    "face_down", "sideways", "role", "group", "rotation", "visible", "score", "hand", "win", "meta",
)


def _bad(message: str) -> InvalidInput:
    return InvalidInput(message, code="bad_annotation")


class CsvWriter(AnnotationWriter):
    """Appends rows to ``ROOT/annotations.csv``."""

    format = "csv"

    def __init__(self, root: Path, *, resume: bool = False) -> None:
        super().__init__(root, resume=resume)
        self.output = self.root / OUTPUT_NAME
        if resume and self.output.exists():
            self._seen.update(a.image for a in read_csv(self.output))
            self._fh = self.output.open("a", encoding="utf-8", newline="")
            self._csv = csv.writer(self._fh)
        else:
            self._fh = self.output.open("w", encoding="utf-8", newline="")
            self._csv = csv.writer(self._fh)
            self._csv.writerow(COLUMNS)

    def _write(self, ann: ImageAnnotation) -> None:
        head = [ann.image, ann.width, ann.height]
        tail = [ann.hand or "", ann.win or "", ";".join(f"{k}={v}" for k, v in ann.meta)]
        rows = [head + _tile_cells(t) + tail for t in ann.tiles] or [
            head + [""] * (len(COLUMNS) - len(head) - len(tail)) + tail]
        self._csv.writerows(rows)
        self._fh.flush()

    def _finish(self) -> None:
        self._fh.close()


def _tile_cells(t: TileAnnotation) -> list:
    coords = [f"{c:.2f}" for p in t.quad for c in p]
    opt = ["" if v is None else v for v in (t.group, t.rotation, t.visible, t.score)]
    return [t.label, *coords, int(t.face_down), int(t.sideways), t.role, *opt]


def read_csv(path: Path) -> Iterator[ImageAnnotation]:
    """Read ``annotations.csv`` (or a folder holding it); images in first-row order.

    Raises:
        InvalidInput: missing columns or bad values (the row number is named).
    """
    path = Path(path)
    if path.is_dir():
        path = path / OUTPUT_NAME
    images: dict[str, dict] = {}
    try:
        with path.open(encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            missing = set(COLUMNS[:12]) - set(reader.fieldnames or ())
            if missing:
                raise _bad(f"{path}: missing columns {sorted(missing)}")
            for lineno, row in enumerate(reader, start=2):
                _add_row(images, row, f"{path}:{lineno}")
    except FileNotFoundError:
        raise _bad(f"no CSV file at {path}") from None
    for rec in images.values():
        yield ImageAnnotation(**rec)


def _add_row(images: dict[str, dict], row: dict, where: str) -> None:
    try:
        rec = images.get(row["image"])
        if rec is None:
            meta = tuple(tuple(kv.split("=", 1)) for kv in (row.get("meta") or "").split(";")
                         if "=" in kv)
            rec = images[row["image"]] = {
                "image": row["image"], "width": int(row["width"]), "height": int(row["height"]),
                "tiles": [], "hand": row.get("hand") or None, "win": row.get("win") or None,
                "meta": meta}
        if row["label"]:
            rec["tiles"].append(_tile(row))
    except InvalidInput as err:
        raise _bad(f"{where}: {err}") from None
    except (KeyError, TypeError, ValueError) as err:
        raise _bad(f"{where}: bad value ({err})") from None


def _tile(row: dict) -> TileAnnotation:
    xy = [float(row[f"{a}{i}"]) for i in range(1, 5) for a in "xy"]
    quad = [(xy[i], xy[i + 1]) for i in range(0, 8, 2)]

    def opt(key: str, cast):
        value = row.get(key)
        return None if value in (None, "") else cast(value)

    face_down = opt("face_down", int)
    return TileAnnotation(
        quad=quad, label=row["label"],
        face_down=row["label"] == "back" if face_down is None else bool(face_down),
        sideways=bool(int(row.get("sideways") or 0)), role=row.get("role") or "other",
        group=opt("group", int), rotation=opt("rotation", int),
        visible=opt("visible", float) if row.get("visible") else 1.0, score=opt("score", float))
