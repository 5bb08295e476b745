"""The shipped classifier (models/tile_classifier.onnx) on fresh synthetic crops.

Skipped only while no model is committed. Accuracy proper is measured by
bench/classify_eval.py; these checks catch a broken export or preprocessing.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from agari.engine.tiles import BACK, CLASS_NAMES, NONE, RED_FIVES, TILE_NAMES, Tile
from agari.models import TileClassifier
from agari.models.classifier import default_model_path
from agari.models.synth import CropSynth, SynthConfig
from agari.vision.crops import box_quad
from agari.vision.detection import TileDetection

pytestmark = pytest.mark.skipif(not default_model_path().is_file(),
                                reason="no shipped model committed yet")

TEST_SEED = 424242
"""Far from any training seed: palettes and scenes the model has not seen."""


@pytest.fixture(scope="module")
def clf() -> TileClassifier:
    return TileClassifier.load()


@pytest.fixture(scope="module")
def synth(clf) -> CropSynth:
    return CropSynth(TEST_SEED, SynthConfig(palettes=3, crop_size=clf.input_size,
                                            margin=clf.spec.crop_margin))


def test_contract_of_the_file(clf):
    assert default_model_path().stat().st_size <= 5 * 1024 * 1024
    assert clf.class_names == CLASS_NAMES
    preds = clf.predict(np.zeros((2, *clf.input_size, 3), np.uint8))
    assert preds.embeddings.shape[0] == 2 and preds.embeddings.shape[1] >= 16


def test_reads_every_face_upright_and_upside_down(clf, synth):
    names = [n for n in TILE_NAMES for _ in range(2)] + [BACK] * 4
    crops = np.stack([synth.tile(n) for n in names])
    for batch in (crops, crops[:, ::-1, ::-1]):
        best = clf.predict(np.ascontiguousarray(batch)).best
        acc = np.mean([b == n for b, n in zip(best, names, strict=True)])
        assert acc >= 0.9, list(zip(names, best, strict=True))


def test_red_fives_are_told_from_plain_fives(clf, synth):
    fives = [n for n in TILE_NAMES if n[0] in "05" and n[1] in "mps"]
    names = [n for n in fives for _ in range(4)]
    best = clf.predict(np.stack([synth.tile(n) for n in names])).best
    swaps = sum(b != n and b[1] == n[1] and {b[0], n[0]} == {"0", "5"}
                for b, n in zip(best, names, strict=True))
    assert swaps <= 1 and set(RED_FIVES) <= set(best)


def test_not_tiles_are_none(clf, synth):
    best = clf.predict(np.stack([synth.none() for _ in range(24)])).best
    assert best.count(NONE) >= 18


def test_classify_detections_on_a_drawn_row(clf, synth):
    crop = synth.tile("7z")
    image = np.full((200, 300, 3), 30, np.uint8)
    image[60:124, 120:168] = crop
    # The crop already carries the training margin: its quad is the tile inside it.
    m = clf.spec.crop_margin / (1 + 2 * clf.spec.crop_margin)
    h, w = clf.input_size
    det = TileDetection(quad=box_quad(120 + w * m, 60 + h * m, w * (1 - 2 * m), h * (1 - 2 * m)))
    out = clf.classify_detections(image, [det], top_k=3)
    assert out[0].label == Tile.parse("7z") and len(out[0].alternatives) == 3


def test_tile_likeness_rates_faces_high_and_bare_cloth_low_whatever_the_corner_order(clf):
    from agari.datasets.scene import SceneConfig, render_scene

    image, ann = render_scene(TEST_SEED, SceneConfig(width=1280, height=720, fit_prob=1.0,
                                                     kinds=("shown",)))
    faces = [np.asarray(t.quad, np.float32) for t in ann.tiles
             if not t.face_down and t.visible >= 0.9][:8]
    assert len(faces) >= 4
    rng = np.random.default_rng(0)
    shuffled = [q[rng.permutation(4)] for q in faces]  # the judge must not need an order
    turned = [np.roll(q, 1, axis=0) for q in faces]  # nor a side marked as the top
    occupied = np.zeros(image.shape[:2], np.uint8)
    for t in ann.tiles:
        cv2.fillPoly(occupied, [np.int32(t.quad)], 1)
    side = int(np.median([np.ptp(q[:, 0]) for q in faces]))
    bare = [box_quad(x, y, side, side * 4 / 3) for y in range(0, 720 - 2 * side, side)
            for x in range(0, 1280 - side, side)
            if not occupied[y:y + 2 * side, max(0, x - side):x + 2 * side].any()][:8]
    assert len(bare) >= 4
    odds = clf.tile_likeness(image, [*faces, *shuffled, *turned,
                                     *(np.float32(b) for b in bare)])
    n = len(faces)
    assert np.median(odds[:3 * n]) > 0.9
    assert np.median(odds[3 * n:]) < 0.2
    assert clf.tile_likeness(image, []).shape == (0,)
