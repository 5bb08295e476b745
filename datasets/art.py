"""Tile face art: find it, rasterise it once, split it into ink layers, keep a pyramid.

Art is a folder of face images, one per tile (SVG or PNG, transparent outside
the ink), named as we name tiles (``5m.svg``, ``0p.svg``) or as the CC0
riichi-mahjong-tiles set does (``Man5.svg``, ``Pin5-Dora.svg``, ``Ton.svg``).
A folder whose sub-folders hold faces (``assets/light`` + ``assets/dark``,
``Regular`` + ``Black``) gives one `ArtSet` per sub-folder. The default is
the art shipped by the PyPI package ``pymdownx-mahjong``, so anyone can render
without our development data.

Each face is split by colour into `INK_LAYERS` alpha masks, so that a set
style (`agari.datasets.tileface`) can recolour every ink family and thicken or
thin strokes without touching the SVG. Rasters are cached on disk (keyed by
file, size and mtime) under ``$AGARI_CACHE`` or the user cache folder.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from agari.datasets.names import canonical_label
from agari.engine.errors import InvalidInput
from agari.engine.tiles import TILE_NAMES

INK_LAYERS: tuple[str, ...] = ("dark", "blue", "red", "green", "gold", "light")
"""Ink families a face is split into: black/grey, blue, red, green, orange/yellow, white."""

ART_WIDTH = 240
"""Width of the base raster in pixels (faces are 3:4, so 240x320)."""

MIN_LEVEL_WIDTH = 12
"""The pyramid stops halving below this width."""

_CACHE_VERSION = "1"


@dataclass(frozen=True, eq=False)
class FaceArt:
    """One face's ink layers as a pyramid.

    Attributes:
        name: the tile name (``"5m"``, ``"0p"``...).
        levels: ``uint8`` arrays ``(H_l, W_l, len(INK_LAYERS))``, level 0 is ``ART_WIDTH`` wide,
            each next level half the size.
    """

    name: str
    levels: tuple[np.ndarray, ...]

    @property
    def used(self) -> tuple[int, ...]:
        """Indices of the ink layers this face uses (most faces use two or three)."""
        if not hasattr(self, "_used"):
            totals = self.levels[-1].reshape(-1, len(INK_LAYERS)).sum(axis=0)
            object.__setattr__(self, "_used", tuple(int(k) for k in np.flatnonzero(totals)) or (0,))
        return self._used  # type: ignore[attr-defined]

    def level_for(self, width: float) -> np.ndarray:
        """The smallest level at least ``width`` pixels wide (level 0 if none is)."""
        best = self.levels[0]
        for lv in self.levels:
            if lv.shape[1] >= width:
                best = lv
        return best


@dataclass(frozen=True, eq=False)
class ArtSet:
    """The faces of one art variant.

    Attributes:
        name: the variant's folder name (``light``, ``Regular``...).
        faces: tile name → `FaceArt` for all 37 faces.
        light_ink: the ink is mostly light: art drawn for dark-faced tiles.
    """

    name: str
    faces: dict[str, FaceArt]
    light_ink: bool


def default_art_dir() -> Path:
    """The SVG faces shipped by ``pymdownx-mahjong`` (``assets/`` with ``light`` and ``dark``).

    Raises:
        InvalidInput: the package is not installed.
    """
    try:
        import pymdownx_mahjong
    except ImportError:
        raise InvalidInput("no tile art: install pymdownx-mahjong or pass an art folder",
                           code="no_art") from None
    return Path(pymdownx_mahjong.__file__).parent / "assets"


def _face_files(folder: Path) -> dict[str, Path]:
    """Tile name → file for every recognisable face in ``folder`` (SVG preferred)."""
    found: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in (".svg", ".png") or not path.is_file():
            continue
        try:
            name = canonical_label(path.stem)
        except InvalidInput:
            continue
        if name in TILE_NAMES and (name not in found or path.suffix.lower() == ".svg"):
            found[name] = path
    return found


def find_art_folders(root: Path) -> list[Path]:
    """Folders under ``root`` (itself or up to two levels down) holding all 37 faces.

    A PNG-only folder is skipped when an SVG folder of the same name was found
    (the CC0 set's ``Export/`` duplicates its SVGs).
    """
    root = Path(root)
    if not root.is_dir():
        raise InvalidInput(f"art folder not found: {root}", code="no_art")
    candidates = [root, *sorted(p for p in root.iterdir() if p.is_dir())]
    candidates += [q for p in candidates[1:] for q in sorted(p.iterdir()) if q.is_dir()]
    full = [p for p in candidates if len(_face_files(p)) == len(TILE_NAMES)]
    svg_names = {p.name for p in full if any(f.suffix == ".svg" for f in _face_files(p).values())}
    return [p for p in full if p.name not in svg_names
            or any(f.suffix == ".svg" for f in _face_files(p).values())]


def load_art(root: Path | None = None, *, width: int = ART_WIDTH) -> tuple[ArtSet, ...]:
    """Every art variant under ``root`` (default: `default_art_dir`), rasterised and split.

    Raises:
        InvalidInput: no folder with all 37 faces, or a face that cannot be rasterised.
    """
    root = Path(root) if root is not None else default_art_dir()
    return _load_art(str(root.resolve()), int(width))


@lru_cache(maxsize=4)
def _load_art(root: str, width: int) -> tuple[ArtSet, ...]:
    folders = find_art_folders(Path(root))
    if not folders:
        raise InvalidInput(f"no folder with all {len(TILE_NAMES)} tile faces under {root}",
                           code="no_art")
    sets = []
    for folder in folders:
        faces = {name: FaceArt(name, _pyramid(_layers(path, width)))
                 for name, path in _face_files(folder).items()}
        sets.append(ArtSet(folder.name, faces, _is_light_ink(faces)))
    return tuple(sets)


def art_sets(folders: tuple[Path, ...] | list[Path] = ()) -> tuple[ArtSet, ...]:
    """The art variants of several folders together (none given: `default_art_dir`)."""
    if not folders:
        return load_art()
    return tuple(s for folder in folders for s in load_art(folder))


def _pyramid(base: np.ndarray) -> tuple[np.ndarray, ...]:
    levels = [base]
    while levels[-1].shape[1] // 2 >= MIN_LEVEL_WIDTH:
        h, w = levels[-1].shape[:2]
        levels.append(cv2.resize(levels[-1], (w // 2, h // 2), interpolation=cv2.INTER_AREA))
    return tuple(levels)


def _is_light_ink(faces: dict[str, FaceArt]) -> bool:
    totals = sum(f.levels[-1].reshape(-1, len(INK_LAYERS)).sum(axis=0, dtype=np.int64)
                 for f in faces.values())
    return bool(totals[INK_LAYERS.index("light")] > totals[INK_LAYERS.index("dark")])


# -- rasterising and splitting -------------------------------------------------------
def _cache_dir() -> Path:
    env = os.environ.get("AGARI_CACHE")
    if env:
        return Path(env) / "art"
    from platformdirs import user_cache_path

    return user_cache_path("agari", appauthor=False) / "art"


def _layers(path: Path, width: int) -> np.ndarray:
    """``(H, W, len(INK_LAYERS))`` uint8 ink layers of one face file, via the disk cache."""
    stat = path.stat()
    key = hashlib.sha1(
        f"{_CACHE_VERSION}|{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{width}".encode()
    ).hexdigest()[:20]
    cached = _cache_dir() / f"{key}.npy"
    if cached.exists():
        try:
            return np.load(cached)
        except (OSError, ValueError):
            pass  # a torn cache file: rebuild it
    layers = split_inks(rasterise(path, width))
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp.npy")
        np.save(tmp, layers)
        os.replace(tmp, cached)
    except OSError:
        pass  # a read-only cache only costs time
    return layers


def rasterise(path: Path, width: int = ART_WIDTH) -> np.ndarray:
    """BGRA ``uint8 (width*4/3, width, 4)`` raster of a face file (SVG via resvg, or PNG).

    Raises:
        InvalidInput: the file cannot be rasterised.
    """
    height = round(width * 4 / 3)
    if path.suffix.lower() == ".svg":
        import resvg_py

        try:
            png = bytes(resvg_py.svg_to_bytes(svg_path=str(path), width=width, height=height))
        except Exception as err:  # noqa: BLE001 - resvg raises plain exceptions
            raise InvalidInput(f"cannot rasterise {path}: {err}", code="no_art") from None
        img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    else:
        img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        raise InvalidInput(f"face art must be an SVG or an RGBA PNG: {path}", code="no_art")
    if img.shape[:2] != (height, width):
        img = cv2.resize(img, (width, height), interpolation=cv2.INTER_AREA)
    return img


def split_inks(bgra: np.ndarray) -> np.ndarray:
    """Split a BGRA face into `INK_LAYERS` alpha masks by each pixel's colour.

    Chromatic pixels go by hue (red, gold, green, blue); the rest by value
    (dark or light). Returns ``uint8 (H, W, len(INK_LAYERS))``; the layers sum to the alpha.
    """
    hsv = cv2.cvtColor(np.ascontiguousarray(bgra[..., :3]), cv2.COLOR_BGR2HSV_FULL)
    hue = hsv[..., 0].astype(np.int32) * 360 // 256
    sat, val = hsv[..., 1] / 255.0, hsv[..., 2] / 255.0
    chroma = sat * val
    chromatic = (chroma > 0.15) & (sat > 0.45)
    cls = np.where(val > 0.6, INK_LAYERS.index("light"), INK_LAYERS.index("dark"))
    by_hue = np.select(
        [(hue < 18) | (hue >= 300), hue < 70, hue < 170],
        [INK_LAYERS.index("red"), INK_LAYERS.index("gold"), INK_LAYERS.index("green")],
        INK_LAYERS.index("blue"))
    cls = np.where(chromatic, by_hue, cls)
    out = np.zeros((*bgra.shape[:2], len(INK_LAYERS)), np.uint8)
    alpha = bgra[..., 3]
    for k in range(len(INK_LAYERS)):
        out[..., k] = np.where(cls == k, alpha, 0)
    return out
