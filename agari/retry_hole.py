"""A hand read one tile short may have lost a concealed tile: a hole in its row.

Where the locator misses a concealed tile (boxes shifted along a slanted row, a box over two
tiles dropped), the row still holds a waiting hand's worth of tiles with the winning tile
taken in among them, and that 13-tile reading looks sure enough to keep: no retry ever looks
for the lost tile (990045, 990091). The hole it leaves, a step between neighbouring
concealed tiles well over the steps beside it, says a tile is missing there.
"""

from __future__ import annotations

import numpy as np

WAITING = 13
"""Tiles in a waiting hand, each meld counted as three."""
MIN_STEPS = 3
"""Fewer steps between concealed tiles than this give no usual step to measure by."""


def holed_row(result, ratio: float) -> bool:
    """``result`` (a `PhotoResult`) reads a waiting hand whose concealed tiles (with any
    winning tile set apart) step somewhere along the row ``ratio`` times the larger of the
    steps beside it or more: a tile between them was lost. Steps are measured against their
    neighbours, not the row's median: seen end-on, a row's steps grow towards the camera."""
    reading = result.reading
    best = getattr(reading, "best", None)  # a stand-in reading may not say which tiles
    plan = getattr(best, "plan", None)
    if plan is None or plan.size != WAITING:
        return False
    row = (*plan.concealed, *((plan.win,) if plan.win is not None else ()))
    if len(row) <= MIN_STEPS:
        return False
    ext = plan.frame.project(np.asarray([result.detections[i].quad for i in row], np.float64))
    steps = np.diff(np.sort((ext[:, 0] + ext[:, 1]) / 2))
    beside = np.maximum(np.r_[0.0, steps[:-1]], np.r_[steps[1:], 0.0])
    return bool((steps >= ratio * beside).any())


__all__ = ["holed_row"]
