"""Bulk labelling: thousands of photos through stages 1-2, written as annotation files.

`run_label` is the library side of ``agari label``. One job:

1. expands the inputs into named images (`agari.datasets.label_inputs`);
2. opens the job folder's journal (`agari.datasets.label_journal`); with
   ``resume`` the images already finished there are skipped;
3. labels the rest with `locate` then `TileClassifier.classify_detections`
   (`agari.datasets.label_worker`) in this process, a pool of processes or a
   Dask cluster (`agari.datasets.label_runners`), committing each image's
   outcome to the journal the moment it arrives. A file that cannot be read,
   is truncated or is not an image is recorded as failed and the job goes on;
4. writes the annotation files from the journal in name order
   (`agari.datasets.label_export`) and, if asked, the review sheet
   (`agari.datasets.label_review`).

Ctrl-C (a `KeyboardInterrupt`) stops step 3 at once; step 4 still runs and the
summary says the job was interrupted. A kill or crash skips step 4, but every
finished image is in the journal: ``resume`` finishes the job and writes the
same files an uninterrupted run would have. Progress is reported through an
``on_event`` callback; this module never prints.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from agari.datasets.label_export import IMAGE_MODES, check_formats, export
from agari.datasets.label_inputs import InputImage, InputListing, expand_inputs
from agari.datasets.label_journal import JobLock, Journal
from agari.datasets.label_review import REVIEW_COUNT, write_review
from agari.datasets.label_runners import Results, check_cluster, run_dask, run_inline, run_pool
from agari.datasets.label_worker import WorkerConfig
from agari.engine.cpus import usable_cpus
from agari.engine.errors import InvalidInput, ModelError

MAX_THREADS_PER_WORKER = 4
"""Native threads one worker may use when there are more cores than workers."""


def threads_per_worker(workers: int) -> int:
    """Share the CPUs between ``workers`` (0 = this process alone), at least one each."""
    return max(1, min(MAX_THREADS_PER_WORKER, usable_cpus() // max(1, workers)))


@dataclass(frozen=True, slots=True)
class LabelOptions:
    """One labelling job.

    Attributes:
        inputs: files, folders and glob patterns; may be empty with ``resume``
            (the earlier run's inputs are used).
        out: the job folder: annotation files, ``images/``, the journal.
        formats: output formats (`agari.datasets.formats.WRITERS`).
        min_confidence: tiles less sure than this are not written.
        workers: worker processes; 0 labels in this process.
        cluster: None, ``"local"`` or ``"tcp://HOST:PORT"`` (Dask distributed).
        resume: continue the job in ``out``.
        model: classifier ``.onnx``; None for the shipped model.
        top_k: alternatives kept per tile (journal and review sheet).
        review: write the review contact sheet here.
        review_count: tiles on the review sheet.
        images: how images reach ``out/images`` (`IMAGE_MODES`).
        tileset: a tile-set profile's ``.json`` to read with (`agari calibrate`), or None.
        fill: complete rows by the located tiles' neighbours (`agari.vision.fill`).
    """

    inputs: tuple[str, ...]
    out: Path
    formats: tuple[str, ...] = ("coco",)
    min_confidence: float = 0.0
    workers: int = field(default_factory=usable_cpus)
    cluster: str | None = None
    resume: bool = False
    model: Path | None = None
    top_k: int = 3
    review: Path | None = None
    review_count: int = REVIEW_COUNT
    images: str = "link"
    tileset: Path | None = None
    fill: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "inputs", tuple(str(i) for i in self.inputs))
        object.__setattr__(self, "formats", check_formats(self.formats))
        if not 0.0 <= self.min_confidence <= 1.0:
            raise InvalidInput(f"--min-confidence must be in [0, 1], got {self.min_confidence}")
        if self.workers < 0:
            raise InvalidInput(f"--workers must be >= 0, got {self.workers}")
        if self.top_k < 1:
            raise InvalidInput(f"--top-k must be >= 1, got {self.top_k}")
        if self.review_count < 1:
            raise InvalidInput(f"--review-count must be >= 1, got {self.review_count}")
        if self.images not in IMAGE_MODES:
            raise InvalidInput(f"--images must be one of {', '.join(IMAGE_MODES)}")
        if self.cluster is not None:
            check_cluster(self.cluster)
        if not self.inputs and not self.resume:
            raise InvalidInput("no inputs: give image files, folders or glob patterns",
                               code="no_input")


@dataclass(frozen=True, slots=True)
class JobStarted:
    """Sent once the work is known: ``todo`` of ``total`` images are to be labelled."""

    total: int
    todo: int
    resumed: int
    not_images: int


@dataclass(frozen=True, slots=True)
class ImageFinished:
    """Sent as each image's outcome is committed to the journal."""

    name: str
    tiles: int
    error: str | None = None


@dataclass(frozen=True, slots=True)
class LabelSummary:
    """The outcome of a job (JSON via `to_json`).

    Attributes:
        done: images labelled in this run; resumed: labelled by an earlier run.
        failed: ``(name, code, message)`` of images that could not be labelled.
        not_images: files in input folders without an image suffix.
        labelled: images in the output files; tiles: tiles written.
        elapsed_s: wall time of the labelling itself (not start-up or export).
        interrupted: stopped by Ctrl-C; the outputs hold what was finished.
        outputs: annotation files and folders written.
    """

    out: Path
    total: int
    done: int
    resumed: int
    failed: tuple[tuple[str, str, str], ...]
    not_images: tuple[str, ...]
    labelled: int
    tiles: int
    elapsed_s: float
    interrupted: bool
    outputs: tuple[Path, ...]
    review: Path | None = None
    review_tiles: int = 0

    @property
    def skipped(self) -> int:
        return self.resumed + len(self.not_images)

    @property
    def images_per_s(self) -> float:
        return self.done / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def to_json(self) -> dict:
        return {
            "out": str(self.out), "images": self.total, "done": self.done,
            "skipped": self.skipped, "resumed": self.resumed,
            "not_images": list(self.not_images),
            "failed": [{"image": n, "code": c, "message": m} for n, c, m in self.failed],
            "labelled": self.labelled, "tiles": self.tiles,
            "elapsed_s": round(self.elapsed_s, 3), "images_per_s": round(self.images_per_s, 2),
            "interrupted": self.interrupted, "outputs": [str(p) for p in self.outputs],
            "review": str(self.review) if self.review else None,
            "review_tiles": self.review_tiles,
        }


def _file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _worker_config(options: LabelOptions) -> tuple[WorkerConfig, str]:
    """The workers' settings and the model's SHA-256; loads the model once here so that a
    missing or broken model is one clear error before any worker starts.

    Raises:
        ModelError: the model cannot be loaded.
    """
    from agari.models.classifier import TileClassifier

    clf = TileClassifier.load(options.model, threads=1)
    model = None if options.model is None else str(Path(options.model).absolute())
    workers = 0 if options.cluster else options.workers
    tileset = None if options.tileset is None else str(Path(options.tileset).absolute())
    if tileset is not None:  # a missing or mismatched profile fails here, not in every worker
        from agari.models.calibration_apply import calibrated
        from agari.models.calibration_store import load_file

        calibrated(clf, load_file(tileset))
    config = WorkerConfig(model=model, tileset=tileset, top_k=options.top_k, fill=options.fill,
                          threads=1 if options.cluster else threads_per_worker(workers))
    return config, _file_digest(clf.path)


def _settle_inputs(journal: Journal, options: LabelOptions) -> tuple[str, ...]:
    """This run's inputs as absolute specs: those given, or else the earlier run's."""
    given = sorted({os.path.abspath(os.path.expanduser(s)) for s in options.inputs})
    if given:
        return tuple(given)
    stored = journal.meta().get("inputs")
    if stored is None:
        raise InvalidInput(f"nothing to resume in {options.out}: give the inputs",
                           code="no_input")
    return tuple(json.loads(stored))


def _runner(options: LabelOptions, config: WorkerConfig, todo: list[InputImage]) -> Results:
    if options.cluster:
        return run_dask(todo, config, cluster=options.cluster, workers=max(1, options.workers))
    if options.workers == 0:
        return run_inline(todo, config)
    return run_pool(todo, config, workers=max(1, min(options.workers, len(todo))))


Listener = Callable[[object], None]


def _label_todo(journal: Journal, options: LabelOptions, config: WorkerConfig,
                todo: list[InputImage], emit: Listener) -> tuple[int, list, bool]:
    """Run the work, committing each outcome: ``(done, failures, interrupted)``."""
    done, failed = 0, []
    if not todo:
        return done, failed, False
    try:
        with closing(_runner(options, config, todo)) as results:
            for task, outcome in results:
                journal.commit(task.name, str(task.path), outcome)
                error = outcome.get("error")
                if error is None:
                    done += 1
                    emit(ImageFinished(task.name, len(outcome["record"]["tiles"])))
                    continue
                if error["code"] == ModelError.code:  # every other image would fail too
                    raise ModelError(error["message"])
                failed.append((task.name, error["code"], error["message"]))
                emit(ImageFinished(task.name, 0, error["message"]))
    except KeyboardInterrupt:
        return done, failed, True
    return done, failed, False


def run_label(options: LabelOptions, *, on_event: Listener | None = None) -> LabelSummary:
    """Run (or resume) a labelling job; see the module doc.

    The inputs and the model are checked before anything is written, so a typo
    in a path leaves nothing behind that a corrected run would trip over.

    Args:
        options: the job.
        on_event: called with `JobStarted` once and `ImageFinished` per image.

    Raises:
        InvalidInput: bad inputs or options, a job folder in use or holding another job.
        ModelError: the classifier cannot be loaded.
    """
    emit = on_event or (lambda event: None)
    out = Path(options.out)
    listing = expand_inputs(options.inputs, exclude=out) if options.inputs else None
    config, digest = _worker_config(options)
    lock = JobLock(out)
    journal = None
    try:
        journal = Journal.open(out, resume=options.resume)
        inputs = _settle_inputs(journal, options)
        listing = listing or expand_inputs(inputs, exclude=out)
        journal.settle_meta({"inputs": json.dumps(inputs), "model_sha256": digest,
                             "top_k": str(options.top_k)})
        return _run(journal, options, listing, config, emit)
    finally:
        if journal is not None:
            journal.close()
        lock.release()


def _run(journal: Journal, options: LabelOptions, listing: InputListing, config: WorkerConfig,
         emit: Listener) -> LabelSummary:
    earlier = journal.done_names() & set(listing.names)
    todo = [i for i in listing.images if i.name not in earlier]
    emit(JobStarted(total=len(listing.images), todo=len(todo), resumed=len(earlier),
                    not_images=len(listing.not_images)))
    start = time.monotonic()
    done, failed, interrupted = _label_todo(journal, options, config, todo, emit)
    elapsed = time.monotonic() - start
    names = set(listing.names)
    entries = [e for e in journal.entries() if e.name in names]
    result = export(entries, options.out, options.formats,
                    min_confidence=options.min_confidence, images=options.images)
    review_tiles = 0
    if options.review is not None:
        review_tiles = write_review(entries, options.review, count=options.review_count,
                                    min_confidence=options.min_confidence)
    return LabelSummary(
        out=Path(options.out), total=len(listing.images), done=done, resumed=len(earlier),
        failed=tuple(failed), not_images=tuple(str(p) for p in listing.not_images),
        labelled=result.images, tiles=result.tiles, elapsed_s=elapsed,
        interrupted=interrupted, outputs=result.paths, review=options.review,
        review_tiles=review_tiles)
