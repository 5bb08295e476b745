"""Dataset jobs behind `agari dataset`: render a synthetic set, convert formats, cut crops.

Each job writes one image's records at a time through an `AnnotationWriter`,
so stopping it keeps everything finished; ``resume=True`` carries on. An image
that fails (unreadable, missing) is recorded in the `JobReport` and the job
goes on.
"""

from __future__ import annotations

import csv
import shutil
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from agari.datasets.annotation import ImageAnnotation, TileAnnotation
from agari.datasets.formats import Dataset, open_writer
from agari.datasets.imagefiles import read_image, write_image
from agari.datasets.scene import SceneConfig, render_scene
from agari.engine.errors import AgariError, InvalidInput

Progress = Callable[[int, int], None]
"""Called with (done, total) after each image."""

SYNTH_JPEG_QUALITY = 92
MAP_BATCH = 16
"""Scenes in flight per worker."""
CROP_SIZE = (64, 48)
"""Default crop (height, width): the classifier's input shape."""
FORESHORTENED = 0.3
"""Crops skip tiles whose quad's short/long side ratio is below this (seen edge-on)."""


@dataclass
class JobReport:
    """What a job did.

    Attributes:
        out: the output folder.
        images: images written; tiles: tile records (or crops) written.
        skipped: images already done (resume) or with nothing to write.
        failed: ``(image, message)`` for each image that could not be processed.
    """

    out: Path
    images: int = 0
    tiles: int = 0
    skipped: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"out": str(self.out), "images": self.images, "tiles": self.tiles,
                "skipped": self.skipped,
                "failed": [{"image": i, "message": m} for i, m in self.failed]}


def keep_visible(ann: ImageAnnotation, min_visible: float) -> ImageAnnotation:
    """``ann`` with only the tiles at least ``min_visible`` visible and inside the image."""
    return replace(ann, tiles=ann.visible_tiles(min_visible))


# -- synth ------------------------------------------------------------------------
def synthesize(out: Path, *, scenes: int, seed: int = 0, fmt: str = "coco",
               config: SceneConfig | None = None, min_visible: float = 0.25, workers: int = 1,
               resume: bool = False, progress: Progress | None = None) -> JobReport:
    """Render scenes ``seed .. seed + scenes - 1`` into a dataset at ``out``.

    Scene ``i`` is ``render_scene(seed + i)``, named ``synth_<seed + i>.jpg``, so
    any slice of a large run can be rendered again on its own.

    Args:
        fmt: annotation format (`agari.datasets.formats.WRITERS`).
        min_visible: tiles less visible than this are left out of the annotations.
        workers: render processes (each with one OpenCV thread).
        resume: keep what an earlier run at ``out`` finished and render the rest.

    Raises:
        InvalidInput: a bad count, format or config.
    """
    if scenes < 0 or workers < 1:
        raise InvalidInput(f"scenes must be >= 0 and workers >= 1, got {scenes}, {workers}")
    config = config or SceneConfig()
    report = JobReport(Path(out))
    with open_writer(fmt, out, resume=resume) as writer:
        todo = [s for s in range(seed, seed + scenes) if _name(s) not in writer.done]
        report.skipped = scenes - len(todo)
        jobs = [(s, config, str(writer.root), min_visible) for s in todo]
        for ann in _map(_render_one, jobs, workers):
            writer.add(ann)
            report.images += 1
            report.tiles += len(ann.tiles)
            if progress:
                progress(report.images + report.skipped, scenes)
    return report


def _name(seed: int) -> str:
    return f"synth_{seed:08d}.jpg"


def _render_one(job: tuple[int, SceneConfig, str, float]) -> ImageAnnotation:
    seed, config, root, min_visible = job
    image, ann = render_scene(seed, config, name=_name(seed))
    write_image(Path(root) / "images" / ann.image, image, jpeg_quality=SYNTH_JPEG_QUALITY)
    return keep_visible(ann, min_visible)


def _init_worker() -> None:
    import cv2

    cv2.setNumThreads(1)


def _map(fn, jobs: list, workers: int) -> Iterator:
    """``map(fn, jobs)`` in order, in ``workers`` processes when more than one."""
    if workers == 1 or len(jobs) < 2:
        import cv2

        threads = cv2.getNumThreads()
        cv2.setNumThreads(1)  # one scene at a time renders fastest single-threaded
        try:
            yield from map(fn, jobs)
        finally:
            cv2.setNumThreads(threads)
        return
    batch = workers * MAP_BATCH  # submitted a batch at a time: a stop waits for one batch only
    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker) as pool:
        for start in range(0, len(jobs), batch):
            yield from pool.map(fn, jobs[start:start + batch], chunksize=2)


