"""The tile locator on synthetic photos with known truth (and bad input)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from agari.engine.errors import ImageError
from agari.vision import locate
from agari.vision.lab import inverted_lightness
from agari.vision.locate import LocateConfig, working_scale
from locate_factories import add_row, blank, match, rotation, tilt, warp


def _found(scene, **kw):
    dets = locate(scene.image, **kw)
    return dets, match(scene.quads, [np.asarray(d.quad) for d in dets])


def _rows_scene(seed: int = 1):
    rng = np.random.default_rng(seed)
    s = blank(rng)
    add_row(s, rng, 60, 80, n=8, width=40)  # touching
    add_row(s, rng, 60, 250, n=5, width=40, gap=6)  # loose
    add_row(s, rng, 350, 260, n=4, width=40, sideways_at=(1,))  # a chi with a called tile
    return s


def test_touching_loose_and_called_tiles_are_all_found_once():
    s = _rows_scene()
    dets, m = _found(s)
    assert len(m) == len(s.quads)
    assert len(dets) == len(s.quads)


def test_called_tile_is_sideways_and_only_it():
    s = _rows_scene()
    dets, m = _found(s)
    for t, d in m.items():
        assert dets[d].sideways == s.sideways[t]


def test_reading_order_rows_top_down_tiles_left_to_right():
    s = _rows_scene()
    dets, m = _found(s)
    order = [m[t] for t in s.rows[0]]
    assert order == sorted(order)
    assert max(order) < min(m[t] for t in s.rows[1] + s.rows[2])


def test_quads_run_tl_tr_br_bl_with_up_towards_the_top():
    s = _rows_scene()
    dets, _ = _found(s)
    for d in dets:
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = d.quad
        assert x1 > x0 and x2 > x3  # top and bottom edges run left to right
        assert y3 > y0 and y2 > y1  # left and right edges run downwards
        assert d.up[1] < -0.9


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("turned 25 degrees", lambda s: warp(s, rotation(25, s.image.shape[:2]))),
        ("turned 90 degrees", lambda s: warp(s, rotation(90, s.image.shape[:2]))),
        ("seen at a slant", lambda s: warp(s, tilt(s.image.shape[:2], 0.15))),
    ],
)
def test_a_touching_row_survives_rotation_and_perspective(name, make):
    rng = np.random.default_rng(2)
    s = blank(rng, table="felt")
    add_row(s, rng, 110, 200, n=10, width=36)
    s = make(s)
    dets, m = _found(s)
    assert len(m) == 10, name
    assert len(dets) == 10, name


def test_tiles_on_grained_wood_are_found_and_grain_is_not():
    # Grain about as strong as the pale wood of the real tray photos (coarser, stronger
    # grain still yields a few false tiles before the classifier's veto).
    rng = np.random.default_rng(3)
    s = blank(rng, grain=8)
    add_row(s, rng, 80, 150, n=12, width=40)
    dets, m = _found(s)
    assert len(m) == 12
    assert len(dets) == 12


def test_coloured_backs_are_face_down_candidates_and_faces_are_not():
    rng = np.random.default_rng(4)
    s = blank(rng, table="felt")
    add_row(s, rng, 100, 100, n=6, width=40, face_down=True)
    add_row(s, rng, 100, 300, n=3, width=40)
    dets, m = _found(s)
    assert len(m) == 9
    for t, d in m.items():
        assert dets[d].face_down == s.face_down[t]


def test_large_photos_are_reported_in_original_pixels():
    rng = np.random.default_rng(5)
    s = blank(rng, size=(300, 400))
    add_row(s, rng, 50, 100, n=6, width=30)
    big = warp(s, np.diag([6.0, 6.0, 1.0]), size=(1800, 2400))
    config = LocateConfig(max_pixels=0.5e6)
    assert working_scale(1800, 2400, config.max_pixels) < 0.5
    dets, m = _found(big, config=config)
    assert len(m) == 6
    assert max(max(x for x, _ in d.quad) for d in dets) > 1000


@pytest.mark.parametrize("table", ["grey", "felt", "dark"])
def test_an_empty_table_gives_no_tiles(table):
    s = blank(np.random.default_rng(6), table=table, grain=6.0)
    assert locate(s.image) == []


def test_grey_and_bgra_images_are_accepted():
    s = _rows_scene(7)
    grey = s.image.mean(axis=2).astype(np.uint8)
    bgra = np.dstack([s.image, np.full(s.image.shape[:2], 255, np.uint8)])
    assert len(locate(grey)) >= 10
    assert len(locate(bgra)) == len(locate(s.image))


def test_the_input_image_is_not_modified():
    s = _rows_scene(8)
    before = s.image.copy()
    locate(s.image)
    assert np.array_equal(before, s.image)


@pytest.mark.parametrize(
    ("image", "message"),
    [
        ("not an image", "uint8 image"),
        (np.zeros((0, 0, 3), np.uint8), "empty"),
        (np.zeros((10, 10, 3), np.uint8), "too small"),
        (np.zeros((50, 50, 3), np.float32), "uint8 image"),
        (np.zeros((50, 50, 2), np.uint8), "shape"),
    ],
)
def test_bad_input_is_a_one_line_image_error(image, message):
    with pytest.raises(ImageError) as err:
        locate(image)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_an_inverted_reading_finds_dark_faces_with_light_ink():
    # Ivory tiles on a dark table, turned over: dark faces with light ink on a light table,
    # which no score map finds as they are; located inverted, they are light plates again.
    rng = np.random.default_rng(4)
    s = blank(rng, table="dark")
    add_row(s, rng, 60, 120, n=6, width=40)
    dark = replace(s, image=inverted_lightness(s.image))
    assert len(_found(s)[1]) == 6 and len(_found(dark)[1]) == 0
    dets, m = _found(dark, config=LocateConfig(inverted=True))
    assert len(m) == 6 and len(dets) == 6
    assert np.abs(inverted_lightness(dark.image).astype(int) - s.image).max() <= 8
