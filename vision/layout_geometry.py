"""Geometry of a shown hand: the hand's frame, rows, stacked columns and gap-split groups.

Everything here is pure geometry over `TileDetection` quads; labels are used
only to tell face-down tiles from face-up ones (`is_face_down`). Positions are
measured in a `HandFrame`: ``u`` along the hand's row (left → right as its
player reads it), ``v`` towards the far side of the row ("up"). Gaps are
measured in units of the hand's tile width (the along-row extent of an upright
tile), so the thresholds hold from 20 px tiles to 400 px tiles.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain

import numpy as np
from agari.engine.tiles import BACK, TILE_NAMES
from agari.vision.detection import TileDetection


@dataclass(frozen=True, slots=True)
class GeometryConfig:
    """Thresholds of row and group finding (lengths in tile widths)."""

    angle_tolerance: float = 20.0
    """Degrees two tiles' row directions may differ and still share a row."""
    row_overlap: float = 0.45
    """Two tiles side by side in a row overlap across the row by at least this fraction of
    the smaller tile's extent."""
    row_link_gap: float = 3.2
    """Largest gap along a row (tile widths) that still links two tiles into one row."""
    stack_overlap: float = 0.5
    """Two sideways tiles overlapping along the row by this fraction of the narrower one,
    one above the other, are a stack (an added kan)."""
    stack_gap: float = 0.35
    """Largest gap across the row (tile widths) between the two tiles of a stack."""
    stack_raise: float | None = 0.4
    """A sideways tile alone in its column whose mid-line lies this many of its upright
    neighbours' extents across the row above theirs lies on a hidden tile: an added kan
    (`agari.vision.layout_stacks.raised`). On the tuning renders' final detections the
    called tiles of pons and chis lie at most 0.19 above their neighbours (0.3 for a quad
    taken for one), the upper tiles of stacks seen at a slant 0.46 and more. None: off."""
    stack_reach: float | None = 2.0
    """A loose sideways tile in a gap of the hand's row (or just past its end) lying between
    `stack_raise` and this many of its neighbours' extents across the row above them is an
    added kan's upper tile lifted out of the row, its stack unfound
    (`agari.vision.layout_stacks.lying_on_hidden`). None: off."""
    stack_cap: tuple[float, float] | None = (0.5, 1.6)
    """A quad read as no tile (or unsurely) whose mid-line lies between these many of a
    sideways tile's extents across the row above that tile's, overlapping it along the row
    (`stack_overlap`), is an added kan's upper tile the classifier did not read: the
    sideways tile is a stack (`agari.vision.layout_stacks.capped`; its size along the row
    `agari.vision.layout.CAP_LENGTH`). None: off."""
    satellite_gap: float = 4.5
    """Largest gap (tile widths) between a hand's row and a row of melds continuing it."""
    satellite_drop: float = 1.2
    """How far (tile heights) in front of the hand a continuing row may lie."""
    satellite_size: int = 18
    """Rows longer than this never continue a hand (four kans and a winning tile at most)."""
    sideways_ratio: float = 1.4
    """A tile is sideways when its along/across aspect exceeds the row's median upright
    aspect by this factor (the locator's own flag counts too)."""
    sideways_local: int = 2
    """...and the least aspect of its nearest columns (this many): in a row seen end-on
    every tile is squatter than the one before it (0: the row's median alone)."""
    turned_ratio: float | None = 1.05
    """A tile whose face was read across the row (`FaceAcross`) is sideways already when its
    aspect exceeds those by this factor (None: by `sideways_ratio` as any other): two weak
    signs of a called tile the locator boxed at about an upright tile's size."""


DEFAULT_GEOMETRY = GeometryConfig()


class FaceAcross(TileDetection):
    """A detection whose quad the hand's frame names a quarter round from the locator's, not
    flagged sideways, its face read surely as the locator named it (`layout_frame.aligned`):
    the face runs across the row, as a called tile's does. Its flag says upright (its crop
    in the row's frame is the face turned a quarter), and `sideways_flags` weighs its shape
    by `GeometryConfig.turned_ratio`: a face read turned is no proof alone (a 發 named round
    reads 西 surely)."""

    __slots__ = ()

