"""`read_photo` lets a box still read `none` give way to the core net's quad over it
(`PipelineConfig.net_faces`), with the net's quads the locator already had, and leaves out
a `none` box over a tile read surely (`PipelineConfig.none_twins`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from agari.engine import Rules, WinContext
from agari.engine.tiles import Tile
from agari.vision.cores import CoreQuad
from agari.vision.detection import TileDetection
from agari.vision.net_faces import NetFacesConfig
from agari.vision.none_twins import NoneTwinsConfig
from agari.vision.reading_checks import Situation

import agari.pipeline as pipeline
from agari.pipeline import PhotoResult, PipelineConfig, read_photo

IMAGE = np.zeros((100, 200, 3), np.uint8)
BOX = TileDetection(((10.0, 10.0), (40.0, 10.0), (40.0, 70.0), (10.0, 70.0)))
NET = CoreQuad(np.float32([[12, 10], [42, 10], [42, 50], [12, 50]]), 0.9, False)


class _Eye:
    """Reads the net's quad as 3p, anything else as `none`."""

    def classify_detections(self, image, dets, *, top_k=5):
        out = []
        for d in dets:
            name = "3p" if d.quad[0] == (12.0, 10.0) else "none"
            label = None if name == "none" else Tile.parse(name)
            out.append(replace(d, label=label, confidence=0.95, alternatives=((name, 0.95),)))
        return out


@pytest.fixture
def read(monkeypatch):
    """Stage 1 stubbed (the locator asks the net, as the real one does, and finds BOX) and
    stages 3-4 (the detections they get are recorded); the nets run are counted."""
    got: list[list[TileDetection]] = []
    nets: list = []

    def locate(image, *, config, judge=None, reader=None, cores_of=None):
        cores_of(image, config.cores)
        return [BOX]

    def find_cores(bgr, cfg):
        nets.append(cfg)
        return [NET]

    def read_detections(dets, situation, **kw):
        got.append(list(dets))
        return PhotoResult("", 200, 100, tuple(dets))

    monkeypatch.setattr(pipeline, "locate", locate)
    monkeypatch.setattr(pipeline, "find_cores", find_cores)
    monkeypatch.setattr(pipeline, "read_detections", read_detections)
    return got, nets


BARE = PipelineConfig(fill=None, doubles=None, wall_faces=None, quarter=None, reread=False,
                      other_cuts=False, polarity=None, retry=None, net_faces=NetFacesConfig())
SITUATION = Situation(Rules.preset("tenhou"), WinContext())


def test_the_box_gives_way_to_the_nets_face(read):
    got, nets = read
    read_photo(IMAGE, SITUATION, classifier=_Eye(), config=BARE)
    assert len(nets) == 1                              # the locator's net, not run again
    assert [d.label_name for d in got[-1]] == ["3p"]


def test_off_the_box_stays(read):
    got, _ = read
    assert PipelineConfig().net_faces is None                    # off by default
    read_photo(IMAGE, SITUATION, classifier=_Eye(), config=replace(BARE, net_faces=None))
    assert [d.label for d in got[-1]] == [None]


def test_a_callers_locator_runs_no_net_and_the_box_stays(read):
    got, nets = read
    read_photo(IMAGE, SITUATION, locator=lambda img: [BOX], classifier=_Eye(), config=BARE)
    assert nets == [] and [d.label for d in got[-1]] == [None]


def test_a_none_twin_of_a_face_is_left_out_when_asked(read):
    got, _ = read
    face = TileDetection(tuple(map(tuple, NET.quad.astype(float))))   # read 3p
    twin = TileDetection(((13.0, 11.0), (43.0, 11.0), (43.0, 51.0), (13.0, 51.0)),
                         sideways=True)                    # the tile read lying sideways
    assert PipelineConfig().none_twins is not None                 # on by default
    config = replace(BARE, net_faces=None, none_twins=None)
    read_photo(IMAGE, SITUATION, locator=lambda img: [twin, face], classifier=_Eye(),
               config=config)
    assert [d.label_name for d in got[-1]] == [None, "3p"]
    read_photo(IMAGE, SITUATION, locator=lambda img: [twin, face], classifier=_Eye(),
               config=replace(config, none_twins=NoneTwinsConfig()))
    assert [d.label_name for d in got[-1]] == ["3p"]
