"""Added kans whose called tile hides under the added one (加槓, the fourth tile laid on top).

A player who adds the fourth tile to a pon often lays it on the sideways (called) tile. The
upper tile then hides the lower one's face: the locator boxes one sideways tile, and the meld
read as a pon. Seen at a slant the stack still shows, by height: the meld's other tiles lie
on the table, their near edges on one line, while the upper tile of the stack sits a tile's
thickness further across the row. `raised` finds such sideways columns; the layout reads each
as an added kan's stack (token ``K``) holding one detection, and the reading adds the hidden
tile as one more copy of the meld's kind (`agari.vision.reading_checks.meld_of`). Seen from
straight above nothing shows the stack, and the meld still reads as a pon.
"""

from __future__ import annotations

import numpy as np
from agari.vision.detection import TileDetection
from agari.vision.layout_geometry import is_face_down


def raised(groups: list[list[list[int]]], ext: np.ndarray, side: np.ndarray,
           dets: list[TileDetection], least: float) -> set[int]:
    """Sideways tiles alone in their column that lie raised over each upright column beside
    them in their group (one at least): their mid-line across the row at least ``least``
    times that neighbour's extent across the row above the neighbour's.

    ``ext``: ``(N, 4)`` extents ``u0, u1, v0, v1`` in the hand's frame; ``side``: bool
    ``(N,)`` sideways flags.
    """
    out = set()
    for group in groups:
        for k, col in enumerate(group):
            i = col[0]
            if len(col) != 1 or not side[i] or is_face_down(dets[i]):
                continue
            lifts = [_lift(ext[i], ext[nb[0]]) for nb in _beside(group, k)
                     if not side[nb[0]] and not is_face_down(dets[nb[0]])]
            if lifts and min(lifts) >= least:
                out.add(i)
    return out


def _beside(group: list[list[int]], k: int) -> list[list[int]]:
    return [group[j] for j in (k - 1, k + 1) if 0 <= j < len(group)]


def _lift(tile: np.ndarray, neighbour: np.ndarray) -> float:
    """How far ``tile``'s mid-line across the row lies above ``neighbour``'s, in the
    neighbour's extents across the row (a tile of the meld lying on the table)."""
    height = max(float(neighbour[3] - neighbour[2]), 1e-6)
    return float((tile[2] + tile[3]) - (neighbour[2] + neighbour[3])) / 2 / height


__all__ = ["raised"]
