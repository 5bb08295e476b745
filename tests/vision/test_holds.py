"""A classical box holding a net face with its front side is judged against the net quad."""

from dataclasses import replace

import numpy as np
import pytest
from agari.vision.cores import CoreQuad
from agari.vision.holds import HoldConfig, held
from agari.vision.locate import HAND_LOCATE, core_proposals
from agari.vision.proposals import Proposal


def _box(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])


FACE = _box(0, 0, 30, 40)
ROW = [CoreQuad(_box(32 * k, 0, 30, 40), 0.75, False) for k in range(3)]  # under contest's 0.8


@pytest.mark.parametrize("quad, face_down, score, holds", [
    (_box(-1, -1, 32, 80), False, 0.75, True),  # face and front side: twice the face
    (_box(-2, -2, 34, 44), False, 0.75, False),  # the face itself, a little loose
    (_box(-1, -1, 32, 80), True, 0.75, False),  # a back holds no face
    (_box(-1, -1, 32, 80), False, 0.5, False),  # the net is unsure of its quad
    (_box(-1, 30, 32, 80), False, 0.75, False),  # the face not inside it
])
def test_a_box_holds_a_face_with_more_round_it(quad, face_down, score, holds):
    disputes = held([Proposal(quad, 1.0, face_down)], [Proposal(FACE, 0.5)], [score],
                    HoldConfig())
    assert bool(disputes) == holds
    if holds:
        assert len(disputes[0][1]) == 1 and np.allclose(disputes[0][1][0].quad, FACE)


def test_a_box_over_two_faces_disputes_with_both():
    disputes = held([Proposal(_box(-1, -1, 64, 42), 1.0)],
                    [Proposal(_box(0, 0, 30, 40), 0.5), Proposal(_box(32, 0, 30, 40), 0.5)],
                    [0.9, 0.9], HoldConfig())
    assert len(disputes) == 1 and len(disputes[0][1]) == 2


def test_the_holder_gives_way_only_where_the_hold_contest_says_so():
    front = Proposal(_box(31, -1, 32, 80), 1.0)  # the middle face with its front side
    others = [Proposal(_box(0, 0, 30, 40), 1.0), Proposal(_box(64, 0, 30, 40), 1.0)]
    seen = []

    def hold(disputes):
        seen.extend(disputes)
        return [p for p, _ in disputes]

    config = replace(HAND_LOCATE, holds=HoldConfig())
    kept, added = core_proposals(ROW, [front, *others], 1.0, config, None, None, hold)
    assert [p for p, _ in seen] == [front]
    assert kept == others
    assert [float(p.quad[0, 0]) for p in added] == [32.0]  # the net's face takes its place

    kept, added = core_proposals(ROW, [front, *others], 1.0, config, None, None,
                                 lambda d: [])
    assert kept == [front, *others] and added == []
    seen.clear()
    kept, _ = core_proposals(ROW, [front, *others], 1.0, replace(config, holds=None),
                             None, None, hold)
    assert seen == [] and front in kept
