"""A physical tile set's look, drawn at random, and the face textures it produces.

Real sets differ in more than art: face white or ivory, ink colours (black,
navy or green-black strokes; crimson or vermilion reds), stroke weight, how
deep the ink is engraved, margins, where the numeral sits against 萬, a
mirrored 1s bird, a framed or blank 白, body size and depth, corner radius and
the colour of the back layer. `sample_style` draws one `SetStyle` per scene
(every tile in a scene comes from the same set, as on a real table) and
`SetStyle.texture` composes a face at the size it will be drawn.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, field

import cv2
import numpy as np
from agari.datasets.art import INK_LAYERS, ArtSet

BACK_COLOURS: dict[str, tuple[int, int, int]] = {
    # BGR; the colours real sets use for the back layer (裏).
    "blue": (175, 105, 25), "navy": (105, 45, 15), "sky": (215, 165, 90),
    "green": (55, 125, 25), "teal": (120, 120, 20), "yellow": (40, 195, 235),
    "orange": (25, 115, 235), "pink": (165, 115, 235), "purple": (135, 55, 105),
    "black": (28, 26, 26), "red": (40, 35, 195), "white": (236, 238, 238),
}

TILE_WIDTH_MM = (24.0, 28.5)
TILE_ASPECT = (1.26, 1.36)
"""Face height / width of riichi sets."""
TILE_DEPTH = (0.62, 0.85)
"""Body depth as a fraction of the face width (thick automatic-table tiles are ~0.8)."""
FACE_LAYER = (0.5, 0.75)
"""Share of the depth that is the ivory front layer; the rest is the coloured back."""
CORNER_RADIUS = (0.07, 0.16)
"""Face corner radius as a fraction of the face width."""
DARK_FACE_SHARE = 0.12
"""Weight of an art variant with light ink (drawn for black-faced sets, which are rare)
against 1 for each variant with dark ink."""


def _hsv(h: float, s: float, v: float) -> np.ndarray:
    """BGR float32 (0..255) from hue in degrees, saturation and value in 0..1."""
    r, g, b = colorsys.hsv_to_rgb((h / 360.0) % 1.0, min(max(s, 0.0), 1.0), min(max(v, 0.0), 1.0))
    return np.array([b, g, r], np.float32) * 255.0


@dataclass(eq=False)
class SetStyle:
    """One tile set. Colours are BGR float32 0..255; lengths in millimetres."""

    art: ArtSet
    face: np.ndarray
    inks: np.ndarray
    back: np.ndarray
    size_mm: tuple[float, float, float]
    face_layer: float
    corner: float
    art_scale: float
    art_shift: tuple[float, float]
    art_aspect: float
    stroke: float
    engrave: float
    rim: float
    gloss: float
    man_split: tuple[float, float, float, float]
    bird_flip: bool
    haku_frame: np.ndarray | None
    _cache: dict = field(default_factory=dict, repr=False)

    def texture(self, name: str, width: float) -> tuple[np.ndarray, np.ndarray]:
        """The face of ``name`` for drawing about ``width`` pixels wide.

        Returns:
            ``(bgr, alpha)``: ``uint8 (h, w, 3)`` and ``uint8 (h, w)`` with rounded corners,
            at the art pyramid level just above ``width`` (so warping only shrinks it).
        """
        art = self.art.faces[name]
        level = art.level_for(width * 1.15)
        key = (name, level.shape[1])
        if key not in self._cache:
            self._cache[key] = self._compose(name, level, art.used)
        return self._cache[key]

    def _compose(self, name: str, layers: np.ndarray, used: tuple[int, ...],
                 ) -> tuple[np.ndarray, np.ndarray]:
        h, w = layers.shape[:2]
        a = self._place(name, np.ascontiguousarray(layers[..., used]), used)
        a = _stroke(a.astype(np.float32) * (1.0 / 255.0), self.stroke, w / 240.0)
        cover = np.clip(a.sum(axis=2), 0.0, 1.0)
        face = self._face_plane(h, w)
        ink = (a.reshape(-1, len(used)) @ self.inks[list(used)]).reshape(h, w, 3)
        img = face * (1.0 - cover)[..., None] + ink
        if self.engrave > 0:
            img = _engrave(img, cover, self.engrave, max(1, round(w / 90)))
        if name == "5z" and self.haku_frame is not None:
            _draw_frame(img, self.haku_frame, w, h)
        mask = rounded_mask(w, h, self.corner)
        img *= 1.0 - self.rim * _rim(w, h, self.corner)[..., None]
        return np.clip(img, 0, 255).astype(np.uint8), mask

    def _place(self, name: str, layers: np.ndarray, used: tuple[int, ...]) -> np.ndarray:
        """Scale/shift the art inside the face; split numeral from 萬; mirror the bird."""
        h, w = layers.shape[:2]
        if name == "1s" and self.bird_flip:
            layers = np.ascontiguousarray(layers[:, ::-1])
        sx = self.art_scale * self.art_aspect
        sy = self.art_scale / self.art_aspect
        dx, dy = self.art_shift
        m = np.float32([[sx, 0, (1 - sx) * w / 2 + dx * w], [0, sy, (1 - sy) * h / 2 + dy * h]])
        out = cv2.warpAffine(layers, m, (w, h), flags=cv2.INTER_LINEAR)
        out = out.reshape(h, w, len(used))
        if name[1] == "m" and name[0] != "0":
            out = self._split_man(out, used)
        return out

    def _split_man(self, layers: np.ndarray, used: tuple[int, ...]) -> np.ndarray:
        """Move the numeral (dark/blue ink) and 萬 (red ink) apart a little, as sets differ."""
        h, w = layers.shape[:2]
        num_dy, num_s, man_dy, man_s = self.man_split
        out = layers.copy()
        parts = ((("dark", "blue"), num_dy, num_s, 0.3), (("red",), man_dy, man_s, 0.7))
        for inks, dy, s, cy in parts:
            ks = [i for i, k in enumerate(used) if INK_LAYERS[k] in inks]
            if not ks:
                continue
            m = np.float32([[s, 0, (1 - s) * w / 2], [0, s, (1 - s) * cy * h + dy * h]])
            out[..., ks] = cv2.warpAffine(np.ascontiguousarray(layers[..., ks]), m, (w, h)).reshape(
                h, w, len(ks))
        return out

    def _face_plane(self, h: int, w: int) -> np.ndarray:
        """The bare face: colour with a faint top-to-bottom tone change (plastic is not flat)."""
        ramp = np.linspace(1.02, 0.97, h, dtype=np.float32)[:, None, None]
        return np.broadcast_to(self.face * ramp, (h, w, 3)).copy()


def _stroke(a: np.ndarray, stroke: float, px_per_base: float) -> np.ndarray:
    """Thicken (stroke > 0) or thin (< 0) every ink by up to ~2.5 base-raster pixels."""
    frac = min(abs(stroke) * 2.5 * px_per_base, 1.0)
    if frac < 0.05:
        return a
    kernel = np.ones((3, 3), np.uint8)
    moved = (cv2.dilate(a, kernel) if stroke > 0 else cv2.erode(a, kernel)).reshape(a.shape)
    return a + frac * (moved - a)


def _engrave(img: np.ndarray, cover: np.ndarray, strength: float, shift: int) -> np.ndarray:
    """Ink sunk into the face: a dark lip on one side of each stroke, light on the other."""
    lower = np.roll(cover, (shift, shift), axis=(0, 1))
    upper = np.roll(cover, (-shift, -shift), axis=(0, 1))
    relief = np.clip(upper - cover, 0, 1) - np.clip(lower - cover, 0, 1)
    return img * (1.0 - strength * 0.6 * relief[..., None])


def _draw_frame(img: np.ndarray, colour: np.ndarray, w: int, h: int) -> None:
    """The blue or black frame some sets print on 白."""
    t = max(1, round(w * 0.05))
    x0, y0 = round(w * 0.17), round(h * 0.16)
    cv2.rectangle(img, (x0, y0), (w - 1 - x0, h - 1 - y0), colour.tolist(), t, cv2.LINE_AA)


_MASKS: dict[tuple[int, int, int], np.ndarray] = {}


def rounded_mask(w: int, h: int, corner: float) -> np.ndarray:
    """``uint8 (h, w)`` mask of a rounded rectangle (radius = ``corner`` x width), anti-aliased."""
    key = (w, h, round(corner * 100))
    if key not in _MASKS:  # drawn from the key alone, so the cache cannot change a result
        scale = 4  # draw large and shrink: smooth corners at any size
        r = key[2] / 100 * w * scale
        big = np.zeros((h * scale, w * scale), np.uint8)
        W, H = w * scale - 1, h * scale - 1
        ri = int(round(r))
        cv2.rectangle(big, (ri, 0), (W - ri, H), 255, -1)
        cv2.rectangle(big, (0, ri), (W, H - ri), 255, -1)
        for cx, cy in ((ri, ri), (W - ri, ri), (ri, H - ri), (W - ri, H - ri)):
            cv2.circle(big, (cx, cy), ri, 255, -1)
        _MASKS[key] = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
    return _MASKS[key]


_RIMS: dict[tuple[int, int, int], np.ndarray] = {}


def _rim(w: int, h: int, corner: float) -> np.ndarray:
    """1 at the face's edge fading to 0 inwards: the bevel where the face rolls over."""
    key = (w, h, round(corner * 100))
    if key not in _RIMS:
        mask = rounded_mask(w, h, corner)
        dist = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
        _RIMS[key] = np.clip(1.0 - dist / max(1.5, 0.05 * w), 0.0, 1.0).astype(np.float32)
    return _RIMS[key]


