"""`RetryConfig.by_hand` / `same_tiles`: a hand is shaky by its own doubt, not by doubt about
its indicators (nor, once complete, by an equally probable plan of its very tiles)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from agari.pipeline import PhotoResult
from agari.retry import DEFAULT_RETRY, RetryConfig, hand_confidence, no_hand

HAND = "123m456p789s11z22z2z"
BY_HAND = RetryConfig(by_hand=True, same_tiles=False)
SAME = RetryConfig(by_hand=True, same_tiles=True)


def one(hand: str, cost: float, tiles=((0, "1m"),)) -> SimpleNamespace:
    return SimpleNamespace(layout=SimpleNamespace(hand_text=hand), cost=cost, tiles=tiles)


def reading(best, *alternatives, level: str = "scores") -> SimpleNamespace:
    pool = (best, *alternatives)
    share = 1.0 / sum(math.exp(best.cost - r.cost) for r in pool)
    return SimpleNamespace(
        best=best, layout=best.layout, alternatives=alternatives, confidence=share,
        corrections=(), level=level, relative=lambda r: math.exp(best.cost - r.cost))


def result(r) -> PhotoResult:
    return PhotoResult("", 1920, 1080, reading=r)


def test_on_by_default():
    assert DEFAULT_RETRY.by_hand is True and DEFAULT_RETRY.same_tiles is True


def test_rivals_in_the_indicators_only_leave_the_hand_sure():
    # The same hand with the dora read two ways, equally likely: 0.5 each.
    r = reading(one(HAND, 1.0), one(HAND, 1.0))
    assert r.confidence == pytest.approx(0.5)
    assert hand_confidence(r) == pytest.approx(1.0)
    assert no_hand(result(r), RetryConfig(by_hand=False))
    assert not no_hand(result(r), BY_HAND)


def test_a_rival_hand_still_makes_it_shaky():
    r = reading(one(HAND, 1.0), one("123m456p789s11z33z3z", 1.0))
    assert hand_confidence(r) == pytest.approx(0.5)
    assert no_hand(result(r), BY_HAND)


def test_the_same_tiles_in_another_plan_count_only_in_a_complete_hand():
    tiles = ((0, "2z"), (1, "2z"), (2, "2z"))
    best, other = one(HAND, 1.0, tiles), one("123m456p789s11z 222z", 1.0, tiles)
    assert no_hand(result(reading(best, other)), BY_HAND)  # another hand: counted against
    assert not no_hand(result(reading(best, other)), SAME)
    waiting = reading(best, other, level="winning shape")
    assert no_hand(result(waiting), SAME)  # its winning tile may be the one lost


def test_other_tiles_in_another_plan_still_count_against():
    best = one(HAND, 1.0, ((0, "2z"),))
    other = one("123m456p789s11z 222z", 1.0, ((0, "3z"),))
    assert no_hand(result(reading(best, other)), SAME)
