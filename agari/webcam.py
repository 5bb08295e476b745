"""Live scoring from a webcam: the app loop around `agari.vision.track.TileTracker`.

Frames come from `agari.webcam_source`; the tracker follows the tiles and says
when the reading is stable; each new stable reading is laid out, read and
scored with the photo pipeline's own stages (`agari.pipeline.read_detections`)
under the table settings the keys control (`TableSettings`, `apply_key`). A
`Reading` event goes out only when what a player would see changes: the hand,
its layout or its score. The overlay (`agari.webcam_overlay`) is drawn only
for a window or a recording; the window module is imported only when a window
is asked for, so headless runs never touch a display.

>>> settings = apply_key(TableSettings(), "t")       # tsumo
>>> settings.tsumo, apply_key(settings, "s").seat
(True, 'W')
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Protocol

import numpy as np

from agari.engine.errors import AgariError, InvalidInput
from agari.pipeline import PhotoResult, read_detections, situation_of
from agari.vision.track import TileTracker, TrackedTile, TrackerConfig, TrackFrame
from agari.webcam_source import Frame, Recorder, SourceError

WINDS = ("E", "S", "W", "N")
KEYS: tuple[tuple[str, str], ...] = (
    ("t", "tsumo / ron"), ("r", "riichi on / off"), ("s", "seat wind"), ("w", "round wind"),
    ("h", "honba +1"), ("H", "honba -1"), ("f", "freeze / resume"), ("q", "quit"),
)
"""The window's keys and what they do (shown on screen)."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What the camera cannot see: how the hand was won, set from the keyboard."""

    tsumo: bool = False
    riichi: bool = False
    seat: str = "S"
    round: str = "E"
    honba: int = 0

    def __post_init__(self) -> None:
        if self.seat not in WINDS or self.round not in WINDS:
            raise InvalidInput(f"winds must be one of {WINDS}, got {self.seat}, {self.round}")
        if self.honba < 0:
            raise InvalidInput(f"honba must be ≥ 0, got {self.honba}")

    def request(self) -> dict[str, Any]:
        """These settings as `agari score` request fields."""
        return {"tsumo": self.tsumo, "riichi": self.riichi, "seat": self.seat,
                "round": self.round, "honba": self.honba}

    def describe(self) -> str:
        """One line for the screen."""
        return (f"{'TSUMO' if self.tsumo else 'RON'}  riichi {'on' if self.riichi else 'off'}  "
                f"seat {self.seat}  round {self.round}  honba {self.honba}")


def _next_wind(w: str) -> str:
    return WINDS[(WINDS.index(w) + 1) % len(WINDS)]


def apply_key(settings: TableSettings, key: str) -> TableSettings:
    """The settings after a key press (keys that are not settings change nothing)."""
    change: dict[str, Any] = {
        "t": {"tsumo": not settings.tsumo}, "r": {"riichi": not settings.riichi},
        "s": {"seat": _next_wind(settings.seat)}, "w": {"round": _next_wind(settings.round)},
        "h": {"honba": settings.honba + 1}, "H": {"honba": max(0, settings.honba - 1)},
    }.get(key, {})
    return replace(settings, **change) if change else settings


@dataclass(frozen=True, slots=True)
class Reading:
    """One stable reading of the table, scored.

    Attributes:
        tiles: the tracked tiles it was read from.
        result: layout, reading and score (None when no tile is on the table).
        error: why nothing could be read, when the tiles are not a hand at all.
        settings: the settings it was scored under.
    """

    tiles: tuple[TrackedTile, ...]
    result: PhotoResult | None
    error: AgariError | None
    settings: TableSettings

    @property
    def roles(self) -> dict[int, str]:
        """Track id → role (``concealed``, ``win``, ``meld 1``, ``dora``…)."""
        if self.result is None:
            return {}
        return {t.id: r for t, r in zip(self.tiles, self.result.roles, strict=True)}

    @property
    def names(self) -> dict[int, str | None]:
        """Track id → the name the constrained reading gives the tile."""
        if self.result is None:
            return {}
        return {t.id: r for t, r in zip(self.tiles, self.result.read, strict=True)}

    @property
    def faces(self) -> list[str]:
        """The face-up tiles read (voted labels), sorted: what the camera reads, roles aside."""
        return sorted(str(t.detection.label) for t in self.tiles
                      if t.detection.label not in (None, "back"))

    def content(self) -> dict[str, Any]:
        """What a player sees: the tiles read, hand, layout, score or error (the change test
        compares it)."""
        if self.result is None:
            err = self.error
            return {"faces": self.faces, "hand": None, "layout": None, "score": None,
                    "waits": [], "win_candidates": [], "error": None if err is None else
                    {"code": err.code, "message": err.message}}
        doc = self.result.to_json()
        return {"faces": self.faces, **{k: doc[k] for k in (
            "hand", "layout", "score", "waits", "win_candidates", "error")}}

    def event(self, t: float, frame: int) -> dict[str, Any]:
        """The ``--no-window`` JSON line for the reading shown from stream time ``t``, frame n."""
        tiles = self.result.to_json()["tiles"] if self.result is not None else \
            [tile.detection.to_json() for tile in self.tiles]
        notes = list(self.result.notes) if self.result is not None else []
        return {"event": "reading", "t": round(t, 3), "frame": frame,
                **self.content(), "tiles": tiles, "notes": notes,
                "settings": self.settings.request()}