# -- sampling --------------------------------------------------------------------
def sample_style(rng: np.random.Generator, arts: tuple[ArtSet, ...], *,
                 art_weights: tuple[float, ...] | None = None) -> SetStyle:
    """Draw one tile set: art variant, colours, body and art placement.

    Args:
        art_weights: relative chance of each art variant; default 1 for dark-ink art and
            `DARK_FACE_SHARE` for light-ink art (which always gets a dark face).
    """
    if art_weights is None:
        art_weights = tuple(DARK_FACE_SHARE if a.light_ink else 1.0 for a in arts)
    probs = np.asarray(art_weights, float) / sum(art_weights)
    art = arts[int(rng.choice(len(arts), p=probs))]
    dark_face = art.light_ink  # light ink is drawn for black tiles; on ivory it vanishes
    face = _dark_face(rng) if dark_face else _light_face(rng)
    inks = _inks(rng, face, dark_face=dark_face)
    width = rng.uniform(*TILE_WIDTH_MM)
    size = (width, width * rng.uniform(*TILE_ASPECT), width * rng.uniform(*TILE_DEPTH))
    return SetStyle(
        art=art, face=face, inks=inks, back=_back(rng), size_mm=size,
        face_layer=rng.uniform(*FACE_LAYER), corner=rng.uniform(*CORNER_RADIUS),
        art_scale=rng.uniform(0.84, 1.0), art_shift=(rng.normal(0, 0.012), rng.normal(0, 0.018)),
        art_aspect=rng.uniform(0.93, 1.07), stroke=float(np.clip(rng.normal(0, 0.45), -1, 1)),
        engrave=rng.uniform(0, 0.6) if rng.random() < 0.6 else 0.0,
        rim=rng.uniform(0.03, 0.16), gloss=rng.uniform(0.0, 1.0),
        man_split=(rng.normal(0, 0.02), rng.uniform(0.9, 1.08),
                   rng.normal(0, 0.02), rng.uniform(0.9, 1.08)),
        bird_flip=bool(rng.random() < 0.3),
        haku_frame=_hsv(rng.uniform(200, 240), 0.8, rng.uniform(0.3, 0.7))
        if rng.random() < 0.2 else None,
    )


