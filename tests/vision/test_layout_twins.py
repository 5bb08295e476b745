"""`LayoutConfig.twins`: one tile framed twice is laid once (`agari.vision.layout_twins`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from agari.engine import Rules, WinContext
from agari.vision.detection import TileDetection
from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from agari.vision.layout_twins import twins
from agari.vision.reading import read_hand
from agari.vision.reading_checks import Situation
from layout_factories import lay_out, with_alternatives

TWINS = replace(DEFAULT_LAYOUT, twins=0.6)
SITUATION = Situation(Rules.preset("tenhou"), WinContext(tsumo=True))


def shifted(det: TileDetection, dx: float, dy: float, p: float) -> TileDetection:
    """``det`` framed again a little off, named the same with ``p``."""
    quad = tuple((x + dx, y + dy) for x, y in det.quad)
    return with_alternatives(replace(det, quad=quad), [(det.label_name, p)])


def test_off_by_default():
    assert DEFAULT_LAYOUT.twins is None


def grown(det: TileDetection, by: float) -> TileDetection:
    """``det`` framed again ``by`` pixels larger on every side."""
    (x0, y0), (x1, y1) = np.min(det.quad, axis=0), np.max(det.quad, axis=0)
    quad = ((x0 - by, y0 - by), (x1 + by, y0 - by), (x1 + by, y1 + by), (x0 - by, y1 + by))
    return replace(det, quad=tuple(map(tuple, quad)))


def test_the_larger_of_two_overlapping_boxes_of_one_name_is_left_out():
    laid = lay_out("123m456p789s1122z", "2z")
    dets = list(laid.dets)
    dets.append(grown(dets[4], 3.0))  # 5p again, round its front side too
    assert twins(dets, range(len(dets)), 0.6) == {len(dets) - 1}
    dets[4], dets[-1] = dets[-1], dets[4]
    assert twins(dets, range(len(dets)), 0.6) == {4}  # the tighter box stays


@pytest.mark.parametrize("name, dx", [("6p", 3.0), ("5p", 20.0)])
def test_another_name_or_a_box_well_off_is_no_twin(name, dx):
    laid = lay_out("123m456p789s1122z", "2z")
    dets = list(laid.dets)
    dets.append(with_alternatives(shifted(dets[4], dx, 0.0, 0.8), [(name, 0.8)]))
    assert twins(dets, range(len(dets)), 0.6) == set()


def test_an_added_kans_stack_is_no_twin():
    laid = lay_out("123m456p11z", "1z", melds=(("shouminkan", "5555s", 1),))
    assert twins(laid.dets, range(len(laid.dets)), 0.6) == set()
    plan = analyse_layout(list(laid.dets), config=TWINS)[0]
    assert [m.kind for m in plan.melds] == ["added_kan"]


def test_a_meld_tile_framed_twice_reads_as_the_meld():
    # A pon's called (sideways) tile framed twice: in one column the two read as an added
    # kan's stack, and the pon as no set.
    laid = lay_out("123m456p789s1z", "1z", melds=(("pon", "555s", 1),))
    called = [i for i, r in enumerate(laid.roles) if r == "meld 1"][1]
    dets = [*laid.dets, shifted(laid.dets[called], 2.0, -1.5, 0.9)]
    plain = analyse_layout(dets)[0]
    assert len(plain.melds[0].detections) == 4
    plan = analyse_layout(dets, config=TWINS)[0]
    assert sorted(plan.melds[0].detections) == sorted(
        i for i, r in enumerate(laid.roles) if r == "meld 1")
    assert len(dets) - 1 in plan.others
    got = read_hand(dets, analyse_layout(dets, config=TWINS), SITUATION)
    assert got.layout.hand_text == "123m456p789s1z1z 555s"
    assert np.isclose(got.confidence, 1.0)
