"""`ReadingConfig.bare`: where no plan reads a winning shape, the plans are read again
without their indicators (a tile taken for one is counted among the hand's copies)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from agari.engine import Rules, WinContext
from agari.engine.errors import InvalidHand
from agari.vision.layout import analyse_layout
from agari.vision.reading import DEFAULT_READING, read_hand
from agari.vision.reading_checks import SHAPE, Situation
from layout_factories import lay_out, with_alternatives

SITUATION = Situation(Rules.preset("tenhou"), WinContext(riichi=True))
BARE = replace(DEFAULT_READING, bare=True)


def _laid(ura: str):
    # Four 1m in the hand: an ura read as a fifth 1m (a pond tile taken for one) leaves no
    # reading of the hand at all.
    laid = lay_out("111123m456p789s2z", "2z", dora="4p", ura=ura)
    plans = analyse_layout(list(laid.dets))
    assert plans[0].ura, "the layout reads the ura"
    return laid, plans


def test_on_by_default():
    assert DEFAULT_READING.bare is True


def test_an_ura_that_would_be_a_fifth_copy_is_left_out():
    laid, plans = _laid("1m")
    with pytest.raises(InvalidHand):
        read_hand(laid.dets, plans, SITUATION, config=replace(BARE, bare=False))
    got = read_hand(laid.dets, plans, SITUATION, config=BARE)
    assert got.best.level >= SHAPE
    assert got.layout.hand_text == "111123m456p789s2z2z"
    assert got.layout.ura == () and str(got.layout.dora[0]) == "4p"  # the dora kept


def test_a_hand_that_reads_with_its_indicators_keeps_them():
    laid, plans = _laid("5s")
    plain = read_hand(laid.dets, plans, SITUATION)
    got = read_hand(laid.dets, plans, SITUATION, config=BARE)
    assert got.layout == plain.layout and [str(t) for t in got.layout.ura] == ["5s"]


def test_not_where_the_hand_wins_only_against_the_classifier():
    # Without the ura the hand wins only with its 3m read as the classifier's second name:
    # left as it was (a real hand, not a winning one, was read into one so).
    laid, plans = _laid("1m")
    dets = list(laid.dets)
    dets[5] = with_alternatives(dets[5], [("4m", 0.6), ("3m", 0.4)])
    with pytest.raises(InvalidHand):
        read_hand(dets, plans, SITUATION, config=BARE)
