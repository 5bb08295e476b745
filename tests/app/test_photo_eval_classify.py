"""bench/photo_eval.py's ``--detections classify``: true quads named as `agari photo` names them,
a dark-faced set read with its crops' lightness inverted (`agari.models.polarity`)."""

import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import photo_eval as bench  # noqa: E402
from agari.datasets.scene import SceneConfig, render_scene  # noqa: E402

from agari.pipeline import PipelineConfig, default_classifier  # noqa: E402

SCENES = SceneConfig(width=1920, height=1080, kinds=("shown", "standing", "table"), fit_prob=1.0)


@pytest.fixture(scope="module")
def dark_render():
    """Tuning render 1040030: a dark-faced set, 14 tiles, all of the hand (none in walls)."""
    image, ann = render_scene(1040030, SCENES)
    assert ann.meta_value("art") == "dark"
    return image, ann


def _right(dark_render, config: PipelineConfig) -> int:
    image, ann = dark_render
    args = SimpleNamespace(detections="classify", config=config)
    dets = bench._detections(args, ann, image, 1040030, default_classifier())
    truth = bench.truth_detections(ann)
    assert [d.quad for d in dets] == [t.quad for t in truth]
    return sum(d.label == t.label for d, t in zip(dets, truth, strict=True))


def test_true_quads_of_a_dark_set_are_read_inverted_as_agari_photo_reads_them(dark_render):
    inverted = _right(dark_render, PipelineConfig())
    plain = _right(dark_render, replace(PipelineConfig(), polarity=None))
    # Measured: 14 of 14 read right inverted, 8 as the crops are.
    assert inverted == len(bench.truth_detections(dark_render[1])) > plain
