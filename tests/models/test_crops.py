"""Tile crops (agari.vision.crops): geometry on synthetic images with known truth.

Kept under tests/models because the classifier engineer owns crops.py.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from agari.engine.errors import ImageError, InvalidInput
from agari.vision.crops import (
    box_quad,
    crop_detections,
    crop_tile,
    crop_tiles,
    fit_portrait,
)
from agari.vision.detection import TileDetection

RED, BLUE, GREEN = (0, 0, 255), (255, 0, 0), (0, 255, 0)
NAN = float("nan")


def _rotate(points: np.ndarray, centre: tuple[float, float], degrees: float) -> np.ndarray:
    t = np.radians(degrees)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return (points - centre) @ rot.T + centre


def make_tile_image(*, angle: float = 0.0, tile_w: int = 60, tile_h: int = 80):
    """A grey scene with one tile: red top half, blue bottom half, a green stripe on
    its left edge; returns (image, quad TL TR BR BL of the tile as drawn)."""
    img = np.full((300, 300, 3), 90, np.uint8)
    cx, cy = 150.0, 150.0
    x0, y0 = cx - tile_w / 2, cy - tile_h / 2
    corners = np.array(box_quad(x0, y0, tile_w, tile_h))
    top = np.array(box_quad(x0, y0, tile_w, tile_h / 2))
    bottom = np.array(box_quad(x0, cy, tile_w, tile_h / 2))
    stripe = np.array(box_quad(x0, y0, tile_w / 6, tile_h))
    for poly, colour in ((top, RED), (bottom, BLUE), (stripe, GREEN)):
        pts = _rotate(poly, (cx, cy), angle)
        cv2.fillPoly(img, [np.round(pts).astype(np.int32)], colour)
    return img, _rotate(corners, (cx, cy), angle)


def _mean(crop: np.ndarray, rows: slice, cols: slice) -> np.ndarray:
    return crop[rows, cols].reshape(-1, 3).mean(axis=0)


def _assert_colour(actual: np.ndarray, colour: tuple[int, int, int]) -> None:
    assert np.abs(actual - np.array(colour)).max() < 40, (actual, colour)


@pytest.mark.parametrize("angle", [0.0, 17.0, 90.0, 180.0, -125.0])
def test_upright_crop_follows_quad_order(angle):
    img, quad = make_tile_image(angle=angle)
    crop = crop_tile(img, quad, size=(64, 48), margin=0.0)
    assert crop.shape == (64, 48, 3) and crop.dtype == np.uint8
    _assert_colour(_mean(crop, slice(5, 25), slice(20, 44)), RED)
    _assert_colour(_mean(crop, slice(40, 60), slice(20, 44)), BLUE)
    _assert_colour(_mean(crop, slice(5, 60), slice(1, 6)), GREEN)


@pytest.mark.parametrize("angle", [0.0, 30.0])
def test_sideways_crop_turns_left_edge_to_top(angle):
    # A called tile turned a quarter anticlockwise: its top (red) now faces left.
    img, quad = make_tile_image(angle=angle - 90.0)
    # In the row's frame the long side runs along the row: the row's TL is the tile's TR.
    row_quad = quad[[1, 2, 3, 0]]
    crop = crop_tile(img, row_quad, sideways=True, size=(64, 48), margin=0.0)
    _assert_colour(_mean(crop, slice(5, 25), slice(20, 44)), RED)
    _assert_colour(_mean(crop, slice(40, 60), slice(20, 44)), BLUE)


def test_margin_shows_context_around_tile():
    img, quad = make_tile_image()
    crop = crop_tile(img, quad, size=(64, 48), margin=0.2)
    # The outer ring is the grey background, the centre still the tile.
    _assert_colour(crop[0:3, :].reshape(-1, 3).mean(axis=0), (90, 90, 90))
    _assert_colour(_mean(crop, slice(16, 26), slice(24, 34)), RED)


def test_large_tile_is_averaged_not_aliased():
    img = np.zeros((1200, 900, 3), np.uint8)
    img[:, ::2] = 255  # one-pixel stripes: a faithful downscale is mid grey
    crop = crop_tile(img, box_quad(0, 0, 900, 1200), size=(64, 48), margin=0.0)
    assert abs(float(crop.mean()) - 127.5) < 12


def test_large_tile_in_a_large_photo_is_cut_from_its_own_region():
    # A big tile (striped, so averaging shows) deep inside a 24-megapixel photo, and a
    # second tile half off its edge: both crops match those from a photo of just the
    # tile, so the shrink before warping uses the tile's region, borders included.
    tile, quad = make_tile_image(angle=12.0, tile_w=60, tile_h=80)
    tile = cv2.resize(tile, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    tile[:, ::2] //= 2
    quad = quad * 8
    big = np.full((4000, 6000, 3), 90, np.uint8)
    big[1500:3900, 3000:5400] = tile
    small = cv2.resize(tile, None, fx=1 / 8, fy=1 / 8, interpolation=cv2.INTER_AREA)
    alone = crop_tile(small, quad / 8, size=(64, 48), margin=0.1)  # small enough: no shrink
    inside = crop_tile(big, quad + (3000, 1500), size=(64, 48), margin=0.1)
    assert np.abs(inside.astype(int) - alone.astype(int)).mean() < 6
    big[:2400, :2000] = tile[:, 400:]  # the tile's left sixth is off the photo
    edge = crop_tile(big, quad - (400, 0), size=(64, 48), margin=0.1)
    assert np.abs(edge[:, 16:].astype(int) - alone[:, 16:].astype(int)).mean() < 6


def test_batched_crops_match_single_and_detections():
    img, quad = make_tile_image(angle=10.0)
    det = TileDetection(quad=tuple(map(tuple, quad)))
    dets = [det, det]
    batch = crop_detections(img, dets, size=(32, 24))
    assert batch.shape == (2, 32, 24, 3)
    np.testing.assert_array_equal(batch[0], crop_tile(img, quad, size=(32, 24)))
    assert crop_tiles(img, [], size=(32, 24)).shape == (0, 32, 24, 3)


def test_fit_portrait_turns_landscape_images():
    img, _ = make_tile_image()
    tile = img[110:190, 120:180]  # exactly the 60x80 tile
    landscape = np.ascontiguousarray(np.rot90(tile, k=-1))  # top now faces right
    crop = fit_portrait(landscape, size=(64, 48))
    assert crop.shape == (64, 48, 3)
    # A quarter turn either way reads red and blue at opposite ends, not side by side.
    top = _mean(crop, slice(4, 24), slice(20, 44))
    bottom = _mean(crop, slice(40, 60), slice(20, 44))
    assert {tuple(np.round(top / 255)), tuple(np.round(bottom / 255))} == {(0, 0, 1), (1, 0, 0)}


def test_grey_and_bgra_are_accepted():
    img, quad = make_tile_image()
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    assert crop_tile(grey, quad).shape[2] == 3
    bgra = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    np.testing.assert_array_equal(crop_tile(bgra, quad), crop_tile(img, quad))


@pytest.mark.parametrize(
    ("image", "quad", "kwargs", "error"),
    [
        (np.zeros((0, 0, 3), np.uint8), box_quad(0, 0, 2, 2), {}, ImageError),
        (np.zeros((10, 10, 3), np.float32), box_quad(0, 0, 2, 2), {}, ImageError),
        (np.zeros((10, 10, 2), np.uint8), box_quad(0, 0, 2, 2), {}, ImageError),
        ("not an image", box_quad(0, 0, 2, 2), {}, ImageError),
        (np.zeros((10, 10, 3), np.uint8), [(0, 0), (1, 1), (2, 2)], {}, InvalidInput),
        (np.zeros((10, 10, 3), np.uint8), [(0, 0), (1, 0), (1, NAN), (0, 1)], {}, InvalidInput),
        (np.zeros((10, 10, 3), np.uint8), box_quad(0, 0, 2, 2), {"size": (2, 2)}, InvalidInput),
        (np.zeros((10, 10, 3), np.uint8), box_quad(0, 0, 2, 2), {"margin": -0.1}, InvalidInput),
    ],
)
def test_bad_input_raises(image, quad, kwargs, error):
    with pytest.raises(error):
        crop_tile(image, quad, **kwargs)


def _scattered_quads(n: int, seed: int = 1) -> tuple[list, list[bool]]:
    """Tiles of many sizes (some around and over the size at which the crop shrinks its
    source first), turned any way, some off the image's edges, some flagged sideways."""
    rng = np.random.default_rng(seed)
    quads, flags = [], []
    for _ in range(n):
        w = float(rng.choice([20, 45, 95, 96, 97, 130, 300]))
        corners = np.array(box_quad(-w / 2, -0.67 * w, w, 1.33 * w)) + rng.normal(0, 1.5, (4, 2))
        quads.append(tuple(map(tuple, _rotate(corners, (0, 0), rng.uniform(-180, 180))
                               + rng.uniform(-20, 320, 2))))
        flags.append(bool(rng.random() < 0.3))
    return quads, flags


