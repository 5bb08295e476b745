"""`agari.vision.sheared`: a row of symbol boxes read ``none`` on faces seen at a steep
slant gets plates leaning as the faces do."""

from dataclasses import replace

import cv2
import numpy as np
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection, as_quad
from agari.vision.quads import quad_iou
from agari.vision.sheared import ShearedConfig, sheared_faces

PITCH, DEPTH, LEAN = 40.0, 26.0, 1.4  # faces 40 px along the row, leaning far over
ALONG = np.array([np.cos(np.radians(20)), np.sin(np.radians(20))])
ACROSS = np.array([-ALONG[1], ALONG[0]])
START = np.array([120.0, 120.0])


def faces(n: int = 8) -> list[np.ndarray]:
    """The true face quads of a row of ``n`` touching sheared faces."""
    down = DEPTH * ACROSS + LEAN * DEPTH * ALONG
    out = []
    for k in range(n):
        tl = START + k * PITCH * ALONG
        out.append(np.array([tl, tl + PITCH * ALONG, tl + PITCH * ALONG + down, tl + down]))
    return out


def photo(quads: list[np.ndarray]) -> np.ndarray:
    """Pale faces with dark seams and a dark symbol mid-face, on a mid-grey table."""
    img = np.full((400, 640, 3), 90, np.uint8)
    for q in quads:
        cv2.fillPoly(img, [np.round(q).astype(np.int32)], (225, 225, 225))
        cv2.polylines(img, [np.round(q).astype(np.int32)], True, (60, 60, 60), 2)
        c = np.round(q.mean(axis=0)).astype(int)
        cv2.circle(img, tuple(int(v) for v in c), 5, (30, 30, 30), -1)
    return img


def symbol_boxes(quads: list[np.ndarray]) -> list[TileDetection]:
    """A box round each face's symbol, read ``none``."""
    out = []
    for q in quads:
        c = q.mean(axis=0)
        box = [c + (-6, -6), c + (6, -6), c + (6, 6), c + (-6, 6)]
        out.append(TileDetection(as_quad(box), label=None, confidence=0.95))
    return out


def reader(true: list[np.ndarray]):
    """A stand-in classifier: a quad on a true face (IoU 0.7) is 3s, anything else none."""
    def classify(image, dets):
        out = []
        for d in dets:
            q = np.asarray(d.quad)
            if max((quad_iou(q, t) for t in true), default=0.0) >= 0.7:
                out.append(replace(d, label=Tile.parse("3s"), confidence=0.95))
            else:
                out.append(replace(d, label=None, confidence=0.9))
        return out
    return classify


def test_symbol_boxes_on_sheared_faces_give_way_to_plates_on_the_faces():
    true = faces()
    dets = symbol_boxes(true)
    got = sheared_faces(photo(true), dets, reader(true))
    plates = [d for d in got if d.label is not None]
    assert len(plates) >= 6
    assert all(max(quad_iou(np.asarray(d.quad), t) for t in true) >= 0.7 for d in plates)
    # the boxes the plates cover are gone
    assert not any(d in got for d, t in zip(dets, true, strict=True)
                   if any(quad_iou(np.asarray(p.quad), t) >= 0.7 for p in plates))


def test_too_few_boxes_or_no_surely_read_plate_change_nothing():
    true = faces()
    dets = symbol_boxes(true)
    assert sheared_faces(photo(true), dets[:2], reader(true)) == dets[:2]
    assert sheared_faces(photo(true), dets, reader([])) == dets


def test_a_surely_read_tile_is_not_replaced():
    true = faces()
    dets = symbol_boxes(true)
    dets[3] = replace(dets[3], label=Tile.parse("5p"), confidence=0.97)
    got = sheared_faces(photo(true), dets, reader(true), config=ShearedConfig())
    assert dets[3] in got
    assert not any(d.label == Tile.parse("3s") and quad_iou(np.asarray(d.quad), true[3]) > 0.3
                   for d in got)


def test_column_means_equal_numpys_float64_means():
    from agari.vision.sheared import _column_means

    rng = np.random.default_rng(7)
    for shape in [(1, 5), (33, 400), (65, 1500), (4, 1)]:
        band = rng.integers(0, 256, shape, dtype=np.uint8)
        assert np.array_equal(_column_means(band), band.mean(axis=0, dtype=np.float64))
    full = np.full((65, 300), 255, np.uint8)
    assert np.array_equal(_column_means(full), full.mean(axis=0, dtype=np.float64))
    grey = rng.random((9, 20)).astype(np.float32)  # not 8-bit: numpy's own mean
    assert np.array_equal(_column_means(grey), grey.mean(axis=0, dtype=np.float64))
