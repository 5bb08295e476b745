"""`agari webcam` and its loop on a synthetic table video: readings, keys, recording, faults."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))
from agari.engine.errors import InvalidInput  # noqa: E402
from track_factories import CodeReader, find_tiles, standard_script  # noqa: E402

import agari.webcam as live  # noqa: E402
from agari.cli import app  # noqa: E402
from agari.webcam import HandReader, Session, TableSettings, apply_key, run  # noqa: E402
from agari.webcam_source import Frame, Recorder  # noqa: E402


@pytest.fixture(scope="module")
def script():
    return standard_script()


@pytest.fixture(scope="module")
def video(script, tmp_path_factory) -> Path:
    return script.write(tmp_path_factory.mktemp("webcam") / "table.mp4")


@pytest.fixture
def stages(monkeypatch):
    """The CLI's locator and classifier replaced by the factories' (known truth)."""
    reader = CodeReader()
    monkeypatch.setattr(live, "default_stages", lambda model=None, top_k=5: (find_tiles, reader))
    return reader


def invoke(*args: str):
    return CliRunner().invoke(app, ["webcam", *args])


def lines(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def test_headless_prints_one_line_per_change_and_records(video, stages, tmp_path, script,
                                                         monkeypatch):
    monkeypatch.delitem(sys.modules, "agari.webcam_window", raising=False)
    out = tmp_path / "out.mp4"
    result = invoke("--source", str(video), "--no-window", "--record", str(out))
    assert result.exit_code == 0, result.output
    events = lines(result.stdout)
    readings = [e for e in events if e["event"] == "reading"]
    assert [e["hand"] for e in readings] == [
        "123m456p789s1122z2z", "123m456p789s1122z1z", None, "234m345p5667888s6s"]
    assert [e["score"]["points"] if e["score"] else None for e in readings] == \
        [1300, 1300, None, 1300]
    assert readings[0]["score"]["yaku"][0]["name"].startswith("seat_wind")
    assert events[-1]["event"] == "end" and events[-1]["readings"] == 4
    assert events[-1]["frames"] == len(script.frames)
    assert "agari.webcam_window" not in sys.modules
    cap = cv2.VideoCapture(str(out))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == len(script.frames)
    cap.release()


def test_settings_change_the_score_line(video, stages):
    result = invoke("--source", str(video), "--no-window", "--tsumo", "--seat", "e",
                    "--honba", "2", "--max-frames", "40")
    assert result.exit_code == 0, result.output
    first = lines(result.stdout)[0]
    assert first["settings"] == {"tsumo": True, "riichi": False, "seat": "E", "round": "E",
                                 "honba": 2}
    assert first["score"]["tsumo"] is True and "dealer" not in first["score"]["payments"]
    assert lines(result.stdout)[-1]["reason"] == "frame limit"


class ScriptedView:
    """A window that presses the given keys at the given show() calls."""

    def __init__(self, keys: dict[int, str]) -> None:
        self.keys, self.calls, self.closed = keys, 0, False

    def show(self, image) -> str | None:
        self.calls += 1
        return self.keys.get(self.calls)

    def close(self) -> None:
        self.closed = True


class ListSource:
    fps = 20.0

    def __init__(self, frames) -> None:
        self.frames, self.i = frames, 0

    def read(self):
        if self.i >= len(self.frames):
            return None
        self.i += 1
        return Frame(self.frames[self.i - 1], (self.i - 1) / self.fps, self.i - 1)

    def close(self) -> None:
        pass


def session(script, view=None, **kw) -> tuple[Session, list[dict]]:
    events: list[dict] = []
    s = Session(ListSource(script.frames), live.make_tracker(find_tiles, CodeReader()),
                HandReader(), on_event=events.append, view=view, **kw)
    return s, events


def test_keys_rescore_the_stable_hand_and_q_quits(script):
    view = ScriptedView({30: "t", 31: "r", 32: "x", 40: "f", 45: "h", 50: "f", 70: "q"})
    s, events = session(script, view)
    summary = run(s)
    assert summary.reason == "quit" and view.closed
    assert [(e["settings"]["tsumo"], e["settings"]["riichi"], e["settings"]["honba"])
            for e in events] == [(False, False, 0), (True, False, 0), (True, True, 0),
                                 (True, True, 1), (True, True, 1)]
    assert events[1]["score"]["tsumo"] and events[3]["score"]["total"] > events[2]["score"]["total"]
    # Frozen from the 40th shown frame to the 50th: those views showed no new frame.
    assert summary.frames == 70 - (50 - 40)


@pytest.mark.parametrize("key, before, after", [
    ("t", TableSettings(), TableSettings(tsumo=True)),
    ("r", TableSettings(riichi=True), TableSettings()),
    ("s", TableSettings(seat="N"), TableSettings(seat="E")),
    ("w", TableSettings(round="S"), TableSettings(round="W")),
    ("h", TableSettings(honba=1), TableSettings(honba=2)),
    ("H", TableSettings(), TableSettings()),
    ("z", TableSettings(honba=3), TableSettings(honba=3)),
])
def test_apply_key(key, before, after):
    assert apply_key(before, key) == after


@pytest.mark.parametrize("kwargs", [{"seat": "X"}, {"round": "e"}, {"honba": -1}])
def test_bad_settings(kwargs):
    with pytest.raises(InvalidInput):
        TableSettings(**kwargs)


@pytest.mark.parametrize("args, message", [
    (["--source", "no/such/video.mp4"], "no such file"),
    (["--source", "7"], "no camera at index 7"),
    (["--source", "http://127.0.0.1:9/none.mjpg", "--retries", "0"], "cannot open"),
    (["--source", "{video}", "--record", "out.gif"], "cannot write .gif"),
    (["--source", "{video}", "--max-frames", "0"], "--max-frames"),
    (["--source", "{video}", "--seat", "X"], "winds"),
    (["--source", "{video}", "--rules", "nosuch"], "nosuch"),
])
def test_bad_sources_and_options_are_one_line_errors(args, message, video, stages):
    args = [a.replace("{video}", str(video)) for a in args]
    result = invoke(*args, "--no-window")
    assert result.exit_code == 1
    err = lines(result.stdout)[-1]["error"]
    assert message in err["message"]
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_not_a_video_is_a_clear_error(tmp_path, stages):
    bad = tmp_path / "notes.mp4"
    bad.write_text("not a video")
    result = invoke("--source", str(bad), "--no-window")
    assert result.exit_code == 1 and "not a video" in result.stderr


def test_window_without_a_display_is_a_clear_error(video, stages, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    result = invoke("--source", str(video))
    assert result.exit_code == 1 and "--no-window" in result.stderr


def test_recorder_repeats_frames_to_follow_stream_time(tmp_path, script):
    rec = Recorder(tmp_path / "r.avi", fps=10.0)
    for t in (0.0, 0.1, 0.5, 0.55, 0.6):
        rec.write(script.frames[0], t)
    rec.write(cv2.resize(script.frames[0], (320, 180)), 0.7)  # the stream changed size
    rec.close()
    rec.close()
    assert rec.frames == 8  # 0.0; 0.1 held over 0.1-0.4; 0.5; 0.55 at 0.6; 0.6 too soon; 0.7
    cap = cv2.VideoCapture(str(tmp_path / "r.avi"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == 8
    assert int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)) == 640
    cap.release()


def test_overlay_draws_score_panel_on_a_copy(script):
    from agari.webcam_overlay import Overlay, draw_overlay, panel_lines

    tracker = live.make_tracker(find_tiles, CodeReader())
    frames = [tracker.update(f, i / script.fps) for i, f in enumerate(script.frames[:40])]
    tf = frames[-1]
    reading = HandReader().read(tf.stable, TableSettings(riichi=True), size=(640, 360))
    text = [line for line, _ in panel_lines(reading)]
    assert text[0] == "hand 123m456p789s1122z2z"
    assert "2 han 40 fu" in text[1] and "2600 points" in text[1]
    assert any("riichi" in line for line in text)
    frame = script.frames[39]
    before = frame.copy()
    out = draw_overlay(frame, Overlay(tf, reading, TableSettings(riichi=True), "30 fps"))
    assert out.shape == frame.shape and (frame == before).all() and (out != frame).any()
    assert panel_lines(None) == []


def test_window_maps_keys_and_closing(monkeypatch):
    from agari import webcam_window

    keys = iter([255, ord("t"), 27, ord("H")])
    visible = iter([1, 1, 1, 0])
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(cv2, "namedWindow", lambda *a: None)
    monkeypatch.setattr(cv2, "imshow", lambda *a: None)
    monkeypatch.setattr(cv2, "waitKey", lambda *a: next(keys, 255))
    monkeypatch.setattr(cv2, "getWindowProperty", lambda *a: next(visible, 1))
    monkeypatch.setattr(cv2, "destroyWindow", lambda *a: None)
    window = webcam_window.Window()
    shown = [window.show(np.zeros((8, 8, 3), np.uint8)) for _ in range(4)]
    window.close()
    assert shown == [None, "t", "esc", "q"]  # the last: the window was closed


def test_a_failing_layout_stage_does_not_end_the_session(script, monkeypatch):
    def broken(*args, **kwargs):
        raise IndexError("list index out of range")

    monkeypatch.setattr(live, "read_detections", broken)
    s, events = session(script)
    summary = run(s)
    assert summary.reason == "end of video" and summary.frames == len(script.frames)
    assert events and all(e["error"]["code"] == "internal" for e in events if e["faces"])
    assert "IndexError" in events[0]["error"]["message"] and events[0]["tiles"]
