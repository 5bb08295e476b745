"""A classical box fitting the sure net quad over it loosely is judged against it."""

from dataclasses import replace

import numpy as np
import pytest
from agari.vision.cores import CoreQuad
from agari.vision.locate import HAND_LOCATE, _all_sure, core_proposals
from agari.vision.net_fit import NetFitConfig, loose_fits
from agari.vision.proposals import Proposal
from locate_factories import hand_tiles_found


def _box(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])


FACE = _box(0, 0, 30, 40)
ALIKE = [Proposal(_box(40 * k, 60, 30, 40), 1.0) for k in range(1, 4)]  # boxes that fit
ALIKE_NETS = [Proposal(_box(40 * k + 1, 61, 29, 39), 0.5) for k in range(1, 4)]


def _disputes(quad, *, score=0.9, face_down=False, cfg=None):
    props = [Proposal(quad, 1.0, face_down), *ALIKE]
    nets = [Proposal(FACE, 0.5), *ALIKE_NETS]
    return loose_fits(props, nets, [score] + [0.9] * len(ALIKE_NETS), cfg or NetFitConfig())


@pytest.mark.parametrize("quad, face_down, score, loose", [
    (_box(-1, -1, 32, 80), False, 0.9, True),  # face and front side below it
    (_box(-1, -1, 32, 42), False, 0.9, False),  # the face itself, a little loose
    (_box(12, 0, 30, 40), False, 0.9, True),  # half a neighbour taken in
    (_box(-1, -1, 32, 80), True, 0.9, False),  # a back holds no face
    (_box(-1, -1, 32, 80), False, 0.5, False),  # the net is unsure of its quad
])
def test_a_box_fitting_its_net_quad_loosely_is_disputed(quad, face_down, score, loose):
    disputes = _disputes(quad, score=score, face_down=face_down)
    assert bool(disputes) == loose
    if loose:
        assert len(disputes) == 1 and np.allclose(disputes[0][1][0].quad, FACE)


def test_the_printed_middle_of_a_box_disputes_nothing():
    # As the net frames real faces: a smaller quad in the middle of a whole-face box.
    middle = _box(-10, -10, 50, 60)
    assert not _disputes(middle)
    assert _disputes(middle, cfg=NetFitConfig(centred=None))


def test_a_centred_quad_disputes_its_box_where_boxes_fit_their_net_quads():
    # The other boxes fit their net quads (median area ratio about 1.1): the net frames
    # whole faces here, so a quad in the middle of a larger box is a face boxed loosely.
    middle = _box(-10, -10, 50, 60)
    assert _disputes(middle, cfg=NetFitConfig(centred_above=1.25))
    # Where the boxes run larger than their net quads, the printed middle is looked for.
    props = [Proposal(_box(40 * k - 2, 58, 34, 44), 1.0) for k in range(1, 4)]  # ratio 1.3
    nets = [Proposal(FACE, 0.5), *ALIKE_NETS]
    boxed = [Proposal(middle, 1.0), *props]
    assert not loose_fits(boxed, nets, [0.9] * 4, NetFitConfig(centred_above=1.25))
    assert loose_fits(boxed, nets, [0.9] * 4, NetFitConfig(centred_above=1.4))


def test_not_where_the_net_frames_faces_smaller_than_the_boxes_all_over():
    props = [Proposal(_box(40 * k - 4, 56, 38, 48), 1.0) for k in range(1, 4)]
    nets = [Proposal(FACE, 0.5), *ALIKE_NETS]
    loose = [Proposal(_box(-1, -1, 32, 80), 1.0), *props]
    assert not loose_fits(loose, nets, [0.9] * 4, NetFitConfig())
    assert loose_fits(loose, nets, [0.9] * 4, NetFitConfig(photo_ratio=None))


def test_all_sure_settles_by_the_rivals_alone():
    box = Proposal(_box(-1, -1, 32, 80), 1.0)
    face = Proposal(FACE, 0.5)
    for rated, lost in (([0.98], True), ([0.9], False), ([0.99, 0.9], False), ([0.99, 0.98], True)):
        rivals = [face, Proposal(_box(32, 0, 30, 40), 0.5)][:len(rated)]
        settle = _all_sure(None, 1.0, lambda bgr, quads, r=rated: np.float32(r), 0.97)
        assert settle([(box, rivals)]) == ([box] if lost else [])


