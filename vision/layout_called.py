"""A called tile lying sideways that the classifier called ``none`` (鳴いた牌の横向き牌).

The sideways tile of a meld is small and foreshortened in a standing view; the classifier
may call it ``none`` with little doubt, and it then drops out of the geometry, leaving a
chi or pon that parses as concealed tiles. `called_unread` takes back such a quad when it
sits in the hand's row as a tile would (`in_line`) and is squatter than the row's tiles
(longer along the row for its height, as a tile turned sideways is).
"""

from __future__ import annotations

import numpy as np
from agari.vision.detection import TileDetection
from agari.vision.layout_geometry import HandFrame, face_mass
from agari.vision.layout_inline import InlineConfig, in_line


def called_unread(dets: list[TileDetection], ext: np.ndarray, row: list[int],
                  not_tiles: list[int], twin: set[int], frame: HandFrame, ratio: float,
                  cfg: InlineConfig) -> list[int]:
    """Quads of ``not_tiles`` in line with ``row`` whose aspect (along / across the row) is at
    least ``ratio`` times the row's median aspect; ``ext``: ``(N, 4)`` extents in the frame."""
    if not row:
        return []
    named = [i for i in not_tiles if face_mass(dets[i]) > 0 and i not in twin]
    found = in_line(ext, row, named, frame, cfg)
    if not found:
        return []
    median = float(np.median([_aspect(ext[i]) for i in row]))
    return [i for i in found if _aspect(ext[i]) >= ratio * median]


def _aspect(e: np.ndarray) -> float:
    return float(e[1] - e[0]) / max(float(e[3] - e[2]), 1e-6)
