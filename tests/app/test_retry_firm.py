"""`RetryConfig.firm`: readings again that agree on a hand are taken at once only where one of
them is not itself doubtful; agreements of doubtful readings alone come last."""

from __future__ import annotations

from types import SimpleNamespace

from agari.engine.errors import InvalidHand

from agari.pipeline import PhotoResult
from agari.retry import DEFAULT_RETRY, RetryConfig, retried

SHAKY, TRUE = "123m456p789s11z33z3z", "123m456p789s11z22z2z"
OFF = RetryConfig(firm=False)


def photo(hand: str, confidence: float) -> PhotoResult:
    """A reading of ``hand``, doubtful below `RetryConfig.shaky_below`."""
    reading = SimpleNamespace(layout=SimpleNamespace(hand_text=hand, dora=(), ura=()),
                              confidence=confidence, corrections=())
    return PhotoResult("", 1920, 1080, reading=reading)


def hand(result) -> str:
    return result.reading.layout.hand_text


def test_two_scales_repeating_a_doubtful_hand_do_not_outvote_firm_readings():
    first = photo(SHAKY, 0.4)
    again = [lambda: photo(SHAKY, 0.4)] * 2 + [lambda: photo(TRUE, 0.9)] * 2
    assert hand(retried(first, again, DEFAULT_RETRY)) == TRUE
    assert hand(retried(first, again, OFF)) == SHAKY


def test_among_doubtful_agreements_the_first_reading_votes_for_its_own_hand():
    first = photo(SHAKY, 0.4)
    again = [lambda: photo(TRUE, 0.4)] * 2 + [lambda: photo(SHAKY, 0.4)] * 2
    assert hand(retried(first, again, DEFAULT_RETRY)) == SHAKY
    assert hand(retried(first, again, OFF)) == TRUE


def test_doubtful_readings_that_agree_are_still_taken_when_nothing_firmer_is_read():
    first = PhotoResult("", 1920, 1080, error=InvalidHand("got 13 tiles"))
    again = [lambda: photo(TRUE, 0.4)] * 2 + [lambda: first] * 2
    got = retried(first, again, DEFAULT_RETRY)
    assert hand(got) == TRUE and len(got.timings) == 4
    assert any("read again at 4" in note for note in got.notes)
