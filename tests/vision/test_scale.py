"""The shrink's last step: area averaging up to ``area_pixels``, bilinear above."""

from __future__ import annotations

import cv2
import numpy as np
from agari.vision.scale import shrink
from locate_factories import two_rows_photo


def test_shrink_averages_areas_only_up_to_area_pixels():
    img = np.random.default_rng(3).integers(0, 256, (300, 500, 3), dtype=np.uint8)
    half = cv2.pyrDown(img)  # 250 x 150, then to 180 x 108
    area = cv2.resize(half, (180, 108), interpolation=cv2.INTER_AREA)
    linear = cv2.resize(half, (180, 108), interpolation=cv2.INTER_LINEAR)
    assert np.array_equal(shrink(img, 0.36), area)
    assert np.array_equal(shrink(img, 0.36, area_pixels=0.0), linear)
    assert not np.array_equal(area, linear)




def test_remembered_probes_measure_each_photo_once_and_give_the_same_answer(monkeypatch):
    import agari.vision.scale as scale

    img = two_rows_photo()
    fresh = scale.probe_lengths(img)
    want = [scale.choose_scale(img, cap) for cap in (0.2e6, 0.1e6)]
    calls = []
    measure = scale._probe_lengths
    monkeypatch.setattr(scale, "_probe_lengths", lambda *a: calls.append(1) or measure(*a))
    with scale.remembered_probes():
        first = scale.probe_lengths(img)
        again = scale.probe_lengths(img)
        caps = [scale.choose_scale(img, cap) for cap in (0.2e6, 0.1e6)]
        other = scale.probe_lengths(img.copy())  # another array: measured anew
        kind = scale.probe_lengths(img, scale.ScaleConfig(probe_levels=3))  # another setting
    assert len(calls) == 3
    assert again is first and not first[0].flags.writeable
    assert np.array_equal(first[0], fresh[0]) and first[1] == fresh[1]
    assert np.array_equal(other[0], fresh[0]) and len(fresh[0]) >= 8
    assert kind[1] == fresh[1]
    assert caps == want and caps[0] != caps[1]
    scale.probe_lengths(img)  # outside the block: nothing kept
    assert len(calls) == 4
