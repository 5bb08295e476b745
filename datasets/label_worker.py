"""One image through stages 1-2, in whichever process runs it (pool worker, Dask, or ours).

`label_source` is the unit of work of `agari label`: bytes (or a path) in, a
plain JSON-ready dict out, so that it pickles cheaply to and from worker
processes and Dask workers. It never raises for a bad image: the outcome is
``{"record": {...}}`` or ``{"error": {"code", "message"}}``.

A record is the ``agari detect`` JSON of the image without its path and
timing: ``{"width", "height", "tiles": [TileDetection.to_json(), ...]}``. It is
what the journal stores, so it is rounded (quads to 0.1 px, probabilities to
1e-4) and the same image always gives the same bytes.

Each process keeps one `TileClassifier` (its own ONNX session) per model and
thread count, loaded on first use.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agari.engine.errors import AgariError, ImageError

if TYPE_CHECKING:
    import numpy as np
    from agari.models.classifier import TileClassifier

THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
"""Environment caps for native thread pools, set in each worker before they start."""

_JPEG_SOI, _JPEG_SOS, _JPEG_EOI = b"\xff\xd8", b"\xff\xda", b"\xff\xd9"
_PNG_MAGIC, _PNG_END = b"\x89PNG\r\n\x1a\n", b"IEND"


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    """What every worker needs to label an image.

    Attributes:
        model: path of the classifier ``.onnx``, or None for the shipped model.
        top_k: alternatives kept per tile.
        threads: native threads per worker (onnxruntime intra-op, OpenCV).
        tileset: a tile-set profile's ``.json`` to read with, or None.
        fill: complete rows by the located tiles' neighbours (`agari.vision.fill`).
    """

    model: str | None = None
    tileset: str | None = None
    top_k: int = 3
    threads: int = 1
    fill: bool = True

    def __post_init__(self) -> None:
        if self.top_k < 1:
            raise ValueError(f"top_k must be >= 1, got {self.top_k}")
        if self.threads < 1:
            raise ValueError(f"threads must be >= 1, got {self.threads}")


_CLASSIFIERS: dict[tuple[str | None, int], TileClassifier] = {}
_CV_THREADS: dict[str, int] = {}


PARENT_CHECK_S = 1.0
"""How often a pool worker checks that the job that started it is still alive."""


def init_pool_worker(threads: int) -> None:
    """Initialiser of a pool worker: thread caps, Ctrl-C left to the parent, and an
    exit when the parent is gone.

    The terminal sends SIGINT to the whole process group; the parent decides
    what to do (save, stop the pool), so workers must not die on their own. A
    parent killed with SIGKILL cannot stop its pool, and idle pool workers
    would wait for work forever: a watchdog thread ends them.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for var in THREAD_VARS:
        os.environ[var] = str(threads)
    _set_cv_threads(threads)
    parent = os.getppid()
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True,
                     name="agari-parent-watch").start()


def _exit_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(1)


def _set_cv_threads(threads: int) -> None:
    if _CV_THREADS.get("set") != threads:
        import cv2

        cv2.setNumThreads(threads)
        _CV_THREADS["set"] = threads


def worker_classifier(config: WorkerConfig) -> TileClassifier:
    """This process's classifier for ``config`` (loaded once, then reused)."""
    key = (config.model, config.threads, config.tileset)
    clf = _CLASSIFIERS.get(key)
    if clf is None:
        from agari.models.calibration_apply import calibrated
        from agari.models.calibration_store import load_file
        from agari.models.classifier import TileClassifier

        clf = TileClassifier.load(config.model, threads=config.threads)
        profile = None if config.tileset is None else load_file(config.tileset)
        clf = _CLASSIFIERS[key] = calibrated(clf, profile)
    return clf


def _jpeg_complete(data: bytes) -> bool:
    # Scan data never holds a bare FF D9 or FF DA (FF is stuffed as FF 00), so a
    # complete file has its end marker after its last scan header.
    return data.rfind(_JPEG_EOI) > data.rfind(_JPEG_SOS) >= 0


def decode_image(data: bytes, name: str) -> np.ndarray:
    """Decode an image file's bytes to BGR ``uint8 (H, W, 3)``, refusing damaged files.

    OpenCV decodes a cut-off JPEG without complaint (grey below the cut), so
    truncated JPEG and PNG files are caught by their missing end markers first.

    Raises:
        ImageError: empty, truncated or not a decodable image; the message names ``name``.
    """
    import cv2
    import numpy as np

    if not data:
        raise ImageError(f"{name}: empty file")
    if data.startswith(_JPEG_SOI) and not _jpeg_complete(data):
        raise ImageError(f"{name}: truncated JPEG (no end marker after its last scan)",
                         code="truncated_image")
    if data.startswith(_PNG_MAGIC) and data.rfind(_PNG_END) < 0:
        raise ImageError(f"{name}: truncated PNG (no IEND chunk)", code="truncated_image")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise ImageError(f"{name}: not a readable image")
    return image


def read_source(source: str | bytes, name: str) -> bytes:
    """The file's bytes: ``source`` itself, or read from the path it names.

    Raises:
        ImageError: the file cannot be read.
    """
    if isinstance(source, bytes):
        return source
    try:
        return Path(source).read_bytes()
    except OSError as err:
        raise ImageError(f"{name}: cannot read: {err.strerror or err}") from None


def label_image(image: np.ndarray, config: WorkerConfig) -> dict:
    """Stages 1-2 on a decoded image → its journal record (see module doc).

    Raises:
        AgariError: the locator or classifier refused the image or the model.
    """
    from agari.vision.fill import read_tiles

    detections = read_tiles(image, worker_classifier(config), top_k=config.top_k,
                            fill=config.fill)
    return {"width": int(image.shape[1]), "height": int(image.shape[0]),
            "tiles": [d.to_json() for d in detections]}


def label_source(source: str | bytes, name: str, config: WorkerConfig) -> dict:
    """Label one image file; never raises for a bad file (see module doc).

    Args:
        source: the file's bytes, or its path (read in this process).
        name: the image's name, used in error messages.
        config: model, top-k and thread settings.

    Returns:
        ``{"record": {...}}`` or ``{"error": {"code": ..., "message": ...}}``.
    """
    _set_cv_threads(config.threads)
    try:
        return {"record": label_image(decode_image(read_source(source, name), name), config)}
    except AgariError as err:
        message = err.message if err.message.startswith(name) else f"{name}: {err.message}"
        return {"error": {"code": err.code, "message": message}}
    except Exception as exc:  # noqa: BLE001 - one bad image must never stop a bulk job
        return {"error": {"code": "internal",
                          "message": f"{name}: internal error: {type(exc).__name__}: {exc}"}}