@pytest.mark.parametrize(("size", "margin"), [((64, 48), 0.06), ((32, 24), 0.0)])
def test_batched_crops_are_each_tiles_own_crop(size, margin):
    img, _ = make_tile_image(angle=20.0)
    img[::3] //= 2  # stripes, so that a shrink before warping would show
    quads, flags = _scattered_quads(60)
    batch = crop_tiles(img, quads, sideways=flags, size=size, margin=margin)
    for crop, q, s in zip(batch, quads, flags, strict=True):
        np.testing.assert_array_equal(crop, crop_tile(img, q, sideways=s, size=size,
                                                      margin=margin))
    as_arrays = crop_tiles(img, np.asarray(quads), sideways=np.asarray(flags), size=size,
                           margin=margin)
    np.testing.assert_array_equal(as_arrays, batch)


def test_batched_crops_refuse_what_a_single_crop_refuses():
    img = np.zeros((10, 10, 3), np.uint8)
    good = box_quad(0, 0, 2, 2)
    with pytest.raises(InvalidInput):
        crop_tiles(img, [good, [(0, 0), (1, 0), (1, NAN), (0, 1)]])
    with pytest.raises(InvalidInput):
        crop_tiles(img, [good, [(0, 0), (1, 1), (2, 2)]])
    with pytest.raises(InvalidInput):
        crop_tiles(img, [good], sideways=[False, True])


