"""Ground truth of one image: frozen values every reader, writer and renderer shares.

A `TileAnnotation` is one tile as a labeller (or the renderer) knows it: its
quad, label, whether it lies face down or sideways, its role in the hand and,
when known, how its face art is turned. An `ImageAnnotation` holds one image's
size, its tiles and, for a rendered or hand-labelled scene, the hand.

Geometry follows `agari.vision.detection.TileDetection` exactly: a quad is four
``(x, y)`` image points in pixels, TL, TR, BR, BL in the row's upright frame
(top = the far side of the row as its player reads it). A sideways tile's long
side runs TL → TR. Points may lie outside the image when a tile is cut by the
frame; `ImageAnnotation.clipped_box` gives the part inside.

>>> t = TileAnnotation(quad=((0, 0), (30, 0), (30, 40), (0, 40)), label="0m", role="concealed")
>>> t.tile, t.box
(Tile('0m'), (0.0, 0.0, 30.0, 40.0))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Literal

from agari.engine.errors import InvalidInput
from agari.engine.tiles import BACK, CLASS_NAMES, Tile, parse_tiles
from agari.vision.detection import TileDetection

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]

Role = Literal["concealed", "win", "meld", "dora", "ura", "other"]
ROLES: tuple[str, ...] = ("concealed", "win", "meld", "dora", "ura", "other")
"""Where a tile sits in a shown hand: 手牌, 和了牌, 副露 (with a group index), ドラ表示牌,
裏ドラ表示牌, or anything else on the table (walls, ponds, loose tiles)."""

ROTATIONS = (0, 90, 180, 270)
"""Face-art turns, degrees counter-clockwise in the row's upright frame.

