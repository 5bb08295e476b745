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
