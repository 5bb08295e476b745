"""Shared fixtures of the app tests."""

from __future__ import annotations

from types import SimpleNamespace

import agari.vision.locate_memo as locate_memo
import pytest
from agari.engine.errors import InvalidHand, NoTiles

import agari.pipeline as pipeline
from agari.pipeline import PhotoResult


@pytest.fixture
def photo_scales(monkeypatch):
    """Stages 1-4 stubbed: what a photo reads as depends only on the locator's working-image
    cap (``hands[cap]``: a reading, or absent for "no hand"; caps in ``failure["no_tile_at"]``
    find no tile); the caps asked are recorded."""
    asked: list[float] = []
    hands: dict[float, SimpleNamespace] = {}
    failure = {"error": InvalidHand("got 12 tiles")}
    nets: list = []

    def locate(image, *, config, judge=None, reader=None, cores_of=None):
        cores_of(image, config.cores)
        return config.max_pixels

    def find_cores(bgr, cfg):
        nets.append(cfg)
        return []

    def read_once(image, situation, locate, **kw):
        cap = locate(image)
        asked.append(cap)
        if cap in failure.get("no_tile_at", ()):
            raise NoTiles("no tiles found in the image")
        if cap in hands:
            return PhotoResult("", 1920, 1080, reading=hands[cap], timings=(("all", 1.0),))
        return PhotoResult("", 1920, 1080, error=failure["error"], timings=(("all", 1.0),))

    monkeypatch.setattr(pipeline, "locate", locate)
    # The stub's answer depends on its cap alone: to the locate memo each cap is a size.
    monkeypatch.setattr(locate_memo, "working_size", lambda image, config: config.max_pixels)
    monkeypatch.setattr(pipeline, "_read_once", read_once)
    monkeypatch.setattr(pipeline, "find_cores", find_cores)
    failure["nets"] = nets
    return asked, hands, failure


@pytest.fixture
def rereads(monkeypatch):
    """Stages 1-4 stubbed for the readings again of a photo whose first reading makes no hand:
    ``install(row, key)`` makes every reading find ``row`` and make no hand, except where
    ``key(config, shape)`` (the locator's config and the shape of the image it is given: the
    photo's, or a crop's) is in ``hands``, read as that hand, unsurely; the keys asked are
    recorded in ``asked``. Returns ``install``; it returns ``(asked, hands)``."""

    def install(row, key):
        asked: list = []
        hands: dict = {}

        def locate(image, *, config, judge=None, reader=None, cores_of=None):
            return key(config, image.shape[:2])

        def read_once(image, situation, locate, **kw):
            found = locate(image)
            asked.append(found)
            if found in hands:
                reading = SimpleNamespace(layout=SimpleNamespace(hand_text=hands[found], dora=(),
                                                                 ura=()),
                                          confidence=0.8, corrections=())  # not sure alone
                return PhotoResult("", 1920, 1080, reading=reading, timings=(("all", 1.0),))
            return PhotoResult("", 1920, 1080, detections=tuple(row),
                               roles=("concealed",) * len(row),
                               error=InvalidHand(f"got {len(row)} tiles"),
                               timings=(("all", 1.0),))

        def in_region_(locate, box):
            x0, y0, x1, y1 = box
            return lambda image: locate(image[y0:y1, x0:x1])

        monkeypatch.setattr(pipeline, "locate", locate)
        monkeypatch.setattr(pipeline, "_read_once", read_once)
        monkeypatch.setattr(pipeline, "in_region", in_region_)
        return asked, hands

    return install
