"""Re-framing: unsure readings are read again through shifted, trimmed and turned quads."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import numpy as np
import pytest
from agari.engine.tiles import BACK, Tile
from agari.vision.detection import TileDetection
from agari.vision.quads import quad_iou
from agari.vision.reframe import ReframeConfig, reframe, sub_quad, turned_quad

SQUARE = np.array([[0.0, 0.0], [40.0, 0.0], [40.0, 60.0], [0.0, 60.0]])


@pytest.fixture(scope="module")
def sample(sample_hand):
    image, truth, clf = sample_hand
    return image, truth, partial(clf.classify_detections, top_k=5)


def _det(q: np.ndarray, **kw) -> TileDetection:
    return TileDetection(tuple((float(x), float(y)) for x, y in q), **kw)


def test_boxes_straddling_two_tiles_are_moved_onto_one(sample):
    image, truth, classify = sample
    row = [t for t in truth if t["role"] in ("concealed", "win")]
    shifted = [_det(sub_quad(np.float64(t["quad"]), (0.4, 0.0, 1.4, 1.0))) for t in row]
    before = classify(image, shifted)
    assert sum(isinstance(d.label, Tile) for d in before) <= 2  # the shipped model balks
    after = reframe(image, before, classify)
    assert [d.label_name for d in after] == [t["label"] for t in row]
    for d, t in zip(after, row, strict=True):
        assert quad_iou(np.float32(d.quad), np.float32(t["quad"])) > 0.6


def test_a_called_tile_boxed_upright_is_turned_sideways(sample):
    image, truth, classify = sample
    called = next(t for t in truth if t["sideways"])
    boxed = classify(image, [_det(turned_quad(np.float64(called["quad"])))])
    assert boxed[0].label_name != called["label"]
    (turned,) = reframe(image, boxed, classify)
    assert turned.sideways and turned.label_name == called["label"]
    assert quad_iou(np.float32(turned.quad), np.float32(called["quad"])) > 0.9


def _reads(answer):
    """A classifier stub: ``answer(quad) -> (label, confidence)`` for every detection."""
    def classify(img, dets):
        out = []
        for d in dets:
            label, p = answer(np.asarray(d.quad))
            name = str(label) if label is not None else "none"
            out.append(replace(d, label=label, confidence=p, alternatives=((name, p),)))
        return out
    return classify


IMAGE = np.zeros((200, 200, 3), np.uint8)
ONE_PIN = Tile.parse("1p")


def test_sure_faces_and_backs_are_left_as_read():
    sure = _det(SQUARE + 50, label=ONE_PIN, confidence=0.95)
    back = _det(SQUARE + 100, label=BACK, confidence=0.6, face_down=True)
    anything = _reads(lambda q: (Tile.parse("9m"), 0.99))
    assert reframe(IMAGE, [sure, back], anything) == [sure, back]


def test_a_trim_that_reads_keeps_the_locators_quad():
    quad = SQUARE + 50
    top = sub_quad(quad, (0.0, 0.0, 1.0, 0.6))  # the face above a lying tile's front side
    unsure = _det(quad, label=None, confidence=0.9)

    def face_on_top(q):
        return (ONE_PIN, 0.97) if np.allclose(q, top) else (None, 0.9)

    (got,) = reframe(IMAGE, [unsure], _reads(face_on_top))
    assert got.label == ONE_PIN and got.confidence == pytest.approx(0.97)
    assert np.allclose(got.quad, quad)


def test_a_trim_after_a_move_keeps_the_moved_quad():
    quad = SQUARE + 50
    moved = sub_quad(quad, (0.25, 0.0, 1.25, 1.0))
    top = sub_quad(moved, (0.0, 0.0, 1.0, 0.6))
    unsure = _det(quad, label=None, confidence=0.8, alternatives=(("none", 0.8), ("2s", 0.1)))

    def face_up_there(q):
        if np.allclose(q, top):
            return ONE_PIN, 0.97
        return (ONE_PIN, 0.5) if np.allclose(q, moved) else (None, 0.9)

    (got,) = reframe(IMAGE, [unsure], _reads(face_up_there))
    assert got.label == ONE_PIN and np.allclose(got.quad, moved)


def test_a_move_that_reads_nearly_as_surely_as_a_trim_wins():
    quad = SQUARE + 50
    moved = sub_quad(quad, (-0.25, 0.0, 0.75, 1.0))
    half = sub_quad(quad, (0.0, 0.0, 0.75, 1.0))  # a box over a tile and its neighbour's edge
    unsure = _det(quad, label=None, confidence=0.9)

    def reads(trim_p):
        table = {0: (ONE_PIN, 0.93), 1: (ONE_PIN, trim_p)}
        return _reads(lambda q: table[0] if np.allclose(q, moved)
                      else table[1] if np.allclose(q, half) else (None, 0.9))

    # The trim reads a little more surely, but only the move says where the tile lies.
    (got,) = reframe(IMAGE, [unsure], reads(0.96))
    assert got.label == ONE_PIN and np.allclose(got.quad, moved)
    # A trim far surer than any move is still taken (and keeps the whole quad).
    (sure,) = reframe(IMAGE, [unsure], reads(0.995))
    assert sure.confidence == pytest.approx(0.995) and np.allclose(sure.quad, quad)


def test_a_blank_patch_never_becomes_a_white_dragon():
    unsure = _det(SQUARE + 50, label=None, confidence=0.9)
    blank = _reads(lambda q: (Tile.parse("5z"), 0.99))
    assert reframe(IMAGE, [unsure], blank) == [unsure]
    allowed = reframe(IMAGE, [unsure], blank, config=ReframeConfig(never=()))
    assert allowed[0].label == Tile.parse("5z")


def test_turning_needs_a_new_reading_and_room_beside_the_neighbours():
    quad = SQUARE + 80
    turned = turned_quad(quad)
    left = _det(quad - [40, 0], label=Tile.parse("2p"), confidence=0.99)
    right = _det(quad + [40, 0], label=Tile.parse("3p"), confidence=0.99)

    def turned_reads(label):
        return _reads(lambda q: (label, 0.95) if np.allclose(q, turned) else (None, 0.6))

    called = _det(quad, label=None, confidence=0.6)
    # Alone (a called tile beside the row's end), a quad that reads only turned is turned.
    (alone,) = reframe(IMAGE, [called], turned_reads(ONE_PIN))
    assert alone.sideways and alone.label == ONE_PIN and np.allclose(alone.quad, turned)
    # Between touching tiles, turned it would lie over both: it stays as it was.
    assert reframe(IMAGE, [left, called, right], turned_reads(ONE_PIN))[1] == called
    # Read as the same tile upright already, turning proves nothing about how it lies.
    upright = _det(quad, label=ONE_PIN, confidence=0.5)
    (same,) = reframe(IMAGE, [upright], turned_reads(ONE_PIN))
    assert not same.sideways and np.allclose(same.quad, quad)
    assert same.confidence == pytest.approx(0.95)


def test_frames_map_into_the_quad():
    skew = np.array([[10.0, 10.0], [50.0, 14.0], [54.0, 80.0], [8.0, 76.0]])
    assert np.allclose(sub_quad(skew, (0.0, 0.0, 1.0, 1.0)), skew)
    half = sub_quad(skew, (0.0, 0.0, 0.5, 1.0))
    assert np.allclose(half[1], (skew[0] + skew[1]) / 2)
    assert np.allclose(half[2], (skew[3] + skew[2]) / 2)
    moved = sub_quad(SQUARE, (0.25, 0.0, 1.25, 1.0))
    assert np.allclose(moved, SQUARE + [10.0, 0.0])


def test_a_turned_quad_swaps_the_sides_about_the_centre():
    turned = turned_quad(SQUARE)
    assert np.allclose(turned.mean(axis=0), SQUARE.mean(axis=0))
    assert np.linalg.norm(turned[1] - turned[0]) == pytest.approx(60.0)
    assert np.linalg.norm(turned[3] - turned[0]) == pytest.approx(40.0)
