"""Camera framing, light, shadows and the painter's-order drawing of a scene's tiles.

`draw_placements` draws every tile far to near, with soft shadows cast on the
table first, then measures how much of each tile's face (or back) is left in
view and returns the tiles' ground truth in layout order.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from agari.datasets.annotation import TileAnnotation
from agari.datasets.camera import Camera, look_at
from agari.datasets.layout import Placement
from agari.datasets.tilebody import DrawnTile, Light, draw_tile, tile_points
from agari.datasets.tileface import SetStyle

ELEVATION = {"shown": (16.0, 90.0), "standing": (10.0, 45.0), "table": (14.0, 42.0),
             "tray": (50.0, 90.0)}
"""Camera elevation range (degrees above the table) per scene kind."""
FOV_DEG = (48.0, 75.0)
"""Horizontal field of view of phone and web cameras."""
SHADOW_SCALE = 2
"""Shadows are drawn at 1/SHADOW_SCALE resolution and blurred: they are soft anyway."""


def sample_light(rng: np.random.Generator) -> Light:
    """A key light somewhere above the table, with ambient fill and some glare."""
    el, az = math.radians(rng.uniform(35, 85)), rng.uniform(0, 2 * math.pi)
    direction = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    return Light(direction=direction, ambient=float(rng.uniform(0.45, 0.8)),
                 glare=float(rng.uniform(0, 1)) if rng.random() < 0.5 else 0.0)


def frame_camera(rng: np.random.Generator, kind: str, focus: list[Placement], style: SetStyle,
                 config) -> tuple[Camera, float]:
    """Place the camera so the focus tiles are about ``config.tile_px`` wide, usually all in view.

    Returns:
        The camera and its elevation in degrees.
    """
    w, h = config.width, config.height
    pts = np.array([p.pose.origin for p in focus])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    span = float(np.hypot(*(hi - lo)[:2])) + style.size_mm[1]
    lo_el, hi_el = ELEVATION[kind]
    elevation = float(rng.uniform(lo_el, hi_el))
    if kind in ("shown", "tray") and rng.random() < 0.35:
        elevation = float(rng.uniform(max(lo_el, 70.0), 90.0))
    spin_any = kind in ("shown", "tray") and rng.random() < 0.3
    azimuth = float(rng.uniform(-180, 180)) if spin_any else float(rng.normal(0, 12))
    roll = float(rng.uniform(0, 360)) if kind in ("shown", "tray") and rng.random() < 0.2 \
        else float(rng.normal(0, 5))
    focal = w / (2 * math.tan(math.radians(rng.uniform(*FOV_DEG)) / 2))
    px = math.exp(rng.uniform(math.log(config.tile_px[0]), math.log(config.tile_px[1])))
    distance = focal * style.size_mm[0] / px
    fit = focal * span / (0.85 * min(w, h) if roll % 90 > 20 else 0.9 * w)
    if rng.random() < config.fit_prob:
        distance = max(distance, fit)
    distance = max(distance, 3.0 * style.size_mm[1])
    target = (lo + hi) / 2
    target[2] = style.size_mm[2] / 2
    free = max(0.0, 0.5 * (w * distance / focal - span)) * 0.5
    target[:2] += rng.uniform(-1, 1, 2) * min(free, 0.25 * span + 10.0)
    cam = look_at(target, elevation=elevation, azimuth=azimuth, distance=distance, roll=roll,
                  focal=focal, size=(w, h), principal_jitter=tuple(rng.normal(0, 0.01 * w, 2)))
    return cam, elevation


def _cast_shadows(canvas: np.ndarray, cam: Camera, placements: list[Placement],
                  style: SetStyle, light: Light, rng: np.random.Generator) -> None:
    """Darken the table under each tile along the light (soft, at reduced resolution)."""
    h, w = canvas.shape[:2]
    mask = np.zeros((h // SHADOW_SCALE, w // SHADOW_SCALE), np.float32)
    d = light.direction if light.direction[2] > 0.2 else np.array([0.0, 0.0, 1.0])
    for p in placements:
        pts = tile_points(style, p.pose, 2)[0].reshape(-1, 3)
        ground = pts - (pts[:, 2:3] / d[2]) * d
        for cloud, weight in ((ground, 0.6), (pts * (1, 1, 0), 1.0)):
            img = cam.project(cloud)[0] / SHADOW_SCALE
            if np.abs(img).max() > 1e5:
                continue
            hull = cv2.convexHull(img.astype(np.float32)).astype(np.int32)
            cv2.fillConvexPoly(mask, hull, weight)
    px = max(1.0, cam.focal * style.size_mm[0] / max(cam.depth(placements[0].pose.origin), 1.0))
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.8, px * 0.08 / SHADOW_SCALE))
    strength = float(rng.uniform(0.25, 0.6)) * (1.0 - 0.5 * light.ambient)
    gain = ((1.0 - strength * np.clip(mask, 0, 1)) * 255.0).astype(np.uint8)
    gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    canvas[:] = cv2.multiply(canvas, cv2.merge([gain, gain, gain]), scale=1.0 / 255.0)


def draw_placements(canvas: np.ndarray, cam: Camera, placements: list[Placement],
                    style: SetStyle, light: Light, rng: np.random.Generator,
                    ) -> tuple[TileAnnotation, ...]:
    """Draw the tiles (far to near) and return their annotations in layout order.

    Tiles whose centre projects far outside the frame are neither drawn nor annotated.
    """
    h, w = canvas.shape[:2]
    uv, depth = cam.project(np.array([p.pose.origin for p in placements]))
    margin = 0.5 * max(w, h)
    keep = [i for i in range(len(placements)) if depth[i] > 1.0 and
            -margin < uv[i, 0] < w + margin and -margin < uv[i, 1] < h + margin]
    if not keep:
        return ()
    _cast_shadows(canvas, cam, [placements[i] for i in keep], style, light, rng)
    order = sorted(keep, key=lambda i: -depth[i])
    drawn: dict[int, DrawnTile] = {}
    for i in order:
        p = placements[i]
        drawn[i] = draw_tile(canvas, cam, p.pose, style, p.face, light)
    seen = _visible_share(order, drawn, (w, h))
    return tuple(_annotation(placements[i], drawn[i], seen[i]) for i in keep)


def _visible_share(order: list[int], drawn: dict[int, DrawnTile], size: tuple[int, int],
                   ) -> dict[int, float]:
    """Share of each tile's cap left in the image after nearer tiles were drawn over it."""
    w, h = size
    ids = np.full((h, w), -1, np.int32)
    for i in order:
        cv2.fillConvexPoly(ids, np.round(drawn[i].silhouette).astype(np.int32), int(i))
    out: dict[int, float] = {}
    for i in order:
        cap = drawn[i].cap
        area = 0.5 * abs(float(np.dot(cap[:, 0], np.roll(cap[:, 1], 1)) -
                               np.dot(cap[:, 1], np.roll(cap[:, 0], 1)))) if cap is not None else 0
        if area < 1.0:
            out[i] = 0.0
            continue
        x0, y0 = np.maximum(np.floor(cap.min(axis=0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(cap.max(axis=0)).astype(int) + 1, (w, h))
        if x1 <= x0 or y1 <= y0:
            out[i] = 0.0
            continue
        local = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(local, [np.round(cap - (x0, y0)).astype(np.int32)], 1)
        mine = int(np.count_nonzero((ids[y0:y1, x0:x1] == i) & (local > 0)))
        out[i] = min(1.0, mine / area)
    return out


def _annotation(p: Placement, d: DrawnTile, visible: float) -> TileAnnotation:
    face_down = not d.face_up and d.cap is not None
    return TileAnnotation(
        quad=tuple(map(tuple, d.quad)), label="back" if face_down else p.face,
        face_down=face_down, sideways=p.sideways, role=p.role, group=p.group,
        rotation=None if face_down else p.turn, visible=round(visible, 3))
