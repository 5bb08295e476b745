"""Video in and out for `agari webcam`: cameras, files and streams, with their faults; recording.

`open_source` turns ``--source`` (a camera index, a video file or a stream URL)
into a frame source. A file is read frame by frame, timed by its frame rate,
and ends. A live source (camera or URL) is read on a background thread that
keeps only the newest frame, so a slow frame never makes the picture lag
behind the table. When a live source stops sending (unplugged, a stalled
stream, a dropped connection) it is reopened up to ``retries`` times; after
that `SourceError` says what happened. Notices on the way go to a callback:
the library never prints.

`Recorder` writes the annotated frames to a video file, timed by the stream's
clock (a frame shown for longer is written more than once).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from agari.engine.errors import AgariError, InvalidInput


class SourceError(AgariError):
    """A video source that cannot be opened or stopped sending frames."""

    code = "video_source"


@dataclass(frozen=True, slots=True)
class SourceSpec:
    """What ``--source`` names.

    Attributes:
        kind: ``camera`` (an index), ``file`` or ``url``.
        target: the camera index, file path or URL.
    """

    kind: Literal["camera", "file", "url"]
    target: int | str

    @property
    def live(self) -> bool:
        return self.kind != "file"

    @property
    def name(self) -> str:
        return f"camera {self.target}" if self.kind == "camera" else str(self.target)


def parse_source(text: str) -> SourceSpec:
    """``"0"`` → camera 0, ``"rtsp://…"`` → a stream, anything else → a video file.

    Raises:
        SourceError: a file that does not exist.
        InvalidInput: an empty source.
    """
    text = str(text).strip()
    if not text:
        raise InvalidInput("--source is empty: give a camera index, a video file or a URL")
    if text.isdigit():
        return SourceSpec("camera", int(text))
    if "://" in text:
        return SourceSpec("url", text)
    if not Path(text).is_file():
        raise SourceError(f"cannot read video {text!r}: no such file")
    return SourceSpec("file", text)


@dataclass(frozen=True, slots=True)
class SourceConfig:
    """Patience with live sources (seconds)."""

    retries: int = 3
    """Reconnection attempts before giving up on a live source."""
    retry_wait_s: float = 1.0
    stall_s: float = 5.0
    """No new frame for this long counts as a stalled source."""
    open_timeout_s: float = 5.0
    default_fps: float = 30.0
    """Used when a file does not say its frame rate."""

    def __post_init__(self) -> None:
        if self.retries < 0 or min(self.retry_wait_s, self.stall_s, self.open_timeout_s) < 0:
            raise InvalidInput("retries and source timeouts must be ≥ 0")


DEFAULT_SOURCE = SourceConfig()


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame: BGR ``uint8 (H, W, 3)``, its stream time in seconds and its number (from 0)."""

    image: np.ndarray
    t: float
    index: int


Opener = Callable[[SourceSpec, SourceConfig], Any]
"""Opens a capture for a spec: anything with ``isOpened``, ``read``, ``get`` and ``release``."""
Notice = Callable[[str], None]


def open_capture(spec: SourceSpec, config: SourceConfig) -> Any:
    """An OpenCV ``VideoCapture`` for the spec, with OpenCV's own console chatter off."""
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    import cv2

    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    if spec.kind == "url":
        ms = int(config.open_timeout_s * 1000)
        return cv2.VideoCapture(str(spec.target), cv2.CAP_FFMPEG,
                                [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, ms,
                                 cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms])
    return cv2.VideoCapture(spec.target)


def open_source(spec: SourceSpec, *, config: SourceConfig = DEFAULT_SOURCE,
                opener: Opener = open_capture, on_notice: Notice | None = None
                ) -> FileSource | LiveSource:
    """Open a frame source.

    Raises:
        SourceError: no such camera, a file OpenCV cannot decode, an unreachable URL.
    """
    if spec.kind == "file":
        return FileSource(spec, opener(spec, config), config)
    return LiveSource(spec, opener, config, on_notice or (lambda _msg: None))


def _fps(cap: Any, default: float) -> float:
    import cv2

    fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
    return fps if 1.0 <= fps <= 240.0 else default


