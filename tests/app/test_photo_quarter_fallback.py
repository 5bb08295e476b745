"""`read_photo` drops its quarter-turn guesses when they leave no possible hand."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from agari.engine import Rules, WinContext
from agari.engine.errors import InvalidHand
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection
from agari.vision.quarter import named_round
from agari.vision.reading_checks import Situation

import agari.pipeline as pipeline
from agari.pipeline import PhotoResult, PipelineConfig, read_photo

IMAGE = np.zeros((100, 200, 3), np.uint8)
ODD = TileDetection(((10.0, 10.0), (40.0, 10.0), (40.0, 50.0), (10.0, 50.0)))
PLAIN = TileDetection(((60.0, 10.0), (90.0, 10.0), (90.0, 50.0), (60.0, 50.0)))
TURNED_FIRST = named_round(ODD).quad[0]
READ = object()  # stands for a reading (the stub stage 3-4 below makes none of its own)


class _Eye:
    """Reads ODD as `none`, its corners named round as 1m; PLAIN as 2m."""

    def classify_detections(self, image, dets, *, top_k=5):
        out = []
        for d in dets:
            name = "1m" if d.quad[0] == TURNED_FIRST else ("none" if d.quad == ODD.quad else "2m")
            label = None if name == "none" else Tile.parse(name)
            out.append(replace(d, label=label, confidence=0.95, alternatives=((name, 0.95),)))
        return out


@pytest.fixture
def stages(monkeypatch):
    """Stages 3-4 stubbed: a detection read 1m makes the hand impossible (so does anything
    when ``impossible_without`` is set); the detections each call got are recorded."""
    calls: list[list[TileDetection]] = []
    state = {"impossible_without": False}

    def read_detections(dets, situation, **kw):
        calls.append(list(dets))
        turned = any(str(d.label) == "1m" for d in dets)
        if turned or state["impossible_without"]:
            return PhotoResult("", 200, 100, tuple(dets), error=InvalidHand("a fifth copy"))
        return PhotoResult("", 200, 100, tuple(dets), reading=READ)

    monkeypatch.setattr(pipeline, "read_detections", read_detections)
    return calls, state


CONFIG = PipelineConfig(fill=None, reread=False)
SITUATION = Situation(Rules.preset("tenhou"), WinContext())


def test_quarter_turns_that_leave_no_hand_are_dropped(stages):
    calls, _ = stages
    result = read_photo(IMAGE, SITUATION, locator=lambda img: [ODD, PLAIN], classifier=_Eye(),
                        config=CONFIG)
    assert len(calls) == 2                                   # read with, then without
    assert str(calls[0][0].label) == "1m" and calls[1][0].label is None
    assert result.reading is READ and result.detections[0].label is None
    assert any(stage == "read without quarter turns" for stage, _ in result.timings)


def test_without_a_better_reading_the_first_answer_stands(stages):
    calls, state = stages
    state["impossible_without"] = True
    result = read_photo(IMAGE, SITUATION, locator=lambda img: [ODD, PLAIN], classifier=_Eye(),
                        config=CONFIG)
    assert len(calls) == 2
    assert result.reading is None and str(result.detections[0].label) == "1m"


def test_no_retry_when_nothing_was_turned(stages):
    calls, state = stages
    state["impossible_without"] = True
    read_photo(IMAGE, SITUATION, locator=lambda img: [PLAIN], classifier=_Eye(), config=CONFIG)
    assert len(calls) == 1
