"""Drawing synthetic tiles and tables for classifier training crops.

A tile is drawn as a sprite: a rounded face (ivory-to-white, bevelled, with the
recoloured glyphs of `agari.models.art`) above a band showing the tile's near
side (face layer, then the coloured back layer), or a coloured back for a
face-down tile. Tables are flat felt, wood grain, gradients or patches of real
photos. Everything is float32 BGR in 0..255 until the crop is cut.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from agari.models.art import Glyph


@dataclass(frozen=True, slots=True)
class TileStyle:
    """How one physical set looks: face and back colours, shape, side band."""

    face: tuple[float, float, float]
    back: tuple[float, float, float]
    aspect: float          # height / width of the face
    corner: float          # corner radius / width
    bevel: float           # shaded rim width / width
    bevel_dark: float      # how much the rim darkens (0..1)
    side: float            # visible near side / face height
    side_face_part: float  # share of the side band in face colour
    glyph_fill: float      # glyph box / inner face
    stroke: int            # -1 thinner, 0, +1 thicker strokes
    elastic: float = 0.0   # smooth glyph distortion, fraction of the glyph size (font-like)


def _bgr_from_hsv(h: float, s: float, v: float) -> tuple[float, float, float]:
    px = np.uint8([[[round(h * 179) % 180, round(s * 255), round(v * 255)]]])
    b, g, r = cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0]
    return (float(b), float(g), float(r))


def random_back_colour(rng: np.random.Generator) -> tuple[float, float, float]:
    """A back colour: saturated (yellow, orange, green, blue, red, purple) or near-black."""
    if rng.random() < 0.15:
        return _bgr_from_hsv(rng.random(), rng.uniform(0, 0.6), rng.uniform(0.05, 0.3))
    # Saturated enough never to pass for an ivory face (a blank haku).
    return _bgr_from_hsv(rng.random(), rng.uniform(0.5, 1.0), rng.uniform(0.3, 0.95))


def random_face_colour(rng: np.random.Generator) -> tuple[float, float, float]:
    """Ivory, cream, bone or white: hue yellow-orange, low saturation, bright."""
    return _bgr_from_hsv(rng.uniform(0.06, 0.17), rng.uniform(0.0, 0.2), rng.uniform(0.78, 1.0))


def random_style(rng: np.random.Generator) -> TileStyle:
    """A random physical set."""
    return TileStyle(
        face=random_face_colour(rng),
        back=random_back_colour(rng),
        aspect=float(rng.uniform(1.22, 1.45)),
        corner=float(rng.uniform(0.04, 0.16)),
        bevel=float(rng.uniform(0.02, 0.09)),
        bevel_dark=float(rng.uniform(0.0, 0.3)),
        side=float(rng.choice([0.0, rng.uniform(0.02, 0.3)], p=[0.3, 0.7])),
        side_face_part=float(rng.uniform(0.3, 0.8)),
        glyph_fill=float(rng.uniform(0.78, 0.98)),
        stroke=int(rng.choice([-1, 0, 0, 1])),
        elastic=float(rng.uniform(0.0, 0.035)) if rng.random() < 0.7 else 0.0,
    )


def _elastic(glyph: Glyph, amount: float, rng: np.random.Generator) -> Glyph:
    """The glyph bent by a smooth random field: brush and font differences between sets."""
    gh, gw = glyph.alpha.shape
    grid = rng.normal(0, amount * max(gh, gw), (2, 4, 3)).astype(np.float32)
    dx = cv2.resize(grid[0], (gw, gh), interpolation=cv2.INTER_CUBIC)
    dy = cv2.resize(grid[1], (gw, gh), interpolation=cv2.INTER_CUBIC)
    xs, ys = np.meshgrid(np.arange(gw, dtype=np.float32), np.arange(gh, dtype=np.float32))
    mx, my = xs + dx, ys + dy

    def bend(x: np.ndarray) -> np.ndarray:
        return cv2.remap(x, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)

    return Glyph(ink=bend(glyph.ink), alpha=bend(glyph.alpha), face=bend(glyph.face))


def rounded_mask(h: int, w: int, radius: float) -> np.ndarray:
    """Anti-aliased rounded-rectangle coverage, float32 ``(h, w)`` in 0..1 (cached; do not
    modify the result)."""
    return _rounded_mask(h, w, round(radius))


@lru_cache(maxsize=4096)
def _rounded_mask(h: int, w: int, radius: int) -> np.ndarray:
    scale = 4  # draw large, shrink: smooth edges without a fill routine per pixel
    r = max(0, radius * scale)
    big = np.zeros((h * scale, w * scale), np.uint8)
    x1, y1 = w * scale - 1, h * scale - 1
    cv2.rectangle(big, (r, 0), (x1 - r, y1), 255, -1)
    cv2.rectangle(big, (0, r), (x1, y1 - r), 255, -1)
    for cx, cy in ((r, r), (x1 - r, r), (r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(big, (cx, cy), r, 255, -1)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


def _face_plate(h: int, w: int, style: TileStyle, colour, rng) -> np.ndarray:
    """The face (or back) surface: colour with a darker bevelled rim; float32 (h, w, 3)."""
    plate = np.empty((h, w, 3), np.float32)
    plate[:] = colour
    rim = max(1.0, style.bevel * w)
    inner = rounded_mask(h, w, style.corner * w)
    dist = cv2.distanceTransform((inner > 0.5).astype(np.uint8), cv2.DIST_L2, 3)
    shade = 1.0 - style.bevel_dark * np.clip(1.0 - dist / rim, 0.0, 1.0)
    # A soft light falloff across the face: real tiles are slightly domed and glossy.
    ramp = np.linspace(-1, 1, w, dtype=np.float32)[None, :] * rng.uniform(-0.06, 0.06)
    ramp = ramp + np.linspace(-1, 1, h, dtype=np.float32)[:, None] * rng.uniform(-0.06, 0.06)
    return plate * (shade + ramp)[..., None]


def _place_glyph(plate: np.ndarray, glyph: Glyph, style: TileStyle, rng) -> np.ndarray:
    if style.elastic > 0:
        glyph = _elastic(glyph, style.elastic, rng)
    h, w = plate.shape[:2]
    inset = style.bevel * w + 1
    box_w = (w - 2 * inset) * style.glyph_fill
    box_h = (h - 2 * inset) * style.glyph_fill
    gh, gw = glyph.alpha.shape
    sx = box_w / gw * rng.uniform(0.9, 1.08)
    sy = box_h / gh * rng.uniform(0.9, 1.08)
    cx = w / 2 + rng.normal(0, 0.02 * w)
    cy = h / 2 + rng.normal(0, 0.02 * h)
    rot = np.radians(rng.normal(0, 1.5))
    shear = rng.normal(0, 0.03)
    a = np.array([[np.cos(rot) * sx, -np.sin(rot) * sy + shear * sy],
                  [np.sin(rot) * sx, np.cos(rot) * sy]], np.float32)
    t = np.array([cx, cy], np.float32) - a @ np.array([gw / 2, gh / 2], np.float32)
    m = np.hstack([a, t[:, None]])

    def warp(x: np.ndarray) -> np.ndarray:
        return cv2.warpAffine(x, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=0)

    placed = Glyph(ink=warp(glyph.ink), alpha=warp(glyph.alpha), face=warp(glyph.face))
    out = placed.on(plate)
    if style.stroke:
        kernel = np.ones((2, 2), np.uint8)
        morph = cv2.erode if style.stroke > 0 else cv2.dilate  # inks are darker than faces
        mask = (placed.alpha > 0)[..., None]
        out = np.where(mask, morph(out, kernel), out)
    return out


def draw_tile(
    glyph: Glyph | None, style: TileStyle, width: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, int]:
    """One tile sprite.

    Args:
        glyph: the face's glyphs, or None for a face-down tile (its back shows).
        style: the set's look.
        width: face width in pixels.

    Returns:
        ``(colour float32 (H, W, 3), coverage float32 (H, W), face height)``; the
        face occupies rows ``0..face height`` and the near side band lies below.
    """
    fh = max(8, round(width * style.aspect))
    side_h = round(fh * style.side)
    colour = np.zeros((fh + side_h, width, 3), np.float32)
    cover = np.zeros((fh + side_h, width), np.float32)
    if side_h:
        top, bottom = (style.face, style.back) if glyph is not None else (style.back, style.face)
        # The band shows below the face (rows fh..fh+side_h): the layer next to the face
        # first, then the other one. (Splitting from fh // 2, where the band's mask starts,
        # hid the first layer under the face and drew the whole band in one colour, so a
        # side band cut as a `none` crop was a rounded one-colour block, i.e. a back.)
        split = fh + round(side_h * style.side_face_part)
        band = np.empty_like(colour)
        band[:split] = np.array(top, np.float32) * 0.8  # the side faces away from the light
        band[split:] = np.array(bottom, np.float32) * 0.75
        side_mask = np.zeros_like(cover)
        side_mask[fh // 2:] = rounded_mask(fh + side_h - fh // 2, width, style.corner * width)
        colour, cover = band * side_mask[..., None], side_mask
    surface = style.face if glyph is not None else style.back
    plate = _face_plate(fh, width, style, surface, rng)
    if glyph is not None:
        plate = _place_glyph(plate, glyph, style, rng)
    face_mask = rounded_mask(fh, width, style.corner * width)
    colour[:fh] = colour[:fh] * (1 - face_mask[..., None]) + plate * face_mask[..., None]
    cover[:fh] = np.maximum(cover[:fh], face_mask)
    return colour, cover, fh


def paste(canvas: np.ndarray, sprite: np.ndarray, cover: np.ndarray, x: int, y: int) -> None:
    """Alpha-blend ``sprite`` onto ``canvas`` at top-left ``(x, y)``, clipped, in place."""
    h, w = cover.shape
    ch, cw = canvas.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, cw), min(y + h, ch)
    if x1 <= x0 or y1 <= y0:
        return
    s = (slice(y0 - y, y1 - y), slice(x0 - x, x1 - x))
    a = cover[s][..., None]
    canvas[y0:y1, x0:x1] = canvas[y0:y1, x0:x1] * (1 - a) + sprite[s] * a


def background(
    h: int, w: int, rng: np.random.Generator, photos: list[np.ndarray] | None = None
) -> np.ndarray:
    """A table: felt, wood, gradient, noise blobs or a patch of a real photo; float32 BGR.

    Textures are drawn at a quarter of the size and enlarged: tables are smooth
    at tile scale, and this keeps sample generation cheap.
    """
    kinds = ["felt", "wood", "gradient", "blobs"] + (["photo"] * 2 if photos else [])
    kind = kinds[int(rng.integers(len(kinds)))]
    if kind == "photo":
        src = photos[int(rng.integers(len(photos)))]
        sh, sw = src.shape[:2]
        scale = max(h / sh, w / sw) * rng.uniform(1.0, 2.5)
        big = cv2.resize(src, (max(w, round(sw * scale)), max(h, round(sh * scale))))
        y, x = int(rng.integers(big.shape[0] - h + 1)), int(rng.integers(big.shape[1] - w + 1))
        return big[y:y + h, x:x + w].astype(np.float32)
    sh, sw = h // 4 + 1, w // 4 + 1
    base = np.array(_bgr_from_hsv(rng.random(), rng.uniform(0, 0.9), rng.uniform(0.1, 0.95)))
    img = np.empty((sh, sw, 3), np.float32)
    img[:] = base
    if kind == "wood":
        y = np.arange(sh, dtype=np.float32)[:, None] + np.sin(np.arange(sw)[None, :] / 4.0)
        grain = np.sin(y * rng.uniform(0.8, 3.0) + rng.normal(0, 1, (1, sw)).cumsum(1) * 0.2)
        img *= (1 + 0.12 * grain)[..., None]
    elif kind == "gradient":
        other = np.array(_bgr_from_hsv(rng.random(), rng.uniform(0, 0.9), rng.uniform(0.1, 0.95)))
        t = np.linspace(0, 1, sw, dtype=np.float32)[None, :, None]
        img = img * (1 - t) + other * t + np.zeros((sh, 1, 1), np.float32)
    elif kind == "blobs":
        for _ in range(int(rng.integers(2, 8))):
            colour = _bgr_from_hsv(rng.random(), rng.uniform(0, 1), rng.uniform(0, 1))
            centre = (int(rng.integers(sw)), int(rng.integers(sh)))
            axes = (int(rng.integers(1, sw // 2 + 2)), int(rng.integers(1, sh // 2 + 2)))
            cv2.ellipse(img, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)
    img += rng.normal(0, rng.uniform(1, 10), (sh, sw, 1)).astype(np.float32)
    img = cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(img, 0, 255)
