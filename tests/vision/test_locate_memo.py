"""`LocateMemo`: a photo located again under another size cap that gives the same working
image takes the tiles found before; another working size, setting or array is located anew."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
from agari.vision.locate import DEFAULT_CONFIG, locate, working_size
from agari.vision.locate_memo import LocateMemo


def _tiles_photo() -> np.ndarray:
    """A grey table with two rows of light tiles, each with a dark stroke."""
    img = np.full((600, 800, 3), 60, np.uint8)
    for y in (150, 350):
        for k in range(8):
            x = 80 + k * 70
            cv2.rectangle(img, (x, y), (x + 60, y + 80), (235, 235, 235), -1)
            cv2.line(img, (x + 20, y + 30), (x + 40, y + 50), (20, 20, 20), 4)
    return img


def test_same_working_size_is_located_once_with_the_same_tiles():
    img = _tiles_photo()
    loose = replace(DEFAULT_CONFIG, max_pixels=0.45e6)  # binds no more than 1 MP here
    tight = replace(DEFAULT_CONFIG, max_pixels=0.1e6)
    assert working_size(img, loose) == working_size(img, DEFAULT_CONFIG)
    assert working_size(img, tight) != working_size(img, DEFAULT_CONFIG)
    calls = []

    def counted(cfg):
        return lambda image: calls.append(cfg) or locate(image, config=cfg)

    memo = LocateMemo()
    first = memo.remembered(counted(DEFAULT_CONFIG), DEFAULT_CONFIG)(img)
    again = memo.remembered(counted(loose), loose)(img)
    small = memo.remembered(counted(tight), tight)(img)
    other = memo.remembered(counted(loose), loose)(img.copy())
    assert calls == [DEFAULT_CONFIG, tight, loose]
    assert len(first) >= 8
    assert again == first == locate(img, config=loose) and again is not first
    assert small == locate(img, config=tight)
    assert other == first