0: the art reads upright; 90: its top points left (the usual called tile);
180: upside down; 270: its top points right.
"""


def _bad(message: str) -> InvalidInput:
    return InvalidInput(message, code="bad_annotation")


def as_quad(points: object) -> Quad:
    """Four ``(x, y)`` points as a tuple of float pairs.

    Raises:
        InvalidInput: not four finite 2-D points.
    """
    try:
        pts = [(float(p[0]), float(p[1])) for p in points]  # type: ignore[index,union-attr]
        ok = len(pts) == 4 and all(len(p) == 2 for p in points)  # type: ignore[arg-type]
    except (TypeError, ValueError, IndexError):
        raise _bad(f"quad must be 4 (x, y) points, got {points!r}") from None
    if not ok:
        raise _bad(f"quad must be 4 (x, y) points, got {points!r}")
    if not all(math.isfinite(c) for p in pts for c in p):
        raise _bad(f"quad has a non-finite coordinate: {pts!r}")
    return (pts[0], pts[1], pts[2], pts[3])


def box_quad(x: float, y: float, w: float, h: float) -> Quad:
    """The quad of an axis-aligned box ``(x, y, w, h)``: TL, TR, BR, BL in image axes."""
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


@dataclass(frozen=True, slots=True)
class TileAnnotation:
    """One tile's ground truth.

    Attributes:
        quad: TL, TR, BR, BL image points in the row's upright frame (see module doc).
        label: a name from `agari.engine.tiles.CLASS_NAMES`: ``"5m"``, ``"0m"``, ``"back"``...
        face_down: the back shows; then ``label`` is ``"back"``.
        sideways: the long side runs along the row (a called tile, 横向き).
        role: one of `ROLES`.
        group: which meld (0 = first called meld from the left) for role ``"meld"``, else None.
        rotation: face-art turn in `ROTATIONS`, or None when unknown (box-only datasets).
        visible: fraction of the tile's face (or back) inside the image and not covered.
        score: a model's confidence for a prediction, None for ground truth.
    """

    quad: Quad
    label: str
    face_down: bool = False
    sideways: bool = False
    role: str = "other"
    group: int | None = None
    rotation: int | None = None
    visible: float = 1.0
    score: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "quad", as_quad(self.quad))
        if self.label not in CLASS_NAMES:
            raise _bad(f"label must be one of CLASS_NAMES, got {self.label!r}")
        if self.face_down != (self.label == BACK):
            raise _bad(f"face_down={self.face_down} contradicts label {self.label!r}")
        if self.role not in ROLES:
            raise _bad(f"role must be one of {ROLES}, got {self.role!r}")
        if (self.group is not None) != (self.role == "meld"):
            raise _bad(f"group is set exactly for melds, got role {self.role!r} "
                       f"group {self.group!r}")
        if self.group is not None and (not isinstance(self.group, int) or self.group < 0):
            raise _bad(f"group must be a meld index >= 0, got {self.group!r}")
        if self.rotation is not None and self.rotation not in ROTATIONS:
            raise _bad(f"rotation must be one of {ROTATIONS} or None, got {self.rotation!r}")
        if not 0.0 <= self.visible <= 1.0:
            raise _bad(f"visible must be in [0, 1], got {self.visible}")
        if self.score is not None and not 0.0 <= self.score <= 1.0:
            raise _bad(f"score must be in [0, 1], got {self.score}")

    @property
    def tile(self) -> Tile | None:
        """The `Tile` shown, or None for ``back`` / ``none``."""
        return Tile.parse(self.label) if self.label in CLASS_NAMES[:37] else None

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Axis-aligned ``(x, y, w, h)`` around the quad (may reach outside the image)."""
        xs = [p[0] for p in self.quad]
        ys = [p[1] for p in self.quad]
        return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

    @property
    def centre(self) -> Point:
        return (sum(p[0] for p in self.quad) / 4.0, sum(p[1] for p in self.quad) / 4.0)

    def to_detection(self) -> TileDetection:
        """This tile as the pipeline's `TileDetection` (confidence = score, or 1 for truth)."""
        label = self.tile if self.tile is not None else (BACK if self.face_down else None)
        conf = 1.0 if self.score is None else self.score
        return TileDetection(
            quad=self.quad, sideways=self.sideways, face_down=self.face_down,
            label=label, confidence=conf if label is not None else 0.0,
        )

    @classmethod
    def from_detection(cls, det: TileDetection, *, role: str = "other",
                       group: int | None = None) -> TileAnnotation:
        """A prediction from a classified detection (unlabelled ones become ``none``)."""
        name = det.label_name or "none"
        return cls(
            quad=det.quad, label=name, face_down=name == BACK, sideways=det.sideways,
            role=role, group=group, score=float(det.confidence),
        )

    def moved(self, matrix: tuple[tuple[float, ...], ...]) -> TileAnnotation:
        """A copy with the quad mapped by a 2x3 affine or 3x3 projective matrix."""
        out = []
        for x, y in self.quad:
            row = [m[0] * x + m[1] * y + m[2] for m in matrix]
            w = row[2] if len(row) == 3 else 1.0
            out.append((row[0] / w, row[1] / w))
        return replace(self, quad=as_quad(out))


