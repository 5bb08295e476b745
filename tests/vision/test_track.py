"""TileTracker on a synthetic table video: steady readings, classifier only on new tiles."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from agari.engine.errors import ImageError, InvalidInput
from agari.engine.tiles import parse_tiles
from agari.vision.track import DEFAULT_TRACKER, TileTracker, TrackerConfig
from track_factories import CodeReader, find_tiles, standard_script


@pytest.fixture(scope="module")
def script():
    return standard_script()


@pytest.fixture(scope="module")
def plain(script):
    """The tracker's frames and reader over the script, with the exact locator and reader."""
    return run(script)


def run(script, locate=find_tiles, reader=None, config=DEFAULT_TRACKER):
    reader = reader or CodeReader()
    tracker = TileTracker(locate, reader, config=config)
    frames = [tracker.update(f, i / script.fps) for i, f in enumerate(script.frames)]
    return frames, reader


def stable_changes(frames) -> list[tuple[int, Counter]]:
    """(frame index, labels) each time the stable reading changed."""
    out, version = [], 0
    for i, fr in enumerate(frames):
        if fr.stable_version != version:
            version = fr.stable_version
            out.append((i, Counter(t.detection.label_name for t in fr.stable)))
    return out


def truth_changes(script) -> list[Counter]:
    """The labels of each held state: hand A, A swapped, the empty table, hand B."""
    held = [Counter(str(t) for t in parse_tiles(script.truth[i])) for i in script.still_from]
    return held[:2] + [Counter()] + held[2:]


def test_stable_reading_changes_once_per_real_change(script, plain):
    frames, _ = plain
    changes = stable_changes(frames)
    assert [labels for _, labels in changes] == truth_changes(script)


def test_each_hand_is_stable_within_a_second_of_being_still(script, plain):
    frames, _ = plain
    changes = stable_changes(frames)
    appeared = [script.still_from[0], script.still_from[1], script.still_from[2]]
    at = [changes[0][0], changes[1][0], changes[3][0]]
    for start, seen in zip(appeared, at, strict=True):
        assert 0 < (seen - start) / script.fps <= 1.0


def test_classifier_reads_only_new_or_changed_tiles(script, plain):
    frames, reader = plain
    wanted = TrackerConfig().votes_wanted
    # Hand A (14 tiles), the swapped tile, hand B (14 tiles): each read `votes_wanted` times.
    assert reader.calls == (14 + 1 + 14) * wanted
    # While hand A is held (camera shake, a lighting dip) nothing is located again.
    hold = range(script.still_from[0] + 10, script.still_from[1])
    assert not any(frames[i].located for i in hold)


def test_votes_outvote_an_occasional_misread(script):
    frames, reader = run(script, reader=CodeReader(flip_every=5))
    assert reader.calls > 0
    assert [labels for _, labels in stable_changes(frames)] == truth_changes(script)


def test_a_tile_the_locator_misses_once_is_kept(script):
    seen = {"n": 0}

    def flaky(frame):
        """Misses the first tile every second time it sees any."""
        dets = find_tiles(frame)
        seen["n"] += bool(dets)
        return dets[1:] if seen["n"] % 2 == 0 else dets

    frames, _ = run(script, locate=flaky)
    assert [labels for _, labels in stable_changes(frames)] == truth_changes(script)


def test_tracked_quads_follow_the_camera(script, plain):
    frames, _ = plain
    i = script.still_from[1] + 12  # shaken since its keyframe, in full light
    found = sorted(find_tiles(script.frames[i]), key=lambda d: d.centre[0])
    tracked = sorted((t.detection for t in frames[i].tiles), key=lambda d: d.centre[0])
    assert len(found) == len(tracked) == 14
    err = [np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1])
           for a, b in zip(found, tracked, strict=True)]
    assert max(err) < 1.5


@pytest.mark.parametrize("frame, error", [
    (np.zeros((40, 60, 3), np.float32), ImageError),
    (np.zeros((40, 60), np.uint8), ImageError),
    (np.zeros((0, 60, 3), np.uint8), ImageError),
])
def test_bad_frames_are_refused(frame, error):
    with pytest.raises(error):
        TileTracker(find_tiles, CodeReader()).update(frame, 0.0)


@pytest.mark.parametrize("kwargs", [{"min_votes": 0}, {"min_votes": 4, "votes_wanted": 3},
                                    {"hold_s": -1.0}])
def test_bad_config_is_refused(kwargs):
    with pytest.raises(InvalidInput):
        TrackerConfig(**kwargs)


def test_a_classifier_that_loses_tiles_is_an_error(script):
    tracker = TileTracker(find_tiles, lambda frame, dets: list(dets)[:-1])
    with pytest.raises(InvalidInput, match="classifier returned"):
        for i, f in enumerate(script.frames[:20]):
            tracker.update(f, i / script.fps)
