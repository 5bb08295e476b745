"""`RetryConfig.lone`: where the first reading made no hand and only one reading again made
one, that hand is taken unless it overruled the classifier on more tiles than allowed."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from agari.engine import Rules, WinContext
from agari.engine.errors import InvalidHand
from agari.vision.reading_checks import Situation

from agari.pipeline import DEFAULT_PIPELINE, PhotoResult, PipelineConfig, read_photo
from agari.retry import RetryConfig, retried

SITUATION = Situation(Rules.preset("tenhou"), WinContext())
PHOTO = np.zeros((1080, 1920, 3), np.uint8)
FIRST = DEFAULT_PIPELINE.locate.max_pixels
HAND = "123m456p789s11z22z2z"
LONE = PipelineConfig(retry=RetryConfig(lone=True))


class _Eye:
    def classify_detections(self, image, dets, *, top_k=5):
        return dets


def reading(hand: str, *, confidence: float = 0.4, corrections: tuple = ()) -> SimpleNamespace:
    """A stand-in `Reading`, far from sure."""
    return SimpleNamespace(layout=SimpleNamespace(hand_text=hand, dora=(), ura=()),
                           confidence=confidence, corrections=corrections)


@pytest.fixture
def scales(photo_scales):
    """Stages 1-4 stubbed (`photo_scales`): a reading per working-image cap, else "no hand"."""
    asked, hands, _ = photo_scales
    return asked, hands


def test_the_only_hand_made_again_is_taken(scales):
    asked, hands = scales
    hands[0.5e6] = reading(HAND)
    result = read_photo(PHOTO, SITUATION, classifier=_Eye())  # on by default
    assert asked == [FIRST, 0.7e6, 0.5e6, 1.4e6]  # every other reading is asked first
    assert result.reading is hands[0.5e6] and result.error is None
    assert any("only one other made one" in note for note in result.notes)


def test_off_the_only_hand_made_again_is_not_taken(scales):
    _, hands = scales
    hands[0.5e6] = reading(HAND)
    off = PipelineConfig(retry=RetryConfig(lone=False))
    result = read_photo(PHOTO, SITUATION, classifier=_Eye(), config=off)
    assert result.reading is None and isinstance(result.error, InvalidHand)


def test_a_lone_hand_overruling_the_classifier_is_not_taken(scales):
    _, hands = scales
    hands[1.4e6] = reading(HAND, corrections=((3, "4s", "5s"),))
    result = read_photo(PHOTO, SITUATION, classifier=_Eye(), config=LONE)
    assert result.reading is None
    one = PipelineConfig(retry=RetryConfig(lone=True, lone_corrections=1))
    assert read_photo(PHOTO, SITUATION, classifier=_Eye(), config=one).reading is hands[1.4e6]


def test_two_hands_made_again_that_differ_leave_no_lone_one(scales):
    _, hands = scales
    hands[0.7e6] = reading(HAND)
    hands[1.4e6] = reading("123m456p789s11z33z3z")
    result = read_photo(PHOTO, SITUATION, classifier=_Eye(), config=LONE)
    assert result.reading is None and isinstance(result.error, InvalidHand)


def test_a_first_hand_read_shakily_is_not_replaced_by_a_lone_one():
    first = PhotoResult("", 1920, 1080, reading=reading("123m456p789s11z33z3z"))
    other = PhotoResult("", 1920, 1080, reading=reading(HAND))
    nothing = PhotoResult("", 1920, 1080, error=InvalidHand("got 12 tiles"))
    got = retried(first, [lambda: nothing, lambda: other], RetryConfig(lone=True))
    assert got.reading is first.reading


def test_without_the_sure_rule_the_last_reading_is_still_asked_for_a_lone_hand():
    asked = []

    def attempt(result):
        def run():
            asked.append(result)
            return result
        return run

    nothing = PhotoResult("", 1920, 1080, error=InvalidHand("got 12 tiles"))
    last = PhotoResult("", 1920, 1080, reading=reading(HAND))
    got = retried(nothing, [attempt(nothing), attempt(nothing), attempt(last)],
                  RetryConfig(lone=True, sure=None))
    assert len(asked) == 3 and got.reading is last.reading


def test_a_sure_hand_stays_sure_beside_the_same_hand_with_other_indicators():
    nothing = PhotoResult("", 1920, 1080, error=InvalidHand("got 12 tiles"))
    sure = PhotoResult("", 1920, 1080, reading=reading(HAND, confidence=1.0))
    again = PhotoResult("", 1920, 1080, reading=SimpleNamespace(
        layout=SimpleNamespace(hand_text=HAND, dora=("5z",), ura=()), confidence=0.5,
        corrections=()))
    other = PhotoResult("", 1920, 1080, reading=reading("123m456p789s11z33z3z", confidence=1.0))
    on, off = RetryConfig(), RetryConfig(sure_by_hand=False)
    assert retried(nothing, [lambda: sure, lambda: again], on).reading is sure.reading
    assert retried(nothing, [lambda: sure, lambda: again], off).reading is None
    assert retried(nothing, [lambda: sure, lambda: other], on).reading is None
