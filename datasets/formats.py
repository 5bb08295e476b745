"""One entry point per direction for every annotation format.

>>> sorted(WRITERS)
['coco', 'csv', 'labelstudio', 'yolo', 'yolo-obb']

Reading: `open_dataset` finds the format of a path (or takes ``fmt``) and
returns a `Dataset`: its annotations in a stable order and where each image's
pixels are. Writing: `open_writer` returns an `AnnotationWriter` that takes one
`ImageAnnotation` at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from agari.datasets.annotation import ImageAnnotation
from agari.datasets.writers import IMAGE_DIR, AnnotationWriter
from agari.engine.errors import InvalidInput

WRITERS = ("yolo", "yolo-obb", "coco", "labelstudio", "csv")
READERS = ("yolo", "yolo-obb", "coco", "labelstudio", "csv")


def _bad(message: str) -> InvalidInput:
    return InvalidInput(message, code="bad_annotation")


def open_writer(fmt: str, root: Path, *, resume: bool = False) -> AnnotationWriter:
    """A writer for ``fmt`` (one of `WRITERS`) into the folder ``root``.

    Raises:
        InvalidInput: unknown format.
    """
    if fmt in ("yolo", "yolo-obb"):
        from agari.datasets.yolo import YoloWriter

        return YoloWriter(root, obb=fmt == "yolo-obb", resume=resume)
    if fmt == "coco":
        from agari.datasets.coco import CocoWriter

        return CocoWriter(root, resume=resume)
    if fmt == "labelstudio":
        from agari.datasets.labelstudio import LabelStudioWriter

        return LabelStudioWriter(root, resume=resume)
    if fmt == "csv":
        from agari.datasets.csvformat import CsvWriter

        return CsvWriter(root, resume=resume)
    raise _bad(f"unknown format {fmt!r} (one of {', '.join(WRITERS)})")


def detect_format(path: Path) -> str:
    """Guess the format of a dataset folder or annotation file.

    Raises:
        InvalidInput: nothing recognisable at ``path``.
    """
    path = Path(path)
    if path.is_file():
        if path.suffix.lower() == ".csv":
            return "csv"
        if path.suffix.lower() == ".json":
            head = path.read_text(encoding="utf-8", errors="replace")[:4096].lstrip()
            return "labelstudio" if head.startswith("[") else "coco"
    if path.is_dir():
        from agari.datasets.coco import OUTPUT_NAME as COCO_NAME
        from agari.datasets.csvformat import OUTPUT_NAME as CSV_NAME
        from agari.datasets.labelstudio import OUTPUT_NAME as LS_NAME

        for name, fmt in ((COCO_NAME, "coco"), (LS_NAME, "labelstudio"), (CSV_NAME, "csv")):
            if (path / name).is_file():
                return fmt
        if (path / "labels").is_dir():
            return "yolo"
    raise _bad(f"no dataset found at {path} (YOLO folder, COCO/Label Studio JSON or CSV)")


def read_annotations(path: Path, *, fmt: str | None = None,
                     names: str | tuple[str, ...] | list[str] | None = None,
                     ) -> Iterator[ImageAnnotation]:
    """Annotations of the dataset at ``path``, in the dataset's order.

    Args:
        path: a dataset folder or an annotation file.
        fmt: one of `READERS`; guessed by `detect_format` when None.
        names: YOLO class order (preset name, ``a,b,c`` or a sequence); other formats name
            their classes themselves.

    Raises:
        InvalidInput: unknown format or malformed annotations.
    """
    fmt = fmt or detect_format(path)
    if fmt in ("yolo", "yolo-obb"):
        from agari.datasets.yolo import read_yolo

        return read_yolo(path, names=names)
    if fmt == "coco":
        from agari.datasets.coco import read_coco

        return read_coco(path)
    if fmt == "labelstudio":
        from agari.datasets.labelstudio import read_labelstudio

        return read_labelstudio(path)
    if fmt == "csv":
        from agari.datasets.csvformat import read_csv

        return read_csv(path)
    raise _bad(f"unknown format {fmt!r} (one of {', '.join(READERS)})")


@dataclass(frozen=True)
class Dataset:
    """An annotated dataset on disk.

    Attributes:
        path: what was opened (a folder or an annotation file).
        format: one of `READERS`.
        image_root: the folder that annotation image names are relative to.
        names: the YOLO class order given, if any.
    """

    path: Path
    format: str
    image_root: Path
    names: str | tuple[str, ...] | None = None

    def annotations(self) -> Iterator[ImageAnnotation]:
        return read_annotations(self.path, fmt=self.format, names=self.names)

    def image_path(self, ann: ImageAnnotation) -> Path:
        return self.image_root / ann.image


def open_dataset(path: Path, *, fmt: str | None = None,
                 names: str | tuple[str, ...] | list[str] | None = None,
                 image_root: Path | None = None) -> Dataset:
    """Open the dataset at ``path``; images are looked up under ``image_root``.

    The default image root is ``images/`` beside the annotations when it exists
    (our writers' layout, Ultralytics'), else the annotations' own folder.

    Raises:
        InvalidInput: nothing recognisable at ``path``.
    """
    path = Path(path)
    if not path.exists():
        raise _bad(f"no such dataset: {path}")
    fmt = fmt or detect_format(path)
    if image_root is None:
        base = path if path.is_dir() else path.parent
        image_root = base / IMAGE_DIR if (base / IMAGE_DIR).is_dir() else base
    frozen_names = tuple(names) if isinstance(names, list) else names
    return Dataset(path=path, format=fmt, image_root=Path(image_root), names=frozen_names)
