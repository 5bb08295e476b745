"""Reading a dark-faced set with the crops' lightness inverted (shipped model, real crops)."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from agari.models.calibration_apply import CalibratedClassifier, new_profile
from agari.models.classifier import TileClassifier
from agari.models.polarity import (
    InvertedClassifier,
    PolarityConfig,
    face_polarity,
)
from agari.vision.detection import TileDetection
from agari.vision.lab import inverted_lightness

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_calibration_scenes import render_layout, unseen_style  # noqa: E402


@pytest.fixture(scope="module")
def clf():
    return TileClassifier.load(threads=1)


def layout(clf, family: str, seed: int = 5):
    """A layout photo of a set of ``family``, its true quads read by ``clf``, their kinds."""
    image, tiles = render_layout(seed, unseen_style(seed, family), size=(960, 720))
    dets = clf.classify_detections(image, [TileDetection(quad=t.quad) for t in tiles], top_k=5)
    return image, dets, [t.label for t in tiles]


def test_lightness_turns_over_and_hue_stays():
    crop = np.zeros((1, 8, 6, 3), np.uint8)
    crop[..., :] = (40, 40, 40)          # a dark face
    crop[0, 2:4, 2:4] = (60, 60, 230)    # red ink on it
    out = inverted_lightness(crop)
    lab_in = cv2.cvtColor(crop[0], cv2.COLOR_BGR2LAB).astype(int)
    lab_out = cv2.cvtColor(out[0], cv2.COLOR_BGR2LAB).astype(int)
    assert lab_out[0, 0, 0] > 200 and lab_out[2, 2, 0] < lab_out[0, 0, 0]
    assert abs(lab_out[0, 0, 0] - (255 - lab_in[0, 0, 0])) <= 2
    assert lab_out[2, 2, 1] > 150 and out[0, 2, 2, 2] > out[0, 2, 2, 0]  # still red


def test_a_dark_faced_set_reads_better_inverted(clf):
    image, dets, labels = layout(clf, "dark")
    chosen = face_polarity(clf, image, dets)
    assert isinstance(chosen, InvertedClassifier)
    plain = [str(d.label) if d.label else "none" for d in clf.classify_detections(image, dets)]
    turned = [str(d.label) if d.label else "none"
              for d in chosen.classify_detections(image, dets)]
    right = [sum(a == b for a, b in zip(read, labels, strict=True)) for read in (plain, turned)]
    assert right[1] > right[0]


def test_a_light_set_is_read_as_it_is(clf):
    image, dets, _ = layout(clf, "plain")
    assert face_polarity(clf, image, dets) is clf
    # Past the lightness gate too, the plain reading is the surer one.
    assert face_polarity(clf, image, dets, PolarityConfig(max_lightness=256)) is clf


def test_too_few_tiles_or_a_calibrated_reader_are_left_alone(clf):
    image, dets, _ = layout(clf, "dark")
    assert face_polarity(clf, image, dets[:3]) is clf
    calibrated = CalibratedClassifier(clf, new_profile("set", clf))
    assert face_polarity(calibrated, image, dets) is calibrated


def table_scene(seed: int):
    """A tuning render at 960x540, every tile at least half in sight read by the shipped
    classifier on its true quad (backs, the others' ponds and walls too, as the locator
    boxes them), and which of those are the hand's, melds' or indicators' faces."""
    from agari.datasets.scene import SceneConfig, render_scene

    image, ann = render_scene(seed, SceneConfig(width=960, height=540, fit_prob=1.0,
                                                kinds=("shown", "standing", "table")))
    tiles = [t for t in ann.tiles if t.visible >= 0.5]
    boxes = [TileDetection(quad=t.quad, sideways=t.sideways) for t in tiles]
    own = [k for k, t in enumerate(tiles) if t.role != "other" and not t.face_down
           and t.label != "back"]
    return image, ann, tiles, boxes, own


FACES = PolarityConfig(faces=True)


def test_a_dark_table_is_judged_by_its_faces_not_its_backs(clf):
    # Tuning render 1030013: a dark-faced set on a table, 57 tiles in sight, a third of them
    # backs (walls, the others' hands). Judged over every crop (the default), the backs
    # (read surely as they are, less so inverted) keep the photo plain; judged on its faces,
    # it reads inverted, and its hand, melds and dora read better so.
    image, ann, tiles, boxes, own = table_scene(1030013)
    assert ann.meta_value("art") == "dark" and ann.meta_value("kind") == "table"
    assert sum(t.face_down or t.label == "back" for t in tiles) >= len(tiles) // 4
    dets = clf.classify_detections(image, boxes)
    assert face_polarity(clf, image, dets) is clf
    chosen = face_polarity(clf, image, dets, FACES)
    assert isinstance(chosen, InvertedClassifier)
    turned = chosen.classify_detections(image, boxes)
    right = [sum(str(read[k].label) == tiles[k].label for k in own) for read in (dets, turned)]
    assert right[1] > right[0]


def test_a_light_table_with_walls_stays_plain(clf):
    image, ann, _, boxes, _ = table_scene(980006)  # a light set, a table of 130-odd tiles
    assert ann.meta_value("art") != "dark" and ann.meta_value("kind") == "table"
    dets = clf.classify_detections(image, boxes)
    assert face_polarity(clf, image, dets, FACES) is clf
    assert face_polarity(clf, image, dets, PolarityConfig(max_lightness=256, faces=True)) is clf
