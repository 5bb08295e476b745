"""Twins: two detections of one tile (the same name, boxes overlapping almost wholly).

The locator's steps may each frame a tile (a net face and a classical box, a refit and
the quad it refined), and both reach the layout. Side by side in one column, they read
as an added kan's stack (加槓: two sideways tiles, one beyond the other), and the meld
then needs a fourth tile it does not have. A true stack lies a tile's depth apart, its
boxes barely overlapping; twins overlap almost wholly.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np
from agari.vision.detection import TileDetection


def twins(dets: Sequence[TileDetection], idx: Sequence[int], min_iou: float) -> set[int]:
    """The detections of ``idx`` that repeat another of them: the same name (face or back)
    and boxes overlapping by ``min_iou`` or more (intersection over union); of each such
    pair the larger box (the later at a tie)."""
    named: dict[str, list[int]] = defaultdict(list)
    for i in idx:
        if dets[i].label_name is not None:
            named[dets[i].label_name].append(i)
    out: set[int] = set()
    for group in named.values():
        if len(group) < 2:
            continue
        boxes = np.array([dets[i].box for i in group], np.float64)  # (n, 4): x, y, w, h
        x0, y0 = boxes[:, 0], boxes[:, 1]
        x1, y1 = x0 + boxes[:, 2], y0 + boxes[:, 3]
        iw = np.clip(np.minimum(x1[:, None], x1) - np.maximum(x0[:, None], x0), 0, None)
        ih = np.clip(np.minimum(y1[:, None], y1) - np.maximum(y0[:, None], y0), 0, None)
        inter = iw * ih
        area = boxes[:, 2] * boxes[:, 3]
        iou = inter / np.maximum(area[:, None] + area - inter, 1e-9)
        np.fill_diagonal(iou, 0.0)
        for a, b in zip(*np.nonzero(np.triu(iou >= min_iou)), strict=True):
            i, j = group[a], group[b]
            if i in out or j in out:
                continue  # one of the pair already set aside
            out.add(_looser(dets, i, j))
    return out


def _looser(dets: Sequence[TileDetection], i: int, j: int) -> int:
    """Of twins, the larger box: it takes in a front side or a neighbour's edge (a classical
    box round a face the core net framed)."""
    area_i, area_j = dets[i].box[2] * dets[i].box[3], dets[j].box[2] * dets[j].box[3]
    return j if area_j >= area_i else i


__all__ = ["twins"]
