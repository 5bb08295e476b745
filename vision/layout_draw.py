"""Draw a read hand on its photo: each tile's quad, name and role, doubtful tiles marked.

`annotate` returns a new image and never draws on the caller's. Colours are
per role (concealed, winning tile, melds, dora, ura, other); a doubtful tile
gets a thick outline and a ``?`` after its name.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from agari.vision.crops import as_bgr
from agari.vision.detection import TileDetection

ROLE_COLOURS: dict[str, tuple[int, int, int]] = {
    "concealed": (60, 200, 60),
    "win": (0, 215, 255),
    "meld": (255, 160, 40),
    "dora": (200, 60, 230),
    "ura": (150, 80, 150),
    "other": (150, 150, 150),
}
"""BGR colour per role (melds share one colour; their number is written)."""

ROLE_TAGS = {"concealed": "", "win": "WIN", "dora": "D", "ura": "U", "other": ""}
FONT = cv2.FONT_HERSHEY_SIMPLEX


def _colour(role: str) -> tuple[int, int, int]:
    return ROLE_COLOURS.get(role.split()[0], ROLE_COLOURS["other"])


def _tag(role: str) -> str:
    if role.startswith("meld"):
        return "M" + role.split()[-1]
    return ROLE_TAGS.get(role, "")


def annotate(image: np.ndarray, detections: Sequence[TileDetection], *,
             roles: Sequence[str] | None = None, names: Sequence[str | None] | None = None,
             doubtful: Sequence[int] = ()) -> np.ndarray:
    """The photo with every tile's quad, name and role drawn.

    Args:
        image: BGR ``uint8 (H, W, 3)`` (grey and BGRA accepted).
        detections: the tiles, quads in ``image`` pixels.
        roles: per detection ``concealed``, ``win``, ``meld 2``, ``dora``, ``ura``, ``other``.
        names: per detection the name to write (default the detection's label).
        doubtful: indices of tiles whose reading is in doubt.

    Returns:
        A new BGR ``uint8`` image of the same size.
    """
    out = as_bgr(image).copy()
    n = len(detections)
    roles = list(roles) if roles is not None else ["other"] * n
    names = list(names) if names is not None else [d.label_name for d in detections]
    doubt = set(doubtful)
    scale = max(0.4, min(out.shape[:2]) / 1400)
    for i, det in enumerate(detections):
        colour = _colour(roles[i])
        pts = np.round(np.asarray(det.quad, np.float64)).astype(np.int32).reshape(-1, 1, 2)
        thick = max(2, round(3 * scale)) * (2 if i in doubt else 1)
        cv2.polylines(out, [pts], True, colour, thick, cv2.LINE_AA)
        name = names[i] or ("back" if det.face_down else "none" if det.alternatives else "?")
        text = name + ("?" if i in doubt else "")
        tag = _tag(roles[i])
        _label(out, det, text, tag, colour, scale)
    return out


def _label(out: np.ndarray, det: TileDetection, text: str, tag: str,
           colour: tuple[int, int, int], scale: float) -> None:
    """Write the name above the tile (in the image's upright sense) and the role tag below."""
    xs = [p[0] for p in det.quad]
    ys = [p[1] for p in det.quad]
    cx = int(round(sum(xs) / 4))
    for line, y, big in ((text, min(ys) - 6 * scale, 0.9), (tag, max(ys) + 22 * scale, 0.7)):
        if not line:
            continue
        s = scale * big
        (w, h), _ = cv2.getTextSize(line, FONT, s, 1)
        org = (int(cx - w / 2), int(round(y)))
        cv2.putText(out, line, org, FONT, s, (0, 0, 0), max(3, round(4 * s)), cv2.LINE_AA)
        cv2.putText(out, line, org, FONT, s, colour, max(1, round(1.5 * s)), cv2.LINE_AA)
