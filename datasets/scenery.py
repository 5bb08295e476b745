"""The world around the tiles: a room, the table top, its fittings and clutter.

Everything flat is drawn as world polygons through the camera (clipped at the
camera's near plane), so perspective, scale and rotation match the tiles
exactly. The table top is one textured warp; an automatic table adds its
raised rim, grooves and centre panel; clutter adds paper, point sticks, coins,
a keyboard, a phone and dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from agari.datasets.camera import Camera
from agari.datasets.surfaces import KIND_PROBS, KINDS, TEXTURE_SIZE, surface

NEAR_MM = 5.0
"""Near clipping plane: world points closer to the camera than this are cut away."""
MAX_REPEATS = 2
"""At most this many texture patches across the table (coarser texels beyond)."""
TEXTURE_POOL = 48
"""Distinct textures per surface kind (built lazily, cached); each use tints it anew."""
RIM_COLOURS = ((225, 215, 220), (235, 235, 235), (60, 60, 60), (200, 190, 175), (230, 205, 215))


def project_polygon(cam: Camera, points: np.ndarray) -> np.ndarray | None:
    """Image polygon ``(K, 2)`` of a planar world polygon ``(N, 3)``, cut at the near plane."""
    cam_pts = (np.asarray(points, np.float64) - cam.centre) @ cam.rot.T
    kept: list[np.ndarray] = []
    n = len(cam_pts)
    for i in range(n):
        a, b = cam_pts[i], cam_pts[(i + 1) % n]
        if a[2] >= NEAR_MM:
            kept.append(a)
        if (a[2] >= NEAR_MM) != (b[2] >= NEAR_MM):
            t = (NEAR_MM - a[2]) / (b[2] - a[2])
            kept.append(a + t * (b - a))
    if len(kept) < 3:
        return None
    pts = np.array(kept)
    return pts[:, :2] * (cam.focal / pts[:, 2:3]) + np.asarray(cam.principal)


def fill_world(canvas: np.ndarray, cam: Camera, points: np.ndarray, colour) -> bool:
    """Fill a planar world polygon in ``colour``; False when it is behind the camera."""
    poly = project_polygon(cam, points)
    if poly is None:
        return False
    cv2.fillPoly(canvas, [np.round(poly * 16).astype(np.int32)], tuple(float(c) for c in colour),
                 cv2.LINE_AA, 4)
    return True


def rect(x0: float, y0: float, x1: float, y1: float, z: float = 0.0) -> np.ndarray:
    return np.array([[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]], np.float64)


def room(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A blurry room beyond the table: muted wall/floor tones and vague furniture shapes."""
    w, h = size
    small = np.zeros((24, 32, 3), np.float32)
    top, bottom = _muted(rng), _muted(rng) * 0.7
    small[:] = np.linspace(0, 1, 24)[:, None, None] * (bottom - top) + top
    for _ in range(int(rng.integers(2, 9))):
        x0, y0 = int(rng.integers(0, 28)), int(rng.integers(0, 20))
        small[y0:y0 + int(rng.integers(2, 10)), x0:x0 + int(rng.integers(2, 10))] = _muted(rng)
    mid = cv2.GaussianBlur(cv2.resize(small, (160, 120), interpolation=cv2.INTER_NEAREST),
                           (0, 0), 2.5)
    return cv2.resize(np.clip(mid, 0, 255).astype(np.uint8), (w, h),
                      interpolation=cv2.INTER_LINEAR)


def _muted(rng: np.random.Generator) -> np.ndarray:
    """A room colour: greys and browns mostly, a saturated object now and then."""
    grey = rng.uniform(25, 200)
    tint = rng.normal(0, 12 if rng.random() < 0.8 else 45, 3)
    return np.clip(grey + tint, 0, 255).astype(np.float32)


@dataclass(frozen=True, eq=False)
class Table:
    """A table top: its texture, extent (mm) and, for automatic tables, fittings.

    Attributes:
        kind: one of `agari.datasets.surfaces.KINDS`.
        texture: BGR ``uint8`` tileable patch; texel: its mm per pixel; angle: its turn.
        extent: ``(x0, y0, x1, y1)`` of the table top in the world.
        rim: colour of an automatic table's raised near rim, or None.
        centre: the table's centre (for the centre panel and grooves).
    """

    kind: str
    texture: np.ndarray
    texel: float
    angle: float
    extent: tuple[float, float, float, float]
    rim: tuple[float, float, float] | None
    centre: tuple[float, float]


def sample_table(rng: np.random.Generator, *, centre: tuple[float, float], near_y: float,
                 kind: str | None = None) -> Table:
    """A table whose near edge is at ``near_y`` (between the camera and the hand)."""
    kind = kind or KINDS[int(rng.choice(len(KINDS), p=KIND_PROBS))]
    half = float(rng.uniform(450, 1400))  # a small table shows its edges, a big one fills the view
    extent = (centre[0] - half, near_y, centre[0] + half, centre[1] + half)
    rim = tuple(float(c) for c in RIM_COLOURS[int(rng.integers(len(RIM_COLOURS)))]) \
        if kind == "auto" else None
    base = _pooled_surface(kind, int(rng.integers(TEXTURE_POOL)))
    texture = cv2.transform(base, np.diag(rng.uniform(0.9, 1.1, 3)))
    return Table(kind=kind, texture=texture, texel=float(rng.uniform(0.25, 1.2)),
                 angle=float(rng.uniform(0, 360)), extent=extent, rim=rim, centre=centre)


