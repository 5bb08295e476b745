"""A 720p test video of a mahjong table, built from the synthetic scene renderer, with truth.

Used by `bench/webcam_eval.py`. A *session* is one table, tile set and camera
(`agari.datasets` renders it): the empty table, hand A laid down a few tiles at
a time, held still while the light dims and warms and comes back, one tile of
it swapped (a dora indicator if it has one), the table cleared, hand B laid
down and held while the camera is bumped, the table cleared again. Each state
is rendered once; frames are made from states by a shaking camera (a random
walk, plus bumps), a lighting curve and sensor noise.

The truth file (JSON beside the video) lists per frame the state on the table
and the camera's 2x3 motion, per state its tiles (quads in the unshaken frame)
and hand, and the *held* states: when each became complete and still.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np
from agari.datasets.art import load_art
from agari.datasets.hands import ShownHand, random_hand
from agari.datasets.layout import Placement, layout_hand
from agari.datasets.render import draw_placements, frame_camera, sample_light
from agari.datasets.scene import SceneConfig
from agari.datasets.scenery import draw_table, sample_table
from agari.datasets.tileface import sample_style
from agari.engine.tiles import Tile

SIZE = (1280, 720)
FPS = 30.0
CHUNK = 4
"""Tiles put down (or picked up) per step."""
STEP_S = 0.2
"""Time between two steps of laying down or clearing a hand."""
TIMELINE = {"empty": 1.0, "hold": 3.0, "after_swap": 2.5, "cleared": 1.5}
"""Seconds each phase of a session lasts."""
SHAKE_PX, SHAKE_KEEP, SHAKE_DEG = 0.6, 0.9, 0.04
BUMP_PX, BUMP_TAU_S = 14.0, 0.15
DIM, WARM = 0.35, 0.12
"""Deepest dimming of the light and warm cast during hand A's hold."""
NOISE = 2.5
SEEN = 0.5
"""A tile counts as shown when at least this share of its face is in view."""


@dataclass
class State:
    """One arrangement of the table, rendered once."""

    image: np.ndarray
    tiles: list[dict]
    hand: dict | None
    """``{"tiles": sorted hand tile names, "dora": [...]}`` (None: no hand, or incomplete)."""


@dataclass
class Video:
    """Frames to make: per frame a state index, the camera motion and the light."""

    states: list[State] = field(default_factory=list)
    frames: list[tuple[int, np.ndarray, float, float]] = field(default_factory=list)
    held: list[dict] = field(default_factory=list)


def hand_truth(hand: ShownHand) -> dict:
    """The hand's tiles (concealed, winning tile, melds) and dora indicators, sorted.

    The dora are filled in from what the camera shows (`Session.render`): an
    indicator out of the picture cannot be read.
    """
    tiles = [t.name for t in hand.concealed] + ([hand.win.name] if hand.win else [])
    for m in hand.melds:
        tiles += [t.name for t in m.tiles]
    return {"tiles": sorted(tiles), "dora": sorted(t.name for t in hand.dora)}


