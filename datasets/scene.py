"""`render_scene`: one synthetic photo of tiles on a table, with full ground truth.

A scene is one of `SCENE_KINDS`:

- ``shown``: a hand laid face up for scoring (melds, dora), seen from above or obliquely;
- ``standing``: a hand standing in play, seen from the seat, melds lying beside it;
- ``table``: the whole table from a seat: standing hand, ponds, walls, opponents' backs;
- ``tray``: loose tiles in a grid, seen from above (like ``real-dev/riichi-tray``).

Everything random comes from one `numpy.random.Generator`, so a seed gives the
same image and annotation every time.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from agari.datasets.annotation import ImageAnnotation
from agari.datasets.art import art_sets
from agari.datasets.camera import Camera
from agari.datasets.clutter import scatter
from agari.datasets.effects import apply_look, sample_look
from agari.datasets.hands import ShownHand, random_hand
from agari.datasets.layout import Placement, layout_hand
from agari.datasets.render import draw_placements, frame_camera, sample_light
from agari.datasets.scenery import draw_table, sample_table
from agari.datasets.table import opponent_hand, pond, scattered, tray, wall
from agari.datasets.tileface import SetStyle, sample_style
from agari.engine.errors import InvalidInput

SCENE_KINDS = ("shown", "standing", "table", "tray")


@dataclass(frozen=True)
class SceneConfig:
    """What to render.

    Attributes:
        width, height: image size in pixels.
        art_dirs: tile art folders (see `agari.datasets.art.load_art`), their variants pooled;
            empty = the art packaged with pymdownx-mahjong.
        kinds, kind_weights: scene kinds to draw from and their relative chances.
        tile_px: range of face widths in pixels (drawn log-uniformly).
        fit_prob: chance the camera backs off until the whole hand is in frame.
        complete_prob: chance a hand is a winning one (3n+2) rather than waiting (3n+1).
        clutter: draw sticks, dice, paper... around the tiles.
        effects: apply lighting, colour, blur, noise and JPEG (off: the clean render).
    """

    width: int = 1280
    height: int = 960
    art_dirs: tuple[Path, ...] = ()
    kinds: tuple[str, ...] = SCENE_KINDS
    kind_weights: tuple[float, ...] = (0.45, 0.25, 0.15, 0.15)
    tile_px: tuple[float, float] = (20.0, 250.0)
    fit_prob: float = 0.75
    complete_prob: float = 0.75
    clutter: bool = True
    effects: bool = True

    def __post_init__(self) -> None:
        if self.width < 64 or self.height < 64:
            raise InvalidInput(f"image size must be at least 64x64, got {self.width}x{self.height}")
        unknown = set(self.kinds) - set(SCENE_KINDS)
        if unknown or not self.kinds:
            raise InvalidInput(f"scene kinds must be among {SCENE_KINDS}, got {self.kinds}")
        if len(self.kind_weights) != len(self.kinds) and self.kinds != SCENE_KINDS:
            object.__setattr__(self, "kind_weights", (1.0,) * len(self.kinds))
        if not 4.0 <= self.tile_px[0] <= self.tile_px[1]:
            raise InvalidInput(f"tile_px must be a range of at least 4 px, got {self.tile_px}")


def render_scene(seed: int | np.random.Generator, config: SceneConfig | None = None, *,
                 name: str | None = None) -> tuple[np.ndarray, ImageAnnotation]:
    """Render one scene.

    Args:
        seed: an integer seed or a generator (the image is a pure function of it).
        config: what to render; default `SceneConfig()`.
        name: the annotation's image name; default ``synth_<seed>.jpg``.

    Returns:
        ``(image, annotation)``: BGR ``uint8 (height, width, 3)`` and its ground truth.
    """
    config = config or SceneConfig()
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    if name is None:
        name = f"synth_{seed:08d}.jpg" if isinstance(seed, int) else "synth.jpg"
    style = sample_style(rng, art_sets(config.art_dirs))
    weights = np.asarray(config.kind_weights, float)
    kind = config.kinds[int(rng.choice(len(config.kinds), p=weights / weights.sum()))]
    hand, placements, focus = _compose(rng, kind, style, config)
    cam, elevation = frame_camera(rng, kind, focus, style, config)
    light = sample_light(rng)
    canvas = np.empty((config.height, config.width, 3), np.uint8)
    _draw_surroundings(canvas, rng, cam, kind, placements, focus, config)
    tiles = draw_placements(canvas, cam, placements, style, light, rng)
    image = apply_look(canvas, sample_look(rng, low_view=elevation < 35), rng) \
        if config.effects else canvas
    meta = (("kind", kind), ("art", style.art.name), ("elevation", f"{elevation:.1f}"),
            ("tile_mm", f"{style.size_mm[0]:.1f}"))
    ann = ImageAnnotation(image=name, width=config.width, height=config.height, tiles=tiles,
                          hand=hand.text if hand else None,
                          win=hand.win.name if hand and hand.win else None, meta=meta)
    return image, ann


def _compose(rng: np.random.Generator, kind: str, style: SetStyle, config: SceneConfig,
             ) -> tuple[ShownHand | None, list[Placement], list[Placement]]:
    """The tiles of a scene and the ones the camera should frame."""
    size = style.size_mm
    if kind == "tray":
        rows, cols = int(rng.integers(1, 6)), int(rng.integers(2, 10))
        tiles = tray(rng, size, rows=rows, cols=cols)
        if rng.random() < 0.4:
            tiles += scattered(rng, size, int(rng.integers(1, 6)), centre=(cols * 15, -rows * 20),
                               radius=float(rng.uniform(80, 250)))
        return None, tiles, tiles
    standing = kind != "shown"
    # A hand in play is usually waiting; a shown hand usually won.
    complete = rng.random() < config.complete_prob * (1.0 if kind == "shown" else 0.5)
    hand = random_hand(rng, complete=complete)
    own = layout_hand(rng, hand, size, standing=standing)
    others: list[Placement] = []
    extent = max(p.pose.origin[0] for p in own)
    centre = (extent / 2 + float(rng.normal(0, 20)), float(rng.uniform(260, 330)))
    if kind == "table":
        for seat in range(4):
            others += pond(rng, size, centre, seat, int(rng.integers(0, 19)))
            if rng.random() < 0.7:
                others += wall(rng, size, centre, seat, stacks=int(rng.integers(3, 18)),
                               start=int(rng.integers(0, 4)))
            if seat and rng.random() < 0.6:
                others += opponent_hand(rng, size, centre, seat, count=int(rng.integers(4, 14)))
    elif rng.random() < 0.35:
        others += pond(rng, size, centre, 0, int(rng.integers(1, 19)))
    if kind == "shown" and rng.random() < 0.2:
        others += scattered(rng, size, int(rng.integers(1, 5)), centre=centre,
                            radius=float(rng.uniform(150, 300)))
    return hand, own + others, own


def _draw_surroundings(canvas: np.ndarray, rng: np.random.Generator, cam: Camera, kind: str,
                       placements: list[Placement], focus: list[Placement],
                       config: SceneConfig) -> None:
    xs = [p.pose.origin[0] for p in placements]
    ys = [p.pose.origin[1] for p in placements]
    box = (min(xs) - 40, min(ys) - 40, max(xs) + 40, max(ys) + 40)
    cx = (min(p.pose.origin[0] for p in focus) + max(p.pose.origin[0] for p in focus)) / 2
    auto = kind in ("standing", "table") and rng.random() < 0.7
    near_y = box[1] - float(rng.uniform(20, 200))
    if not auto and rng.random() < 0.7:  # most photos show no near table edge at all
        near_y = min(near_y, float(cam.centre[1]) - float(rng.uniform(0, 300)))
    table = sample_table(rng, centre=(cx, float(rng.uniform(260, 330))), near_y=near_y,
                         kind="auto" if auto else None)
    draw_table(canvas, cam, table, rng)
    if config.clutter and rng.random() < 0.6:
        area = (box[0] - 500, box[1] - 150, box[2] + 500, box[3] + 600)
        scatter(canvas, cam, rng, int(rng.integers(1, 6)), keep_clear=[box], area=area)
