"""One tile as a solid: a rounded slab with an ivory front layer and a coloured back layer.

Tile-local frame (mm): ``x`` to the art's right, ``y`` to the art's top,
``z`` out of the face; the face is the plane ``z = 0`` and the back
``z = -depth``. A `TilePose` places that frame in the world
(`agari.datasets.camera`) and says which way the row runs, so the quad comes
out in the row's upright frame (TL, TR, BR, BL) like `TileDetection` wants.

Drawing is painter's-algorithm OpenCV: the silhouette, the visible side
strips (shaded per facet, so the rounded corners shade smoothly), then the
visible cap: the face texture warped into place, or the back colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from agari.datasets.camera import Camera
from agari.datasets.tileface import SetStyle

ARC_POINTS = 5
"""Outline points per rounded corner."""
SUBPIXEL_BITS = 4
"""Fixed-point bits OpenCV's polygon fill gets, for smooth sub-pixel edges."""
_SCALE = float(1 << SUBPIXEL_BITS)


@dataclass(frozen=True, eq=False)
class Light:
    """A directional light plus ambient.

    Attributes:
        direction: unit ``(3,)`` from the surface towards the light.
        ambient: share of light that reaches every surface (0..1).
        glare: strength of specular highlights on glossy faces (0..1).
    """

    direction: np.ndarray
    ambient: float
    glare: float

    def shade(self, normal: np.ndarray) -> float:
        """Lambert factor for a world ``normal``."""
        return self.ambient + (1.0 - self.ambient) * max(0.0, float(normal @ self.direction))


@dataclass(frozen=True, eq=False)
class TilePose:
    """Where a tile is.

    Attributes:
        rot: ``(3, 3)`` local → world; columns are the local x, y, z axes in the world.
        origin: ``(3,)`` world position of the face centre.
        row_right, row_up: ``(3,)`` the row's right and up in the world, for quad order.
    """

    rot: np.ndarray
    origin: np.ndarray
    row_right: np.ndarray
    row_up: np.ndarray

    def to_world(self, local: np.ndarray) -> np.ndarray:
        return local @ self.rot.T + self.origin


def outline(width: float, height: float, radius: float, arc: int = ARC_POINTS) -> np.ndarray:
    """``(4 * arc, 2)`` rounded-rectangle outline in local x/y, counter-clockwise."""
    r = min(radius, width / 2, height / 2)
    pts = []
    corners = ((width / 2 - r, height / 2 - r, 0.0), (-width / 2 + r, height / 2 - r, 90.0),
               (-width / 2 + r, -height / 2 + r, 180.0), (width / 2 - r, -height / 2 + r, 270.0))
    for cx, cy, start in corners:
        for k in range(arc):
            a = math.radians(start + 90.0 * k / (arc - 1))
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts, np.float64)


@dataclass(frozen=True, eq=False)
class DrawnTile:
    """What drawing a tile produced.

    Attributes:
        quad: ``(4, 2)`` float64 image corners, row order, of the face (or of the back when
            only the back shows).
        silhouette: ``(K, 2)`` float64 convex hull of the whole tile in the image.
        cap: ``(M, 2)`` float64 image outline of the visible cap, or None when the camera
            sees neither face nor back (a standing tile from straight above).
        face_up: the face is the visible cap.
    """

    quad: np.ndarray
    silhouette: np.ndarray
    cap: np.ndarray | None
    face_up: bool


def _fixed(points: np.ndarray) -> np.ndarray:
    return np.round(points * _SCALE).astype(np.int32)


def _fill(canvas: np.ndarray, points: np.ndarray, colour: np.ndarray) -> None:
    cv2.fillConvexPoly(canvas, _fixed(points), colour.tolist(), cv2.LINE_AA, SUBPIXEL_BITS)


def tile_points(style: SetStyle, pose: TilePose, arc: int = ARC_POINTS,
                ) -> tuple[np.ndarray, np.ndarray]:
    """World points of the tile's three outlines (face, layer seam, back) and the local outline.

    Args:
        arc: outline points per rounded corner (fewer for tiles drawn small).

    Returns:
        ``(3, N, 3)`` world points and ``(N, 2)`` local outline.
    """
    key = ("outline", style.size_mm, style.corner, style.face_layer, arc)
    if key not in style._cache:  # every tile of a set has the same shape
        w, h, d = style.size_mm
        ring = outline(w, h, style.corner * w, arc)
        layers = np.stack([np.column_stack([ring, np.full(len(ring), z)])
                           for z in (0.0, -d * style.face_layer, -d)])
        style._cache[key] = (layers, ring)
    layers, ring = style._cache[key]
    return pose.to_world(layers), ring


def _corners(style: SetStyle, z: float) -> np.ndarray:
    w, h, _ = style.size_mm
    return np.array([[-w / 2, h / 2, z], [w / 2, h / 2, z], [w / 2, -h / 2, z],
                     [-w / 2, -h / 2, z]], np.float64)


