"""The reference layout and binding located tiles to it (synthetic detections, known truth)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from agari.engine.errors import InvalidInput
from agari.models.calibration_layout import (
    LayoutMismatch,
    ReferenceLayout,
    bind_layout,
    group_rows,
    parse_reds,
)
from agari.vision.detection import TileDetection

TILE_W, TILE_H = 40.0, 54.0


def layout_detections(layout: ReferenceLayout, *, seed: int = 0, turn: float = 0.0,
                      tilt: float = 0.0, far_side: bool = False, row_gap: float = 0.5,
                      tile_gap: float = 0.1, drop: tuple[int, ...] = (),
                      extra: int = 0, strays: int = 0) -> list[TileDetection]:
    """Detections of ``layout`` laid on a table and seen through a homography.

    Args:
        turn: camera roll in degrees; tilt: perspective strength (0 = straight down).
        far_side: photographed from across the table (everything turned 180°).
        row_gap, tile_gap: spacing in tile heights / widths.
        drop: flat layout indices of tiles the locator missed.
        extra: small fragments added (locator noise), which binding must ignore.
        strays: tile-sized detections added far from the layout (at most 1).
    """
    rng = np.random.default_rng(seed)
    quads = []
    for r, row in enumerate(layout.rows):
        y = r * TILE_H * (1 + row_gap)
        for c, _ in enumerate(row):
            x = c * TILE_W * (1 + tile_gap) + rng.normal(0, 1.0)
            yy = y + rng.normal(0, 1.5)
            quads.append([[x, yy], [x + TILE_W, yy], [x + TILE_W, yy + TILE_H], [x, yy + TILE_H]])
    pts = np.array(quads, np.float64).reshape(-1, 2)
    a = math.radians(turn + (180.0 if far_side else 0.0))
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    pts = (pts - pts.mean(axis=0)) @ rot.T
    # Perspective: points further up the image shrink towards a vanishing line.
    z = 1.0 + tilt * pts[:, 1] / 400.0
    pts = pts / z[:, None] + 600.0
    q = pts.reshape(-1, 4, 2)
    if far_side:
        q = q[:, [2, 3, 0, 1]]  # the locator's frame is the photo's: up is the photo's up
    dets = [TileDetection(quad=tuple(map(tuple, quad))) for i, quad in enumerate(q)
            if i not in drop]
    for _ in range(extra):
        x, y = rng.uniform(100, 1100, 2)
        dets.append(TileDetection(quad=((x, y), (x + 6, y), (x + 6, y + 8), (x, y + 8))))
    for x, y in [(-400.0, -300.0)][:strays]:  # a tile-sized thing far off on the table
        dets.append(TileDetection(quad=((x, y), (x + TILE_W, y), (x + TILE_W, y + TILE_H),
                                        (x, y + TILE_H))))
    rng.shuffle(dets)
    return dets


def _names(bound) -> list[str]:
    return [b.name for b in bound]


@pytest.mark.parametrize(("text", "expected"), [
    (None, ("0m", "0p", "0s")), ("all", ("0m", "0p", "0s")), ("none", ()), ("", ()),
    ("0s,0m", ("0m", "0s")), ("0p", ("0p",)), ("0p 0s", ("0p", "0s")),
])
def test_parse_reds(text, expected):
    assert parse_reds(text) == expected


@pytest.mark.parametrize("text", ["5m", "0m,0m", "0z", "red"])
def test_parse_reds_rejects(text):
    with pytest.raises(InvalidInput):
        parse_reds(text)


def test_layout_rows_and_text():
    layout = ReferenceLayout(reds=("0p",))
    assert layout.counts == (9, 9, 9, 7, 2)
    assert layout.names[:3] == ("1m", "2m", "3m") and layout.names[-2:] == ("0p", "back")
    text = layout.text()
    assert len(text.splitlines()) == 5 and "[1z]" in text and "[##]" in text
    with pytest.raises(InvalidInput):
        ReferenceLayout(reds=("0s", "0m"))


@pytest.mark.parametrize(("turn", "tilt", "far_side"), [
    (0.0, 0.0, False), (17.0, 0.0, False), (-35.0, 0.5, False), (8.0, 0.6, False),
    (0.0, 0.0, True), (25.0, 0.5, True),
])
def test_bind_layout_any_view(turn, tilt, far_side):
    layout = ReferenceLayout()
    dets = layout_detections(layout, turn=turn, tilt=tilt, far_side=far_side, extra=3, strays=1)
    bound = bind_layout(dets, layout)
    assert _names(bound) == list(layout.names)
    # Position truth: the quad of the k-th bound tile is the k-th tile laid out.
    ordered = layout_detections(layout, turn=turn, tilt=tilt, far_side=far_side)
    by_quad = {d.quad: None for d in ordered}
    assert all(b.detection.quad in by_quad for b in bound)
    rows = [b.row for b in bound]
    assert rows == sorted(rows)


def test_bind_layout_binds_positions_exactly():
    layout = ReferenceLayout(reds=())
    rng_free = layout_detections(layout, seed=3, turn=12.0, tilt=0.4)
    bound = bind_layout(rng_free, layout)
    # Recreate unshuffled positions: tile k of the layout sits at column k of its row.
    centres = np.array([np.mean(b.detection.quad, axis=0) for b in bound])
    for r in range(len(layout.rows)):
        row = centres[[i for i, b in enumerate(bound) if b.row == r]]
        if len(row) < 2:
            continue
        steps = np.diff(row, axis=0)
        direction = steps / np.linalg.norm(steps, axis=1, keepdims=True)
        assert (direction @ direction[0] > 0.95).all()   # monotone along one line


@pytest.mark.parametrize(("layout", "drop", "needle"), [
    (ReferenceLayout(), (20,), "row 3 (1s-9s) has 8, expected 9"),
    (ReferenceLayout(), (8,), "row 1 (1m-9m) has 8, expected 9"),
    (ReferenceLayout(reds=("0m",)), (35,), "row 5 (0m back) has 1, expected 2"),
])
def test_bind_layout_names_the_short_row(layout, drop, needle):
    dets = layout_detections(layout, drop=drop, turn=5.0)
    with pytest.raises(LayoutMismatch) as info:
        bind_layout(dets, layout)
    assert needle in str(info.value)
    assert info.value.code == "layout_mismatch"


def test_bind_layout_wrong_red_count():
    laid = ReferenceLayout(reds=("0m", "0p"))
    with pytest.raises(LayoutMismatch) as info:
        bind_layout(layout_detections(laid), ReferenceLayout())
    assert "expected 38 tiles" in str(info.value) and "found 37" in str(info.value)


def test_bind_layout_wrong_rows():
    layout = ReferenceLayout()
    dets = layout_detections(layout, row_gap=-0.2)  # rows overlapping: not a layout
    with pytest.raises(LayoutMismatch):
        bind_layout(dets[:30], layout)
    with pytest.raises(LayoutMismatch) as info:
        bind_layout([], layout)
    assert "found 0 tiles" in str(info.value)


def test_tiles_the_locator_calls_sideways_still_bind():
    """Seen at a slant, upright tiles look wider than tall; their quads still run along the row."""
    layout = ReferenceLayout()
    dets = layout_detections(layout, turn=8.0, tilt=0.3)
    flagged = [dataclasses.replace(d, sideways=i % 3 == 0) for i, d in enumerate(dets)]
    assert [b.detection.quad for b in bind_layout(flagged, layout)] == \
        [b.detection.quad for b in bind_layout(dets, layout)]


def test_quads_turned_a_quarter_are_reframed():
    """A locator that names some tiles' corners a quarter turn off (a slanted view)."""
    layout = ReferenceLayout()
    dets = layout_detections(layout, turn=-12.0, tilt=0.3)
    turned = [TileDetection(quad=(d.quad[3], d.quad[0], d.quad[1], d.quad[2]), sideways=True)
              if i % 3 == 0 else d for i, d in enumerate(dets)]
    assert [b.detection.quad for b in bind_layout(turned, layout)] == \
        [b.detection.quad for b in bind_layout(dets, layout)]


def test_touching_tiles_taken_for_one_are_cut_apart():
    layout = ReferenceLayout()
    dets = layout_detections(layout)
    # Merge 1s+2s and 1z+2z into single quads, as a locator may for touching tiles.
    bound = bind_layout(dets, layout)
    merged = []
    skip = set()
    for first in ("1s", "1z"):
        i = layout.names.index(first)
        a, b = bound[i].detection.quad, bound[i + 1].detection.quad
        merged.append(TileDetection(quad=(a[0], b[1], b[2], a[3])))
        skip |= {bound[i].detection.quad, bound[i + 1].detection.quad}
    dets = [d for d in dets if d.quad not in skip] + merged
    again = bind_layout(dets, layout)
    assert [b.name for b in again] == list(layout.names)
    centres = np.array([np.mean(b.detection.quad, axis=0) for b in again])
    truth = np.array([np.mean(b.detection.quad, axis=0) for b in bound])
    assert np.abs(centres - truth).max() < 0.15 * TILE_W


def test_group_rows_drops_fragments_and_orders_rows():
    layout = ReferenceLayout()
    rows = group_rows(layout_detections(layout, extra=5, turn=-10.0))
    assert [len(r) for r in rows] == list(layout.counts)
