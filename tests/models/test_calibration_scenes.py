"""Synthetic tile sets the classifier never trained on, and photos of them (renderer-based).

Shared by the calibration tests and ``bench/calibrate_eval.py``. A *family* is
a way of making tile sets look unlike the classifier's training data — its own
crop synthesiser (`agari.models.synth`: the pymdownx-mahjong ``light`` faces
recoloured within `agari.models.art.random_palette`, ivory faces, affine
jitter only) and the renderer's scenes it also trains on
(`agari.datasets.tileface.sample_style`: both art variants, ink and face
colours within its own ranges):

- ``hollow``: every stroke wider than a 18th of the face drawn as its outline
  (outlined circles, sticks and characters): a face geometry never trained on;
- ``elastic``: each face's art bent by a smooth random displacement field
  (up to 4 % of the face width), fixed per set — the same designs drawn by
  another hand; training only shifts, scales and shears the art;
- ``offpalette``: brown numerals, violet circles and blue ink, purple bamboo
  and 發, on a mint or pale-blue face — outside every training palette (red
  kept red, so that red fives stay red);
- ``goldfives``: the red fives printed in gold (or blue) instead of red, as in
  sets whose dora fives are gold: the model card puts them out of scope, and
  the layout tells agari which tile is which;
- ``dark``: the ``dark`` (light-ink) faces on black, navy or green faces.
  *Rarely seen*, not unseen: the renderer draws about one scene in nine with
  them, and the classifier trains on rendered scenes.

Every other property of a set (body, back colour, art scale, stroke weight,
engraving, mirrored bird, framed 白…) comes from the renderer's own
`sample_style`; ``plain`` is that alone (seen in training).
"""

from __future__ import annotations

import colorsys
import contextlib
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
import pytest
from agari.datasets import scene as scene_module
from agari.datasets.art import INK_LAYERS, ArtSet, FaceArt, art_sets
from agari.datasets.camera import Camera, look_at
from agari.datasets.effects import apply_look, sample_look
from agari.datasets.layout import Placement, Row
from agari.datasets.render import draw_placements, sample_light
from agari.datasets.scene import SceneConfig, render_scene
from agari.datasets.scenery import draw_table, sample_table
from agari.datasets.tileface import SetStyle, sample_style
from agari.engine.tiles import BACK
from agari.models.calibration_layout import ReferenceLayout

UNSEEN = ("hollow", "elastic", "offpalette", "goldfives")
"""Set families the classifier never trained on (see the module doc)."""
FAMILIES = (*UNSEEN, "dark")
"""Every family besides ``plain`` (the renderer's own random set)."""
LAYOUT = ReferenceLayout()
"""The default reference layout (all three red fives)."""


def _bgr(h_deg: float, s: float, v: float) -> np.ndarray:
    r, g, b = colorsys.hsv_to_rgb((h_deg / 360.0) % 1.0, s, v)
    return np.array([b, g, r], np.float32) * 255.0


def _rebuild(art: ArtSet, name: str, bend) -> ArtSet:
    """``art`` with every face's base raster passed through ``bend``, pyramid remade."""
    faces = {}
    for face, fa in art.faces.items():
        base = bend(face, fa.levels[0])
        smaller = [cv2.resize(base, lv.shape[1::-1], interpolation=cv2.INTER_AREA)
                   .reshape(lv.shape) for lv in fa.levels[1:]]
        faces[face] = FaceArt(face, (base, *smaller))
    return ArtSet(f"{art.name}-{name}", faces, art.light_ink)


def _hollow(_: str, layers: np.ndarray) -> np.ndarray:
    a = layers.astype(np.float32)
    # An outline about a 36th of the face wide: strokes narrower than twice that stay solid.
    width = max(2, round(layers.shape[1] / 36))
    inner = cv2.erode(a, np.ones((2 * width + 1,) * 2, np.uint8)).reshape(a.shape)
    return np.clip(a - inner, 0, 255).astype(np.uint8)


def _elastic(rng: np.random.Generator):
    fields: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def bend(face: str, layers: np.ndarray) -> np.ndarray:
        h, w = layers.shape[:2]
        if face not in fields:
            amp, sigma = 0.04 * w, 0.12 * w
            fx, fy = (cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), sigma)
                      for _ in range(2))
            fields[face] = (fx * amp / (np.abs(fx).max() + 1e-6),
                            fy * amp / (np.abs(fy).max() + 1e-6))
        fx, fy = fields[face]
        xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        out = cv2.remap(layers, xs + fx, ys + fy, cv2.INTER_LINEAR, borderValue=0)
        return out.reshape(layers.shape)

    return bend