def draw_tile(canvas: np.ndarray, cam: Camera, pose: TilePose, style: SetStyle,
              face: str | None, light: Light) -> DrawnTile:
    """Draw one tile onto ``canvas`` (BGR ``uint8``, modified in place).

    Args:
        face: the tile name whose art is on the face (None: a blank face).

    Returns:
        The tile's image geometry.
    """
    d = style.size_mm[2]
    px = cam.focal * style.size_mm[0] / max(cam.depth(pose.origin), 1.0)
    world, ring = tile_points(style, pose, 2 if px < 40 else 3 if px < 110 else ARC_POINTS)
    n = len(ring)
    img = cam.project(world.reshape(-1, 3))[0].reshape(3, n, 2)
    hull = cv2.convexHull(img.reshape(-1, 2).astype(np.float32)).reshape(-1, 2).astype(np.float64)
    # Under the facets, so their anti-aliased seams blend into a like colour, not the table.
    _fill(canvas, hull, (style.face * 0.9 + style.back) * 0.5 * light.ambient)
    _draw_sides(canvas, cam, pose, ring, world, img, style, light)
    normal = pose.rot[:, 2]
    face_up = cam.sees(pose.origin, normal)
    back_up = not face_up and cam.sees(pose.to_world(np.array([0.0, 0.0, -d])), -normal)
    cap = None
    if face_up:
        art_quad = cam.project(pose.to_world(_corners(style, 0.0)))[0]
        _draw_face(canvas, art_quad, style, face, light.shade(normal), light, cam, pose)
        cap = img[0]
    elif back_up:
        _fill(canvas, img[2], style.back * light.shade(-normal))
        cap = img[2]
    corners = pose.to_world(_corners(style, -d if back_up else 0.0))
    quad = cam.project(_row_order(pose, corners))[0]
    return DrawnTile(quad=quad, silhouette=hull, cap=cap, face_up=face_up)


def _draw_sides(canvas, cam, pose, ring, world, img, style, light) -> None:
    """The side facets that face the camera: ivory strip over coloured strip, shaded per facet."""
    edge = np.roll(ring, -1, axis=0) - ring
    local = np.column_stack([edge[:, 1], -edge[:, 0], np.zeros(len(ring))])  # outward (CCW ring)
    local /= np.linalg.norm(local, axis=1, keepdims=True) + 1e-12
    normals = local @ pose.rot.T
    facing = np.einsum("ij,ij->i", normals, cam.centre - world[0]) > 0
    shades = light.ambient + (1.0 - light.ambient) * np.clip(normals @ light.direction, 0, None)
    fixed = _fixed(img)
    front, back = style.face * 0.93, style.back
    n = len(ring)
    for i in np.flatnonzero(facing):
        j = (i + 1) % n
        shade = float(shades[i])
        for a, b, colour in ((0, 1, front), (1, 2, back)):
            quad = np.array([fixed[a, i], fixed[a, j], fixed[b, j], fixed[b, i]])
            cv2.fillConvexPoly(canvas, quad, (colour * shade).tolist(), cv2.LINE_AA,
                               SUBPIXEL_BITS)


def _draw_face(canvas, quad, style, face, shade, light, cam, pose) -> None:
    """Warp the face texture onto the image quad (art TL, TR, BR, BL) and blend it in."""
    size = float(max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[3])))
    tex, alpha = style.texture(face or "5z", max(size, 4.0))
    th, tw = alpha.shape
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    H, W = canvas.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if x1 <= x0 or y1 <= y0:
        return
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    m = cv2.getPerspectiveTransform(src, (quad - (x0, y0)).astype(np.float32))
    rgba = np.dstack([tex, alpha])
    warped = cv2.warpPerspective(rgba, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    a = warped[..., 3:4].astype(np.float32) * (1.0 / 255.0)
    colour = warped[..., :3].astype(np.float32) * shade
    glare = _specular(cam, pose, light, style)
    if glare > 0.01:
        colour += glare * 255.0 * _glare_blob(x1 - x0, y1 - y0)[..., None]
    roi = canvas[y0:y1, x0:x1]
    roi[:] = np.clip(roi * (1.0 - a) + colour * a, 0, 255).astype(np.uint8)


def _specular(cam: Camera, pose: TilePose, light: Light, style: SetStyle) -> float:
    """Phong highlight of the face towards the camera, scaled by the set's gloss."""
    n = pose.rot[:, 2]
    reflected = 2.0 * float(n @ light.direction) * n - light.direction
    view = cam.centre - pose.origin
    view /= np.linalg.norm(view)
    return light.glare * style.gloss * max(0.0, float(reflected @ view)) ** 12


_BLOBS: dict[tuple[int, int], np.ndarray] = {}


def _glare_blob(w: int, h: int) -> np.ndarray:
    """A soft elliptical highlight filling the ROI's centre (cached per size)."""
    key = (w, h)
    blob = _BLOBS.get(key)
    if blob is None:
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xs - w * 0.45) / (0.5 * w + 1)) ** 2 + ((ys - h * 0.4) / (0.5 * h + 1)) ** 2
        blob = np.exp(-2.5 * r2).astype(np.float32)
        if len(_BLOBS) >= 512:  # bound the cache; clear before inserting, not after
            _BLOBS.clear()
        _BLOBS[key] = blob
    return blob


def _row_order(pose: TilePose, corners: np.ndarray) -> np.ndarray:
    """The cap's world corners ordered TL, TR, BR, BL in the row's frame."""
    rel = corners - corners.mean(axis=0)
    a, b = rel @ pose.row_right, rel @ pose.row_up
    order = [int(np.argmax(-a + b)), int(np.argmax(a + b)), int(np.argmax(a - b)),
             int(np.argmax(-a - b))]
    return corners[order]
