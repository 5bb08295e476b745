"""`read_photo` reads again a photo that made no hand; a reading again that locates the very
tiles an earlier one located gives that reading, without classifying and reading them again."""

from __future__ import annotations

import numpy as np
from agari.engine import Rules, WinContext
from agari.engine.errors import InvalidHand
from agari.vision.detection import TileDetection
from agari.vision.reading_checks import Situation

from agari import pipeline
from agari.pipeline import PhotoResult, PipelineConfig, read_photo

SITUATION = Situation(Rules.preset("tenhou"), WinContext())
PHOTO = np.zeros((1080, 1920, 3), np.uint8)


class _Eye:
    def classify_detections(self, image, dets, *, top_k=5):
        return dets


def _tile(x: float) -> TileDetection:
    return TileDetection(((x, 10.0), (x + 20.0, 10.0), (x + 20.0, 40.0), (x, 40.0)))


def _stubbed(monkeypatch, located_at):
    """The locator gives ``located_at(cap)``'s tiles; stages 2-4 are recorded, and make no
    hand (so every scale is tried)."""
    read = []

    def locate(image, *, config, judge=None, reader=None, cores_of=None):
        return located_at(config.max_pixels)

    def read_located(image, situation, dets, **kw):
        read.append(tuple(dets))
        return PhotoResult("", 1920, 1080, error=InvalidHand(f"got {len(dets)} tiles"),
                           timings=(("classify", 1.0),))

    monkeypatch.setattr(pipeline, "locate", locate)
    monkeypatch.setattr(pipeline, "find_cores", lambda bgr, cfg: [])
    monkeypatch.setattr(pipeline, "_read_located", read_located)
    return read


def test_tiles_located_again_alike_are_read_once(monkeypatch):
    # Every cap but 1.4 MP locates the same two tiles; 1.4 MP finds a third.
    read = _stubbed(monkeypatch, lambda cap: [_tile(0.0), _tile(30.0)]
                    + ([_tile(60.0)] if cap > 1.2e6 else []))
    result = read_photo(PHOTO, SITUATION, classifier=_Eye(), config=PipelineConfig())
    assert len(read) == 2 and len(set(read)) == 2  # the first tiles once, the third's once
    assert isinstance(result.error, InvalidHand)
    stages = [s for s, _ in result.timings]
    assert stages.count("retry 1") == 1 and len([s for s in stages if s.startswith("retry")]) >= 3


def _net_stubbed(monkeypatch, net_reads_at):
    """As `_stubbed`, the same two tiles at every cap; the locator has the core net read the
    photo where ``net_reads_at(cap)``."""
    read = _stubbed(monkeypatch, lambda cap: [])

    def locate(image, *, config, judge=None, reader=None, cores_of=None):
        if net_reads_at(config.max_pixels):
            cores_of(image, config.cores)
        return [_tile(0.0), _tile(30.0)]

    monkeypatch.setattr(pipeline, "locate", locate)
    return read


def test_with_the_core_nets_quads_read_too_the_same_tiles_are_read_once(monkeypatch):
    # The net reads the photo once, at its own size: its quads are the same for every cap.
    from agari.vision.net_faces import NetFacesConfig

    read = _net_stubbed(monkeypatch, lambda cap: True)
    result = read_photo(PHOTO, SITUATION, classifier=_Eye(),
                        config=PipelineConfig(net_faces=NetFacesConfig()))
    assert len(read) == 1
    assert len([s for s, _ in result.timings if s.startswith("retry")]) >= 3


def test_a_reading_after_the_net_first_read_the_photo_is_made_again(monkeypatch):
    # Only the 1.4 MP locating has the net read the photo: the same tiles read then may
    # read otherwise (the net's quads are read too), so that reading is made.
    from agari.vision.net_faces import NetFacesConfig

    read = _net_stubbed(monkeypatch, lambda cap: cap > 1.2e6)
    read_photo(PHOTO, SITUATION, classifier=_Eye(),
               config=PipelineConfig(net_faces=NetFacesConfig()))
    assert len(read) == 2 and len(set(read)) == 1