def _gold_fives(art: ArtSet, rng: np.random.Generator) -> ArtSet:
    """``art`` with the red fives' red ink moved to the gold (or blue) ink layer."""
    red = INK_LAYERS.index("red")
    to = INK_LAYERS.index("gold" if rng.random() < 0.7 else "blue")

    def recolour(face: str, layers: np.ndarray) -> np.ndarray:
        if face not in ("0m", "0p", "0s"):
            return layers
        out = layers.copy()
        out[..., to] = np.maximum(out[..., to], out[..., red])
        out[..., red] = 0
        return out

    return _rebuild(art, "goldfives", recolour)


def _offpalette(style: SetStyle, rng: np.random.Generator) -> SetStyle:
    inks = style.inks.copy()
    idx = {k: i for i, k in enumerate(INK_LAYERS)}
    inks[idx["dark"]] = _bgr(rng.uniform(18, 35), rng.uniform(0.6, 0.9), rng.uniform(0.22, 0.38))
    inks[idx["blue"]] = _bgr(rng.uniform(270, 310), rng.uniform(0.5, 0.9), rng.uniform(0.35, 0.6))
    inks[idx["green"]] = _bgr(rng.uniform(280, 320), rng.uniform(0.5, 0.9), rng.uniform(0.3, 0.5))
    face = _bgr(rng.choice([160.0, 195.0]), rng.uniform(0.1, 0.22), rng.uniform(0.86, 0.95))
    inks[idx["light"]] = face * 1.01
    return replace(style, inks=inks, face=face, _cache={})


def unseen_style(seed: int, family: str) -> SetStyle:
    """One tile set of ``family`` (``plain`` or one of `FAMILIES`), a pure function of ``seed``."""
    rng = np.random.default_rng([seed, 0xCA1])
    arts = {a.name: a for a in art_sets(())}
    if family == "dark":
        return sample_style(rng, (arts["dark"],))
    style = sample_style(rng, (arts["light"],))
    if family == "hollow":
        return replace(style, art=_rebuild(style.art, "hollow", _hollow), _cache={})
    if family == "elastic":
        return replace(style, art=_rebuild(style.art, "elastic", _elastic(rng)), _cache={})
    if family == "offpalette":
        return _offpalette(style, rng)
    if family == "goldfives":
        return replace(style, art=_gold_fives(style.art, rng), _cache={})
    if family != "plain":
        raise ValueError(f"unknown family {family!r}")
    return style


def layout_placements(rng: np.random.Generator, style: SetStyle,
                      layout: ReferenceLayout) -> list[Placement]:
    """The layout's tiles on the table, rows a little apart, in layout order."""
    w, h, _ = style.size_mm
    gap_row = h * float(rng.uniform(0.35, 0.8))
    out = []
    for r, row in enumerate(layout.rows):
        cursor = Row(rng, style.size_mm, x=float(rng.normal(0, 2)), y=-r * (h + gap_row))
        for name in row:
            out.append(cursor.flat("5z" if name == BACK else name, face_up=name != BACK))
            cursor.x += float(rng.uniform(1.0, 4.0))
    return out


@dataclass(frozen=True)
class LayoutView:
    """How the calibration photo is taken: as a user would, from the layout's near side.

    Angles in degrees; ``azimuth`` 0 is straight from the player's side (180 from across).
    """

    elevation: tuple[float, float] = (45.0, 90.0)
    azimuth: float = 12.0       # standard deviation
    roll: float = 6.0           # standard deviation
    far_side: bool = False
    fov: tuple[float, float] = (50.0, 70.0)
    tile_px: tuple[float, float] = (55.0, 95.0)
    fill: float = 0.85          # the layout spans at most this share of the frame


def layout_camera(rng: np.random.Generator, placements: list[Placement], style: SetStyle,
                  size: tuple[int, int], view: LayoutView) -> Camera:
    """A camera framing the whole layout with tiles about ``view.tile_px`` wide."""
    w, h = size
    pts = np.array([p.pose.origin for p in placements])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    focal = w / (2 * math.tan(math.radians(rng.uniform(*view.fov)) / 2))
    px = math.exp(rng.uniform(*np.log(view.tile_px)))
    span_x, span_y = hi[0] - lo[0] + style.size_mm[0], hi[1] - lo[1] + style.size_mm[1]
    fit = focal * max(span_x / (view.fill * w), span_y / (view.fill * h))
    distance = max(focal * style.size_mm[0] / px, fit)
    target = (lo + hi) / 2
    target[2] = style.size_mm[2] / 2
    azimuth = float(rng.normal(0, view.azimuth)) + (180.0 if view.far_side else 0.0)
    elevation, roll = float(rng.uniform(*view.elevation)), float(rng.normal(0, view.roll))
    # A user frames the whole layout: turned and tilted, the box fitted above can still cut
    # a corner off, so the camera backs off until every tile is inside the frame.
    reach = math.hypot(*style.size_mm[:2]) / 2
    around = np.array([(dx, dy, 0.0) for dx in (-reach, reach) for dy in (-reach, reach)])
    corners = (pts[:, None, :] + around[None]).reshape(-1, 3)
    for _ in range(30):
        cam = look_at(target, elevation=elevation, azimuth=azimuth, distance=distance,
                      roll=roll, focal=focal, size=(w, h))
        uv, _ = cam.project(corners)
        if (uv.min(axis=0) >= (0.02 * w, 0.02 * h)).all() and \
                (uv.max(axis=0) <= (0.98 * w, 0.98 * h)).all():
            break
        distance *= 1.08
    return cam


