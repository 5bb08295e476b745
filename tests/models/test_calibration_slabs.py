"""A white-backed set's back and its blank 白: one slab, told apart by the prior (pure numpy)."""

from __future__ import annotations

import numpy as np
import pytest
from agari.engine.errors import InvalidInput
from agari.engine.tiles import CLASS_NAMES
from agari.models.calibration import AdjustConfig, PhotoRecord, TilesetProfile
from agari.models.calibration_evidence import back_slabs, tie_slabs
from agari.models.calibration_features import INK_BINS, CropLooks

DIM = 24
KINDS = ["1m", "3p", "5z", "back"]
HUES = {"1m": 0, "3p": 8, "5z": -1, "back": -1}   # ink hue bin; -1 = blank
BACK, HAKU = CLASS_NAMES.index("back"), CLASS_NAMES.index("5z")


def directions() -> np.ndarray:
    d = np.random.default_rng(0).normal(size=(len(CLASS_NAMES), DIM)).astype(np.float32)
    return d / np.linalg.norm(d, axis=1, keepdims=True)


def looks(names, colours: dict[str, tuple[float, float, float]], hues=HUES) -> CropLooks:
    inks = np.zeros((len(names), INK_BINS), np.float32)
    inks[np.arange(len(names)), [hues[n] for n in names]] = 1.0
    return CropLooks(np.zeros((len(names), 0), np.float32),
                     np.float32([colours[n] for n in names]), inks)


def white_backed(*, back_colour=(90.0, 0.0, 5.0), hues=HUES,
                 config: AdjustConfig | None = None) -> TilesetProfile:
    """A set whose layout back the model read as 白, like its blank 白 (4 views each)."""
    labels = [n for n in KINDS for _ in range(4)]
    colours = {"1m": (90.0, 0.0, 5.0), "3p": (90.0, 0.0, 5.0), "5z": (90.0, 0.0, 5.0),
               "back": back_colour}
    rng = np.random.default_rng(1)
    emb = directions()[[CLASS_NAMES.index(n) for n in labels]]
    emb = emb + rng.normal(0, 0.1, emb.shape).astype(np.float32)
    read = ["5z" if n == "back" else n for n in labels]
    probs = np.eye(len(CLASS_NAMES), dtype=np.float32)[[CLASS_NAMES.index(n) for n in read]]
    prof = TilesetProfile.create("white", "m", CLASS_NAMES, DIM, ink_dim=INK_BINS, config=config)
    return prof.added(emb, looks(labels, colours, hues), labels,
                      np.repeat(np.arange(len(KINDS)), 4),
                      photo=PhotoRecord("layout.jpg", len(KINDS), "2024-01-01T00:00:00"),
                      probs=0.9 * probs + 0.1 / len(CLASS_NAMES))


def slabs_in_play(n: int = 6):
    """Backs in play, read as 白, and nearer the 白's layout views than the back's (the 白's
    layout tile happened to be framed and lit more like them)."""
    rng = np.random.default_rng(7)
    d = directions()
    emb = 0.8 * d[HAKU] + 0.2 * d[BACK] + rng.normal(0, 0.1, (n, DIM)).astype(np.float32)
    probs = np.full((n, len(CLASS_NAMES)), 0.1 / (len(CLASS_NAMES) - 1), np.float32)
    probs[:, HAKU] = 0.9
    return probs, emb.astype(np.float32), looks(["back"] * n, {"back": (90.0, 0.0, 5.0)})


def test_the_back_and_a_blank_kind_of_its_colour_are_one_slab():
    prof = white_backed()
    assert np.flatnonzero(prof.slabs).tolist() == sorted([BACK, HAKU])
    # A dark back, or a framed (inked) 白, is no slab of the other.
    assert not white_backed(back_colour=(30.0, 10.0, -20.0)).slabs.any()
    assert not white_backed(hues={**HUES, "5z": 3}).slabs.any()
    assert not white_backed(config=AdjustConfig(slab_colour=0.0)).slabs.any()


def test_which_slab_a_crop_is_the_prior_decides_not_the_layout_framing():
    probs, emb, crop_looks = slabs_in_play()
    apart = white_backed(config=AdjustConfig(slab_colour=0.0)).adjust(probs, emb, crop_looks)
    one = white_backed().adjust(probs, emb, crop_looks)
    assert np.all(apart.argmax(1) == HAKU)      # the similarity to the 白's views decided
    assert np.all(one.argmax(1) == BACK)        # the back prior (3) does
    assert np.allclose(one[:, BACK] / one[:, HAKU], 3.0, rtol=0.15)
    # A set whose back is another colour keeps the similarity's word.
    dark = white_backed(back_colour=(30.0, 10.0, -20.0))
    assert np.all(dark.adjust(probs, emb, crop_looks).argmax(1) == HAKU)


def test_tie_slabs_and_back_slabs_arrays():
    sims = np.float32([[0.1, 0.5, 0.2], [0.3, -0.1, 0.0]])
    tied = tie_slabs(sims, np.array([True, False, True]))
    assert np.allclose(tied, [[0.2, 0.5, 0.2], [0.3, -0.1, 0.3]])
    assert tie_slabs(sims, np.zeros(3, bool)) is sims
    colours = np.float32([[90, 0, 5], [91, 1, 4], [50, 0, 0]])
    labels = np.array([2, 0, 1])
    inked = np.array([False, False, True])
    m = np.float32([[0.9, 0.0, 0.1], [0.0, 1.0, 0.0], [0.6, 0.0, 0.4]])   # back read as kind 0
    assert back_slabs(colours, labels, inked, m, 2, tolerance=15.0).tolist() == [True, False, True]
    assert not back_slabs(colours, labels, inked, m, 2, tolerance=0.0).any()
    assert not back_slabs(colours, np.array([0, 0, 1]), inked, m, 2, tolerance=15.0).any()
    # Told apart by the model on the layout: not one slab.
    assert not back_slabs(colours, labels, inked, np.eye(3, dtype=np.float32), 2,
                          tolerance=15.0).any()
    with pytest.raises(InvalidInput):
        AdjustConfig(slab_colour=-1.0)
