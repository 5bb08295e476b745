"""The synthetic crop renderer (needs the pymdownx-mahjong art and resvg, both dependencies)."""

from __future__ import annotations

import numpy as np
import pytest
from agari.models.synth import NONE_KINDS, CropSynth, SynthConfig


@pytest.fixture(scope="module")
def synth() -> CropSynth:
    return CropSynth(3, SynthConfig(palettes=2))


def _redness(crop: np.ndarray) -> float:
    c = crop.astype(np.float32)
    return float(((c[..., 2] - c[..., :2].max(axis=2)) > 60).mean())


def test_crops_have_the_configured_shape(synth):
    for name in ("1m", "0p", "7z", "back", "none"):
        crop = synth.sample(name)
        assert crop.shape == (64, 48, 3) and crop.dtype == np.uint8


def test_red_five_is_redder_than_plain_five(synth):
    red = np.mean([_redness(synth.sample("0p")) for _ in range(8)])
    plain = np.mean([_redness(synth.sample("5p")) for _ in range(8)])
    assert red > 2 * plain


@pytest.mark.parametrize("kind", NONE_KINDS)
def test_every_none_kind_draws(synth, kind):
    assert synth.none(kind).shape == (64, 48, 3)


def test_same_seed_same_crops():
    a, b = CropSynth(5, SynthConfig(palettes=1)), CropSynth(5, SynthConfig(palettes=1))
    np.testing.assert_array_equal(a.sample("3s"), b.sample("3s"))