@dataclass(frozen=True, slots=True)
class ImageAnnotation:
    """Everything known about one image.

    Attributes:
        image: the image's file name or path relative to its dataset root.
        width, height: image size in pixels.
        tiles: tile annotations in a stable order (the renderer: left to right per row).
        hand: the shown hand as a HAND string ``agari score`` accepts, when known.
        win: the winning tile's name, when known.
        meta: free ``(key, value)`` text pairs (scene kind, tile set, source).
    """

    image: str
    width: int
    height: int
    tiles: tuple[TileAnnotation, ...] = ()
    hand: str | None = None
    win: str | None = None
    meta: tuple[tuple[str, str], ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.image:
            raise _bad("image name is empty")
        if not (isinstance(self.width, int) and isinstance(self.height, int)):
            raise _bad(f"image size must be integers, got {self.width!r}x{self.height!r}")
        if self.width <= 0 or self.height <= 0:
            raise _bad(f"image size must be positive, got {self.width}x{self.height}")
        object.__setattr__(self, "tiles", tuple(self.tiles))
        if not all(isinstance(t, TileAnnotation) for t in self.tiles):
            raise _bad("tiles must be TileAnnotation values")
        if self.hand is not None:
            _check_hand(self.hand)
        if self.win is not None and self.win not in CLASS_NAMES[:37]:
            raise _bad(f"win must be a tile name, got {self.win!r}")
        object.__setattr__(self, "meta", tuple((str(k), str(v)) for k, v in self.meta))

    def clipped_box(self, tile: TileAnnotation) -> tuple[float, float, float, float] | None:
        """``tile``'s box clipped to the image, or None when nothing of it is inside."""
        x, y, w, h = tile.box
        x0, y0 = max(0.0, x), max(0.0, y)
        x1, y1 = min(float(self.width), x + w), min(float(self.height), y + h)
        return (x0, y0, x1 - x0, y1 - y0) if x1 > x0 and y1 > y0 else None

    def visible_tiles(self, min_visible: float = 0.0) -> tuple[TileAnnotation, ...]:
        """Tiles at least ``min_visible`` visible that overlap the image."""
        return tuple(t for t in self.tiles
                     if t.visible >= min_visible and self.clipped_box(t) is not None)

    def meta_value(self, key: str, default: str | None = None) -> str | None:
        return dict(self.meta).get(key, default)

    def detections(self) -> list[TileDetection]:
        """The tiles as `TileDetection` values (for checking a locator or classifier)."""
        return [t.to_detection() for t in self.tiles]


def _check_hand(hand: str) -> None:
    """Light syntax check of a HAND string: groups of MPSZ tiles, closed kans in brackets."""
    groups = hand.split()
    if not groups:
        raise _bad("hand is empty")
    for g in groups:
        body = g[1:-1] if g.startswith("[") and g.endswith("]") else g
        try:
            parse_tiles(body)
        except InvalidInput as err:
            raise _bad(f"bad hand {hand!r}: {err}") from None


# -- plain-dict form (journals, COCO/Label Studio extras, CSV) ------------------
TILE_FIELDS = ("face_down", "sideways", "role", "group", "rotation", "visible", "score")
"""Per-tile fields beyond quad and label, as the plain-dict form spells them."""


def tile_to_dict(tile: TileAnnotation) -> dict:
    """JSON-ready dict of one tile (quad rounded to 0.01 px)."""
    out: dict = {"label": tile.label,
                 "quad": [[round(x, 2), round(y, 2)] for x, y in tile.quad]}
    out.update({f: getattr(tile, f) for f in TILE_FIELDS})
    return out


def tile_from_dict(data: dict) -> TileAnnotation:
    """Inverse of `tile_to_dict`; missing optional fields take their defaults.

    Raises:
        InvalidInput: a missing quad/label or an invalid value.
    """
    if not isinstance(data, dict) or "quad" not in data or "label" not in data:
        raise _bad(f"a tile needs 'quad' and 'label', got {data!r}")
    extra = {f: data[f] for f in TILE_FIELDS if data.get(f) is not None}
    return TileAnnotation(quad=as_quad(data["quad"]), label=str(data["label"]), **extra)


def image_to_dict(ann: ImageAnnotation) -> dict:
    """JSON-ready dict of one image's annotation."""
    return {"image": ann.image, "width": ann.width, "height": ann.height,
            "hand": ann.hand, "win": ann.win, "meta": [list(kv) for kv in ann.meta],
            "tiles": [tile_to_dict(t) for t in ann.tiles]}


def image_from_dict(data: dict) -> ImageAnnotation:
    """Inverse of `image_to_dict`.

    Raises:
        InvalidInput: missing keys or invalid values.
    """
    try:
        return ImageAnnotation(
            image=str(data["image"]), width=int(data["width"]), height=int(data["height"]),
            tiles=tuple(tile_from_dict(t) for t in data.get("tiles") or ()),
            hand=data.get("hand"), win=data.get("win"),
            meta=tuple(tuple(kv) for kv in data.get("meta") or ()),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise _bad(f"bad image annotation record: {err}") from None
