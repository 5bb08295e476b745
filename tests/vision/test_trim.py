"""Trimming a tile's body off its face (`agari.vision.trim`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from agari.vision.trim import trim_to_face

FACE = (40, 30, 80, 62)  # x0, y0, x1, y1 of the face
"""A 40 x 32 face; the body (front side) lies below it down to y = 80."""


def _tile(*, body: int | None, ink: bool = True, table: int = 90) -> np.ndarray:
    """Grey ``uint8 (120, 120)``: a bright face with a centred symbol, and optionally a
    body side of brightness ``body`` below it."""
    g = np.full((120, 120), table, np.uint8)
    x0, y0, x1, y1 = FACE
    if body is not None:
        g[y1:80, x0:x1] = body
    g[y0:y1, x0:x1] = 225
    if ink:
        cv2.circle(g, ((x0 + x1) // 2, (y0 + y1) // 2), 9, 40, 3)
    return g


def _quad(y1: int) -> np.ndarray:
    x0, y0, x1, _ = FACE
    return np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


@pytest.mark.parametrize("body", [170, 250])
def test_face_and_body_are_cut_at_the_shading_edge(body):
    out = trim_to_face(_tile(body=body), _quad(80))
    assert out is not None
    assert abs(float(out[:, 1].max()) - FACE[3]) <= 2
    assert abs(float(out[:, 1].min()) - FACE[1]) <= 1


@pytest.mark.parametrize(("body", "ink", "bottom"), [
    (None, True, FACE[3]),  # a face seen from above: margins all round
    (170, False, 80),  # a blank face: nothing to go by
    (225, True, 80),  # no shading edge: one even plate
])
def test_quads_without_a_clear_body_are_kept(body, ink, bottom):
    assert trim_to_face(_tile(body=body, ink=ink), _quad(bottom)) is None
