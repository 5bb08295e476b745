"""Meld tiles read as each plan lays them (`agari.vision.reading_cuts`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from agari.engine.context import WinContext
from agari.engine.errors import InvalidHand
from agari.engine.rules import Rules
from agari.vision.detection import TileDetection
from agari.vision.layout import analyse_layout
from agari.vision.reading import read_hand
from agari.vision.reading_checks import Situation
from agari.vision.reading_cuts import as_laid, either, other_cuts
from layout_factories import lay_out, with_alternatives

IMAGE = np.zeros((8, 8, 3), np.uint8)  # the stub classifier looks at flags, not pixels
SITUATION = Situation(Rules.preset("tenhou"), WinContext(tsumo=True))


def turned_reader(name: str, p: float):
    """Reads every tile cut sideways as ``name``; counts the crops it was shown."""
    asked: list[TileDetection] = []

    def classify(image, dets):
        asked.extend(dets)
        return [with_alternatives(d, ((name, p), ("none", 1 - p))) for d in dets]
    classify.asked = asked
    return classify


def hand_with_called_tile_cut_upright():
    """A pon of 8p whose called tile the locator cut upright, read as 6s (the squeezed
    face), as the classifier reads such crops."""
    laid = lay_out("123m456p789s11z", "1z", (("pon", "888p", 1),))
    dets = list(laid.dets)
    called = next(i for i, d in enumerate(dets) if d.sideways)
    dets[called] = with_alternatives(replace(dets[called], sideways=False),
                                     (("6s", 0.97), ("4s", 0.02)))
    return dets, called


def test_the_called_tile_is_read_again_cut_as_the_plan_lays_it():
    dets, called = hand_with_called_tile_cut_upright()
    plans = analyse_layout(dets)
    eye = turned_reader("8p", 0.93)
    cuts = other_cuts(IMAGE, dets, plans, eye)
    assert list(cuts) == [(called, True)]
    assert cuts[(called, True)].sideways and str(cuts[(called, True)].label) == "8p"
    assert [d.sideways for d in eye.asked] == [True]


def test_each_plan_reads_its_tiles_cut_its_way():
    dets, called = hand_with_called_tile_cut_upright()
    plans = analyse_layout(dets)
    with pytest.raises(InvalidHand):   # 8p 6s 8p is no set, and no other reading is
        read_hand(dets, plans, SITUATION)
    cuts = other_cuts(IMAGE, dets, plans, turned_reader("8p", 0.93))
    reading = read_hand(dets, plans, SITUATION, cuts=cuts)
    assert [(m.kind, "".join(str(t) for t in m.tiles)) for m in reading.layout.melds] \
        == [("pon", "8p8p8p")]


def test_a_cut_that_reads_the_same_tile_leaves_the_reading_alone():
    dets, called = hand_with_called_tile_cut_upright()
    plans = analyse_layout(dets)
    cuts = other_cuts(IMAGE, dets, plans, turned_reader("6s", 0.9))
    assert as_laid(dets, plans[0], cuts) is dets


def test_either_keeps_each_class_at_its_better_cut():
    upright = with_alternatives(lay_out("8p").dets[0], (("6s", 0.97), ("8p", 0.005),
                                                      ("4s", 0.01)))
    turned = replace(upright, sideways=True, alternatives=(("8p", 0.93), ("none", 0.05)))
    both = either(upright, turned)
    assert both.alternatives == (("6s", 0.97), ("8p", 0.93), ("none", 0.05))
    assert str(both.label) == "6s" and both.confidence == 0.97
    assert both.quad == upright.quad and not both.sideways
    unsure = with_alternatives(upright, (("6s", 0.4), ("none", 0.3), ("8p", 0.1)))
    assert str(either(unsure, turned).label) == "8p"
