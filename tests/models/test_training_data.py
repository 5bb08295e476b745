"""Training-data pieces without torch: art recolouring, synthetic crops, real-data splits."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from agari.engine.tiles import CLASS_NAMES, NONE, TILE_NAMES
from agari.models.art import RED_HUES, Palette, random_palette, recolour
from agari.models.augment import PhotoAug, jitter_quad, photo_damage
from agari.models.dataset import ClassMix, RealPhoto, photo_arrays
from agari.models.metrics import score
from agari.models.realdata import (
    CropSpec,
    is_holdout,
    negative_quads,
    photo_root,
    read_single_tile_csv,
)
from agari.models.recipe import split_photos, split_single
from agari.vision.crops import box_quad


def _hue(hex_colour: str) -> float:
    import colorsys

    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hsv(r, g, b)[0]


def test_random_palettes_keep_red_red():
    rng = np.random.default_rng(0)
    for _ in range(200):
        h = _hue(random_palette(rng).red)
        h = h - 1 if h > 0.5 else h
        assert RED_HUES[0] - 1e-3 <= h <= RED_HUES[1] + 1e-3


def test_recolour_swaps_known_inks_only():
    svg = '<path style="fill:#b93c3c"/><path fill="#000"/><path fill="#123456"/>'
    pal = Palette(dark="#0a0a0a", blue="#0000aa", green="#00aa00", red="#ee1111", face="#fff")
    out = recolour(svg, pal)
    assert "#ee1111" in out and "#0a0a0a" in out and "#123456" in out and "#b93c3c" not in out


def test_class_mix_counts():
    labels = ClassMix(per_class=4, none_factor=2.0, back_factor=1.5).labels()
    counts = np.bincount(labels, minlength=len(CLASS_NAMES))
    assert counts[CLASS_NAMES.index("5m")] == 4 and counts[CLASS_NAMES.index("back")] == 6
    assert counts[CLASS_NAMES.index(NONE)] == 8 and len(labels) == 4 * len(TILE_NAMES) + 14


def test_photo_damage_keeps_shape_and_is_seeded():
    crop = np.random.default_rng(1).integers(0, 256, (64, 48, 3), dtype=np.uint8)
    a = photo_damage(crop, np.random.default_rng(5), PhotoAug())
    b = photo_damage(crop, np.random.default_rng(5), PhotoAug())
    assert a.shape == crop.shape and a.dtype == np.uint8
    np.testing.assert_array_equal(a, b)


def test_jitter_quad_stays_near():
    quad = np.array(box_quad(100, 100, 40, 54), np.float32)
    moved = jitter_quad(quad, np.random.default_rng(0), 0.04)
    assert np.abs(moved - quad).max() < 20


@pytest.mark.parametrize(
    ("name", "root"),
    [("IMG_20231030_204854_jpg.rf.829916675d9b.jpg", "IMG_20231030_204854_jpg"),
     ("sub/20231119_003551_jpg.rf.0c03.jpg", "20231119_003551_jpg"),
     ("plain.jpg", "plain.jpg")],
)
def test_photo_root(name, root):
    assert photo_root(name) == root


def test_split_keeps_copies_of_a_photo_together():
    roots = [f"IMG_{i:04d}_jpg" for i in range(200)]
    photos = [RealPhoto(Path(f"{r}.rf.{c}.jpg"), ()) for r in roots for c in "abc"]
    train, hold = split_photos(photos)
    train_roots = {photo_root(p.path.name) for p in train}
    hold_roots = {photo_root(p.path.name) for p in hold}
    assert not train_roots & hold_roots
    assert 0.1 < len(hold_roots) / len(roots) < 0.3
    assert all(is_holdout(r) for r in hold_roots)


def test_split_single_by_blocks():
    items = [(Path(f"{i}.jpg"), "1m") for i in range(100)]
    train, hold = split_single(items, block=10, every=4)
    assert [p.name for p, _ in hold[:2]] == ["30.jpg", "31.jpg"] and len(hold) == 20


def _tile(quad, label="1m"):
    return SimpleNamespace(quad=quad, label=label, sideways=False)


def test_negative_quads_avoid_whole_tiles():
    tiles = [_tile(box_quad(50 + 45 * i, 100, 40, 54)) for i in range(5)]
    quads = negative_quads((300, 400, 3), tiles, np.random.default_rng(0), 40)
    assert len(quads) >= 30
    centres = np.array([np.asarray(t.quad).mean(axis=0) for t in tiles])
    for q in quads:  # never a tile's own quad: shifted, zoomed or elsewhere
        near = np.abs(centres - q.mean(axis=0)).max(axis=1).min()
        size = np.ptp(q, axis=0)
        assert near > 8 or size[0] < 30


def test_photo_arrays_exact_crops(tmp_path):
    import cv2

    img = np.full((200, 300, 3), 40, np.uint8)
    img[50:104, 60:100] = (0, 0, 255)
    path = tmp_path / "p.png"
    cv2.imwrite(str(path), img)
    x, y = photo_arrays([RealPhoto(path, [_tile(box_quad(60, 50, 40, 54), "7z")])],
                        CropSpec(size=(32, 24), margin=0.0), seed=None, negatives=3)
    assert x.shape[1:] == (32, 24, 3) and CLASS_NAMES[y[0]] == "7z"
    assert (x[0][..., 2] > 200).mean() > 0.9
    assert [CLASS_NAMES[i] for i in y[1:]] == [NONE] * (len(y) - 1)


def test_read_single_tile_csv(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels.csv").write_text("image,tile\n1.jpg,5m\n2.jpg,tile\n3.jpg,7z\n")
    items, skipped = read_single_tile_csv(tmp_path / "labels.csv")
    assert [(p.name, t) for p, t in items] == [("1.jpg", "5m"), ("3.jpg", "7z")]
    assert skipped == 1 and items[0][0].parent.name == "images"


def test_scores():
    names = CLASS_NAMES
    truth = np.array([names.index(n) for n in ["5m", "0m", "5p", NONE, NONE]])
    pred = np.array([names.index(n) for n in ["0m", "0m", "5p", NONE, "1m"]])
    probs = np.eye(len(names), dtype=np.float32)[pred]
    s = score(probs, truth)
    assert s.accuracy == pytest.approx(3 / 5)
    assert s.red_five == pytest.approx(2 / 3)
    assert s.none_recall == pytest.approx(0.5)
    assert s.confusions[0][:2] in {("5m", "0m"), (NONE, "1m")}