class FileSource:
    """A video file read frame by frame; times come from its frame rate."""

    def __init__(self, spec: SourceSpec, cap: Any, config: SourceConfig) -> None:
        if cap is None or not cap.isOpened():
            raise SourceError(f"cannot read video {spec.target!r}: not a video OpenCV can decode")
        self.spec, self._cap = spec, cap
        self.fps = _fps(cap, config.default_fps)
        self._index = 0

    def read(self) -> Frame | None:
        """The next frame, or None at the end of the file.

        Raises:
            SourceError: the file has no frame that can be decoded.
        """
        ok, image = self._cap.read()
        if not ok or image is None:
            if self._index == 0:
                raise SourceError(f"cannot read video {self.spec.target!r}: no frame decodes")
            return None
        frame = Frame(image, self._index / self.fps, self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        self._cap.release()


class _Reader(threading.Thread):
    """Reads a capture as fast as it delivers, keeping only the newest frame."""

    def __init__(self, cap: Any) -> None:
        super().__init__(daemon=True, name="agari-capture")
        self.cap = cap
        self.cond = threading.Condition()
        self.latest: tuple[np.ndarray, float] | None = None
        self.seq = 0
        self.taken = 0
        """The last ``seq`` handed out."""
        self.failed = False
        self.stopped = False

    def run(self) -> None:
        try:
            while not self.stopped:
                ok, image = self.cap.read()
                with self.cond:
                    if not ok or image is None:
                        self.failed = True
                        self.cond.notify_all()
                        return
                    self.latest = (image, time.monotonic())
                    self.seq += 1
                    self.cond.notify_all()
        finally:
            self.cap.release()


class LiveSource:
    """A camera or stream: newest frame first, reconnects when it stops sending."""

    def __init__(self, spec: SourceSpec, opener: Opener, config: SourceConfig,
                 on_notice: Notice) -> None:
        self.spec, self._opener, self.config, self._notice = spec, opener, config, on_notice
        self._t0 = time.monotonic()
        self._index = 0
        self.fps = config.default_fps
        self._reader: _Reader | None = self._first_open()

    def _open(self) -> _Reader | None:
        cap = self._opener(self.spec, self.config)
        if cap is not None and cap.isOpened():
            self.fps = _fps(cap, self.config.default_fps)
            reader = _Reader(cap)
            reader.start()
            return reader
        if cap is not None:
            cap.release()
        return None

    def _first_open(self) -> _Reader:
        """Open at start: a camera index once (no device is no device), a URL with retries."""
        reader = self._open()
        attempts = 1 if self.spec.kind == "camera" else 1 + self.config.retries
        for attempt in range(2, attempts + 1):
            if reader is not None:
                break
            self._notice(f"{self.spec.name}: cannot open; retrying ({attempt - 1}/"
                         f"{self.config.retries})")
            time.sleep(self.config.retry_wait_s)
            reader = self._open()
        if reader is not None:
            return reader
        if self.spec.kind == "camera":
            raise SourceError(f"no camera at index {self.spec.target} (no such device, or in "
                              "use by another program)")
        raise SourceError(f"cannot open {self.spec.name} after {attempts} attempt(s)")

    def read(self) -> Frame:
        """The newest frame (waits for one that has not been returned yet).

        Raises:
            SourceError: the source stopped and could not be reopened.
        """
        failures = 0
        why = ""
        while True:
            got = self._wait() if self._reader is not None else None
            if got is not None:
                image, when = got
                frame = Frame(image, when - self._t0, self._index)
                self._index += 1
                return frame
            if self._reader is not None:
                why = "stopped sending" if self._reader.failed else \
                    f"sent nothing for {self.config.stall_s:g} s"
                self._reader.stopped = True
                self._reader = None
            failures += 1
            if failures > self.config.retries:
                raise SourceError(f"{self.spec.name} {why}; gave up after "
                                  f"{self.config.retries} reconnection attempt(s)")
            self._notice(f"{self.spec.name} {why} (unplugged?); reconnecting "
                         f"({failures}/{self.config.retries})")
            time.sleep(self.config.retry_wait_s)
            self._reader = self._open()

    def _wait(self) -> tuple[np.ndarray, float] | None:
        r = self._reader
        assert r is not None
        deadline = time.monotonic() + self.config.stall_s
        with r.cond:
            while r.seq == r.taken and not r.failed:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                r.cond.wait(left)
            if r.seq == r.taken:
                return None
            r.taken = r.seq
            return r.latest

    def close(self) -> None:
        if self._reader is not None:
            self._reader.stopped = True


_FOURCC = {".mp4": "mp4v", ".m4v": "mp4v", ".mov": "mp4v", ".avi": "MJPG", ".mkv": "mp4v"}
MAX_REPEAT_S = 2.0
"""A frame is repeated in the recording for at most this long (after a stall)."""


class Recorder:
    """Writes frames to a video file at a fixed rate, following the stream's clock."""

    def __init__(self, path: str | Path, fps: float) -> None:
        self.path = Path(path)
        suffix = self.path.suffix.lower()
        if suffix not in _FOURCC:
            raise InvalidInput(f"--record: cannot write {suffix or 'files without an extension'}"
                               f"; use one of {', '.join(sorted(_FOURCC))}")
        if not self.path.parent.is_dir():
            raise InvalidInput(f"--record: no such folder {str(self.path.parent)!r}")
        self.fps = fps
        self.frames = 0
        self._writer: Any = None
        self._t0: float | None = None
        self._last: np.ndarray | None = None
        self._size = (0, 0)
        """The file's frame size (a stream that changes size is scaled to it)."""

    def write(self, image: np.ndarray, t: float) -> None:
        """Add ``image`` (BGR uint8), shown from stream time ``t`` on.

        The previous frame is repeated to fill the time since it was shown (at
        most `MAX_REPEAT_S`); a frame that comes sooner than the next slot is dropped;
        a frame of another size than the first is scaled to it.
        """
        if self._writer is None:
            self._open(image.shape[1], image.shape[0])
            self._t0 = t
            self._size = (image.shape[1], image.shape[0])
        if (image.shape[1], image.shape[0]) != self._size:
            import cv2

            image = cv2.resize(image, self._size, interpolation=cv2.INTER_AREA)
        due = int(round((t - self._t0) * self.fps)) + 1 - self.frames
        if due <= 0 and self.frames > 0:
            return
        if self._last is not None:
            for _ in range(min(due - 1, int(MAX_REPEAT_S * self.fps))):
                self._writer.write(self._last)
                self.frames += 1
        self._writer.write(image)
        self.frames += 1
        self._last = image

    def _open(self, width: int, height: int) -> None:
        import cv2

        fourcc = cv2.VideoWriter_fourcc(*_FOURCC[self.path.suffix.lower()])
        self._writer = cv2.VideoWriter(str(self.path), fourcc, self.fps, (width, height))
        if not self._writer.isOpened():
            raise AgariError(f"cannot write video {str(self.path)!r}", code="record")

    def close(self) -> None:
        """Finish the file (safe to call twice)."""
        if self._writer is not None:
            self._writer.release()
            self._writer = None
            self._last = None
