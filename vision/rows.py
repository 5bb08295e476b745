"""Rows: group located tiles into rows, orient them, and sort them in reading order.

Two tiles belong to the same row when one follows the other along the
direction of their centres: the step runs along the short side of at least one
of them (upright tiles stand side by side; a sideways tile's neighbour is
upright), they are about as tall across the step, nearly in line, and close.
Rows are the connected groups of such pairs. In photos of a hand
(`SLANTED_ROWS`) a level step along both tiles' long sides joins them too: faces
of tiles lying flat, seen from a low seat, are wider than tall.

Each row gets a frame: ``right`` along the row, ``up`` across it towards the
top of the image (for a vertical row, towards the image's left, so that the
frame turns a quarter from the usual one). A tile is sideways when its long
side runs along the row (in a row of faces seen at a slant, where most do, when
it is also clearly wider than the others). Quads are ordered TL, TR, BR, BL in the row's frame.
Rows are sorted top to bottom by their centres, tiles left to right along each
row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from agari.vision.detection import TileDetection, as_quad
from agari.vision.proposals import Proposal
from agari.vision.quads import order_quad


@dataclass(frozen=True, slots=True)
class RowConfig:
    """When two tiles count as neighbours in a row (shares of the row's tile height)."""

    max_gap: float = 0.8
    """Largest gap between neighbours along the row."""
    max_offset: float = 0.35
    """Largest sideways offset of neighbours' centres across the row."""
    height_ratio: float = 1.45
    """Neighbours' heights across the row may differ by at most this factor."""
    axis_tolerance_deg: float = 25.0
    """A tile's side must run within this angle of the step between centres."""
    level_deg: float | None = None
    """Faces seen at a slant: tiles lying flat seen from a low seat are wider than tall in
    the image, so their row steps along both tiles' long sides. Such a step joins a row
    when it runs within this angle of the image's horizontal (a column of upright tiles
    steps down the image, not across it); None never (`SLANTED_ROWS` sets it)."""
    slant_sideways: float = 1.25
    """In a row whose tiles mostly lie long side along it (faces seen at a slant), a tile
    is sideways only when it reaches this many times the row's median along it: the
    others are upright tiles, foreshortened."""


@dataclass(frozen=True, slots=True)
class _Tile:
    quad: np.ndarray  # float32 (4, 2)
    centre: np.ndarray  # (2,)
    short_axis: np.ndarray  # unit vector along the short sides' direction
    long_axis: np.ndarray
    short: float
    long: float


SLANTED_ROWS = RowConfig(level_deg=30.0)
"""Rows for photos of a hand (`agari.vision.locate.HAND_LOCATE`), often taken from a low
seat. Each face seen at a slant used to be a row of its own, framed a quarter off, or,
beside a tile seen square, flagged sideways: on the 200 tuning renders (seeds 910000 and
920000) 443 of the hand tiles located were framed so (the classifier reads them as no
tile or another one), 139 with these rows. Read by `agari photo` then: hand tiles missed
265 -> 255, given the wrong role 375 -> 362, misread 69 -> 38, exact hands 108 either way,
exact scores 65 -> 66; the real photos' variants 326 -> 328 tiles of 390. Only for hand
photos: a tray seen from above may hold sideways tiles side by side, which these rows
would take for upright ones."""


def _tile(quad: np.ndarray) -> _Tile:
    q = order_quad(quad)
    a = ((q[1] - q[0]) + (q[2] - q[3])) / 2.0  # across the quad (TL→TR)
    b = ((q[3] - q[0]) + (q[2] - q[1])) / 2.0  # down the quad (TL→BL)
    la, lb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    ua, ub = a / max(la, 1e-6), b / max(lb, 1e-6)
    if la <= lb:
        return _Tile(q, q.mean(axis=0), ua, ub, la, lb)
    return _Tile(q, q.mean(axis=0), ub, ua, lb, la)


def _extent(t: _Tile, direction: np.ndarray) -> tuple[float, float]:
    """The tile's extent along ``direction`` and across it."""
    c = abs(float(t.short_axis @ direction))
    s = abs(float(t.long_axis @ direction))
    along = t.short * c + t.long * s
    across = t.short * s + t.long * c
    return along, across


def _neighbours(a: _Tile, b: _Tile, cfg: RowConfig) -> bool:
    d = b.centre - a.centre
    dist = float(np.linalg.norm(d))
    if dist < 1e-6:
        return False
    u = d / dist
    cos_tol = math.cos(math.radians(cfg.axis_tolerance_deg))
    a_short = abs(float(a.short_axis @ u)) >= cos_tol
    b_short = abs(float(b.short_axis @ u)) >= cos_tol
    a_long = abs(float(a.long_axis @ u)) >= cos_tol
    b_long = abs(float(b.long_axis @ u)) >= cos_tol
    if not ((a_short or a_long) and (b_short or b_long)):
        return False
    if not (a_short or b_short) and not _level(u, cfg):
        return False
    along_a, across_a = _extent(a, u)
    along_b, across_b = _extent(b, u)
    height = max(across_a, across_b)
    if height > cfg.height_ratio * min(across_a, across_b) * (1.0 if a_short and b_short else 1.4):
        return False
    gap = dist - (along_a + along_b) / 2.0
    return gap <= cfg.max_gap * height


def _level(u: np.ndarray, cfg: RowConfig) -> bool:
    """Whether a step (unit vector) runs within `RowConfig.level_deg` of image horizontal."""
    return cfg.level_deg is not None and abs(float(u[0])) >= math.cos(math.radians(cfg.level_deg))


def _rows(tiles: list[_Tile], cfg: RowConfig) -> list[list[int]]:
    """Connected groups of neighbouring tiles (union-find over close pairs)."""
    n = len(tiles)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    centres = np.array([t.centre for t in tiles]).reshape(-1, 2)
    reach = np.array([t.long for t in tiles]) * (2.0 + cfg.max_gap)
    # Every pair's distance at once (row i: the same differences as ``centres - centres[i]``),
    # and the close pairs j > i in the order the loop over i, then j, took them.
    step = centres[None, :, :] - centres[:, None, :]
    close = np.hypot(step[..., 0], step[..., 1]) <= reach[:, None]
    for i, j in np.argwhere(np.triu(close, 1)).tolist():
        if _neighbours(tiles[i], tiles[j], cfg):
            parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _sideways(tiles: list[_Tile], right: np.ndarray, cfg: RowConfig) -> list[bool]:
    """Each tile's sideways flag in a row running along ``right``: its long side runs
    along the row; in a row mostly so (faces seen at a slant), only where it also
    reaches `RowConfig.slant_sideways` times the row's median along it (two such tiles
    side by side are both upright: called tiles never lie so)."""
    along = [abs(float(t.long_axis @ right)) > abs(float(t.short_axis @ right)) for t in tiles]
    if cfg.level_deg is None or 2 * sum(along) <= len(tiles):
        return along
    extent = np.array([_extent(t, right)[0] for t in tiles])
    wide = extent >= cfg.slant_sideways * float(np.median(extent))
    return [bool(a and w) for a, w in zip(along, wide, strict=True)]


def _row_frame(tiles: list[_Tile]) -> tuple[np.ndarray, np.ndarray]:
    """``(right, up)`` unit vectors of a row (image coordinates, y down)."""
    if len(tiles) == 1:
        right = tiles[0].short_axis.astype(np.float64)
    else:
        c = np.array([t.centre for t in tiles], np.float64)
        c -= c.mean(axis=0)
        _, _, vt = np.linalg.svd(c, full_matrices=False)
        right = vt[0]
    up = np.array([right[1], -right[0]])
    if up[1] > 0 or (abs(up[1]) < 1e-9 and up[0] > 0):
        up = -up
    right = np.array([-up[1], up[0]])  # a quarter turn clockwise from up, on screen
    return right, up


def arrange(props: list[Proposal], *, scale: float, cfg: RowConfig = RowConfig()
            ) -> list[TileDetection]:
    """Turn proposals into oriented detections in reading order.

    Args:
        props: proposals in working pixels.
        scale: working scale (working = original × scale).

    Returns:
        Detections in original pixels: rows top to bottom, tiles left to right
        along each row.
    """
    if not props:
        return []
    tiles = [_tile(p.quad) for p in props]
    rows = []
    for members in _rows(tiles, cfg):
        right, up = _row_frame([tiles[i] for i in members])
        centre = np.mean([tiles[i].centre for i in members], axis=0)
        members.sort(key=lambda i: float(tiles[i].centre @ right))
        rows.append((float(centre[1]), float(centre[0]), members, right, up))
    rows.sort(key=lambda r: (r[0], r[1]))
    out = []
    for _, _, members, right, up in rows:
        flags = _sideways([tiles[i] for i in members], right, cfg)
        for i, sideways in zip(members, flags, strict=True):
            t = tiles[i]
            q = order_quad(t.quad, (float(up[0]), float(up[1]))) / scale
            out.append(TileDetection(
                as_quad(q),
                sideways=sideways,
                face_down=props[i].face_down,
            ))
    return out
