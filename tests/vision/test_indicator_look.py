"""A second look at unsure indicators: boxes stretched along the tile's length, both ways up."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from agari.engine.errors import InvalidInput
from agari.engine.tiles import Tile
from agari.vision.indicator_look import (
    IndicatorLookConfig,
    face_lightness,
    half_turned,
    look_at_indicators,
    stretched,
)
from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from layout_factories import lay_out

IMAGE = np.zeros((800, 1200, 3), np.uint8)
BOX = np.array([[0.0, 10.0], [40.0, 10.0], [40.0, 60.0], [0.0, 60.0]])


def test_stretched_lengthens_one_end_along_the_tiles_length() -> None:
    np.testing.assert_allclose(stretched(BOX, False, 0.2, True)[:, 1], [0, 0, 60, 60])
    np.testing.assert_allclose(stretched(BOX, False, 0.2, False)[:, 1], [10, 10, 70, 70])
    # A sideways tile's long side is TL->TR: its ends are left and right.
    np.testing.assert_allclose(stretched(BOX, True, 0.5, True)[:, 0], [-20, 40, 40, -20])


def test_half_turned_names_the_corners_half_round() -> None:
    np.testing.assert_allclose(half_turned(BOX), BOX[[2, 3, 0, 1]])


def _cut_short() -> tuple[list, int]:
    """A shown hand whose 3m dora is read 2m at 0.87 (its box misses the top stroke); the
    detections and the dora's index."""
    laid = lay_out(concealed="123m456p789s1122z", win="2z", dora="3m")
    i = laid.roles.index("dora")
    laid.dets[i] = replace(laid.dets[i], label=Tile.parse("2m"), confidence=0.87,
                           alternatives=(("2m", 0.87), ("3m", 0.05)))
    return laid.dets, i


def _reader(top: float, bottom_reads: tuple[str, float] = ("2m", 0.6)):
    """A stand-in classifier: a cut reaching above ``top`` sees the 3m's top stroke (3m at
    0.95); any other cut reads ``bottom_reads``."""

    def classify(image, dets):
        out = []
        for d in dets:
            high = float(np.min(np.asarray(d.quad)[:, 1])) < top
            name, p = ("3m", 0.95) if high else bottom_reads
            label = None if name == "none" else Tile.parse(name)
            out.append(replace(d, label=label, confidence=p, alternatives=((name, p),)))
        return out

    return classify


def test_an_unsure_indicator_takes_the_face_its_sure_cuts_agree_on() -> None:
    dets, i = _cut_short()
    top = float(np.min(np.asarray(dets[i].quad)[:, 1]))
    out, plans = look_at_indicators(IMAGE, dets, _reader(top - 1.0), layout=DEFAULT_LAYOUT)
    assert plans is None  # the layout is made again
    assert out[i].label == Tile.parse("3m") and out[i].quad == dets[i].quad
    assert [d for k, d in enumerate(out) if k != i] == [d for k, d in enumerate(dets) if k != i]
    assert analyse_layout(out)[0].dora == (i,)


def test_the_box_turned_half_round_is_a_cut_too() -> None:
    dets, i = _cut_short()
    turned = half_turned(np.asarray(dets[i].quad))

    def classify(image, cuts):  # only the whole box upside down reads the 3m surely
        out = []
        for d in cuts:
            name, p = ("3m", 0.95) if np.allclose(d.quad, turned) else ("2m", 0.6)
            out.append(replace(d, label=Tile.parse(name), confidence=p,
                               alternatives=((name, p),)))
        return out

    out, _ = look_at_indicators(IMAGE, dets, classify, layout=DEFAULT_LAYOUT)
    assert out[i].label == Tile.parse("3m")
    off = IndicatorLookConfig(turned=False)
    out, _ = look_at_indicators(IMAGE, dets, classify, layout=DEFAULT_LAYOUT, config=off)
    assert out == dets


def test_a_sure_cut_naming_no_tile_keeps_the_first_reading() -> None:
    dets, i = _cut_short()
    top = float(np.min(np.asarray(dets[i].quad)[:, 1]))
    out, _ = look_at_indicators(IMAGE, dets, _reader(top - 1.0, ("none", 0.9)),
                                layout=DEFAULT_LAYOUT)
    assert out == dets


def test_a_sure_indicator_is_left_alone() -> None:
    dets, i = _cut_short()
    dets[i] = replace(dets[i], confidence=0.93)
    top = float(np.min(np.asarray(dets[i].quad)[:, 1]))
    out, plans = look_at_indicators(IMAGE, dets, _reader(top - 1.0), layout=DEFAULT_LAYOUT)
    assert out == dets and plans is not None


def _polar_reader(calls: list):
    """A stand-in classifier reading the 3m surely only in a light image (a dark-faced set's
    face turned over), 2m at 0.6 in a dark one; it notes each image's mean."""

    def classify(image, dets):
        light = float(image.mean()) > 127
        calls.append(light)
        name, p = ("3m", 0.95) if light else ("2m", 0.6)
        return [replace(d, label=Tile.parse(name), confidence=p, alternatives=((name, p),))
                for d in dets]

    return classify


def test_a_dark_indicator_its_cuts_leave_unnamed_is_read_inverted() -> None:
    dets, i = _cut_short()
    calls: list = []
    out, plans = look_at_indicators(IMAGE, dets, _polar_reader(calls), layout=DEFAULT_LAYOUT)
    assert calls == [False, True]  # the cuts as they are, then the same cuts turned over
    assert plans is None and out[i].label == Tile.parse("3m") and out[i].quad == dets[i].quad
    off = IndicatorLookConfig(dark=None)
    calls.clear()
    out, _ = look_at_indicators(IMAGE, dets, _polar_reader(calls), layout=DEFAULT_LAYOUT,
                                config=off)
    assert out == dets and calls == [False]


def test_a_light_indicator_is_not_read_inverted() -> None:
    dets, i = _cut_short()
    calls: list = []
    light = np.full_like(IMAGE, 215)  # an ivory plate: its cuts turned over read the 3m
    out, _ = look_at_indicators(light, dets, _polar_reader(calls), layout=DEFAULT_LAYOUT)
    assert calls == [True]  # read once, as it is (3m at 0.95, the layout's dora 2m renamed)
    assert out[i].label == Tile.parse("3m")
    dim = np.full_like(IMAGE, 100)  # L* ~ 110: a light face seen dimly is not dark
    calls.clear()
    out, _ = look_at_indicators(dim, dets, _polar_reader(calls), layout=DEFAULT_LAYOUT)
    assert calls == [False] and out == dets


def test_face_lightness_is_the_median_inside_the_quad() -> None:
    image = np.full((100, 100, 3), 230, np.uint8)
    image[20:60, 20:60] = 30
    assert face_lightness(image, BOX + (20, 5)) < 60  # the dark plate (BOX is 40 x 50)
    assert face_lightness(image, BOX + (50, 40)) > 200
    assert face_lightness(image, BOX - 500) == 255.0  # outside the image


def test_thresholds_must_be_shares() -> None:
    with pytest.raises(InvalidInput):
        IndicatorLookConfig(sure=1.5)
