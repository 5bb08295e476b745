"""`no_hand`: a hand read with little confidence is read again like one that made none, and
is kept unless two other readings agree on another."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from agari.engine import Rules, WinContext
from agari.engine.errors import InvalidHand, NoYaku
from agari.vision.reading_checks import Situation

from agari.pipeline import DEFAULT_PIPELINE, PhotoResult, PipelineConfig, read_photo
from agari.retry import DEFAULT_RETRY, RetryConfig, no_hand

SITUATION = Situation(Rules.preset("tenhou"), WinContext())
PHOTO = np.zeros((1080, 1920, 3), np.uint8)
FIRST = DEFAULT_PIPELINE.locate.max_pixels
SHAKY = DEFAULT_RETRY.shaky_below / 2
SURE = (1.0 + DEFAULT_RETRY.shaky_below) / 2


def reading(hand: str, confidence: float = 1.0) -> SimpleNamespace:
    return SimpleNamespace(layout=SimpleNamespace(hand_text=hand, dora=(), ura=()),
                           confidence=confidence, corrections=())


def result(reading=None, error=None) -> PhotoResult:
    return PhotoResult("", 1920, 1080, reading=reading, error=error)


def test_the_default_reads_shaky_hands_again():
    assert 0.0 < DEFAULT_RETRY.shaky_below < 1.0


@pytest.mark.parametrize("got, expected", [
    (result(reading("123m456p789s11z22z2z", SHAKY)), True),
    (result(reading("123m456p789s11z22z2z", SURE)), False),
    (result(reading("123m456p789s11z22z2z", SHAKY), NoYaku("no yaku")), True),
    (result(error=InvalidHand("got 12 tiles")), True),
    (result(error=NoYaku("no yaku")), False),
])
def test_no_hand(got, expected):
    assert no_hand(got) is expected


def test_zero_never_counts_a_hand_as_none():
    assert not no_hand(result(reading("123m456p789s11z22z2z", 0.01)), RetryConfig(shaky_below=0))


@pytest.fixture
def scales(photo_scales):
    """Stages 1-4 stubbed (`photo_scales`): a reading per working-image cap, else "no hand"."""
    asked, hands, _ = photo_scales
    return asked, hands


class _Eye:
    def classify_detections(self, image, dets, *, top_k=5):
        return dets


def test_a_shaky_hand_gives_way_to_two_readings_that_agree(scales):
    asked, hands = scales
    hands[FIRST] = reading("123m456p789s11z22z2z", SHAKY)
    hands[0.7e6] = hands[0.5e6] = reading("123m456p789s11z33z3z")
    got = read_photo(PHOTO, SITUATION, classifier=_Eye())
    assert asked == [FIRST, 0.7e6, 0.5e6] and got.reading is hands[0.5e6]


def test_a_shaky_hand_no_two_readings_contradict_is_kept(scales):
    # Two other hands, each read once: neither is alone against the first (one firm reading
    # of one other hand would be taken, `RetryConfig.firm_alone`), and they disagree.
    asked, hands = scales
    hands[FIRST] = reading("123m456p789s11z22z2z", SHAKY)
    hands[0.7e6] = reading("123m456p789s11z33z3z", SURE)  # more sure, not sure alone
    hands[0.5e6] = reading("123m456p789s11z44z4z", SURE)
    for other in (hands[0.7e6], hands[0.5e6]):
        other.level = "scores"
    got = read_photo(PHOTO, SITUATION, classifier=_Eye())
    assert len(asked) > 1 and got.reading is hands[FIRST]


def test_a_shaky_hand_gives_way_to_one_sure_reading(scales):
    _, hands = scales
    hands[FIRST] = reading("123m456p789s11z22z2z", SHAKY)
    hands[0.7e6] = reading("123m456p789s11z33z3z", 1.0)
    assert read_photo(PHOTO, SITUATION, classifier=_Eye()).reading is hands[0.7e6]


def test_a_sure_hand_is_read_once(scales):
    asked, hands = scales
    hands[FIRST] = reading("123m456p789s11z22z2z", SURE)
    hands[0.7e6] = hands[1.4e6] = reading("123m456p789s11z33z3z")
    assert read_photo(PHOTO, SITUATION, classifier=_Eye()).reading is hands[FIRST]
    assert asked == [FIRST]


def _det(first: str):
    return SimpleNamespace(alternatives=((first, 0.6), ("4s", 0.2)))


def _on_quads(*firsts: str, corrections: int, confidence: float = 1.0,
              level: str = "scores") -> PhotoResult:
    """A hand read from quads the classifier named ``firsts``, each read as 4s."""
    sure = SimpleNamespace(layout=SimpleNamespace(hand_text="x", dora=(), ura=()),
                           confidence=confidence, corrections=((0, "none", "4s"),) * corrections,
                           level=level,
                           best=SimpleNamespace(tiles=tuple((i, "4s") for i in range(len(firsts)))))
    return PhotoResult("", 1920, 1080, detections=tuple(map(_det, firsts)), reading=sure)


def test_a_hand_built_on_a_quad_called_none_is_shaky_when_asked():
    got = _on_quads("4s", "none", "3m", corrections=2)
    clean = _on_quads("4s", "6s", corrections=0)
    asked = RetryConfig(shaky_unread=True)
    assert no_hand(got, asked) and not no_hand(clean, asked) and no_hand(got)
    assert not no_hand(got, RetryConfig(shaky_unread=False))


def test_a_sure_hand_whose_only_correction_is_the_quad_called_none_is_taken():
    # 960029: scores at 1.0, only the unread quad overruled: read again, kept anyway.
    alone = _on_quads("4s", "none", corrections=1)
    assert not no_hand(alone)
    assert no_hand(alone, RetryConfig(unread_alone=False))
    assert no_hand(_on_quads("4s", "none", corrections=1, confidence=SHAKY))
    # A real standing hand read its unread quad into a called run: only a winning shape.
    assert no_hand(_on_quads("4s", "none", corrections=1, level="winning shape"))


def test_one_reading_confirming_a_shaky_hand_settles_it(scales):
    asked, hands = scales
    first = reading("123m456p789s11z22z2z", SHAKY)
    hands[FIRST] = first
    hands[0.7e6] = reading("123m456p789s11z22z2z", SURE)  # not sure enough alone
    hands[0.5e6] = hands[1.4e6] = reading("123m456p789s11z33z3z")  # never asked
    config = PipelineConfig(retry=RetryConfig(confirm=1))
    got = read_photo(PHOTO, SITUATION, classifier=_Eye(), config=config)
    assert asked == [FIRST, 0.7e6] and got.reading is first
    assert any("made the same hand" in note for note in got.notes)


def test_a_reading_as_shaky_as_the_first_confirms_nothing(scales):
    asked, hands = scales
    hands[FIRST] = reading("123m456p789s11z22z2z", SHAKY)
    hands[0.7e6] = reading("123m456p789s11z22z2z", SHAKY)
    hands[0.5e6] = hands[1.4e6] = reading("123m456p789s11z33z3z")
    config = PipelineConfig(retry=RetryConfig(confirm=1))
    got = read_photo(PHOTO, SITUATION, classifier=_Eye(), config=config)
    assert asked == [FIRST, 0.7e6, 0.5e6, 1.4e6] and got.reading is hands[1.4e6]


def test_with_confirm_two_others_still_overrule_a_shaky_hand(scales):
    asked, hands = scales
    hands[FIRST] = reading("123m456p789s11z22z2z", SHAKY)
    hands[0.7e6] = hands[0.5e6] = reading("123m456p789s11z33z3z")
    config = PipelineConfig(retry=RetryConfig(confirm=1))
    got = read_photo(PHOTO, SITUATION, classifier=_Eye(), config=config)
    assert asked == [FIRST, 0.7e6, 0.5e6] and got.reading is hands[0.5e6]


def test_with_confirm_a_sure_reading_still_stands_alone(scales):
    _, hands = scales
    hands[FIRST] = reading("123m456p789s11z22z2z", SHAKY)
    hands[0.7e6] = reading("123m456p789s11z33z3z", 1.0)
    config = PipelineConfig(retry=RetryConfig(confirm=1))
    got = read_photo(PHOTO, SITUATION, classifier=_Eye(), config=config)
    assert got.reading is hands[0.7e6]


def test_a_reading_that_overruled_the_classifier_more_confirms_nothing(scales):
    asked, hands = scales
    hands[FIRST] = reading("123m456p789s11z22z2z", SHAKY)
    hands[0.7e6] = reading("123m456p789s11z22z2z")
    hands[0.7e6].corrections = ((1, "4s", "5s"), (2, "6s", "7s"))
    hands[0.5e6] = hands[1.4e6] = reading("123m456p789s11z33z3z")
    config = PipelineConfig(retry=RetryConfig(confirm=1))
    got = read_photo(PHOTO, SITUATION, classifier=_Eye(), config=config)
    assert asked == [FIRST, 0.7e6, 0.5e6, 1.4e6] and got.reading is hands[1.4e6]
