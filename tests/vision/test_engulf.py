"""A classical box many times the size of the sure net faces it is disputed with gives way
(`CoreConfig.engulf`), however the judge rates the box itself."""

from dataclasses import replace

import numpy as np
import pytest
from agari.vision.cores import CoreConfig
from agari.vision.locate import HAND_LOCATE, _contest
from agari.vision.proposals import Proposal
from locate_factories import hand_tiles_found


def _box(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])


FACE = Proposal(_box(0, 0, 30, 40), 0.5)
SHIPPED = CoreConfig()


def _settle(box: np.ndarray, odds: list[float], cfg: CoreConfig = SHIPPED) -> bool:
    """Whether ``box`` loses its dispute with `FACE` where the judge rates them ``odds``."""
    p = Proposal(box, 1.0)
    lost = _contest(np.zeros((8, 8, 3), np.uint8), 1.0, lambda _, quads: np.array(odds), cfg)(
        [(p, [FACE])])
    return lost == [p]


@pytest.mark.parametrize("box, odds, loses", [
    (_box(-1, -1, 64, 80), [0.95, 0.99], True),  # four faces' room, rated a tile surely
    (_box(-1, -1, 32, 80), [0.95, 0.99], False),  # a face and its front side: twice the face
    (_box(-1, -1, 64, 80), [0.95, 0.8], False),  # the judge unsure of the net's face
    (_box(-1, -1, 32, 80), [0.3, 0.99], True),  # the judge's doubt, as before
])
def test_a_box_many_faces_big_gives_way_to_a_sure_face(box, odds, loses):
    assert _settle(box, odds) == loses


def test_without_engulf_the_judge_alone_decides():
    assert not _settle(_box(-1, -1, 64, 80), [0.95, 0.99], replace(CoreConfig(), engulf=None))


def test_a_rendered_hand_is_found_where_boxes_held_faces_two_or_three_at_a_time():
    """Tuning render 980097: a shown hand whose meld faces (and some concealed ones) the
    classical steps boxed with their neighbours or front sides, three faces' room or more,
    boxes the classifier rated tiles as surely as the net's faces."""
    cores = HAND_LOCATE.cores or CoreConfig()
    # Without the net fits (`agari.vision.net_fit`), which replace these boxes too.
    before = hand_tiles_found(980097, replace(cores, engulf=None), net_fit=None)
    after = hand_tiles_found(980097, cores, net_fit=None)
    assert after >= before + 3  # 7 -> 10 of 13 with the shipped nets