def test_batched_crops_are_warped_into_the_batch(monkeypatch):
    # Each crop is written straight into its row of the batch, not made and copied.
    from agari.vision import crops

    img, _ = make_tile_image(angle=20.0)
    quads, flags = _scattered_quads(12)
    want = crop_tiles(img, quads, sideways=flags)
    rows = []
    warp = cv2.warpPerspective

    def recorded(*args, **kwargs):
        rows.append(kwargs.get("dst"))
        return warp(*args, **kwargs)

    monkeypatch.setattr(crops.cv2, "warpPerspective", recorded)
    batch = crop_tiles(img, quads, sideways=flags)
    np.testing.assert_array_equal(batch, want)
    assert len(rows) == len(quads)
    assert all(r is not None and np.shares_memory(r, batch) for r in rows)


def test_remembered_shrinks_shrink_each_part_once_and_cut_the_same(monkeypatch):
    import agari.vision.crops as crops

    tile, quad = make_tile_image(angle=8.0, tile_w=60, tile_h=80)
    img = np.ascontiguousarray(cv2.resize(tile, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST))
    quad = quad * 4  # four times the crop's size: shrunk before warping
    turned = quad[[2, 3, 0, 1]]  # the tile turned round: the same part at the same factor
    fresh = crop_tiles(img, [quad, turned], size=(64, 48))
    calls = []
    resize = cv2.resize

    class Counting:
        def __getattr__(self, name):
            return getattr(cv2, name)

        def resize(self, *args, **kwargs):
            calls.append(1)
            return resize(*args, **kwargs)

    monkeypatch.setattr(crops, "cv2", Counting())
    with crops.remembered_shrinks():
        kept = crop_tiles(img, [quad, turned], size=(64, 48))
        again = crop_tiles(img, [quad], size=(64, 48))
        other = crop_tiles(img.copy(), [quad], size=(64, 48))  # another array: shrunk anew
    assert len(calls) == 2
    np.testing.assert_array_equal(kept, fresh)
    np.testing.assert_array_equal(again[0], fresh[0])
    np.testing.assert_array_equal(other[0], fresh[0])
    crop_tiles(img, [quad], size=(64, 48))  # outside the block: nothing kept
    assert len(calls) == 3


def test_remembered_shrinks_cut_each_crop_once(monkeypatch):
    import agari.vision.crops as crops

    tile, quad = make_tile_image(angle=8.0, tile_w=60, tile_h=80)
    img = np.ascontiguousarray(tile)
    moved = quad + 3.0
    fresh = crop_tiles(img, [quad, moved], sideways=[False, True], size=(64, 48))
    calls = []
    warp = cv2.warpPerspective

    class Counting:
        def __getattr__(self, name):
            return getattr(cv2, name)

        def warpPerspective(self, *args, **kwargs):
            calls.append(1)
            return warp(*args, **kwargs)

    monkeypatch.setattr(crops, "cv2", Counting())
    with crops.remembered_shrinks():
        first = crop_tiles(img, [quad, moved], sideways=[False, True], size=(64, 48))
        again = crop_tiles(img, [moved, quad, quad], sideways=[True, False, True],
                           size=(64, 48))
        first[0] = 0  # the caller's array: what is kept is a copy
        after = crop_tiles(img, [quad], size=(64, 48))
    assert len(calls) == 3  # the quad upright, moved sideways, and the quad sideways
    np.testing.assert_array_equal(again[0], fresh[1])
    np.testing.assert_array_equal(again[1], fresh[0])
    np.testing.assert_array_equal(after[0], fresh[0])
    np.testing.assert_array_equal(again[2], crop_tiles(img, [quad], sideways=[True],
                                                       size=(64, 48))[0])
