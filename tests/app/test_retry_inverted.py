"""A dark-faced set's photo that made no hand is located again with its lightness inverted
(`RetryConfig.inverted`): those readings come first, and only for such photos."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
from agari.engine import Rules, WinContext
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection
from agari.vision.reading_checks import Situation

import agari.pipeline as pipeline
from agari.pipeline import PhotoResult, PipelineConfig, read_photo
from agari.retry import RetryConfig, ZoomConfig

SITUATION = Situation(Rules.preset("tenhou"), WinContext())
ROW = [TileDetection(((800.0 + 20 * i, 500.0), (820.0 + 20 * i, 500.0), (820.0 + 20 * i, 528.0),
                      (800.0 + 20 * i, 528.0)), label=Tile.parse("5p"), confidence=0.95)
       for i in range(5)]
HAND = "123m456p789s11z22z2z"
EYE = SimpleNamespace(classify_detections=lambda image, dets, top_k=5: dets)
CONFIG = PipelineConfig(retry=RetryConfig(max_pixels=(0.7e6,), zooms=(ZoomConfig(3.0, 1.5),)))


@pytest.fixture
def readings(rereads, monkeypatch):
    """The first reading finds ``ROW`` and makes no hand; the readings again are keyed by
    (inverted, cap or "crop") and make ``hands[key]`` where given."""
    found = rereads(ROW, lambda config, shape: (
        config.inverted, "crop" if shape != (1080, 1920) else config.max_pixels))
    # The set is judged by the classifier (`dark_set`); here by the photo's grey level.
    monkeypatch.setattr(pipeline, "dark_set", lambda image, first, clf, config:
                        config.retry.inverted is not None and image.mean() < 100)
    return found


def test_a_dark_photo_is_located_inverted_first_and_in_its_crops_last(readings):
    asked, hands = readings
    hands[(True, 1.0e6)] = hands[(False, 0.7e6)] = HAND
    dark = np.full((1080, 1920, 3), 30, np.uint8)
    # Its inverted hand not taken alone (`RetryConfig.inverted_firm`): the order of the rest.
    config = replace(CONFIG, retry=replace(CONFIG.retry, inverted_firm=False))
    result = read_photo(dark, SITUATION, classifier=EYE, config=config)
    assert asked == [(False, 1.0e6), (True, 1.0e6), (False, 0.7e6)]
    assert result.error is None and result.reading.layout.hand_text == HAND
    hands.clear()
    asked.clear()
    read_photo(dark, SITUATION, classifier=EYE, config=config)
    assert asked == [(False, 1.0e6), (True, 1.0e6), (False, 0.7e6), (False, "crop"),
                     (True, "crop")]
    asked.clear()
    two = replace(config, retry=replace(config.retry, inverted_caps=(None, 0.7e6)))
    read_photo(dark, SITUATION, classifier=EYE, config=two)
    assert asked[:3] == [(False, 1.0e6), (True, 1.0e6), (True, 0.7e6)]


def test_a_firm_hand_read_inverted_outvotes_the_plain_readings_again(readings):
    asked, hands = readings
    hands[(True, 1.0e6)] = HAND
    hands[(False, 0.7e6)] = hands[(False, "crop")] = "123m456p789s11z33z3z"
    dark = np.full((1080, 1920, 3), 30, np.uint8)
    result = read_photo(dark, SITUATION, classifier=EYE, config=CONFIG)
    # Two plain readings agreed on another hand: not taken.
    assert asked == [(False, 1.0e6), (True, 1.0e6), (False, 0.7e6), (False, "crop"),
                     (True, "crop")]
    assert result.reading.layout.hand_text == HAND
    assert "lightness inverted" in result.notes[-1]
    off = replace(CONFIG, retry=replace(CONFIG.retry, inverted_firm=False))
    assert read_photo(dark, SITUATION, classifier=EYE, config=off
                      ).reading.layout.hand_text != HAND
    # Only the inverted readings of the whole photo: a hand from a crop needs its vote.
    hands.clear()
    hands[(True, "crop")] = HAND
    asked.clear()
    result = read_photo(dark, SITUATION, classifier=EYE, config=CONFIG)
    assert asked[-1] == (True, "crop")  # every reading made (then taken as the lone hand)
    assert not any("lightness inverted" in note for note in result.notes)


def test_a_light_photo_or_the_option_off_is_never_read_inverted(readings):
    asked, _ = readings
    light = np.full((1080, 1920, 3), 220, np.uint8)
    read_photo(light, SITUATION, classifier=EYE, config=CONFIG)
    assert asked == [(False, 1.0e6), (False, 0.7e6), (False, "crop")]
    asked.clear()
    off = replace(CONFIG, retry=replace(CONFIG.retry, inverted=None))
    read_photo(np.full((1080, 1920, 3), 30, np.uint8), SITUATION, classifier=EYE, config=off)
    assert asked == [(False, 1.0e6), (False, 0.7e6), (False, "crop")]


def test_the_set_is_dark_where_its_faces_read_surer_inverted(monkeypatch):
    seen = []

    def polarity(clf, image, dets, config):
        seen.append((config.faces, [d.alternatives for d in dets]))
        return "inverted" if image.mean() < 100 else clf

    monkeypatch.setattr(pipeline, "face_polarity", polarity)
    first = PhotoResult("", 1920, 1080, detections=tuple(replace(d, alternatives=(("back", 1.0),))
                                                        for d in ROW))
    dark = np.full((1080, 1920, 3), 30, np.uint8)
    eye = SimpleNamespace(classify_detections=lambda image, dets, top_k=5: [
        replace(d, alternatives=(("5p", 0.9),)) for d in dets])
    assert pipeline.dark_set(dark, first, eye, CONFIG)
    # Judged on the faces, read afresh as they are (the first reading may have read them
    # inverted already).
    assert seen == [(True, [(("5p", 0.9),)] * 5)]
    assert not pipeline.dark_set(np.full((1080, 1920, 3), 220, np.uint8), first, eye, CONFIG)
    off = replace(CONFIG, retry=replace(CONFIG.retry, inverted=None))
    assert not pipeline.dark_set(dark, first, eye, off)
    assert not pipeline.dark_set(dark, PhotoResult("", 1920, 1080), eye, CONFIG)


def _faces(ink: int, plate: int) -> tuple[np.ndarray, list[TileDetection]]:
    """A photo of five faces: ``plate`` grey with a stroke of ``ink`` across each."""
    image = np.full((1080, 1920, 3), 128, np.uint8)
    for d in ROW:
        (x0, y0), _, (x1, y1), _ = d.quad
        image[int(y0):int(y1), int(x0):int(x1)] = plate
        image[int(y0) + 10:int(y0) + 16, int(x0) + 4:int(x1) - 4] = ink
    return image, [replace(d, alternatives=(("5p", 0.9),)) for d in ROW]


def test_light_ink_on_dark_plates_is_a_dark_set_by_its_pixels():
    from agari.models.polarity import dark_plates

    spec = SimpleNamespace(input_size=(64, 48), crop_margin=0.0)  # as the classifier cuts
    assert dark_plates(*_faces(ink=230, plate=40), spec, 100.0)
    assert not dark_plates(*_faces(ink=10, plate=90), spec, 100.0)  # a light set, dimly lit
    assert not dark_plates(*_faces(ink=250, plate=130), spec, 100.0)  # plates too light
    image, dets = _faces(ink=230, plate=40)
    backs = [replace(d, alternatives=(("back", 0.9),)) for d in dets]
    assert not dark_plates(image, backs, spec, 100.0)  # no faces to judge by


def _read(hand: str, confidence: float, dora: tuple = ()) -> PhotoResult:
    reading = SimpleNamespace(layout=SimpleNamespace(hand_text=hand, dora=dora, ura=()),
                              confidence=confidence, corrections=())
    return PhotoResult("", 1920, 1080, reading=reading)


def test_the_firm_inverted_hand_takes_its_indicators_from_readings_that_agree_on_it():
    from agari.retry import DEFAULT_RETRY, retried

    shaky = "123m456p789s11z33z3z"
    first = _read(shaky, 0.4)
    again = [lambda: _read(HAND, 0.9), lambda: _read(shaky, 0.9), lambda: _read(shaky, 0.9),
             lambda: _read(HAND, 0.9, ("5z",)), lambda: _read(HAND, 0.9, ("5z",))]
    got = retried(first, again, DEFAULT_RETRY, turned=1)
    assert got.reading.layout.hand_text == HAND and got.reading.layout.dora == ("5z",)
    # No other reading of its hand: the inverted one itself.
    got = retried(first, again[:3], DEFAULT_RETRY, turned=1)
    assert got.reading.layout.hand_text == HAND and got.reading.layout.dora == ()
    # Not an inverted reading (or the option off): the plain ones' agreement stands.
    assert retried(first, again[:3], DEFAULT_RETRY).reading.layout.hand_text == shaky
    off = replace(DEFAULT_RETRY, inverted_firm=False)
    assert retried(first, again[:3], off, turned=1).reading.layout.hand_text == shaky
