"""The synthetic crop renderer (needs the pymdownx-mahjong art and resvg, both dependencies)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from agari.models.dataset import _damaged_sample
from agari.models.synth import (
    MIN_DAMAGED_EDGES,
    MIN_NONE_EDGES,
    NONE_KINDS,
    QUARTER_SYMMETRIC,
    CropSynth,
    SynthConfig,
    edge_share,
    none_box,
)
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


@pytest.mark.parametrize("kind", NONE_KINDS)
def test_none_crops_are_never_a_plain_patch(synth, kind):
    # A plain patch inside a face-down tile or on bare felt is a tightly boxed back.
    assert min(edge_share(synth.none(kind)) for _ in range(6)) >= MIN_NONE_EDGES


def test_a_plain_patch_has_no_edges_and_a_tile_corner_has():
    patch = np.full((64, 48, 3), (40, 120, 60), np.uint8)
    corner = patch.copy()
    corner[20:, 16:] = (220, 235, 240)
    assert edge_share(patch) < MIN_NONE_EDGES <= edge_share(corner)


def test_a_turned_crop_never_shows_a_face_that_looks_the_same_turned(synth, monkeypatch):
    # A 4p turned a quarter is a 4p: boxed upright it is that tile, not `none`.
    asked: list[str] = []
    glyph = synth._glyph
    monkeypatch.setattr(synth, "_glyph", lambda name: (asked.append(name), glyph(name))[1])
    monkeypatch.setattr(synth, "_random_face", lambda: None)  # neighbours: backs, no glyph
    for _ in range(60):
        synth.none("turned")
    assert len(set(asked)) > 10
    assert not set(asked) & QUARTER_SYMMETRIC


class _Queue:
    """A stand-in synthesiser handing out given crops in turn."""

    def __init__(self, *crops: np.ndarray) -> None:
        self.crops = list(crops)

    def sample(self, name: str) -> np.ndarray:
        return self.crops.pop(0)


def test_a_none_crop_left_plain_is_drawn_again_but_a_plain_face_is_kept():
    plain = np.full((64, 48, 3), (40, 120, 60), np.uint8)
    corner = plain.copy()
    corner[20:, 16:] = (220, 235, 240)
    assert edge_share(plain) < MIN_DAMAGED_EDGES <= edge_share(corner)
    rng = np.random.default_rng(0)
    assert _damaged_sample(_Queue(plain, corner), "none", rng, None) is corner
    assert _damaged_sample(_Queue(plain, corner), "5z", rng, None) is plain


FACE = np.array([[0, 0], [40, 0], [40, 56], [0, 56]], np.float32)
PITCH = (42.0, 60.0)  # narrow gaps along the row and between rows (no side band showing)


def _share_inside(face: np.ndarray, box: np.ndarray) -> float:
    """The share of an axis-aligned ``face`` that lies inside an axis-aligned ``box``."""
    lo, hi = np.maximum(face.min(0), box.min(0)), np.minimum(face.max(0), box.max(0))
    return float(np.prod(np.clip(hi - lo, 0, None)) / np.prod(np.ptp(face, axis=0)))


@pytest.mark.parametrize(("kind", "axis"), [("split", 0), ("vsplit", 1)])
def test_a_straddle_shows_at_most_about_half_of_either_face(kind, axis):
    # From a third of a pitch, a straddle showed two thirds of one face: that face, in effect.
    rng = np.random.default_rng(0)
    for _ in range(200):
        box = none_box(kind, FACE, PITCH, rng)
        for step in (-1, 0, 1):
            face = FACE.copy()
            face[:, axis] += step * PITCH[axis]
            assert _share_inside(face, box) <= 0.6


def test_a_fragment_is_less_than_half_a_tile():
    rng = np.random.default_rng(0)
    for _ in range(200):
        box = none_box("fragment", FACE, PITCH, rng)
        assert np.all(np.ptp(box, axis=0) <= 0.45 * np.ptp(FACE, axis=0) + 1e-3)


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