class Session:
    """One table and camera; renders any subset of its placements."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.style = sample_style(self.rng, load_art(None))
        cfg = SceneConfig(width=SIZE[0], height=SIZE[1], kinds=("shown",), tile_px=(45.0, 70.0),
                          fit_prob=1.0, clutter=False)
        self.hands = [random_hand(self.rng, complete=True) for _ in range(2)]
        self.layouts = [layout_hand(self.rng, h, self.style.size_mm) for h in self.hands]
        self.cam, _ = frame_camera(self.rng, "shown", self.layouts[0] + self.layouts[1],
                                   self.style, cfg)
        self.light = sample_light(self.rng)
        pts = np.array([p.pose.origin for p in self.layouts[0] + self.layouts[1]])
        table = sample_table(self.rng, centre=(float(pts[:, 0].mean()), 300.0),
                             near_y=float(pts[:, 1].min()) - 150.0)
        self.background = np.empty((SIZE[1], SIZE[0], 3), np.uint8)
        draw_table(self.background, self.cam, table, self.rng)

    def render(self, placements: list[Placement], hand: dict | None) -> State:
        canvas = self.background.copy()
        tiles: list[dict] = []
        if placements:
            shadows = np.random.default_rng(self.seed + 1)  # the same shadows in every state
            anns = draw_placements(canvas, self.cam, placements, self.style, self.light, shadows)
            tiles = [{"quad": [list(p) for p in a.quad], "label": a.label, "role": a.role,
                      "sideways": a.sideways, "face_down": a.face_down, "visible": a.visible}
                     for a in anns]
        if hand is not None:
            shown = sorted(t["label"] for t in tiles if t["role"] == "dora"
                           and t["visible"] >= SEEN and not t["face_down"])
            hand = {**hand, "dora": shown}
        return State(canvas, tiles, hand)


def swapped(hand: ShownHand, placements: list[Placement], rng: np.random.Generator
            ) -> tuple[ShownHand, list[Placement]]:
    """The hand with one tile changed: a dora indicator if one is shown, else a concealed tile."""
    names = [p.face for p in placements]
    dora = [i for i, p in enumerate(placements) if p.role == "dora"]
    index = dora[0] if dora else next(i for i, p in enumerate(placements)
                                      if p.role == "concealed")
    old = placements[index].face
    counts = {n: sum(Tile.parse(m).kind == Tile.parse(n).kind for m in names) for n in names}
    choices = [f"{d}{s}" for s in "mps" for d in range(1, 10)] + [f"{d}z" for d in range(1, 8)]
    choices = [c for c in choices if Tile.parse(c).kind != Tile.parse(old).kind
               and counts.get(c, 0) < 3]
    new = str(rng.choice(choices))
    out = list(placements)
    out[index] = replace(out[index], face=new)
    if dora:
        k = [t.name for t in hand.dora].index(old)
        hand = replace(hand, dora=hand.dora[:k] + (Tile.parse(new),) + hand.dora[k + 1:])
    else:
        k = [t.name for t in hand.concealed].index(old)
        hand = replace(hand, concealed=hand.concealed[:k] + (Tile.parse(new),) +
                       hand.concealed[k + 1:])
    return hand, out


class Builder:
    """Lays out a video's timeline state by state."""

    def __init__(self, seed: int) -> None:
        self.video = Video()
        self.rng = np.random.default_rng(seed)
        self.shake = np.zeros(3)
        self.bump_at: list[int] = []

    def _state(self, state: State) -> int:
        self.video.states.append(state)
        return len(self.video.states) - 1

    def show(self, state: int, seconds: float, *, dim: bool = False, bump: bool = False) -> None:
        n = max(1, round(seconds * FPS))
        if bump:
            self.bump_at.append(len(self.video.frames) + n // 3)
        for i in range(n):
            f = len(self.video.frames)
            self.shake = SHAKE_KEEP * self.shake + self.rng.normal(0, (SHAKE_PX, SHAKE_PX,
                                                                       SHAKE_DEG))
            offset = self.shake.copy()
            for b in self.bump_at:
                if f >= b:
                    offset[:2] += BUMP_PX * math.exp(-(f - b) / (BUMP_TAU_S * FPS)) * \
                        np.array([0.8, -0.6])
            w, h = SIZE
            m = cv2.getRotationMatrix2D((w / 2, h / 2), float(offset[2]), 1.0)
            m[:, 2] += offset[:2]
            light = math.sin(math.pi * i / n) if dim else 0.0
            self.video.frames.append((state, m, 1.0 - DIM * light, WARM * light))

    def session(self, seed: int, *, first: bool) -> None:
        s = Session(seed)
        empty = self._state(s.render([], None))
        self.show(empty, TIMELINE["empty"] if first else TIMELINE["cleared"])
        for k, (hand, placements) in enumerate(zip(s.hands, s.layouts, strict=True)):
            held = self._lay(s, placements, hand)
            self.show(held, TIMELINE["hold"], dim=k == 0, bump=k == 1)
            if k == 0:
                hand2, placements2 = swapped(hand, placements, self.rng)
                changed = self._state(s.render(placements2, hand_truth(hand2)))
                self._hold_from(changed)
                self.show(changed, TIMELINE["after_swap"])
                placements = placements2
            self._clear(s, placements, empty)

    def _lay(self, s: Session, placements: list[Placement], hand: ShownHand) -> int:
        for n in range(CHUNK, len(placements), CHUNK):
            self.show(self._state(s.render(placements[:n], None)), STEP_S)
        full = self._state(s.render(placements, hand_truth(hand)))
        self._hold_from(full)
        return full

    def _clear(self, s: Session, placements: list[Placement], empty: int) -> None:
        for n in range(len(placements) - CHUNK, 0, -CHUNK):
            self.show(self._state(s.render(placements[:n], None)), STEP_S)
        self._hold_from(empty)
        self.show(empty, TIMELINE["cleared"])

    def _hold_from(self, state: int) -> None:
        self.video.held.append({"state": state, "frame": len(self.video.frames),
                                "hand": self.video.states[state].hand})


def build(seed: int, sessions: int = 2) -> Video:
    """The timeline of a test video (states rendered, frames not yet made)."""
    b = Builder(seed)
    for k in range(sessions):
        b.session(seed * 1000 + k, first=k == 0)
    return b.video


def write(video: Video, path: Path, *, seed: int = 0) -> Path:
    """Write the video (mp4) and its truth (``path`` with ``.json``)."""
    rng = np.random.default_rng(seed)
    noise = [np.round(rng.normal(0, NOISE, (SIZE[1], SIZE[0], 3))).astype(np.int16)
             for _ in range(4)]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS, SIZE)
    for i in range(len(video.frames)):
        writer.write(_noisy(video, i, noise))
    writer.release()
    truth = {
        "fps": FPS, "size": list(SIZE), "frames": len(video.frames),
        "frame_states": [s for s, _, _, _ in video.frames],
        "motion": [np.round(m, 4).tolist() for _, m, _, _ in video.frames],
        "states": [{"tiles": s.tiles, "hand": s.hand} for s in video.states],
        "held": video.held,
    }
    path.with_suffix(".json").write_text(json.dumps(truth))
    return path


def _noisy(video: Video, index: int, noise: list[np.ndarray]) -> np.ndarray:
    """Frame ``index``: its state seen through the shaking camera, in its light, with noise."""
    state, m, gain, warm = video.frames[index]
    img = cv2.warpAffine(video.states[state].image, m, SIZE, flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REFLECT)
    tint = np.diag([gain * (1 - warm), gain, gain * (1 + warm)]).astype(np.float32)
    img = cv2.transform(img, tint).astype(np.int16)
    return np.clip(img + noise[index % len(noise)], 0, 255).astype(np.uint8)
