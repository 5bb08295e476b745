"""`TableView`: a standing row of faces says where a tile lying flat beside it shows."""

import numpy as np
from agari.datasets.camera import look_at
from agari.vision.table_view import TableView, rises_towards_camera

WIDE, HIGH, THICK = 26.0, 34.0, 20.0  # a tile's face width, height and depth (mm)
SIZE = (1920, 1080)


def _camera(elevation: float = 22.0, azimuth: float = 15.0):
    return look_at(np.array([200.0, 0.0, 0.0]), elevation=elevation, azimuth=azimuth,
                   distance=600.0, roll=3.0, focal=1500.0, size=SIZE)


def _seen(cam, corners) -> np.ndarray:
    return cam.project(np.asarray(corners, np.float64))[0]


def _standing_row(cam, n: int = 8) -> list[np.ndarray]:
    """Faces standing upright at y = 0, facing the camera: TL, TR, BR, BL."""
    return [_seen(cam, [(x, 0, HIGH), (x + WIDE, 0, HIGH), (x + WIDE, 0, 0), (x, 0, 0)])
            for x in np.arange(n) * WIDE]


def test_a_flat_face_past_the_row_is_where_the_camera_sees_it():
    cam = _camera()
    row = _standing_row(cam)
    view = TableView(row, SIZE, focal=cam.focal / max(SIZE), lean_deg=0.0)
    foot = view.foot(row[-1])
    x0, y0 = 7 * WIDE + 2.5 * WIDE, -0.3 * WIDE  # 1.5 widths past the row, a little nearer
    truth = _seen(cam, [(x0, y0 + HIGH, THICK), (x0 + WIDE, y0 + HIGH, THICK),
                        (x0 + WIDE, y0, THICK), (x0, y0, THICK)])
    quad = view.flat(foot, 2.5, -0.3, THICK / WIDE, 1.0, HIGH / WIDE)
    assert np.abs(quad - truth).max() < 1.0
    # Its receding edges lean: an upright quad of the row's own shape would not fit.
    assert abs((quad[0] - quad[3])[0]) > 5.0


def test_a_guessed_focal_length_is_taken_up_by_the_lean():
    """With the focal length guessed 30 % short, one of the leans tried still frames the
    flat face to a few pixels (the module's leans run -7 to 21 degrees)."""
    cam = _camera(elevation=30.0, azimuth=-20.0)
    row = _standing_row(cam)
    x0 = 7 * WIDE + 2.0 * WIDE
    truth = _seen(cam, [(x0, HIGH, THICK), (x0 + WIDE, HIGH, THICK), (x0 + WIDE, 0, THICK),
                        (x0, 0, THICK)])
    errors = []
    for lean in np.arange(-7.0, 21.1, 1.0):
        view = TableView(row, SIZE, focal=0.7 * cam.focal / max(SIZE), lean_deg=lean)
        quad = view.flat(view.foot(row[-1]), 2.0, 0.0, THICK / WIDE, 1.0, HIGH / WIDE)
        errors.append(np.abs(quad - truth).max())
    assert min(errors) < 0.1 * np.linalg.norm(truth[1] - truth[0])


def test_standing_faces_widen_upwards_and_flat_ones_narrow():
    cam = _camera()
    flat = [_seen(cam, [(x, HIGH, 0), (x + WIDE, HIGH, 0), (x + WIDE, 0, 0), (x, 0, 0)])
            for x in np.arange(8) * WIDE]
    assert rises_towards_camera(_standing_row(cam), 1.0)
    assert not rises_towards_camera(flat, 1.0)
