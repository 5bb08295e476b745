"""A photo that made no hand is also read in crops round the tiles the first reading gave a
role (`agari.retry`): where the crop lies, how its tiles come back, and when it is tried."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
from agari.engine import Rules, WinContext
from agari.engine.errors import InvalidHand
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection
from agari.vision.reading_checks import Situation

from agari.pipeline import PipelineConfig, read_photo
from agari.retry import RetryConfig, ZoomConfig, hand_region, in_region

FIVE = Tile.parse("5p")
SITUATION = Situation(Rules.preset("tenhou"), WinContext())
SIZE = (1920, 1080)


def tile(x: float, y: float, w: float = 20.0, h: float = 28.0, label=FIVE,
         confidence: float = 0.95) -> TileDetection:
    return TileDetection(((x, y), (x + w, y), (x + w, y + h), (x, y + h)), label=label,
                         confidence=confidence)


ROW = [tile(800 + 20 * i, 500) for i in range(5)]  # 100 x 28 px, tiles 28 px long


def test_the_crop_is_the_role_tiles_box_with_margins_in_tile_lengths():
    box = hand_region(ROW, ["concealed"] * 5, SIZE, ZoomConfig(margin_x=3.0, margin_y=1.5))
    # 3 x 28 = 84 px left and right, 1.5 x 28 = 42 px above and below
    assert box == (716, 458, 985, 571)


def test_a_wide_hand_gets_a_margin_of_its_own_extent():
    row = [tile(300 + 20 * i, 500) for i in range(60)]  # 1200 px: 15 % is 180 px > 3 x 28
    box = hand_region(row, ["concealed"] * 60, SIZE, ZoomConfig(margin_x=3.0, margin_y=1.5,
                                                                min_share=0.15))
    assert box[0] == 300 - 180 and box[2] == 1500 + 180 + 1


def test_faces_outside_the_hand_widen_the_crop_only_when_asked():
    dets = [*ROW, tile(1500, 700)]  # a meld the layout left out
    roles = ["concealed"] * 5 + ["other"]
    plain = hand_region(dets, roles, SIZE, ZoomConfig(margin_x=1.0, margin_y=1.0))
    wide = hand_region(dets, roles, SIZE, ZoomConfig(margin_x=1.0, margin_y=1.0, faces=True))
    assert plain[2] < 1500 and wide[2] > 1520 and wide[3] > 728
    unsure = [*ROW, tile(1500, 700, confidence=0.3)]
    assert hand_region(unsure, roles, SIZE, ZoomConfig(1.0, 1.0, faces=True)) == plain


def test_no_crop_from_too_few_tiles_or_when_it_would_be_the_photo():
    assert hand_region(ROW[:2], ["concealed"] * 2, SIZE, ZoomConfig(3.0, 1.5)) is None
    spread = [tile(0, 0), tile(1900, 0), tile(0, 1050), tile(1900, 1050)]
    assert hand_region(spread, ["concealed"] * 4, SIZE, ZoomConfig(3.0, 1.5)) is None


def test_tiles_located_in_the_crop_come_back_in_the_photos_pixels():
    seen = []

    def locate(part):
        seen.append(part.shape)
        return [tile(5, 7)]

    photo = np.zeros((1080, 1920, 3), np.uint8)
    (det,) = in_region(locate, (700, 400, 1000, 600))(photo)
    assert seen == [(200, 300, 3)]
    assert det.quad[0] == (705.0, 407.0) and det.quad[2] == (725.0, 435.0)
    assert det.label == FIVE


@pytest.fixture
def crops(rereads):
    """The first reading finds ``ROW`` and makes no hand; a reading at another scale or of a
    crop gives ``hands[key]`` (key: the cap, or "crop" plus the crop's size), or no hand."""
    return rereads(ROW, lambda config, shape: config.max_pixels if shape == (1080, 1920)
                   else ("crop", shape))


EYE = SimpleNamespace(classify_detections=lambda image, dets, top_k=5: dets)
PHOTO = np.zeros((1080, 1920, 3), np.uint8)
ONE_ZOOM = PipelineConfig(retry=RetryConfig(max_pixels=(0.7e6, 1.4e6),
                                            zooms=(ZoomConfig(3.0, 1.5),)))


def test_a_crop_is_read_after_the_scales_and_can_make_the_agreement(crops):
    asked, hands = crops
    hands[1.4e6] = "123m456p789s11z22z2z"
    hands[("crop", (113, 269))] = "123m456p789s11z22z2z"
    result = read_photo(PHOTO, SITUATION, classifier=EYE, config=ONE_ZOOM)
    assert asked == [1.0e6, 0.7e6, 1.4e6, ("crop", (113, 269))]
    assert result.error is None and result.reading.layout.hand_text == "123m456p789s11z22z2z"
    assert any("crop" in note for note in result.notes)


def test_a_crop_alone_is_not_trusted(crops):
    asked, hands = crops
    hands[("crop", (113, 269))] = "123m456p789s11z22z2z"
    # Unless it is the only reading that makes a hand at all (`RetryConfig.lone`).
    config = replace(ONE_ZOOM, retry=replace(ONE_ZOOM.retry, lone=False))
    result = read_photo(PHOTO, SITUATION, classifier=EYE, config=config)
    assert result.reading is None and isinstance(result.error, InvalidHand)
    lone = read_photo(PHOTO, SITUATION, classifier=EYE, config=ONE_ZOOM)
    assert lone.error is None and lone.reading.layout.hand_text == "123m456p789s11z22z2z"


def test_two_zooms_giving_the_same_crop_read_it_once(crops):
    asked, _ = crops
    same = PipelineConfig(retry=RetryConfig(max_pixels=(0.7e6,), agree=1,
                                            zooms=(ZoomConfig(3.0, 1.5), ZoomConfig(3.0, 1.5))))
    read_photo(PHOTO, SITUATION, classifier=EYE, config=same)
    assert asked == [1.0e6, 0.7e6, ("crop", (113, 269))]
