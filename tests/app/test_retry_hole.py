"""`holed_row`: a waiting hand whose concealed row shows a hole lost a tile there, and is
read again (`RetryConfig.holed`)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from agari.vision.detection import TileDetection
from agari.vision.layout_geometry import HandFrame
from agari.vision.layout_plan import LayoutPlan, MeldPlace

from agari.pipeline import PhotoResult
from agari.retry import DEFAULT_RETRY, RetryConfig, no_hand, retried
from agari.retry_hole import holed_row

FRAME = HandFrame((1.0, 0.0), (0.0, -1.0), 40.0, 56.0)


def tile(x: float) -> TileDetection:
    return TileDetection(quad=((x, 0.0), (x + 40, 0.0), (x + 40, 56.0), (x, 56.0)))


def result(xs: list[float], melds: int, win: float | None = None) -> SimpleNamespace:
    """A reading of concealed tiles at ``xs`` (left edges), ``melds`` pons and any winning
    tile set apart at ``win``."""
    dets = [tile(x) for x in xs] + ([tile(win)] if win is not None else [])
    dets += [tile(1000.0 + 45 * k) for k in range(3 * melds)]
    base = len(dets) - 3 * melds
    pons = tuple(MeldPlace("open", tuple((base + 3 * m + k,) for k in range(3)), 0)
                 for m in range(melds))
    plan = LayoutPlan(FRAME, tuple(range(len(xs))), win=len(xs) if win is not None else None,
                      melds=pons)
    best = SimpleNamespace(plan=plan, tiles=())
    reading = SimpleNamespace(layout=SimpleNamespace(hand_text="", dora=(), ura=()),
                              confidence=1.0, corrections=(), best=best, level="scores")
    return SimpleNamespace(reading=reading, detections=dets, error=None)


ROW = [41.0 * k for k in range(7)]


@pytest.mark.parametrize("xs, melds, win, expected", [
    (ROW, 2, None, False),                          # an even waiting row
    (ROW[:3] + [x + 41 for x in ROW[3:]], 2, None, True),  # a tile's width missing inside
    (ROW[:6], 2, ROW[6] + 15, False),               # the winning tile a little apart
    ([41.0 * k for k in (*range(6), *range(7, 14))], 0, None, True),  # no melds, one hole
    ([0.0, 82.0, 123.0, 164.0], 3, None, True),     # four tiles left, one lost (990045)
    ([0.0], 4, None, False),                        # a lone tile: no step to judge by
])
def test_holed_row(xs, melds, win, expected):
    assert holed_row(result(xs, melds, win), DEFAULT_RETRY.holed) is expected


def test_a_complete_hand_is_never_holed():
    xs = ROW[:3] + [x + 41 for x in ROW[3:]] + [41.0 * 8]
    assert not holed_row(result(xs, 2), DEFAULT_RETRY.holed)


def test_a_holed_waiting_hand_is_read_again_unless_switched_off():
    holed = result(ROW[:3] + [x + 41 for x in ROW[3:]], 2)
    assert no_hand(holed)
    assert not no_hand(holed, RetryConfig(holed=None))
    assert not no_hand(result(ROW, 2))


def photo(xs: list[float], hand: str, melds: int = 2) -> PhotoResult:
    """A `PhotoResult` reading ``hand`` from concealed tiles at ``xs`` and ``melds`` pons."""
    got = result(xs, melds)
    got.reading.layout.hand_text = hand
    return PhotoResult("", 1920, 1080, detections=tuple(got.detections), reading=got.reading)


def test_the_same_hole_read_again_gives_no_vote():
    holed, whole = ROW[:3] + [x + 41 for x in ROW[3:]], ROW + [41.0 * 7]
    first = photo(holed, "4568p444z 999m 555z")
    again = [lambda: photo(holed, "4568p444z 999m 555z")] * 2 + \
        [lambda: photo(whole, "5688p444z4p 999m 555z")] * 2
    got = retried(first, again, DEFAULT_RETRY)
    assert got.reading.layout.hand_text == "5688p444z4p 999m 555z"
    off = retried(first, again, RetryConfig(holed=None))
    assert off.reading.layout.hand_text == "4568p444z 999m 555z"


def test_another_holed_hand_still_votes():
    holed = ROW[:3] + [x + 41 for x in ROW[3:]]
    again = [lambda: photo(holed, "4568p444z 999m 555z")] * 2
    got = retried(photo(ROW, "4567p444z 999m 555z"), again, DEFAULT_RETRY)
    assert got.reading.layout.hand_text == "4568p444z 999m 555z"
