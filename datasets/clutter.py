"""Things that are not tiles but sit on mahjong tables: sticks, dice, coins, paper, keyboards.

They teach a locator what not to find. Each is drawn flat on the table (dice
as small boxes) through the camera, at a spot that keeps clear of the tiles.
"""

from __future__ import annotations

import math

import numpy as np
from agari.datasets.camera import Camera
from agari.datasets.scenery import fill_world, rect

Box = tuple[float, float, float, float]


def _turned(points: np.ndarray, centre: tuple[float, float], angle: float) -> np.ndarray:
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    out = points.copy()
    x, y = points[:, 0] - centre[0], points[:, 1] - centre[1]
    out[:, 0], out[:, 1] = centre[0] + c * x - s * y, centre[1] + s * x + c * y
    return out


def _disc(cx: float, cy: float, r: float, z: float = 0.0, n: int = 16) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a), np.full(n, z)])


def point_stick(canvas, cam, rng, x, y, angle) -> None:
    """A 点棒: a white bar with a pattern of red/black dots."""
    length, width = float(rng.uniform(70, 85)), float(rng.uniform(7, 10))
    fill_world(canvas, cam, _turned(rect(x - length / 2, y - width / 2, x + length / 2,
                                         y + width / 2, 0.5), (x, y), angle), (235, 238, 240))
    dots = int(rng.choice([1, 2, 4, 8]))
    colour = (40, 40, 200) if rng.random() < 0.5 else (30, 30, 30)
    for i in range(dots):
        dx = (i - (dots - 1) / 2) * length / (dots + 1)
        fill_world(canvas, cam, _turned(_disc(x + dx, y, width * 0.22, 0.6), (x, y), angle), colour)


def paper(canvas, cam, rng, x, y, angle) -> None:
    """A score sheet or receipt: a pale sheet with lines of 'text'."""
    w, h = float(rng.uniform(60, 210)), float(rng.uniform(80, 297))
    tone = float(rng.uniform(200, 250))
    fill_world(canvas, cam, _turned(rect(x - w / 2, y - h / 2, x + w / 2, y + h / 2, 0.2),
                                    (x, y), angle), (tone, tone, tone * 0.98))
    ink = (40, 40, 40) if rng.random() < 0.7 else (140, 60, 20)
    for k in range(int(rng.integers(3, 14))):
        ly = y - h / 2 + 10 + k * float(rng.uniform(6, 12))
        if ly > y + h / 2 - 6:
            break
        lw = float(rng.uniform(0.3, 0.85)) * w
        fill_world(canvas, cam, _turned(rect(x - w / 2 + 6, ly, x - w / 2 + 6 + lw, ly + 1.5, 0.3),
                                        (x, y), angle), ink)


def coin(canvas, cam, rng, x, y, angle) -> None:
    del angle
    tone = np.array([(60, 150, 190), (190, 190, 190), (70, 110, 150)][int(rng.integers(3))])
    r = float(rng.uniform(9, 14))
    fill_world(canvas, cam, _disc(x, y, r, 1.5), tone * 0.7)
    fill_world(canvas, cam, _disc(x, y, r * 0.8, 1.6), tone)


def keyboard(canvas, cam, rng, x, y, angle) -> None:
    w, h = float(rng.uniform(280, 440)), float(rng.uniform(110, 150))
    body = rng.uniform(20, 80)
    fill_world(canvas, cam, _turned(rect(x - w / 2, y - h / 2, x + w / 2, y + h / 2, 10),
                                    (x, y), angle), np.full(3, body))
    key, pitch = 15.0, 19.0
    tone = np.full(3, min(255.0, body + rng.uniform(15, 60)))
    for r in range(int((h - 10) // pitch)):
        for c in range(int((w - 10) // pitch)):
            kx, ky = x - w / 2 + 6 + c * pitch, y - h / 2 + 6 + r * pitch
            fill_world(canvas, cam, _turned(rect(kx, ky, kx + key, ky + key, 18), (x, y), angle),
                       tone)


def phone(canvas, cam, rng, x, y, angle) -> None:
    w, h = float(rng.uniform(65, 80)), float(rng.uniform(140, 165))
    fill_world(canvas, cam, _turned(rect(x - w / 2, y - h / 2, x + w / 2, y + h / 2, 8),
                                    (x, y), angle), rng.uniform(10, 60, 3))
    fill_world(canvas, cam, _turned(rect(x - w / 2 + 4, y - h / 2 + 8, x + w / 2 - 4,
                                         y + h / 2 - 8, 8.2), (x, y), angle), rng.uniform(0, 90, 3))


def die(canvas, cam, rng, x, y, angle) -> None:
    """A small die: its visible faces, pips on the top."""
    s = float(rng.uniform(10, 16))
    colour = np.array((235, 235, 235)) if rng.random() < 0.7 else rng.uniform(40, 220, 3)
    base = _turned(rect(x - s / 2, y - s / 2, x + s / 2, y + s / 2), (x, y), angle)
    top = base + np.array([0, 0, s])
    for i in range(4):  # sides facing the camera
        j = (i + 1) % 4
        side = np.array([base[i], base[j], top[j], top[i]])
        normal = np.cross(side[1] - side[0], side[3] - side[0])
        if cam.sees(side.mean(axis=0), normal):
            fill_world(canvas, cam, side, colour * 0.75)
    fill_world(canvas, cam, top, colour)
    pip = (30, 30, 180) if rng.random() < 0.3 else (25, 25, 25)
    for _ in range(int(rng.integers(1, 7))):
        px, py = rng.uniform(-0.3, 0.3, 2) * s
        fill_world(canvas, cam, _disc(x + px, y + py, s * 0.08, s + 0.1, 8), pip)


THINGS = (point_stick, paper, coin, keyboard, phone, die)
THING_PROBS = (0.3, 0.2, 0.15, 0.1, 0.1, 0.15)


def scatter(canvas: np.ndarray, cam: Camera, rng: np.random.Generator, count: int, *,
            keep_clear: list[Box], area: Box) -> None:
    """Draw ``count`` random things inside ``area`` (world x0, y0, x1, y1), off ``keep_clear``."""
    for _ in range(count):
        thing = THINGS[int(rng.choice(len(THINGS), p=THING_PROBS))]
        for _try in range(10):
            x, y = rng.uniform(area[0], area[2]), rng.uniform(area[1], area[3])
            margin = 160.0 if thing in (keyboard, paper) else 60.0
            if all(not (b[0] - margin < x < b[2] + margin and b[1] - margin < y < b[3] + margin)
                   for b in keep_clear):
                thing(canvas, cam, rng, float(x), float(y), float(rng.uniform(0, 360)))
                break
