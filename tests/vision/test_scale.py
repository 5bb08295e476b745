"""The shrink's last step: area averaging up to ``area_pixels``, bilinear above."""

from __future__ import annotations

import cv2
import numpy as np
from agari.vision.scale import shrink


def test_shrink_averages_areas_only_up_to_area_pixels():
    img = np.random.default_rng(3).integers(0, 256, (300, 500, 3), dtype=np.uint8)
    half = cv2.pyrDown(img)  # 250 x 150, then to 180 x 108
    area = cv2.resize(half, (180, 108), interpolation=cv2.INTER_AREA)
    linear = cv2.resize(half, (180, 108), interpolation=cv2.INTER_LINEAR)
    assert np.array_equal(shrink(img, 0.36), area)
    assert np.array_equal(shrink(img, 0.36, area_pixels=0.0), linear)
    assert not np.array_equal(area, linear)
