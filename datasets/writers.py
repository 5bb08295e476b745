"""The writer side of every annotation format: one image's records at a time.

A writer owns a dataset folder: ``ROOT/images/<image>`` for the pixels (the
caller saves them at `AnnotationWriter.image_path`) and the format's
annotation files. ``add`` writes one image's records at once and flushes, so a
bulk job that is stopped keeps everything already added. Formats that are one
JSON document (COCO, Label Studio) keep a journal of finished images beside
the output and assemble the document on ``close``; opened again with
``resume=True`` they carry on from it.

Record order is the order of ``add`` calls; tiles keep their order inside an image.
"""

from __future__ import annotations

import json
import os
from abc import ABC, abstractmethod
from collections.abc import Iterator
from pathlib import Path

from agari.datasets.annotation import ImageAnnotation, image_from_dict, image_to_dict
from agari.engine.errors import InvalidInput
from agari.engine.tiles import CLASS_NAMES, NONE

DATASET_CLASSES: tuple[str, ...] = tuple(n for n in CLASS_NAMES if n != NONE)
"""Class order written by every detection format: the 37 faces, then ``back``.
Identical to the first 38 entries of `CLASS_NAMES`, so class ids agree with the classifier."""

IMAGE_DIR = "images"


class AnnotationWriter(ABC):
    """Base of the format writers. Use as a context manager, or call `close`."""

    format: str = ""

    def __init__(self, root: Path, *, resume: bool = False) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.resume = resume
        self._seen: set[str] = set()
        self._closed = False

    def image_path(self, ann: ImageAnnotation) -> Path:
        """Where the caller should save ``ann``'s pixels."""
        return self.root / IMAGE_DIR / ann.image

    @property
    def done(self) -> frozenset[str]:
        """Image names already written (including those found when resuming)."""
        return frozenset(self._seen)

    def add(self, ann: ImageAnnotation) -> None:
        """Write one image's records now.

        Raises:
            InvalidInput: the image was already added, or the writer is closed.
        """
        if self._closed:
            raise InvalidInput(f"{self.format} writer for {self.root} is closed")
        if ann.image in self._seen:
            raise InvalidInput(f"image {ann.image!r} was already written", code="bad_annotation")
        self._write(ann)
        self._seen.add(ann.image)

    @abstractmethod
    def _write(self, ann: ImageAnnotation) -> None: ...

    def close(self) -> None:
        """Finish the dataset's files (idempotent)."""
        if not self._closed:
            self._finish()
            self._closed = True

    def _finish(self) -> None:  # noqa: B027 - optional hook, most formats need none
        pass

    def __enter__(self) -> AnnotationWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class JournalWriter(AnnotationWriter):
    """A one-document format built from a JSON-lines journal of finished images."""

    output_name: str = ""

    def __init__(self, root: Path, *, resume: bool = False) -> None:
        super().__init__(root, resume=resume)
        self.output = self.root / self.output_name
        self.journal = self.root / f".{self.output_name}.journal.jsonl"
        if resume and not self.journal.exists() and self.output.exists():
            self._seed_journal_from_output()
        kept = list(self.journal_entries()) if resume else []
        self._fh = self.journal.open("w", encoding="utf-8")
        for ann in kept:  # rewritten whole, so a line torn by a killed run is dropped
            self._write(ann)
            self._seen.add(ann.image)

    def _seed_journal_from_output(self) -> None:
        from agari.datasets.formats import read_annotations

        with self.journal.open("w", encoding="utf-8") as fh:
            for ann in read_annotations(self.output, fmt=self.format):
                fh.write(json.dumps(image_to_dict(ann), ensure_ascii=False) + "\n")

    def journal_entries(self) -> Iterator[ImageAnnotation]:
        """Images recorded so far, in order; a torn last line (a killed run) is skipped."""
        if not self.journal.exists():
            return
        with self.journal.open(encoding="utf-8") as fh:
            for line in fh:
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue
                yield image_from_dict(record)

    def _write(self, ann: ImageAnnotation) -> None:
        self._fh.write(json.dumps(image_to_dict(ann), ensure_ascii=False) + "\n")
        self._fh.flush()

    def _finish(self) -> None:
        self._fh.close()
        document = self._document(list(self.journal_entries()))
        tmp = self.output.with_name(self.output.name + ".tmp")
        tmp.write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(tmp, self.output)
        self.journal.unlink(missing_ok=True)

    @abstractmethod
    def _document(self, images: list[ImageAnnotation]) -> object: ...
