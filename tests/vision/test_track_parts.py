"""The tracker's parts: camera motion, change detection, signatures, matching, votes, stability."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from agari.engine.errors import InvalidInput
from agari.vision.detection import label_of
from agari.vision.track_match import half_frame, match, signatures, similarity
from agari.vision.track_motion import (
    IDENTITY,
    back_to_key,
    change_map,
    estimate_motion,
    find_corners,
    make_thumb,
    significant,
    to_frame,
)
from agari.vision.track_region import locate_in, search_box, takes_box
from agari.vision.track_stable import StabilityGate
from agari.vision.track_votes import Votes
from track_factories import TILE_H, TILE_W, draw_tile, felt, find_tiles, hand_tiles

SIZE = (640, 360)


def table(names: list[str] | None = None) -> np.ndarray:
    img = felt(SIZE)
    for x, y, name in hand_tiles("123m456p789s11z22z", "2z") if names is None else names:
        draw_tile(img, x, y, name)
    return img


def moved(img: np.ndarray, dx: float, dy: float, deg: float = 0.0, gain: float = 1.0):
    m = cv2.getRotationMatrix2D((SIZE[0] / 2, SIZE[1] / 2), deg, 1.0)
    m[:, 2] += (dx, dy)
    out = cv2.warpAffine(img, m, SIZE, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return cv2.convertScaleAbs(out, alpha=gain), m


@pytest.mark.parametrize("dx, dy, deg, gain", [
    (0.0, 0.0, 0.0, 1.0), (3.4, -2.2, 0.0, 1.0), (-6.0, 4.5, 0.4, 1.0), (2.5, 1.0, -0.3, 0.65),
])
def test_motion_is_recovered_under_shake_and_light(dx, dy, deg, gain):
    base = table()
    key = make_thumb(base)
    img, truth = moved(base, dx, dy, deg, gain)
    m = estimate_motion(key, find_corners(key), make_thumb(img), IDENTITY.copy())
    assert m is not None
    got = to_frame(m, key.scale)
    pts = np.array([[[100.0, 100.0]], [[500.0, 250.0]]])
    err = np.abs(cv2.transform(pts, got) - cv2.transform(pts, truth)).max()
    assert err < 0.6


@pytest.mark.parametrize("case, changed", [
    ("shake", False), ("dim", False), ("swap", True), ("remove", True), ("add", True),
])
def test_change_map_sees_the_table_not_the_camera_or_light(case, changed):
    tiles = hand_tiles("123m456p789s11z22z", "2z")
    base = table(tiles)
    after = {
        "shake": tiles, "dim": tiles, "swap": tiles[:5] + [(*tiles[5][:2], "9m")] + tiles[6:],
        "remove": tiles[:-1], "add": tiles + [(300, 260, "5p")],
    }[case]
    img, _ = moved(table(after), 1.7, -0.8, 0.1, 0.7 if case == "dim" else 1.0)
    key, cur = make_thumb(base), make_thumb(img)
    m = estimate_motion(key, find_corners(key), cur, IDENTITY.copy())
    assert m is not None
    assert significant(change_map(key.structure, back_to_key(cur, m))) == changed


def test_signatures_ignore_light_but_not_faces():
    tiles = hand_tiles("123m456p789s11z22z", "2z")
    quads = [np.array([(x, y), (x + TILE_W, y), (x + TILE_W, y + TILE_H), (x, y + TILE_H)],
                      float) for x, y, _ in tiles[:3]]
    bright = table(tiles)
    dim = cv2.convertScaleAbs(bright, alpha=0.6)
    other = table(tiles[:1] + [(*tiles[1][:2], "back")] + [(*tiles[2][:2], "7p")] + tiles[3:])
    other_dim = cv2.convertScaleAbs(other, alpha=0.7)
    a, b, c, d = (signatures(half_frame(img), quads, [False] * 3)
                  for img in (bright, dim, other, other_dim))
    assert similarity(a[0], b[0]) > 0.9          # same face, less light
    assert similarity(a[2], c[2]) < 0.55         # another face
    assert similarity(a[1], c[1]) < 0.3          # a face against a back
    assert similarity(c[1], d[1]) > 0.9          # a back against itself, less light
    assert similarity(c[1], signatures(half_frame(felt(SIZE)), quads[1:2], [False])[0]) < 0.3


def test_signatures_tell_red_ink_from_black(monkeypatch):
    import track_factories

    quad = [np.array([(100, 100), (130, 100), (130, 140), (100, 140)], float)]
    black, red = felt(SIZE), felt(SIZE)
    draw_tile(black, 100, 100, "5m")
    monkeypatch.setattr(track_factories, "INK", (40, 40, 200))
    draw_tile(red, 100, 100, "5m")
    moved_black, _ = moved(black, 0.6, 0.4)
    sig = [signatures(half_frame(img), quad, [False])[0] for img in (black, red, moved_black)]
    assert similarity(sig[0], sig[1]) < 0.55 < similarity(sig[0], sig[2])


def test_match_pairs_nearest_within_reach():
    sq = np.array([(0, 0), (30, 0), (30, 40), (0, 40)], float)
    tracked = [sq, sq + (35, 0)]
    found = [sq + (36, 1), sq + (2, -1), sq + (200, 0)]
    assert sorted(match(tracked, found)) == [(0, 1), (1, 0)]
    assert match(tracked, [sq + (20, 0)]) == [(1, 0)]  # 15 px from track 1, 20 from track 0
    assert match(tracked, [sq + (100, 0)]) == []


@pytest.mark.parametrize("readings, best, confidence", [
    ([], None, 0.0),
    ([(("5m", 0.9), ("0m", 0.1))], "5m", 0.9),
    ([(("5m", 0.6), ("0m", 0.4)), (("0m", 0.9), ("5m", 0.1))], "0m", 0.65),
    ([(("1m", 0.5),), (("7m", 0.9),), (("1m", 0.9),)], "1m", 0.4667),
])
def test_votes(readings, best, confidence):
    v = Votes()
    for r in readings:
        v = v.add(r)
    assert v.best == best and v.count == len(readings)
    assert v.confidence == pytest.approx(confidence, abs=1e-4)


def test_votes_labels():
    assert str(label_of("0p")) == "0p" and label_of("back") == "back"
    assert label_of("none") is None and label_of(None) is None
    with pytest.raises(InvalidInput):
        Votes(sums=(("1m", 1.0),), count=0)


@pytest.mark.parametrize("feed, stable, version", [
    ([(0.0, "A", True), (0.1, "A", True), (0.2, "A", True)], "A", 1),
    ([(0.0, "A", True), (0.1, "B", True), (0.2, "A", True), (0.3, "B", True)], (), 0),
    ([(0.0, "A", True), (0.1, "A", False), (0.2, "A", True), (0.35, "A", True)], (), 0),
    ([(0.0, "A", True), (0.2, "A", True), (0.3, "B", True), (0.45, "B", True),
      (0.5, "B", True)], "B", 2),
    ([(0.0, "A", True), (0.2, "A", True), (0.3, (), True), (0.5, (), True)], (), 2),
])
def test_stability_gate(feed, stable, version):
    gate = StabilityGate(hold_s=0.2)
    for t, key, settled in feed:
        gate.update(t, key, settled=settled)
    assert (gate.stable, gate.version) == (stable, version)


def test_stability_gate_refuses_negative_hold():
    with pytest.raises(InvalidInput):
        StabilityGate(hold_s=-0.1)


@pytest.mark.parametrize("box, tile, expect", [
    (None, 30.0, None),
    ((100, 100, 140, 150), 20.0, (70, 70, 170, 180)),
    ((0, 300, 40, 360), 20.0, (0, 270, 70, 360)),          # clipped to the frame
    ((50, 50, 600, 330), 20.0, None),                       # most of the frame: search it all
])
def test_search_box(box, tile, expect):
    assert search_box(box, tile, SIZE) == expect


def test_locate_in_a_box_maps_back_and_drops_cut_tiles():
    img = table()
    box = (100, 120, 300, 220)  # cuts the row: tiles wholly inside come back, cut ones do not
    found = locate_in(find_tiles, img, box)
    whole = [d for d in find_tiles(img) if box[0] <= min(x for x, _ in d.quad)
             and max(x for x, _ in d.quad) < box[2]]
    got = np.array(sorted(d.centre for d in found))
    assert got.shape == (len(whole), 2)
    assert np.abs(got - np.array(sorted(d.centre for d in whole))).max() < 1.0
    assert 0 < len(found) < len(find_tiles(img))


def test_a_locator_that_takes_a_box_is_asked_for_it():
    asked = []

    def boxed(frame, box=None):
        asked.append(box)
        return []

    assert takes_box(boxed) and not takes_box(find_tiles)
    locate_in(boxed, table(), (1, 2, 3, 4))
    assert asked == [(1, 2, 3, 4)]
