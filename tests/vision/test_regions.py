"""Score-map levels and regions: the fast paths give what the plain computation gives."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from agari.vision.regions import (
    LevelConfig,
    LevelContours,
    MapConfig,
    back_map,
    contrast_map,
    face_map,
    filled_map,
    hsv_saturations,
    ink_map,
    level_regions,
    neutral_map,
    threshold_levels,
)


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


# The maps' float formulas as first written; the fast paths must give the same bytes.
def _float_face(bgr: np.ndarray, cfg: MapConfig) -> np.ndarray:
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    sat = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[..., 1]
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (cfg.seam_kernel, cfg.seam_kernel))
    seams = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, k)
    score = gray.astype(np.float32)
    score -= cfg.face_saturation_weight * np.maximum(
        sat.astype(np.float32) - cfg.face_saturation_free, 0)
    score -= cfg.seam_weight * seams.astype(np.float32)
    return np.clip(score, 0, 255).astype(np.uint8)


def _float_filled(bgr: np.ndarray, cfg: MapConfig) -> np.ndarray:
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (cfg.fill_kernel, cfg.fill_kernel))
    closed = cv2.morphologyEx(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), cv2.MORPH_CLOSE, k)
    sat = cv2.morphologyEx(cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[..., 1], cv2.MORPH_OPEN, k)
    excess = np.maximum(sat.astype(np.int16) - cfg.face_saturation_free, 0)
    score = closed.astype(np.int16) - (cfg.face_saturation_weight * excess).astype(np.int16)
    return np.clip(score, 0, 255).astype(np.uint8)


def _float_neutral(bgr: np.ndarray, cfg: MapConfig) -> np.ndarray:
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (cfg.neutral_kernel, cfg.neutral_kernel))
    hsv = cv2.cvtColor(cv2.morphologyEx(bgr, cv2.MORPH_CLOSE, k), cv2.COLOR_BGR2HSV)
    grey_share = 1.0 - np.minimum(hsv[..., 1], cfg.neutral_saturation) / cfg.neutral_saturation
    return (hsv[..., 2] * grey_share).astype(np.uint8)


def _float_back(bgr: np.ndarray, cfg: MapConfig) -> np.ndarray:
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    score = cv2.multiply(hsv[..., 1], hsv[..., 2], scale=1.0 / 255)
    score[hsv[..., 2] < cfg.back_min_value] = 0
    return score


def _float_ink(gray: np.ndarray, cfg: MapConfig, darkness: float, min_valid: float
               ) -> np.ndarray:
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (cfg.ink_stroke, cfg.ink_stroke))
    closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, k)
    ink = (gray.astype(np.float32) <= (1.0 - darkness) * closed) & (gray > min_valid)
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (cfg.ink_close, cfg.ink_close))
    blobs = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_CLOSE, k)
    blobs = cv2.morphologyEx(blobs, cv2.MORPH_OPEN, k)
    g = cv2.getStructuringElement(cv2.MORPH_RECT, (cfg.ink_grow, cfg.ink_grow))
    return cv2.dilate(blobs, g) * 255


def _photo(seed: int) -> np.ndarray:
    """Coloured plates with dark strokes on a noisy coloured table."""
    rng = np.random.default_rng(seed)
    img = np.clip(rng.normal((60, 110, 40), 25, (140, 180, 3)), 0, 255).astype(np.uint8)
    for _ in range(10):
        x, y = int(rng.integers(0, 150)), int(rng.integers(0, 105))
        img[y:y + 34, x:x + 26] = rng.integers(120, 256, 3)
        img[y + 10:y + 24, x + 11:x + 14] = rng.integers(0, 80, 3)
    return img


@pytest.mark.parametrize("cfg", [
    MapConfig(),
    MapConfig(face_saturation_weight=1.5, seam_weight=0.7, neutral_saturation=97.3),
    MapConfig(face_saturation_weight=3.0, face_saturation_free=40, back_min_value=0),
    MapConfig(face_saturation_free=300, back_min_value=255),
])
def test_maps_equal_their_float_formulas(cfg: MapConfig) -> None:
    for seed in range(4):
        bgr = _photo(seed)
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        np.testing.assert_array_equal(face_map(bgr, cfg)[0], _float_face(bgr, cfg))
        np.testing.assert_array_equal(filled_map(bgr, cfg), _float_filled(bgr, cfg))
        np.testing.assert_array_equal(neutral_map(bgr, cfg), _float_neutral(bgr, cfg))
        np.testing.assert_array_equal(back_map(bgr, cfg), _float_back(bgr, cfg))
        for darkness, min_valid in ((0.35, 8), (0.123, 0), (1.0, 3.5), (1.2, 8)):
            np.testing.assert_array_equal(ink_map(gray, cfg, darkness=darkness,
                                                  min_valid=min_valid),
                                          _float_ink(gray, cfg, darkness, min_valid))



@pytest.mark.parametrize("kind", ["uniform", "plates", "dark"])
def test_level_contours_trace_what_the_whole_level_holds(kind: str) -> None:
    # Each level is traced only inside the box around its pixels: the same contours.
    score = _map(5, kind)
    traced = LevelContours(score)
    opened = cv2.morphologyEx(score, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    for t in (-1.0, 0.0, 10.5, 99.0, 127.5, 200.0, float(score.max()), 254.5, 300.0):
        _, binary = cv2.threshold(opened, t, 1, cv2.THRESH_BINARY)
        want, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        got = traced.at(t)
        assert [c.tobytes() for c in got] == [c.tobytes() for c in want]
        assert all(c.dtype == np.int32 and c.shape[1:] == (1, 2) for c in got)


@pytest.mark.parametrize("cfg", [LevelConfig(), LevelConfig(levels=4, high_percentile=90.0)])
def test_level_contours_give_the_maps_threshold_levels_once(cfg: LevelConfig) -> None:
    # The proposals and the standing rows both ask for the face map's levels.
    score = _map(2, "plates")
    traced = LevelContours(score)
    first = traced.levels(cfg)
    np.testing.assert_array_equal(first, threshold_levels(score, cfg))
    assert traced.levels(cfg) is first


def test_hsv_saturations_are_opencvs_for_any_colour() -> None:
    # Every colour's saturation is the table's at its value and spread (the neutral map
    # reads it instead of converting): a grid over the whole colour cube and its corners.
    c = np.arange(0, 256, 3, dtype=np.uint8)
    grid = np.stack(np.meshgrid(c, c, np.r_[c, 255], indexing="ij"), axis=-1)
    bgr = grid.reshape(-1, 1, 3)
    sat = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[..., 1].ravel()
    v = bgr.max(axis=2).ravel().astype(np.intp)
    spread = v - bgr.min(axis=2).ravel()
    np.testing.assert_array_equal(hsv_saturations()[(v << 8) | spread], sat)


@pytest.mark.parametrize("block", [3, 15, 51])
def test_contrast_map_equals_its_formula(block: int) -> None:
    for seed in range(3):
        gray = cv2.cvtColor(_photo(seed), cv2.COLOR_BGR2GRAY)
        mean = cv2.blur(gray, (block, block), borderType=cv2.BORDER_REPLICATE)
        want = np.clip(gray.astype(np.int16) - mean.astype(np.int16) + 128, 0, 255)
        np.testing.assert_array_equal(contrast_map(gray, block), want.astype(np.uint8))


def test_level_contours_traced_by_two_threads_in_turn_are_the_same() -> None:
    # The locator's helper and calling threads share the face levels' tracing.
    import threading

    from agari.vision.locate import _Tracing

    score = _map(3, "plates")
    levels = threshold_levels(score)
    shared = LevelContours(score)
    tracing = _Tracing(shared, levels, None)
    helper = threading.Thread(target=tracing.trace)
    helper.start()
    tracing.trace()
    helper.join()
    alone = LevelContours(score)
    for t in levels.tolist():
        assert [c.tobytes() for c in shared.at(t)] == [c.tobytes() for c in alone.at(t)]
        assert shared.areas(t) == alone.areas(t)


def test_level_contours_tracing_stops_when_unwanted() -> None:
    import threading

    from agari.vision.locate import _Tracing

    score = _map(3, "plates")
    unwanted = threading.Event()
    unwanted.set()
    traced = LevelContours(score)
    _Tracing(traced, threshold_levels(score), unwanted).trace()
    assert traced._traced == {}  # nothing traced ahead: the caller traces what it needs
