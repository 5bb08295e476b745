"""Net quads left out take the place of located boxes the classifier reads badly."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from agari.vision.cores import CoreQuad
from agari.vision.detection import TileDetection
from agari.vision.quads import quad_iou
from agari.vision.reframe import sub_quad
from agari.vision.spares import SpareConfig, settle_spares


@pytest.fixture(scope="module")
def sample(sample_hand):
    image, truth, clf = sample_hand
    row = [t for t in truth if t["role"] == "concealed"]
    return image, [np.float32(t["quad"]) for t in row], [t["label"] for t in row], \
        partial(clf.classify_detections, top_k=5)


def _det(q: np.ndarray) -> TileDetection:
    return TileDetection(tuple((float(x), float(y)) for x, y in q))


def _cores(quads: list[np.ndarray], score: float = 0.8) -> list[CoreQuad]:
    return [CoreQuad(q, score, False) for q in quads]


def _located(quads: list[np.ndarray], bad: int, frame) -> list[TileDetection]:
    """The row's true quads, the ``bad``-th replaced by ``frame`` of it."""
    return [_det(sub_quad(np.float64(q), frame) if i == bad else q) for i, q in enumerate(quads)]


def test_a_box_half_a_tile_off_gives_way_to_the_net_quad(sample):
    image, quads, labels, classify = sample
    located = _located(quads, 3, (0.5, 0.0, 1.5, 1.0))  # straddles tiles 3 and 4
    assert classify(image, located[3:4])[0].label_name != labels[3]  # the box reads badly
    out = settle_spares(image, located, _cores(quads), classify)
    assert len(out) == len(located)
    assert quad_iou(np.float32(out[3].quad), quads[3]) > 0.95
    assert [d.label_name for d in classify(image, out)] == labels


def test_a_box_read_surely_stays(sample):
    image, quads, _, classify = sample
    located = _located(quads, 3, (0.0, 0.0, 1.0, 1.15))  # a little long, still read surely
    assert classify(image, located[3:4])[0].confidence >= SpareConfig().weak
    assert settle_spares(image, located, _cores(quads), classify) == located


@pytest.mark.parametrize("config, core_score, moved", [
    (SpareConfig(), 0.8, True),
    (SpareConfig(), 0.5, False),  # the net unsure of its quad
    (SpareConfig(agree=None), 0.8, True),
])
def test_the_net_is_heard_only_where_it_frames_tiles_as_the_locator_does(
        sample, config, core_score, moved):
    image, quads, _, classify = sample
    located = _located(quads, 3, (0.5, 0.0, 1.5, 1.0))
    out = settle_spares(image, located, _cores(quads, core_score), classify, config=config)
    assert (out != located) == moved


def test_where_the_net_quads_hold_only_the_printed_part_nothing_changes(sample):
    # As on the real photos: every net quad smaller than the located face it lies in, so
    # none fits a located quad, and the net's framing is not the locator's here.
    image, quads, _, classify = sample
    located = _located(quads, 3, (0.5, 0.0, 1.5, 1.0))
    inner = [sub_quad(np.float64(q), (0.08, 0.12, 0.92, 0.88)).astype(np.float32) for q in quads]
    assert settle_spares(image, located, _cores(inner), classify) == located


FRONT = (0.0, 0.3, 1.0, 1.9)
"""A box over the lower part of a lying tile's face and its front side below it (reads
``none``)."""


@pytest.mark.parametrize("config, moved", [
    (SpareConfig(bare=None), False),  # no neighbour vouches for the net here
    (SpareConfig(bare=0.5), True),
    (SpareConfig(bare=0.99), False),  # the box reads none, but not this surely
])
def test_a_box_that_holds_no_face_gives_way_to_a_net_quad_like_its_neighbours(
        sample, config, moved):
    image, quads, labels, classify = sample
    located = _located(quads, 3, FRONT)
    box = classify(image, located[3:4])[0]
    assert box.label is None and 0.5 <= box.confidence < 0.99
    out = settle_spares(image, located, _cores(quads[3:4]), classify, config=config)
    assert (out != located) == moved
    if moved:
        assert quad_iou(np.float32(out[3].quad), quads[3]) > 0.95
        assert classify(image, out[3:4])[0].label_name == labels[3]


@pytest.mark.parametrize("bare_size, moved", [(0.8, False), (0.0, True)])
def test_a_face_short_among_boxes_that_all_hold_their_front_sides_stays_out(
        sample, bare_size, moved):
    # As on the real photos: every box holds its face and the front side below, and the
    # net's quads the faces alone, short in that row: replaced, they broke it.
    image, quads, _, classify = sample
    located = [_det(sub_quad(np.float64(q), FRONT if i == 3 else (0.0, 0.0, 1.0, 1.6)))
               for i, q in enumerate(quads)]
    config = SpareConfig(bare=0.5, bare_size=bare_size)
    out = settle_spares(image, located, _cores(quads), classify, config=config)
    assert (out != located) == moved