MELD_COLUMNS = 3
"""Columns of the smallest meld: narrower groups are not tested for sideways tiles."""
UPRIGHT_SPREAD = 1.2
"""Tiles within this factor of a row's median aspect count as upright when sizing the row."""
MEMO_SIZE = 4096
"""Rows and frames remembered by their quads (`find_rows`, `frame_of_row`): a photo's
layouts find the same rows again for every fix the reading tries."""


@dataclass(frozen=True, slots=True)
class HandFrame:
    """The hand's own axes in image pixels.

    Attributes:
        along: unit vector along the row (the player's left → right), image axes.
        up: unit vector across the row, towards its far side.
        tile_width: along-row extent of an upright tile, pixels.
        tile_height: across-row extent of an upright tile, pixels.
    """

    along: tuple[float, float]
    up: tuple[float, float]
    tile_width: float
    tile_height: float

    def project(self, quads: np.ndarray) -> np.ndarray:
        """Extents of quads in this frame (see `mid_extents`).

        Args:
            quads: float ``(N, 4, 2)`` image points.

        Returns:
            float ``(N, 4)``: ``u0, u1, v0, v1`` per quad, pixels.
        """
        return mid_extents(quads, np.asarray(self.along, np.float64),
                           np.asarray(self.up, np.float64))

    def flipped(self) -> HandFrame:
        """The same row seen from the other side (a hand photographed upside down)."""
        return HandFrame((-self.along[0], -self.along[1]), (-self.up[0], -self.up[1]),
                         self.tile_width, self.tile_height)

    @property
    def angle(self) -> float:
        """Row direction in degrees (image x axis = 0, y down)."""
        return math.degrees(math.atan2(self.along[1], self.along[0]))


def median(values: np.ndarray) -> float:
    """Median of a short 1-D array (statistics' is far quicker than numpy's on a few values)."""
    return float(statistics.median(values.tolist()))


def mid_extents(quads: np.ndarray, along: np.ndarray, up: np.ndarray) -> np.ndarray:
    """``(N, 4)`` extents ``u0, u1, v0, v1`` of quads along ``along`` and ``up``.

    Measured between the midpoints of opposite edges (left edge to right edge,
    bottom to top), not the corners' hull: a tile lying flat and seen
    obliquely is a sheared quad whose corners overhang its neighbours, but
    whose edge midpoints still abut them. ``along``/``up`` are ``(2,)`` or
    per-quad ``(N, 2)`` unit vectors.
    """
    u = quads @ along if along.ndim == 1 else np.einsum("nkd,nd->nk", quads, along)
    v = quads @ up if up.ndim == 1 else np.einsum("nkd,nd->nk", quads, up)
    sums = [u[:, 0] + u[:, 3], u[:, 1] + u[:, 2], v[:, 2] + v[:, 3], v[:, 0] + v[:, 1]]
    # Halved in place and written straight into the columns of the result: the same
    # values as ``(a + b) / 2`` stacked, without `np.stack`'s Python-level overhead (a
    # photo's layouts call this ~500 times on a few quads each).
    if all(a.dtype.kind == "f" and a.dtype == sums[0].dtype for a in sums):
        for a in sums:
            a /= 2
    else:  # whole numbers: true division makes floats
        sums = [a / 2 for a in sums]
    left, right, bottom, top = sums
    out = np.empty((len(left), 4), np.result_type(left, bottom))
    np.minimum(left, right, out=out[:, 0])
    np.maximum(left, right, out=out[:, 1])
    np.minimum(bottom, top, out=out[:, 2])
    np.maximum(bottom, top, out=out[:, 3])
    return out


def face_mass(det: TileDetection) -> float:
    """Probability the classifier gives to the detection showing a face (any tile name)."""
    return sum(p for name, p in det.alternatives if name in TILE_NAMES)


def back_mass(det: TileDetection) -> float:
    """Probability the classifier gives to the detection showing its back."""
    return sum(p for name, p in det.alternatives if name == BACK)


