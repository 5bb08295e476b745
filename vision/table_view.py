"""Where a tile lying on the table beside a standing hand shows in the picture.

Seen from a player's seat, a called tile laid flat beside the standing hand shows
its face foreshortened, above its front side, and slanted towards the table's
vanishing point: the steeper the view and the farther off the picture's centre, the
more its receding edges lean. A quad grown from the standing tiles' own shape (a
tile width along the row, a share of their height across) frames it badly, and the
classifier reads such a quad as ``none``.

A row of standing faces is a long rectangle on a plane: its top and bottom lines
meet at the row's vanishing point, its tiles' side edges at the faces' "up"
vanishing point. With the principal point at the picture's centre and a focal
length of a phone or web camera, those two give the directions of the row and of
the faces' up in the camera's frame, and the face's normal across them. A tile
stands leaning back a little (and the focal length is a guess), so the table's
up and depth are the faces' up and normal turned about the row by a lean;
`TableView.flat` projects a flat tile's face for a given lean, position along the
row and distance in front of or behind the hand, all in tile widths.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np


def _line(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    return np.cross([p[0], p[1], 1.0], [q[0], q[1], 1.0])


def _fitted_line(points: np.ndarray) -> np.ndarray:
    """The least-squares line through ``points`` (homogeneous)."""
    mid = points.mean(axis=0)
    _, _, vt = np.linalg.svd(points - mid)
    return _line(mid, mid + vt[0])


def _meeting(lines: Sequence[np.ndarray]) -> np.ndarray:
    """The point (homogeneous, perhaps at infinity) nearest to all ``lines``."""
    rows = np.array([ln / (np.linalg.norm(ln[:2]) or 1.0) for ln in lines])
    _, _, vt = np.linalg.svd(rows)
    return vt[-1]


def rises_towards_camera(quads: Sequence[np.ndarray], floor: float) -> bool:
    """Whether a row's faces are about as wide at the top as at the bottom or wider (the
    median tile's ratio at least ``floor``): seen from above, a standing face's top is
    nearer the camera than its foot, while a face lying flat recedes upwards and narrows."""
    ratios = [np.linalg.norm(q[1] - q[0]) / (np.linalg.norm(q[2] - q[3]) or 1.0) for q in quads]
    return float(np.median(ratios)) >= floor


class TableView:
    """The camera's view of the table round one row of standing faces (TL, TR, BR, BL
    quads, in the row's order), for a given lean of the faces and focal length."""

    def __init__(self, quads: Sequence[np.ndarray], size: tuple[int, int], *, focal: float,
                 lean_deg: float = 0.0) -> None:
        q = [np.asarray(x, np.float64) for x in quads]
        w, h = size
        self.centre = np.array([w / 2.0, h / 2.0])
        self.focal = focal * max(w, h)
        bottom = _fitted_line(np.array([p for x in q for p in (x[3], x[2])]))
        top = _fitted_line(np.array([p for x in q for p in (x[0], x[1])]))
        along = self._ray(np.cross(bottom, top))
        up = self._ray(_meeting([_line(x[0], x[3]) for x in q] + [_line(x[1], x[2]) for x in q]))
        # Orient both as the picture runs: along the row, and up the faces.
        foot = self._ray(np.array([*q[0][3], 1.0]))
        row = np.mean([(x[1] - x[0]) + (x[2] - x[3]) for x in q], axis=0)
        rise = np.mean([(x[0] - x[3]) + (x[1] - x[2]) for x in q], axis=0)
        along = along if self._seen(foot, along) @ row >= 0 else -along
        up = up if self._seen(foot, up) @ rise >= 0 else -up
        up = up - (up @ along) * along
        up /= np.linalg.norm(up) or 1.0
        normal = np.cross(along, up)
        normal = normal if normal @ foot >= 0 else -normal  # away from the camera
        self.along, self._faces = along, (up, normal)
        self._lean(lean_deg)

    def leaned(self, lean_deg: float) -> TableView:
        """A copy of this view with the faces leaning ``lean_deg`` back (the row's lines
        are measured once)."""
        view = copy.copy(self)
        view._lean(lean_deg)
        return view

    def _lean(self, lean_deg: float) -> None:
        up, normal = self._faces
        lean = np.radians(lean_deg)
        self.up = np.cos(lean) * up - np.sin(lean) * normal
        self.depth = np.sin(lean) * up + np.cos(lean) * normal

    def _ray(self, point: np.ndarray) -> np.ndarray:
        """The camera-frame direction of a homogeneous image point, unit length."""
        ray = np.array([(point[0] - self.centre[0] * point[2]) / self.focal,
                        (point[1] - self.centre[1] * point[2]) / self.focal, point[2]])
        return ray / (np.linalg.norm(ray) or 1.0)

    def _seen(self, at: np.ndarray, direction: np.ndarray) -> np.ndarray:
        """The picture's direction of a short step along ``direction`` from ray ``at``."""
        near, far = at * 10.0, at * 10.0 + direction * 0.01
        return far[:2] / far[2] - near[:2] / near[2]

    def foot(self, quad: np.ndarray) -> np.ndarray | None:
        """The camera-frame point (tile widths) of a standing face's bottom-left corner,
        placed so that a tile width along the row ends at its bottom-right one."""
        q = np.asarray(quad, np.float64)
        m = np.array([(q[3][0] - self.centre[0]) / self.focal,
                      (q[3][1] - self.centre[1]) / self.focal, 1.0])
        r = (q[2] - self.centre) / self.focal
        a = m[:2] - r * m[2]
        b = -(self.along[:2] - r * self.along[2])
        s = float(a @ b / (a @ a)) if a @ a > 0 else 0.0
        return s * m if s > 0 else None

    def flat(self, foot: np.ndarray, x: float, y: float, lift: float, wide: float,
             deep: float) -> np.ndarray | None:
        """The picture quad (TL, TR, BR, BL in the row's frame) of a face lying ``lift``
        above the table, ``wide`` along the row from ``x`` and ``deep`` away from ``y``
        (tile widths from ``foot``; ``y`` = 0 the standing faces' plane); None where part
        of it lies behind the camera."""
        corners = np.array([[x, y + deep], [x + wide, y + deep], [x + wide, y], [x, y]])
        points = (foot[None] + corners[:, :1] * self.along + corners[:, 1:] * self.depth
                  + lift * self.up)
        if np.any(points[:, 2] <= 1e-6):
            return None
        return points[:, :2] / points[:, 2:] * self.focal + self.centre


__all__ = ["TableView", "rises_towards_camera"]
