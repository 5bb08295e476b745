"""`TileTracker`: tiles followed across video frames, located and classified only when needed.

Per frame (a few milliseconds on 720p) the tracker makes a thumbnail, follows
the camera (`agari.vision.track_motion`) and compares the frame with the last
*keyframe*, the last frame it located tiles in. Only when the table itself has
changed, and has then been still for ``settle_s`` (or has kept changing for
``busy_locate_s``), does it locate tiles again. Located tiles are matched to
the tracks; a track whose face looks the same (`agari.vision.track_match`)
keeps its label, a new or changed one is classified. Young tracks are read
again on a few later frames and the readings voted (`agari.vision.track_votes`).
The reading (track ids and voted labels) becomes *stable* once it has held,
with the scene settled, for ``hold_s`` (`agari.vision.track_stable`).

The tracker knows nothing of windows, files or scoring: the locator and the
classifier are passed in as plain callables, and time is the stream's.

>>> tracker = TileTracker(locate, classify)                  # doctest: +SKIP
>>> frame = tracker.update(image, t=0.033)                   # doctest: +SKIP
>>> [t.detection.label_name for t in frame.stable]           # doctest: +SKIP
['1m', '2m', ...]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from agari.engine.errors import ImageError, InvalidInput
from agari.vision.detection import Classify, TileDetection, as_quad, label_of
from agari.vision.track_match import (
    DEFAULT_MATCH,
    MatchConfig,
    half_frame,
    match,
    signatures,
    similarity,
)
from agari.vision.track_motion import (
    DEFAULT_MOTION,
    ChangeMap,
    MotionConfig,
    Thumb,
    back_to_key,
    change_map,
    estimate_motion,
    find_corners,
    make_thumb,
    shift_of,
    significant,
    to_frame,
)
from agari.vision.track_region import (
    DEFAULT_REGION,
    Box,
    RegionConfig,
    changed_box,
    locate_in,
    quads_box,
    search_box,
    tile_length,
)
from agari.vision.track_stable import StabilityGate
from agari.vision.track_state import Keyframe, TrackedTile, TrackFrame, TrackRecord
from agari.vision.track_votes import Votes, reading_of

__all__ = ["DEFAULT_TRACKER", "TileTracker", "TrackFrame", "TrackedTile", "TrackerConfig"]

Locate = Callable[[np.ndarray], Sequence[TileDetection]]
"""Finds tiles in a BGR frame (e.g. `agari.vision.locate.locate`)."""


@dataclass(frozen=True, slots=True)
class TrackerConfig:
    """Tuning of the tracker (times in stream seconds)."""

    motion: MotionConfig = DEFAULT_MOTION
    match: MatchConfig = DEFAULT_MATCH
    region: RegionConfig = DEFAULT_REGION
    settle_s: float = 0.12
    """A changed table is located again once it has been still this long."""
    confirm_s: float = 0.1
    """After a keyframe that found new tiles, locate once more this much later (a tile
    the locator missed in one frame is usually found in the next)."""
    busy_locate_s: float = 1.0
    """While it keeps changing, it is located at most this often (the overlay follows)."""
    hold_s: float = 0.15
    """A new reading must hold, settled, this long to become the stable one."""
    votes_wanted: int = 3
    """Readings voted per tile (the first when it appears, the rest on later frames)."""
    min_votes: int = 2
    """The reading is not trusted before every tile has this many readings."""
    vote_interval_s: float = 0.1
    """Least time between two readings of a tile (new frames, new noise)."""
    face_check_s: float = 0.2
    """How often each tracked face is compared with its signature (a swapped tile)."""
    top_k: int = 5
    """Alternatives kept per tracked tile."""
    max_shift: float = 0.12
    """Beyond this camera drift (share of the width) the view is taken afresh."""

    def __post_init__(self) -> None:
        if not 1 <= self.min_votes <= self.votes_wanted:
            raise InvalidInput(f"need 1 ≤ min_votes ≤ votes_wanted, got "
                               f"{self.min_votes}, {self.votes_wanted}")
        if min(self.settle_s, self.confirm_s, self.busy_locate_s, self.hold_s,
               self.vote_interval_s, self.face_check_s) < 0:
            raise InvalidInput("tracker times must be ≥ 0")


DEFAULT_TRACKER = TrackerConfig()


class TileTracker:
    """Follows tiles through a video; see the module docstring."""

    def __init__(self, locate: Locate, classify: Classify, *,
                 config: TrackerConfig = DEFAULT_TRACKER) -> None:
        self._locate = locate
        self._classify = classify
        self.config = config
        self.reset()

    def reset(self) -> None:
        """Forget everything, the stable reading included."""
        self._index = 0
        self._next_id = 1
        self._gate = StabilityGate(self.config.hold_s)
        self._stable: tuple[TrackedTile, ...] = ()
        self._forget()

    def _forget(self) -> None:
        """Drop the tracks and the keyframe (the view changed size: a new scene)."""
        self._tracks: list[TrackRecord] = []
        self._key: Keyframe | None = None
        self._last_active = float("-inf")
        self._last_check = float("-inf")
        self._pending_since: float | None = None
        self._confirm_at: float | None = None
        self._confirm_ids: set[int] = set()
        self._change: ChangeMap | None = None

    # -- the frame loop ------------------------------------------------------------
    def update(self, frame: np.ndarray, t: float) -> TrackFrame:
        """Take one frame.

        Args:
            frame: BGR ``uint8 (H, W, 3)``.
            t: its stream time in seconds (non-decreasing).

        Raises:
            ImageError: not a BGR uint8 frame.
        """
        if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 \
                or frame.shape[2] != 3 or frame.size == 0:
            raise ImageError("expected a BGR uint8 frame (H, W, 3)")
        self._index += 1
        thumb = make_thumb(frame, self.config.motion)
        key = self._key
        if key is None or key.thumb.grey.shape != thumb.grey.shape:
            self._forget()
            classified = self._relocate(frame, thumb, t)
            return self._report(t, located=True, classified=classified, quiet=True,
                                pending=False, motion_ok=True)
        motion_ok, quiet, pending = self._observe(thumb, t)
        confirm = not pending and quiet and self._confirm_at is not None \
            and t >= self._confirm_at
        if confirm or (pending and self._locate_due(t)):
            box = self._confirm_box(frame) if confirm else self._change_box(frame, thumb)
            classified = self._relocate(frame, thumb, t, box=box, confirming=confirm)
            return self._report(t, located=True, classified=classified, quiet=quiet,
                                pending=False, motion_ok=motion_ok)
        classified = 0
        if quiet and not pending:
            classified = self._check_faces(frame, t) + self._vote(frame, t)
        return self._report(t, located=False, classified=classified, quiet=quiet,
                            pending=pending, motion_ok=motion_ok)

    def _observe(self, thumb: Thumb, t: float) -> tuple[bool, bool, bool]:
        """Follow the camera and compare with the keyframe: (motion ok, quiet, pending)."""
        cfg = self.config.motion
        key = self._key
        assert key is not None
        motion = estimate_motion(key.thumb, key.corners, thumb, key.motion, config=cfg)
        motion_ok = motion is not None
        if motion is not None:
            key.motion = motion
            warped = back_to_key(thumb, motion)
            active = key.previous is not None and significant(
                change_map(key.previous, warped, config=cfg), cfg)
            self._change = change_map(key.thumb.structure, warped, config=cfg)
            changed = significant(self._change, cfg)
            key.previous = warped
        else:
            active = key.previous_raw is None or significant(
                change_map(key.previous_raw, thumb.structure, config=cfg), cfg)
            changed = True
            self._change = None
            key.previous = None
        key.previous_raw = thumb.structure
        drifted = shift_of(key.motion) > self.config.max_shift * thumb.grey.shape[1]
        if active:
            self._last_active = t
        if drifted:
            self._change = None
        pending = changed or drifted
        if pending and self._pending_since is None:
            self._pending_since = t
        elif not pending:
            self._pending_since = None
        quiet = not active
        return motion_ok, quiet, pending

    def _locate_due(self, t: float) -> bool:
        cfg = self.config
        if t - self._last_active >= cfg.settle_s:
            return True
        assert self._key is not None and self._pending_since is not None
        return t - max(self._key.t, self._pending_since) >= cfg.busy_locate_s

    # -- keyframes -------------------------------------------------------------------
    def _change_box(self, frame: np.ndarray, thumb: Thumb) -> Box | None:
        """Where to locate after a change: around the changed cells and the tiles still
        unconfirmed (None: everywhere)."""
        if self._change is None or self._key is None:
            return None
        quads = self._current_quads(thumb.scale)
        boxes = [changed_box(self._change, self._key.motion, thumb.scale),
                 self._unconfirmed_box(quads)]
        return self._search([b for b in boxes if b is not None], quads, frame)

    def _confirm_box(self, frame: np.ndarray) -> Box | None:
        """Where to locate to confirm: around the tiles found only once so far."""
        assert self._key is not None
        quads = self._current_quads(self._key.thumb.scale)
        box = self._unconfirmed_box(quads)
        return self._search([box] if box is not None else [], quads, frame)

    def _unconfirmed_box(self, quads: list[np.ndarray]) -> Box | None:
        return quads_box([q for tr, q in zip(self._tracks, quads, strict=True)
                          if tr.id in self._confirm_ids])

    def _search(self, boxes: list[Box], quads: list[np.ndarray], frame: np.ndarray
                ) -> Box | None:
        if not boxes:
            return None
        union = (min(b[0] for b in boxes), min(b[1] for b in boxes),
                 max(b[2] for b in boxes), max(b[3] for b in boxes))
        cfg = self.config.region
        return search_box(union, tile_length(quads, frame.shape[0], cfg), frame.shape[1::-1], cfg)

    def _relocate(self, frame: np.ndarray, thumb: Thumb, t: float, *,
                  box: Box | None = None, confirming: bool = False) -> int:
        """Locate tiles (in ``box``, or everywhere), carry the tracks over, classify what
        is new or changed."""
        found = locate_in(self._locate, frame, box, self.config.region)
        half = half_frame(frame)
        predicted = self._current_quads(thumb.scale) if self._key is not None else []
        quads = [np.asarray(d.quad, np.float64) for d in found]
        sigs = signatures(half, quads, [d.sideways for d in found], config=self.config.match)
        pairs = match(predicted, quads, config=self.config.match)
        cfg = self.config.match
        kept: list[TrackRecord] = []
        fresh: list[TrackRecord] = []
        doubtful: list[TrackRecord] = []
        for ti, fj in pairs:
            tr, det = self._tracks[ti], found[fj]
            sim = similarity(tr.signature, sigs[fj]) if tr.sideways == det.sideways else 0.0
            tr.quad, tr.sideways, tr.face_down, tr.signature = quads[fj], det.sideways, \
                det.face_down, sigs[fj]
            if sim < cfg.same_face:
                tr.votes, tr.last_vote = Votes(), float("-inf")
                fresh.append(tr)
            elif sim < cfg.recheck:
                doubtful.append(tr)
            kept.append(tr)
        kept += self._missed(half, predicted, {ti for ti, _ in pairs})
        for fj in sorted(set(range(len(found))) - {fj for _, fj in pairs}):
            tr = TrackRecord(self._next_id, quads[fj], found[fj].sideways, found[fj].face_down,
                        sigs[fj])
            self._next_id += 1
            kept.append(tr)
            fresh.append(tr)
        self._tracks = sorted(kept, key=lambda tr: tr.id)
        self._key = Keyframe(thumb, find_corners(thumb, self.config.motion), t,
                             previous=thumb.structure, previous_raw=thumb.structure)
        self._pending_since = None
        # Tiles found for the first time are looked for once more (the box of the next
        # locate covers them); a confirming locate's own finds are taken as they are.
        self._confirm_ids = set() if confirming else {tr.id for tr in fresh}
        self._confirm_at = t + self.config.confirm_s if self._confirm_ids else None
        return self._read(frame, fresh, t) + self._read(frame, doubtful, t, fresh_if_new=True)

    def _missed(self, half: np.ndarray, predicted: list[np.ndarray], matched: set[int]
                ) -> list[TrackRecord]:
        """Tracks the locator did not find this time but whose face is still there."""
        left = [i for i in range(len(self._tracks)) if i not in matched]
        if not left:
            return []
        quads = [predicted[i] for i in left]
        sigs = signatures(half, quads, [self._tracks[i].sideways for i in left],
                          config=self.config.match)
        kept = []
        for i, q, sig in zip(left, quads, sigs, strict=True):
            tr = self._tracks[i]
            if similarity(tr.signature, sig) >= self.config.match.same_face:
                tr.quad = q
                kept.append(tr)
        return kept

    def _current_quads(self, scale: float) -> list[np.ndarray]:
        """Each track's quad in the current frame (keyframe quads moved with the camera)."""
        assert self._key is not None
        m = to_frame(self._key.motion, scale)
        return [cv2.transform(tr.quad[None], m)[0] for tr in self._tracks]

    # -- classification and votes ------------------------------------------------------
    def _read(self, frame: np.ndarray, tracks: list[TrackRecord], t: float,
              quads: list[np.ndarray] | None = None, *, fresh_if_new: bool = False) -> int:
        """Classify ``tracks`` in ``frame`` (at ``quads``, default their own) and add the votes.

        With ``fresh_if_new`` (a face that looked changed), a reading that names
        another tile than the votes do starts the votes afresh; one that agrees
        is simply one more vote (the face only looked different: a glint, a blur).
        """
        if not tracks:
            return 0
        quads = quads if quads is not None else [tr.quad for tr in tracks]
        dets = [TileDetection(quad=as_quad(q), sideways=tr.sideways, face_down=tr.face_down)
                for tr, q in zip(tracks, quads, strict=True)]
        out = list(self._classify(frame, dets))
        if len(out) != len(dets):
            raise InvalidInput(f"classifier returned {len(out)} results for {len(dets)} tiles")
        for tr, det in zip(tracks, out, strict=True):
            reading = reading_of(det)
            if fresh_if_new and reading[0][0] != tr.votes.best:
                tr.votes = Votes()
            tr.votes = tr.votes.add(reading)
            tr.last_vote = t
        return len(dets)

    def _check_faces(self, frame: np.ndarray, t: float) -> int:
        """Compare each face with its signature; read again those that changed in place.

        A tile swapped for another in the same spot barely changes the picture at
        thumbnail scale, but its own signature shows it at once.
        """
        if not self._tracks or t - self._last_check < self.config.face_check_s:
            return 0
        self._last_check = t
        assert self._key is not None
        quads = self._current_quads(self._key.thumb.scale)
        sigs = signatures(half_frame(frame), quads, [tr.sideways for tr in self._tracks],
                          config=self.config.match)
        changed, where = [], []
        for tr, q, sig in zip(self._tracks, quads, sigs, strict=True):
            if similarity(tr.signature, sig) < self.config.match.recheck:
                tr.signature = sig
                changed.append(tr)
                where.append(q)
        return self._read(frame, changed, t, where, fresh_if_new=True)

    def _vote(self, frame: np.ndarray, t: float) -> int:
        """Read young tracks again (on a quiet frame, spaced in time)."""
        cfg = self.config
        young = [i for i, tr in enumerate(self._tracks)
                 if tr.votes.count < cfg.votes_wanted and t - tr.last_vote >= cfg.vote_interval_s]
        if not young:
            return 0
        assert self._key is not None
        quads = self._current_quads(self._key.thumb.scale)
        return self._read(frame, [self._tracks[i] for i in young], t, [quads[i] for i in young])

    # -- output ------------------------------------------------------------------------
    def _report(self, t: float, *, located: bool, classified: int, quiet: bool, pending: bool,
                motion_ok: bool) -> TrackFrame:
        assert self._key is not None
        quads = self._current_quads(self._key.thumb.scale)
        tiles = tuple(self._tile(tr, q) for tr, q in zip(self._tracks, quads, strict=True))
        reading = tuple(tile for tile in tiles if tile.detection.label is not None)
        key = tuple((tile.id, tile.detection.label_name) for tile in reading)
        voted = all(tr.votes.count >= self.config.min_votes for tr in self._tracks)
        settled = quiet and not pending and motion_ok and voted and self._confirm_at is None
        if self._gate.update(t, key, settled=settled):
            self._stable = reading
        return TrackFrame(self._index, t, tiles, located, classified, quiet, pending, motion_ok,
                          self._stable, self._gate.version)

    def _tile(self, tr: TrackRecord, quad: np.ndarray) -> TrackedTile:
        label = label_of(tr.votes.best)
        det = TileDetection(quad=as_quad(quad), sideways=tr.sideways,
                            face_down=label == "back" or (label is None and tr.face_down),
                            label=label, confidence=tr.votes.confidence,
                            alternatives=tr.votes.alternatives(self.config.top_k))
        return TrackedTile(tr.id, det, tr.votes.count)