def render_layout(seed: int, style: SetStyle, layout: ReferenceLayout = LAYOUT, *,
                  size: tuple[int, int] = (1280, 960), view: LayoutView = LayoutView(),
                  effects: bool = True, absent: tuple[int, ...] = ()) -> tuple[np.ndarray, list]:
    """A photo of ``style``'s tiles in the reference layout (see `LayoutView`).

    Args:
        absent: layout positions (flat indices) left bare: the same photo with those
            tiles taken away (framed as if they were there).

    Returns:
        ``(BGR image, annotations in layout order)``.
    """
    rng = np.random.default_rng([seed, 0x1A7])
    placements = layout_placements(rng, style, layout)
    cam = layout_camera(rng, placements, style, size, view)
    canvas = np.empty((size[1], size[0], 3), np.uint8)
    xs = [p.pose.origin[0] for p in placements]
    ys = [p.pose.origin[1] for p in placements]
    table = sample_table(rng, centre=(float(np.mean(xs)), float(np.mean(ys))),
                         near_y=min(ys) - 300.0)
    draw_table(canvas, cam, table, rng)
    laid = [p for i, p in enumerate(placements) if i not in absent]
    tiles = draw_placements(canvas, cam, laid, style, sample_light(rng), rng)
    image = apply_look(canvas, sample_look(rng), rng) if effects else canvas
    return image, list(tiles)


@contextlib.contextmanager
def fixed_style(style: SetStyle):
    """Make `render_scene` draw every scene with ``style`` (one physical set, many photos)."""
    original = scene_module.sample_style
    scene_module.sample_style = lambda rng, arts, **kw: (original(rng, arts, **kw), style)[1]
    try:
        yield
    finally:
        scene_module.sample_style = original


def render_hands(style: SetStyle, seeds, *, size=(960, 720),
                 kinds=("shown", "standing", "tray")) -> list[tuple[np.ndarray, object]]:
    """Photos of hands played with ``style`` (the renderer's scenes, this set throughout)."""
    config = SceneConfig(width=size[0], height=size[1], kinds=kinds, tile_px=(28.0, 120.0))
    with fixed_style(style):
        return [render_scene(int(s), config) for s in seeds]


# -- the factories' own checks ---------------------------------------------------------
SMALL_VIEW = LayoutView(tile_px=(30.0, 45.0))

@pytest.mark.parametrize("family", ["plain", *FAMILIES])
def test_families_render_a_full_layout(family):
    style = unseen_style(3, family)
    image, tiles = render_layout(3, style, size=(640, 480), view=SMALL_VIEW)
    assert image.shape == (480, 640, 3)
    layout = ReferenceLayout()
    assert [t.label for t in tiles] == list(layout.names)
    assert all(t.visible > 0.9 for t in tiles)


def test_families_change_the_faces():
    plain = unseen_style(5, "plain")
    base, _ = plain.texture("1z", 120)
    for family in ("hollow", "elastic"):
        other, _ = unseen_style(5, family).texture("1z", 120)
        assert base.shape == other.shape
        assert np.abs(base.astype(int) - other.astype(int)).mean() > 3.0
    assert unseen_style(5, "dark").face.mean() < 90
    gold, _ = unseen_style(5, "goldfives").texture("0p", 120)
    red, _ = plain.texture("0p", 120)
    assert np.abs(gold.astype(int) - red.astype(int)).mean() > 3.0
    assert unseen_style(5, "offpalette").face[2] < unseen_style(5, "offpalette").face[1]


def test_fixed_style_draws_one_set():
    style = unseen_style(1, "offpalette")
    (img, ann), = render_hands(style, [7], size=(320, 240))
    assert img.shape == (240, 320, 3) and ann.tiles
    assert scene_module.sample_style is sample_style