@lru_cache(maxsize=128)
def _pooled_surface(kind: str, index: int) -> np.ndarray:
    """Texture number ``index`` of ``kind``: built once per process, a pure function of both."""
    seed = TEXTURE_POOL * KINDS.index(kind) + index
    return surface(np.random.default_rng([0x7AB1E, seed]), kind)


def draw_table(canvas: np.ndarray, cam: Camera, table: Table, rng: np.random.Generator) -> None:
    """The room, then the textured table top, then an automatic table's fittings."""
    w, h = cam.size
    canvas[:] = room(rng, (w, h))
    mask = np.zeros((h, w), np.uint8)
    poly = project_polygon(cam, rect(*table.extent))
    if poly is None:
        return
    cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 255)
    # Repeat the patch over the whole table up front: warping with BORDER_WRAP is ~10x slower.
    x0, y0, x1, y1 = table.extent
    diagonal = float(np.hypot(x1 - x0, y1 - y0))
    reps = min(MAX_REPEATS, int(np.ceil(diagonal / (TEXTURE_SIZE * table.texel))))
    texel = max(table.texel, diagonal / (TEXTURE_SIZE * reps))
    patch = np.tile(table.texture, (reps, reps, 1))
    c, s = np.cos(np.radians(table.angle)), np.sin(np.radians(table.angle))
    half = TEXTURE_SIZE * reps * texel / 2  # the patch is centred on the table, then turned
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    tex_to_table = np.array([[texel * c, -texel * s, cx - half * (c - s)],
                             [texel * s, texel * c, cy - half * (s + c)], [0, 0, 1]])
    # Warped at half size and scaled up: the table is background, and minifying a large
    # patch over the whole frame is the slowest step of a scene.
    half_size = np.diag([0.5, 0.5, 1.0])
    warp = half_size @ cam.table_homography() @ tex_to_table
    top = cv2.warpPerspective(patch, warp, (w // 2, h // 2), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT)
    cv2.copyTo(cv2.resize(top, (w, h), interpolation=cv2.INTER_LINEAR), mask, canvas)
    if table.kind == "auto":
        _fittings(canvas, cam, table, rng)


def _fittings(canvas: np.ndarray, cam: Camera, table: Table, rng: np.random.Generator) -> None:
    """Grooves round each seat's tile slot, the centre panel and the raised near rim."""
    cx, cy = table.centre
    groove = np.array(table.texture.reshape(-1, 3).mean(axis=0)) * 0.35
    for half in (float(rng.uniform(200, 240)), float(rng.uniform(260, 300))):
        for x0, y0, x1, y1 in ((cx - half, cy - half, cx + half, cy - half + 2.5),
                               (cx - half, cy + half - 2.5, cx + half, cy + half),
                               (cx - half, cy - half, cx - half + 2.5, cy + half),
                               (cx + half - 2.5, cy - half, cx + half, cy + half)):
            fill_world(canvas, cam, rect(x0, y0, x1, y1), groove)
    box = float(rng.uniform(55, 85))
    fill_world(canvas, cam, rect(cx - box, cy - box, cx + box, cy + box, 2.0),
               rng.uniform(20, 60, 3))
    if table.rim is not None:
        _rim(canvas, cam, table, rng)


def _rim(canvas: np.ndarray, cam: Camera, table: Table, rng: np.random.Generator) -> None:
    """An automatic table's raised, glossy near rim and the machine's front below it."""
    x0, y0, x1, _ = table.extent
    depth, height = float(rng.uniform(50, 180)), float(rng.uniform(20, 60))
    rim = np.array(table.rim)
    inner = np.array([[x0, y0, 0], [x1, y0, 0], [x1, y0, height], [x0, y0, height]])
    top = rect(x0, y0 - depth, x1, y0, height)
    front = np.array([[x0, y0 - depth, height], [x1, y0 - depth, height],
                      [x1, y0 - depth, -700.0], [x0, y0 - depth, -700.0]])
    if cam.sees(inner.mean(axis=0), np.array([0.0, 1.0, 0.0])):
        fill_world(canvas, cam, inner, rim * 0.8)
    fill_world(canvas, cam, front, rim * float(rng.uniform(0.55, 0.8)))
    fill_world(canvas, cam, top, rim)
    for _ in range(int(rng.integers(0, 3))):  # glossy plastic: a bright streak along the rim
        a = float(rng.uniform(0.15, 0.85)) * depth
        fill_world(canvas, cam, rect(x0, y0 - a - 4, x1, y0 - a, height + 0.2),
                   np.minimum(rim * 1.15 + 25, 255))
