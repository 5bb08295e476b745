"""Tiles read `none` because their corners were named a quarter round (`agari.vision.quarter`)."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import numpy as np
import pytest
from agari.engine.errors import InvalidInput
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection
from agari.vision.quarter import QuarterConfig, named_round, turn_unread

SQUARE = ((0.0, 0.0), (40.0, 0.0), (40.0, 60.0), (0.0, 60.0))
IMAGE = np.zeros((200, 200, 3), np.uint8)


@pytest.fixture(scope="module")
def sample(sample_hand):
    image, truth, clf = sample_hand
    return image, truth, partial(clf.classify_detections, top_k=5)


def _det(quad, **kw) -> TileDetection:
    return TileDetection(tuple((float(x), float(y)) for x, y in quad), **kw)


def _moved(quad, dx: float) -> tuple:
    return tuple((x + dx, y) for x, y in quad)


def test_the_sample_hands_tiles_named_a_quarter_round_are_read_again(sample):
    image, truth, classify = sample
    row = [t for t in truth if t["role"] == "concealed" and not t["sideways"]]
    # Named one step back round, each crop shows its face turned a quarter.
    off = [_det((q[3], q[0], q[1], q[2])) for q in (t["quad"] for t in row)]
    first = classify(image, off)
    unread = [i for i, d in enumerate(first) if d.label is None]
    assert len(unread) >= 3                      # the classifier calls most of them `none`
    after = turn_unread(image, first, classify)
    for i in unread:
        if after[i].label is not None:
            assert after[i].label_name == row[i]["label"]
    assert sum(after[i].label is not None for i in unread) >= len(unread) - 1
    # Faces read unsurely (6p as 8p, 7p as 1s on this photo) are read turned too, and end
    # as their true tiles; faces read surely are left as they are, right or wrong.
    doubt = QuarterConfig().doubt_below
    unsure = [i for i in range(len(row)) if i not in unread and first[i].confidence < doubt]
    assert len(unsure) >= 2
    assert all(after[i].label_name == row[i]["label"] for i in unsure)
    assert all(after[i] is first[i] for i in range(len(row)) if i not in unread + unsure)


def _reads(answer):
    """A classifier stub: ``answer(quad) -> (label, confidence)``."""
    def classify(img, dets):
        out = []
        for d in dets:
            label, p = answer(d.quad)
            name = str(label) if label is not None else "none"
            out.append(replace(d, label=label, confidence=p, alternatives=((name, p),)))
        return out
    return classify


def _none(quad) -> TileDetection:
    return _det(quad, label=None, confidence=0.9, alternatives=(("none", 0.9),))


def test_a_turned_reading_is_taken_only_when_sure():
    eight = Tile.parse("8s")
    turned_first = named_round(_det(SQUARE)).quad[0]
    unsure = _reads(lambda q: (eight, 0.5) if q[0] == turned_first else (None, 0.9))
    sure = _reads(lambda q: (eight, 0.9) if q[0] == turned_first else (None, 0.9))
    assert turn_unread(IMAGE, [_none(SQUARE)], unsure)[0].label is None
    (got,) = turn_unread(IMAGE, [_none(SQUARE)], sure)
    assert got.label == eight and got.quad == named_round(_det(SQUARE)).quad


def test_a_box_over_a_tile_already_read_stays_none():
    one = Tile.parse("1p")
    read = _det(SQUARE, label=one, confidence=0.95, alternatives=(("1p", 0.95),))
    over = _none(_moved(SQUARE, 20.0))      # half over the tile read
    beside = _none(_moved(SQUARE, 45.0))    # its neighbour
    anything = _reads(lambda q: (Tile.parse("9m"), 0.99))
    out = turn_unread(IMAGE, [read, over, beside], anything)
    assert out[0] is read and out[1] is over
    assert out[2].label == Tile.parse("9m")


def test_thresholds_are_checked():
    with pytest.raises(InvalidInput):
        QuarterConfig(accept_confidence=1.5)


def test_a_tile_taken_for_a_sideways_one_that_reads_turned_stands_upright():
    eight = Tile.parse("8s")
    turned_first = named_round(_det(SQUARE)).quad[0]
    sure = _reads(lambda q: (eight, 0.9) if q[0] == turned_first else (None, 0.9))
    lying = replace(_none(SQUARE), sideways=True)
    (got,) = turn_unread(IMAGE, [lying], sure)
    # Its sideways crop named round is its upright crop half turned: same face, upright.
    assert got.label == eight and not got.sideways and got.quad == lying.quad


def _face(quad, name: str, p: float) -> TileDetection:
    return _det(quad, label=Tile.parse(name), confidence=p, alternatives=((name, p),))


@pytest.mark.parametrize(("first", "turned", "kept"), [
    (0.45, 0.97, False),   # an unsure face that reads far surer turned: the turned reading
    (0.70, 0.95, True),    # surer, but by less than the margin: the first reading stays
    (0.95, 0.99, True),    # read surely enough: not read turned at all
])
def test_an_unsure_face_takes_a_much_surer_turned_reading(first, turned, kept):
    called = _face(SQUARE, "5p", first)          # a 5s lying sideways, cut upright
    turned_first = named_round(called).quad[0]
    calls = []

    def classify(img, dets):
        calls.extend(dets)
        return _reads(lambda q: (Tile.parse("5s"), turned) if q[0] == turned_first
                      else (Tile.parse("5p"), first))(img, dets)

    (got,) = turn_unread(IMAGE, [called], classify)
    assert (got is called) == kept
    if not kept:
        assert got.label == Tile.parse("5s") and got.quad == named_round(called).quad
    assert bool(calls) == (first < QuarterConfig().doubt_below)


def test_unsure_faces_are_left_alone_when_doubt_is_off():
    called = _face(SQUARE, "5p", 0.5)
    out = turn_unread(IMAGE, [called], _reads(lambda q: (Tile.parse("5s"), 0.99)),
                      config=QuarterConfig(doubt_below=None))
    assert out[0] is called


@pytest.mark.parametrize(("sure_turn", "turned", "kept"), [
    (None, 0.95, True),    # off: the margin holds (0.70 + 0.4 > 0.95)
    (0.9, 0.95, False),    # a turned reading this sure replaces the face despite the margin
    (0.9, 0.85, True),     # surer than the face, but not sure enough to skip the margin
])
def test_a_sure_turned_reading_needs_no_margin(sure_turn, turned, kept):
    called = _face(SQUARE, "4p", 0.70)           # a 4s lying sideways, cut upright
    turned_first = named_round(called).quad[0]
    classify = _reads(lambda q: (Tile.parse("4s"), turned) if q[0] == turned_first
                      else (Tile.parse("4p"), 0.70))
    (got,) = turn_unread(IMAGE, [called], classify, config=QuarterConfig(sure_turn=sure_turn))
    assert (got is called) == kept
    if not kept:
        assert got.label == Tile.parse("4s")


def test_a_sure_turned_reading_must_beat_the_face():
    face = _face(SQUARE, "4p", 0.89)
    turned_first = named_round(face).quad[0]
    classify = _reads(lambda q: (Tile.parse("4s"), 0.89) if q[0] == turned_first
                      else (Tile.parse("4p"), 0.89))
    (got,) = turn_unread(IMAGE, [face], classify, config=QuarterConfig(sure_turn=0.5))
    assert got is face
    with pytest.raises(InvalidInput):
        QuarterConfig(sure_turn=1.2)


@pytest.mark.parametrize(("sure_overlap", "p", "taken"), [
    (None, 0.99, False),   # off: a third over a read tile is too much (max_overlap 0.2)
    (0.45, 0.99, True),    # a sure turned face may lie that far over its neighbour
    (0.45, 0.85, False),   # unless it is not sure enough
])
def test_a_sure_turned_face_may_lie_partly_over_a_read_tile(sure_overlap, p, taken):
    one = Tile.parse("1p")
    read = _det(SQUARE, label=one, confidence=0.95, alternatives=(("1p", 0.95),))
    near = _none(_moved(SQUARE, 28.0))      # 12 of its 40 px over the tile read
    out = turn_unread(IMAGE, [read, near], _reads(lambda q: (Tile.parse("9m"), p)),
                      config=QuarterConfig(sure_overlap=sure_overlap))
    assert out[0] is read
    assert (out[1].label == Tile.parse("9m")) == taken
