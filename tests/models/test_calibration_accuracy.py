"""Calibration with the shipped classifier on a set it never saw (slow: renders and reads).

The figures are `bench/calibrate_eval.py`'s; this is a small, fixed slice of it
that must keep holding: purple-bamboo, brown-numeral sets on mint faces
(``offpalette``) are misread by the model alone, and one layout photo fixes
most of that without costing the plain set anything much.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from agari.engine.tiles import CLASS_NAMES, NONE
from agari.models.calibration_apply import looks_of, new_profile
from agari.models.calibration_build import calibrate_photo
from agari.models.classifier import TileClassifier, default_model_path
from agari.vision.detection import TileDetection

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_calibration_scenes import render_hands, render_layout, unseen_style  # noqa: E402

pytestmark = pytest.mark.slow
SEEDS = (0, 1)
SCENES = 4


def tile_errors(clf: TileClassifier, family: str, seed: int) -> tuple[int, int, int]:
    """``(tiles, errors alone, errors calibrated)`` over one set's hand photos."""
    from agari.vision.crops import crop_tile

    style = unseen_style(seed, family)
    image, tiles = render_layout(seed, style)
    profile, _ = calibrate_photo(new_profile("t", clf), image,
                                 [TileDetection(quad=t.quad) for t in tiles], clf, source="t")
    crops, labels = [], []
    for img, ann in render_hands(style, [9_000_000 + 100 * seed + k for k in range(SCENES)]):
        for t in ann.tiles:
            if t.visible >= 0.9:
                crops.append(crop_tile(img, t.quad, sideways=t.sideways, size=clf.input_size,
                                       margin=clf.spec.crop_margin))
                labels.append(CLASS_NAMES.index(t.label))
    crops, truth = np.stack(crops), np.array(labels)
    raw = clf.predict(crops)
    cal = profile.adjust(raw.probs, raw.embeddings, looks_of(clf, crops))
    assert (truth != CLASS_NAMES.index(NONE)).all()
    return len(truth), int((raw.probs.argmax(1) != truth).sum()), int((cal.argmax(1) != truth).sum())


@pytest.fixture(scope="module")
def shipped() -> TileClassifier:
    if not default_model_path().is_file():
        pytest.skip("no shipped classifier model")
    return TileClassifier.load(threads=2)


def test_one_photo_halves_the_errors_on_an_unseen_palette(shipped):
    n, raw, cal = np.sum([tile_errors(shipped, "offpalette", s) for s in SEEDS], axis=0)
    assert raw / n > 0.05, "the unseen palette should trouble the model alone"
    assert cal <= raw / 2


def test_calibration_costs_a_familiar_set_little(shipped):
    n, raw, cal = np.sum([tile_errors(shipped, "plain", s) for s in SEEDS], axis=0)
    assert cal <= raw + max(2, 0.01 * n)
