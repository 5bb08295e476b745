"""Frames of a hand's tiles: which way its row runs, and each quad's corners named along it.

The locator names a quad's corners in the frame of the row it put the tile in
(`agari.vision.rows`); a tile it left in a row of its own (a short quad beside
tall ones, a tile lying flat seen at a slant) often gets a frame a quarter off,
so its own row direction runs across the hand's. The layout reads every quad
along one frame instead: the hand's row's, or, where the locator found no row
at all, the direction of the steps between neighbouring tiles.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection, as_quad
from agari.vision.layout_geometry import FaceAcross, HandFrame, is_face_down, median, quads_of

TURNED_FACE: float | None = 0.5
"""A quad the locator named a quarter round from the hand's row, not flagged sideways, whose
face is read at least this surely as named, has its face across the row, as a called tile
lying sideways has (`aligned` makes it a `FaceAcross`; None: none is). `agari.vision.quarter`
names the corners so where the crop as located read no tile."""

NEIGHBOUR_REACH = 1.6
"""A tile's nearest neighbour in its row lies within this many of its long sides."""

def neighbour_frame(dets: list[TileDetection], *, reach: float = NEIGHBOUR_REACH
                    ) -> HandFrame | None:
    """The frame along which the tiles have their nearest neighbours, or None without any.

    Tiles of a hand lie side by side, so the step from each tile to its nearest one runs
    along the row whatever way the locator framed the tiles themselves. The steps'
    directions are averaged as doubled angles (a step left is one right); steps longer
    than ``reach`` times the tile's long side join no neighbours.
    """
    quads = quads_of(dets)
    if len(quads) < 2:
        return None
    centres = quads.mean(axis=1)
    sides = np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2)
    dist = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(dist, np.inf)
    nearest = dist.argmin(axis=1)
    near = dist[np.arange(len(quads)), nearest] <= reach * sides.max(axis=1)
    if not near.any():
        return None
    step = centres[nearest[near]] - centres[near]
    angle = np.arctan2(step[:, 1], step[:, 0])
    turn = math.atan2(float(np.sin(2 * angle).sum()), float(np.cos(2 * angle).sum())) / 2
    along = (math.cos(turn), math.sin(turn))
    if along[0] < 0:
        along = (-along[0], -along[1])
    return HandFrame(along, (along[1], -along[0]), median(sides.min(axis=1)),
                     median(sides.max(axis=1)))


def aligned(dets: list[TileDetection], frame: HandFrame, *,
            turned_face: float | None = TURNED_FACE) -> list[TileDetection]:
    """The detections with their quads' corners renamed to run along ``frame``.

    The locator orders a quad's corners in the frame of the row it found the
    tile in; a tile it left in a row of its own (a short quad beside tall ones,
    a lying tile seen at a slant) gets its own, often a quarter turn off, so its
    row direction runs across the hand's and it links into no row. Here each
    quad's corners are turned so that TL→TR runs along the hand's row and
    TL→BL away from its far side; a quad turned a quarter is sideways when its
    side along the row is the longer one. One not flagged sideways whose face was read
    surely as named (at least ``turned_face``) is a `FaceAcross`: its face runs across the
    row, as a called tile's does, whatever the quad's shape (a called tile the locator boxed
    at about an upright tile's size).
    """
    if not dets:
        return []
    quads = quads_of(dets)
    turns = np.stack([np.roll(quads, -k, axis=1) for k in range(4)])  # (4, N, 4, 2)
    along = (turns[:, :, 1] - turns[:, :, 0]) + (turns[:, :, 2] - turns[:, :, 3])
    up = (turns[:, :, 0] - turns[:, :, 3]) + (turns[:, :, 1] - turns[:, :, 2])
    fit = along @ np.asarray(frame.along) + up @ np.asarray(frame.up)  # (4, N)
    best = fit.argmax(axis=0)
    out = []
    for i, d in enumerate(dets):
        k = int(best[i])
        if k == 0:
            out.append(d)
            continue
        # Turned a quarter, the locator's sideways flag was judged in the wrong frame.
        sideways = d.sideways and k % 2 == 0
        if k % 2 and not d.sideways and turned_face is not None and \
                isinstance(d.label, Tile) and d.confidence >= turned_face:
            out.append(FaceAcross(as_quad(turns[k, i]), False, d.face_down, d.label,
                                  d.confidence, d.alternatives))
            continue
        out.append(_turned(d, as_quad(turns[k, i]), sideways))
    return out


def _turned(det: TileDetection, quad: tuple, sideways: bool) -> TileDetection:
    """``replace(det, quad=quad, sideways=sideways)``: a plain detection built directly
    (`dataclasses.replace` took ~4 us of ~6 a tile; a photo's layouts turn ~400)."""
    if type(det) is not TileDetection:
        return replace(det, quad=quad, sideways=sideways)
    return TileDetection(quad, sideways, det.face_down, det.label, det.confidence,
                         det.alternatives)


def without_end_backs(dets: list[TileDetection], row: list[int], frame: HandFrame
                      ) -> list[int]:
    """The row less the face-down tiles before its first face and after its last."""
    centre = quads_of(dets)[row].mean(axis=1) @ np.asarray(frame.along)
    order = [row[k] for k in np.argsort(centre)]
    up = [k for k, i in enumerate(order) if not is_face_down(dets[i])]
    return order[up[0]:up[-1] + 1]


__all__ = ["NEIGHBOUR_REACH", "aligned", "neighbour_frame", "without_end_backs"]
