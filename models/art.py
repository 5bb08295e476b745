"""Tile face art for synthetic training crops, recoloured like different physical sets.

The faces are the CC0 riichi art shipped in the PyPI package ``pymdownx-mahjong``
(``assets/light/*.svg``, one file per face ``1m``…``7z``, ``0m 0p 0s``), so a
user can retrain without ``../shared``. Each SVG fill colour belongs to an ink
family; a `Palette` swaps every family for a colour drawn from that family's
range, imitating sets whose black, green or blue inks differ. Red stays red
(hue kept within `RED_HUES`): red fives differ from plain fives only by colour.

Rendering uses ``resvg-py``; glyphs come back as RGBA ``uint8`` arrays.
"""

from __future__ import annotations

import colorsys
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources

import cv2
import numpy as np
from agari.engine.errors import ModelError
from agari.engine.tiles import TILE_NAMES

INK_FAMILIES: dict[str, str] = {
    "#000": "dark", "#000000": "dark", "#000037": "dark", "#142896": "blue",
    "#004900": "green", "#006300": "green",
    "#b93c3c": "red", "#d71e1e": "red", "#f0a023": "red",
    "#fff": "face", "#ffffff": "face",
}
"""Original SVG fill colour → ink family. ``face`` marks fills that show the tile face."""

RED_HUES = (-0.03, 0.03)
"""Hue range (0..1 turn) a red ink may take: crimson to vermilion, never orange or pink."""

_COLOUR = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b")


@dataclass(frozen=True, slots=True)
class Palette:
    """One recolouring: an RGB hex colour for each ink family."""

    dark: str
    blue: str
    green: str
    red: str
    face: str

    @classmethod
    def original(cls) -> Palette:
        return cls(dark="#000000", blue="#142896", green="#004900", red="#b93c3c", face="#ffffff")


def _hex(h: float, s: float, v: float) -> str:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, min(max(s, 0.0), 1.0), min(max(v, 0.0), 1.0))
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def random_palette(rng: np.random.Generator, face: str = "#ffffff") -> Palette:
    """A plausible set of inks: dark navy-to-black, blues, greens (some teal), reds.

    ``dark`` sometimes turns blue or green, as on sets whose numerals are blue.
    """
    dark_kind = rng.choice(["black", "navy", "blue", "green"], p=[0.55, 0.25, 0.12, 0.08])
    dark = {
        "black": _hex(rng.uniform(0, 1), rng.uniform(0, 0.4), rng.uniform(0.0, 0.22)),
        "navy": _hex(rng.uniform(0.58, 0.70), rng.uniform(0.5, 1.0), rng.uniform(0.15, 0.4)),
        "blue": _hex(rng.uniform(0.55, 0.68), rng.uniform(0.6, 1.0), rng.uniform(0.35, 0.75)),
        "green": _hex(rng.uniform(0.30, 0.45), rng.uniform(0.6, 1.0), rng.uniform(0.2, 0.5)),
    }[dark_kind]
    if rng.random() < 0.3:  # honours and 1p rims printed black/navy on many sets
        blue = _hex(rng.uniform(0.55, 0.70), rng.uniform(0.0, 0.8), rng.uniform(0.05, 0.3))
    else:
        blue = _hex(rng.uniform(0.52, 0.72), rng.uniform(0.5, 1.0), rng.uniform(0.25, 0.8))
    green = _hex(rng.uniform(0.25, 0.50), rng.uniform(0.5, 1.0), rng.uniform(0.2, 0.65))
    red = _hex(rng.uniform(*RED_HUES), rng.uniform(0.65, 1.0), rng.uniform(0.55, 0.95))
    return Palette(dark=dark, blue=blue, green=green, red=red, face=face)


@lru_cache(maxsize=1)
def face_svgs() -> dict[str, str]:
    """The SVG text of every face in `TILE_NAMES`, from ``pymdownx-mahjong``.

    Raises:
        ModelError: the package or one of its faces is missing.
    """
    try:
        root = resources.files("pymdownx_mahjong").joinpath("assets", "light")
        return {name: root.joinpath(f"{name}.svg").read_text(encoding="utf-8")
                for name in TILE_NAMES}
    except (ModuleNotFoundError, FileNotFoundError, OSError) as exc:
        raise ModelError(f"tile art from pymdownx-mahjong is unavailable: {exc}") from exc


def recolour(svg: str, palette: Palette) -> str:
    """``svg`` with each known fill colour replaced by its family's colour in ``palette``."""

    def swap(m: re.Match[str]) -> str:
        family = INK_FAMILIES.get(m.group(0).lower())
        return getattr(palette, family) if family else m.group(0)

    return _COLOUR.sub(swap, svg)


def render_svg(svg: str, size: tuple[int, int]) -> np.ndarray:
    """Rasterise an SVG to BGRA ``uint8 (height, width, 4)``, straight (not premultiplied)."""
    import resvg_py

    h, w = size
    png = resvg_py.svg_to_bytes(svg_string=svg, width=w, height=h)
    img = cv2.imdecode(np.frombuffer(bytes(png), np.uint8), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        # An empty face (haku) may come back smaller or without alpha: it is all clear.
        return np.zeros((h, w, 4), np.uint8)
    if img.shape[:2] != (h, w):
        img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
    return img


def render_face(name: str, palette: Palette, size: tuple[int, int]) -> np.ndarray:
    """One face's glyphs (no tile body), recoloured: BGRA ``uint8 (h, w, 4)``."""
    return render_svg(recolour(face_svgs()[name], palette), size)


@dataclass(frozen=True, slots=True)
class Glyph:
    """A face's glyphs, separable from the tile body colour.

    A pixel of the face is ``body * (1 - alpha) + ink + face * body``: ``ink`` is
    the premultiplied ink colour, ``face`` the weight of fills that show the
    tile's own face colour (the white inside a circle). All ``uint8 (h, w[, 3])``
    with 255 = 1.
    """

    ink: np.ndarray
    alpha: np.ndarray
    face: np.ndarray

    def on(self, body: np.ndarray) -> np.ndarray:
        """Composite onto a body image ``float32 (h, w, 3)`` in 0..255; returns float32."""
        a = self.alpha[..., None].astype(np.float32) * (1 / 255)
        f = self.face[..., None].astype(np.float32) * (1 / 255)
        return body * (1 - a + f) + self.ink.astype(np.float32)


def render_glyph(name: str, palette: Palette, size: tuple[int, int]) -> Glyph:
    """`Glyph` of one face: rendered twice (face fills white, then black) to separate them."""
    light = render_face(name, replace(palette, face="#ffffff"), size).astype(np.float32)
    dark = render_face(name, replace(palette, face="#000000"), size).astype(np.float32)
    alpha = dark[..., 3:] * (1 / 255)
    ink = dark[..., :3] * alpha
    face = ((light[..., :3] * alpha - ink).mean(axis=2)).clip(0, 255)
    return Glyph(
        ink=ink.round().astype(np.uint8),
        alpha=dark[..., 3].astype(np.uint8),
        face=face.round().astype(np.uint8),
    )


def glyph_pool(
    rng: np.random.Generator, *, variants: int, size: tuple[int, int]
) -> dict[str, list[Glyph]]:
    """``variants`` recolourings of every face (the first one the original inks)."""
    pool: dict[str, list[Glyph]] = {name: [] for name in TILE_NAMES}
    for i in range(variants):
        palette = Palette.original() if i == 0 else random_palette(rng)
        for name in TILE_NAMES:
            pool[name].append(render_glyph(name, palette, size))
    return pool
