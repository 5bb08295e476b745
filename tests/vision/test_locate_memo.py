"""`LocateMemo`: a photo located again under another size cap that gives the same working
image takes the tiles found before; another working size, setting or array is located anew."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.locate import DEFAULT_CONFIG, locate, working_size
from agari.vision.locate_memo import LocateMemo
from locate_factories import two_rows_photo


def test_same_working_size_is_located_once_with_the_same_tiles():
    img = two_rows_photo(strokes=True)
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
