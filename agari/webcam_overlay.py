"""The webcam overlay: tiles with names and roles, the score panel, the settings and keys.

`draw_overlay` returns a new image and never draws on the frame it is given.
Tiles are drawn by the photo pipeline's annotator (`agari.vision.layout_draw`),
coloured by role once a reading is stable; the score panel appears once a
complete hand has been read and scored; the bottom bar shows the settings the
keys control.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from agari.vision.layout_draw import annotate
from agari.vision.track import TrackFrame

if TYPE_CHECKING:
    from agari.webcam import Reading, TableSettings

FONT = cv2.FONT_HERSHEY_SIMPLEX
PANEL_ALPHA = 0.65
"""Opacity of the dark boxes behind text."""
TEXT = (240, 240, 240)
ACCENT = (0, 215, 255)
DIM = (170, 170, 170)
MAX_YAKU_ROWS = 8


@dataclass(frozen=True, slots=True)
class Overlay:
    """What to draw over one frame.

    Attributes:
        frame: the tracker's view of the frame (tiles in its pixels).
        reading: the last stable reading, scored (None before the first).
        settings: the table settings.
        status: a short status text (frame rate, frozen…).
    """

    frame: TrackFrame
    reading: Reading | None
    settings: TableSettings
    status: str = ""


def draw_overlay(image: np.ndarray, overlay: Overlay) -> np.ndarray:
    """The frame with tiles, score panel, settings and status drawn (a new image).

    Args:
        image: BGR ``uint8 (H, W, 3)``.
        overlay: what to draw.

    Returns:
        A new BGR ``uint8 (H, W, 3)`` image.
    """
    out = _tiles(image, overlay)
    scale = max(0.45, out.shape[0] / 1200)
    lines = panel_lines(overlay.reading)
    if lines:
        _box(out, lines, (10, 10), scale)
    keys = "keys: t tsumo/ron  r riichi  s seat  w round  h/H honba  f freeze  q quit"
    bottom = [(overlay.settings.describe(), ACCENT), (keys, DIM)]
    h = out.shape[0]
    _box(out, bottom, (10, h - 10 - _height(bottom, scale)), scale)
    state = "reading..." if overlay.frame.pending or not overlay.frame.quiet else "steady"
    status = [(f"{overlay.status}  {state}".strip(), TEXT)]
    (w_text, _), _ = cv2.getTextSize(status[0][0], FONT, scale, 1)
    _box(out, status, (out.shape[1] - w_text - 30, 10), scale)
    return out


def _tiles(image: np.ndarray, overlay: Overlay) -> np.ndarray:
    tiles = overlay.frame.tiles
    reading = overlay.reading
    roles = reading.roles if reading is not None else {}
    names = reading.names if reading is not None else {}
    doubts: set[int] = set()
    if reading is not None and reading.result is not None and reading.result.reading is not None:
        ids = [t.id for t in reading.tiles]
        doubts = {ids[d.detection] for d in reading.result.reading.doubts if d.detection < len(ids)}
    return annotate(
        image, [t.detection for t in tiles],
        roles=[roles.get(t.id, "other") for t in tiles],
        names=[names.get(t.id) or t.detection.label_name for t in tiles],
        doubtful=[i for i, t in enumerate(tiles) if t.id in doubts])


def panel_lines(reading: Reading | None) -> list[tuple[str, tuple[int, int, int]]]:
    """The score panel's text lines with colours (empty when there is nothing to say)."""
    if reading is None:
        return []
    result = reading.result
    if result is None:
        return [("no hand on the table", DIM)] if reading.error is None else \
            [(f"cannot read: {reading.error.message}"[:90], DIM)]
    lines: list[tuple[str, tuple[int, int, int]]] = \
        [(f"hand {result.hand}", TEXT)] if result.hand else []
    score = result.score
    if score is not None:
        how = "tsumo" if score.tsumo else "ron"
        value = f"yakuman x{score.yakuman}" if score.yakuman else f"{score.han} han {score.fu} fu"
        limit = "" if score.limit == "none" else f"  {score.limit}"
        lines.append((f"{value}{limit}  {score.points} points  ({how} {score.win})", ACCENT))
        for y in score.yaku[:MAX_YAKU_ROWS]:
            lines.append((f"  {y.name}  {y.han}", TEXT))
        pays = "  ".join(f"{who} {amount}" for who, amount in score.payments.items())
        lines.append((f"pays: {pays}  (total {score.total})", TEXT))
    elif result.waits:
        waits = "  ".join(f"{w.tile} {w.result.points if w.result else '-'}"
                          for w in result.waits)
        lines.append((f"tenpai, waits: {waits}", ACCENT))
    elif result.error is not None:
        lines.append((f"not scored: {result.error.message}"[:90], DIM))
    return lines


def _height(lines: list, scale: float) -> int:
    return int(len(lines) * 30 * scale + 12)


def _box(out: np.ndarray, lines: list[tuple[str, tuple[int, int, int]]],
         origin: tuple[int, int], scale: float) -> None:
    """Write ``lines`` on a translucent dark box whose top-left is ``origin`` (in place)."""
    widths = [cv2.getTextSize(text, FONT, scale, 1)[0][0] for text, _ in lines]
    x0, y0 = max(0, origin[0]), max(0, origin[1])
    x1 = min(out.shape[1], x0 + max(widths) + 20)
    y1 = min(out.shape[0], y0 + _height(lines, scale))
    if x1 <= x0 or y1 <= y0:
        return
    roi = out[y0:y1, x0:x1]
    roi[:] = cv2.addWeighted(roi, 1.0 - PANEL_ALPHA, np.zeros_like(roi), PANEL_ALPHA, 0)
    for i, (text, colour) in enumerate(lines):
        y = int(y0 + (i + 1) * 30 * scale)
        cv2.putText(out, text, (x0 + 10, y), FONT, scale, colour, max(1, round(scale * 1.5)),
                    cv2.LINE_AA)
