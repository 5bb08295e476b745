"""Sensor noise: measured truly, clean photos untouched, noisy rows still split into tiles."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from agari.engine.errors import InvalidInput
from agari.vision.locate import DEFAULT_CONFIG, locate
from agari.vision.noise import (
    _MAD_TO_SIGMA,
    _RESIDUAL,
    NoiseConfig,
    _median_of,
    noise_sigma,
    soften,
)
from locate_factories import add_row, blank, match


def _grey(sigma: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(128 + rng.normal(0, sigma, (300, 400)), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("sigma", [2.0, 5.0, 10.0])
def test_noise_sigma_measures_added_noise(sigma):
    assert noise_sigma(_grey(sigma)) == pytest.approx(sigma, rel=0.1)


def test_edges_and_shading_are_not_taken_for_noise():
    x = np.linspace(0, 255, 400, dtype=np.float32)
    img = np.tile(x, (300, 1))
    img[100:200, 150:250] = 30  # a dark block: strong edges, but few pixels
    assert noise_sigma(img.astype(np.uint8)) < 0.5


def test_a_clean_image_is_returned_as_it_is_and_a_noisy_one_softened():
    clean = cv2.cvtColor(_grey(0.5), cv2.COLOR_GRAY2BGR)
    assert soften(clean) is clean
    noisy = cv2.cvtColor(_grey(8.0), cv2.COLOR_GRAY2BGR)
    out = soften(noisy)
    assert out is not noisy and out.shape == noisy.shape
    assert noise_sigma(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY)) < 4.0
    assert soften(noisy, NoiseConfig(above=20.0)) is noisy
    with pytest.raises(InvalidInput):
        NoiseConfig(median=4)


def test_grainy_rows_are_still_cut_into_their_tiles():
    # Heavy grain (sigma 24) darkens every line and sprinkles false ink between faces.
    found_with, found_without = 0, 0
    for seed in range(4):
        rng = np.random.default_rng(seed)
        scene = blank(rng, size=(480, 640))
        for y in (60, 200, 340):
            add_row(scene, rng, 40, y, n=12, width=40)
        noisy = np.clip(scene.image + rng.normal(0, 24, scene.image.shape), 0, 255)
        noisy = noisy.astype(np.uint8)
        for config in (DEFAULT_CONFIG, replace(DEFAULT_CONFIG, noise=None)):
            found = [np.asarray(d.quad) for d in locate(noisy, config=config)]
            hits = len(match(scene.quads, found, min_iou=0.7))
            if config is DEFAULT_CONFIG:
                found_with += hits
            else:
                found_without += hits
    assert found_with >= 136  # of 144
    assert found_without < found_with


@pytest.mark.parametrize("n", [1, 2, 7, 10, 501])
def test_median_of_small_integers_equals_numpy(n: int) -> None:
    rng = np.random.default_rng(n)
    for top in (1, 3, 4080):
        values = rng.integers(0, top + 1, n).astype(np.int16)
        assert _median_of(values) == float(np.median(values))
    gray = rng.integers(0, 256, (40, 60), dtype=np.uint8)
    r = cv2.filter2D(gray, cv2.CV_16S, _RESIDUAL)[1:-1:2, 1:-1:2]
    assert noise_sigma(gray) == float(np.median(np.abs(r))) / _MAD_TO_SIGMA


@pytest.mark.parametrize("sigma", [0.0, 0.7, 3.0, 20.0, 70.0, 150.0])
def test_noise_sigma_equals_numpy_whether_the_median_is_clipped_or_not(sigma: float) -> None:
    # The histogram of |r| clipped to 8 bits gives the median below the clip; past it (very
    # heavy noise, a checkerboard) the full count does.
    rng = np.random.default_rng(int(sigma))
    for shape in ((3, 3), (4, 9), (61, 80), (300, 401)):
        gray = np.clip(128 + rng.normal(0, sigma, shape), 0, 255).astype(np.uint8)
        r = cv2.filter2D(gray, cv2.CV_16S, _RESIDUAL)[1:-1:2, 1:-1:2]
        assert noise_sigma(gray) == float(np.median(np.abs(r))) / _MAD_TO_SIGMA
    board = (np.indices((64, 64)).sum(axis=0) % 2 * 255).astype(np.uint8)
    r = cv2.filter2D(board, cv2.CV_16S, _RESIDUAL)[1:-1:2, 1:-1:2]
    assert noise_sigma(board) == float(np.median(np.abs(r))) / _MAD_TO_SIGMA == 2040 / _MAD_TO_SIGMA
