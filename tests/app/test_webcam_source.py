"""Live sources that fail (unplugged, stalled, unreachable): clear errors, work kept."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import cv2
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))
from agari.engine.errors import InvalidInput  # noqa: E402
from track_factories import CodeReader, find_tiles, standard_script  # noqa: E402

import agari.webcam as live  # noqa: E402
from agari.webcam_source import (  # noqa: E402
    Recorder,
    SourceConfig,
    SourceError,
    SourceSpec,
    open_source,
    parse_source,
)

FPS = 20.0
FAST = SourceConfig(retries=2, retry_wait_s=0.01, stall_s=0.3)


@pytest.fixture(scope="module")
def script():
    return standard_script(fps=FPS)


class FakeCapture:
    """A camera that plays frames in real time, then is unplugged (or hangs)."""

    def __init__(self, frames, *, then: str = "unplug") -> None:
        self.frames, self.then, self.i = frames, then, 0
        self.released = threading.Event()

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def get(self, prop: int) -> float:
        return FPS if prop == cv2.CAP_PROP_FPS else 0.0

    def read(self):
        if self.i < len(self.frames):
            time.sleep(1 / FPS)
            self.i += 1
            return True, self.frames[self.i - 1].copy()
        if self.then == "hang":
            self.released.wait(2.0)
        return False, None

    def release(self) -> None:
        self.released.set()


class Closed:
    def isOpened(self) -> bool:  # noqa: N802
        return False

    def release(self) -> None:
        pass


def opener(*captures):
    """Hands out the given captures in turn, then only closed ones."""
    queue = list(captures)
    calls = []

    def open_(spec, config):
        calls.append(spec)
        return queue.pop(0) if queue else Closed()

    return open_, calls


def test_unplugged_camera_ends_the_run_cleanly_keeping_readings_and_recording(script, tmp_path):
    frames = script.frames[:45]
    open_, calls = opener(FakeCapture(frames))
    notices: list[str] = []
    source = open_source(SourceSpec("camera", 0), config=FAST, opener=open_,
                         on_notice=notices.append)
    events: list[dict] = []
    rec = Recorder(tmp_path / "seen.mp4", source.fps)
    summary = live.run(live.Session(source, live.make_tracker(find_tiles, CodeReader()),
                                    live.HandReader(), on_event=events.append, recorder=rec))
    assert summary.reason == "source lost"
    assert "stopped sending" in summary.error.message and "gave up" in summary.error.message
    assert len(calls) == 1 + FAST.retries
    assert sum("reconnecting" in n for n in notices) == FAST.retries
    assert [e["hand"] for e in events] == ["123m456p789s1122z2z"]
    cap = cv2.VideoCapture(str(tmp_path / "seen.mp4"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) >= 30  # what was seen is kept
    cap.release()


def test_stalled_stream_is_reconnected_and_the_run_goes_on(script):
    first, second = FakeCapture(script.frames[:12], then="hang"), FakeCapture(script.frames[:40])
    open_, calls = opener(first, second)
    notices: list[str] = []
    source = open_source(SourceSpec("url", "rtsp://table/cam"), config=FAST, opener=open_,
                         on_notice=notices.append)
    events: list[dict] = []
    summary = live.run(live.Session(source, live.make_tracker(find_tiles, CodeReader()),
                                    live.HandReader(), on_event=events.append))
    assert any("sent nothing for 0.3 s" in n for n in notices)
    assert summary.frames > 30 and [e["hand"] for e in events] == ["123m456p789s1122z2z"]
    assert summary.reason == "source lost"


def test_unreachable_stream_is_retried_then_refused():
    open_, calls = opener()
    notices: list[str] = []
    with pytest.raises(SourceError, match="cannot open rtsp://x after 3 attempt"):
        open_source(SourceSpec("url", "rtsp://x"), config=FAST, opener=open_,
                    on_notice=notices.append)
    assert len(calls) == 3 and len(notices) == 2


def test_missing_camera_fails_at_once():
    open_, calls = opener()
    with pytest.raises(SourceError, match="no camera at index 2"):
        open_source(SourceSpec("camera", 2), config=FAST, opener=open_)
    assert len(calls) == 1


@pytest.mark.parametrize("text, kind, target, error", [
    ("0", "camera", 0, None),
    (" 12 ", "camera", 12, None),
    ("rtsp://10.0.0.2/stream", "url", "rtsp://10.0.0.2/stream", None),
    ("http://cam.local/video.mjpg", "url", "http://cam.local/video.mjpg", None),
    ("no/such/file.mp4", None, None, SourceError),
    ("", None, None, InvalidInput),
])
def test_parse_source(text, kind, target, error):
    if error is not None:
        with pytest.raises(error):
            parse_source(text)
        return
    spec = parse_source(text)
    assert (spec.kind, spec.target) == (kind, target)


@pytest.mark.parametrize("kwargs", [{"retries": -1}, {"stall_s": -1.0}])
def test_bad_source_config(kwargs):
    with pytest.raises(InvalidInput):
        SourceConfig(**kwargs)
