"""calibrate_photo on drawn layouts, with the toy ONNX model (real onnxruntime, real crops)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from agari.engine.errors import ModelError
from agari.engine.tiles import CLASS_NAMES
from agari.models.calibration import AdjustConfig, TilesetProfile
from agari.models.calibration_apply import CalibratedClassifier, calibrated, new_profile
from agari.models.calibration_build import (
    ViewConfig,
    calibrate_photo,
    colour_stats,
    swapped_pairs,
    tile_views,
)
from agari.models.calibration_layout import LayoutMismatch, ReferenceLayout
from agari.models.classifier import Predictions, TileClassifier
from agari.vision.detection import TileDetection

TILE = (36, 48)  # (w, h) in pixels


def kind_colour(name: str) -> tuple[int, int, int]:
    """A distinct BGR colour per kind (the toy model's embedding is the mean colour).

    Kinds sit on a Fibonacci sphere around mid-grey, so that after centring
    their directions are spread as far apart as 38 points on a sphere can be.
    """
    k, n = CLASS_NAMES.index(name), len(CLASS_NAMES)
    z = 1 - 2 * (k + 0.5) / n
    r, a = np.sqrt(1 - z * z), k * np.pi * (3 - np.sqrt(5))
    v = 128 + 60 * np.array([r * np.cos(a), r * np.sin(a), z])
    return tuple(int(c) for c in v.round())


def drawn_layout(layout: ReferenceLayout, *, colours=None, skip: tuple[int, ...] = ()):
    """A grey table with the layout's tiles as flat-colour rectangles, and their detections."""
    colours = colours or {}
    w, h = TILE
    img = np.full((400, 520, 3), 40, np.uint8)
    dets, k = [], 0
    for r, row in enumerate(layout.rows):
        for c, name in enumerate(row):
            x, y = 20 + c * (w + 6), 20 + r * (h + 24)
            if k not in skip:
                img[y:y + h, x:x + w] = colours.get(name, kind_colour(name))
                dets.append(TileDetection(quad=((x, y), (x + w, y), (x + w, y + h), (x, y + h))))
            k += 1
    return img, dets


@pytest.fixture(scope="module")
def toy(toy_model) -> TileClassifier:
    return TileClassifier.load(toy_model, threads=1)


TOY_ADJUST = AdjustConfig(alpha=0.1, beta=3000.0, slab_colour=0.0)
"""The toy model is sure of itself and its 3-D embedding packs 38 kinds close together:
let the set's evidence dominate, so the test sees the mechanism, not the weighting. Its
kinds are all flat, inkless slabs (a real set draws only a plain 白 so), so none is tied
to the back (`AdjustConfig.slab_colour`)."""


def empty_profile(clf: TileClassifier, reds=("0m", "0p", "0s")) -> TilesetProfile:
    return new_profile("toyset", clf, reds=reds, config=TOY_ADJUST)


def test_calibrate_photo_binds_every_kind(toy):
    layout = ReferenceLayout()
    img, dets = drawn_layout(layout)
    prof, report = calibrate_photo(empty_profile(toy), img, dets[::-1], toy, source="l.png")
    assert report.tiles == 38 and report.views == 38 * ViewConfig().views
    assert set(prof.known) == set(layout.names)
    assert prof.photos[0].source == "l.png" and prof.photos[0].tiles == 38
    # The back tile's colour is the back colour (BGR), within JPEG-free rounding.
    assert prof.back_colour == pytest.approx(kind_colour("back"), abs=1.0)
    # The calibrated model now names each kind by its look in this set.
    raw = toy.classify_detections(img, dets)
    assert np.mean([d.label_name == n for d, n in zip(raw, layout.names, strict=True)]) < 0.1
    cal = calibrated(toy, prof)
    assert isinstance(cal, CalibratedClassifier)
    labelled = cal.classify_detections(img, dets)
    assert [d.label_name for d in labelled] == list(layout.names)


def test_a_second_photo_adds_to_the_profile(toy):
    img, dets = drawn_layout(ReferenceLayout())
    one, _ = calibrate_photo(empty_profile(toy), img, dets, toy, source="a.png")
    two, _ = calibrate_photo(one, img, dets, toy, source="b.png")
    assert [p.source for p in two.photos] == ["a.png", "b.png"]
    assert len(two.labels) == 2 * len(one.labels)
    assert two.summary()["tiles_per_kind"]["5z"] == 2


def test_missing_tile_is_named(toy):
    layout = ReferenceLayout()
    img, dets = drawn_layout(layout, skip=(31,))  # 5z, 白
    with pytest.raises(LayoutMismatch, match=r"row 4 \(1z-7z\) has 6, expected 7"):
        calibrate_photo(empty_profile(toy), img, dets, toy, source="x.png")


def test_swapped_tiles_are_refused_unless_forced(toy):
    layout = ReferenceLayout()
    # To the toy model pure red is 0m and pure green 6s: lay them out the other way round.
    img, dets = drawn_layout(layout, colours={"0m": (0, 255, 0), "6s": (0, 0, 255)})
    with pytest.raises(LayoutMismatch, match=r"6s and 0m look swapped \(row 3 tile 6 \(6s\) "
                                             r"reads as 0m, row 5 tile 1 \(0m\) as 6s\)") as info:
        calibrate_photo(empty_profile(toy), img, dets, toy, source="x.png")
    assert info.value.details["swapped"] == [["row 3 tile 6 (6s)", "row 5 tile 1 (0m)"]]
    prof, report = calibrate_photo(empty_profile(toy), img, dets, toy, source="x.png",
                                   force=True)
    assert {"0m", "6s"} <= set(prof.known)
    assert ("6s", "0m") in {(e, r) for e, r, _ in report.disagreements}


def test_a_set_the_model_misreads_is_not_taken_for_a_swap(toy):
    """The model reads this set's 2m and 3p as 0m and 6s, sure of it: calibration's case."""
    layout = ReferenceLayout()
    img, dets = drawn_layout(layout, colours={"2m": (0, 0, 255), "3p": (0, 255, 0),
                                              "0m": (0, 0, 255), "6s": (0, 255, 0)})
    prof, report = calibrate_photo(empty_profile(toy), img, dets, toy, source="x.png")
    assert {"2m", "3p"} <= set(prof.known)
    assert {("2m", "0m"), ("3p", "6s")} <= {(e, r) for e, r, _ in report.disagreements}


def test_profile_from_another_model_is_refused(toy, make_toy_model, tmp_path):
    img, dets = drawn_layout(ReferenceLayout())
    prof, _ = calibrate_photo(empty_profile(toy), img, dets, toy, source="x.png")
    spec = dataclasses.replace(toy.spec, extra=(("seed", "2"),))  # a retrained model
    other = TileClassifier.load(make_toy_model(tmp_path / "other.onnx", spec=spec), threads=1)
    with pytest.raises(ModelError, match="made with another classifier model"):
        calibrated(other, prof)


def test_views_turn_and_vary(toy):
    img, dets = drawn_layout(ReferenceLayout())
    img[20:30, 20:56] = 255  # mark the 1m tile's top edge
    views = tile_views(img, dets[0], size=(32, 24), margin=0.06, config=ViewConfig(),
                       rng=np.random.default_rng(0))
    assert views.shape == (16, 32, 24, 3)
    assert views[0, 3].mean() > views[0, -3].mean()   # plain: the mark on top
    assert views[1, -3].mean() > views[1, 3].mean()   # turned: the mark at the bottom
    assert len({v.tobytes() for v in views}) == 16    # every view differs
    assert np.std([v.mean() for v in views[2:]]) > 3  # in light too
    back, face = colour_stats(views[:1], ["back"])
    assert face is None and back is not None


@pytest.mark.parametrize(("a", "b", "flagged"), [("4p", "5p", True), ("5z", "back", False)])
def test_swapped_pairs(a, b, flagged):
    names = list(ReferenceLayout().names)
    probs = np.full((len(names), len(CLASS_NAMES)), 1e-4, np.float32)
    for i, n in enumerate(names):
        read = {a: b, b: a}.get(n, n)
        probs[i, CLASS_NAMES.index(read)] = 1.0
    preds = Predictions(probs / probs.sum(1, keepdims=True),
                        np.zeros((len(names), 3), np.float32), CLASS_NAMES)
    pairs = swapped_pairs(preds, names)
    assert [(names[i], names[j]) for i, j, _ in pairs] == ([(a, b)] if flagged else [])
