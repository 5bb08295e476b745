"""The synthetic crop renderer (needs the pymdownx-mahjong art and resvg, both dependencies)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from agari.models.synth import NONE_KINDS, CropSynth, SynthConfig
from agari.models.synth_tiles import draw_tile, random_style


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


def _chroma(bgr) -> np.ndarray:
    bgr = np.asarray(bgr, np.float64)
    return bgr / bgr.sum()


@pytest.mark.parametrize(("face_up", "near_face", "near_table"), [
    (True, "face", "back"),   # ivory layer under the face, coloured back layer on the table
    (False, "back", "face"),  # face down: the other way round
])
def test_side_band_shows_both_layers(synth, face_up, near_face, near_table):
    # One-colour bands made a side-band `none` crop a rounded block of one colour: a back.
    style = replace(random_style(np.random.default_rng(0)), face=(200.0, 230.0, 240.0),
                    back=(40.0, 160.0, 60.0), side=0.4, side_face_part=0.5)
    glyph = synth.pool["1m"][0] if face_up else None
    colour, cover, fh = draw_tile(glyph, style, 60, np.random.default_rng(1))
    band = colour[fh:, 20:40]  # the visible near side, away from the rounded corners
    # The band is shaded (the side faces away from the light): compare hues, not levels.
    colours = {"face": _chroma(style.face), "back": _chroma(style.back)}

    def nearest(pixel: np.ndarray) -> str:
        return min(colours, key=lambda k: np.abs(_chroma(pixel) - colours[k]).sum())

    assert nearest(band[1].mean(axis=0)) == near_face
    assert nearest(band[-3].mean(axis=0)) == near_table
