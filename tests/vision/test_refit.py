"""Classical proposals that hold a part of a tile give way to the core net's quad
(`agari.vision.refit`)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from agari.vision.cores import CoreQuad
from agari.vision.proposals import Proposal
from agari.vision.quads import match_quads, quad_iou
from agari.vision.refit import RefitConfig, refit


def _box(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


FACE = _box(100, 100, 140, 130)
"""The net's quad of a tile lying flat: its face, 40 x 30."""


@pytest.mark.parametrize(("name", "proposal", "replaced"), [
    ("a bright gap between symbols", _box(110, 108, 125, 120), True),
    ("a row of sticks, half the face", _box(102, 104, 138, 118), True),
    ("the face, boxed well", _box(99, 99, 141, 131), False),
    ("the face with its front side below", _box(98, 98, 142, 152), False),
    ("a box round the print in the middle", _box(92, 88, 148, 142), False),
    ("a part of the face and the table beside it", _box(125, 100, 165, 130), False),
])
def test_a_proposal_gives_way_only_as_a_part_of_the_tile(name, proposal, replaced):
    props = [Proposal(proposal, 1.5)]
    out = refit(props, [CoreQuad(FACE, 0.8, False)], 1.0)
    assert len(out) == 1
    assert out[0].score == 1.5
    assert np.array_equal(out[0].quad, FACE) is replaced, name


def test_unsure_or_face_down_cores_replace_nothing():
    part = [Proposal(_box(110, 108, 125, 120), 1.0)]
    assert refit(part, [CoreQuad(FACE, 0.5, False)], 1.0) == part
    assert refit(part, [CoreQuad(FACE, 0.9, True)], 1.0) == part


def test_two_parts_of_one_tile_become_one_and_other_tiles_are_kept():
    parts = [Proposal(_box(104, 105, 118, 125), 1.2), Proposal(_box(122, 105, 136, 125), 0.9)]
    other = Proposal(_box(150, 100, 190, 130), 2.0)
    out = refit([other, *parts], [CoreQuad(FACE, 0.8, False)], 1.0)
    assert len(out) == 2
    assert out[0] is other
    assert np.array_equal(out[1].quad, FACE)


def test_a_core_quad_over_a_tile_boxed_already_replaces_nothing():
    part = Proposal(_box(110, 108, 125, 120), 1.0)
    neighbour = Proposal(_box(118, 100, 158, 130), 1.0)  # covers half the core quad
    assert refit([part, neighbour], [CoreQuad(FACE, 0.8, False)], 1.0) == [part, neighbour]


def test_core_quads_are_scaled_to_working_pixels():
    part = Proposal(_box(55, 54, 62, 60), 1.0)  # inside FACE at half size
    out = refit([part], [CoreQuad(FACE, 0.8, False)], 0.5)
    assert np.allclose(out[0].quad, FACE * 0.5)


# -- the locator, given the net's quads, on a drawn row of tiles ------------------------
def _row_of_parts(n: int = 5) -> tuple[np.ndarray, list[np.ndarray]]:
    """A row of tiles whose faces (44 x 30) are as grey as the wood-grain table under them,
    each with green sticks and a bright gap between them, BGR ``uint8 (240, 480, 3)``;
    the faces' true quads. The classical steps box only the bright gaps."""
    rng = np.random.default_rng(7)
    img = np.full((240, 480, 3), (150, 158, 162), np.float32)
    grain = cv2.resize(rng.normal(0, 10, (240, 12)).astype(np.float32), (480, 240))
    img = np.clip(img + grain[..., None] + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    faces = []
    for k in range(n):
        x0, y0 = 80 + 48 * k, 100
        cv2.rectangle(img, (x0, y0), (x0 + 43, y0 + 29), (165, 168, 170), -1)
        for x in range(x0 + 3, x0 + 41, 7):
            cv2.rectangle(img, (x, y0 + 3), (x + 3, y0 + 26), (60, 120, 40), -1)
        cv2.rectangle(img, (x0 + 14, y0 + 8), (x0 + 29, y0 + 21), (245, 245, 245), -1)
        faces.append(_box(x0, y0, x0 + 44, y0 + 30))
    return img, faces


def test_the_locator_boxes_whole_faces_where_the_net_frames_them(monkeypatch):
    import sys

    locate_module = sys.modules["agari.vision.locate"]
    from agari.vision.locate import HAND_LOCATE, locate

    image, faces = _row_of_parts()
    cores = [CoreQuad(f + np.float32([1, 1]), 0.8, False) for f in faces]
    monkeypatch.setattr(locate_module, "find_cores", lambda bgr, cfg: cores)
    config = replace(HAND_LOCATE, cores=replace(HAND_LOCATE.cores, contest=None))

    def hits(cfg) -> tuple[int, int]:
        found = [np.asarray(d.quad, np.float32) for d in locate(image, config=cfg)]
        return len(match_quads(faces, found, iou=quad_iou, min_iou=0.6)), len(found)

    assert hits(replace(config, refit=None))[0] == 0  # the gaps' boxes keep the net's out
    assert hits(replace(config, refit=RefitConfig())) == (len(faces), len(faces))
