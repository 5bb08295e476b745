"""Synthetic classifier crops: small table scenes of recoloured tiles, cut like the locator would.

Each sample draws a 3×3 neighbourhood of one set's tiles on a table (neighbours
present at random), takes the centre tile's quad, disturbs it as a loose
locator or a tilted camera would, and cuts the crop with
`agari.vision.crops.crop_tile` — the same function inference uses. `none`
samples are the locator's likely mistakes: a crop straddling two tiles, a
fragment, a gap, a tile's side, a patch of table or clutter, a box over
several tiles, an upright box over a called tile lying sideways. None of them
shows most of one face or is a plain patch (what a tightly boxed back looks
like): those would be a face or a back by construction, labelled `none`.
Photometric damage is applied afterwards by `agari.models.augment`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
from agari.engine.tiles import BACK, NONE, TILE_NAMES
from agari.models.art import Glyph, glyph_pool
from agari.models.augment import jitter_quad
from agari.models.synth_tiles import TileStyle, background, draw_tile, paste, random_style
from agari.vision.crops import crop_tile

DRAW_VERSION = 4
"""Bump when the drawing of synthetic crops (here or in `agari.models.synth_tiles`) changes:
it keys cached synthetic arrays apart from the rest of the recipe. 2: a tile's side band
shows both layers (face colour next to the face, then the back colour). 3: `none` crops
never show most of one face nor one plain patch (see `SPLIT_SHIFT`, `FRAGMENT_SCALE`,
`MIN_NONE_EDGES`); a `turned` kind. 4: no `turned` crop of a face that looks the same a
quarter turned (`QUARTER_SYMMETRIC`), and no `none` crop that photo damage left a plain
patch (`MIN_DAMAGED_EDGES`, in `agari.models.dataset`)."""

NONE_KINDS = ("split", "vsplit", "fragment", "big", "gap", "side", "clutter", "turned")
"""The locator mistakes a `none` sample imitates (`turned`: an upright box over a called
tile lying sideways)."""

# Kept out of `SynthConfig`: its fields key the real and scene arrays' caches too.
SPLIT_SHIFT = (0.42, 0.58)
"""A straddling box is shifted this share of the tile pitch: it shows at most ~60 % of
either face. (From a third of a pitch it showed two thirds of one face, more than a loose
box around that tile misses: a face by construction, labelled `none`.)"""
FRAGMENT_SCALE = (0.3, 0.45)
"""A fragment's size as a share of the tile's (up to 0.55 it held most of a face)."""
MIN_NONE_EDGES = 0.02
"""A `none` crop with fewer edge pixels than this share (`edge_share`, before photo damage)
is drawn again: a plain patch inside a face-down tile or on bare felt, without a tile edge
or a glyph, is what a tightly boxed back looks like, not evidence of `none`. (Drawn
backs: 5 % below 0.03; fragments and gaps: 10 % and 27 % below 0.02.)"""
MIN_DAMAGED_EDGES = 0.005
"""The same rule after photo damage, looser (blur and noise thin Canny's edges): a `none`
crop left with fewer edge pixels than this is drawn again (1 % of draw-3 `none` crops)."""
QUARTER_SYMMETRIC = frozenset({"1p", "4p", "5p", "9p", "5z"})
"""Faces that look the same turned a quarter (one circle; 2×2, quincunx and 3×3 circles; a
blank 白): a `turned` crop of one is, to any eye, that tile boxed upright."""
NONE_TRIES = 12
"""Draws of a `none` crop before a plain one is kept anyway."""
EDGE_THRESHOLDS = (40, 120)
"""Canny hysteresis thresholds (grey levels) for `edge_share`."""


@dataclass(frozen=True, slots=True)
class SynthConfig:
    """Knobs of the crop synthesiser (defaults are what the shipped model used)."""

    crop_size: tuple[int, int] = (64, 48)
    margin: float = 0.06
    glyph_size: tuple[int, int] = (128, 96)
    palettes: int = 24
    tile_width: tuple[int, int] = (44, 90)
    p_row_neighbour: float = 0.75
    p_other_row: float = 0.3
    p_neighbour_back: float = 0.08
    p_quad_with_side: float = 0.3
    p_tall_quad: float = 0.2
    quad_jitter: float = 0.06


@dataclass(frozen=True, slots=True)
class _Scene:
    image: np.ndarray                 # uint8 BGR canvas
    quad: np.ndarray                  # (4, 2) centre cell's face quad
    face_h: int
    side_h: int
    pitch: tuple[float, float]        # (dx, dy) from one cell to the next


class CropSynth:
    """Draws labelled synthetic crops; deterministic for a given seed.

    Args:
        seed: seeds the palettes and every sample.
        config: synthesiser settings.
        photos: optional real table photos (BGR uint8) used as backgrounds.
    """

    def __init__(self, seed: int, config: SynthConfig = SynthConfig(),
                 photos: list[np.ndarray] | None = None) -> None:
        self.config = config
        self.rng = np.random.default_rng(seed)
        self.pool: dict[str, list[Glyph]] = glyph_pool(
            np.random.default_rng(seed + 1), variants=config.palettes, size=config.glyph_size
        )
        self.photos = photos or []

    # -- scenes -------------------------------------------------------------
    def _glyph(self, name: str) -> Glyph:
        variants = self.pool[name]
        return variants[int(self.rng.integers(len(variants)))]

    def _random_face(self) -> Glyph | None:
        if self.rng.random() < self.config.p_neighbour_back:
            return None
        return self._glyph(TILE_NAMES[int(self.rng.integers(len(TILE_NAMES)))])

    def _scene(self, centre: Glyph | None | str, style: TileStyle, *,
               force: tuple[bool, bool] = (False, False)) -> _Scene:
        """A 3×3 neighbourhood; ``centre`` is a glyph, None (a back) or ``"empty"``.

        ``force`` makes the (row, column) neighbours present.
        """
        rng, cfg = self.rng, self.config
        tw = int(rng.integers(*cfg.tile_width))
        sprite_probe = round(tw * style.aspect)
        side_h = round(sprite_probe * style.side)
        gap = tw * rng.uniform(0.0, 0.08)
        vgap = sprite_probe * rng.uniform(0.03, 0.4)
        pad = tw * rng.uniform(0.3, 0.8)
        dx, dy = tw + gap, sprite_probe + side_h + vgap
        w, h = round(2 * pad + 2 * dx + tw), round(2 * pad + 2 * dy + sprite_probe + side_h)
        canvas = background(h, w, rng, self.photos)
        row_p = 1.0 if force[0] else cfg.p_row_neighbour
        rows_on = [force[1] or rng.random() < cfg.p_other_row for _ in range(2)]
        for r in (-1, 0, 1):
            for c in (-1, 0, 1):
                if r and not rows_on[(r + 1) // 2]:
                    continue
                if (r, c) == (0, 0):
                    if isinstance(centre, str):
                        continue
                    glyph = centre
                elif r == 0 and rng.random() >= row_p:
                    continue
                else:
                    glyph = self._random_face()
                colour, cover, _ = draw_tile(glyph, style, tw, rng)
                paste(canvas, colour, cover, round(pad + (c + 1) * dx), round(pad + (r + 1) * dy))
        x0, y0 = round(pad + dx), round(pad + dy)
        quad = np.array([[x0, y0], [x0 + tw, y0], [x0 + tw, y0 + sprite_probe],
                         [x0, y0 + sprite_probe]], np.float32)
        image = np.clip(canvas, 0, 255).astype(np.uint8)
        return _Scene(image, quad, sprite_probe, side_h, (dx, dy))

    def _cut(self, scene: _Scene, quad: np.ndarray, *, jitter: float | None = None,
             sideways: bool = False) -> np.ndarray:
        q = jitter_quad(quad, self.rng, self.config.quad_jitter if jitter is None else jitter)
        return crop_tile(scene.image, q, sideways=sideways, size=self.config.crop_size,
                         margin=self.config.margin)

    # -- samples -------------------------------------------------------------
    def tile(self, name: str) -> np.ndarray:
        """A crop of one face-up tile ``name`` (in `TILE_NAMES`) or ``back``: uint8 (H, W, 3)."""
        style = random_style(self.rng)
        centre = None if name == BACK else self._glyph(name)
        scene = self._scene(centre, style)
        quad = scene.quad.copy()
        if scene.side_h and self.rng.random() < self.config.p_quad_with_side:
            quad[2:, 1] += scene.side_h  # a box around face and visible side, like YOLO labels
        if self.rng.random() < self.config.p_tall_quad:
            # A loose box that runs past one end of the face (a standing tile's body).
            end = [2, 3] if self.rng.random() < 0.75 else [0, 1]
            quad[end, 1] += (1 if end[0] == 2 else -1) * scene.face_h * self.rng.uniform(0.1, 0.4)
        return self._cut(scene, quad)

    def none(self, kind: str | None = None) -> np.ndarray:
        """A crop of something that is not one whole tile (kinds: `NONE_KINDS`).

        Never a plain patch (see `MIN_NONE_EDGES`): such a crop is drawn again, up to
        `NONE_TRIES` times.
        """
        kind = kind or NONE_KINDS[int(self.rng.integers(len(NONE_KINDS)))]
        for _ in range(NONE_TRIES):
            crop = self._none(kind)
            if edge_share(crop) >= MIN_NONE_EDGES:
                break
        return crop

    def _none(self, kind: str) -> np.ndarray:
        rng = self.rng
        style = random_style(rng)
        if kind == "side":
            style = _with_side(style, rng)
        if kind == "turned":
            return self._turned(style)
        centre: Glyph | None | str = "empty" if kind in ("gap", "clutter") else self._random_face()
        scene = self._scene(centre, style, force=(kind == "split", kind == "vsplit"))
        quad = none_box(kind, scene.quad, scene.pitch, rng)
        if kind == "side":
            top = scene.quad[3, 1] + 1
            quad = np.array([[quad[0, 0], top], [quad[1, 0], top],
                             [quad[1, 0], top + scene.side_h], [quad[0, 0], top + scene.side_h]],
                            np.float32)
            return self._cut(scene, quad, jitter=0.02, sideways=True)
        elif kind == "clutter":
            _scribble(scene.image, scene.quad, rng)
        return self._cut(scene, quad)

    def _turned(self, style: TileStyle) -> np.ndarray:
        """An upright box over a called tile lying sideways (a quarter turned) in a row.

        The box has an upright tile's shape about the lying tile's centre, as
        `agari.vision.reframe.turned_quad` makes it: it holds the middle three quarters
        of a face turned 90°, and table above and below. Not an upright tile: `none`.
        """
        rng = self.rng
        scene = self._scene("empty", style)
        glyph = self._glyph(TURNABLE[int(rng.integers(len(TURNABLE)))])
        turned = Glyph(*(np.ascontiguousarray(np.rot90(a, int(rng.choice([1, 3]))))
                         for a in (glyph.ink, glyph.alpha, glyph.face)))
        lying = replace(style, aspect=1 / style.aspect, side=style.side * style.aspect)
        long_side = round(np.ptp(scene.quad[:, 1]))
        colour, cover, fh = draw_tile(turned, lying, long_side, rng)
        cx, cy = scene.quad.mean(axis=0)
        # A called tile lies at the row's near edge: its face's bottom on the others'.
        y = round(scene.quad[3, 1] - fh * rng.uniform(1.0, 1.15))
        x = round(cx - long_side / 2)
        paste(scene.image, np.clip(colour, 0, 255), cover, x, y)
        lying_centre = np.array([x + long_side / 2, y + fh / 2], np.float32)
        quad = scene.quad - scene.quad.mean(axis=0) + lying_centre
        return self._cut(scene, quad)

    def sample(self, name: str) -> np.ndarray:
        """A crop for any class name in `agari.engine.tiles.CLASS_NAMES`."""
        return self.none() if name == NONE else self.tile(name)


TURNABLE = tuple(n for n in TILE_NAMES if n not in QUARTER_SYMMETRIC)
"""Faces a `turned` crop may show."""


def none_box(kind: str, quad: np.ndarray, pitch: tuple[float, float],
             rng: np.random.Generator) -> np.ndarray:
    """The box of a `split`, `vsplit`, `fragment` or `big` crop (others: ``quad`` as is).

    Args:
        kind: one of `NONE_KINDS`.
        quad: float32 ``(4, 2)``, the centre tile's face quad (TL, TR, BR, BL).
        pitch: ``(dx, dy)`` from one tile to the next along the row and across rows.
        rng: draws the shift, place and scale.
    """
    quad = quad.copy()
    centre = quad.mean(axis=0)
    if kind in ("split", "vsplit"):
        axis = 0 if kind == "split" else 1
        quad[:, axis] += rng.choice([-1, 1]) * rng.uniform(*SPLIT_SHIFT) * pitch[axis]
    elif kind == "fragment":
        anchor = quad[0] + np.ptp(quad, axis=0) * rng.uniform(0.2, 0.8, 2)
        quad = anchor + (quad - centre) * rng.uniform(*FRAGMENT_SCALE)
    elif kind == "big":
        quad = centre + (quad - centre) * rng.uniform(1.8, 2.8)
    return quad


def edge_share(crop: np.ndarray) -> float:
    """The share of a BGR ``uint8 (H, W, 3)`` crop's pixels on an edge (Canny, grey)."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    return float((cv2.Canny(grey, *EDGE_THRESHOLDS) > 0).mean())


def _with_side(style: TileStyle, rng: np.random.Generator) -> TileStyle:
    return replace(style, side=float(rng.uniform(0.3, 0.6)))


def _scribble(image: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> None:
    """Draw clutter (pens, cards, paper, fingers) over the empty centre cell, in place."""
    x0, y0 = quad.min(axis=0)
    x1, y1 = quad.max(axis=0)
    for _ in range(int(rng.integers(1, 6))):
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        p1 = (int(rng.uniform(x0, x1)), int(rng.uniform(y0, y1)))
        p2 = (int(rng.uniform(x0, x1)), int(rng.uniform(y0, y1)))
        shape = rng.integers(3)
        if shape == 0:
            cv2.line(image, p1, p2, colour, int(rng.integers(1, 8)), cv2.LINE_AA)
        elif shape == 1:
            cv2.rectangle(image, p1, p2, colour, int(rng.choice([-1, 1, 2])))
        else:
            axes = (int(rng.integers(3, 30)), int(rng.integers(3, 30)))
            cv2.ellipse(image, p1, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)
