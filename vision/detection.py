"""`TileDetection`: one tile found in an image, the value passed between stages.

The locator fills the geometry (quad, sideways, face-down candidate); the
classifier stage returns copies with ``label``, ``confidence`` and
``alternatives`` set (``dataclasses.replace``). Coordinates are always in the
original image's pixels.

Quad order is the tile's corners in the row's upright frame: top-left,
top-right, bottom-right, bottom-left, where "top" is the far side of the row
as a player reads it. For a sideways (called) tile the quad still follows the
row's frame, so its long side runs top-left → top-right.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from agari.engine.errors import InvalidInput
from agari.engine.tiles import BACK, TILE_NAMES, Tile

Point = tuple[float, float]
Label = Tile | Literal["back"] | None
Quad = tuple[Point, Point, Point, Point]


def as_quad(points: Iterable[Sequence[float]]) -> Quad:
    """Four (x, y) points (an array ``(4, 2)`` or any pairs) as plain floats, the form
    `TileDetection.quad` holds."""
    if isinstance(points, np.ndarray) and points.dtype.kind == "f" and points.ndim == 2 \
            and points.shape[1] == 2:
        # The same Python floats as ``float`` of each element, a third of the time (a photo
        # makes ~4 000 quads: row completion's steps, re-framing's variants, plates).
        return tuple(map(tuple, points.tolist()))  # type: ignore[return-value]
    return tuple((float(x), float(y)) for x, y in points)  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class TileDetection:
    """A located (and possibly classified) tile.

    Attributes:
        quad: four (x, y) image points, TL, TR, BR, BL in the row's upright frame.
        sideways: the tile lies with its long side along the row (a called tile).
        face_down: the locator or classifier believes the back is showing.
        label: a `Tile`, ``"back"``, or None (not classified, or not a tile).
        confidence: probability of ``label`` (0 before classification).
        alternatives: top-k ``(class name, probability)``, best first.
    """

    quad: Quad
    sideways: bool = False
    face_down: bool = False
    label: Label = None
    confidence: float = 0.0
    alternatives: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        q = self.quad
        # Unpacked, not looped over: a photo makes hundreds of detections (copies included).
        try:
            (x0, y0), (x1, y1), (x2, y2), (x3, y3) = q
        except (TypeError, ValueError):
            raise InvalidInput(f"quad must be 4 (x, y) points, got {q!r}") from None
        isfinite = math.isfinite
        # A finite sum has finite terms (an inf or nan term makes it inf or nan): one test
        # where the coordinates are sane, each tested only where the sum is not (a nan or
        # inf among them, or finite ones summing past float's range). A photo makes
        # thousands of detections; this took half the time of testing each.
        if not isfinite(float(x0) + float(y0) + float(x1) + float(y1) + float(x2)
                        + float(y2) + float(x3) + float(y3)) and not (
                isfinite(float(x0)) and isfinite(float(y0)) and isfinite(float(x1))
                and isfinite(float(y1)) and isfinite(float(x2)) and isfinite(float(y2))
                and isfinite(float(x3)) and isfinite(float(y3))):
            raise InvalidInput(f"quad has a non-finite coordinate: {q!r}")
        if not 0.0 <= self.confidence <= 1.0:
            raise InvalidInput(f"confidence must be in [0, 1], got {self.confidence}")
        if self.label is not None and not isinstance(self.label, Tile) and self.label != BACK:
            raise InvalidInput(f"label must be a Tile, 'back' or None, got {self.label!r}")

    @property
    def label_name(self) -> str | None:
        """``"5m"``, ``"0m"``, ``"back"`` or None: the label as JSON writes it."""
        return str(self.label) if isinstance(self.label, Tile) else self.label

    @property
    def centre(self) -> Point:
        xs, ys = zip(*self.quad, strict=True)
        return (sum(xs) / 4.0, sum(ys) / 4.0)

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Axis-aligned ``(x, y, w, h)`` around the quad."""
        xs, ys = zip(*self.quad, strict=True)
        return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

    @property
    def up(self) -> Point:
        """Unit vector from the bottom edge's midpoint to the top edge's: the row's up."""
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = self.quad
        dx, dy = (x0 + x1 - x2 - x3) / 2.0, (y0 + y1 - y2 - y3) / 2.0
        n = math.hypot(dx, dy) or 1.0
        return (dx / n, dy / n)

    @property
    def angle(self) -> float:
        """Direction of the row (TL → TR edge) in degrees, image x axis = 0, y down."""
        (x0, y0), (x1, y1) = self.quad[0], self.quad[1]
        return math.degrees(math.atan2(y1 - y0, x1 - x0))

    def to_json(self) -> dict:
        """The ``tiles[]`` entry of the detect/photo JSON contract."""
        x, y, w, h = self.box
        return {
            "tile": self.label_name,
            "confidence": round(float(self.confidence), 4),
            "quad": [[round(float(px), 1), round(float(py), 1)] for px, py in self.quad],
            "box": [round(x, 1), round(y, 1), round(w, 1), round(h, 1)],
            "sideways": bool(self.sideways),
            "face_down": bool(self.face_down),
            "top": [[name, round(float(p), 4)] for name, p in self.alternatives],
        }


def label_of(name: str | None) -> Label:
    """The `TileDetection.label` for a class name (``none`` and unknown names give None)."""
    if name in TILE_NAMES:
        return Tile.parse(name)
    if name == BACK:
        return BACK
    return None


Classify = Callable[[np.ndarray, Sequence[TileDetection]], Sequence[TileDetection]]
"""Labels detections in a BGR image ``(image, detections) -> detections`` with label,
confidence and alternatives set (e.g. `TileClassifier.classify_detections`, top_k bound)."""
