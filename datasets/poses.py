"""Tile poses: lying face up or down (upright, upside down, sideways) and standing.

Every pose is built from a row: ``heading`` is the row's direction on the
table (degrees, 0 = world ``+x``), the row's "up" is 90° anticlockwise from it
(away from its player). ``turn`` is how far the tile's art is turned in the
row, anticlockwise seen from above: 0 upright, 90 a called tile lying with its
top to the left, 180 upside down, 270 top to the right.
"""

from __future__ import annotations

import math

import numpy as np
from agari.datasets.tilebody import TilePose

UP = np.array([0.0, 0.0, 1.0])


def _row_axes(heading: float) -> tuple[np.ndarray, np.ndarray]:
    h = math.radians(heading)
    return np.array([math.cos(h), math.sin(h), 0.0]), np.array([-math.sin(h), math.cos(h), 0.0])


def footprint(size_mm: tuple[float, float, float], turn: int) -> tuple[float, float]:
    """``(along the row, across the row)`` extent of a tile lying with ``turn``."""
    w, h, _ = size_mm
    return (h, w) if turn % 180 == 90 else (w, h)


def pose_flat(x: float, y: float, *, heading: float, turn: int, face_up: bool,
              size_mm: tuple[float, float, float], base_z: float = 0.0,
              spin: float = 0.0) -> TilePose:
    """A tile lying on the table (or on another tile at ``base_z``), centred at ``(x, y)``.

    Args:
        spin: a small extra turn in degrees (tiles are never laid perfectly straight).
    """
    right, up = _row_axes(heading)
    tr, tu = _row_axes(heading + turn + spin)
    depth = size_mm[2]
    if face_up:
        rot = np.column_stack([tr, tu, UP])
        origin = np.array([x, y, base_z + depth])
    else:  # lying on its face: the art's top still points along the turned "up"
        rot = np.column_stack([-tr, tu, -UP])  # flipped over about the art's up axis
        origin = np.array([x, y, base_z])
    return TilePose(rot=rot, origin=origin, row_right=right, row_up=up)


def pose_standing(x: float, y: float, *, heading: float, size_mm: tuple[float, float, float],
                  turn: int = 0, lean: float = 0.0, facing_player: bool = True,
                  spin: float = 0.0) -> TilePose:
    """A tile standing on its edge, footprint centred at ``(x, y)``.

    Args:
        turn: 0 or 180 (a tile stood upside down).
        lean: degrees the tile leans back, away from whoever it faces.
        facing_player: the face looks towards the row's player (``-up``); False shows
            the back to the player, as opponents' hands do.
        spin: small extra turn about the vertical, in degrees.
    """
    right, up = _row_axes(heading)
    sr, su = _row_axes(heading + spin)
    towards = -su if facing_player else su
    side = sr if facing_player else -sr
    ln = math.radians(lean)
    art_up = math.cos(ln) * UP - math.sin(ln) * towards
    normal = math.cos(ln) * towards + math.sin(ln) * UP
    if turn % 360 == 180:
        side, art_up = -side, -art_up
    rot = np.column_stack([side, art_up, normal])
    w, h, d = size_mm
    base = np.array([x, y, 0.0]) + towards * (d / 2)
    origin = base + (h / 2) * (math.cos(ln) * UP - math.sin(ln) * towards)
    # A standing row's "up" is the vertical; its right is its player's right.
    return TilePose(rot=rot, origin=origin, row_right=right if facing_player else -right,
                    row_up=UP)
