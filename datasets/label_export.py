"""Journal → annotation files: every format written whole, in name order, then swapped in.

The outputs of `agari label` are a pure function of the journal's finished
images, sorted by name, and of ``--min-confidence``: the same journal gives
the same bytes whatever order the images finished in, and a run that was
killed and resumed writes exactly what an uninterrupted one does. Each format
is written by its own writer (`agari.datasets.formats.open_writer`) into a
staging folder and then moved over the previous files, so a stop during export
leaves the last complete set in place.

Predicted tiles carry their confidence as the annotation ``score`` (COCO
``score``; Label Studio ``predictions``). Tiles the classifier called ``none``
(not a tile) are never written.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from agari.datasets.annotation import ImageAnnotation, TileAnnotation
from agari.datasets.formats import WRITERS, open_writer
from agari.datasets.label_journal import JournalEntry
from agari.datasets.writers import IMAGE_DIR
from agari.engine.errors import InvalidInput
from agari.engine.tiles import BACK, Tile
from agari.vision.detection import TileDetection

IMAGE_MODES = ("link", "copy", "none")
"""How source images reach ``OUT/images/``: a hard link (a symbolic link across
file systems), a copy, or not at all."""

SOURCE_META = (("source", "agari label"),)
_STAGING = ".agari-label-staging"


def check_formats(formats: Sequence[str]) -> tuple[str, ...]:
    """Distinct formats in the order given.

    Raises:
        InvalidInput: an unknown format, none at all, or both YOLO flavours (same files).
    """
    out = tuple(dict.fromkeys(formats))
    if not out:
        raise InvalidInput("no output format given")
    for fmt in out:
        if fmt not in WRITERS:
            raise InvalidInput(f"unknown format {fmt!r} (one of {', '.join(WRITERS)})")
    if {"yolo", "yolo-obb"} <= set(out):
        raise InvalidInput("yolo and yolo-obb both write labels/: choose one per --out")
    return out


def detection_from_json(tile: dict) -> TileDetection:
    """Inverse of `TileDetection.to_json` (the journal's tile records)."""
    name = tile.get("tile")
    label = None if name is None else BACK if name == BACK else Tile.parse(name)
    return TileDetection(
        quad=tuple((float(x), float(y)) for x, y in tile["quad"]),
        sideways=bool(tile.get("sideways", False)), face_down=bool(tile.get("face_down", False)),
        label=label, confidence=float(tile.get("confidence", 0.0)),
        alternatives=tuple((str(n), float(p)) for n, p in tile.get("top") or ()))


def kept_tiles(record: dict, *, min_confidence: float) -> list[tuple[int, TileDetection]]:
    """``(index, detection)`` of the record's tiles that are written: named (a tile or a
    back, not ``none``) and at least ``min_confidence`` sure."""
    out = []
    for i, tile in enumerate(record["tiles"]):
        det = detection_from_json(tile)
        if det.label is not None and det.confidence >= min_confidence:
            out.append((i, det))
    return out


def record_annotation(name: str, record: dict, *, min_confidence: float = 0.0) -> ImageAnnotation:
    """One journal record as the predicted `ImageAnnotation` the writers take."""
    tiles = tuple(TileAnnotation.from_detection(det)
                  for _, det in kept_tiles(record, min_confidence=min_confidence))
    return ImageAnnotation(image=name, width=int(record["width"]), height=int(record["height"]),
                           tiles=tiles, meta=SOURCE_META)


def place_images(entries: Iterable[JournalEntry], out: Path, *, mode: str) -> None:
    """Put each finished image's file at ``OUT/images/<name>`` (existing ones are kept)."""
    if mode not in IMAGE_MODES:
        raise InvalidInput(f"images mode must be one of {IMAGE_MODES}, got {mode!r}")
    if mode == "none":
        return
    for entry in entries:
        dest = out / IMAGE_DIR / entry.name
        source = Path(entry.source)
        if dest.exists() or dest.is_symlink() or not source.is_file():
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        if mode == "copy":
            tmp = dest.with_name(dest.name + ".part")
            shutil.copyfile(source, tmp)
            os.replace(tmp, dest)
            continue
        try:
            os.link(source, dest)
        except OSError:  # another file system, or links not allowed there
            os.symlink(source.absolute(), dest)


def _swap_in(staged: Path, target: Path) -> None:
    """Move ``staged`` over ``target``: files atomically, folders by two renames."""
    if staged.is_dir():
        old = target.with_name(f".{target.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        if target.exists():
            os.replace(target, old)
        os.replace(staged, target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(staged, target)


def write_format(annotations: Sequence[ImageAnnotation], out: Path, fmt: str) -> list[Path]:
    """Write ``annotations`` in ``fmt`` into ``out`` (replacing that format's earlier files).

    Returns:
        The top-level files and folders written, sorted.
    """
    staging = out / f"{_STAGING}-{fmt}"
    shutil.rmtree(staging, ignore_errors=True)
    with open_writer(fmt, staging) as writer:
        for ann in annotations:
            writer.add(ann)
    written = []
    for item in sorted(staging.iterdir()):
        if item.name == IMAGE_DIR:
            continue
        _swap_in(item, out / item.name)
        written.append(out / item.name)
    shutil.rmtree(staging, ignore_errors=True)
    return written


@dataclass(frozen=True, slots=True)
class ExportResult:
    """What `export` wrote: top-level files and folders (images not included), the
    number of images and of tiles in them."""

    paths: tuple[Path, ...]
    images: int
    tiles: int


def export(entries: Sequence[JournalEntry], out: Path, formats: Sequence[str], *,
           min_confidence: float = 0.0, images: str = "link") -> ExportResult:
    """Write every format from the finished images ``entries`` (sorted by name here)."""
    done = sorted((e for e in entries if e.done), key=lambda e: e.name)
    place_images(done, out, mode=images)
    annotations = [record_annotation(e.name, e.record, min_confidence=min_confidence)
                   for e in done]
    written: list[Path] = []
    for fmt in check_formats(formats):
        written += write_format(annotations, out, fmt)
    return ExportResult(paths=tuple(sorted(set(written))), images=len(annotations),
                        tiles=sum(len(a.tiles) for a in annotations))
