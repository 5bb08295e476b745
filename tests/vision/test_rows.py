"""Rows of faces seen at a slant (`agari.vision.rows`, `RowConfig.level_deg`): tiles lying
flat seen from a low seat are wider than tall, yet upright."""

from __future__ import annotations

import numpy as np
import pytest
from agari.vision.proposals import Proposal
from agari.vision.rows import SLANTED_ROWS as SLANTED
from agari.vision.rows import RowConfig, arrange


def _quad(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])


def _row(widths: list[float], heights: list[float], *, x: float = 50, y: float = 100,
         gap: float = 2) -> list[Proposal]:
    out = []
    for w, h in zip(widths, heights, strict=True):
        out.append(Proposal(_quad(x, y + (max(heights) - h), w, h), 1.0))
        x += w + gap
    return out


def _upright(dets) -> list[bool]:
    """Whether each detection's crop comes out upright in the image (its up is image up,
    not a flagged sideways tile)."""
    return [d.up[1] < -0.99 and not d.sideways for d in dets]


@pytest.mark.parametrize(("name", "config", "upright"), [
    ("as before: each face alone, framed a quarter off", RowConfig(), [False] * 5),
    ("one row, image up", SLANTED, [True] * 5),
])
def test_a_row_of_faces_seen_at_a_slant_is_one_row_of_upright_tiles(name, config, upright):
    props = _row([44] * 5, [30] * 5)  # 44 wide, 30 tall: faces foreshortened
    dets = arrange(props, scale=1.0, cfg=config)
    assert _upright(dets) == upright, name
    if config.level_deg is not None:
        assert [round(d.quad[0][0]) for d in dets] == [50, 96, 142, 188, 234]


def test_a_column_of_upright_tiles_is_not_a_row():
    column = [Proposal(_quad(100, 50 + 55 * k, 40, 53), 1.0) for k in range(3)]
    dets = arrange(column, scale=1.0, cfg=SLANTED)
    assert [d.sideways for d in dets] == [False] * 3
    assert all(d.up[1] < -0.99 for d in dets)  # each its own row, upright


def test_in_a_slanted_row_only_a_clearly_wider_tile_is_sideways():
    props = _row([44, 44, 60, 44, 44], [30, 30, 24, 30, 30])
    dets = arrange(props, scale=1.0, cfg=SLANTED)
    assert [d.sideways for d in dets] == [False, False, True, False, False]


def test_rows_of_tiles_seen_from_above_are_as_before():
    # Upright tiles with a called one: the step runs along their short sides.
    props = _row([40, 40, 53, 40], [53, 53, 40, 53])
    for config in (RowConfig(), SLANTED):
        dets = arrange(props, scale=1.0, cfg=config)
        assert [d.sideways for d in dets] == [False, False, True, False]
