"""Drawing located and classified tiles: quads, up ticks and labels on a copy of the image.

`annotate` is shared by `agari detect --annotate`, the photo pipeline and the
webcam view. Colours (BGR): face-up tiles green, face-down magenta, tiles the
classifier called "not a tile" grey; a short tick from each quad's centre
points to the row's up side, and sideways tiles get a thicker outline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from agari.vision.crops import as_bgr
from agari.vision.detection import TileDetection

FACE_UP = (60, 200, 60)
FACE_DOWN = (200, 60, 200)
UNKNOWN = (150, 150, 150)


@dataclass(frozen=True, slots=True)
class DrawStyle:
    """Sizes as fractions of the image's longer side, so drawings scale with the photo."""

    line: float = 0.0016
    font: float = 0.00045
    tick: float = 0.25
    """Length of the up tick as a share of the tile's height."""
    show_confidence: bool = True


def annotate(
    image: np.ndarray,
    detections: Sequence[TileDetection],
    *,
    labels: Sequence[str | None] | None = None,
    style: DrawStyle = DrawStyle(),
) -> np.ndarray:
    """Draw detections on a copy of ``image``.

    Args:
        image: BGR ``uint8 (H, W, 3)`` (grey and BGRA accepted); never modified.
        detections: tiles in the image's pixels.
        labels: optional text per detection (e.g. a role); default: the tile's
            label name and confidence when classified, nothing otherwise.
        style: sizes.

    Returns:
        A new BGR ``uint8 (H, W, 3)`` image.
    """
    out = as_bgr(image).copy()
    side = max(out.shape[:2])
    thick = max(1, int(round(style.line * side)))
    scale = max(0.35, style.font * side)
    for i, d in enumerate(detections):
        colour = _colour(d)
        q = np.round(np.asarray(d.quad, np.float32)).astype(np.int32)
        cv2.polylines(out, [q], True, colour, thick * (2 if d.sideways else 1), cv2.LINE_AA)
        _tick(out, d, colour, thick, style.tick)
        text = labels[i] if labels is not None else _default_label(d, style)
        if text:
            _label(out, text, q, colour, scale, thick)
    return out


def _colour(d: TileDetection) -> tuple[int, int, int]:
    if d.face_down:
        return FACE_DOWN
    if d.label is None and d.confidence > 0:
        return UNKNOWN
    return FACE_UP


def _default_label(d: TileDetection, style: DrawStyle) -> str:
    name = d.label_name
    if name is None:
        return ""
    return f"{name} {d.confidence:.2f}" if style.show_confidence else name


def _tick(out: np.ndarray, d: TileDetection, colour: tuple[int, int, int], thick: int,
          frac: float) -> None:
    q = np.asarray(d.quad, np.float32)
    height = float(np.linalg.norm((q[0] + q[1]) / 2 - (q[3] + q[2]) / 2))
    c = np.asarray(d.centre, np.float32)
    up = np.asarray(d.up, np.float32)
    tip = c + up * height * frac
    cv2.line(out, tuple(np.round(c).astype(int)), tuple(np.round(tip).astype(int)), colour,
             thick, cv2.LINE_AA)


def _label(out: np.ndarray, text: str, q: np.ndarray, colour: tuple[int, int, int],
           scale: float, thick: int) -> None:
    x, y = int(q[:, 0].min()), int(q[:, 1].min())
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    y = max(th + base, y - 2)
    cv2.rectangle(out, (x, y - th - base), (x + tw, y), (0, 0, 0), -1)
    cv2.putText(out, text, (x, y - base), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick,
                cv2.LINE_AA)
