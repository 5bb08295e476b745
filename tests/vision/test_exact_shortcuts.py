"""The locator's speed shortcuts give what the plain OpenCV calls give, to the bit."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from agari.vision.quads import fit_quad
from agari.vision.split import SplitConfig, _steps, _undominated


def _blobs(seed: int, shape: tuple[int, int] = (90, 120)) -> np.ndarray:
    """A binary image of random specks, bars and plates (touching, holed, one pixel wide)."""
    rng = np.random.default_rng(seed)
    img = (rng.random(shape) > 0.7).astype(np.uint8)
    for _ in range(6):
        x, y = rng.integers(0, shape[1] - 20), rng.integers(0, shape[0] - 20)
        w, h = rng.integers(1, 40), rng.integers(1, 30)
        img[y:y + h, x:x + w] = rng.integers(0, 2)
    return img


def _contours(seed: int) -> list[np.ndarray]:
    out: list[np.ndarray] = []
    img = _blobs(seed)
    for mode in (cv2.RETR_EXTERNAL, cv2.RETR_LIST):
        for chain in (cv2.CHAIN_APPROX_SIMPLE, cv2.CHAIN_APPROX_NONE):
            found, _ = cv2.findContours(img, mode, chain)
            out += list(found)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_a_hulls_box_and_quad_are_the_contours_own(seed: int) -> None:
    # The splitter measures a piece's box and fits its quad on its hull, made once.
    for c in _contours(seed):
        hull = cv2.convexHull(c)
        assert cv2.minAreaRect(hull) == cv2.minAreaRect(c)
        assert fit_quad(c, hull).tobytes() == fit_quad(c).tobytes()


def test_kept_steps_are_those_made_afresh() -> None:
    cfg = SplitConfig()
    for short, long_, tol, other in ((31.0, 42.5, 0.28, 0.15), (12.3, 16.0, 0.1, 0.35),
                                     (50.0, 50.0, 0.28, 0.0)):
        b = max(1.0, min(short / cfg.bins_per_tile, short * tol / 1.5))
        steps = []
        for width, extra in ((short, 0.0), (long_, other)):
            for k in range(max(1, math.floor(width * (1 - tol) / b)),
                           math.ceil(width * (1 + tol) / b) + 1):
                steps.append((k, extra + cfg.width_penalty * abs(math.log(k * b / width))))
        assert list(_steps(short, long_, b, tol, other, cfg.width_penalty)) \
            == _undominated(steps)



def _random_quads(rng: np.random.Generator, n: int, spread: float) -> list[np.ndarray]:
    """Jittered tile-sized rectangles, some touching, some overlapping, some apart."""
    out = []
    for _ in range(n):
        x, y = rng.uniform(0, spread, 2)
        w, h = rng.uniform(8, 40), rng.uniform(10, 50)
        q = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
        out.append(q + rng.normal(0, 2, (4, 2)))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_indicator_cover_test_measures_only_quads_that_meet(seed: int, monkeypatch) -> None:
    # `find_indicator_faces` asks of every net quad whether a detection covers it; only
    # the detections whose boxes meet it are measured, with the same answer.
    from agari.vision import indicator_faces
    from agari.vision.detection import TileDetection, as_quad
    from agari.vision.quads import quad_overlap

    rng = np.random.default_rng(seed)
    dets = [TileDetection(as_quad(q)) for q in _random_quads(rng, 30, 200.0)]
    quads = [q.astype(np.float32) for q in _random_quads(rng, 60, 200.0)]
    calls = []
    monkeypatch.setattr(indicator_faces, "quad_overlap",
                        lambda a, b: calls.append(1) or quad_overlap(a, b))
    near = indicator_faces._Near(dets)
    for limit in (0.0, 0.3):
        for q in quads:
            every = any(quad_overlap(np.asarray(q, np.float64), np.asarray(d.quad, np.float64))
                        > limit for d in dets)
            assert near.covers(q, limit) == every
    assert 0 < len(calls) < len(dets) * len(quads) // 4


@pytest.mark.parametrize("seed", range(4))
def test_straddling_measures_only_faces_that_meet(seed: int, monkeypatch) -> None:
    # The layout leaves out boxes read ``none`` over two faces; only the faces whose boxes
    # meet such a box are measured, and the same boxes are found.
    from agari.engine.tiles import Tile
    from agari.vision import layout_inline
    from agari.vision.detection import TileDetection, as_quad
    from agari.vision.quads import convex_parts, parts_overlap

    rng = np.random.default_rng(seed)
    dets = [TileDetection(as_quad(q), label=None if rng.random() < 0.4 else Tile.parse("5m"))
            for q in _random_quads(rng, 60, 150.0)]
    faces = [convex_parts(np.asarray(d.quad)) for d in dets if d.label is not None]
    every = {i for i, d in enumerate(dets) if d.label is None and sum(
        parts_overlap(convex_parts(np.asarray(d.quad)), f) >= layout_inline.STRADDLE_OVERLAP
        for f in faces) >= 2}
    calls = []
    monkeypatch.setattr(layout_inline, "parts_overlap",
                        lambda a, b: calls.append(1) or parts_overlap(a, b))
    assert every and layout_inline.straddling(dets, list(range(len(dets)))) == every
    unread = sum(d.label is None for d in dets)
    assert 0 < len(calls) < unread * len(faces) // 3


@pytest.mark.parametrize("seed", range(4))
def test_fill_measures_only_known_tiles_whose_boxes_meet_a_step(seed: int, monkeypatch) -> None:
    # Row completion asks whether each step covers a known tile: of the near tiles, only
    # those whose boxes meet the step's are measured, with the same answers.
    from agari.engine.tiles import Tile
    from agari.vision import fill
    from agari.vision.detection import TileDetection, as_quad
    from agari.vision.quads import convex_parts, parts_overlap

    rng = np.random.default_rng(seed)
    known = fill._Tiles([TileDetection(as_quad(q), label=Tile.parse("5m"))
                         for q in _random_quads(rng, 25, 200.0)])
    known.add(TileDetection(as_quad(_random_quads(rng, 1, 200.0)[0]), label=Tile.parse("1z")))
    steps = _random_quads(rng, 80, 200.0)
    calls: list[int] = []
    measured = fill._overlaps_any
    monkeypatch.setattr(fill, "_overlaps_any",
                        lambda q, p, lim: calls.append(len(p)) or measured(q, p, lim))
    for limit in (0.05, 0.3):
        want, pairs = [], 0
        for q in steps:  # every near tile measured, as before
            reach = np.linalg.norm(q[0] - q[2])
            near = np.linalg.norm(known.centres - q.mean(axis=0), axis=1) < reach
            parts = convex_parts(q)
            pairs += int(near.sum())
            want.append(any(parts_overlap(parts, known.parts[i]) > limit
                            for i in np.flatnonzero(near)))
        calls.clear()
        assert known.overlapping(steps, limit) == want
        assert any(want) and not all(want) and sum(calls) < pairs