class HandReader:
    """Stages 3-4 of the photo pipeline on a stable set of tracked tiles."""

    def __init__(self, request: Mapping[str, Any] | None = None) -> None:
        """``request``: fixed `agari score` fields (rules, dora override…) besides the keys'."""
        self._request = {k: v for k, v in (request or {}).items() if v is not None}
        situation_of({**self._request, **TableSettings().request()})  # fail early on bad input

    def read(self, tiles: Sequence[TrackedTile], settings: TableSettings, *,
             size: tuple[int, int] = (0, 0)) -> Reading:
        tiles = tuple(sorted(tiles, key=lambda t: (t.detection.centre[1], t.detection.centre[0])))
        if not any(t.detection.label not in (None, "back") for t in tiles):
            return Reading(tiles, None, None, settings)
        situation = situation_of({**self._request, **settings.request()})
        try:
            result = read_detections([t.detection for t in tiles], situation, size=size)
        except AgariError as err:
            return Reading(tiles, None, err, settings)
        except Exception as exc:  # noqa: BLE001 - one odd table must not end a live session
            if os.environ.get("AGARI_DEBUG"):
                raise
            err = AgariError(f"internal error reading the table: {type(exc).__name__}: {exc}",
                             code="internal")
            return Reading(tiles, None, err, settings)
        return Reading(tiles, result, None, settings)


class View(Protocol):
    """A window: shows a frame, returns the key pressed (or None)."""

    def show(self, image: np.ndarray) -> str | None: ...

    def close(self) -> None: ...


class Source(Protocol):
    fps: float

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


@dataclass
class RunSummary:
    """How a run went.

    Attributes:
        frames: frames processed; located, classified: keyframes and crops classified.
        wall_s: seconds the run took; stream_s: stream time of the last frame.
        readings: reading events sent.
        reason: why it ended (``end of video``, ``quit``, ``frame limit``, ``source lost``).
        error: the source's fault, when it ended on one.
    """

    frames: int = 0
    located: int = 0
    classified: int = 0
    wall_s: float = 0.0
    stream_s: float = 0.0
    readings: int = 0
    reason: str = "end of video"
    error: AgariError | None = None
    last: Reading | None = None

    @property
    def fps(self) -> float:
        return self.frames / self.wall_s if self.wall_s > 0 else 0.0

    def event(self) -> dict[str, Any]:
        """The final ``--no-window`` JSON line."""
        return {"event": "end", "reason": self.reason, "frames": self.frames,
                "seconds": round(self.wall_s, 2), "stream_seconds": round(self.stream_s, 2),
                "fps": round(self.fps, 1), "readings": self.readings,
                "located": self.located, "classified": self.classified,
                "error": None if self.error is None else
                {"code": self.error.code, "message": self.error.message}}


@dataclass
class Session:
    """Everything one run needs; `run` drives it."""

    source: Source
    tracker: TileTracker
    reader: HandReader
    settings: TableSettings = field(default_factory=TableSettings)
    on_event: Callable[[dict[str, Any]], None] = lambda _e: None
    view: View | None = None
    recorder: Recorder | None = None
    max_frames: int | None = None
    realtime: bool = False
    """Play a file at its own speed (for a window); otherwise as fast as it is processed."""


