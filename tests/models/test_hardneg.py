"""Hard negatives: which proposals become ``none`` crops, and which photos may be mined."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from agari.engine.tiles import CLASS_NAMES, NONE
from agari.models.dataset import RealPhoto, scene_hard_arrays
from agari.models.hardneg import (
    HardNegConfig,
    hard_negative_crops,
    locator_half,
    mining_photos,
    not_tiles,
    photo_hard_arrays,
)
from agari.models.realdata import CropSpec, is_holdout
from agari.models.recipe import RealSources, Recipe, hard_negative_arrays
from agari.vision.crops import box_quad, crop_tile
from agari.vision.detection import TileDetection

BENCH = Path(__file__).resolve().parents[2] / "bench" / "locate_eval.py"
SPEC = CropSpec(size=(32, 24), margin=0.0)
TILE = box_quad(100, 100, 40, 54)
"""The one annotated tile of the toy image (x, y, w, h)."""


def _tile(quad, label="1m"):
    return SimpleNamespace(quad=quad, label=label, sideways=False)


def _det(x, y, w=40, h=54):
    return TileDetection(box_quad(x, y, w, h))


@pytest.mark.parametrize(
    ("name", "proposal", "kept"),
    [
        ("the tile itself", _det(100, 100), False),
        ("shifted by a third", _det(113, 100), False),
        ("straddles the tile and the table", _det(125, 100), True),  # IoU 0.23, covers 38 %
        ("a loose box around the tile", _det(80, 80, 90, 100), False),  # covers all of it
        ("a fragment inside the tile", _det(105, 105, 14, 18), True),
        ("bare table beside it", _det(200, 100), True),
        ("far away", _det(20, 200), True),
    ],
)
def test_not_tiles(name, proposal, kept):
    assert (not_tiles([proposal], [_tile(TILE)]) == [proposal]) is kept, name


def test_not_tiles_without_annotations_keeps_everything():
    props = [_det(10, 10), _det(60, 10)]
    assert not_tiles(props, []) == props


def test_not_tiles_thresholds_are_configurable():
    straddle = _det(125, 100)  # IoU ≈ 0.23 with the tile, covers 38 % of it
    assert not_tiles([straddle], [_tile(TILE)], config=HardNegConfig(max_cover=0.3)) == []
    assert not_tiles([straddle], [_tile(TILE)], config=HardNegConfig(max_iou=0.2)) == []
    assert not_tiles([straddle], [_tile(TILE)]) == [straddle]


def _toy_image() -> np.ndarray:
    img = np.full((240, 320, 3), 60, np.uint8)
    img[100:154, 100:140] = 230  # the tile
    img[20:74, 220:260] = (200, 30, 30)  # a blue thing the "locator" takes for a tile
    return img


def _toy_propose(image: np.ndarray) -> list[TileDetection]:
    return [_det(100, 100), _det(220, 20)]


def test_hard_negative_crops_are_the_proposals_that_are_no_tile():
    img = _toy_image()
    rng = np.random.default_rng(0)
    crops = hard_negative_crops(img, [_tile(TILE)], _toy_propose, SPEC, rng, copies=3)
    assert len(crops) == 3 and all(c.shape == (32, 24, 3) for c in crops)
    exact = crop_tile(img, np.asarray(box_quad(220, 20, 40, 54), np.float32), size=(32, 24),
                      margin=0.0)
    np.testing.assert_array_equal(crops[0], exact)  # the first copy is the proposal itself
    assert all(c[..., 0].mean() > c[..., 2].mean() for c in crops)  # all of the blue thing


def test_limit_takes_a_sample():
    props = [_det(10 + 45 * i, 180) for i in range(6)]
    crops = hard_negative_crops(_toy_image(), [], lambda _: props, SPEC,
                                np.random.default_rng(0), copies=1, limit=2)
    assert len(crops) == 2


def test_photo_hard_arrays_label_none_and_are_seeded(tmp_path):
    photos = [RealPhoto(tmp_path / "a.png", [_tile(TILE)]), RealPhoto(tmp_path / "b.png", [])]
    cfg = HardNegConfig(photo_copies=2)
    runs = [photo_hard_arrays(photos, _toy_propose, SPEC, seed=4, read=lambda _: _toy_image(),
                              config=cfg) for _ in range(2)]
    x, y = runs[0]
    assert len(y) == 2 * 1 + 2 * 2  # one hard negative in a, two in tile-free b
    assert set(y.tolist()) == {CLASS_NAMES.index(NONE)}
    np.testing.assert_array_equal(x, runs[1][0])


def _toy_render(seed: int):
    return _toy_image(), SimpleNamespace(tiles=[_tile(TILE)])


def test_scene_hard_arrays_are_a_function_of_the_seeds():
    a = scene_hard_arrays(_toy_render, _toy_propose, range(3), SPEC)
    b = scene_hard_arrays(_toy_render, _toy_propose, range(3), SPEC)
    assert len(a[1]) == 3 * HardNegConfig().scene_copies
    np.testing.assert_array_equal(a[0], b[0])


def _roots(n: int) -> list[str]:
    return [f"IMG_{i:05d}_jpg" for i in range(n)]


def test_locator_half_is_the_benchmarks_split(monkeypatch):
    spec = importlib.util.spec_from_file_location("locate_eval", BENCH)
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "locate_eval", bench)  # its dataclasses look it up
    spec.loader.exec_module(bench)
    assert all(locator_half(r) == bench.half_of(r) for r in _roots(300))


def test_mining_photos_skip_held_out_and_check_roots():
    photos = [RealPhoto(Path(f"{r}.rf.{k}.jpg"), []) for r in _roots(200) for k in "ab"]
    mined = mining_photos(photos)
    roots = {p.path.name.split(".rf.")[0] for p in mined}
    assert mined and all(not is_holdout(r) and locator_half(r) == "fit" for r in roots)
    expected = {r for r in _roots(200) if not is_holdout(r) and locator_half(r) == "fit"}
    assert roots == expected and len(mined) == 2 * len(expected)  # copies stay together


def test_recipe_adds_hard_negatives_from_scenes_and_allowed_photos(tmp_path):
    import cv2

    fit = next(r for r in _roots(200) if not is_holdout(r) and locator_half(r) == "fit")
    check = next(r for r in _roots(200) if not is_holdout(r) and locator_half(r) == "check")
    photos = []
    for root in (fit, check):
        path = tmp_path / f"{root}.rf.x.png"
        cv2.imwrite(str(path), _toy_image())
        photos.append(RealPhoto(path, [_tile(TILE)]))
    recipe = Recipe(scenes=2, workers=1, hard_negatives=True,
                    hardneg=HardNegConfig(photo_copies=2, scene_copies=1))
    real = RealSources(photos=photos, scenes=_toy_render, propose=_toy_propose)
    x, y = hard_negative_arrays(recipe, real, cache=tmp_path / "cache", log=lambda _: None)
    assert len(y) == 2 + 2  # the fit photo's one hard negative ×2, one per scene; no check photo
    again = hard_negative_arrays(recipe, real, cache=tmp_path / "cache", log=lambda _: None)
    np.testing.assert_array_equal(x, again[0])
