"""Hand tiles boxed lying otherwise than the hand read by both cuts (`reading_cuts.hand_cuts`,
`RepairConfig.hand_cuts`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from agari.engine import Rules, WinContext
from agari.vision.layout import analyse_layout
from agari.vision.reading_checks import Situation
from agari.vision.reading_cuts import as_laid, hand_cuts, other_cuts
from agari.vision.reading_repair import (
    HAND_CUT_NOTE,
    UPRIGHT_FIX,
    RepairConfig,
    by_hand_cuts,
    read_with_repairs,
)
from layout_factories import lay_out, with_alternatives

IMAGE = np.zeros((8, 8, 3), np.uint8)  # the stub classifier looks at flags, not pixels
SITUATION = Situation(Rules.preset("tenhou"), WinContext(riichi=True))
NINE = 8  # the 9s of 123m456p789s1122z


def upright_reader(name: str, p: float):
    """Reads every crop as ``name`` (only crops cut upright are asked for); counts them."""
    asked = []

    def classify(image, dets):
        asked.extend(dets)
        return [with_alternatives(d, [(name, p), ("none", 1 - p)]) for d in dets]
    classify.asked = asked
    return classify


def hand_with_a_nine_boxed_sideways():
    """A 9s standing in the concealed row that the locator flagged sideways: cut so, it reads
    9p (as 1030096's 9p read 9s). Its neighbours 7s 8s read surely, with 7p 8p far behind:
    the 9p makes a hand only by overruling a sure tile."""
    dets = list(lay_out("123m456p789s1122z", "2z").dets)
    dets[NINE] = with_alternatives(replace(dets[NINE], sideways=True),
                                   [("9p", 0.93), ("6s", 0.01)])
    dets[6] = with_alternatives(dets[6], [("7s", 0.95), ("7p", 0.01)])
    dets[7] = with_alternatives(dets[7], [("8s", 0.95), ("8p", 0.01)])
    return dets


def test_a_hand_tile_boxed_sideways_is_cut_upright_too():
    dets = hand_with_a_nine_boxed_sideways()
    plans = analyse_layout(dets)
    eye = upright_reader("9s", 0.9)
    cuts = hand_cuts(IMAGE, dets, plans, eye)
    assert list(cuts) == [(NINE, None)]
    assert not cuts[(NINE, None)].sideways and str(cuts[(NINE, None)].label) == "9s"
    assert [d.sideways for d in eye.asked] == [False]
    # other_cuts hands them on under their own keys, which the meld reading leaves alone.
    every = other_cuts(IMAGE, dets, plans, upright_reader("9s", 0.9))
    assert (NINE, None) in every
    alone = {k: v for k, v in every.items() if k[1] is None}
    assert all(as_laid(dets, p, alone) is dets for p in plans)


def test_a_hand_read_upright_needs_no_cut():
    dets = list(lay_out("123m456p789s1122z", "2z").dets)
    eye = upright_reader("9s", 0.9)
    assert hand_cuts(IMAGE, dets, analyse_layout(dets), eye) == {} and not eye.asked


def test_overruling_a_sure_tile_reads_the_hand_by_both_cuts():
    # The 9s framed a quarter off (as a tile left in a row of its own is), not flagged: the
    # layout keeps it in the row, and the reading overrules its sure 9p to make a hand.
    dets = hand_with_a_nine_boxed_sideways()
    q = dets[NINE].quad
    dets[NINE] = replace(dets[NINE], sideways=False, quad=(q[1], q[2], q[3], q[0]))
    cuts = other_cuts(IMAGE, dets, analyse_layout(dets), upright_reader("9s", 0.9))
    assert list(cuts) == [(NINE, None)]
    off = read_with_repairs(dets, SITUATION, cuts=cuts, repair=RepairConfig(hand_cuts=None))
    assert off.reading.layout.hand_text == "123m456p678s1122z2z" and off.notes == ()
    on = read_with_repairs(dets, SITUATION, cuts=cuts, repair=RepairConfig(hand_cuts=0.9))
    assert on.reading.layout.hand_text == "123m456p789s1122z2z"
    assert on.notes == (HAND_CUT_NOTE,)
    # The overruled tile was read at 0.93: a floor above that leaves the reading alone.
    above = read_with_repairs(dets, SITUATION, cuts=cuts, repair=RepairConfig(hand_cuts=0.95))
    assert above.reading.layout.hand_text == "123m456p678s1122z2z"


def test_a_tile_boxed_sideways_read_upright_by_a_repair_is_cut_upright():
    # Flagged sideways, the 9 makes no plan's hand; the repair that reads sideways tiles as
    # upright reads it by its upright cut too.
    dets = hand_with_a_nine_boxed_sideways()
    cuts = other_cuts(IMAGE, dets, analyse_layout(dets), upright_reader("9s", 0.9))
    off = read_with_repairs(dets, SITUATION, cuts=cuts, repair=RepairConfig(hand_cuts=None))
    assert off.reading.layout.hand_text == "123m456p678s1122z2z"
    on = read_with_repairs(dets, SITUATION, cuts=cuts, repair=RepairConfig(hand_cuts=0.9))
    assert on.reading.layout.hand_text == "123m456p789s1122z2z"
    assert on.notes == (UPRIGHT_FIX[3],)


def test_a_cut_naming_the_same_tile_changes_nothing():
    dets = tuple(hand_with_a_nine_boxed_sideways())
    cuts = hand_cuts(IMAGE, dets, analyse_layout(list(dets)), upright_reader("9p", 0.99))
    assert by_hand_cuts(dets, cuts) is dets
    assert by_hand_cuts(dets, {}) is dets
