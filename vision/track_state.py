"""The tracker's values: what it reports per frame, and what it keeps per track.

`TrackedTile` and `TrackFrame` are the frozen values `agari.vision.track.TileTracker`
returns; `TrackRecord` and `Keyframe` are its own mutable bookkeeping.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from agari.vision.detection import TileDetection
from agari.vision.track_motion import IDENTITY, Thumb
from agari.vision.track_votes import Votes


@dataclass(frozen=True, slots=True)
class TrackedTile:
    """One tracked tile in one frame.

    Attributes:
        id: the track's number, the same for as long as the tile stays and looks the same.
        detection: its quad in this frame and its voted label, confidence and alternatives.
        votes: how many readings were voted.
    """

    id: int
    detection: TileDetection
    votes: int


@dataclass(frozen=True, slots=True)
class TrackFrame:
    """What the tracker knows after one frame.

    Attributes:
        index: frames seen so far (1 for the first).
        t: the frame's stream time in seconds.
        tiles: every tracked tile, quads in this frame's pixels.
        located: tiles were located in this frame (a keyframe).
        classified: crops classified in this frame.
        quiet: nothing on the table moved since the previous frame.
        pending: the table differs from the last keyframe (a locate is due).
        motion_ok: the camera's motion is known (else the view was lost).
        stable: the stable reading's tiles, as they were when it became stable.
        stable_version: incremented each time ``stable`` changes.
    """

    index: int
    t: float
    tiles: tuple[TrackedTile, ...]
    located: bool
    classified: int
    quiet: bool
    pending: bool
    motion_ok: bool
    stable: tuple[TrackedTile, ...]
    stable_version: int


@dataclass(eq=False)
class TrackRecord:
    """One track's state (mutable; the tracker's own)."""

    id: int
    quad: np.ndarray
    """``float64 (4, 2)`` in keyframe pixels."""
    sideways: bool
    face_down: bool
    signature: np.ndarray
    votes: Votes = field(default_factory=Votes)
    last_vote: float = float("-inf")


@dataclass(eq=False)
class Keyframe:
    """The frame tiles were last located in, and the camera's motion since."""

    thumb: Thumb
    corners: np.ndarray
    t: float
    motion: np.ndarray = field(default_factory=IDENTITY.copy)
    """Last thumbnail transform keyframe → current."""
    previous: np.ndarray | None = None
    """Previous frame's structure warped onto the keyframe."""
    previous_raw: np.ndarray | None = None