def run(session: Session) -> RunSummary:
    """Process the source until it ends, the user quits or ``max_frames``; never raises
    for a source that fails mid-run (the summary says so), and always closes the recording."""
    summary = RunSummary()
    loop = _Loop(session, summary)
    start = time.perf_counter()
    try:
        loop.go()
    except SourceError as err:
        summary.reason, summary.error = "source lost", err
    except KeyboardInterrupt:
        summary.reason = "interrupted"
    finally:
        summary.wall_s = time.perf_counter() - start
        if session.recorder is not None:
            session.recorder.close()
        session.source.close()
        if session.view is not None:
            session.view.close()
    return summary


class _Loop:
    """The frame loop's state: last frame, reading, freeze."""

    def __init__(self, session: Session, summary: RunSummary) -> None:
        self.s, self.summary = session, summary
        self.reading: Reading | None = None
        self.sent: str | None = json.dumps(Reading((), None, None, session.settings).content())
        self.version = 0
        self.frozen: tuple[Frame, TrackFrame] | None = None
        self.current: tuple[Frame, TrackFrame] | None = None
        self.rate = _Rate()
        self.start = time.perf_counter()

    def go(self) -> None:
        s = self.s
        while s.max_frames is None or self.summary.frames < s.max_frames:
            if self.frozen is not None:
                if not self._handle(self._draw(*self.frozen)):
                    return
                time.sleep(0.02)
                continue
            frame = s.source.read()
            if frame is None:
                return
            if s.realtime:
                time.sleep(max(0.0, self.start + frame.t - time.perf_counter()))
            tf = s.tracker.update(frame.image, frame.t)
            self.current = (frame, tf)
            self._count(tf)
            if tf.stable_version != self.version:
                self.version = tf.stable_version
                self._rescore()
            if s.view is None and s.recorder is None:
                continue
            image = self._draw(frame, tf)
            if s.recorder is not None:
                s.recorder.write(image, frame.t)
            if not self._handle(image):
                return
        self.summary.reason = "frame limit"

    def _count(self, tf: TrackFrame) -> None:
        self.summary.frames += 1
        self.summary.located += tf.located
        self.summary.classified += tf.classified
        self.summary.stream_s = tf.t
        self.rate.tick()

    def _rescore(self) -> None:
        """Read the stable tiles under the current settings; send an event if it shows anew."""
        frame, tf = self.frozen or self.current
        size = frame.image.shape[1::-1]
        self.reading = self.s.reader.read(tf.stable, self.s.settings, size=size)
        self.summary.last = self.reading
        content = json.dumps(self.reading.content(), sort_keys=True)
        if content != self.sent:
            self.sent = content
            self.summary.readings += 1
            self.s.on_event(self.reading.event(tf.t, frame.index))

    def _draw(self, frame: Frame, tf: TrackFrame) -> np.ndarray:
        from agari.webcam_overlay import Overlay, draw_overlay

        status = f"{self.rate.value:4.1f} fps" + ("  FROZEN" if self.frozen else "") + \
            ("" if tf.motion_ok else "  camera moved")
        return draw_overlay(frame.image, Overlay(tf, self.reading, self.s.settings, status))

    def _handle(self, image: np.ndarray) -> bool:
        """Show the frame and act on a key; False to stop."""
        if self.s.view is None:
            return True
        key = self.s.view.show(image)
        if key in ("q", "esc"):
            self.summary.reason = "quit"
            return False
        if key == "f":
            self.frozen = None if self.frozen is not None else self.current
        elif key is not None:
            settings = apply_key(self.s.settings, key)
            if settings != self.s.settings:
                self.s.settings = settings
                self._rescore()
        return True


class _Rate:
    """Frames per second over the last second or so (for the screen)."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def tick(self) -> None:
        now = time.perf_counter()
        self.times = [t for t in self.times if now - t < 1.0] + [now]

    @property
    def value(self) -> float:
        if len(self.times) < 2:
            return 0.0
        return (len(self.times) - 1) / max(self.times[-1] - self.times[0], 1e-6)


def default_stages(model: str | None = None, *, top_k: int = 5, tileset: str | None = None):
    """The shipped locator and classifier as the tracker's callables.

    Raises:
        ModelError: the classifier model cannot be loaded.
    """
    from agari.commands.calibrate import with_tileset
    from agari.models import TileClassifier
    from agari.vision.locate import locate

    clf = TileClassifier.load(model) if model else TileClassifier.load()
    clf = with_tileset(clf, tileset)  # --tileset: read with that set's calibration profile
    return locate, partial(clf.classify_detections, top_k=top_k)


def make_tracker(locate, classify, config: TrackerConfig | None = None) -> TileTracker:
    """A tracker over the given stages (default tuning)."""
    return TileTracker(locate, classify, config=config or TrackerConfig())