# -- convert ----------------------------------------------------------------------
def convert(source: Dataset, out: Path, fmt: str, *, copy_images: bool = True,
            link: bool = False, min_visible: float = 0.0, resume: bool = False,
            progress: Progress | None = None) -> JobReport:
    """Write ``source``'s annotations at ``out`` in ``fmt``, copying (or hard-linking) images.

    Raises:
        InvalidInput: unknown format, or malformed source annotations.
    """
    report = JobReport(Path(out))
    with open_writer(fmt, out, resume=resume) as writer:
        for ann in source.annotations():
            if ann.image in writer.done:
                report.skipped += 1
                continue
            try:
                if copy_images:
                    _copy(source.image_path(ann), writer.image_path(ann), link=link)
                ann = keep_visible(ann, min_visible) if min_visible > 0 else ann
                writer.add(ann)
            except (AgariError, OSError) as err:
                report.failed.append((ann.image, _message(err)))
                continue
            report.images += 1
            report.tiles += len(ann.tiles)
            if progress:
                progress(report.images, 0)
    return report


def _copy(src: Path, dst: Path, *, link: bool) -> None:
    if not src.is_file():
        raise InvalidInput(f"image not found: {src}", code="bad_image")
    dst.parent.mkdir(parents=True, exist_ok=True)
    if dst.exists() and dst.samefile(src):
        return
    if link:
        dst.unlink(missing_ok=True)
        dst.hardlink_to(src)
    else:
        shutil.copy2(src, dst)


def _message(err: Exception) -> str:
    return err.message if isinstance(err, AgariError) else f"{type(err).__name__}: {err}"


# -- crops ------------------------------------------------------------------------
CROP_COLUMNS = ("file", "label", "image", "tile", "rotation", "visible", "source")


def make_crops(source: Dataset, out: Path, *, size: tuple[int, int] = CROP_SIZE,
               margin: float | None = None, min_visible: float = 0.6, min_px: float = 12.0,
               include_backs: bool = True, resume: bool = False,
               progress: Progress | None = None) -> JobReport:
    """Cut upright crops of every usable tile into ``out/<label>/`` and list them in ``crops.csv``.

    A crop is `agari.vision.crops.crop_tile` of the tile's quad, turned a further
    half turn when the annotation says the face was upside down (rotation 180
    or 270), so that known orientations come out upright; unknown ones (box-only
    datasets) stay as the quad gives them.

    Args:
        size: crop ``(height, width)``; margin: context per side (default: the crop module's).
        min_visible: skip tiles less visible than this.
        min_px: skip tiles whose shorter side is under this many pixels.
        include_backs: also crop face-down tiles (class ``back``).
    """
    from agari.vision import crops as vcrops

    margin = vcrops.CROP_MARGIN if margin is None else margin
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    listing = out / "crops.csv"
    done = _listed_images(listing) if resume else set()
    report = JobReport(out)
    with listing.open("a" if resume and listing.exists() else "w", newline="",
                      encoding="utf-8") as fh:
        rows = csv.writer(fh)
        if not (resume and done):
            rows.writerow(CROP_COLUMNS)
        for ann in source.annotations():
            if ann.image in done:
                report.skipped += 1
                continue
            try:
                written = _crop_image(source, ann, out, rows, vcrops, size=size, margin=margin,
                                      min_visible=min_visible, min_px=min_px,
                                      include_backs=include_backs)
            except AgariError as err:
                report.failed.append((ann.image, _message(err)))
                continue
            fh.flush()
            report.images += 1
            report.tiles += written
            if progress:
                progress(report.images, 0)
    return report


def _listed_images(listing: Path) -> set[str]:
    if not listing.exists():
        return set()
    with listing.open(newline="", encoding="utf-8") as fh:
        return {row["image"] for row in csv.DictReader(fh) if row.get("image")}


def usable_for_crop(tile: TileAnnotation, *, min_visible: float, min_px: float,
                    include_backs: bool) -> bool:
    """Whether a tile makes a good classifier crop: visible, big enough, not edge-on."""
    if tile.label == "none" or (tile.face_down and not include_backs):
        return False
    if tile.visible < min_visible:
        return False
    (x0, y0), (x1, y1), _, (x3, y3) = tile.quad
    a, b = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5, ((x3 - x0) ** 2 + (y3 - y0) ** 2) ** 0.5
    short, long = min(a, b), max(a, b)
    return short >= min_px and short / max(long, 1e-6) >= FORESHORTENED


def _crop_image(source: Dataset, ann: ImageAnnotation, out: Path, rows, vcrops, *,
                size, margin, min_visible, min_px, include_backs) -> int:
    tiles = [(i, t) for i, t in enumerate(ann.tiles)
             if ann.clipped_box(t) is not None and usable_for_crop(
                 t, min_visible=min_visible, min_px=min_px, include_backs=include_backs)]
    if not tiles:
        return 0
    image = read_image(source.image_path(ann))
    stem = Path(ann.image).with_suffix("").as_posix().replace("/", "__")
    for i, t in tiles:
        crop = vcrops.crop_tile(image, t.quad, sideways=t.sideways, size=size, margin=margin)
        if t.rotation in (180, 270):
            crop = crop[::-1, ::-1]
        name = f"{t.label}/{stem}_{i:03d}.png"
        write_image(out / name, crop)
        rows.writerow([name, t.label, ann.image, i, "" if t.rotation is None else t.rotation,
                       t.visible, ann.meta_value("source", ann.meta_value("kind", ""))])
    return len(tiles)
