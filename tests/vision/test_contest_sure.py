"""Net faces framed at 0.7-0.8 mean core probability contest the classical box over them
(`CoreConfig.contest`)."""

from dataclasses import replace

import cv2
import numpy as np
from agari.vision.cores import CoreConfig


def test_a_box_over_a_whole_meld_gives_way_to_the_nets_faces():
    """Tuning render 980071: one classical box covers a standing hand's melds, six faces
    the net frames at 0.74-0.79; at the old 0.8 none of them contested it."""
    from agari.datasets.scene import SceneConfig, render_scene
    from agari.models import TileClassifier
    from agari.vision.locate import HAND_LOCATE, locate
    from agari.vision.quads import match_quads, quad_iou

    image, ann = render_scene(980071, SceneConfig(width=1920, height=1080, fit_prob=1.0,
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
    assert cores.contest == 0.7
    before, after = found(replace(cores, contest=0.8)), found(cores)
    assert after >= before + 5  # 10 -> 16 of 17 with the shipped nets
