"""Synthetic photos of tiles with known truth, for the locator's tests.

Tiles are ivory plates with a darker bevel, a thin shadowed seam where they
touch, and random ink strokes inside a blank margin, drawn on a plain or
grained table; backs are saturated colour plates. The whole picture can be
turned and seen in perspective; the true quads (TL, TR, BR, BL in each row's
upright frame) follow. Everything is drawn from a seeded generator.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
from agari.vision.quads import match_quads

IVORY = (205, 225, 232)
INKS = ((40, 35, 30), (40, 40, 170), (70, 110, 40), (120, 70, 30))
TABLES = {"felt": (60, 120, 50), "grey": (120, 118, 115), "dark": (45, 40, 38)}
BACK_RED = (40, 40, 200)


@dataclass
class Scene:
    """A synthetic photo and its truth (quads in image pixels)."""

    image: np.ndarray
    quads: list[np.ndarray] = field(default_factory=list)
    sideways: list[bool] = field(default_factory=list)
    face_down: list[bool] = field(default_factory=list)
    rows: list[list[int]] = field(default_factory=list)
    """Indices into ``quads``, one list per row, tiles left to right."""


def blank(rng: np.random.Generator, size: tuple[int, int] = (480, 640), table: str = "grey",
          grain: float = 0.0) -> Scene:
    """An empty table: a flat colour with noise (and wood-like streaks when ``grain`` > 0)."""
    h, w = size
    img = np.empty((h, w, 3), np.float32)
    img[:] = TABLES[table]
    img += rng.normal(0, 3, (h, w, 1))
    if grain:
        streaks = cv2.resize(rng.normal(0, grain, (h, max(2, w // 40))).astype(np.float32),
                             (w, h), interpolation=cv2.INTER_LINEAR)
        img += streaks[..., None]
    return Scene(np.clip(img, 0, 255).astype(np.uint8))


def _face(rng: np.random.Generator, w: int, h: int, *, face_down: bool = False) -> np.ndarray:
    """One tile plate ``uint8 (h, w, 3)``: body colour, a darker bevel, ink in the middle."""
    colour = BACK_RED if face_down else IVORY
    plate = np.empty((h, w, 3), np.float32)
    plate[:] = colour
    bevel = max(1, round(0.06 * min(w, h)))
    for i in range(bevel):
        shade = 0.78 + 0.2 * i / bevel
        plate[i, :] *= shade if i == 0 else 1.0
        plate[:, i] *= shade if i == 0 else 1.0
        plate[h - 1 - i, :] *= shade
        plate[:, w - 1 - i] *= shade
    if not face_down:
        margin = max(2, round(0.16 * min(w, h)))
        for _ in range(int(rng.integers(2, 6))):
            ink = INKS[int(rng.integers(len(INKS)))]
            x0, x1 = sorted(rng.integers(margin, w - margin, 2))
            y0, y1 = sorted(rng.integers(margin, h - margin, 2))
            if rng.random() < 0.5:
                cv2.line(plate, (int(x0), int(y0)), (int(x1), int(y1)), ink,
                         max(1, round(0.06 * w)))
            else:
                r = max(2, int(min(x1 - x0, y1 - y0, w // 4)) // 2)
                cv2.circle(plate, (int((x0 + x1) // 2), int((y0 + y1) // 2)), r, ink,
                           max(1, round(0.04 * w)))
    plate += rng.normal(0, 2, plate.shape)
    return np.clip(plate, 0, 255).astype(np.uint8)


def add_row(scene: Scene, rng: np.random.Generator, x: float, y: float, *, n: int,
            width: int = 36, gap: int = 0, sideways_at: tuple[int, ...] = (),
            face_down: bool = False, shadow: bool = True) -> None:
    """Draw a row of ``n`` upright tiles (``width`` wide, 4:3), left edge at ``x``, top at ``y``.

    Tiles at ``sideways_at`` lie sideways, bottom-aligned with the row as a
    called tile is. Touching tiles (``gap`` 0) share a one-pixel dark seam.
    """
    height = round(width * 4 / 3)
    img = scene.image
    row: list[int] = []
    cx = float(x)
    for i in range(n):
        side = i in sideways_at
        tw, th = (height, width) if side else (width, height)
        tx, ty = int(round(cx)), int(round(y + (height - th)))
        if shadow:
            sh = img[ty + 2:ty + th + 3, tx + 2:tx + tw + 3]
            sh[:] = (sh * 0.6).astype(np.uint8)
        img[ty:ty + th, tx:tx + tw] = _face(rng, tw, th, face_down=face_down)
        quad = np.array([[tx, ty], [tx + tw, ty], [tx + tw, ty + th], [tx, ty + th]], np.float32)
        row.append(len(scene.quads))
        scene.quads.append(quad)
        scene.sideways.append(side)
        scene.face_down.append(face_down)
        cx += tw + gap
        if gap == 0 and i < n - 1:
            seam_x = int(round(cx)) - 1
            img[ty:ty + th, seam_x] = (img[ty:ty + th, seam_x] * 0.55).astype(np.uint8)
    scene.rows.append(row)


def warp(scene: Scene, matrix: np.ndarray, size: tuple[int, int] | None = None) -> Scene:
    """See the scene through a 3×3 homography; quads follow (corner order kept)."""
    h, w = scene.image.shape[:2] if size is None else size
    img = cv2.warpPerspective(scene.image, matrix, (w, h), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    quads = [cv2.perspectiveTransform(q.reshape(-1, 1, 2), matrix).reshape(4, 2)
             for q in scene.quads]
    return Scene(img, quads, list(scene.sideways), list(scene.face_down),
                 [list(r) for r in scene.rows])


def rotation(angle_deg: float, size: tuple[int, int]) -> np.ndarray:
    """3×3 rotation about the image centre."""
    h, w = size
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle_deg, 1.0)
    return np.vstack([m, [0, 0, 1]])


def tilt(size: tuple[int, int], amount: float) -> np.ndarray:
    """3×3 homography that shrinks the top of the picture (a camera looking down at a slant)."""
    h, w = size
    d = amount * w
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[d, 0], [w - d, 0], [w, h], [0, h]])
    return cv2.getPerspectiveTransform(src, dst)


def match(truth: list[np.ndarray], found: list[np.ndarray], min_iou: float = 0.5
          ) -> dict[int, int]:
    """Greedy one-to-one matching: truth index → found index, best IoU first."""
    return {i: j for i, (j, _) in match_quads(truth, found, min_iou=min_iou).items()}


def hand_tiles_found(seed: int, cores, **config) -> int:
    """Face-up hand tiles (at least half visible) of photo render ``seed`` that the pipeline's
    hand locator, with core-net settings ``cores`` (and any other `LocateConfig` fields given),
    boxes at IoU 0.5; the render is read from its JPEG bytes, as a photo is."""
    from dataclasses import replace

    from agari.datasets.scene import SceneConfig, render_scene
    from agari.models import TileClassifier
    from agari.vision.locate import HAND_LOCATE, locate
    from agari.vision.quads import quad_iou

    image, ann = render_scene(seed, SceneConfig(width=1920, height=1080, fit_prob=1.0,
                                                kinds=("shown", "standing", "table")))
    image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1],
                         cv2.IMREAD_COLOR)
    truth = [np.asarray(t.quad, np.float32) for t in ann.tiles
             if t.role != "other" and not t.face_down and t.visible >= 0.5]
    judge = TileClassifier.load(threads=1).tile_likeness
    dets = locate(image, config=replace(HAND_LOCATE, cores=cores, **config), judge=judge)
    quads = [np.asarray(d.quad, np.float32) for d in dets]
    return len(match_quads(truth, quads, iou=quad_iou, min_iou=0.5))


def two_rows_photo(*, strokes: bool = False) -> np.ndarray:
    """An 800x600 grey table with two rows of eight light tiles (the scale probe finds
    them); with ``strokes``, a dark stroke on each face (so `locate` keeps them as faces)."""
    img = np.full((600, 800, 3), 60, np.uint8)
    for y in (150, 350):
        for k in range(8):
            x = 80 + k * 70
            cv2.rectangle(img, (x, y), (x + 60, y + 80), (235, 235, 235), -1)
            if strokes:
                cv2.line(img, (x + 20, y + 30), (x + 40, y + 50), (20, 20, 20), 4)
    return img
