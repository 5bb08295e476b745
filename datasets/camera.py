"""A pinhole camera over the table, and where a photographer puts it.

World frame (millimetres): the table is the plane ``z = 0``, ``z`` points up,
the hand's player sits on the ``-y`` side looking along ``+y``, and the hand's
rows run along ``+x``. Image frame: ``x`` right, ``y`` down, pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class Camera:
    """Intrinsics and pose.

    Attributes:
        rot: ``(3, 3)`` float64 world → camera rotation; rows are the camera's right, down
            and forward axes in world coordinates.
        centre: ``(3,)`` the camera's position in the world.
        focal: focal length in pixels.
        principal: ``(cx, cy)`` in pixels.
        size: ``(width, height)`` of the image.
    """

    rot: np.ndarray
    centre: np.ndarray
    focal: float
    principal: tuple[float, float]
    size: tuple[int, int]

    def project(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Image points ``(N, 2)`` float64 and depths ``(N,)`` of world points ``(N, 3)``."""
        cam = (np.asarray(points, np.float64) - self.centre) @ self.rot.T
        z = np.maximum(cam[:, 2], 1e-6)
        uv = cam[:, :2] * (self.focal / z)[:, None] + np.asarray(self.principal)
        return uv, cam[:, 2]

    def depth(self, point: np.ndarray) -> float:
        """Distance of ``point`` along the viewing axis."""
        return float((np.asarray(point, np.float64) - self.centre) @ self.rot[2])

    def sees(self, point: np.ndarray, normal: np.ndarray) -> bool:
        """Whether a surface at ``point`` with outward ``normal`` faces the camera."""
        return float(np.dot(normal, self.centre - point)) > 0.0

    def table_homography(self) -> np.ndarray:
        """``(3, 3)`` matrix taking table-plane ``(x, y, 1)`` (mm) to image pixels."""
        k = np.array([[self.focal, 0, self.principal[0]], [0, self.focal, self.principal[1]],
                      [0, 0, 1]])
        t = -self.rot @ self.centre
        return k @ np.column_stack([self.rot[:, 0], self.rot[:, 1], t])

    def horizon_y(self) -> float | None:
        """Image row of the table plane's horizon at the image centre, or None if level or up."""
        far = self.centre + 1e7 * np.array([self.rot[2, 0], self.rot[2, 1], 0.0])
        cam = (far - self.centre) @ self.rot.T
        if cam[2] <= 0:
            return None
        return float(cam[1] * self.focal / cam[2] + self.principal[1])


def look_at(target: np.ndarray, *, elevation: float, azimuth: float, distance: float,
            roll: float, focal: float, size: tuple[int, int],
            principal_jitter: tuple[float, float] = (0.0, 0.0)) -> Camera:
    """A camera ``distance`` mm from ``target``, looking at it.

    Args:
        target: ``(3,)`` world point at the image centre.
        elevation: degrees above the table (90 = straight down).
        azimuth: degrees around ``z``; 0 puts the camera behind the player (on ``-y``).
        roll: degrees the camera turns about its viewing axis.
        focal: focal length in pixels.
        size: ``(width, height)``.
        principal_jitter: offset of the principal point from the centre, in pixels.
    """
    el, az = math.radians(elevation), math.radians(azimuth)
    back = np.array([math.sin(az) * math.cos(el), -math.cos(az) * math.cos(el), math.sin(el)])
    centre = np.asarray(target, np.float64) + distance * back
    forward = -back
    # Straight down, "up in the image" must still be defined: use the azimuth direction.
    ref = np.array([-math.sin(az), math.cos(az), 0.0]) if elevation > 89.0 else np.array(
        [0.0, 0.0, 1.0])
    right = np.cross(forward, ref) if elevation <= 89.0 else np.cross(ref, np.array([0, 0, 1.0]))
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    r = math.radians(roll)
    right, down = (math.cos(r) * right + math.sin(r) * down,
                   -math.sin(r) * right + math.cos(r) * down)
    rot = np.stack([right, down, forward])
    w, h = size
    principal = (w / 2.0 + principal_jitter[0], h / 2.0 + principal_jitter[1])
    return Camera(rot=rot, centre=centre, focal=float(focal), principal=principal,
                  size=(int(w), int(h)))
