"""Factories for tracker and webcam tests: a synthetic table video with known truth.

Tiles are ivory cards on a green felt, each face printing its class as a 4x4
binary code (codes far apart in Hamming distance, so that any two faces look
different); backs are plain orange. `find_tiles` (a colour-threshold locator)
and `CodeReader` (a classifier that reads the code from the upright crop) are
real image processing with known right answers, so the tracker and the webcam
loop can be tested without the shipped locator or model.

`script_video` lays hands down in chunks, holds them under camera shake and a
lighting dip, swaps a tile, clears the table and lays another hand, and says
frame by frame which hand is on the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from agari.engine.tiles import BACK, CLASS_NAMES, NONE, Tile, parse_tiles
from agari.vision.crops import crop_tiles
from agari.vision.detection import TileDetection

FELT = (40, 110, 35)
IVORY = (215, 230, 235)
INK = (40, 30, 25)
ORANGE = (30, 120, 230)
TILE_W, TILE_H = 30, 40
GRID = 4


def _codes(n: int, seed: int = 7) -> np.ndarray:
    """``n`` balanced 16-bit codes, any two at Hamming distance ≥ 6."""
    rng = np.random.default_rng(seed)
    out: list[np.ndarray] = []
    while len(out) < n:
        c = np.zeros(GRID * GRID, bool)
        c[rng.choice(GRID * GRID, GRID * GRID // 2, replace=False)] = True
        if all(np.count_nonzero(c != o) >= 6 for o in out):
            out.append(c)
    return np.array(out)


FACES = CLASS_NAMES[:-2]
CODES = _codes(len(FACES))


def draw_tile(canvas: np.ndarray, x: int, y: int, name: str) -> None:
    """An upright tile with top-left corner at ``(x, y)``: its code, or a plain back."""
    if name == BACK:
        cv2.rectangle(canvas, (x, y), (x + TILE_W - 1, y + TILE_H - 1), ORANGE, -1)
        return
    cv2.rectangle(canvas, (x, y), (x + TILE_W - 1, y + TILE_H - 1), IVORY, -1)
    code = CODES[FACES.index(name)].reshape(GRID, GRID)
    m = 3
    cw, ch = (TILE_W - 2 * m) / GRID, (TILE_H - 2 * m) / GRID
    for r in range(GRID):
        for c in range(GRID):
            if code[r, c]:
                p0 = (round(x + m + c * cw), round(y + m + r * ch))
                p1 = (round(x + m + (c + 1) * cw) - 1, round(y + m + (r + 1) * ch) - 1)
                cv2.rectangle(canvas, p0, p1, INK, -1)


def find_tiles(frame: np.ndarray) -> list[TileDetection]:
    """A colour-threshold locator: everything far from the felt's colour, box by box."""
    diff = np.abs(frame.astype(np.int16) - np.array(FELT, np.int16)).sum(axis=2)
    mask = (diff > 150).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    dets = []
    for c in contours:
        (cx, cy), (w, h), angle = cv2.minAreaRect(c)
        if w * h < 0.5 * TILE_W * TILE_H or w * h > 2.0 * TILE_W * TILE_H:
            continue
        pts = cv2.boxPoints(((cx, cy), (w, h), angle))
        dets.append(TileDetection(quad=_upright(pts), face_down=_is_back(frame, pts)))
    dets.sort(key=lambda d: (round(d.centre[1] / TILE_H), d.centre[0]))
    return dets


def _upright(pts: np.ndarray) -> tuple:
    """Box corners as TL, TR, BR, BL in image axes (the tiles stand upright)."""
    s, d = pts.sum(axis=1), pts[:, 1] - pts[:, 0]
    ring = pts[[int(np.argmin(s)), int(np.argmin(d)), int(np.argmax(s)), int(np.argmax(d))]]
    return tuple((float(x), float(y)) for x, y in ring)


def _is_back(frame: np.ndarray, pts: np.ndarray) -> bool:
    c = pts.mean(axis=0).astype(int)
    b, g, r = frame[c[1], c[0]].astype(int)
    return r > b + 60


class CodeReader:
    """A classifier for `draw_tile` faces: reads the 4x4 code from an upright crop.

    Attributes:
        calls: how many tiles it was asked to read, over its life.
    """

    def __init__(self, *, flip_every: int = 0) -> None:
        """``flip_every``: misread every n-th tile (a noisy classifier); 0 never."""
        self.calls = 0
        self.flip_every = flip_every

    def __call__(self, frame: np.ndarray, dets) -> list[TileDetection]:
        from dataclasses import replace

        if not dets:
            return []
        crops = crop_tiles(frame, [d.quad for d in dets], sideways=[d.sideways for d in dets],
                           size=(TILE_H, TILE_W), margin=0.0)
        out = []
        for det, crop in zip(dets, crops, strict=True):
            self.calls += 1
            alts = self._read(crop)
            if self.flip_every and self.calls % self.flip_every == 0:
                alts = ((alts[1][0], 0.6), (alts[0][0], 0.3), alts[2])
            name, p = alts[0]
            label = None if name == NONE else (BACK if name == BACK else Tile.parse(name))
            out.append(replace(det, label=label, confidence=p, alternatives=alts,
                               face_down=name == BACK))
        return out

    @staticmethod
    def _read(crop: np.ndarray) -> tuple[tuple[str, float], ...]:
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
        b, g, r = (float(v) for v in crop.reshape(-1, 3).mean(axis=0))
        if r > b + 40:
            return ((BACK, 0.97), (NONE, 0.02), ("1m", 0.01))
        m = 3
        inner = grey[m:TILE_H - m, m:TILE_W - m]
        cells = cv2.resize(inner, (GRID, GRID), interpolation=cv2.INTER_AREA).ravel()
        if cells.max() - cells.min() < 40:
            return ((NONE, 0.9), (BACK, 0.05), ("1m", 0.05))
        bits = cells < (cells.max() + cells.min()) / 2
        dist = np.count_nonzero(bits != CODES, axis=1)
        order = np.argsort(dist, kind="stable")[:3]
        w = np.exp(-2.0 * dist[order])
        w /= w.sum()
        return tuple((FACES[i], float(p)) for i, p in zip(order, w, strict=True))