def is_face_down(det: TileDetection) -> bool:
    """The back shows: the classifier says ``back`` (or, when it says ``none``, thinks a back
    likelier than a face); unclassified, the locator's guess."""
    if det.label is not None:
        return det.label == BACK
    if det.alternatives:
        return back_mass(det) > face_mass(det)
    return det.face_down


def quads_of(dets: list[TileDetection]) -> np.ndarray:
    """float ``(N, 4, 2)`` array of the detections' quads."""
    if not dets:
        return np.zeros((0, 4, 2))
    # Read as one flat run of coordinates: numpy's nested-sequence reading took 2-3 times
    # as long (a photo's layout asks ~200 times); the same float64 values.
    try:
        flat = np.fromiter(chain.from_iterable(chain.from_iterable(d.quad for d in dets)),
                           np.float64, count=8 * len(dets))
    except (TypeError, ValueError):  # a malformed quad: numpy's own reading says how
        return np.asarray([d.quad for d in dets], np.float64)
    return flat.reshape(len(dets), 4, 2)


def _unit(v: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return v / np.where(n > 0, n, 1.0)


def tile_axes(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per tile, the unit row direction (TL→TR and BL→BR averaged) and the unit normal
    to it on the tile's far side (its "up", square to the row even for a sheared quad).

    Returns:
        two float ``(N, 2)`` arrays.
    """
    along = _unit((quads[:, 1] - quads[:, 0]) + (quads[:, 2] - quads[:, 3]))
    raw_up = (quads[:, 0] - quads[:, 3]) + (quads[:, 1] - quads[:, 2])
    up = np.stack([along[:, 1], -along[:, 0]], axis=1)
    sign = np.where((up * raw_up).sum(1) < 0, -1.0, 1.0)
    return along, up * sign[:, None]


def _own_extents(quads: np.ndarray, along: np.ndarray, up: np.ndarray) -> np.ndarray:
    """``(N, 2)`` along-row and across-row extents of each quad in its own axes."""
    ext = mid_extents(quads, along, up)
    return np.stack([ext[:, 1] - ext[:, 0], ext[:, 3] - ext[:, 2]], axis=1)


def find_rows(dets: list[TileDetection], cfg: GeometryConfig = DEFAULT_GEOMETRY
              ) -> list[list[int]]:
    """Group detections into rows: tiles with one direction, side by side.

    Two tiles are linked when their row directions agree within
    ``angle_tolerance`` and, in the first one's axes, they overlap across the
    row and the gap along it is at most ``row_link_gap`` tile widths. Rows are
    the linked components, largest first. (The upper tile of an added kan
    joins its row later, see `stacked_onto`.)
    """
    try:
        rows = _remembered_rows(tuple(d.quad for d in dets), cfg)
    except TypeError:  # a quad given as an array: no memo key
        rows = _rows(quads_of(dets), cfg)
    return [list(r) for r in rows]


@lru_cache(maxsize=MEMO_SIZE)
def _remembered_rows(quads: tuple, cfg: GeometryConfig) -> tuple[tuple[int, ...], ...]:
    return _rows(np.asarray(quads, np.float64).reshape(-1, 4, 2), cfg)


def _rows(quads: np.ndarray, cfg: GeometryConfig) -> tuple[tuple[int, ...], ...]:
    """`find_rows` of float ``(N, 4, 2)`` quads."""
    n = len(quads)
    if n == 0:
        return ()
    along, up = tile_axes(quads)
    own = _own_extents(quads, along, up)
    short = np.minimum(own[:, 0], own[:, 1])
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    cos_tol = math.cos(math.radians(cfg.angle_tolerance))
    # Every tile's extents in every tile's own frame at once: [i, j] = tile j in i's frame.
    u = np.einsum("jkd,id->ijk", quads, along)
    v = np.einsum("jkd,id->ijk", quads, up)
    left, right = (u[..., 0] + u[..., 3]) / 2, (u[..., 1] + u[..., 2]) / 2
    bottom, top = (v[..., 2] + v[..., 3]) / 2, (v[..., 0] + v[..., 1]) / 2
    u0, u1 = np.minimum(left, right), np.maximum(left, right)
    v0, v1 = np.minimum(bottom, top), np.maximum(bottom, top)
    own_u0, own_u1 = np.diag(u0)[:, None], np.diag(u1)[:, None]
    own_v0, own_v1 = np.diag(v0)[:, None], np.diag(v1)[:, None]
    ext_v = v1 - v0
    v_overlap = np.minimum(v1, own_v1) - np.maximum(v0, own_v0)
    u_gap = np.maximum(u0 - own_u1, own_u0 - u1)
    linked = (along @ along.T >= cos_tol) \
        & (v_overlap >= cfg.row_overlap * np.minimum(ext_v, np.diag(ext_v)[:, None])) \
        & (u_gap <= cfg.row_link_gap * np.maximum(short, 1.0)[:, None])
    for i, j in zip(*np.nonzero(linked), strict=True):
        if i != j:
            a, b = root(int(i)), root(int(j))
            if a != b:
                parent[b] = a
    rows: dict[int, list[int]] = {}
    for i in range(n):
        rows.setdefault(root(i), []).append(i)
    return tuple(tuple(r) for r in sorted(rows.values(), key=lambda r: (-len(r), r[0])))


def stacked_onto(row: list[int], loose: list[int], ext: np.ndarray, frame: HandFrame,
                 cfg: GeometryConfig = DEFAULT_GEOMETRY) -> list[int]:
    """Tiles of ``loose`` that lie on top of a sideways tile of ``row`` (an added kan, 加槓).

    Such a tile lies sideways just beyond (across the row from) a sideways tile
    of the row, overlapping it along the row.
    """
    aspect = (ext[:, 1] - ext[:, 0]) / np.maximum(ext[:, 3] - ext[:, 2], 1e-6)
    wide = aspect > cfg.sideways_ratio * median(aspect[row])
    bases = [i for i in row if wide[i]]
    found = []
    for j in loose:
        if not wide[j]:
            continue
        for i in bases:
            overlap = min(ext[i, 1], ext[j, 1]) - max(ext[i, 0], ext[j, 0])
            narrow = min(ext[i, 1] - ext[i, 0], ext[j, 1] - ext[j, 0])
            gap = ext[j, 2] - ext[i, 3]
            if overlap >= cfg.stack_overlap * narrow and \
                    -cfg.stack_gap * frame.tile_width <= gap <= cfg.stack_gap * frame.tile_width:
                found.append(j)
                break
    return found


def satellite_rows(row: list[int], others: list[list[int]], quads: np.ndarray, frame: HandFrame,
                   cfg: GeometryConfig = DEFAULT_GEOMETRY) -> list[int]:
    """Rows that continue ``row`` at either end: melds lying in front of a standing hand.

    A tile lying flat beside standing tiles does not overlap them across the
    row, so melds (and a winning tile laid flat) form rows of their own. Such a
    row is parallel to the hand, starts within ``satellite_gap`` tile widths of
    its end, and lies level with it or just in front of it (never behind it,
    where the dora are).
    """
    ext = frame.project(quads)
    along, _ = tile_axes(quads)
    cos_tol = math.cos(math.radians(cfg.angle_tolerance))
    direction = np.asarray(frame.along)
    members = list(row)
    pending = [r for r in others if len(r) <= cfg.satellite_size]
    grown = True
    while grown:
        grown = False
        u0, u1 = ext[members, 0].min(), ext[members, 1].max()
        v0, v1 = ext[members, 2].min(), ext[members, 3].max()
        for r in pending:
            if float((along[r] @ direction).mean()) < cos_tol:
                continue
            gap = max(ext[r, 0].min() - u1, u0 - ext[r, 1].max())
            centre = float((ext[r, 2] + ext[r, 3]).mean() / 2)
            if -0.5 * frame.tile_width <= gap <= cfg.satellite_gap * frame.tile_width and \
                    v0 - cfg.satellite_drop * frame.tile_height <= centre <= v1:
                members.extend(r)
                pending.remove(r)
                grown = True
                break
    return members[len(row):]


def row_weight(dets: list[TileDetection], row: list[int]) -> float:
    """How much a row looks like a player's hand: face-up tiles count 1, backs 1/2."""
    return sum(0.5 if is_face_down(dets[i]) else 1.0 for i in row)


def frame_of_row(dets: list[TileDetection], row: list[int]) -> HandFrame:
    """The frame of one row: mean direction of its tiles, tile size from its upright tiles."""
    try:
        return _remembered_frame(tuple(dets[i].quad for i in row))
    except TypeError:  # a quad given as an array: no memo key
        return _frame(quads_of([dets[i] for i in row]))


@lru_cache(maxsize=MEMO_SIZE)
def _remembered_frame(quads: tuple) -> HandFrame:
    return _frame(np.asarray(quads, np.float64).reshape(-1, 4, 2))


def _frame(quads: np.ndarray) -> HandFrame:
    """`frame_of_row` of the row's float ``(N, 4, 2)`` quads."""
    along, up = tile_axes(quads)
    a = _unit(along.mean(0))
    # Up is perpendicular to the row; its sign follows the majority of the tiles.
    perp = np.array([a[1], -a[0]])
    if float((up @ perp).sum()) < 0:
        perp = -perp
    own = _own_extents(quads, along, up)
    # Most tiles of a hand stand upright; sideways (called) ones are the wide outliers.
    aspect = own[:, 0] / np.maximum(own[:, 1], 1e-6)
    sizes = own[aspect <= median(aspect) * UPRIGHT_SPREAD]
    width, height = median(sizes[:, 0]), median(sizes[:, 1])
    return HandFrame((float(a[0]), float(a[1])), (float(perp[0]), float(perp[1])),
                     max(width, 1.0), max(height, 1.0))


def sideways_flags(dets: list[TileDetection], ext: np.ndarray, groups: list[list[list[int]]],
                   cfg: GeometryConfig = DEFAULT_GEOMETRY) -> np.ndarray:
    """bool ``(N,)``: each tile of ``groups`` lies with its long side along the row.

    A tile is sideways when the locator says so, or, in a group of at least
    three columns (a meld's size), when its along/across aspect exceeds
    ``sideways_ratio`` times the group's median aspect (``turned_ratio`` for a face read
    across the row, `FaceAcross`). Comparing within the
    group keeps lying melds beside a standing hand right: seen obliquely, all
    their tiles look squat, the called one still about twice as much. A lone
    tile lying beside a standing row looks squat too, yet it is no called tile.
    """
    aspect = (ext[:, 1] - ext[:, 0]) / np.maximum(ext[:, 3] - ext[:, 2], 1e-6)
    flags = np.array([d.sideways for d in dets], bool)
    turned = cfg.turned_ratio
    mids = None
    for k, g in enumerate(groups):
        near = _meld_company(groups, k)
        if len(near) < MELD_COLUMNS:
            continue
        firsts = [c[0] for c in near]
        ref = median(aspect[firsts])
        mids = _mids(ext) if mids is None else mids
        for col in g:
            for i in col:
                local = _local_aspect(i, firsts, aspect, mids, cfg.sideways_local)
                ratio = turned if turned is not None and type(dets[i]) is FaceAcross \
                    else cfg.sideways_ratio
                flags[i] |= bool(aspect[i] > ratio * max(ref, local))
    return flags


def _scalars(a: np.ndarray) -> list:
    """``list(a)``, as Python floats where ``a`` is float64: the same values, and Python's
    arithmetic and comparisons on them are float64's, far quicker than on numpy scalars (the
    layout measures a photo's rows thousands of times); other dtypes keep numpy's items."""
    return a.tolist() if a.dtype == np.float64 else list(a)


def _mids(ext: np.ndarray) -> list:
    """Each tile's middle along the row, ``(u0 + u1) / 2`` of its extents (`_scalars`)."""
    return _scalars((ext[:, 0] + ext[:, 1]) / 2)


def _local_aspect(i: int, firsts: list[int], aspect: np.ndarray, mids: list, n: int) -> float:
    """Least aspect of the ``n`` columns nearest tile ``i`` along the row (itself left out;
    the least, as a called tile may lie beside another): in a row seen end-on every tile is
    squatter than the one before it, and the row's median made the near end's upright tiles
    look sideways. ``mids``: `_mids` of the row's extents."""
    if n <= 0:
        return 0.0
    mid = mids[i]
    others = sorted((j for j in firsts if j != i), key=lambda j: abs(mids[j] - mid))[:n]
    return float(aspect[others].min()) if others else 0.0


def _meld_company(groups: list[list[list[int]]], k: int) -> list[list[int]]:
    """The columns a group's tiles are measured against for sideways ones: its own, and
    for a group narrower than a meld, those of the groups beside it no wider than a kan
    (a gap inside a meld, where a quad sits off its tile, leaves parts of one or two
    columns; the long run of concealed tiles may stand while the melds lie)."""
    if len(groups[k]) >= MELD_COLUMNS:
        return groups[k]
    beside = [groups[j] for j in (k - 1, k + 1)
              if 0 <= j < len(groups) and len(groups[j]) <= MELD_COLUMNS + 1]
    return [c for g in (groups[k], *beside) for c in g]


def columns_of(row: list[int], ext: np.ndarray, cfg: GeometryConfig = DEFAULT_GEOMETRY
               ) -> list[list[int]]:
    """Split a row into columns left to right; tiles stacked across the row share one.

    A column is listed bottom (nearest the player) first.
    """
    if not len(row):
        return []
    e = dict(zip(row, _scalars(ext[list(row)]), strict=True))  # ~370 calls a photo
    order = sorted(row, key=lambda i: (e[i][0] + e[i][1]) / 2)
    cols: list[list[int]] = []
    for i in order:
        if cols:
            last = cols[-1]
            lo, hi = min(e[j][0] for j in last), max(e[j][1] for j in last)
            overlap = min(hi, e[i][1]) - max(lo, e[i][0])
            narrow = min(hi - lo, e[i][1] - e[i][0])
            if overlap >= cfg.stack_overlap * narrow:
                last.append(i)
                continue
        cols.append([i])
    for c in cols:
        c.sort(key=lambda i: e[i][2])
    return cols


def column_span(col: list[int], ext: np.ndarray) -> tuple[float, float]:
    """``(u0, u1)`` of a column, pixels."""
    return min(ext[i, 0] for i in col), max(ext[i, 1] for i in col)


def row_gaps(cols: list[list[int]], ext: np.ndarray) -> list[float]:
    """Pixels from each column's end (the furthest so far) to the next column's start."""
    # A photo's layouts measure ~2 500 columns' spans (`_scalars`).
    lo, hi = _scalars(ext[:, 0]), _scalars(ext[:, 1])
    spans = [(lo[c[0]], hi[c[0]]) if len(c) == 1 else
             (min(lo[i] for i in c), max(hi[i] for i in c)) for c in cols]
    ends = np.maximum.accumulate([u1 for _, u1 in spans]) if spans else []
    return [float(spans[k + 1][0] - ends[k]) for k in range(len(spans) - 1)]


def group_limit(cols: list[list[int]], ext: np.ndarray, tile_width: float, *, gap: float,
                min_gap: float, relative: float) -> float:
    """The gap (px) that separates groups in this row: ``gap`` tile widths, or less where
    the row's tiles lie closer together than usual — ``relative`` times their median gap,
    but never under ``min_gap`` tile widths (a winning tile set apart by a fifth of a tile
    stands out in a row of tiles that touch)."""
    gaps = row_gaps(cols, ext)
    usual = max(float(np.median(gaps)), 0.0) if gaps else 0.0
    return min(gap * tile_width, max(min_gap * tile_width, relative * usual))


def split_by_gaps(cols: list[list[int]], ext: np.ndarray, limit: float
                  ) -> list[list[list[int]]]:
    """Split consecutive columns into groups wherever the gap between them exceeds ``limit`` px."""
    if not cols:
        return []
    groups: list[list[list[int]]] = [[cols[0]]]
    for col, gap in zip(cols[1:], row_gaps(cols, ext), strict=True):
        if gap > limit:
            groups.append([])
        groups[-1].append(col)
    return groups


def gap_before(group: list[list[int]], prev: list[list[int]], ext: np.ndarray) -> float:
    """Pixels between the end of ``prev`` and the start of ``group`` along the row."""
    return column_span(group[0], ext)[0] - column_span(prev[-1], ext)[1]
