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


def scoring(hand: str, confidence: float, corrections: int = 0,
            level: str = "scores") -> PhotoResult:
    got = photo(hand, confidence)
    got.reading.level = level
    got.reading.corrections = ((0, "3s", "4s"),) * corrections
    return got


NONE = PhotoResult("", 1920, 1080, error=InvalidHand("got 12 tiles"))
ALONE_OFF = RetryConfig(firm_alone=False)


def test_one_firm_reading_of_another_hand_beats_a_doubtful_hand_only_repeated():
    # 1020003: two scales read the shaky first hand again, one read the true hand at 0.89.
    first = photo(SHAKY, 0.4)
    again = [lambda: photo(SHAKY, 0.4)] * 2 + [lambda: scoring(TRUE, 0.9), lambda: NONE]
    got = retried(first, again, DEFAULT_RETRY)
    assert hand(got) == TRUE and any("firmly" in note for note in got.notes)
    assert hand(retried(first, again, ALONE_OFF)) == SHAKY
    # Where no other reading made a hand at all, too.
    assert hand(retried(first, [lambda: scoring(TRUE, 0.9), lambda: NONE], DEFAULT_RETRY)) \
        == TRUE


def test_the_other_reading_must_score_and_overrule_nothing():
    first = photo(SHAKY, 0.4)
    for other in (scoring(TRUE, 0.9, level="winning shape"), scoring(TRUE, 0.9, corrections=1),
                  scoring(TRUE, 0.4)):
        again = [lambda: photo(SHAKY, 0.4), lambda o=other: o]
        assert hand(retried(first, again, DEFAULT_RETRY)) == SHAKY


def test_not_against_a_firm_repeat_of_the_first_hand_or_a_third_hand():
    first = photo(SHAKY, 0.4)
    repeated = scoring(SHAKY, 0.9, corrections=2)  # firm but overruling: confirms nothing
    again = [lambda: repeated, lambda: scoring(TRUE, 0.9)]
    assert hand(retried(first, again, DEFAULT_RETRY)) == SHAKY
    third = [lambda: scoring(TRUE, 0.9), lambda: photo("123m456p789s11z44z4z", 0.4)]
    assert hand(retried(first, third, DEFAULT_RETRY)) == SHAKY


def test_not_where_the_first_reading_made_no_hand():
    again = [lambda: scoring(TRUE, 0.9), lambda: photo(SHAKY, 0.4)]
    assert retried(NONE, again, DEFAULT_RETRY).error is not None