def _light_face(rng: np.random.Generator) -> np.ndarray:
    """White to ivory to cream: warmth lowers blue most, green a little."""
    lum = rng.uniform(212, 252)
    warm = rng.uniform(0, 34) if rng.random() < 0.7 else rng.uniform(0, 8)
    tint = rng.normal(0, 2, 3)
    return np.clip(np.array([lum - warm, lum - 0.45 * warm, lum], np.float32) + tint, 0, 255)


def _dark_face(rng: np.random.Generator) -> np.ndarray:
    return _hsv(rng.choice([0, 120, 220, 40]), rng.uniform(0, 0.6), rng.uniform(0.05, 0.25))


def _inks(rng: np.random.Generator, face: np.ndarray, *, dark_face: bool) -> np.ndarray:
    """Colours for `INK_LAYERS`: each family varies within what sets print."""
    dark = _hsv(rng.choice([0, 120, 220, 40]), rng.uniform(0, 0.7), rng.uniform(0.02, 0.2))
    blue = dark.copy() if rng.random() < 0.35 else _hsv(
        rng.uniform(205, 240), rng.uniform(0.5, 1), rng.uniform(0.25, 0.65))
    red = _hsv(rng.uniform(-9, 9), rng.uniform(0.7, 1), rng.uniform(0.55, 0.92))
    # Bamboos (and 發) are green in most sets, but teal, navy or black in many others.
    green = _hsv(rng.uniform(95, 175), rng.uniform(0.5, 1), rng.uniform(0.2, 0.6)) \
        if rng.random() < 0.7 else _hsv(rng.uniform(175, 235), rng.uniform(0.3, 1),
                                         rng.uniform(0.12, 0.45))
    gold = _hsv(rng.uniform(22, 45), rng.uniform(0.6, 1), rng.uniform(0.7, 1))
    light = _light_face(rng) if dark_face else face * 1.01
    return np.stack([dark, blue, red, green, gold, light]).astype(np.float32)


def _back(rng: np.random.Generator) -> np.ndarray:
    names = list(BACK_COLOURS)
    base = np.array(BACK_COLOURS[names[int(rng.integers(len(names)))]], np.float32)
    hsv = cv2.cvtColor(base.reshape(1, 1, 3).astype(np.uint8), cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 0] = (hsv[..., 0] + rng.normal(0, 4)) % 180
    hsv[..., 1:] *= rng.uniform(0.85, 1.1, 2)
    out = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR)
    return out.reshape(3).astype(np.float32)
