"""Seam profiles: the shortcuts give what warping every line's lean gives."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from agari.vision.frames import Frame
from agari.vision.seams import (
    _clipped_shares,
    _mean_rows,
    _sample_rows,
    _shears,
    _slopes,
    face_brightness,
    seam_profile,
)
from agari.vision.split import SplitConfig

CFG = SplitConfig()


def _plain_seam_profile(frame: Frame, axis: int, tile_short: float, cfg: SplitConfig,
                        lean: bool) -> tuple[np.ndarray, np.ndarray]:
    """`seam_profile` as first written: every slope warped, upright too."""
    g, mask = (frame.gray.T, frame.mask.T) if axis == 1 else (frame.gray, frame.mask)
    k = max(3, int(round(cfg.seam_kernel_frac * tile_short)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, 1))
    dark = cv2.morphologyEx(g, cv2.MORPH_BLACKHAT, kernel).astype(np.float32)
    inside = mask > 0
    cap = cfg.seam_clip * max(face_brightness(g, inside), 1.0)
    dark = np.minimum(dark, cap) / cap
    dark[~inside] = 1.0
    h, w = dark.shape
    steps = min(cfg.max_slope_steps, int(math.ceil(cfg.max_slope * h / max(cfg.seam_tolerance, 2))))
    steps = steps if lean else 0
    slopes = np.linspace(-cfg.max_slope, cfg.max_slope, 2 * steps + 1) if steps else np.zeros(1)
    zone = max(1, int(round(cfg.margin_zone * h)))
    rows = _sample_rows(h)
    kth = int(cfg.seam_percentile / 100.0 * (len(rows) - 1))
    yc = (h - 1) / 2.0
    sheared = np.stack([
        cv2.warpAffine(dark, np.array([[1.0, s, -s * yc], [0.0, 1.0, 0.0]]), (w, h),
                       flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
                       borderMode=cv2.BORDER_REPLICATE) for s in slopes])
    strength = np.partition(sheared[:, rows].transpose(0, 2, 1), kth, axis=2)[..., kth]
    ends = np.minimum(sheared[:, :zone].mean(axis=1), sheared[:, h - zone:].mean(axis=1))
    strength = np.minimum(strength, ends)
    pick = strength.argmax(axis=0)
    return strength[pick, np.arange(w)], slopes[pick].astype(np.float32)


@pytest.mark.parametrize("shape", [(20, 90), (55, 300), (140, 130), (7, 40)])
@pytest.mark.parametrize("lean", [True, False])
def test_seam_profile_equals_warping_every_slope(shape, lean):
    rng = np.random.default_rng(shape[0] * 7 + lean)
    h, w = shape
    for axis in (0, 1):
        gray = rng.integers(60, 230, (h, w), dtype=np.uint8)
        gray[:, rng.integers(0, w, 6)] = 20  # a few dark seams
        mask = np.zeros((h, w), np.uint8)
        mask[1:h - 1, 2:w - 2] = 1
        frame = Frame(np.eye(3), gray, mask, float(w - 4), float(h - 2))
        want = _plain_seam_profile(frame, axis, 30.0, CFG, lean)
        # 8-bit frames take the look-up; a float frame the float steps: the same profile.
        for f in (frame, Frame(np.eye(3), gray.astype(np.float32), mask, frame.width,
                               frame.height)):
            got = seam_profile(f, axis, 30.0, CFG, lean=lean)
            for a, b in zip(got, want, strict=True):
                assert a.dtype == b.dtype and np.array_equal(a, b)


def test_mean_rows_is_numpy_mean_to_the_bit():
    rng = np.random.default_rng(5)
    for _ in range(50):
        stack = (rng.random((rng.integers(1, 10), rng.integers(1, 80), rng.integers(1, 200)))
                 * rng.choice([1e-3, 1.0, 9.7])).astype(np.float32)
        zone = int(rng.integers(1, stack.shape[1] + 1))
        for part in (stack[:, :zone], stack[:, stack.shape[1] - zone:]):
            got = _mean_rows(part)
            assert got.dtype == np.float32 and np.array_equal(got, part.mean(axis=1))


def test_kept_tables_are_read_only_and_alike():
    slopes, upright = _slopes(0.2, 4)
    assert upright == 4 and slopes[upright] == 0.0 and not slopes.flags.writeable
    assert np.array_equal(slopes, np.linspace(-0.2, 0.2, 9))
    shears = _shears(0.2, 4, 31)
    assert shears[upright] is None and all(not m.flags.writeable for m in shears if m is not None)
    assert np.array_equal(shears[0], np.array([[1.0, -0.2, 0.2 * 15.0], [0.0, 1.0, 0.0]]))
    assert not _sample_rows(100).flags.writeable and not _clipped_shares(20.0).flags.writeable


def test_face_brightness_by_counts_is_the_partitioned_level():
    rng = np.random.default_rng(9)
    for n in (1, 2, 3, 10, 97, 4000):
        g = rng.integers(0, 256, (n, 7), dtype=np.uint8)
        inside = rng.random((n, 7)) < 0.7
        v = g[inside][::3]
        want = 255.0 if v.size == 0 else float(np.partition(v, int(0.9 * (v.size - 1)))[
            int(0.9 * (v.size - 1))])
        assert face_brightness(g, inside) == want
        assert face_brightness(g.T, inside.T) == face_brightness(g.T.astype(np.float32), inside.T)
    assert face_brightness(g, np.zeros_like(inside)) == 255.0
