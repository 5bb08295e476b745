"""Boxes still read `none` giving way to the core net's quads (`agari.vision.net_faces`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from agari.engine.errors import InvalidInput
from agari.engine.tiles import Tile
from agari.vision.cores import CoreQuad
from agari.vision.detection import TileDetection
from agari.vision.net_faces import NetFacesConfig, net_faces

IMAGE = np.zeros((200, 300, 3), np.uint8)
TALL = ((0.0, 0.0), (40.0, 0.0), (40.0, 60.0), (0.0, 60.0))


def _moved(quad, dx: float) -> tuple:
    return tuple((x + dx, y) for x, y in quad)


def _det(quad, label=None, p: float = 0.9) -> TileDetection:
    name = str(label) if label is not None else "none"
    return TileDetection(tuple((float(x), float(y)) for x, y in quad), label=label,
                         confidence=p, alternatives=((name, p),))


def _core(quad, score: float = 0.9) -> CoreQuad:
    return CoreQuad(np.asarray(quad, np.float32), score, False)


def _reads(answer):
    """A classifier stub: ``answer(detection) -> (label, confidence)``; the detections it
    was asked to read are kept in ``classify.asked``."""
    asked: list[TileDetection] = []

    def classify(img, dets):
        asked.extend(dets)
        out = []
        for d in dets:
            label, p = answer(d)
            name = str(label) if label is not None else "none"
            out.append(replace(d, label=label, confidence=p, alternatives=((name, p),)))
        return out
    classify.asked = asked
    return classify


def _left(d: TileDetection) -> float:
    return min(x for x, _ in d.quad)


def test_a_box_read_none_gives_way_to_a_net_quad_read_surely():
    three = Tile.parse("3p")
    face = _det(TALL, Tile.parse("1m"), 0.95)
    box = _det(_moved(TALL, 60.0))                  # a tile's face and front side, say
    after = _det(_moved(TALL, 120.0), Tile.parse("9s"), 0.95)
    core = _core(_moved(TALL, 62.0))
    out = net_faces(IMAGE, [face, box, after], [core], _reads(lambda d: (three, 0.95)))
    assert [d.label for d in out] == [Tile.parse("1m"), three, Tile.parse("9s")]
    assert out[0] is face and out[2] is after       # in place: the order kept
    assert out[1].quad == tuple(map(tuple, core.quad.astype(float)))


def test_an_unsure_or_blank_net_reading_leaves_the_box():
    box = _det(TALL)
    core = [_core(_moved(TALL, 3.0))]
    for label, p in ((Tile.parse("3p"), 0.7), (Tile.parse("5z"), 0.99), (None, 0.99)):
        assert net_faces(IMAGE, [box], core, _reads(lambda d, a=(label, p): a)) == [box]


def test_net_quads_over_faces_weak_cores_and_tiles_never_boxed_are_not_read():
    face = _det(TALL, Tile.parse("1m"), 0.95)
    box = _det(_moved(TALL, 100.0))
    cores = [_core(_moved(TALL, 20.0)),             # half over the face read
             _core(_moved(TALL, 100.0), score=0.4),  # the net unsure
             _core(_moved(TALL, 200.0))]            # over no box read `none`
    classify = _reads(lambda d: (Tile.parse("7s"), 0.99))
    assert net_faces(IMAGE, [face, box], cores, classify) == [face, box]
    assert classify.asked == []
    assert net_faces(IMAGE, [face, box], cores, classify,
                     config=NetFacesConfig(min_core=0.3))[1].label == Tile.parse("7s")


def test_a_box_across_two_tiles_gives_way_to_both_net_quads():
    box = _det(_moved(TALL, 20.0))                  # the halves of two tiles
    cores = [_core(TALL), _core(_moved(TALL, 42.0))]
    names = {0.0: Tile.parse("2s"), 42.0: Tile.parse("3s")}
    out = net_faces(IMAGE, [box], cores, _reads(lambda d: (names[_left(d)], 0.95)))
    assert sorted(str(d.label) for d in out) == ["2s", "3s"]


def test_two_net_quads_of_one_tile_the_surer_stands():
    box = _det(TALL)
    cores = [_core(_moved(TALL, 2.0)), _core(_moved(TALL, 4.0))]
    surer = {2.0: 0.92, 4.0: 0.97}
    out = net_faces(IMAGE, [box], cores, _reads(lambda d: (Tile.parse("4m"), surer[_left(d)])))
    assert len(out) == 1 and out[0].confidence == 0.97


def test_a_wide_net_quad_is_read_lying_sideways_and_turned_upright():
    wide = ((0.0, 0.0), (60.0, 0.0), (60.0, 40.0), (0.0, 40.0))
    box = _det(wide)
    nine = Tile.parse("9m")
    # Read sideways the crop is the face upright; read with its corners as given, upright,
    # it is the face turned a quarter, which the classifier calls `none`.
    classify = _reads(lambda d: (nine, 0.96) if d.sideways else (None, 0.9))
    (got,) = net_faces(IMAGE, [box], [_core(wide)], classify)
    assert got.label == nine and got.sideways
    assert len(classify.asked) == 2 and sum(d.sideways for d in classify.asked) == 1
    # A foreshortened upright tile (wider than tall in the photo) reads turned upright.
    turned = _reads(lambda d: (None, 0.9) if d.sideways else (nine, 0.96))
    (got,) = net_faces(IMAGE, [box], [_core(wide)], turned)
    assert got.label == nine and not got.sideways
    assert got.quad[0] == (60.0, 0.0)               # its corners named a step round


def test_nothing_read_none_nothing_read():
    face = _det(TALL, Tile.parse("1m"), 0.95)
    classify = _reads(lambda d: (Tile.parse("1m"), 0.99))
    assert net_faces(IMAGE, [face], [_core(TALL)], classify) == [face]
    assert classify.asked == []


@pytest.mark.parametrize("field", ["min_core", "clear", "over", "accept"])
def test_thresholds_are_probabilities(field):
    with pytest.raises(InvalidInput):
        NetFacesConfig(**{field: 1.5})


def test_with_weak_a_box_read_unsurely_as_a_face_gives_way_too():
    box = _det(TALL, Tile.parse("4p"), 0.6)        # across a seam, read as one side's face
    core = [_core(_moved(TALL, 3.0))]
    five = _reads(lambda d: (Tile.parse("5s"), 0.95))
    assert net_faces(IMAGE, [box], core, five) == [box]          # off: faces stay
    (got,) = net_faces(IMAGE, [box], core, five, config=NetFacesConfig(weak=0.8))
    assert got.label == Tile.parse("5s")
    sure = _det(TALL, Tile.parse("4p"), 0.85)
    back = replace(_det(TALL), label="back", alternatives=(("back", 0.6),), confidence=0.6)
    for kept in (sure, back):
        assert net_faces(IMAGE, [kept], core, five, config=NetFacesConfig(weak=0.8)) == [kept]


def test_a_wide_net_quad_never_replaces_a_tall_box():
    # A standing tile's box read `none`, the net's quad of its printed part across its top:
    # read as a tile lying sideways it would be a called tile the hand does not have.
    box = _det(TALL)
    printed = ((2.0, 5.0), (42.0, 5.0), (42.0, 35.0), (2.0, 35.0))
    eight = _reads(lambda d: (Tile.parse("8p"), 0.94))
    assert net_faces(IMAGE, [box], [_core(printed)], eight) == [box]
    (got,) = net_faces(IMAGE, [box], [_core(printed)], eight,
                       config=NetFacesConfig(upright_boxes=False))
    assert got.label == Tile.parse("8p")
    # A called tile's box is as wide as the tile: its net quad may replace it.
    flat = _det(((0.0, 0.0), (60.0, 0.0), (60.0, 45.0), (0.0, 45.0)))
    (got,) = net_faces(IMAGE, [flat], [_core(((0.0, 5.0), (60.0, 5.0), (60.0, 40.0),
                                              (0.0, 40.0)))], eight)
    assert got.label == Tile.parse("8p")
