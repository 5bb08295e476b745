"""The locator's parts on small synthetic inputs: splitting, size probe, verification, rows."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest
from agari.vision.locate import DEFAULT_CONFIG, HAND_LOCATE, locate
from agari.vision.proposals import Proposal
from agari.vision.rows import arrange
from agari.vision.scale import choose_scale, shrink
from agari.vision.seams import period as _period
from agari.vision.split import (
    SplitConfig,
    TileSize,
    _dp_cuts,
    _dp_table,
    _undominated,
    split_region,
)
from agari.vision.verify import edge_support, ink_share
from locate_factories import add_row, blank

CFG = SplitConfig()


def _profile(length: int, seams: list[int], strength: float = 0.8, noise: float = 0.05,
             seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    prof = rng.uniform(0, noise, length).astype(np.float32)
    prof[seams] = strength
    return prof


@pytest.mark.parametrize(
    ("seams", "width", "alt"),
    [
        ([42, 82, 122, 162], 40, 53),  # five upright tiles
        ([42, 82, 135, 175], 40, 53),  # the third lies sideways (53 wide)
    ],
)
def test_dp_puts_cuts_on_the_seams(seams, width, alt):
    prof = _profile(216, seams)
    found = _dp_cuts(prof, 2.0, 2.0 + 213, width, alt, 40.0, CFG)
    assert found is not None
    positions, gains = found
    assert positions == seams
    assert min(gains) == pytest.approx(0.8)


def test_dp_without_seams_still_cuts_by_width():
    prof = _profile(202, [], noise=0.01)
    positions, _ = _dp_cuts(prof, 2.0, 202.0, 40, 53, 40.0, CFG)
    assert len(positions) == 4
    assert np.diff([2, *positions, 202]).min() >= 40 * (1 - CFG.width_tolerance)


def test_period_finds_the_repeat_of_a_row_of_faces():
    x = np.arange(600)
    ink = ((x % 46) > 10).astype(np.float32) * ((x % 46) < 36)  # ink in the middle of each face
    lag, corr = _period(ink, 30, 70, 0.3)
    assert lag == pytest.approx(46, abs=0.5)
    assert corr > 0.8
    assert _period(np.zeros(600, np.float32), 30, 70, 0.3) is None


def test_split_region_cuts_a_touching_row_into_its_tiles():
    rng = np.random.default_rng(3)
    s = blank(rng, size=(200, 480))
    add_row(s, rng, 40, 50, n=9, width=40)
    gray = s.image.mean(axis=2).astype(np.uint8)
    outline = np.int32([[40, 50], [400, 50], [400, 103], [40, 103]]).reshape(-1, 1, 2)
    pieces = split_region(gray, outline, TileSize(40.0, 53.0))
    assert len(pieces) == 9
    lefts = sorted(float(p.quad[:, 0].min()) for p in pieces)
    assert np.allclose(lefts, [40 + 40 * i for i in range(9)], atol=3)


def _big_and_small_tiles():
    """Two 1200x900 photos: two rows of tiles 120 px wide, and three of tiles 22 px wide."""
    rng = np.random.default_rng(4)
    big = blank(rng, size=(900, 1200))
    for y in (100, 400):
        add_row(big, rng, 100, y, n=7, width=120, gap=30)
    small = blank(rng, size=(900, 1200))
    for y in (100, 300, 500):
        add_row(small, rng, 100, y, n=12, width=22, gap=8)
    return big, small


def test_probe_works_small_on_big_tiles_and_keeps_small_tiles_sharp():
    big, small = _big_and_small_tiles()
    assert choose_scale(big.image, 2e6) < 0.7
    assert choose_scale(small.image, 2e6) == 1.0
    assert choose_scale(small.image, 2e6, HAND_LOCATE.scale) > 1.0  # within 2 MP


def _quads(dets):
    return [np.asarray(d.quad) for d in dets]


def test_the_working_image_made_beside_the_probe_is_used_only_at_its_scale():
    # `locate` makes the working image at the size cap while the probe runs: where the
    # probe keeps the cap it is used, elsewhere the probe's own scale is worked at; either
    # way the tiles are found as by working at that scale without a probe.
    cap = 0.8e6
    for scene in _big_and_small_tiles():  # the probe works below the cap, and at it
        scale = choose_scale(scene.image, cap)
        plain = replace(DEFAULT_CONFIG, probe=False, max_pixels=scale * scale * 900 * 1200)
        probed = locate(scene.image, config=replace(DEFAULT_CONFIG, max_pixels=cap))
        assert len(probed) >= 14
        assert np.array_equal(_quads(probed), _quads(locate(scene.image, config=plain)))


def test_a_small_photo_of_small_tiles_is_enlarged_only_for_a_hand():
    # A 480x360 photo of rows of tiles 18 px wide (24 px long): `HAND_LOCATE` works on it
    # twice as large (the most it enlarges); the default never enlarges.
    rng = np.random.default_rng(1)
    scene = blank(rng, size=(360, 480))
    for y in (60, 160, 260):
        add_row(scene, rng, 40, y, n=14, width=18)
    assert choose_scale(scene.image, HAND_LOCATE.max_pixels, HAND_LOCATE.scale) == 2.0
    assert choose_scale(scene.image, DEFAULT_CONFIG.max_pixels, DEFAULT_CONFIG.scale) == 1.0
    # Tiles near the target length are left as they are, and so is a large photo.
    big = blank(rng, size=(360, 480))
    add_row(big, rng, 40, 100, n=8, width=44)
    assert choose_scale(big.image, HAND_LOCATE.max_pixels, HAND_LOCATE.scale) == 1.0
    large = cv2.resize(scene.image, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST)
    assert choose_scale(large, HAND_LOCATE.max_pixels, HAND_LOCATE.scale) <= 1.0


def test_a_photo_without_tiles_is_never_enlarged():
    empty = blank(np.random.default_rng(2), size=(360, 480))
    assert choose_scale(empty.image, HAND_LOCATE.max_pixels, HAND_LOCATE.scale) == 1.0


def test_shrink_gives_the_asked_size():
    img = np.zeros((1000, 1500, 3), np.uint8)
    assert shrink(img, 0.3).shape == (300, 450, 3)
    assert shrink(img, 1.0) is img
    assert shrink(img[:100, :150], 2.0).shape == (200, 300, 3)


def test_edge_support_and_ink_tell_a_face_from_the_table():
    rng = np.random.default_rng(5)
    s = blank(rng)
    add_row(s, rng, 100, 100, n=1, width=60)
    gray = s.image.mean(axis=2).astype(np.uint8)
    face = s.quads[0]
    table = face + np.float32([200, 150])
    sup = edge_support(gray, np.stack([face, table]))
    assert sup.sides[0].min() > 0.8 and sup.sides[1].max() < 0.3
    assert sup.plate[0] > 0.3 and abs(sup.plate[1]) < 0.1
    ink = ink_share(gray, np.stack([face, table]), kernel=21)
    assert ink[0] > 0.03 and ink[1] < 0.01


def test_rows_order_and_sideways_tiles():
    # Two rows, given out of order; the second row's middle tile lies sideways.
    def quad(x, y, w, h):
        return np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])

    props = [Proposal(quad(150, 300, 40, 53), 1.0), Proposal(quad(100, 100, 40, 53), 1.0),
             Proposal(quad(50, 100, 40, 53), 1.0), Proposal(quad(100, 313, 53, 40), 1.0),
             Proposal(quad(57, 300, 40, 53), 1.0)]
    dets = arrange(props, scale=0.5)
    xs = [d.quad[0][0] for d in dets]
    assert xs == [100, 200, 114, 200, 300]  # original pixels: working pixels / 0.5
    assert [d.sideways for d in dets] == [False, False, False, True, False]
    assert all(d.up[1] < -0.99 for d in dets)


def test_specks_far_smaller_than_the_tiles_are_dropped():
    rng = np.random.default_rng(7)
    s = blank(rng, size=(300, 480))
    add_row(s, rng, 40, 60, n=6, width=40, gap=8)
    add_row(s, rng, 200, 200, n=1, width=14)  # a tile-shaped speck, a third of the size
    speckless = locate(s.image)
    kept = locate(s.image, config=replace(
        DEFAULT_CONFIG, proposals=replace(DEFAULT_CONFIG.proposals, speck_share=0.0)))
    assert len(kept) == 7
    assert len(speckless) == 6
    assert all(np.asarray(d.quad)[:, 1].max() < 150 for d in speckless)


def test_dropping_dominated_steps_leaves_the_dp_table_the_same():
    rng = np.random.default_rng(5)
    for _ in range(200):
        n = int(rng.integers(3, 120))
        gain = rng.uniform(0, 1, n + 1).round(int(rng.integers(1, 4))).tolist()  # ties too
        b = float(rng.uniform(3, 9))
        steps = []
        for width, extra in ((rng.uniform(20, 60), 0.0), (rng.uniform(30, 80), 0.15)):
            for k in range(max(1, math.floor(width * 0.72 / b)), math.ceil(width * 1.28 / b) + 1):
                steps.append((k, extra + 0.5 * abs(math.log(k * b / width))))
        pruned = _undominated(steps)
        assert len(pruned) <= len(steps)
        assert {k for k, _ in pruned} == {k for k, _ in steps}
        slack = int(rng.integers(0, 3))
        assert _dp_table(gain, pruned, slack, 0.08) == _dp_table(gain, steps, slack, 0.08)
