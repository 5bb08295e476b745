"""`read_photo` reads a photo that made no hand again at other working scales, and takes a
hand only where two scales agree on it."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from agari.engine import Rules, WinContext
from agari.engine.errors import InvalidHand, NotAgari, NoTiles, NoYaku
from agari.vision.reading_checks import Situation

from agari.pipeline import DEFAULT_PIPELINE, PipelineConfig, RetryConfig, read_photo

SITUATION = Situation(Rules.preset("tenhou"), WinContext())
PHOTO = np.zeros((1080, 1920, 3), np.uint8)
FIRST = DEFAULT_PIPELINE.locate.max_pixels


class _Eye:
    def classify_detections(self, image, dets, *, top_k=5):
        return dets


EYE = _Eye()


def reading(hand: str, dora: tuple[str, ...] = (), *, confidence: float = 0.8,
            corrections: tuple = ()) -> SimpleNamespace:
    """A stand-in `Reading`; by default not sure enough to be taken alone."""
    return SimpleNamespace(layout=SimpleNamespace(hand_text=hand, dora=dora, ura=()),
                           confidence=confidence, corrections=corrections)


@pytest.fixture
def scales(photo_scales):
    return photo_scales


def test_a_photo_that_makes_a_hand_is_read_once(scales):
    asked, hands, _ = scales
    hands[FIRST] = reading("123m456p789s11z22z2z")
    result = read_photo(PHOTO, SITUATION, classifier=EYE)
    assert asked == [FIRST] and result.reading is hands[FIRST]
    assert not any(stage.startswith("retry") for stage, _ in result.timings)


def test_a_hand_two_other_scales_agree_on_is_taken(scales):
    asked, hands, failure = scales
    hands[0.7e6] = reading("123m456p789s11z22z2z")
    hands[0.5e6] = reading("123m456p789s11z22z2z", dora=("5z",))  # other indicators: no twin
    hands[1.4e6] = reading("123m456p789s11z22z2z")
    result = read_photo(PHOTO, SITUATION, classifier=EYE)
    assert asked == [FIRST, 0.7e6, 0.5e6, 1.4e6]
    assert result.reading is hands[1.4e6] and result.error is None
    assert [s for s, _ in result.timings if s.startswith("retry")] == ["retry 1", "retry 2",
                                                                       "retry 3"]
    assert len(failure["nets"]) == 1  # the net reads the photo at its own size: once
    assert any("other scale" in note for note in result.notes)


def test_no_more_readings_once_no_hand_can_be_picked(scales):
    asked, hands, _ = scales
    hands[0.7e6] = reading("123m456p789s11z22z2z")  # a hand, not sure enough to stand alone
    hands[0.5e6] = reading("123m456p789s11z33z3z", confidence=1.0)  # another: none alone
    hands[0.6e6] = reading("123m456p789s11z22z2z", confidence=1.0)  # never asked
    config = PipelineConfig(retry=RetryConfig(max_pixels=(0.7e6, 1.4e6, 0.5e6, 0.6e6),
                                              agree=3))
    result = read_photo(PHOTO, SITUATION, classifier=EYE, config=config)
    assert asked == [FIRST, 0.7e6, 1.4e6, 0.5e6]  # 0.6e6 could not make three votes
    assert result.reading is None


def test_without_the_sure_rule_the_last_reading_alone_is_not_asked(scales):
    asked, hands, _ = scales
    hands[1.4e6] = reading("123m456p789s11z22z2z", confidence=1.0)
    result = read_photo(PHOTO, SITUATION, classifier=EYE,
                        config=PipelineConfig(retry=RetryConfig(sure=None, lone=False)))
    assert asked == [FIRST, 0.7e6, 0.5e6]
    assert result.reading is None


def test_one_sure_reading_is_taken_where_none_agree(scales):
    asked, hands, _ = scales
    hands[1.4e6] = reading("123m456p789s11z22z2z", confidence=1.0)
    result = read_photo(PHOTO, SITUATION, classifier=EYE)
    assert asked == [FIRST, 0.7e6, 0.5e6, 1.4e6]
    assert result.reading is hands[1.4e6] and result.error is None
    assert any("sure of every tile" in note for note in result.notes)


@pytest.mark.parametrize("confidence, corrections", [
    (0.9, ()),                      # other readings of its tiles nearly as likely
    (1.0, ((3, "4s", "5s"),)),      # the hand made only by overruling the classifier
])
def test_a_single_reading_less_than_sure_is_not_taken(scales, confidence, corrections):
    _, hands, _ = scales
    hands[1.4e6] = reading("123m456p789s11z22z2z", confidence=confidence,
                           corrections=corrections)
    # Without the lone rule (`RetryConfig.lone`, tests/app/test_retry_lone.py).
    result = read_photo(PHOTO, SITUATION, classifier=EYE,
                        config=PipelineConfig(retry=RetryConfig(lone=False)))
    assert result.reading is None and isinstance(result.error, InvalidHand)


def test_a_sure_reading_another_contradicts_is_not_taken(scales):
    asked, hands, _ = scales
    hands[0.7e6] = reading("123m456p789s11z22z2z", confidence=1.0)
    hands[1.4e6] = reading("123m456p789s11z33z3z")
    result = read_photo(PHOTO, SITUATION, classifier=EYE)
    assert asked == [FIRST, 0.7e6, 0.5e6, 1.4e6]
    assert result.reading is None


def test_readings_that_do_not_agree_leave_the_first_answer(scales):
    asked, hands, _ = scales
    hands[0.7e6] = reading("123m456p789s11z22z2z")
    hands[0.5e6] = reading("123m456p789s11z33z3z")
    result = read_photo(PHOTO, SITUATION, classifier=EYE)
    assert len(asked) == 4
    assert result.reading is None and isinstance(result.error, InvalidHand)
    assert sum(s.startswith("retry") for s, _ in result.timings) == 3


def test_no_retry_with_a_callers_locator_or_when_turned_off(scales):
    asked, hands, _ = scales
    hands[0.7e6] = hands[0.5e6] = reading("123m456p789s11z22z2z")
    mine = read_photo(PHOTO, SITUATION, classifier=EYE, locator=lambda image: FIRST)
    off = read_photo(PHOTO, SITUATION, classifier=EYE, config=PipelineConfig(retry=None))
    assert asked == [FIRST, FIRST]
    assert mine.reading is None and off.reading is None


def test_caps_that_bind_neither_reading_are_not_tried(scales):
    asked, hands, _ = scales
    small = np.zeros((400, 500, 3), np.uint8)  # 0.2 MP, enlarged at most 2x: 0.8 MP
    hands[0.7e6] = reading("123m456p789s11z22z2z")
    config = PipelineConfig(retry=RetryConfig(max_pixels=(0.7e6, 1.4e6, 0.5e6)))
    read_photo(small, SITUATION, classifier=EYE, config=config)
    assert asked == [FIRST, 0.7e6, 0.5e6]


@pytest.mark.parametrize("error, retried", [
    (NotAgari("not a winning hand"), True),   # tiles misread into no win
    (NoYaku("no yaku"), False),               # a legal hand: the situation gives nothing
])
def test_which_failures_are_read_again(scales, error, retried):
    asked, hands, failure = scales
    failure["error"] = error
    read_photo(PHOTO, SITUATION, classifier=EYE)
    assert (len(asked) > 1) is retried


def test_a_photo_with_no_tile_at_the_first_scale_is_read_at_the_others(scales):
    asked, hands, failure = scales
    failure["no_tile_at"] = {FIRST, 0.5e6}  # a tiny hand, or one blurred at some scales
    hands[0.7e6] = hands[1.4e6] = reading("123m456p789s11z22z2z")
    result = read_photo(PHOTO, SITUATION, classifier=EYE)
    assert asked == [FIRST, 0.7e6, 0.5e6, 1.4e6]
    assert result.reading is hands[1.4e6] and result.error is None


def test_no_tile_at_any_scale_is_still_no_tiles(scales):
    asked, _, failure = scales
    failure["no_tile_at"] = {FIRST, 0.7e6, 0.5e6, 1.4e6}
    with pytest.raises(NoTiles):
        read_photo(PHOTO, SITUATION, classifier=EYE)
    assert asked == [FIRST, 0.7e6, 0.5e6, 1.4e6]  # the last might be one sure reading


def test_no_tile_with_a_callers_locator_is_not_read_again(scales):
    asked, _, failure = scales
    failure["no_tile_at"] = {FIRST}
    with pytest.raises(NoTiles):
        read_photo(PHOTO, SITUATION, classifier=EYE, locator=lambda image: FIRST)
    assert asked == [FIRST]
