"""A classical box many times the size of the sure net faces it is disputed with gives way
(`CoreConfig.engulf`), however the judge rates the box itself."""

from dataclasses import replace

import cv2
import numpy as np
import pytest
from agari.vision.cores import CoreConfig
from agari.vision.locate import _contest
from agari.vision.proposals import Proposal


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
    from agari.datasets.scene import SceneConfig, render_scene
    from agari.models import TileClassifier
    from agari.vision.locate import HAND_LOCATE, locate
    from agari.vision.quads import match_quads, quad_iou

    image, ann = render_scene(980097, SceneConfig(width=1920, height=1080, fit_prob=1.0,
                                                  kinds=("shown", "standing", "table")))
    # As a photo is read: from its JPEG bytes.
    image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1],
                         cv2.IMREAD_COLOR)
    truth = [np.asarray(t.quad, np.float32) for t in ann.tiles
             if t.role != "other" and not t.face_down and t.visible >= 0.5]
    judge = TileClassifier.load(threads=1).tile_likeness

    def found(cores: CoreConfig) -> int:
        dets = locate(image, config=replace(HAND_LOCATE, cores=cores), judge=judge)
        quads = [np.asarray(d.quad, np.float32) for d in dets]
        return len(match_quads(truth, quads, iou=quad_iou, min_iou=0.5))

    cores = HAND_LOCATE.cores or CoreConfig()
    before, after = found(replace(cores, engulf=None)), found(cores)
    assert after >= before + 3  # 7 -> 10 of 13 with the shipped nets
