"""Re-framing the hand's unsure tiles: a box cut short at the top gets its row's height."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
from agari.engine.errors import InvalidInput
from agari.engine.tiles import parse_tiles
from agari.vision.detection import TileDetection
from agari.vision.hand_reframe import (
    DEFAULT_HAND_REFRAME,
    HandReframeConfig,
    reframe_hand,
    row_quad,
    unsure_hand_tiles,
)
from agari.vision.layout import DEFAULT_LAYOUT

ONE_MAN, NINE_PIN = parse_tiles("1m9p")
IMAGE = np.zeros((200, 400, 3), np.uint8)


def _box(x: float, top: float, bottom: float = 100.0, width: float = 40.0) -> np.ndarray:
    return np.array([[x, top], [x + width, top], [x + width, bottom], [x, bottom]])


def _det(q: np.ndarray, **kw) -> TileDetection:
    return TileDetection(tuple((float(x), float(y)) for x, y in q), **kw)


def _classify(image, dets):
    """A stand-in classifier: a box at least 55 px tall reads 1m surely, a shorter one 9p
    unsurely (as a crop missing the top of its face does)."""
    out = []
    for d in dets:
        q = np.asarray(d.quad)
        tall = (q[3, 1] - q[0, 1]) >= 55
        out.append(replace(d, label=ONE_MAN if tall else NINE_PIN,
                           confidence=0.95 if tall else 0.3))
    return out


def test_row_quad_gives_a_short_box_its_mates_height_keeping_its_bottom():
    mates = [_box(0, 40), _box(90, 40)]
    q = row_quad(_box(45, 70), mates)
    assert q is not None
    np.testing.assert_allclose(q[:, 1], [40, 40, 100, 100])
    np.testing.assert_allclose(q[:, 0], [45, 85, 85, 45])


def test_row_quad_needs_two_mates():
    assert row_quad(_box(45, 70), [_box(0, 40)]) is None


def test_only_upright_faces_read_unsurely_in_the_hand_are_chosen():
    dets = _classify(IMAGE, [_det(_box(0, 40)), _det(_box(45, 70)), _det(_box(90, 70)),
                             _det(_box(135, 70), sideways=True)])
    assert unsure_hand_tiles(dets, [0, 1, 3], 0.5) == {1}


def test_a_hand_tile_cut_short_is_read_through_its_rows_height():
    dets = _classify(IMAGE, [_det(_box(x, 70 if x == 90 else 40)) for x in (0, 45, 90, 135)])
    plan = SimpleNamespace(concealed=(0, 1, 2), win=3)
    out, plans = reframe_hand(IMAGE, dets, _classify, plans=[plan], layout=DEFAULT_LAYOUT)
    assert plans is None  # changed: the layout is made again
    assert out[2].label == ONE_MAN and out[2].confidence == pytest.approx(0.95)
    assert out[2].quad == dets[2].quad  # the locator's shape is kept for the layout
    assert out[:2] == dets[:2] and out[3] == dets[3]


def test_tiles_outside_the_hand_and_without_row_fit_are_left_alone():
    dets = _classify(IMAGE, [_det(_box(x, 70 if x == 90 else 40)) for x in (0, 45, 90, 135)])
    plan = SimpleNamespace(concealed=(0, 1, 3), win=None)
    out, plans = reframe_hand(IMAGE, dets, _classify, plans=[plan], layout=DEFAULT_LAYOUT)
    assert out == dets and plans == [plan]
    plan = SimpleNamespace(concealed=(0, 1, 2, 3), win=None)
    off = replace(DEFAULT_HAND_REFRAME, row_fit=False)
    out, _ = reframe_hand(IMAGE, dets, _classify, plans=[plan], layout=DEFAULT_LAYOUT,
                          config=off)
    assert out[2].label == NINE_PIN


def test_bad_threshold_is_refused():
    with pytest.raises(InvalidInput):
        HandReframeConfig(below=1.5)
