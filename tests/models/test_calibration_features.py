"""Shape descriptors (HOG) of crops: what they see and what they ignore."""

from __future__ import annotations

import numpy as np
import pytest
from agari.engine.tiles import CLASS_NAMES
from agari.models.calibration_features import (
    INK_BINS,
    INK_HUES,
    centre_colours,
    crop_looks,
    grey_from_input,
    ink_colours,
    shape_features,
)
from agari.models.spec import ModelSpec


def stripes(angle_deg: float, *, size=(64, 48), period=8.0) -> np.ndarray:
    """Grey ``(H, W)`` float32 sine stripes running at ``angle_deg``."""
    h, w = size
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    a = np.radians(angle_deg)
    return 0.5 + 0.4 * np.sin((x * np.cos(a) + y * np.sin(a)) * 2 * np.pi / period)


def cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_descriptor_size_depends_on_the_crop_shape_only():
    f = shape_features(np.stack([stripes(0), stripes(90)]))
    assert f.shape == (2, 7 * 5 * 4 * 9) and f.dtype == np.float32
    assert shape_features(np.zeros((3, 32, 24), np.float32)).shape == (3, 7 * 5 * 4 * 9)
    assert shape_features(np.zeros((1, 3, 2), np.float32)).shape == (1, 0)


def test_light_and_contrast_cancel_out_but_direction_does_not():
    base, brighter, turned = shape_features(np.stack(
        [stripes(30), 0.3 + 0.5 * stripes(30), stripes(120)]))
    assert cos(base, brighter) > 0.999
    assert cos(base, turned) < 0.5


@pytest.mark.parametrize("order", ["RGB", "BGR"])
def test_grey_from_the_model_input(order):
    spec = ModelSpec(class_names=CLASS_NAMES, input_size=(64, 48), mean=(0.5, 0.4, 0.3),
                     std=(0.25, 0.2, 0.3), channel_order=order)
    rgb = np.random.default_rng(0).uniform(0, 1, (2, 3, 64, 48)).astype(np.float32)
    x = (rgb - np.array(spec.mean, np.float32)[None, :, None, None]) \
        / np.array(spec.std, np.float32)[None, :, None, None]
    grey = grey_from_input(x, spec)
    r, b = (rgb[:, 0], rgb[:, 2]) if order == "RGB" else (rgb[:, 2], rgb[:, 0])
    assert np.allclose(grey, 0.299 * r + 0.587 * rgb[:, 1] + 0.114 * b, atol=1e-5)
    looks = crop_looks(x, spec)
    assert looks.shapes.shape == (2, 1260) and looks.colours.shape == (2, 3)


def test_centre_colour_is_the_middle_in_lab():
    spec = ModelSpec(class_names=CLASS_NAMES, input_size=(64, 48), mean=(0.5, 0.5, 0.5),
                     std=(0.25, 0.25, 0.25))
    rgb = np.zeros((1, 3, 64, 48), np.float32)
    rgb[:, 1] = 0.5                       # a dull green surround...
    rgb[:, :, 16:48, 12:36] = 1.0         # ...around a white middle
    lab = centre_colours((rgb - 0.5) / 0.25, spec)[0]
    assert lab[0] > 99 and abs(lab[1]) < 1 and abs(lab[2]) < 1


def inked(stroke_rgb, *, face_rgb=(0.93, 0.91, 0.84), light: float = 1.0) -> np.ndarray:
    """Model input ``(1, 3, 64, 48)`` (mean 0.5, std 0.25) of an ivory face with two strokes."""
    rgb = np.empty((1, 3, 64, 48), np.float32)
    rgb[:] = np.float32(face_rgb)[None, :, None, None]
    for y0 in (18, 38):
        rgb[:, :, y0:y0 + 6, 12:36] = np.float32(stroke_rgb)[None, :, None, None]
    return (rgb * light - 0.5) / 0.25


def test_ink_colour_parts_red_from_purple_and_ignores_light():
    spec = ModelSpec(class_names=CLASS_NAMES, input_size=(64, 48), mean=(0.5, 0.5, 0.5),
                     std=(0.25, 0.25, 0.25))
    red, purple, black = (ink_colours(inked(c), spec)[0] for c in
                          ((0.8, 0.1, 0.1), (0.45, 0.2, 0.6), (0.1, 0.1, 0.1)))
    dim_red = ink_colours(inked((0.8, 0.1, 0.1), light=0.7), spec)[0]
    blank = ink_colours(inked((0.93, 0.91, 0.84)), spec)[0]
    for h in (red, purple, black, dim_red, blank):
        assert h.shape == (INK_BINS,) and h.sum() == pytest.approx(1.0, abs=1e-5)

    def bhattacharyya(a, b):
        return float(np.sqrt(a * b).sum())

    assert red[:INK_HUES].sum() > 0.9 and purple[:INK_HUES].sum() > 0.9
    assert bhattacharyya(red, purple) < 0.3          # other hues
    assert bhattacharyya(red, dim_red) > 0.95        # the same ink in dimmer light
    assert black[INK_HUES] > 0.9                     # grey ink darker than the face
    assert blank[-1] == 1.0                          # no ink at all
