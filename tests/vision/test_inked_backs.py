"""Backs with green ink (`agari.vision.inked_backs`): a 發 on dark-faced art the classifier
calls a back is given its 發 above the 白 a faced back is read as."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from agari.engine import Rules, WinContext
from agari.engine.tiles import BACK, Tile
from agari.vision.detection import TileDetection
from agari.vision.inked_backs import DEFAULT_INK, green_ink, inked_backs, with_green
from agari.vision.reading_checks import Situation
from agari.vision.reading_repair import read_with_repairs
from layout_factories import lay_out, with_alternatives

SURE_BACK = [(BACK, 0.9), ("none", 0.05), ("6z", 0.009), ("5z", 0.005), ("4z", 0.004)]
"""A dim 發 on a black face read as a back (tuning render 1040026)."""
SITUATION = Situation(Rules.preset("tenhou"), WinContext())


def _face(colour=(12, 12, 12), ink=None, size=(48, 36)) -> np.ndarray:
    img = np.full((*size, 3), colour, np.uint8)
    if ink is not None:
        img[14:34, 16:20] = ink  # a stroke down the centre
        img[22:25, 10:26] = ink
    return img


def test_dim_green_ink_on_a_dark_face_is_seen() -> None:
    assert green_ink(_face(ink=(10, 34, 14)))


def test_blank_dark_face_pale_face_and_coloured_backs_show_no_ink() -> None:
    assert not green_ink(_face())
    assert not green_ink(_face(colour=(200, 205, 200), ink=(60, 160, 60)))  # a lit face
    assert not green_ink(_face(colour=(150, 110, 40)))  # a blue back
    assert not green_ink(_face(colour=(40, 30, 120)))  # a red one


def test_a_green_dragon_taken_for_a_back_in_the_hand_reads_as_green() -> None:
    laid = lay_out(concealed="234m456p789s1z66z", win="1z")
    greens = [i for i, d in enumerate(laid.dets) if d.label == Tile.parse("6z")]
    for i in greens:
        laid.dets[i] = with_alternatives(laid.dets[i], SURE_BACK)
    as_white = read_with_repairs(laid.dets, SITUATION).reading.layout.hand_text
    assert as_white == "234m456p789s1155z"  # the 白 floor, without the ink
    for i in greens:
        laid.dets[i] = with_green(laid.dets[i], DEFAULT_INK.green_p)
    got = read_with_repairs(laid.dets, SITUATION).reading.layout
    assert got.hand_text == "234m456p789s1166z"


def test_only_backs_with_ink_are_changed() -> None:
    image = np.full((100, 200, 3), 12, np.uint8)
    image[20:80, 30:70] = _face(ink=(10, 34, 14), size=(60, 40))
    quad_inked = ((30, 20), (70, 20), (70, 80), (30, 80))
    quad_blank = ((120, 20), (160, 20), (160, 80), (120, 80))
    back = TileDetection(quad_inked, face_down=True, label=BACK, confidence=0.9,
                         alternatives=tuple(SURE_BACK))
    dets = [back, replace(back, quad=quad_blank),
            TileDetection(quad_inked, label=Tile.parse("5z"), confidence=0.9,
                          alternatives=(("5z", 0.9),))]
    out = inked_backs(image, dets)
    assert dict(out[0].alternatives)["6z"] == DEFAULT_INK.green_p and out[0].label == BACK
    assert out[1] == dets[1] and out[2] == dets[2]
