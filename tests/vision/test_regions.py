"""Score-map levels and regions: the fast paths give what the plain computation gives."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from agari.vision.regions import LevelConfig, level_regions, threshold_levels


def _map(seed: int, kind: str, shape: tuple[int, int] = (120, 160)) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if kind == "uniform":
        return rng.integers(0, 256, shape, dtype=np.uint8)
    if kind == "narrow":
        return rng.integers(100, 103, shape, dtype=np.uint8)
    if kind == "dark":
        return rng.integers(0, 9, shape, dtype=np.uint8)
    # "plates": bright rectangles on a noisy table, like faces on a mat
    img = np.clip(rng.normal(70, 20, shape), 0, 255).astype(np.uint8)
    for _ in range(12):
        x, y = int(rng.integers(0, shape[1] - 20)), int(rng.integers(0, shape[0] - 26))
        img[y:y + 26, x:x + 20] = int(rng.integers(150, 250))
    return img


def _reference_levels(score: np.ndarray, cfg: LevelConfig) -> np.ndarray:
    valid = score[score > cfg.min_valid]
    if valid.size == 0:
        return np.zeros(0, np.float32)
    lo, hi = np.percentile(valid, [cfg.low_percentile, cfg.high_percentile])
    if hi - lo < 2:
        return np.zeros(0, np.float32)
    return np.linspace(lo, hi, cfg.levels + 2, dtype=np.float32)[1:-1]


@pytest.mark.parametrize("kind", ["uniform", "narrow", "dark", "plates"])
@pytest.mark.parametrize("cfg", [LevelConfig(), LevelConfig(low_percentile=0.0,
                                                            high_percentile=100.0, min_valid=0),
                                 LevelConfig(low_percentile=37.3, high_percentile=61.1)])
def test_threshold_levels_match_numpy_percentiles(kind: str, cfg: LevelConfig) -> None:
    for seed in range(5):
        score = _map(seed, kind)
        np.testing.assert_array_equal(threshold_levels(score, cfg), _reference_levels(score, cfg))


def test_threshold_levels_of_a_float_map_match_too() -> None:
    score = _map(3, "plates").astype(np.float32) + 0.25
    np.testing.assert_array_equal(threshold_levels(score), _reference_levels(score, LevelConfig()))


def test_level_regions_equal_opening_each_binary_level() -> None:
    score = _map(7, "plates")
    levels = threshold_levels(score)
    kw = {"min_area": 30.0, "max_area": 1e5, "min_rectangularity": 0.5}
    got = level_regions(score, levels, **kw)
    kernel = np.ones((3, 3), np.uint8)
    want = []
    for i, t in enumerate(levels):
        _, binary = cv2.threshold(score, float(t), 1, cv2.THRESH_BINARY)
        binary = cv2.morphologyEx(binary, cv2.MORPH_OPEN, kernel)
        contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        want += [(i, c.tobytes()) for c in contours
                 if len(c) >= 4 and 30.0 <= cv2.contourArea(c) <= 1e5
                 and cv2.contourArea(c) >= 0.5 * np.prod(cv2.minAreaRect(c)[1])]
    assert len(want) > 5
    assert [(r.level, r.contour.tobytes()) for r in got] == want