@dataclass
class Script:
    """A video: frames and, per frame, the hand truly on the table (None: empty)."""

    fps: float
    frames: list[np.ndarray] = field(default_factory=list)
    truth: list[str | None] = field(default_factory=list)
    still_from: list[int] = field(default_factory=list)
    """Frame index at which each held hand became complete and still."""

    def write(self, path: Path) -> Path:
        h, w = self.frames[0].shape[:2]
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), self.fps, (w, h))
        for f in self.frames:
            writer.write(f)
        writer.release()
        return path


def hand_tiles(concealed: str, win: str) -> list[tuple[int, int, str]]:
    """Positions ``(x, y, name)`` of a shown hand: a touching row, the winning tile apart."""
    x0, y0, gap = 40, 150, 5
    out = [(x0 + i * (TILE_W + gap), y0, str(t)) for i, t in enumerate(parse_tiles(concealed))]
    out.append((out[-1][0] + TILE_W + 22, y0, win))
    return out


def felt(size: tuple[int, int], seed: int = 3) -> np.ndarray:
    """A textured felt background ``(h, w, 3)`` (a few dots for the camera to follow)."""
    w, h = size
    rng = np.random.default_rng(seed)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = FELT
    noise = rng.normal(0, 6, (h // 4, w // 4)).astype(np.float32)
    noise = cv2.resize(noise, (w, h), interpolation=cv2.INTER_CUBIC)
    img = np.clip(img.astype(np.float32) + noise[..., None], 0, 255).astype(np.uint8)
    for _ in range(40):
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        cv2.circle(img, (x, y), int(rng.integers(2, 4)), (25, 80, 20), -1)
    return img


class Director:
    """Builds a `Script` frame by frame: the table's tiles, shake and light."""

    def __init__(self, size=(640, 360), fps: float = 20.0, seed: int = 0) -> None:
        self.size, self.rng = size, np.random.default_rng(seed)
        self.base = felt(size)
        self.script = Script(fps)
        self.tiles: list[tuple[int, int, str]] = []
        self.shake = np.zeros(3)
        self.gain = 1.0
        bank = self.rng.normal(0, 2.0, (4, size[1], size[0], 3))
        self.noise = np.clip(bank, -127, 127).astype(np.int16)

    def _frame(self, truth: str | None) -> None:
        canvas = self.base.copy()
        for x, y, name in self.tiles:
            draw_tile(canvas, x, y, name)
        self.shake = 0.8 * self.shake + self.rng.normal(0, (0.8, 0.8, 0.1))
        w, h = self.size
        m = cv2.getRotationMatrix2D((w / 2, h / 2), float(self.shake[2]), 1.0)
        m[:, 2] += self.shake[:2]
        img = cv2.warpAffine(canvas, m, (w, h), borderMode=cv2.BORDER_REFLECT)
        img = cv2.convertScaleAbs(img, alpha=self.gain)
        noise = self.noise[len(self.script.frames) % len(self.noise)]
        img = cv2.add(img.astype(np.int16), noise).clip(0, 255).astype(np.uint8)
        self.script.frames.append(img)
        self.script.truth.append(truth)

    def hold(self, seconds: float, truth: str | None, *, dip: float = 0.0) -> None:
        """Hold the table still (bar the shake); ``dip``: dim the light by this much and back."""
        n = max(1, round(seconds * self.script.fps))
        for i in range(n):
            self.gain = 1.0 - dip * math.sin(math.pi * i / n)
            self._frame(truth)
        self.gain = 1.0

    def lay(self, tiles: list[tuple[int, int, str]], truth: str, *, chunk: int = 4) -> None:
        """Put tiles down ``chunk`` per frame; the hand counts as still from the last one."""
        for i in range(0, len(tiles), chunk):
            self.tiles = self.tiles + tiles[i:i + chunk]
            self._frame(None if i + chunk < len(tiles) else truth)
        self.script.still_from.append(len(self.script.frames) - 1)

    def swap(self, index: int, name: str, truth: str) -> None:
        x, y, _ = self.tiles[index]
        self.tiles = self.tiles[:index] + [(x, y, name)] + self.tiles[index + 1:]
        self._frame(truth)
        self.script.still_from.append(len(self.script.frames) - 1)

    def clear(self) -> None:
        self.tiles = []
        self._frame(None)


HAND_A = ("123m456p789s11z22z", "2z")
HAND_A2 = ("123m456p789s11z22z", "1z")
HAND_B = ("234m345p567s888s6s", "6s")


def standard_script(*, seed: int = 0, fps: float = 20.0) -> Script:
    """Empty → hand A → A with its winning tile swapped → empty → hand B.

    Truth per frame is the hand text (winning tile last) or None; four changes in all.
    """
    d = Director(fps=fps, seed=seed)
    d.hold(0.5, None)
    text_a, text_a2, text_b = (c + w for c, w in (HAND_A, HAND_A2, HAND_B))
    d.lay(hand_tiles(*HAND_A), text_a)
    d.hold(1.5, text_a, dip=0.25)
    d.swap(len(d.tiles) - 1, HAND_A2[1], text_a2)
    d.hold(1.2, text_a2)
    d.clear()
    d.hold(1.0, None)
    d.lay(hand_tiles(*HAND_B), text_b)
    d.hold(1.2, text_b)
    return d.script
