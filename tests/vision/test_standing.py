"""Standing rows: faces in shade below a bright band, cut by the repeat of their seams."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from agari.vision.proposals import Proposal
from agari.vision.quads import quad_iou
from agari.vision.standing import StandingConfig, standing_proposals

TABLE, TOP, FACE, SEAM, INK = 150, 235, 120, 60, 20
X0, Y0, PITCH, COUNT = 100, 200, 50, 9
FACE_H = 66


def _scene(*, seams: bool = True, ink: bool = True, seed: int = 3) -> tuple[np.ndarray, list]:
    """A grey table, a row of standing tiles seen from the seat: bright tops, shaded faces
    (darker than the table) with symbols, thin dark seams. Returns (image, face quads)."""
    rng = np.random.default_rng(seed)
    img = np.full((480, 800, 3), TABLE, np.uint8)
    img = np.clip(img + rng.normal(0, 4, img.shape), 0, 255).astype(np.uint8)
    x1 = X0 + PITCH * COUNT
    cv2.rectangle(img, (X0, Y0 - 24), (x1, Y0 - 1), (TOP,) * 3, -1)
    cv2.rectangle(img, (X0, Y0), (x1, Y0 + FACE_H), (FACE,) * 3, -1)
    quads = []
    for i in range(COUNT):
        a = X0 + i * PITCH
        if seams and i:
            cv2.line(img, (a, Y0), (a, Y0 + FACE_H), (SEAM,) * 3, 2)
        if ink:
            cx = a + PITCH // 2 + int(rng.integers(-4, 5))
            cv2.putText(img, "AB"[i % 2], (cx - 14, Y0 + 48), cv2.FONT_HERSHEY_SIMPLEX, 1.2,
                        (INK,) * 3, 3)
        quads.append(np.float32([[a, Y0], [a + PITCH, Y0], [a + PITCH, Y0 + FACE_H],
                                 [a, Y0 + FACE_H]]))
    return img, quads


def test_faces_below_the_band_are_cut_one_per_tile():
    img, faces = _scene()
    props = standing_proposals(img, [])
    found = [p.quad for p in props]
    for face in faces:
        assert max(quad_iou(face, q) for q in found) > 0.6
    below = [q for q in found if q[:, 1].mean() > Y0]
    assert len(below) == COUNT


@pytest.mark.parametrize("what", ["seams", "ink"])
def test_nothing_without_seams_or_symbols(what):
    img, _ = _scene(**{what: False})
    assert standing_proposals(img, []) == []


def test_tiles_already_proposed_are_left_alone():
    img, faces = _scene()
    existing = [Proposal(faces[0], 2.0), Proposal(faces[1], 2.0)]
    props = standing_proposals(img, existing)
    for p in props:
        assert all(quad_iou(p.quad, e.quad) < 0.3 for e in existing)
    assert len([p for p in props if p.quad[:, 1].mean() > Y0]) == COUNT - 2


def test_quads_start_inside_the_band_and_end_a_face_past_it():
    """`face_start`: a lit face's blank top margin can be the band itself, so the quads
    reach back into it; their far edge stays a face's length past the band."""
    img, faces = _scene()
    flush = [p.quad for p in standing_proposals(img, [], config=StandingConfig(face_start=0.0))
             if p.quad[:, 1].mean() > Y0]
    inside = [p.quad for p in standing_proposals(img, [], config=StandingConfig(face_start=0.5))
              if p.quad[:, 1].mean() > Y0]
    assert len(flush) == len(inside) == COUNT
    for a, b in zip(flush, inside, strict=True):
        top_a, top_b = a[:, 1].min(), b[:, 1].min()
        assert 8 <= top_a - top_b <= 16  # half the 24-pixel band
        assert abs(a[:, 1].max() - b[:, 1].max()) <= 1


def test_where_two_bands_offer_rows_over_the_same_faces_the_clearer_repeat_wins():
    """A bright strip of table just past the faces (a tray's rim) is a band too, and the
    row hung from its near side covers the faces shifted by the gap: next to the rim it
    shows bare table, not seams, so the row hung from the tiles' own tops is kept (taken
    in the order the bands were found, the rim's row hid every face)."""
    img, faces = _scene()
    rim = Y0 + FACE_H + 20
    cv2.rectangle(img, (X0 - 200, rim), (X0 + PITCH * COUNT + 150, rim + 22), (TOP,) * 3, -1)
    found = [p.quad for p in standing_proposals(img, [])]
    for face in faces:
        assert max(quad_iou(face, q) for q in found) > 0.6


def test_a_row_photographed_a_quarter_turn_round_is_cut_at_its_seams():
    img, faces = _scene()
    turned = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    h = img.shape[0]  # (x, y) -> (h - 1 - y, x) under a clockwise quarter turn
    turned_faces = [np.float32([[h - 1 - y, x] for x, y in q]) for q in faces]
    found = [p.quad for p in standing_proposals(turned, [])]
    for face in turned_faces:
        assert max(quad_iou(face, q) for q in found) > 0.6
