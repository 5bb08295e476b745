"""At most four of a kind in one photo: excess face-up readings of a kind are backs.

A classifier can mistake plain tile backs for a face that looks like them (a
blank 白 on an ivory-backed set): a wall then reads as a row of twenty 白.
Before the layout is analysed, a group of touching tiles holding more than
four of one kind is a wall: all of them become backs. Then every kind still
read face up more than four times keeps its four likeliest copies and the
others become backs. (Only tiles the classifier gave a back some probability
are turned; the rest are left to the reading's copy limit.)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from agari.engine.tiles import BACK, Tile
from agari.vision.detection import TileDetection
from agari.vision.layout_geometry import (
    back_mass,
    columns_of,
    find_rows,
    frame_of_row,
    quads_of,
    split_by_gaps,
)

MAX_COPIES = 4
"""Tiles of one kind in a set."""
TOUCHING = 0.2
"""Gap (tile widths) below which tiles of a row touch."""
MIN_BACK = 0.005
"""An excess copy becomes a back only if the classifier gave a back at least this much."""


def cap_copies(dets: Sequence[TileDetection], *, max_copies: int = MAX_COPIES,
               min_back: float = MIN_BACK) -> tuple[list[TileDetection], int]:
    """Detections with the excess copies of each kind read as backs.

    Returns:
        ``(detections, how many were turned into backs)``; the list keeps the order.
    """
    out = list(dets)
    turned = 0
    faces = defaultdict(int)
    for det in dets:
        if isinstance(det.label, Tile):
            faces[det.label.kind] += 1
    if max(faces.values(), default=0) <= max_copies:
        # No kind read more than ``max_copies`` times in the photo, so in no group either:
        # nothing to turn, and the rows need not be found (~2 ms a call).
        return out, turned
    for group in _touching_groups(dets):
        kinds: dict[int, list[int]] = defaultdict(list)
        for i in group:
            if isinstance(out[i].label, Tile):
                kinds[out[i].label.kind].append(i)
        for members in kinds.values():
            if len(members) > max_copies:
                for i in members:
                    turned += _to_back(out, i, min_back)
    by_kind: dict[int, list[int]] = defaultdict(list)
    for i, det in enumerate(out):
        if isinstance(det.label, Tile):
            by_kind[det.label.kind].append(i)
    for members in by_kind.values():
        if len(members) <= max_copies:
            continue
        # The likeliest faces stay: most confidence less back probability. (Ranked by back
        # probability first, a hand's sure tile with a trace more of it than doubtful
        # readings elsewhere in a whole-table photo was turned.)
        members.sort(key=lambda i: back_mass(dets[i]) - dets[i].confidence)
        for i in members[max_copies:]:
            turned += _to_back(out, i, min_back)
    return out, turned


def _to_back(dets: list[TileDetection], i: int, min_back: float) -> int:
    """Read detection ``i`` as a back if the classifier allowed it; 1 if it did."""
    p_back = back_mass(dets[i])
    if p_back < min_back:
        return 0
    dets[i] = replace(dets[i], label=BACK, face_down=True, confidence=min(1.0, p_back))
    return 1


def _touching_groups(dets: Sequence[TileDetection]) -> list[list[int]]:
    """Indices of tiles touching in a row (each row in its own frame)."""
    out = []
    for row in find_rows(list(dets)):
        frame = frame_of_row(list(dets), row)
        ext = frame.project(quads_of([dets[i] for i in range(len(dets))]))
        cols = columns_of(row, ext)
        for group in split_by_gaps(cols, ext, TOUCHING * frame.tile_width):
            out.append([i for col in group for i in col])
    return out
