"""Splitting every region on two threads gives the pieces one thread gives, in its order;
regions holding too many tiles are not split; the maps traced on two threads give their
regions in the maps' order."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from agari.vision.proposals import (
    ProposalConfig,
    _contrast_regions,
    _distinct,
    _ink_rows,
    _neutral_regions,
    _regions,
    _split_all,
    face_regions,
)
from agari.vision.quads import quad_area
from agari.vision.regions import face_map, filled_map
from agari.vision.split import mean_of, split_region
from agari.vision.tile_sizes import local_size, size_anchors
from locate_factories import add_row, blank


def _rows_of_tiles() -> np.ndarray:
    """Three rows of 6-12 touching tiles."""
    rng = np.random.default_rng(8)
    scene = blank(rng, size=(360, 640))
    for y in (40, 150, 260):
        add_row(scene, rng, 30, y, n=int(rng.integers(6, 13)), width=40)
    return np.clip(scene.image, 0, 255).astype(np.uint8)


def _one_thread(regions, gray, cfg: ProposalConfig, max_tiles: float = float("inf")) -> list:
    """The pieces split region after region on one thread, regions over ``max_tiles``
    tiles' area left whole."""
    anchors = size_anchors(regions, cfg)
    want = []
    for r, _ in _distinct(regions):
        size = local_size(r, anchors, cfg)
        if size is not None and r.area <= max_tiles * size.short * size.long:
            want += [p.quad for p in split_region(gray, r.contour, size, cfg.split)
                     if quad_area(p.quad) <= cfg.max_tile_fraction * gray.size]
    return want


def test_split_all_on_two_threads_keeps_every_piece_in_order():
    cfg = ProposalConfig()
    regions, gray = face_regions(_rows_of_tiles(), cfg)
    want = _one_thread(regions, gray, cfg)
    got = _split_all(regions, gray, cfg)["quad"]
    assert len(want) > 20
    assert np.array_equal(got, np.stack(want).astype(np.float32))


def test_regions_holding_too_many_tiles_are_not_split():
    cfg = replace(ProposalConfig(), max_region_tiles=3.0)  # rows of 6-12 tiles are too long
    regions, gray = face_regions(_rows_of_tiles(), cfg)
    want = _one_thread(regions, gray, cfg, max_tiles=3.0)
    got = _split_all(regions, gray, cfg)["quad"]
    every = _split_all(regions, gray, ProposalConfig())["quad"]
    assert 0 < len(want) < len(every)
    assert np.array_equal(got, np.stack(want).astype(np.float32))


@pytest.mark.parametrize("cfg", [ProposalConfig(), replace(ProposalConfig(), use_filled=False),
                                 replace(ProposalConfig(), neutral_levels=0, ink_rows=False)])
def test_the_maps_traced_on_two_threads_give_their_regions_in_order(cfg: ProposalConfig):
    work = _rows_of_tiles()
    score, gray = face_map(work, cfg.maps)
    hsv = cv2.cvtColor(work, cv2.COLOR_BGR2HSV)
    want = _regions(score, cfg)
    if cfg.use_filled:
        want += _regions(filled_map(work, cfg.maps, gray=gray, hsv=hsv), cfg)
    if cfg.neutral_levels:
        want += _neutral_regions(work, cfg)
    if cfg.ink_rows:
        want += _ink_rows(gray, cfg)
    want += _contrast_regions(gray, cfg)
    got, _ = face_regions(work, cfg, hsv=hsv)
    assert len(want) > 20
    assert [(r.level, r.contour.tobytes()) for r in got] == \
        [(r.level, r.contour.tobytes()) for r in want]


def test_mean_of_is_numpys_mean_to_the_bit() -> None:
    # The splitter ranks its plans by the mean seam of their cuts: the list shortcut must
    # round as numpy's pairwise sum does, at every length up to and past its block.
    rng = np.random.default_rng(11)
    for n in [*range(1, 40), 63, 64, 65, 127, 128, 129, 300]:
        for _ in range(30):
            values = (rng.uniform(-1, 1, n) * 10.0 ** rng.integers(-4, 5, n)).tolist()
            assert mean_of(values) == float(np.mean(values))