def test_the_loose_box_gives_way_to_the_net_quad():
    front = Proposal(_box(-1, -1, 32, 80), 1.0)
    cores = [CoreQuad(FACE, 0.9, False)] + [CoreQuad(n.quad, 0.9, False) for n in ALIKE_NETS]
    config = replace(HAND_LOCATE, holds=None, net_fit=NetFitConfig())
    seen = []

    def fits(disputes):
        seen.extend(disputes)
        return [p for p, _ in disputes]

    kept, added = core_proposals(cores, [front, *ALIKE], 1.0, config, None, None, None, fits)
    assert [p for p, _ in seen] == [front]
    assert kept == ALIKE
    assert len(added) == 1 and np.allclose(added[0].quad, FACE)
    seen.clear()
    kept, added = core_proposals(cores, [front, *ALIKE], 1.0, replace(config, net_fit=None),
                                 None, None, None, fits)
    assert seen == [] and front in kept and added == []


def test_a_rendered_hand_is_found_where_boxes_held_faces_loosely():
    """Tuning render 1000020: a shown hand whose faces the classical steps boxed with their
    front sides or a neighbour's edge (IoU 0.33-0.46), boxes the classifier rated tiles at
    0.67-0.99, while the net framed the faces at IoU 0.70-0.94."""
    before = hand_tiles_found(1000020, HAND_LOCATE.cores, net_fit=None)
    after = hand_tiles_found(1000020, HAND_LOCATE.cores)
    assert HAND_LOCATE.net_fit is not None
    assert after >= before + 5  # 5 -> 12 of the hand's tiles with the shipped nets


def test_guards_give_way_where_the_net_quads_lie_off_their_boxes_middles():
    # Every box holds its face and the front side below it (the photo's median box is about
    # twice its net quad, so `photo_ratio` keeps the net out): the faces lie in the tops of
    # their boxes, a quarter of a box off its middle, not in the middle as a printed part.
    faces = [_box(40 * k, 0, 30, 40) for k in range(5)]
    fronts = [Proposal(_box(40 * k - 1, -1, 32, 80), 1.0) for k in range(5)]
    nets = [Proposal(f, 0.5) for f in faces]
    assert not loose_fits(fronts, nets, [0.9] * 5, NetFitConfig())
    heard = loose_fits(fronts, nets, [0.9] * 5, NetFitConfig(off_centre=0.15))
    assert [p for p, _ in heard] == fronts
    assert all(np.allclose(r[0].quad, f) for (_, r), f in zip(heard, faces, strict=True))
    # Too few disputes to tell the photo's framing by.
    assert not loose_fits(fronts[:3], nets[:3], [0.9] * 3, NetFitConfig(off_centre=0.15))
    # Printed middles (as the net frames real faces) lie in the middle of whole-face boxes.
    middles = [Proposal(_box(40 * k - 8, -10, 46, 60), 1.0) for k in range(5)]
    assert not loose_fits(middles, nets, [0.9] * 5, NetFitConfig(off_centre=0.15))


def test_a_rendered_hand_is_found_where_every_box_held_a_face_with_its_front_side():
    """Tuning render 950009: a shown hand seen at a slant, each face boxed with the shaded
    side below and beside it (box-to-net-quad area 1.6-3.0, so `photo_ratio` kept the net
    out); the net's quads lie 0.10-0.21 off their boxes' middles (median 0.17)."""
    fit = HAND_LOCATE.net_fit
    assert fit is not None and fit.off_centre == 0.15  # on in `agari photo` (docs/photo.md)
    before = hand_tiles_found(950009, HAND_LOCATE.cores, net_fit=replace(fit, off_centre=None))
    after = hand_tiles_found(950009, HAND_LOCATE.cores)
    assert after >= before + 5  # 5 -> 12 of the hand's tiles with the shipped nets
