"""Factories for the `agari label` tests: photos with tiles, broken files, a toy model.

Photos are rendered by the project's own scene renderer (real OpenCV drawing,
seeded), so the tests run on a fresh clone without ../shared. The toy model is
the classifier tests' ONNX graph (tests/models/conftest.py), loaded from there
so both suites share one definition.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from agari.datasets.imagefiles import write_image
from agari.datasets.label_journal import JOURNAL_NAME, LOCK_NAME

TESTS = Path(__file__).resolve().parents[1]
PHOTO_SIZE = (400, 300)
"""Small photos keep the suite fast; the locator and classifier still do real work."""
TILE_PX = (24.0, 60.0)


def write_toy_model(path: Path, *, input_size: tuple[int, int] | None = None) -> Path:
    """The toy classifier (see tests/models/conftest.py): colour decides the class.

    ``input_size`` makes a different model file (another crop size, same classes).
    """
    spec = importlib.util.spec_from_file_location("agari_toy_model",
                                                  TESTS / "models" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if input_size is None:
        return module.write_toy_model(path)
    from agari.engine.tiles import CLASS_NAMES
    from agari.models.spec import ModelSpec

    return module.write_toy_model(path, spec=ModelSpec(
        class_names=CLASS_NAMES, input_size=input_size, mean=(0.0,) * 3, std=(1.0,) * 3))


def render_photos(folder: Path, count: int, *, start: int = 0, sub: str = "") -> list[Path]:
    """``count`` rendered table photos as JPEG files ``folder/sub/scene_NN.jpg``."""
    from agari.datasets.scene import SceneConfig, render_scene

    config = SceneConfig(width=PHOTO_SIZE[0], height=PHOTO_SIZE[1], tile_px=TILE_PX)
    paths = []
    for seed in range(start, start + count):
        image, _ = render_scene(seed, config)
        path = folder / sub / f"scene_{seed:02d}.jpg"
        write_image(path, image)
        paths.append(path)
    return paths


def add_bad_files(folder: Path, good: Path) -> dict[str, str]:
    """Broken files beside real ones; returns ``{name: expected error code}``.

    A JPEG cut in half, a PNG cut short, random bytes named ``.png``, an empty
    ``.jpg`` and text named ``.jpg``; plus a ``notes.txt`` that is no image at all.
    """
    import cv2

    data = good.read_bytes()
    (folder / "cut.jpg").write_bytes(data[: len(data) // 2])
    ok, png = cv2.imencode(".png", cv2.imread(str(good)))
    assert ok
    (folder / "cut.png").write_bytes(png.tobytes()[: len(png) // 2])
    (folder / "noise.png").write_bytes(bytes(range(256)) * 8)
    (folder / "empty.jpg").write_bytes(b"")
    (folder / "letter.jpg").write_text("Dear labeller, this is not a photo.\n")
    (folder / "notes.txt").write_text("not an image\n")
    return {"cut.jpg": "truncated_image", "cut.png": "truncated_image",
            "noise.png": "bad_image", "empty.jpg": "bad_image", "letter.jpg": "bad_image"}


def output_files(out: Path) -> dict[str, bytes]:
    """Every file a job wrote in ``out`` (journal and lock left out), by relative path."""
    skip = {JOURNAL_NAME, LOCK_NAME, JOURNAL_NAME + "-wal", JOURNAL_NAME + "-shm"}
    return {p.relative_to(out).as_posix(): p.read_bytes()
            for p in sorted(out.rglob("*")) if p.is_file() and p.name not in skip}
