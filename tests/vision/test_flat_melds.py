"""Melds laid flat beside a standing hand, found where the located tiles make no hand."""

from dataclasses import replace

import cv2
from agari.vision.layout_truth import expected_layout, hand_key


def _read(seed: int, **config):
    from agari.datasets.scene import SceneConfig, render_scene
    from agari.engine import Rules, WinContext
    from agari.vision.reading_checks import Situation

    from agari.pipeline import DEFAULT_PIPELINE, read_photo

    image, ann = render_scene(seed, SceneConfig(width=1920, height=1080, fit_prob=1.0,
                                                kinds=("shown", "standing", "table")))
    image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1],
                         cv2.IMREAD_COLOR)
    truth = expected_layout(ann.hand, ann.win, ann.tiles)
    situation = Situation(Rules.preset("tenhou"), WinContext(riichi=truth.hand().closed))
    return read_photo(image, situation, config=replace(DEFAULT_PIPELINE, **config)), truth


def test_a_pon_laid_flat_beside_a_standing_hand_is_found():
    """Tuning render 1000009: the pon 055s lies flat past the standing hand, each tile boxed
    face and front side together (read ``none``); the hand read 10 tiles short of a meld."""
    without, _ = _read(1000009, flat=None)
    assert without.layout is None or not without.layout.melds
    result, truth = _read(1000009)
    assert result.layout is not None and hand_key(result.layout) == hand_key(truth)
